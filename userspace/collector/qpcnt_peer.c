// SPDX-License-Identifier: GPL-2.0
/*
 * qpcnt_peer.c - qp_counters = peer (qpcnt_peer.h): one counter set per
 * (job, peer) on a port, made and filled by manual binds.
 *
 * ib_core's auto mode can split a port's QPs by type and PID only, never
 * by remote address; a manual bind can put any QP of the port into any
 * set.  The peer of a QP is the GID of the AV it was given at INIT->RTR
 * (the BPF qp program), so a QP is bound once it is connected.  QPs with
 * no job, no peer, or past the cap stay in no set: port evidence.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qpcnt_peer.h"
#include "prune.h"
#include "rdmastat.h"

static const struct qpcnt_peer_set *set_by_id(const struct qpcnt_peers *pp, uint32_t dev,
					      uint32_t port, uint32_t cntn)
{
	unsigned int i;

	for (i = 0; i < pp->nr_sets; i++)
		if (pp->sets[i].cntn == cntn && pp->sets[i].port == port &&
		    pp->sets[i].dev_index == dev)
			return &pp->sets[i];
	return NULL;
}

static const struct raw_qpcnt *read_set(const struct raw *r, uint32_t dev, uint32_t port,
					uint32_t cntn)
{
	unsigned int i;

	for (i = 0; i < r->nr_qpcnt; i++)
		if (r->qpcnt[i].id == cntn && r->qpcnt[i].port == port &&
		    r->qpcnt[i].dev_index == dev)
			return &r->qpcnt[i];
	return NULL;
}

/* a QP in a set of the read: (device index, QPN, the set's index in r->qpcnt) */
static uint64_t in_set_key(uint32_t dev, uint32_t qpn, unsigned int cnt)
{
	return (uint64_t)dev << 32 | (uint64_t)(qpn & 0xffffff) << 8 | (cnt & 0xff);
}

/* each of r's sets that is ours, with its peer */
static void mark_ours(const struct qpcnt_peers *pp, struct raw *r)
{
	unsigned int i;

	for (i = 0; i < r->nr_qpcnt; i++) {
		struct raw_qpcnt *rc = &r->qpcnt[i];
		const struct qpcnt_peer_set *s = set_by_id(pp, rc->dev_index, rc->port, rc->id);

		rc->ours = s != NULL;
		rc->has_peer = s != NULL;
		if (s)
			memcpy(rc->peer, s->peer, sizeof(rc->peer));
	}
}

bool qpcnt_peers_read(struct qpcnt_peers *pp, struct raw *r)
{
	const struct raw_qpcnt *c;
	unsigned int i, n;

	/* a cut read cannot tell a set gone from one not listed */
	if (r->qpcnt_over || r->qpcnt_qp_over) {
		mark_ours(pp, r);
		return false;
	}
	for (i = 0; i < r->nr_qpcnt_qp; i++)
		pp->bound[i] = in_set_key(r->qpcnt_qp[i].dev_index, r->qpcnt_qp[i].qpn,
					  r->qpcnt_qp[i].cnt);
	prune_sort(pp->bound, r->nr_qpcnt_qp);
	for (i = n = 0; i < pp->nr_sets; i++)
		if (read_set(r, pp->sets[i].dev_index, pp->sets[i].port, pp->sets[i].cntn))
			pp->sets[n++] = pp->sets[i];
	pp->nr_sets = n;
	for (i = n = 0; i < pp->nr_qps; i++) {
		const struct qpcnt_peer_qp *q = &pp->qps[i];

		c = read_set(r, q->dev_index, q->port, q->cntn);
		if (c && set_by_id(pp, q->dev_index, q->port, q->cntn) &&
		    prune_has(pp->bound, r->nr_qpcnt_qp,
			      in_set_key(q->dev_index, q->qpn, (unsigned int)(c - r->qpcnt))))
			pp->qps[n++] = *q;
	}
	pp->nr_qps = n;
	mark_ours(pp, r);
	return true;
}

/* the port's sets as read: how many, and how many of them ours */
static void port_sets(const struct qpcnt_peers *pp, const struct raw *r, uint32_t dev,
		      uint32_t port, unsigned int *all, unsigned int *ours)
{
	unsigned int i;

	*all = *ours = 0;
	for (i = 0; i < r->nr_qpcnt; i++) {
		if (r->qpcnt[i].dev_index != dev || r->qpcnt[i].port != port)
			continue;
		(*all)++;
		*ours += set_by_id(pp, dev, port, r->qpcnt[i].id) != NULL;
	}
}

static const struct qpcnt_peer_set *set_by_key(const struct qpcnt_peers *pp, uint32_t dev,
					       uint32_t port, const struct raw_qp *q)
{
	unsigned int i;

	for (i = 0; i < pp->nr_sets; i++) {
		const struct qpcnt_peer_set *s = &pp->sets[i];

		if (s->dev_index == dev && s->port == port && s->job.kind == q->job.kind &&
		    !strcmp(s->job.id, q->job.id) && !memcmp(s->peer, q->peer, sizeof(s->peer)))
			return s;
	}
	return NULL;
}

/* the QPs of the read's sets, sorted: (device index, QPN) */
static size_t bound_keys(struct qpcnt_peers *pp, const struct raw *r)
{
	size_t i;

	for (i = 0; i < r->nr_qpcnt_qp && i < MODEL_MAX_QPS; i++)
		pp->bound[i] = (uint64_t)r->qpcnt_qp[i].dev_index << 32 | r->qpcnt_qp[i].qpn;
	prune_sort(pp->bound, i);
	return i;
}

/* what one pass of binding on a port did and left */
struct bind_pass {
	unsigned int ours, binds, left, made;
	int err;			/* a refusal: -EPERM, -EOPNOTSUPP */
	bool exhausted;			/* the NIC had no set left (-ENOMEM) */
};

/* forget the sets and QPs of ours under set id cntn: the kernel freed it */
static void forget_id(struct qpcnt_peers *pp, uint32_t dev, uint32_t port, uint32_t cntn)
{
	unsigned int i, n;

	for (i = n = 0; i < pp->nr_sets; i++)
		if (pp->sets[i].cntn != cntn || pp->sets[i].port != port ||
		    pp->sets[i].dev_index != dev)
			pp->sets[n++] = pp->sets[i];
	pp->nr_sets = n;
	for (i = n = 0; i < pp->nr_qps; i++)
		if (pp->qps[i].cntn != cntn || pp->qps[i].port != port ||
		    pp->qps[i].dev_index != dev)
			pp->qps[n++] = pp->qps[i];
	pp->nr_qps = n;
}

/* bind raw QP q (on dev/port) into its (job, peer) set, made if room */
static void bind_one(struct qpcnt_peers *pp, struct rdmastat *st, const struct raw_qp *q,
		     uint32_t dev, uint32_t port, unsigned int cap, struct bind_pass *b)
{
	const struct qpcnt_peer_set *s = set_by_key(pp, dev, port, q);
	struct qpcnt_peer_set *ns;
	uint32_t cntn = s ? s->cntn : 0;
	int err;

	if ((!s && (b->ours >= cap || b->exhausted || pp->nr_sets == MODEL_MAX_QPCNT)) ||
	    pp->nr_qps == MODEL_MAX_QPS || b->binds == QPCNT_PEER_BINDS) {
		b->left++;
		return;
	}
	b->binds++;
	err = rdmastat_bind(st, dev, port, q->nl.qpn, cntn, s ? NULL : &cntn);
	if (err == -ENOMEM && !s)
		b->exhausted = true;
	if (err == -EPERM || err == -EOPNOTSUPP)
		b->err = err;
	if (err) {
		b->left++;
		return;		/* -EINVAL, -ENOENT: the QP went, or was bound meanwhile */
	}
	if (!s) {
		forget_id(pp, dev, port, cntn);	/* a freed set of ours had this id */
		ns = &pp->sets[pp->nr_sets++];
		ns->dev_index = dev;
		ns->port = port;
		ns->cntn = cntn;
		ns->job = q->job;
		memcpy(ns->peer, q->peer, sizeof(ns->peer));
		b->ours++;
		b->made++;
	}
	pp->qps[pp->nr_qps++] = (struct qpcnt_peer_qp){ dev, port, cntn, q->nl.qpn };
}

void qpcnt_peers_bind(struct qpcnt_peers *pp, struct rdmastat *st, struct raw *r,
		      struct raw_qpcnt_port *q, uint32_t dev, unsigned int cap)
{
	struct bind_pass b = { 0 };
	unsigned int all, i;
	size_t nb;

	port_sets(pp, r, dev, q->port, &all, &b.ours);
	if (q->mode == RDMASTAT_MODE_AUTO ||
	    (q->mode == RDMASTAT_MODE_MANUAL && all > b.ours)) {
		snprintf(q->why, sizeof(q->why), "%s sets of someone else's: no peer set made",
			 q->mode == RDMASTAT_MODE_AUTO ? "auto" : "manual");
		return;
	}
	q->ours = q->mode == RDMASTAT_MODE_MANUAL && all;
	nb = bound_keys(pp, r);
	for (i = 0; i < r->nr_qps && !b.err; i++) {
		const struct raw_qp *rq = &r->qps[i];

		if (rq->nl.dev_index != dev || rq->nl.port != q->port || !rq->has_job ||
		    !rq->has_peer || prune_has(pp->bound, nb, (uint64_t)dev << 32 | rq->nl.qpn))
			continue;
		bind_one(pp, st, rq, dev, q->port, cap, &b);
	}
	if (b.err) {
		q->err = b.err;
		snprintf(q->why, sizeof(q->why), "peer binds refused: %s%s%s", strerror(-b.err),
			 st->msg[0] ? ": " : "", st->msg);
	} else if (b.left) {
		snprintf(q->why, sizeof(q->why),
			 "%u QPs with a peer in no set (%s; %u of %u sets ours)", b.left,
			 b.exhausted ? "the NIC has no set left" :
			 b.binds == QPCNT_PEER_BINDS ? "binds go on next read" :
			 "qp_counters_sets reached", b.ours, cap);
	}
	if (b.made)
		q->ours = true;
}

unsigned int qpcnt_peers_release(struct qpcnt_peers *pp, struct rdmastat *st)
{
	unsigned int i, failed = 0;
	int err;

	for (i = 0; i < pp->nr_qps; i++) {
		const struct qpcnt_peer_qp *q = &pp->qps[i];

		err = rdmastat_unbind(st, q->dev_index, q->port, q->cntn, q->qpn);
		failed += err && err != -ENOENT;
	}
	pp->nr_qps = pp->nr_sets = 0;
	return failed;
}
