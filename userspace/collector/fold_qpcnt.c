// SPDX-License-Identifier: GPL-2.0
/*
 * fold_qpcnt.c - the NIC's counter sets (source_qpcnt.c) into the model:
 * each set's values and the rise of its error counters since the read
 * before, the QPs each counts, and for each port its counter mode and the
 * rise of its error counters split in two: what the sets counted (the
 * jobs whose QPs they count), and the rest (the QPs in no set: port
 * evidence for the jobs that have such QPs there).  Documentation/
 * qp_counters.rst says how a verdict uses them.
 *
 * The sets are read every qp_counters_s, the port's counters every pass:
 * a port's rise is gathered between two reads of the sets, so both sides
 * of the split span the same time.  Sets that rose more than the port
 * (read a moment later) carry the difference to the next split.
 */
#include <string.h>

#include "fold.h"
#include "rdmastat.h"
#include "text.h"

_Static_assert(FOLD_PORT_SIGS == MODEL_QPC_SIGS, "one error counter per signal");

/*
 * The port counters that stand in for per-QP events without the rxe
 * program, and their signals: what counter sets split (fold_jobs.c too).
 */
const enum fabtel_counter fold_port_ctr[FOLD_PORT_SIGS] = {
	FABTEL_OUT_OF_SEQUENCE, FABTEL_NAK_SEQ_ERR_RCVD, FABTEL_LOCAL_ACK_TIMEOUT,
	FABTEL_RETRY_EXCEEDED,
};
const enum health_sig fold_port_sig[FOLD_PORT_SIGS] = {
	HS_OUT_OF_SEQUENCE, HS_NAK_SEQ_RCVD, HS_ACK_TIMEOUT, HS_RETRY_EXCEEDED,
};

/* the port's error counters' rise since the pass before, gathered */
static void gather(struct model *m, const struct fold_prev *prev)
{
	unsigned int i, x;

	for (i = 0; i < m->port_slots; i++) {
		struct model_port *p = &m->ports[i];

		p->qpc_fresh = false;
		if (!p->present)
			continue;
		for (x = 0; x < FOLD_PORT_SIGS; x++) {
			uint64_t was = prev->ctr[i][x];
			const struct mono *c = &p->ctr[fold_port_ctr[x]];

			if (p->have[fold_port_ctr[x]] && was != UINT64_MAX && c->total > was)
				p->qpc_acc[x] += c->total - was;
		}
	}
}

static const struct model_qpcnt *old_set(const struct model *m, const struct raw_qpcnt *q)
{
	unsigned int i;

	for (i = 0; i < m->nr_qpcnt; i++)
		if (m->qpcnt[i].id == q->id && m->qpcnt[i].port == q->port &&
		    m->qpcnt[i].dev_index == q->dev_index)
			return &m->qpcnt[i];
	return NULL;
}

/*
 * The sets of this read replace the last read's; each one's rise against
 * its values then (a set new since: all its counts, except at the first
 * read, which only primes).
 */
static void take_sets(struct model *m, const struct raw *r)
{
	uint64_t rise[RAW_MAX_QPCNT][MODEL_QPC_SIGS];
	bool before[RAW_MAX_QPCNT];
	unsigned int i, x, n = r->nr_qpcnt < MODEL_MAX_QPCNT ? r->nr_qpcnt : MODEL_MAX_QPCNT;

	for (i = 0; i < n; i++) {
		const struct raw_qpcnt *q = &r->qpcnt[i];
		const struct model_qpcnt *o = old_set(m, q);

		before[i] = o != NULL;
		for (x = 0; x < MODEL_QPC_SIGS; x++) {
			uint64_t v = q->ctr[fold_port_ctr[x]];

			if (!q->have[fold_port_ctr[x]])
				rise[i][x] = 0;
			else if (o && o->have[fold_port_ctr[x]])
				rise[i][x] = v >= o->ctr[fold_port_ctr[x]] ?
					     v - o->ctr[fold_port_ctr[x]] : v;
			else
				rise[i][x] = m->qpcnt_reads ? v : 0;
		}
	}
	for (i = 0; i < n; i++) {
		struct model_qpcnt *q = &m->qpcnt[i];

		memset(q, 0, sizeof(*q));
		q->dev_index = r->qpcnt[i].dev_index;
		text_copy(q->device, sizeof(q->device), r->qpcnt[i].device);
		q->port = r->qpcnt[i].port;
		q->id = r->qpcnt[i].id;
		q->mode = r->qpcnt[i].mode;
		q->pid = r->qpcnt[i].pid;
		q->nr_qpns = r->qpcnt[i].nr_qpns;
		memcpy(q->ctr, r->qpcnt[i].ctr, sizeof(q->ctr));
		memcpy(q->have, r->qpcnt[i].have, sizeof(q->have));
		memcpy(q->rise, rise[i], sizeof(q->rise));
		q->seen_before = before[i];
		q->ours = r->qpcnt[i].ours;
		q->has_peer = r->qpcnt[i].has_peer;
		memcpy(q->peer, r->qpcnt[i].peer, sizeof(q->peer));
		q->job = -1;
	}
	m->nr_qpcnt = n;
	m->qpcnt_over = r->qpcnt_over + (r->nr_qpcnt - n);
	m->qpcnt_reads++;
}

/* which set each QP is in, and each set's job */
static void bind_qps(struct model *m, const struct raw *r)
{
	struct model_qp *q;
	struct model_qpcnt *c;
	unsigned int i;

	for (i = 0; i < m->qp_slots; i++)
		m->qps[i].qpcnt = -1;
	for (i = 0; i < r->nr_qpcnt_qp; i++) {
		if (r->qpcnt_qp[i].cnt >= m->nr_qpcnt)
			continue;
		q = model_find_qp(m, r->qpcnt_qp[i].dev_index, r->qpcnt_qp[i].qpn);
		if (q)
			q->qpcnt = r->qpcnt_qp[i].cnt;
	}
	for (i = 0; i < m->qp_slots; i++) {
		q = &m->qps[i];
		if (!q->present || q->qpcnt < 0 || q->job < 0)
			continue;
		c = &m->qpcnt[q->qpcnt];
		c->job = c->job == -1 || c->job == q->job ? q->job : -2;
	}
}

/* the port's counter mode, as the source read it */
static void port_mode(struct model_port *p, const struct raw *r)
{
	unsigned int i;

	p->qpc_known = false;
	for (i = 0; i < r->nr_qpcnt_port; i++) {
		const struct raw_qpcnt_port *q = &r->qpcnt_port[i];

		if (q->port != p->port || strcmp(q->device, p->device))
			continue;
		p->qpc_known = !q->err;
		p->qpc_mode = q->mode;
		p->qpc_mask = q->mask;
		p->qpc_ours = q->ours;
		p->qpc_err = q->err;
		text_copy(p->qpc_why, sizeof(p->qpc_why), q->why);
		return;
	}
}

/* each port: its sets, its QPs in one and in none, the split of its rise */
static void split_ports(struct model *m, const struct raw *r)
{
	uint64_t sum[MODEL_QPC_SIGS];
	struct model_port *p;
	unsigned int i, k, x;

	for (i = 0; i < m->port_slots; i++) {
		p = &m->ports[i];
		if (!p->present)
			continue;
		port_mode(p, r);
		memset(sum, 0, sizeof(sum));
		p->qpc_counters = p->qpc_bound = p->qpc_unbound = 0;
		for (k = 0; k < m->nr_qpcnt; k++) {
			if (m->qpcnt[k].port != p->port || strcmp(m->qpcnt[k].device, p->device))
				continue;
			p->qpc_counters++;
			for (x = 0; x < MODEL_QPC_SIGS; x++)
				sum[x] += m->qpcnt[k].rise[x];
		}
		p->qpc_active = p->qpc_known &&
				(p->qpc_counters || p->qpc_mode != RDMASTAT_MODE_NONE);
		/*
		 * fabtel.ko asks the driver for the port's default set alone
		 * (get_hw_stats): the QPs in no set are all its rise.  ib_core's
		 * sysfs and netlink add the sets to it.
		 */
		if (m->ports_ko == 1)
			memset(sum, 0, sizeof(sum));
		for (x = 0; x < MODEL_QPC_SIGS; x++) {
			sum[x] += p->qpc_over[x];
			p->qpc_resid[x] = p->qpc_acc[x] > sum[x] ? p->qpc_acc[x] - sum[x] : 0;
			p->qpc_over[x] = sum[x] > p->qpc_acc[x] ? sum[x] - p->qpc_acc[x] : 0;
			p->qpc_acc[x] = 0;
		}
		p->qpc_fresh = true;
	}
	for (i = 0; i < m->qp_slots; i++) {
		struct model_qp *q = &m->qps[i];

		if (!q->present || !q->port || !(p = model_port_get(m, q->device, q->port)))
			continue;
		if (q->qpcnt >= 0)
			p->qpc_bound++;
		else
			p->qpc_unbound++;
	}
}

void fold_qpcnt(struct model *m, const struct raw *r, const struct fold_prev *prev)
{
	unsigned int i;

	gather(m, prev);
	if (r->qpcnt_requests > m->qpcnt_requests)
		m->qpcnt_requests = r->qpcnt_requests;
	if (m->src[SRC_QP_COUNTERS] != SRC_STATE_UP) {
		/* off or unavailable: the ports' own counters stand, as without sets */
		for (i = 0; i < m->port_slots; i++) {
			m->ports[i].qpc_active = m->ports[i].qpc_known = false;
			memset(m->ports[i].qpc_acc, 0, sizeof(m->ports[i].qpc_acc));
			memset(m->ports[i].qpc_over, 0, sizeof(m->ports[i].qpc_over));
		}
		m->nr_qpcnt = 0;
		for (i = 0; i < m->qp_slots; i++)
			m->qps[i].qpcnt = -1;
		return;
	}
	if (!r->qpcnt_read)
		return;
	take_sets(m, r);
	bind_qps(m, r);
	split_ports(m, r);
}

/* a set's rise and values to the job-port of job ji on the set's port */
static void job_add(struct model *m, int ji, const struct model_qpcnt *c, bool shared)
{
	struct model_job *j = &m->jobs[ji];
	struct model_port *p = model_port_get(m, c->device, c->port);
	struct model_job_port *jp = p ? model_job_port(j, p) : NULL;
	unsigned int x;

	if (!jp)
		return;
	jp->qpc_sets++;
	jp->qpc_shared |= shared;
	for (x = 0; x < MODEL_QPC_SIGS; x++) {
		if (!c->has_peer || shared)	/* a peer's set: its own signal */
			jp->qpc_rise[x] += c->rise[x];
		jp->qpc_total[x] += c->ctr[fold_port_ctr[x]];
	}
}

/* a set counting several jobs' QPs: to each of them, shared */
static void jobs_of_set(struct model *m, unsigned int ci)
{
	int seen[8];
	unsigned int i, k, n = 0;

	for (i = 0; i < m->qp_slots; i++) {
		const struct model_qp *q = &m->qps[i];

		if (!q->present || q->qpcnt != (int)ci || q->job < 0)
			continue;
		for (k = 0; k < n && seen[k] != q->job; k++)
			;
		if (k < n || n == 8)
			continue;
		seen[n++] = q->job;
		job_add(m, q->job, &m->qpcnt[ci], true);
	}
}

void fold_qpcnt_jobs(struct model *m)
{
	struct model_job_port *jp;
	struct model_port *p;
	unsigned int i, k;
	bool active = false;

	for (i = 0; i < m->port_slots; i++)
		active |= m->ports[i].present && m->ports[i].qpc_active;
	for (i = 0; i < m->job_slots; i++)
		for (k = 0; k < m->jobs[i].nr_ports; k++) {
			jp = &m->jobs[i].ports[k];
			jp->qpc_bound = jp->qpc_unbound = jp->qpc_sets = 0;
			jp->qpc_shared = false;
			memset(jp->qpc_rise, 0, sizeof(jp->qpc_rise));
			memset(jp->qpc_total, 0, sizeof(jp->qpc_total));
		}
	if (!active)
		return;		/* no port where sets stand: no QP to look at */
	for (i = 0; i < m->qp_slots; i++) {
		const struct model_qp *q = &m->qps[i];

		if (!q->present || q->job < 0 || !q->port ||
		    !(p = model_port_get(m, q->device, q->port)) || !p->qpc_active)
			continue;
		jp = model_job_port(&m->jobs[q->job], p);
		if (!jp)
			continue;
		if (q->qpcnt >= 0)
			jp->qpc_bound++;
		else
			jp->qpc_unbound++;
	}
	for (i = 0; i < m->nr_qpcnt; i++) {
		if (m->qpcnt[i].job >= 0)
			job_add(m, m->qpcnt[i].job, &m->qpcnt[i], false);
		else if (m->qpcnt[i].job == -2)
			jobs_of_set(m, i);
	}
}

/* the rise of job j's sets by peer on port p: a signal per set, naming the peer */
static void peer_signals(const struct model *m, struct model_job *j, const struct model_port *p,
			 uint64_t now)
{
	unsigned int i, x;

	for (i = 0; i < m->nr_qpcnt; i++) {
		const struct model_qpcnt *c = &m->qpcnt[i];

		if (!c->has_peer || c->job != (int)(j - m->jobs) || c->port != p->port ||
		    strcmp(c->device, p->device))
			continue;
		for (x = 0; x < MODEL_QPC_SIGS; x++)
			if (c->rise[x])
				model_signal_job_counter(j, fold_port_sig[x], p->device, p->port,
							 c->rise[x], c->peer, now);
	}
}

void fold_qpcnt_signals(struct model *m, struct model_job *j, const struct model_job_port *jp,
			const struct model_port *p, uint64_t now)
{
	unsigned int x;

	if (!p->qpc_fresh)
		return;		/* gathered until the sets' next read */
	if (jp->qpc_sets)
		peer_signals(m, j, p, now);
	for (x = 0; x < MODEL_QPC_SIGS; x++) {
		if (jp->qpc_rise[x] && jp->qpc_shared)
			model_signal_job(j, fold_port_sig[x], p->device, p->port, jp->qpc_rise[x],
					 true, now);
		else if (jp->qpc_rise[x])
			model_signal_job_counter(j, fold_port_sig[x], p->device, p->port,
						 jp->qpc_rise[x], NULL, now);
		if (jp->qpc_unbound && p->qpc_resid[x])
			model_signal_job(j, fold_port_sig[x], p->device, p->port, p->qpc_resid[x],
					 true, now);
	}
}
