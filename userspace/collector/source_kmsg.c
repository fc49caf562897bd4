// SPDX-License-Identifier: GPL-2.0
/*
 * source_kmsg.c - the kernel log's driver messages (kmsg_match.h), read
 * from /dev/kmsg each pass (Documentation/driver_messages.rst).
 *
 * /dev/kmsg is opened once, at the collector's start (before fabteld
 * gives up root: reading it needs CAP_SYSLOG when kernel.dmesg_restrict
 * is 1, and only the open is checked), and read from its end: what the
 * log held before is never counted, at this start or the next.  Each pass
 * reads what came since, KMSG_PASS_RECORDS records at most (a flood is
 * read over several passes, or lost to the kernel's ring and counted as
 * lost).  A line is a device's when its dictionary or prefix names the
 * device's PCI function (or parent), its netdev or itself; lines that
 * name no watched device count in a row of their own (device "").
 *
 * Wedged: a device's TX timeout, then within kmsg_wedged_s a lockup or a
 * hung task with a module of the device's driver family on its stack.
 * It stays wedged until the driver says it recovered (or the link came
 * up) or fabteld restarts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "collector.h"
#include "text.h"

#define KMSG_PASS_RECORDS	4096
#define KMSG_START_RECORDS	65536	/* read through at start, at most */

struct kmsg_devstate {
	uint64_t first_us;		/* the first TX timeout of this episode: its record time */
	uint64_t tx_us;			/* the last one's; 0 none */
	char tx_driver[32], tx_pattern[32];
};

/* the collector's priv for this source */
struct source_kmsg {
	int fd;				/* -1: not open */
	int err;			/* why not */
	struct kmsg_matcher mt;
	bool mt_ok;
	bool have_seq;
	uint64_t next_seq;
	uint64_t records, lost, user;
	struct raw_kmsg_dev dev[RAW_KMSG_DEVS];
	struct kmsg_devstate st[RAW_KMSG_DEVS];
	unsigned int nr;
	/* this pass: the watched devices' handles (bus/name), made when a hit needs them */
	bool handles;
	char handle[MODEL_MAX_PORTS][96];
	char buf[KMSG_RECORD_MAX];
};

static bool host_root(const struct collector *c)
{
	return !c->o->sysfs_root[0] || !strcmp(c->o->sysfs_root, "/");
}

/*
 * The log's end: the past is not ours to count.  Its records are read
 * through once, headers only, for the sequence number the next record
 * will have, from which losses are counted (lseek(SEEK_END) would say
 * nothing of it, and a flood before the first pass would go uncounted).
 */
static int to_end(struct source_kmsg *s)
{
	struct kmsg_rec rec;
	unsigned int n;
	ssize_t len;

	if (lseek(s->fd, 0, SEEK_SET) < 0)
		return -errno;
	for (n = 0;; n++) {
		if (n == KMSG_START_RECORDS) {	/* a flood as we start: its end, unnumbered */
			s->have_seq = false;
			return lseek(s->fd, 0, SEEK_END) < 0 ? -errno : 0;
		}
		len = read(s->fd, s->buf, sizeof(s->buf));
		if (len < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		if (len < 0 && errno == EAGAIN)
			return 0;
		if (len <= 0)
			return len < 0 ? -errno : -EIO;
		if (!kmsg_parse(s->buf, (size_t)len, &rec)) {
			s->next_seq = rec.seq + 1;
			s->have_seq = true;
		}
	}
}

static void kmsg_open(struct collector *c, void *priv)
{
	struct source_kmsg *s = priv;

	s->fd = -1;
	if (!c->o->kmsg || !host_root(c))
		return;
	s->err = kmsg_matcher_init(&s->mt);
	if (s->err)
		return;
	s->mt_ok = true;
	s->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0) {
		s->err = -errno;
		return;
	}
	s->err = to_end(s);
	if (s->err) {
		close(s->fd);
		s->fd = -1;
	}
}

/* the row of device (made if new); the host's, 0, when the table is full */
static unsigned int row_of(struct source_kmsg *s, const char *device)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->dev[i].device, device))
			return i;
	if (s->nr == RAW_KMSG_DEVS)
		return 0;	/* the host's row, made first */
	memset(&s->dev[s->nr], 0, sizeof(s->dev[0]));
	memset(&s->st[s->nr], 0, sizeof(s->st[0]));
	text_copy(s->dev[s->nr].device, sizeof(s->dev[0].device), device);
	return s->nr++;
}

/* the handle (bus/name) of the device link of RDMA device dev, "" none */
static void handle_of(const char *root, const char *dev, char *out, size_t len)
{
	char bus[64], name[64];

	out[0] = '\0';
	if (source_device_handle(root, dev, bus, name, sizeof(bus)))
		snprintf(out, len, "%s/%s", bus, name);
}

/* the watched RDMA device a hit names, "" none */
static const char *device_of(struct source_kmsg *s, const struct raw *r, const struct kmsg_hit *h)
{
	const char *slash;
	unsigned int i;

	if (!s->handles && (h->handle[0] || h->devname[0])) {
		for (i = 0; i < r->nr_ports; i++)
			handle_of("", r->ports[i].device, s->handle[i], sizeof(s->handle[0]));
		s->handles = true;
	}
	for (i = 0; i < r->nr_ports; i++) {
		const struct raw_port *p = &r->ports[i];

		slash = strchr(s->handle[i], '/');
		if ((h->handle[0] && !strcmp(h->handle, s->handle[i])) ||
		    (h->devname[0] && ((slash && !strcmp(h->devname, slash + 1)) ||
				       !strcmp(h->devname, p->device))) ||
		    (h->name[0] && (!strcmp(h->name, p->netdev) || !strcmp(h->name, p->device))))
			return p->device;
	}
	return "";
}

/*
 * When a record was read: its own time is the kernel's local clock since
 * boot, which need not keep step with CLOCK_MONOTONIC (nor the wall
 * clock); its order and spacing (the wedged window) are taken from it.
 */
static uint64_t read_time(void)
{
	return clock_ns(CLOCK_REALTIME);
}

static void event(struct raw *r, const char *device, unsigned int pattern, uint64_t at,
		  bool was_wedged)
{
	unsigned int i;

	for (i = 0; i < r->nr_kmsg_ev; i++)
		if (r->kmsg_ev[i].pattern == pattern && !strcmp(r->kmsg_ev[i].device, device)) {
			r->kmsg_ev[i].n++;
			return;
		}
	if (r->nr_kmsg_ev == RAW_KMSG_EVENTS) {
		r->kmsg_ev_over++;
		return;
	}
	memset(&r->kmsg_ev[i], 0, sizeof(r->kmsg_ev[0]));
	text_copy(r->kmsg_ev[i].device, sizeof(r->kmsg_ev[0].device), device);
	r->kmsg_ev[i].pattern = pattern;
	r->kmsg_ev[i].n = 1;
	r->kmsg_ev[i].at_ns = at;
	r->kmsg_ev[i].wedged = was_wedged;
	r->nr_kmsg_ev++;
}

/* a lockup with modules of the family of a device's recent TX timeout */
static void wedged(struct source_kmsg *s, const struct collector *c, struct raw *r,
		   const struct kmsg_hit *h)
{
	uint64_t win_us = (uint64_t)c->o->kmsg_wedged_s * 1000000;
	const char *mods, *m;
	unsigned int i;
	char mod[40], why[160];
	size_t n;

	for (i = 0; i < s->nr; i++) {
		struct kmsg_devstate *st = &s->st[i];

		if (!st->tx_us || h->ts_us < st->tx_us || h->ts_us - st->tx_us > win_us ||
		    s->dev[i].wedged)
			continue;
		mods = kmsg_family_modules(st->tx_driver);
		for (m = mods; *m; m += n + (m[n] == ' ')) {
			n = strcspn(m, " ");
			if (n >= sizeof(mod))
				continue;
			memcpy(mod, m, n);
			mod[n] = '\0';
			if (!strstr(h->modules, mod))
				continue;
			s->dev[i].wedged = true;
			s->dev[i].wedged_ns = read_time();
			snprintf(why, sizeof(why), "%s, then %s %llu s later with %s on the stack",
				 st->tx_pattern, kmsg_patterns[h->pattern].id,
				 (unsigned long long)((h->ts_us - st->first_us) / 1000000), mod);
			text_copy(s->dev[i].wedged_why, sizeof(s->dev[0].wedged_why), why);
			event(r, s->dev[i].device, h->pattern, s->dev[i].wedged_ns, true);
			break;
		}
	}
}

static void hit(struct source_kmsg *s, struct collector *c, struct raw *r,
		const struct kmsg_hit *h)
{
	const struct kmsg_pattern *p = &kmsg_patterns[h->pattern];
	unsigned int i = row_of(s, device_of(s, r, h));
	struct raw_kmsg_dev *d = &s->dev[i];
	bool was = d->wedged;

	d->n[h->pattern]++;
	if (p->error) {
		d->last_seq = h->seq;
		text_copy(d->last_text, sizeof(d->last_text), h->text);
	}
	if (i && p->kind == KMSG_TX_TIMEOUT) {
		struct kmsg_devstate *st = &s->st[i];

		/* an episode's first line names it; its last keeps it open */
		if (!st->tx_us || h->ts_us - st->tx_us > (uint64_t)c->o->kmsg_wedged_s * 1000000) {
			st->first_us = h->ts_us;
			text_copy(st->tx_driver, sizeof(st->tx_driver), h->driver);
			text_copy(st->tx_pattern, sizeof(st->tx_pattern), p->id);
		}
		st->tx_us = h->ts_us;
	} else if (i && (p->kind == KMSG_RECOVERED || p->kind == KMSG_LINK_UP)) {
		s->st[i].tx_us = 0;
		d->wedged = false;
	} else if (p->kind == KMSG_LOCKUP || p->kind == KMSG_HUNG_TASK) {
		wedged(s, c, r, h);
	}
	if (p->error || p->kind == KMSG_RECOVERED || was != d->wedged)
		event(r, d->device, h->pattern, read_time(), false);
}

/* one record read; false when there is none now (or the log failed) */
static bool read_one(struct source_kmsg *s, struct collector *c, struct raw *r)
{
	struct kmsg_hit h[2];
	struct kmsg_rec rec;
	unsigned int n, i;
	ssize_t len;

	len = read(s->fd, s->buf, sizeof(s->buf));
	if (len < 0 && errno == EPIPE)
		return true;	/* overwritten before we read it: the seq gap counts it */
	if (len <= 0) {
		if (len < 0 && errno != EAGAIN && errno != EINTR)
			s->err = -errno;
		return false;
	}
	if (kmsg_parse(s->buf, (size_t)len, &rec))
		return true;
	if (s->have_seq && rec.seq > s->next_seq)
		s->lost += rec.seq - s->next_seq;
	s->have_seq = true;
	s->next_seq = rec.seq + 1;
	s->records++;
	if (!kmsg_from_kernel(&rec)) {
		s->user++;
		return true;
	}
	n = kmsg_match(&s->mt, &rec, h);
	for (i = 0; i < n; i++)
		hit(s, c, r, &h[i]);
	return true;
}

static bool kmsg_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_kmsg *s = priv;
	struct kmsg_hit h;
	unsigned int i;

	r->kmsg_read = false;
	r->nr_kmsg_ev = r->kmsg_ev_over = 0;
	if (!c->o->kmsg || !host_root(c)) {
		raw_report(r, SRC_KMSG, SRC_STATE_STANDBY, "%s", !c->o->kmsg ? "kmsg = off" :
			   "sysfs_root is not the host's: the kernel log not read");
		return false;
	}
	if (s->fd < 0) {
		raw_report(r, SRC_KMSG, SRC_STATE_UNAVAILABLE, "/dev/kmsg: %s%s",
			   raw_strerror(r, -s->err),
			   s->err == -EPERM ? " (open it as root or with CAP_SYSLOG; "
					      "kernel.printk_devkmsg must not be off)" : "");
		return false;
	}
	if (!s->nr)
		row_of(s, "");		/* the host's row is row 0 */
	s->handles = false;
	for (i = 0; i < KMSG_PASS_RECORDS && read_one(s, c, r); i++)
		;
	if (i < KMSG_PASS_RECORDS && kmsg_match_idle(&s->mt, &h))
		hit(s, c, r, &h);
	if (s->err) {
		raw_report(r, SRC_KMSG, SRC_STATE_UNAVAILABLE, "/dev/kmsg: %s",
			   raw_strerror(r, -s->err));
		close(s->fd);
		s->fd = -1;
		return true;
	}
	memcpy(r->kmsg, s->dev, s->nr * sizeof(s->dev[0]));
	r->nr_kmsg = s->nr;
	r->kmsg_records = s->records;
	r->kmsg_lost = s->lost;
	r->kmsg_user = s->user;
	r->kmsg_read = true;
	raw_report(r, SRC_KMSG, SRC_STATE_UP, "%s", "");
	return true;
}

static void kmsg_close(struct collector *c, void *priv)
{
	struct source_kmsg *s = priv;

	(void)c;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->mt_ok)
		kmsg_matcher_free(&s->mt);
	s->mt_ok = false;
}

const struct source_ops source_kmsg = {
	.name = "kmsg",
	.priv_size = sizeof(struct source_kmsg),
	.open = kmsg_open,
	.sample = kmsg_sample,
	.close = kmsg_close,
};
