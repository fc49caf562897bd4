// SPDX-License-Identifier: GPL-2.0
/*
 * render_json.c - the model as JSON: /api/v1/snapshot, /api/v1/jobs,
 * /api/v1/events (see render.h).  fabtop's standalone mode uses it too.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "fold.h"
#include "render.h"
#include "schema.h"

static struct json_object *jstr(const char *s)
{
	return json_object_new_string(s);
}

static struct json_object *jsources(const struct model *m)
{
	struct json_object *o = json_object_new_object(), *s;
	unsigned int i;

	for (i = 0; i < SRC_NR; i++) {
		s = json_object_new_object();
		json_object_object_add(s, "state", jstr(model_src_state_name(m->src[i])));
		if (m->src[i] != SRC_STATE_UP && m->why[i][0])
			json_object_object_add(s, "why", jstr(m->why[i]));
		json_object_object_add(o, model_source_name(i), s);
	}
	return o;
}

struct json_object *render_jtime(uint64_t ns)
{
	return json_object_new_double((double)(ns / 1000000) / 1e3);
}


/* a rate per second, null until two readings made one */
static struct json_object *jrate(const struct rate *r)
{
	return r->valid ? json_object_new_double(r->per_s) : NULL;
}

/* every counter the port has, per second between its last two reads */
static struct json_object *jrates(const struct model_port *p)
{
	struct json_object *o = json_object_new_object();
	unsigned int k;

	for (k = 0; k < FABTEL_NR_COUNTERS; k++)
		if (p->have[k])
			json_object_object_add(o, schema_ctr_name(k), jrate(&p->rate[k]));
	return o;
}

/* the plugged module: what it is, or why fabteld cannot tell */
static struct json_object *jmodule(const struct model_port *p)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "read_by", jstr(p->ddm_by_ko ? "fabtel_ko" : "ethtool"));
	if (p->have_ddm) {
		json_object_object_add(o, "kind", jstr(ddm_kind_name(p->ddm.kind)));
		json_object_object_add(o, "identifier", json_object_new_int(p->ddm.id));
		json_object_object_add(o, "optics_trouble",
				       json_object_new_boolean(p->optics_trouble));
	}
	if (p->ddm_err)
		json_object_object_add(o, "error", jstr(p->ddm_err == -EOPNOTSUPP ?
			"the driver has no module interface" : p->ddm_err == -ENODEV ?
			"no module plugged in" : strerror(-p->ddm_err)));
	return o;
}

/* link speed: null where unknown */
static struct json_object *jspeed(const struct model_port *p)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "mbps", p->have_rate ? json_object_new_uint64(p->rate_mbps) : NULL);
	json_object_object_add(o, "lanes", p->have_rate ? json_object_new_int64(p->lanes) : NULL);
	json_object_object_add(o, "max_seen_mbps", p->rate_max_mbps ?
			       json_object_new_uint64(p->rate_max_mbps) : NULL);
	json_object_object_add(o, "netdev_mbps", p->have_nd_speed ?
			       json_object_new_uint64(p->nd_speed_mbps) : NULL);
	json_object_object_add(o, "supported_max_mbps", p->have_lm && p->lm_supported_mbps ?
			       json_object_new_uint64(p->lm_supported_mbps) : NULL);
	json_object_object_add(o, "advertised_max_mbps", p->have_lm && p->lm_advertised_mbps ?
			       json_object_new_uint64(p->lm_advertised_mbps) : NULL);
	json_object_object_add(o, "peer_max_mbps", p->have_lm && p->lm_peer_mbps ?
			       json_object_new_uint64(p->lm_peer_mbps) : NULL);
	json_object_object_add(o, "degraded", json_object_new_boolean(p->degraded));
	return o;
}

/*
 * What is wrong with the port's link layer now, in the words of the job
 * reasons it gives a job using it: link_degraded, link_errors (a link-error
 * counter rose within window_s), optics, misconfigured, and what the prober
 * sees on the paths from it: path_loss, path_latency, and probe_unresolved
 * (a peer's address does not resolve: a dead host, no probe sent to it,
 * no loss counted).  [] when none.
 */
/* the port's PCI function (nic_health.rst): below its link, AER errors within window */
static void pcie_conditions(const struct model *m, const struct model_port *p,
			    struct json_object *a, uint64_t window)
{
	const struct model_pcie *q = model_pcie_of(m, p->device);

	if (q && q->degraded)
		json_object_array_add(a, jstr("pcie_degraded"));
	if (q && q->aer_rise_ns && q->aer_rise_ns + window >= m->sample_ns)
		json_object_array_add(a, jstr("pcie_errors"));
	if (render_devlink_in_error(m, p->device))
		json_object_array_add(a, jstr("nic_firmware"));
	render_kmsg_conditions(m, p->device, a);
}

static struct json_object *jconditions(const struct model *m, const struct model_port *p)
{
	struct json_object *a = json_object_new_array();
	uint64_t window = (uint64_t)m->opts.health.window_s * NS_PER_S;

	if (p->degraded)
		json_object_array_add(a, jstr("link_degraded"));
	if (p->link_err_ns && p->link_err_ns + window >= m->sample_ns)
		json_object_array_add(a, jstr("link_errors"));
	if (p->optics_trouble)
		json_object_array_add(a, jstr("optics"));
	if (p->trend.degrading)
		json_object_array_add(a, jstr("link_degrading"));
	if (p->sticky.recent)
		json_object_array_add(a, jstr("recent_fault"));
	if (p->misconfigured)
		json_object_array_add(a, jstr("misconfigured"));
	if (p->probe.have && p->probe.loss_bad)
		json_object_array_add(a, jstr("path_loss"));
	if (p->probe.have && p->probe.latency_bad)
		json_object_array_add(a, jstr("path_latency"));
	if (p->probe.have && p->probe.unresolved)
		json_object_array_add(a, jstr("probe_unresolved"));
	pcie_conditions(m, p, a, window);
	return a;
}

static struct json_object *jstr_or_null(const char *s)
{
	return s[0] ? jstr(s) : NULL;
}

/* the port's device on its host (devshape.h): null where it is none of these */
static void jshape(struct json_object *o, const struct dev_shape *s)
{
	struct json_object *pf = NULL, *slaves = NULL;
	char buf[sizeof(s->bond_slaves)], *name, *save = NULL;

	json_object_object_add(o, "pci", jstr_or_null(s->pci));
	if (s->pf[0]) {
		pf = json_object_new_object();
		json_object_object_add(pf, "pci", jstr(s->pf));
		json_object_object_add(pf, "device", jstr_or_null(s->pf_device));
	}
	json_object_object_add(o, "pf", pf);
	json_object_object_add(o, "vfs", s->is_pf ? json_object_new_int64(s->vfs) : NULL);
	if (s->bond[0]) {
		slaves = json_object_new_array();
		snprintf(buf, sizeof(buf), "%s", s->bond_slaves);
		for (name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save))
			json_object_array_add(slaves, jstr(name));
	}
	json_object_object_add(o, "bond_slaves", slaves);
}

/* the devices the include/exclude lists leave out, and by which rule */
static struct json_object *jexcluded(const struct model *m)
{
	struct json_object *a = json_object_new_array(), *x;
	unsigned int i;

	for (i = 0; i < m->nr_excluded; i++) {
		const struct devfilter_hit *h = &m->excluded[i];

		x = json_object_new_object();
		json_object_object_add(x, "device", jstr(h->device));
		json_object_object_add(x, "driver", jstr_or_null(h->driver));
		json_object_object_add(x, "rule", jstr(devfilter_key(h->rule)));
		json_object_object_add(x, "match", jstr_or_null(h->match));
		json_object_array_add(a, x);
	}
	return a;
}

/*
 * How the port's reads of its driver fare, fabtel.ko's and fabteld's own
 * (port_reads.h): errno (positive) and retry_s while unavailable, else 0.
 */
static struct json_object *jreads(const struct model_port *p)
{
	struct json_object *a = json_object_new_array(), *o;
	const struct read_status *s;
	unsigned int who, rd;
	bool failing;

	for (who = 0; who < READER_NR; who++) {
		for (rd = 0; rd < PR_NR; rd++) {
			s = &p->reads.s[who][rd];
			if (!port_read_state_name(s->state))
				continue;
			failing = s->state == BACKOFF_FAILING;
			o = json_object_new_object();
			json_object_object_add(o, "name", jstr(port_read_name(rd)));
			json_object_object_add(o, "reader", jstr(port_reader_name(who)));
			json_object_object_add(o, "state", jstr(port_read_state_name(s->state)));
			json_object_object_add(o, "errno", json_object_new_int(failing ? -s->err : 0));
			json_object_object_add(o, "failures", json_object_new_uint64(s->failures));
			json_object_object_add(o, "retry_s", json_object_new_double(
					       failing ? s->retry_ms / 1e3 : 0));
			json_object_array_add(a, o);
		}
	}
	return a;
}

static struct json_object *jport(const struct model *m, const struct model_port *p)
{
	struct json_object *o = json_object_new_object(), *c, *pfc, *pr;
	unsigned int k;

	json_object_object_add(o, "device", jstr(p->device));
	json_object_object_add(o, "port", json_object_new_int64(p->port));
	json_object_object_add(o, "netdev", p->netdev[0] ? jstr(p->netdev) : NULL);
	json_object_object_add(o, "driver", jstr(p->driver));
	jshape(o, &p->shape);
	json_object_object_add(o, "state", p->state[0] ? jstr(p->state) : NULL);
	json_object_object_add(o, "carrier", p->carrier >= 0 ?
			       json_object_new_boolean(p->carrier) : NULL);
	json_object_object_add(o, "link_flaps", p->have_flaps ?
			       json_object_new_uint64(p->flaps.total) : NULL);
	json_object_object_add(o, "last_flap", p->last_flap_ns ? render_jtime(p->last_flap_ns) : NULL);
	json_object_object_add(o, "speed", jspeed(p));
	json_object_object_add(o, "conditions", jconditions(m, p));
	json_object_object_add(o, "recent_fault", render_sticky_port(m, p));
	if (p->probe.have && p->probe.loss_bad) {	/* what a job's path_loss reason cites */
		char ev[128];

		port_probe_loss_text(&p->probe, ev, sizeof(ev));
		json_object_object_add(o, "path_loss_evidence", jstr(ev));
	}
	json_object_object_add(o, "link_errors_last",
			       p->link_err_ns ? render_jtime(p->link_err_ns) : NULL);
	c = json_object_new_object();
	for (k = 0; k < FABTEL_NR_COUNTERS; k++)
		if (p->have[k])
			json_object_object_add(c, schema_ctr_name(k),
					       json_object_new_uint64(p->ctr[k].total));
	json_object_object_add(o, "counters", c);
	json_object_object_add(o, "rates", jrates(p));
	if (p->have_nd) {
		c = json_object_new_object();
		json_object_object_add(c, "rx_bytes", json_object_new_uint64(p->nd_rx.total));
		json_object_object_add(c, "tx_bytes", json_object_new_uint64(p->nd_tx.total));
		json_object_object_add(c, "rx_bytes_rate", jrate(&p->nd_rx_rate));
		json_object_object_add(c, "tx_bytes_rate", jrate(&p->nd_tx_rate));
		json_object_object_add(o, "netdev_stats", c);
	}
	if (p->pfc_read) {
		pfc = json_object_new_array();
		for (k = 0; k < MODEL_PRIOS; k++) {
			if (!p->prio_read[k])
				continue;
			pr = json_object_new_object();
			json_object_object_add(pr, "priority", json_object_new_int(k));
			json_object_object_add(pr, "enabled",
					       json_object_new_boolean((p->pfc_enabled_mask >> k) & 1));
			json_object_object_add(pr, "pause_tx", json_object_new_uint64(p->pause_tx[k].total));
			json_object_object_add(pr, "pause_rx", json_object_new_uint64(p->pause_rx[k].total));
			json_object_object_add(pr, "storm", json_object_new_boolean(p->storm[k]));
			json_object_object_add(pr, "storms", json_object_new_uint64(p->storms[k].total));
			json_object_object_add(pr, "pause_tx_rate", jrate(&p->pause_tx_rate[k]));
			json_object_object_add(pr, "pause_rx_rate", jrate(&p->pause_rx_rate[k]));
			json_object_array_add(pfc, pr);
		}
		json_object_object_add(o, "pfc", pfc);
	}
	if (p->ddm_read)
		json_object_object_add(o, "module", jmodule(p));
	if ((c = render_qpcnt_port(m, p)))
		json_object_object_add(o, "qp_counters", c);
	json_object_object_add(o, "sources", jreads(p));
	return o;
}

struct json_object *render_snapshot(const struct model *m)
{
	struct json_object *o = json_object_new_object(), *a, *q;
	unsigned int i;

	json_object_object_add(o, "version", jstr(FABTEL_VERSION));
	json_object_object_add(o, "sample_time", render_jtime(m->sample_ns));
	json_object_object_add(o, "sample_seconds", json_object_new_double(m->sample_seconds));
	json_object_object_add(o, "samples", json_object_new_uint64(m->samples));
	json_object_object_add(o, "interval_ms", json_object_new_int64(m->opts.interval_ms));
	json_object_object_add(o, "sources", jsources(m));
	a = json_object_new_array();
	for (i = 0; i < MODEL_MAX_PORTS; i++)
		if (m->ports[i].present)
			json_object_array_add(a, jport(m, &m->ports[i]));
	json_object_object_add(o, "ports", a);
	if (m->src[SRC_QP_COUNTERS] == SRC_STATE_UP)
		json_object_object_add(o, "qp_counter_sets", render_qpcnt_sets(m));
	if (m->src[SRC_PCIE] == SRC_STATE_UP)
		json_object_object_add(o, "pcie", render_pcie_functions(m));
	if (m->src[SRC_DEVLINK] == SRC_STATE_UP)
		json_object_object_add(o, "devlink", render_devlink_devices(m));
	if (m->src[SRC_KMSG] == SRC_STATE_UP)
		json_object_object_add(o, "driver_messages", render_kmsg_json(m));
	json_object_object_add(o, "excluded_devices", jexcluded(m));
	if (m->excluded_more)
		json_object_object_add(o, "excluded_devices_more",
				       json_object_new_int64(m->excluded_more));
	a = json_object_new_array();
	for (i = 0; i < m->qp_slots; i++) {
		const struct model_qp *p = &m->qps[i];

		if (!p->present)
			continue;
		q = json_object_new_object();
		json_object_object_add(q, "device", jstr(p->device));
		json_object_object_add(q, "port", json_object_new_int64(p->port));
		json_object_object_add(q, "qpn", json_object_new_int64(p->qpn));
		json_object_object_add(q, "dest_qpn", json_object_new_int64(p->rqpn));
		json_object_object_add(q, "pid", json_object_new_int64(p->pid));
		json_object_object_add(q, "comm", jstr(p->comm));
		json_object_object_add(q, "state", json_object_new_int(p->state));
		json_object_object_add(q, "job_id", p->job >= 0 ? jstr(m->jobs[p->job].id.id) : NULL);
		json_object_array_add(a, q);
	}
	json_object_object_add(o, "qps", a);
	return o;
}

struct json_object *render_reason(const struct health_reason *r)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "reason", jstr(r->reason));
	json_object_object_add(o, "severity", jstr(r->severity));
	json_object_object_add(o, "device", jstr(r->device));
	json_object_object_add(o, "port", json_object_new_int64(r->port));
	json_object_object_add(o, "at", render_jtime(r->at_ns));
	json_object_object_add(o, "count", json_object_new_uint64(r->count));
	json_object_object_add(o, "shared", json_object_new_boolean(r->shared));
	json_object_object_add(o, "evidence", jstr(r->evidence ? r->evidence : "port"));
	json_object_object_add(o, "detail", r->detail[0] ? jstr(r->detail) : NULL);
	return o;
}

struct json_object *render_jobs(const struct model *m)
{
	struct json_object *o = json_object_new_object(), *jobs = json_object_new_array();
	struct json_object *j, *a, *p, *ev, *qc;
	const struct model_port *mp;
	unsigned int i, k, s;

	json_object_object_add(o, "sample_time", render_jtime(m->sample_ns));
	for (i = 0; i < m->job_slots; i++) {
		const struct model_job *jb = &m->jobs[i];
		const struct health_result *r = &jb->result;

		if (!jb->present)
			continue;
		j = json_object_new_object();
		json_object_object_add(j, "job_id", jstr(jb->id.id));
		json_object_object_add(j, "kind", jstr(job_kind_name(jb->id.kind)));
		json_object_object_add(j, "user", jb->user[0] ? jstr(jb->user) : NULL);
		json_object_object_add(j, "verdict", jstr(health_verdict_name(r->verdict)));
		a = json_object_new_array();
		for (k = 0; k < r->nr_reasons; k++)
			json_object_array_add(a, render_reason(&r->reasons[k]));
		json_object_object_add(j, "reasons", a);
		json_object_object_add(j, "culprit", r->culprit >= 0 ?
				       render_reason(&r->reasons[r->culprit]) : NULL);
		json_object_object_add(j, "qps", json_object_new_int64(jb->nr_qps));
		json_object_object_add(j, "first_seen", render_jtime(jb->first_ns));
		a = json_object_new_array();
		for (k = 0; k < jb->nr_ports; k++) {
			p = json_object_new_object();
			json_object_object_add(p, "device", jstr(jb->ports[k].device));
			json_object_object_add(p, "port", json_object_new_int64(jb->ports[k].port));
			json_object_object_add(p, "netdev", jstr(jb->ports[k].netdev));
			json_object_object_add(p, "shared", json_object_new_boolean(jb->ports[k].shared));
			json_object_object_add(p, "link_flaps",
					       json_object_new_uint64(jb->ports[k].flaps));
			ev = json_object_new_object();
			for (s = 0; s <= HS_QP_ERROR; s++)
				json_object_object_add(ev, model_event_kind(s),
						       json_object_new_uint64(jb->ports[k].events[s]));
			json_object_object_add(p, "qp_events", ev);
			mp = model_find_port(m, jb->ports[k].device, jb->ports[k].port);
			json_object_object_add(p, "rates", mp ? jrates(mp) : NULL);
			if ((qc = render_qpcnt_jobport(mp, &jb->ports[k])))
				json_object_object_add(p, "qp_counter", qc);
			json_object_array_add(a, p);
		}
		json_object_object_add(j, "ports", a);
		json_object_array_add(jobs, j);
	}
	json_object_object_add(o, "jobs", jobs);
	return o;
}

/* what fabtel.ko measured of it, and the jobs on its port (Documentation/fabteld.rst) */
static void event_evidence(struct json_object *e, const struct model_event *ev)
{
	struct json_object *jobs = json_object_new_array();
	const char *id = ev->jobs;
	unsigned int i;

	if (ev->amount)
		json_object_object_add(e, "amount", json_object_new_uint64(ev->amount));
	if (ev->amount && ev->span_ns)
		json_object_object_add(e, "span_seconds",
				       json_object_new_double((double)ev->span_ns / NS_PER_S));
	if (ev->have_down)
		json_object_object_add(e, "down_seconds",
				       json_object_new_double((double)ev->down_ns / NS_PER_S));
	for (i = 0; i < ev->nr_jobs; i++, id += strlen(id) + 1)
		json_object_array_add(jobs, jstr(id));
	json_object_object_add(e, "jobs", jobs);
	if (ev->jobs_more)
		json_object_object_add(e, "jobs_more", json_object_new_int((int)ev->jobs_more));
}

struct json_object *render_events(const struct model *m, uint64_t since)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array(), *e;
	const struct model_event *ev;
	uint64_t seq, first;

	json_object_object_add(o, "sample_time", render_jtime(m->sample_ns));
	/* which log the numbers belong to: a restarted fabteld starts a new one */
	json_object_object_add(o, "log_started", render_jtime(m->started_ns));
	json_object_object_add(o, "next_seq", json_object_new_uint64(m->next_event_seq ?
								      m->next_event_seq : 1));
	first = m->next_event_seq > MODEL_MAX_EVENTS ? m->next_event_seq - MODEL_MAX_EVENTS : 1;
	if (since + 1 > first)
		first = since + 1;
	for (seq = first; (ev = model_event_get(m, seq)); seq++) {
		e = json_object_new_object();
		json_object_object_add(e, "seq", json_object_new_uint64(ev->seq));
		json_object_object_add(e, "time", render_jtime(ev->at_ns));
		json_object_object_add(e, "kind", jstr(model_event_name(ev->kind)));
		json_object_object_add(e, "device", jstr(ev->device));
		json_object_object_add(e, "port", json_object_new_int64(ev->port));
		if (ev->priority >= 0)
			json_object_object_add(e, "priority", json_object_new_int(ev->priority));
		if (ev->qpn >= 0)
			json_object_object_add(e, "qpn", json_object_new_int64(ev->qpn));
		json_object_object_add(e, "job_id", ev->job_id[0] ? jstr(ev->job_id) : NULL);
		json_object_object_add(e, "count", json_object_new_uint64(ev->count));
		json_object_object_add(e, "restored", json_object_new_boolean(ev->restored));
		if (ev->counter[0])	/* driver messages: the pattern (driver_messages.rst) */
			json_object_object_add(e, ev->kind == EV_DRIVER_MESSAGE ||
						  ev->kind == EV_DRIVER_WEDGED ? "pattern" : "counter",
					       jstr(ev->counter));
		event_evidence(e, ev);
		render_event_record(m, ev, e);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "events", a);
	/* how many the caller missed because the ring moved on */
	json_object_object_add(o, "lost", json_object_new_uint64(first > since + 1 ?
								   first - since - 1 : 0));
	return o;
}
