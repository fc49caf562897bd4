// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the model's names, its event log, its rate history and its
 * lookups (ports, QPs, jobs).  The collector's folds (fold_*.c) write the
 * model through these; readers use the const ones.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fnv.h"
#include "model.h"
#include "text.h"

static const char *const src_names[SRC_NR] = {
	"fabtel_ko", "sysfs", "bpf_flap", "bpf_qp", "bpf_rxe", "bpf_wire", "rdma_netlink",
	"ethtool", "ethtool_stats", "roce_config", "qp_counters", "pcie",
	"devlink", "kmsg",
};

static const char *const src_state_names[] = {
	[SRC_STATE_STANDBY] = "standby",
	[SRC_STATE_UP] = "up",
	[SRC_STATE_UNAVAILABLE] = "unavailable",
};

static const char *const event_names[EV_NR] = {
	"port_added", "port_removed", "link_down", "link_up", "link_flap",
	"pause_storm", "pause_storm_end", "error_burst", "qp_error", "driver_message",
	"driver_wedged",
};

static const char *const hist_names[HIST_NR] = {
	"rx_gbps", "tx_gbps", "out_of_sequence", "nak_seq_err_rcvd", "local_ack_timeout",
	"retry_exceeded", "cnp_handled", "ecn_marked_rx", "pause_tx", "pause_rx",
};

const char *model_source_name(enum model_source s)
{
	return s < SRC_NR ? src_names[s] : "unknown";
}

const char *model_src_state_name(enum src_state s)
{
	return s <= SRC_STATE_UNAVAILABLE ? src_state_names[s] : "unknown";
}

const char *model_event_kind(enum health_sig s)
{
	return health_sig_name(s);
}

const char *model_event_name(enum model_event_kind k)
{
	return k < EV_NR ? event_names[k] : "unknown";
}

const char *model_hist_name(enum model_hist h)
{
	return h < HIST_NR ? hist_names[h] : "unknown";
}

void collect_opts_default(struct collect_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bpf = true;
	o->wire = true;
	o->want_ko = true;
	o->interval_ms = COLLECT_INTERVAL_MS;
	o->job_linger_s = COLLECT_JOB_LINGER_S;
	o->module_s = COLLECT_MODULE_S;
	o->fec_s = COLLECT_FEC_S;
	o->pma_s = COLLECT_PMA_S;
	o->quiet_every = COLLECT_QUIET_EVERY;
	o->info_every = COLLECT_INFO_EVERY;
	o->qp_counters = QPC_READ;
	o->qp_counters_s = COLLECT_QP_COUNTERS_S;
	o->qp_counters_sets = COLLECT_QP_COUNTERS_SETS;
	o->pcie_s = COLLECT_PCIE_S;
	o->kmsg = true;
	o->kmsg_wedged_s = COLLECT_KMSG_WEDGED_S;
	o->recent_fault_s = COLLECT_RECENT_FAULT_S;
	o->port_stats = PORT_STATS_AUTO;
	o->roce_tos = -1;
	health_cfg_defaults(&o->health);
}

/* ---- ports and their history ------------------------------------------- */

uint32_t model_port_key(const char *dev, uint32_t port)
{
	/* the name, then the number */
	uint32_t h = fnv1a_u32(fnv1a_str(FNV1A_INIT, dev), port);

	return h ? h : 1;
}

const struct model_port *model_find_port(const struct model *m, const char *dev, uint32_t port)
{
	uint32_t key = model_port_key(dev, port);
	unsigned int i;

	for (i = 0; i < m->port_slots; i++)
		if (m->port_key[i] == key && m->ports[i].present && m->ports[i].port == port &&
		    !strcmp(m->ports[i].device, dev))
			return &m->ports[i];
	return NULL;
}

struct model_port *model_port_get(struct model *m, const char *dev, uint32_t port)
{
	return (struct model_port *)model_find_port(m, dev, port);
}

const struct model_hist_point *model_hist_get(const struct model_port *p, unsigned int i)
{
	if (i >= p->hist_count)
		return NULL;
	return &p->hist[(p->hist_head + MODEL_HISTORY - 1 - i) % MODEL_HISTORY];
}

static float rate_or_nan(const struct rate *r, bool have)
{
	return have && r->valid ? (float)r->per_s : NAN;
}

void model_hist_record(struct model_port *p, uint64_t now)
{
	static const struct { enum model_hist h; enum fabtel_counter c; } direct[] = {
		{ HIST_OOS, FABTEL_OUT_OF_SEQUENCE }, { HIST_NAK, FABTEL_NAK_SEQ_ERR_RCVD },
		{ HIST_ACK_TIMEOUT, FABTEL_LOCAL_ACK_TIMEOUT },
		{ HIST_RETRY, FABTEL_RETRY_EXCEEDED },
		{ HIST_CNP, FABTEL_CNP_HANDLED }, { HIST_ECN, FABTEL_ECN_MARKED_RX },
	};
	struct model_hist_point *h = &p->hist[p->hist_head];
	double tx = 0, rx = 0;
	bool pause = false;
	unsigned int i;

	h->at_ns = now;
	for (i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
		h->v[direct[i].h] = rate_or_nan(&p->rate[direct[i].c], p->have[direct[i].c]);
	/* the device's RDMA bytes, else its netdev's (rxe counts no bytes) */
	if (p->have[FABTEL_RX_BYTES]) {
		h->v[HIST_RX_GBPS] = rate_or_nan(&p->rate[FABTEL_RX_BYTES], true) * 8 / 1e9f;
		h->v[HIST_TX_GBPS] = rate_or_nan(&p->rate[FABTEL_TX_BYTES],
						 p->have[FABTEL_TX_BYTES]) * 8 / 1e9f;
	} else {
		h->v[HIST_RX_GBPS] = rate_or_nan(&p->nd_rx_rate, p->have_nd) * 8 / 1e9f;
		h->v[HIST_TX_GBPS] = rate_or_nan(&p->nd_tx_rate, p->have_nd) * 8 / 1e9f;
	}
	for (i = 0; i < MODEL_PRIOS; i++) {
		if (!p->prio_read[i] || !p->pause_tx_rate[i].valid || !p->pause_rx_rate[i].valid)
			continue;
		tx += p->pause_tx_rate[i].per_s;
		rx += p->pause_rx_rate[i].per_s;
		pause = true;
	}
	h->v[HIST_PAUSE_TX] = pause ? (float)tx : NAN;
	h->v[HIST_PAUSE_RX] = pause ? (float)rx : NAN;
	p->hist_head = (p->hist_head + 1) % MODEL_HISTORY;
	if (p->hist_count < MODEL_HISTORY)
		p->hist_count++;
}

/* ---- the event log --------------------------------------------------------- */

const struct model_event *model_event_get(const struct model *m, uint64_t seq)
{
	const struct model_event *ev;

	if (!seq || seq >= m->next_event_seq)
		return NULL;
	ev = &m->events[(seq - 1) % MODEL_MAX_EVENTS];
	return ev->seq == seq ? ev : NULL;
}

/* the jobs on device/port (port 0: any of the device's) into ev->jobs (see model.h) */
static void event_jobs(const struct model *m, struct model_event *ev)
{
	size_t len = 0, idl;
	unsigned int i, k;

	for (i = 0; i < m->job_slots; i++) {
		const struct model_job *j = &m->jobs[i];

		for (k = 0; j->present && k < j->nr_ports; k++)
			if ((!ev->port || j->ports[k].port == ev->port) &&
			    !strcmp(j->ports[k].device, ev->device))
				break;
		if (!j->present || k == j->nr_ports)
			continue;
		idl = strlen(j->id.id) + 1;
		if (len + idl > sizeof(ev->jobs)) {
			ev->jobs_more++;
			continue;
		}
		memcpy(ev->jobs + len, j->id.id, idl);
		len += idl;
		ev->nr_jobs++;
	}
}

struct model_event *model_log_event(struct model *m, enum model_event_kind kind,
				    const char *device, uint32_t port, uint64_t at_ns)
{
	struct model_event *ev;

	if (!m->next_event_seq)
		m->next_event_seq = 1;
	ev = &m->events[(m->next_event_seq - 1) % MODEL_MAX_EVENTS];
	memset(ev, 0, sizeof(*ev));
	ev->seq = m->next_event_seq++;
	ev->at_ns = at_ns;
	ev->kind = kind;
	text_copy(ev->device, sizeof(ev->device), device);
	ev->port = port;
	ev->priority = -1;
	ev->qpn = -1;
	ev->count = 1;
	if (device[0])
		event_jobs(m, ev);
	if (m->on_event)
		m->on_event(m->on_event_arg, m->next_event_seq);
	return ev;
}

/* ---- the QP index ---------------------------------------------------------- */

static unsigned int qp_hash(uint32_t dev_index, uint32_t qpn)
{
	return ((qpn * 2654435761u) ^ (dev_index * 40503u)) & (MODEL_QP_INDEX - 1);
}

void model_qp_index_add(struct model *m, unsigned int slot)
{
	unsigned int h = qp_hash(m->qps[slot].dev_index, m->qps[slot].qpn);

	while (m->qp_index[h])
		h = (h + 1) & (MODEL_QP_INDEX - 1);
	m->qp_index[h] = (uint16_t)(slot + 1);
}

void model_qp_index_rebuild(struct model *m)
{
	unsigned int i;

	memset(m->qp_index, 0, sizeof(m->qp_index));
	for (i = 0; i < m->qp_slots; i++)
		if (m->qps[i].present)
			model_qp_index_add(m, i);
}

/* never full: at most MODEL_MAX_QPS of MODEL_QP_INDEX entries are used */
struct model_qp *model_find_qp(struct model *m, uint32_t dev_index, uint32_t qpn)
{
	unsigned int h = qp_hash(dev_index, qpn);
	struct model_qp *q;

	for (; m->qp_index[h]; h = (h + 1) & (MODEL_QP_INDEX - 1)) {
		q = &m->qps[m->qp_index[h] - 1];
		if (q->present && q->dev_index == dev_index && q->qpn == qpn)
			return q;
	}
	return NULL;
}

/* ---- jobs ------------------------------------------------------------------ */

struct model_job *model_find_job(struct model *m, const struct job_match *id, bool create,
				 uint64_t now)
{
	struct model_job *free_slot = NULL;
	unsigned int i;

	for (i = 0; i < m->job_slots; i++) {
		struct model_job *j = &m->jobs[i];

		if (!j->present) {
			if (!free_slot)
				free_slot = j;
			continue;
		}
		if (j->id.kind == id->kind && !strcmp(j->id.id, id->id))
			return j;
	}
	if (!create)
		return NULL;
	if (!free_slot && m->job_slots < MODEL_MAX_JOBS)
		free_slot = &m->jobs[m->job_slots++];
	if (!free_slot) {
		m->jobs_dropped++;
		return NULL;
	}
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->present = true;
	free_slot->id = *id;
	free_slot->first_ns = now;
	health_init(&free_slot->track);
	return free_slot;
}

void model_job_slots_trim(struct model *m)
{
	while (m->job_slots && !m->jobs[m->job_slots - 1].present)
		m->job_slots--;
}

struct model_job_port *model_job_port(struct model_job *j, const struct model_port *p)
{
	uint32_t key = model_port_key(p->device, p->port);
	struct model_job_port *jp;
	unsigned int i;

	for (i = 0; i < j->nr_ports; i++)
		if (j->ports[i].key == key && j->ports[i].port == p->port &&
		    !strcmp(j->ports[i].device, p->device))
			return &j->ports[i];
	if (j->nr_ports == MODEL_MAX_JOB_PORTS)
		return NULL;
	jp = &j->ports[j->nr_ports++];
	memset(jp, 0, sizeof(*jp));
	text_copy(jp->device, sizeof(jp->device), p->device);
	jp->port = p->port;
	jp->key = key;
	text_copy(jp->netdev, sizeof(jp->netdev), p->netdev);
	return jp;
}

void model_signal_job(struct model_job *j, enum health_sig sig, const char *dev, uint32_t port,
		      uint64_t n, bool shared, uint64_t at_ns)
{
	struct health_signal s = { .at_ns = at_ns, .sig = sig, .port = port, .n = n,
				   .shared = shared };

	text_copy(s.device, sizeof(s.device), dev);
	health_add(&j->track, &s);
}

void model_signal_job_counter(struct model_job *j, enum health_sig sig, const char *dev,
			      uint32_t port, uint64_t n, const uint8_t *peer, uint64_t at_ns)
{
	struct health_signal s = { .at_ns = at_ns, .sig = sig, .port = port, .n = n,
				   .counter = true, .has_peer = peer != NULL };

	text_copy(s.device, sizeof(s.device), dev);
	if (peer)
		memcpy(s.peer, peer, sizeof(s.peer));
	health_add(&j->track, &s);
}

void port_probe_loss_text(const struct port_probe *q, char *out, size_t len)
{
	/* some of its flows: a path under ECMP; all of them: the peer or this port */
	if (q->loss_flows > 1)
		snprintf(out, len, "%u of %u peers lose probes; worst: %u of %u flows to %s lose %.0f%%",
			 q->loss_bad, q->pairs, q->loss_flows_losing, q->loss_flows, q->loss_peer,
			 q->worst_loss * 100);
	else
		snprintf(out, len, "%u of %u peers lose probes; worst %s %.0f%%", q->loss_bad,
			 q->pairs, q->loss_peer, q->worst_loss * 100);
}
