// SPDX-License-Identifier: GPL-2.0
/*
 * past.c - a restarted fabteld recovers what the kernel kept (see past.h).
 *
 * fabteld's event log and its jobs' health live in its memory, so a restart
 * (an upgrade, a crash, systemd) used to lose them: a job that was failing
 * came back healthy and the log began at the restart.  fabtel.ko keeps, per
 * port, the last 64 link transitions with their wall-clock times
 * (link/history) and the last 48 error bursts with their boot-clock times
 * (events): both are read back once, at start.
 *
 * Recovered: each flap (an "up" line whose source is carrier or coalesced;
 * an ib_event up is an administrative one, not a flap) as a link_flap
 * event, each burst as an error_burst event naming its counter, all marked
 * "restored" and in time order; and for the jobs seen at the first pass, a
 * link_flap signal for the flaps of their ports within hold_s, so their
 * verdict is what it was; each port's newest flap within recent_fault_s
 * makes it recent_fault again (sticky.c).  Not recoverable (Documentation/fabteld.rst):
 * rates and their history, per-QP events, pause storms, which job moved
 * traffic when, events of ports fabtel.ko no longer has.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "fsread.h"
#include "ko_events.h"
#include "past.h"
#include "sticky.h"

struct past_ev {
	uint64_t at_ns;			/* CLOCK_REALTIME */
	enum model_event_kind kind;
	const struct raw_port *rp;
	char counter[32];
};

/* the newest MODEL_MAX_EVENTS of all ports: more would not fit the log */
struct past {
	struct past_ev ev[MODEL_MAX_EVENTS];
	unsigned int n;
};

static void past_add(struct past *ps, const struct past_ev *e)
{
	unsigned int i, oldest = 0;

	if (ps->n < MODEL_MAX_EVENTS) {
		ps->ev[ps->n++] = *e;
		return;
	}
	for (i = 1; i < ps->n; i++)
		if (ps->ev[i].at_ns < ps->ev[oldest].at_ns)
			oldest = i;
	if (ps->ev[oldest].at_ns < e->at_ns)
		ps->ev[oldest] = *e;
}

/* "<boottime_ns> <realtime_ns> <up|down> <source> <down_ns|->" lines */
static void read_history(struct past *ps, const char *base, const struct raw_port *rp)
{
	struct past_ev e = { .kind = EV_LINK_FLAP, .rp = rp };
	char path[1000], buf[8192], dir[8], src[16], *line, *save = NULL;
	unsigned long long boot, real;

	snprintf(path, sizeof(path), "%s/link/history", base);
	if (fs_read_text(path, buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llu %llu %7s %15s", &boot, &real, dir, src) != 4)
			continue;	/* "# N omitted" */
		if (strcmp(dir, "up") || !strcmp(src, "ib_event"))
			continue;
		e.at_ns = real;
		past_add(ps, &e);
	}
}

struct past_bursts {
	struct past *ps;
	const struct raw_port *rp;
};

/* each of the port's bursts fabtel.ko kept (ko_events.c reads them) */
static void add_burst(void *ctx, const struct raw_burst *b)
{
	struct past_bursts *c = ctx;
	struct past_ev e = { .kind = EV_ERROR_BURST, .rp = c->rp, .at_ns = b->at_ns };

	snprintf(e.counter, sizeof(e.counter), "%s", b->counter);
	past_add(c->ps, &e);
}

static int cmp_at(const void *a, const void *b)
{
	const struct past_ev *x = a, *y = b;

	return x->at_ns < y->at_ns ? -1 : x->at_ns > y->at_ns;
}

/* the jobs on rp's port get the flaps within hold_s (m->lock held) */
static void signal_jobs(struct model *m, const struct past *ps, const struct raw_port *rp,
			uint64_t now)
{
	uint64_t hold = (uint64_t)m->opts.health.hold_s * NS_PER_S, last = 0, newest = 0, n = 0;
	struct model_port *p = model_port_get(m, rp->device, rp->port);
	unsigned int i, k;

	for (i = 0; i < ps->n; i++) {
		if (ps->ev[i].rp != rp || ps->ev[i].kind != EV_LINK_FLAP)
			continue;
		newest = ps->ev[i].at_ns > newest ? ps->ev[i].at_ns : newest;
		if (ps->ev[i].at_ns + hold < now)
			continue;
		n++;
		last = ps->ev[i].at_ns > last ? ps->ev[i].at_ns : last;
	}
	if (p && newest)
		sticky_restore(m, p, "link_flap", newest, now);
	if (!n)
		return;
	for (i = 0; i < m->job_slots; i++) {
		struct model_job *j = &m->jobs[i];

		for (k = 0; j->present && k < j->nr_ports; k++)
			if (j->ports[k].port == rp->port && !strcmp(j->ports[k].device, rp->device))
				model_signal_job(j, HS_LINK_FLAP, rp->device, rp->port, n, true, last);
	}
	if (p && p->last_flap_ns < last) {
		p->last_flap_ns = last;
		p->flap_timed_ns = last;	/* logged: no new flap takes its time */
	}
}

void past_restore(struct model *m, const struct raw *r)
{
	struct past *ps = calloc(1, sizeof(*ps));	/* once, at the first pass */
	uint64_t real_now = clock_ns(CLOCK_REALTIME);
	struct model_event *ev;
	char base[800];
	unsigned int i;

	if (!ps)
		return;
	for (i = 0; i < r->nr_ports; i++) {
		fs_path(m->opts.sysfs_root, base, sizeof(base), "/sys/kernel/fabtel/%s/ports/%u",
			r->ports[i].device, r->ports[i].port);
		read_history(ps, base, &r->ports[i]);
		ko_events_each(base, 0, add_burst, &(struct past_bursts){ ps, &r->ports[i] });
	}
	qsort(ps->ev, ps->n, sizeof(ps->ev[0]), cmp_at);
	pthread_mutex_lock(&m->lock);
	for (i = 0; i < ps->n; i++) {
		ev = model_log_event(m, ps->ev[i].kind, ps->ev[i].rp->device, ps->ev[i].rp->port,
				     ps->ev[i].at_ns);
		ev->restored = true;
		snprintf(ev->counter, sizeof(ev->counter), "%s", ps->ev[i].counter);
	}
	for (i = 0; i < r->nr_ports; i++)
		signal_jobs(m, ps, &r->ports[i], real_now);
	pthread_mutex_unlock(&m->lock);
	free(ps);
}
