// SPDX-License-Identifier: GPL-2.0
/*
 * fold_qps.c - the QPs into the model: each QP's owner and job, QPs in
 * error, and the BPF programs' per-QP counts (the rxe program's events and
 * the wire program's packets) as health signals of the QP's job (fold.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabbpf.h"
#include "fold.h"
#include "wire_loader.h"
#include "text.h"

#define IB_QPS_ERR	6	/* enum ib_qp_state */

/* A slot for a QP first seen now, from *free_from on; NULL: the table is full. */
static struct model_qp *new_qp(struct model *m, const struct raw_qp *rq, unsigned int *free_from,
			       uint64_t now)
{
	struct model_qp *q;
	unsigned int k;

	for (k = *free_from; k < MODEL_MAX_QPS && m->qps[k].present; k++)
		;
	*free_from = k;
	if (k == MODEL_MAX_QPS) {
		m->qps_dropped++;
		return NULL;
	}
	q = &m->qps[k];
	if (k + 1 > m->qp_slots)
		m->qp_slots = k + 1;
	memset(q, 0, sizeof(*q));
	q->present = true;
	q->dev_index = rq->nl.dev_index;
	q->qpn = rq->nl.qpn;
	q->first_ns = now;
	q->job = -1;
	q->qpcnt = -1;
	q->wire_prev = UINT64_MAX;
	for (k = 0; k < RAW_RXE_KINDS; k++)
		q->rxe_prev[k] = UINT64_MAX;
	model_qp_index_add(m, (unsigned int)(q - m->qps));
	return q;
}

/* the QP's job as the pass read it: the one it had if that is it (the job
 * table is not searched for each QP each pass), else found or made */
static struct model_job *job_of(struct model *m, const struct model_qp *q,
				const struct raw_qp *rq, uint64_t now)
{
	struct model_job *j = q->job >= 0 ? &m->jobs[q->job] : NULL;

	if (j && j->present && j->id.kind == rq->job.kind && !strcmp(j->id.id, rq->job.id))
		return j;
	return model_find_job(m, &rq->job, true, now);
}

/* dst (size n) holds src now: copied only when it differs (most passes not) */
static void set_name(char *dst, size_t n, const char *src)
{
	if (strncmp(dst, src, n - 1))
		snprintf(dst, n, "%s", src);
}

static void update_qp(struct model *m, struct model_qp *q, const struct raw_qp *rq, uint64_t now)
{
	struct model_job *j;

	set_name(q->device, sizeof(q->device), rq->nl.dev_name);
	q->port = rq->nl.port;
	q->rqpn = rq->nl.rqpn;
	q->pid = rq->nl.pid;
	q->type = rq->nl.type;
	q->state = rq->nl.has_state ? rq->nl.state : 0;
	if (rq->has_peer) {
		q->has_peer = true;
		memcpy(q->peer, rq->peer, sizeof(q->peer));
	}
	if (q->comm[0] == '\0' || rq->comm[0])
		set_name(q->comm, sizeof(q->comm), rq->comm);
	if (rq->has_job) {
		j = job_of(m, q, rq, now);
		q->job = j ? (int)(j - m->jobs) : -1;
		if (j && !j->user[0] && rq->user[0])
			text_copy(j->user, sizeof(j->user), rq->user);
	}
}

/* QP error: still in ERR a sample later (a teardown passes through ERR) */
static void check_qp_error(struct model *m, struct model_qp *q, struct model_job *j,
			   uint64_t now)
{
	struct model_port *p;
	struct model_job_port *jp;
	struct model_event *ev;

	q->err_samples = q->state == IB_QPS_ERR ? q->err_samples + 1 : 0;
	if (q->err_samples != 2 || !q->port)
		return;
	p = model_port_get(m, q->device, q->port);
	jp = p ? model_job_port(j, p) : NULL;
	if (jp)
		jp->events[HS_QP_ERROR]++;
	model_signal_job(j, HS_QP_ERROR, q->device, q->port, 1, false, now);
	ev = model_log_event(m, EV_QP_ERROR, q->device, q->port, now);
	ev->qpn = q->qpn;
	text_copy(ev->job_id, sizeof(ev->job_id), j->id.id);
}

void fold_qps(struct model *m, const struct raw *r, uint64_t now)
{
	unsigned int i, free_from = 0;
	bool gone = false;

	for (i = 0; i < m->job_slots; i++)
		m->jobs[i].nr_qps = 0;
	/* qp_index is current: the model starts zeroed, a pass that dropped QPs rebuilt it */
	for (i = 0; i < r->nr_qps; i++) {
		const struct raw_qp *rq = &r->qps[i];
		struct model_qp *q = model_find_qp(m, rq->nl.dev_index, rq->nl.qpn);
		struct model_job *j;

		if (!rq->nl.pid)
			continue;	/* kernel QPs (GSI, ...) belong to no job */
		if (!q && !(q = new_qp(m, rq, &free_from, now)))
			continue;
		q->seen = true;
		update_qp(m, q, rq, now);
		if (q->job < 0)
			continue;
		j = &m->jobs[q->job];
		j->nr_qps++;
		j->last_qp_ns = now;
		check_qp_error(m, q, j, now);
	}
	for (i = 0; i < m->qp_slots; i++) {
		if (m->qps[i].present && !m->qps[i].seen) {
			m->qps[i].present = false;
			gone = true;
		}
		m->qps[i].seen = false;
	}
	while (m->qp_slots && !m->qps[m->qp_slots - 1].present)
		m->qp_slots--;
	if (gone)
		model_qp_index_rebuild(m);	/* open addressing: no deletes in place */
}

/* the rxe program's per-QP kinds that are job health signals; -1: not one */
static int rxe_signal(unsigned int kind)
{
	switch (kind) {
	case RXE_NAK_SEQ_SENT:
		return HS_OUT_OF_SEQUENCE;
	case RXE_NAK_SEQ_RCVD:
		return HS_NAK_SEQ_RCVD;
	case RXE_RNR_NAK_RCVD:
		return HS_RNR_NAK;
	case RXE_ACK_TIMEOUT:
		return HS_ACK_TIMEOUT;
	case RXE_RETRY_EXCEEDED:
		return HS_RETRY_EXCEEDED;
	case RXE_RNR_RETRY_EXCEEDED:
		return HS_RNR_RETRY_EXCEEDED;
	default:
		return -1;
	}
}

static void fold_rxe(struct model *m, const struct raw_rxe *x, uint64_t now)
{
	struct model_qp *q = model_find_qp(m, x->dev_index, x->qpn);
	struct model_port *p;
	struct model_job_port *jp;
	unsigned int k;
	uint64_t d;
	int sig;

	if (!q || q->job < 0 || !q->port || !(p = model_port_get(m, q->device, q->port)))
		return;
	jp = model_job_port(&m->jobs[q->job], p);
	for (k = 1; k < RAW_RXE_KINDS; k++) {
		sig = rxe_signal(k);
		/* first look: what happened before the QP was known still counts */
		d = q->rxe_prev[k] == UINT64_MAX ? x->n[k] : x->n[k] - q->rxe_prev[k];
		q->rxe_prev[k] = x->n[k];
		if (sig < 0 || !d || x->n[k] < d)
			continue;
		if (jp)
			jp->events[sig] += d;
		model_signal_job(&m->jobs[q->job], sig, p->device, p->port, d, false, now);
	}
}

static int cmp_fold_wire(const void *a, const void *b)
{
	const struct fold_wire *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Add the packets of the entry with this key, if there is one. */
static bool wire_add(const struct fold_wire *w, size_t n, uint64_t key, uint64_t *pkts)
{
	struct fold_wire k = { .key = key };
	const struct fold_wire *e = n ? bsearch(&k, w, n, sizeof(*w), cmp_fold_wire) : NULL;

	if (e)
		*pkts += e->pkts;
	return e;
}

/* a QP's packets on the wire since the last pass, as a traffic signal */
static void fold_wire_qp(struct model *m, struct model_qp *q, const struct fold_wire *wire,
			 size_t n, uint64_t now)
{
	struct model_port *p;
	uint64_t pkts = 0;
	bool found;

	if (!q->present || q->job < 0 || !q->port || !(p = model_port_get(m, q->device, q->port)))
		return;
	/* ingress: BTH DestQP is ours; egress: it is the peer's */
	found = wire_add(wire, n, raw_wire_key((uint32_t)p->ifindex, WIRE_DIR_INGRESS, q->qpn),
			 &pkts);
	if (q->rqpn)
		found |= wire_add(wire, n,
				  raw_wire_key((uint32_t)p->ifindex, WIRE_DIR_EGRESS, q->rqpn),
				  &pkts);
	if (found && q->wire_prev != UINT64_MAX && pkts > q->wire_prev)
		model_signal_job(&m->jobs[q->job], HS_TRAFFIC, p->device, p->port,
				 pkts - q->wire_prev, false, now);
	q->wire_prev = found ? pkts : q->wire_prev;
}

void fold_bpf(struct fold *f, struct model *m, const struct raw *r, uint64_t now)
{
	struct fold_wire *wire = f->wire;
	unsigned int i;

	for (i = 0; i < r->nr_rxe; i++)
		fold_rxe(m, &r->rxe[i], now);
	/* each wire entry is one key, so a QP's two lookups find at most one each */
	for (i = 0; i < r->nr_wire; i++) {
		wire[i].key = raw_wire_key(r->wire[i].ifindex, r->wire[i].dir, r->wire[i].qpn);
		wire[i].pkts = r->wire[i].pkts;
	}
	qsort(wire, r->nr_wire, sizeof(wire[0]), cmp_fold_wire);
	for (i = 0; i < m->qp_slots; i++)
		fold_wire_qp(m, &m->qps[i], wire, r->nr_wire, now);
}
