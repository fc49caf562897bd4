// SPDX-License-Identifier: GPL-2.0
/*
 * source_qpcnt.c - the NIC's own per-QP counter sets (ib_core's RDMA
 * counters: `rdma statistic qp show`), read over RDMA netlink every
 * qp_counters_s seconds (lib/rdmastat.h): each counter's error counters
 * and the QPNs bound to it, and each watched port's counter mode.
 *
 * Policy (o->qp_counters, Documentation/qp_counters.rst):
 *   off   never asked.
 *   read  the counters that exist are read (an operator's own `rdma
 *         statistic qp bind` or auto mode): never bound, unbound or changed.
 *   auto  read, and auto mode by PID turned on where a port has no counter
 *         mode at all (NONE); turned off again at close only on the ports
 *         fabteld turned it on.  A port in AUTO or MANUAL mode is someone
 *         else's and left alone.  Soft-RoCE (rxe) implements no counter
 *         sets: its ports are left alone too.
 *   peer  read, and each job's QPs bound by hand into one set per (job,
 *         peer) on a port whose mode is none, or manual with only sets
 *         fabteld made (qpcnt_peer.c); unbound again at close.
 *
 * Cost: one STAT_GET per port for its mode, one dump per device; on mlx5
 * the dump queries each counter from the firmware (QUERY_Q_COUNTER).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backoff.h"
#include "clock.h"
#include "collector.h"
#include "qpcnt_peer.h"
#include "rdmastat.h"
#include "schema.h"
#include "text.h"

#define QPCNT_DEVS	64

/* a port whose auto mode fabteld turned on: turned off again at close */
struct qpcnt_ours {
	uint32_t dev_index, port;
	char device[64];
};

/* a port where turning auto mode on was refused: asked again after a back-off */
struct qpcnt_refused {
	uint32_t dev_index, port;
	struct backoff b;
};

/* the collector's priv for this source */
struct source_qpcnt {
	struct rdmastat st;
	struct backoff reads;		/* the reads' own back-off (failing netlink) */
	struct qpcnt_refused refused[MODEL_MAX_PORTS];
	unsigned int nr_refused;
	uint64_t next_ns;		/* CLOCK_MONOTONIC of the next read */
	struct qpcnt_ours ours[MODEL_MAX_PORTS];
	unsigned int nr_ours;
	struct {
		uint32_t index;
		char name[64];
	} devs[QPCNT_DEVS];
	unsigned int nr_devs;
	struct qpcnt_peers peers;	/* qp_counters = peer: the sets and binds made */
};

static int dev_cb(uint32_t dev_index, const char *name, void *ctx)
{
	struct source_qpcnt *s = ctx;

	if (s->nr_devs < QPCNT_DEVS) {
		s->devs[s->nr_devs].index = dev_index;
		text_copy(s->devs[s->nr_devs].name, sizeof(s->devs[0].name), name);
		s->nr_devs++;
	}
	return 0;
}

/* the RDMA netlink index of a device by name; false if it has none */
static bool dev_index(const struct source_qpcnt *s, const char *name, uint32_t *idx)
{
	unsigned int i;

	for (i = 0; i < s->nr_devs; i++)
		if (!strcmp(s->devs[i].name, name)) {
			*idx = s->devs[i].index;
			return true;
		}
	return false;
}

static bool is_ours(const struct source_qpcnt *s, uint32_t dev, uint32_t port)
{
	unsigned int i;

	for (i = 0; i < s->nr_ours; i++)
		if (s->ours[i].dev_index == dev && s->ours[i].port == port)
			return true;
	return false;
}

/* the port's refusal record, made if new (NULL if the table is full) */
static struct backoff *refusal(struct source_qpcnt *s, uint32_t dev, uint32_t port)
{
	unsigned int i;

	for (i = 0; i < s->nr_refused; i++)
		if (s->refused[i].dev_index == dev && s->refused[i].port == port)
			return &s->refused[i].b;
	if (s->nr_refused == MODEL_MAX_PORTS)
		return NULL;
	memset(&s->refused[s->nr_refused], 0, sizeof(s->refused[0]));
	s->refused[s->nr_refused].dev_index = dev;
	s->refused[s->nr_refused].port = port;
	return &s->refused[s->nr_refused++].b;
}

/*
 * auto mode by PID on a port that has no counter mode: said in qp->why; a
 * refusal (no CAP_NET_ADMIN, no counter support) is asked again only after
 * its back-off (backoff.h)
 */
static void turn_auto_on(struct collector *c, struct source_qpcnt *s, const struct raw_port *p,
			 uint32_t dev, struct raw_qpcnt_port *q, uint64_t now)
{
	struct backoff *b = refusal(s, dev, p->port);
	int err;

	if (p->soft_roce) {
		snprintf(q->why, sizeof(q->why), "Soft-RoCE has no counter sets: left alone");
		return;
	}
	if (b && !backoff_due(b, now)) {
		q->err = b->err;
		snprintf(q->why, sizeof(q->why), "auto mode refused: %s (asked again in %u s)",
			 strerror(-b->err), (unsigned int)((b->next_ns - now) / NS_PER_S));
		return;
	}
	err = rdmastat_auto_set(&s->st, dev, p->port, RDMASTAT_MASK_PID);
	if (b)
		backoff_done(b, err, now, c->o->qp_counters_s * 1000);
	if (err) {
		q->err = err;
		snprintf(q->why, sizeof(q->why), "auto mode refused: %s%s%s", strerror(-err),
			 s->st.msg[0] ? ": " : "", s->st.msg);
		return;
	}
	q->mode = RDMASTAT_MODE_AUTO;
	q->mask = RDMASTAT_MASK_PID;
	if (s->nr_ours < MODEL_MAX_PORTS) {
		s->ours[s->nr_ours].dev_index = dev;
		s->ours[s->nr_ours].port = p->port;
		text_copy(s->ours[s->nr_ours].device, sizeof(s->ours[0].device), p->device);
		s->nr_ours++;
	}
}

/* each watched port's counter mode (and auto turned on where the policy says) */
static void read_modes(struct collector *c, struct source_qpcnt *s, struct raw *r, uint64_t now)
{
	unsigned int i;

	r->nr_qpcnt_port = 0;
	for (i = 0; i < r->nr_ports && r->nr_qpcnt_port < MODEL_MAX_PORTS; i++) {
		const struct raw_port *p = &r->ports[i];
		struct raw_qpcnt_port *q = &r->qpcnt_port[r->nr_qpcnt_port];
		uint32_t dev;
		int err;

		if (!dev_index(s, p->device, &dev))
			continue;
		memset(q, 0, sizeof(*q));
		text_copy(q->device, sizeof(q->device), p->device);
		q->port = p->port;
		r->nr_qpcnt_port++;
		err = rdmastat_mode_get(&s->st, dev, p->port, &q->mode, &q->mask);
		if (err) {
			q->err = err;
			snprintf(q->why, sizeof(q->why), "mode unreadable: %s", strerror(-err));
			continue;
		}
		if (c->o->qp_counters == QPC_AUTO && q->mode == RDMASTAT_MODE_NONE)
			turn_auto_on(c, s, p, dev, q, now);
		q->ours = is_ours(s, dev, p->port) && q->mode == RDMASTAT_MODE_AUTO;
	}
}

/* the port of the counter is one of the pass's ports */
static bool port_watched(const struct raw *r, const char *device, uint32_t port)
{
	unsigned int i;

	for (i = 0; i < r->nr_qpcnt_port; i++)
		if (r->qpcnt_port[i].port == port && !strcmp(r->qpcnt_port[i].device, device))
			return true;
	return false;
}

static int counter_cb(const struct rdmastat_counter *sc, void *ctx)
{
	struct raw *r = ctx;
	struct raw_qpcnt *q;
	unsigned int i;
	int k;

	if (!port_watched(r, sc->dev_name, sc->port))
		return 0;
	if (r->nr_qpcnt == RAW_MAX_QPCNT) {
		r->qpcnt_over++;
		return 0;
	}
	q = &r->qpcnt[r->nr_qpcnt];
	memset(q, 0, sizeof(*q));
	q->dev_index = sc->dev_index;
	text_copy(q->device, sizeof(q->device), sc->dev_name);
	q->port = sc->port;
	q->id = sc->id;
	q->mode = sc->mode;
	q->pid = sc->has_pid ? sc->pid : 0;
	q->nr_qpns = sc->nr_qpns + sc->qpns_over;
	r->qpcnt_qp_over += sc->qpns_over;	/* its QPNs past the table: a cut read */
	for (i = 0; i < sc->nr; i++) {
		k = schema_hw_find(NULL, sc->e[i].name);
		if (k < 0)
			continue;
		q->ctr[k] += sc->e[i].value;
		q->have[k] = true;
	}
	for (i = 0; i < sc->nr_qpns; i++) {
		if (r->nr_qpcnt_qp == MODEL_MAX_QPS) {
			r->qpcnt_qp_over++;
			break;
		}
		r->qpcnt_qp[r->nr_qpcnt_qp].dev_index = sc->dev_index;
		r->qpcnt_qp[r->nr_qpcnt_qp].qpn = sc->qpns[i];
		r->qpcnt_qp[r->nr_qpcnt_qp].cnt = (uint16_t)r->nr_qpcnt;
		r->nr_qpcnt_qp++;
	}
	r->nr_qpcnt++;
	return 0;
}

/* the counters of every device with a watched port: 0 or the first error */
static int read_counters(struct source_qpcnt *s, struct raw *r)
{
	unsigned int i, k;
	int err, first = 0;

	for (i = 0; i < s->nr_devs; i++) {
		for (k = 0; k < r->nr_qpcnt_port; k++)
			if (!strcmp(r->qpcnt_port[k].device, s->devs[i].name))
				break;
		if (k == r->nr_qpcnt_port)
			continue;
		err = rdmastat_counters(&s->st, s->devs[i].index, counter_cb, r);
		if (err < 0 && !first)
			first = err;
	}
	return first;
}

/* qp_counters = peer: each watched port's QPs bound by (job, peer) */
static void bind_peers(struct collector *c, struct source_qpcnt *s, struct raw *r, uint64_t now)
{
	unsigned int i, k;
	struct backoff *b;
	uint32_t dev;

	if (!qpcnt_peers_read(&s->peers, r))
		return;		/* a cut read: someone else's sets may be unlisted */
	for (i = 0; i < r->nr_qpcnt_port; i++) {
		struct raw_qpcnt_port *q = &r->qpcnt_port[i];

		for (k = 0; k < r->nr_ports; k++)
			if (r->ports[k].port == q->port && !strcmp(r->ports[k].device, q->device))
				break;
		if (q->err || k == r->nr_ports || !dev_index(s, q->device, &dev))
			continue;
		if (r->ports[k].soft_roce) {
			snprintf(q->why, sizeof(q->why), "Soft-RoCE has no counter sets: left alone");
			continue;
		}
		b = refusal(s, dev, q->port);
		if (b && !backoff_due(b, now)) {
			q->err = b->err;
			snprintf(q->why, sizeof(q->why), "peer binds refused: %s (asked again in %u s)",
				 strerror(-b->err), (unsigned int)((b->next_ns - now) / NS_PER_S));
			continue;
		}
		qpcnt_peers_bind(&s->peers, &s->st, r, q, dev, c->o->qp_counters_sets);
		if (b)
			backoff_done(b, q->err, now, c->o->qp_counters_s * 1000);
	}
}

static void qpcnt_open(struct collector *c, void *priv)
{
	struct source_qpcnt *s = priv;

	(void)c;
	rdmastat_init(&s->st);
}

static bool qpcnt_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_qpcnt *s = priv;
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	int err;

	r->qpcnt_read = false;
	if (c->o->qp_counters == QPC_OFF) {
		raw_report(r, SRC_QP_COUNTERS, SRC_STATE_STANDBY, "%s", "qp_counters = off");
		return false;
	}
	if (c->o->sysfs_root[0] && strcmp(c->o->sysfs_root, "/")) {
		/* the kernel's devices are not the fixture's */
		raw_report(r, SRC_QP_COUNTERS, SRC_STATE_STANDBY, "%s",
			   "sysfs_root is not the host's: counter sets not read");
		return false;
	}
	if (now < s->next_ns || !backoff_due(&s->reads, now))
		return false;
	s->next_ns = now + (uint64_t)c->o->qp_counters_s * NS_PER_S;
	r->nr_qpcnt = r->qpcnt_over = r->nr_qpcnt_qp = r->qpcnt_qp_over = 0;
	s->nr_devs = 0;
	err = rdmastat_devices(&s->st, dev_cb, s);
	r->qpcnt_requests = s->st.requests;
	if (err) {
		/* no RDMA netlink (ib_core not loaded): asked again after a back-off */
		backoff_fail(&s->reads, err, now, c->o->qp_counters_s * 1000);
		r->nr_qpcnt_port = 0;
		raw_report(r, SRC_QP_COUNTERS, SRC_STATE_UNAVAILABLE, "RDMA netlink: %s",
			   raw_strerror(r, -err));
		return true;
	}
	read_modes(c, s, r, now);
	err = read_counters(s, r);
	if (!err && c->o->qp_counters == QPC_PEER)
		bind_peers(c, s, r, now);
	r->qpcnt_requests = s->st.requests;
	backoff_done(&s->reads, err, now, c->o->qp_counters_s * 1000);
	r->qpcnt_read = !err;
	if (err)
		raw_report(r, SRC_QP_COUNTERS, SRC_STATE_UNAVAILABLE, "counter sets: %s",
			   raw_strerror(r, -err));
	else
		raw_report(r, SRC_QP_COUNTERS, SRC_STATE_UP, "%s", "");
	return true;
}

/* auto mode off again where fabteld turned it on */
static void qpcnt_close(struct collector *c, void *priv)
{
	struct source_qpcnt *s = priv;
	unsigned int i;
	int err;

	(void)c;
	for (i = 0; i < s->nr_ours; i++) {
		err = rdmastat_auto_set(&s->st, s->ours[i].dev_index, s->ours[i].port, 0);
		if (err)
			fprintf(stderr, "fabteld: qp_counters: auto mode of %s/%u left on: %s\n",
				s->ours[i].device, s->ours[i].port, strerror(-err));
	}
	s->nr_ours = 0;
	err = (int)qpcnt_peers_release(&s->peers, &s->st);
	if (err)
		fprintf(stderr, "fabteld: qp_counters: %d of the QPs fabteld bound left bound\n", err);
	rdmastat_close(&s->st);
}

const struct source_ops source_qpcnt = {
	.name = "qp_counters",
	.priv_size = sizeof(struct source_qpcnt),
	.open = qpcnt_open,
	.sample = qpcnt_sample,
	.close = qpcnt_close,
};
