// SPDX-License-Identifier: GPL-2.0
/*
 * ko_events.c - what fabtel.ko knows of a port's new bursts and flaps: when
 * the snapshot's events_seq rose, the new lines of ports/<n>/events (the
 * counter, by how much, when); when its link_flaps rose, the newest "up" of
 * link/history (how long the link was down).  Read only on a rise, so a
 * quiet port costs nothing more than its snapshot.  The first reading of a
 * port only sets the baseline: what came before is past.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ko_events.h"

static struct ko_seen *seen_of(struct ko_events *ke, const struct raw_port *p, bool *fresh)
{
	unsigned int i;

	*fresh = false;
	for (i = 0; i < KO_EV_SLOTS; i++)
		if (ke->seen[i].port == p->port && !strcmp(ke->seen[i].device, p->device))
			return &ke->seen[i];
	*fresh = true;
	for (i = 0; i < KO_EV_SLOTS && ke->seen[i].device[0]; i++)
		;
	if (i == KO_EV_SLOTS)
		i = ke->next_victim = (ke->next_victim + 1) % KO_EV_SLOTS;
	memset(&ke->seen[i], 0, sizeof(ke->seen[i]));
	snprintf(ke->seen[i].device, sizeof(ke->seen[i].device), "%s", p->device);
	ke->seen[i].port = p->port;
	return &ke->seen[i];
}

void ko_events_init(struct ko_events *ke, const struct collect_opts *o, struct fs_kept *kept)
{
	memset(ke, 0, sizeof(*ke));
	ke->o = o;
	ke->kept = kept;
}

/* the sampler's period: a burst is a rise within one (0: unknown) */
static uint64_t sample_period_ns(struct ko_events *ke)
{
	char path[600];
	uint64_t ms;

	fs_path(ke->o->sysfs_root, path, sizeof(path), "/sys/module/fabtel/parameters/sample_ms");
	return fs_read_u64_kept(ke->kept, path, &ms) ? 0 : ms * 1000000ull;
}

int ko_events_each(const char *base, uint64_t after,
		   void (*fn)(void *ctx, const struct raw_burst *b), void *ctx)
{
	uint64_t real_now = clock_ns(CLOCK_REALTIME), boot_now = clock_ns(CLOCK_BOOTTIME);
	char path[1000], buf[8192], *line, *save = NULL;
	unsigned long long seq, boot, delta;
	struct raw_burst b = { 0 };
	ssize_t err;

	snprintf(path, sizeof(path), "%s/events", base);
	err = fs_read_text(path, buf, sizeof(buf));
	if (err < 0)
		return (int)err;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llu %llu %31s %llu", &seq, &boot, b.counter, &delta) != 4 ||
		    seq <= after || boot > boot_now)
			continue;
		b.seq = seq;
		b.at_ns = real_now - (boot_now - boot);
		b.amount = delta;
		fn(ctx, &b);
	}
	return 0;
}

struct burst_ctx {
	struct raw_port *p;
	uint64_t span;
};

/* keep the newest RAW_BURSTS, with the sampler's period as each one's span */
static void keep_burst(void *ctx, const struct raw_burst *b)
{
	struct burst_ctx *c = ctx;
	struct raw_port *p = c->p;

	if (p->nr_burst_ev == RAW_BURSTS) {
		memmove(&p->burst_ev[0], &p->burst_ev[1],
			(RAW_BURSTS - 1) * sizeof(p->burst_ev[0]));
		p->nr_burst_ev--;
	}
	p->burst_ev[p->nr_burst_ev] = *b;
	p->burst_ev[p->nr_burst_ev++].span_ns = c->span;
}

static void read_bursts(struct ko_events *ke, const char *base, struct raw_port *p,
			uint64_t after)
{
	struct burst_ctx c = { p, sample_period_ns(ke) };

	ko_events_each(base, after, keep_burst, &c);
}

/* "<boottime_ns> <realtime_ns> <up|down> <source> <down_ns|->": the newest up's down time */
static void read_down_time(const char *base, struct raw_port *p)
{
	char path[1000], buf[8192], dir[8], src[16], down[24], *line, *save = NULL;
	unsigned long long boot, real;

	snprintf(path, sizeof(path), "%s/link/history", base);
	if (fs_read_text(path, buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llu %llu %7s %15s %23s", &boot, &real, dir, src, down) != 5 ||
		    strcmp(dir, "up") || !strcmp(down, "-"))
			continue;
		p->flap_down_ns = strtoull(down, NULL, 10);
		p->have_flap_down = true;	/* the last "up" line wins */
	}
}

void ko_events_read(struct ko_events *ke, const char *base, struct raw_port *p)
{
	bool fresh;
	struct ko_seen *s = seen_of(ke, p, &fresh);

	if (!fresh && p->have_bursts && p->bursts > s->seq)
		read_bursts(ke, base, p, s->seq);
	if (!fresh && p->have_flaps && p->flaps > s->flaps)
		read_down_time(base, p);
	/* a recorder_seq that fell: fabtel.ko was loaded again */
	if (ke->recs && p->have_rec_seq)
		s->rec_seq = records_read_port(ke->recs, base, p->device, p->port,
					       fresh || p->rec_seq < s->rec_seq ? 0 : s->rec_seq,
					       p->rec_seq, fresh);
	else if (p->have_rec_seq)
		s->rec_seq = p->rec_seq;
	if (p->have_bursts)
		s->seq = p->bursts;
	if (p->have_flaps)
		s->flaps = p->flaps;
}
