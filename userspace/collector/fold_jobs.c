// SPDX-License-Identifier: GPL-2.0
/*
 * fold_jobs.c - the jobs: which ended, which ports each uses and whether
 * it shares them, the port-level signals of those ports (flaps, pause
 * storms, and the port's error counters when there are no per-QP events),
 * then each job's verdict (health.h; fold.h).
 */
#include <stdio.h>
#include <string.h>

#include "fold.h"
#include "text.h"

/*
 * The IB port counters that are errors of the link itself (not congestion
 * or policy: xmit_discards, constraint errors, VL15 drops are left out).
 */
static const enum fabtel_pma link_err[FOLD_LINK_ERRS] = {
	FABTEL_PMA_SYMBOL_ERROR, FABTEL_PMA_LINK_ERROR_RECOVERY, FABTEL_PMA_RCV_ERRORS,
	FABTEL_PMA_RCV_REMOTE_PHYS_ERRORS, FABTEL_PMA_LOCAL_LINK_INTEGRITY_ERRORS,
	FABTEL_PMA_EXCESSIVE_BUFFER_OVERRUN_ERRORS,
};

/*
 * The PHY's symbol and CRC errors (driver statistics): link errors on a
 * port without IB port counters (bnxt_re, irdma: no PMA in 6.1).
 */
static const enum es_port_stat phy_err[2] = { ES_SYMBOL_ERRORS, ES_CRC_ERRORS };

/* How much the PHY's error counts rose on a port without PMA link errors. */
static uint64_t phy_rise(const struct model_port *p, const struct fold_prev *prev,
			 unsigned int pi)
{
	uint64_t n = 0;
	unsigned int x;

	for (x = 0; x < FOLD_LINK_ERRS; x++)
		if (p->have_pma[link_err[x]])
			return 0;
	for (x = 0; x < 2; x++)
		if (p->have_es_port[phy_err[x]] && prev->phy_err[pi][x] != UINT64_MAX &&
		    p->es_port[phy_err[x]].total > prev->phy_err[pi][x])
			n += p->es_port[phy_err[x]].total - prev->phy_err[pi][x];
	return n;
}

/* A present port's counter total before this pass, UINT64_MAX if it had none. */
static uint64_t prev_total(const struct mono *c)
{
	return c->primed ? c->total : UINT64_MAX;
}

void fold_prev_take(const struct model *m, struct fold_prev *prev)
{
	unsigned int i, k;

	/* every slot none (all bits set: UINT64_MAX), then the present ports */
	memset(prev, 0xff, sizeof(*prev));
	for (i = 0; i < m->port_slots; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present)
			continue;
		prev->flaps[i] = prev_total(&p->flaps);
		for (k = 0; k < MODEL_PRIOS; k++)
			prev->storms[i][k] = prev_total(&p->storms[k]);
		for (k = 0; k < FOLD_PORT_SIGS; k++)
			prev->ctr[i][k] = prev_total(&p->ctr[fold_port_ctr[k]]);
		for (k = 0; k < FOLD_LINK_ERRS; k++)
			prev->link_err[i][k] = prev_total(&p->pma[link_err[k]]);
		if (p->have_fec[ETHNL_FEC_UNCORR])
			prev->fec_uncorr[i] = prev_total(&p->fec[ETHNL_FEC_UNCORR]);
		for (k = 0; k < 2; k++)
			if (p->have_es_port[phy_err[k]])
				prev->phy_err[i][k] = prev_total(&p->es_port[phy_err[k]]);
	}
}

/* A job without QPs past its linger time ends: its series go away. */
static void job_expire(struct model *m, unsigned int i, uint64_t now)
{
	struct model_job *j = &m->jobs[i];

	if (!j->nr_qps && j->last_qp_ns + (uint64_t)m->opts.job_linger_s * NS_PER_S < now)
		j->present = false;
}

/*
 * The QPs of the jobs that ended lose their job; each live job gets the
 * ports its live QPs use.  One loop over the QPs for all jobs (a loop per
 * job read the whole QP table once for each).
 */
static void jobs_ports(struct model *m)
{
	struct model_qp *q;
	struct model_port *p;
	unsigned int k;

	m->jobs_over_ports = 0;
	for (k = 0; k < m->job_slots; k++)
		m->jobs[k].ports_over = false;
	for (k = 0; k < m->qp_slots; k++) {
		q = &m->qps[k];
		if (q->job < 0)
			continue;
		if (!m->jobs[q->job].present) {
			q->job = -1;
			continue;
		}
		if (q->present && q->port && (p = model_port_get(m, q->device, q->port)) &&
		    !model_job_port(&m->jobs[q->job], p) && !m->jobs[q->job].ports_over) {
			m->jobs[q->job].ports_over = true;	/* a port past its 32 */
			m->jobs_over_ports++;
		}
	}
}

/* shared: another job with live QPs on the port */
static bool port_shared(const struct model *m, unsigned int i, const struct model_job_port *jp)
{
	unsigned int x, y;

	for (x = 0; x < m->job_slots; x++) {
		if (x == i || !m->jobs[x].present || !m->jobs[x].nr_qps)
			continue;
		for (y = 0; y < m->jobs[x].nr_ports; y++)
			if (m->jobs[x].ports[y].key == jp->key && m->jobs[x].ports[y].port == jp->port &&
			    !strcmp(m->jobs[x].ports[y].device, jp->device))
				return true;
	}
	return false;
}

/* the AER errors of the port's PCI function at this read (fold_pcie.c) */
static void pcie_signals(const struct model *m, struct model_job *j, const struct model_port *p,
			 uint64_t now)
{
	const struct model_pcie *q = m->pcie_fresh ? model_pcie_of(m, p->device) : NULL;

	if (!q)
		return;
	if (q->aer_rise[0])
		model_signal_job(j, HS_PCIE_ERRORS, p->device, p->port, q->aer_rise[0], true, now);
	if (q->aer_rise[1] + q->aer_rise[2])
		model_signal_job(j, HS_PCIE_FATAL, p->device, p->port,
				 q->aer_rise[1] + q->aer_rise[2], true, now);
}

/* the errors the device's devlink health reporters counted at this read */
static void devlink_signals(const struct model *m, struct model_job *j,
			    const struct model_port *p, uint64_t now)
{
	const struct model_health *h = m->health_fresh ? model_health_of(m, p->device) : NULL;
	uint64_t n = 0;
	unsigned int k;

	for (k = 0; h && k < h->nr; k++)
		n += h->rep[k].rise;
	if (n)
		model_signal_job(j, HS_NIC_FW, p->device, p->port, n, true, now);
}

/* the error lines the device's driver logged at this read (fold_kmsg.c) */
static void kmsg_signals(const struct model *m, struct model_job *j, const struct model_port *p,
			 uint64_t now)
{
	const struct model_kmsg *k = m->kmsg_fresh ? model_kmsg_of(m, p->device) : NULL;

	if (k && k->rise)
		model_signal_job(j, HS_DRIVER, p->device, p->port, k->rise, true, now);
}

/*
 * the port's flaps, storms, link errors and (without per-QP events) error
 * counters
 */
static void port_signals(struct model *m, struct model_job *j, struct model_job_port *jp,
			 const struct model_port *p, const struct fold_prev *prev, uint64_t now)
{
	unsigned int pi = (unsigned int)(p - m->ports), x;
	/* rxe's per-QP events exist for Soft-RoCE ports only */
	bool per_qp = m->src[SRC_BPF_RXE] == SRC_STATE_UP && p->soft_roce;
	uint64_t was;

	was = prev->flaps[pi];
	if (p->flaps.total > was && was != UINT64_MAX) {
		jp->flaps += p->flaps.total - was;
		model_signal_job(j, HS_LINK_FLAP, p->device, p->port, p->flaps.total - was, true,
				 p->last_flap_ns ? p->last_flap_ns : now);
	}
	for (x = 0; x < MODEL_PRIOS; x++) {
		was = prev->storms[pi][x];
		if (p->prio_read[x] && was != UINT64_MAX && p->storms[x].total > was)
			model_signal_job(j, HS_PAUSE_STORM, p->device, p->port,
					 p->storms[x].total - was, true, now);
	}
	for (x = 0; x < FOLD_LINK_ERRS; x++) {
		was = prev->link_err[pi][x];
		if (p->have_pma[link_err[x]] && was != UINT64_MAX &&
		    p->pma[link_err[x]].total > was)
			model_signal_job(j, HS_LINK_ERRORS, p->device, p->port,
					 p->pma[link_err[x]].total - was, true, now);
	}
	/* FEC blocks it could not correct: frames lost on the link */
	was = prev->fec_uncorr[pi];
	if (p->have_fec[ETHNL_FEC_UNCORR] && was != UINT64_MAX &&
	    p->fec[ETHNL_FEC_UNCORR].total > was)
		model_signal_job(j, HS_LINK_ERRORS, p->device, p->port,
				 p->fec[ETHNL_FEC_UNCORR].total - was, true, now);
	if ((was = phy_rise(p, prev, pi)))
		model_signal_job(j, HS_LINK_ERRORS, p->device, p->port, was, true, now);
	pcie_signals(m, j, p, now);
	devlink_signals(m, j, p, now);
	kmsg_signals(m, j, p, now);
	if (!per_qp && p->qpc_active) {
		/* the NIC's counter sets split the port's error counters (fold_qpcnt.c) */
		fold_qpcnt_signals(m, j, jp, p, now);
		return;
	}
	for (x = 0; !per_qp && x < FOLD_PORT_SIGS; x++) {
		was = prev->ctr[pi][x];
		if (p->have[fold_port_ctr[x]] && was != UINT64_MAX && p->ctr[fold_port_ctr[x]].total > was)
			model_signal_job(j, fold_port_sig[x], p->device, p->port,
					 p->ctr[fold_port_ctr[x]].total - was, true, now);
	}
}

/* a state of a used port for the job's verdict, while there is room */
static void port_state(struct health_port_state *st, unsigned int *ns,
		       const struct model_port *p, enum health_port_kind kind, uint64_t since)
{
	if (*ns == MODEL_MAX_JOB_PORTS)
		return;
	memset(&st[*ns], 0, sizeof(st[*ns]));
	st[*ns].kind = kind;
	text_copy(st[*ns].device, sizeof(st[*ns].device), p->device);
	st[*ns].port = p->port;
	st[*ns].since_ns = since;
	(*ns)++;
}

/* what the prober saw from the port: the worst pair cited as evidence */
static void path_states(struct health_port_state *st, unsigned int *ns, const struct model_port *p)
{
	const struct port_probe *q = &p->probe;

	if (!q->have)
		return;
	if (q->loss_bad && *ns < MODEL_MAX_JOB_PORTS) {
		port_state(st, ns, p, HP_PATH_LOSS, q->loss_since_ns);
		st[*ns - 1].count = q->loss_bad;
		port_probe_loss_text(q, st[*ns - 1].detail, sizeof(st[0].detail));
	}
	if (q->latency_bad && *ns < MODEL_MAX_JOB_PORTS) {
		port_state(st, ns, p, HP_PATH_LATENCY, q->latency_since_ns);
		st[*ns - 1].count = q->latency_bad;
		snprintf(st[*ns - 1].detail, sizeof(st[0].detail),
			 "%u of %u peers slow; worst %s median RTT %.0f us", q->latency_bad,
			 q->pairs, q->rtt_peer, q->worst_rtt_s * 1e6);
	}
}

/*
 * A reason from a port's error counters on a port whose counter sets
 * count some of the job's QPs but not all: which QPs stand outside, and
 * why (the NIC's sets used up, or they came before auto mode).
 */
static void port_evidence_why(struct model *m, struct model_job *j)
{
	struct health_reason *x;
	const struct model_job_port *jp;
	const struct model_port *p;
	unsigned int i, k;

	for (i = 0; i < j->result.nr_reasons; i++) {
		x = &j->result.reasons[i];
		if (strcmp(x->evidence, "port") || x->detail[0])
			continue;
		for (k = 0; k < j->nr_ports; k++) {
			jp = &j->ports[k];
			if (jp->port != x->port || strcmp(jp->device, x->device))
				continue;
			p = model_port_get(m, jp->device, jp->port);
			if (p && p->qpc_active && jp->qpc_unbound)
				snprintf(x->detail, sizeof(x->detail),
					 "%u of the job's %u QPs here in no counter set (%u sets on the port)",
					 jp->qpc_unbound, jp->qpc_unbound + jp->qpc_bound,
					 p->qpc_counters);
		}
	}
}

/* the port's PCI function runs below what it should: the state, how in detail */
static void pcie_state(const struct model *m, struct health_port_state *st, unsigned int *ns,
		       const struct model_port *p)
{
	const struct model_pcie *q = model_pcie_of(m, p->device);

	if (!q || !q->degraded || *ns == MODEL_MAX_JOB_PORTS)
		return;
	port_state(st, ns, p, HP_PCIE, q->degraded_ns);
	snprintf(st[*ns - 1].detail, sizeof(st[0].detail), "PCIe %s: %s", q->bdf, q->detail);
}

/* a devlink health reporter of the port's device in error: the state, which in detail */
static void devlink_state(const struct model *m, struct health_port_state *st,
			  unsigned int *ns, const struct model_port *p)
{
	const struct model_health *h = model_health_of(m, p->device);
	uint64_t since = 0;
	unsigned int k, n = 0;
	size_t at;

	for (k = 0; h && k < h->nr; k++)
		if (h->rep[k].error) {
			n++;
			since = !since || h->rep[k].error_ns < since ? h->rep[k].error_ns : since;
		}
	if (!n || *ns == MODEL_MAX_JOB_PORTS)
		return;
	port_state(st, ns, p, HP_NIC_FW, since);
	st[*ns - 1].count = n;
	at = (size_t)snprintf(st[*ns - 1].detail, sizeof(st[0].detail), "devlink %s:", h->handle);
	for (k = 0; k < h->nr && at < sizeof(st[0].detail); k++)
		if (h->rep[k].error)
			at += (size_t)snprintf(st[*ns - 1].detail + at, sizeof(st[0].detail) - at,
					       " %s in error (%llu errors)", h->rep[k].name,
					       (unsigned long long)h->rep[k].errors);
}

/* the port's device's driver wedged: the state, the shape in detail */
static void kmsg_state(const struct model *m, struct health_port_state *st, unsigned int *ns,
		       const struct model_port *p)
{
	const struct model_kmsg *k = model_kmsg_of(m, p->device);

	if (!k || !k->wedged || *ns == MODEL_MAX_JOB_PORTS)
		return;
	port_state(st, ns, p, HP_WEDGED, k->wedged_ns);
	snprintf(st[*ns - 1].detail, sizeof(st[0].detail), "%s", k->wedged_why);
}

static void job_eval(struct model *m, unsigned int i, uint64_t now, const struct fold_prev *prev)
{
	struct model_job *j = &m->jobs[i];
	struct health_port_state st[MODEL_MAX_JOB_PORTS];
	unsigned int k, ns = 0;
	bool down;

	j->track.nr_visible = 0;
	for (k = 0; k < j->nr_ports; k++) {
		struct model_job_port *jp = &j->ports[k];
		struct model_port *p = model_port_get(m, jp->device, jp->port);

		jp->shared = port_shared(m, i, jp);
		if (!p)
			continue;	/* the device went away */
		port_signals(m, j, jp, p, prev, now);
		if (m->src[SRC_BPF_WIRE] == SRC_STATE_UP && p->soft_roce)
			health_visible(&j->track, p->device, p->port);
		down = (p->state[0] && strcmp(p->state, "ACTIVE")) || p->carrier == 0;
		if (!j->nr_qps)
			continue;
		if (down || p->degraded)
			port_state(st, &ns, p, down ? HP_DOWN : HP_DEGRADED,
				   down ? now : p->degraded_ns);
		if (p->optics_trouble)
			port_state(st, &ns, p, HP_OPTICS, p->optics_since_ns);
		if (p->trend.degrading && ns < MODEL_MAX_JOB_PORTS) {
			port_state(st, &ns, p, HP_DEGRADING, p->trend.since_ns);
			snprintf(st[ns - 1].detail, sizeof(st[0].detail), "%s", p->trend.why);
		}
		pcie_state(m, st, &ns, p);
		devlink_state(m, st, &ns, p);
		kmsg_state(m, st, &ns, p);
		if (p->misconfigured)
			port_state(st, &ns, p, HP_MISCONFIGURED, p->misconfigured_ns);
		path_states(st, &ns, p);
	}
	health_expire(&j->track, &m->opts.health, now);
	health_eval(&j->track, &m->opts.health, now, st, ns, &j->result);
	port_evidence_why(m, j);
}

/* when each port's link-error counters (PMA, FEC uncorrectable) last rose */
static void port_link_errors(struct model *m, uint64_t now, const struct fold_prev *prev)
{
	unsigned int i, x;

	for (i = 0; i < m->port_slots; i++) {
		struct model_port *p = &m->ports[i];
		bool rose = false;

		if (!p->present)
			continue;
		for (x = 0; x < FOLD_LINK_ERRS; x++)
			rose |= p->have_pma[link_err[x]] && prev->link_err[i][x] != UINT64_MAX &&
				p->pma[link_err[x]].total > prev->link_err[i][x];
		rose |= p->have_fec[ETHNL_FEC_UNCORR] && prev->fec_uncorr[i] != UINT64_MAX &&
			p->fec[ETHNL_FEC_UNCORR].total > prev->fec_uncorr[i];
		rose |= phy_rise(p, prev, i) > 0;
		if (rose)
			p->link_err_ns = now;
	}
}

void fold_jobs(struct model *m, uint64_t now, const struct fold_prev *prev)
{
	unsigned int i;

	port_link_errors(m, now, prev);
	for (i = 0; i < m->job_slots; i++)
		if (m->jobs[i].present)
			job_expire(m, i, now);
	model_job_slots_trim(m);
	jobs_ports(m);
	fold_qpcnt_jobs(m);
	for (i = 0; i < m->job_slots; i++)
		if (m->jobs[i].present)
			job_eval(m, i, now, prev);
}
