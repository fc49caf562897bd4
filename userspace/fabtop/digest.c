// SPDX-License-Identifier: GPL-2.0
/*
 * digest.c - rates and events from successive fabteld answers (see digest.h).
 *
 * Rates: fabteld's own ("rates" per port, "pause_*_rate" per priority) when
 * it sends them; otherwise the counter delta between the last two distinct
 * samples over their sample_time delta.  A second fetch of the same sample
 * keeps the rates of the one before; a counter that went down (fabteld
 * restarted) has no rate; unknown is "-", never 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "digest.h"
#include "fjson.h"
#include "panes.h"

/* the counters whose movement is an error burst in the events log */
static const char *const burst_ctrs[] = {
	"out_of_sequence", "nak_seq_err_rcvd", "implied_nak_seq_err", "local_ack_timeout",
	"retry_exceeded", "rnr_retry_exceeded", "icrc_err", "req_cqe_err", "resp_cqe_err",
};

/* ---- the events log -------------------------------------------------------- */

static struct event *ring_at(struct digest *d, unsigned int i)	/* 0 = oldest */
{
	return &d->ring[(d->head + EVENT_RING - d->count + i) % EVENT_RING];
}

const struct event *digest_event(const struct digest *d, unsigned int i)
{
	return i < d->count ? &d->ring[(d->head + EVENT_RING - d->count + i) % EVENT_RING] : NULL;
}

static struct event *ring_push(struct digest *d)
{
	struct event *e = &d->ring[d->head];

	d->head = (d->head + 1) % EVENT_RING;
	if (d->count < EVENT_RING)
		d->count++;
	memset(e, 0, sizeof(*e));
	e->port = e->priority = -1;
	e->qpn = -1;
	e->down = -1;
	return e;
}

static struct event *derive(struct digest *d, const char *kind, struct json_object *port,
			    double t)
{
	struct event *e = ring_push(d);
	long long n = -1;

	e->seq = ++d->own_seq;
	e->time = t;
	snprintf(e->kind, sizeof(e->kind), "%s", kind);
	ascii_copy(e->device, sizeof(e->device), fj_str(port, "device"));
	if (fj_int(port, "port", &n))
		e->port = (int)n;
	return e;
}

/* A burst that was already moving at the last sample grows; a new one starts. */
static void derive_burst(struct digest *d, struct json_object *port, const char *ctr,
			 uint64_t n, double prev_t, double t)
{
	struct event *e;
	unsigned int i;
	long long pn = -1;

	fj_int(port, "port", &pn);
	for (i = d->count; i-- > 0;) {
		e = ring_at(d, i);
		if (e->time < prev_t)
			break;
		if (!strcmp(e->kind, "error_burst") && !strcmp(e->counter, ctr) && e->port == pn &&
		    !strcmp(e->device, fj_str(port, "device") ? fj_str(port, "device") : "")) {
			e->amount += n;
			e->span += t - e->time;
			e->time = t;
			return;
		}
	}
	e = derive(d, "error_burst", port, t);
	e->amount = n;
	e->span = t - prev_t;
	snprintf(e->counter, sizeof(e->counter), "%s", ctr);
}

static void derive_pfc(struct digest *d, struct json_object *cur, struct json_object *prev,
		       double t)
{
	struct json_object *pfc = fj_get(cur, "pfc"), *ce, *pe;
	uint64_t a, b;
	long long prio;
	int was, is;
	size_t i;
	struct event *e;

	for (i = 0; i < fj_len(pfc); i++) {
		ce = json_object_array_get_idx(pfc, i);
		if (!fj_int(ce, "priority", &prio) || !(pe = fj_find_prio(prev, prio)))
			continue;
		was = fj_bool(pe, "storm");
		is = fj_bool(ce, "storm");
		e = NULL;
		if (was == 0 && is == 1)
			e = derive(d, "pause_storm", cur, t);
		else if (was == 1 && is == 0)
			e = derive(d, "pause_storm_end", cur, t);
		else if (fj_u64(ce, "storms", &a) && fj_u64(pe, "storms", &b) && a > b)
			(e = derive(d, "pause_storm", cur, t))->count = a - b;
		if (e)
			e->priority = (int)prio;
	}
}

static void derive_port(struct digest *d, struct json_object *cur, struct json_object *prev,
			double prev_t, double t)
{
	struct json_object *cc = fj_get(cur, "counters"), *pc = fj_get(prev, "counters");
	uint64_t a, b;
	int was, is;
	size_t i;

	if (fj_u64(cur, "link_flaps", &a) && fj_u64(prev, "link_flaps", &b) && a > b)
		derive(d, "link_flap", cur, t)->count = a - b;
	was = fj_bool(prev, "carrier");
	is = fj_bool(cur, "carrier");
	if (was >= 0 && is >= 0 && was != is)
		derive(d, is ? "link_up" : "link_down", cur, t);
	derive_pfc(d, cur, prev, t);
	for (i = 0; i < sizeof(burst_ctrs) / sizeof(burst_ctrs[0]); i++)
		if (fj_u64(cc, burst_ctrs[i], &a) && fj_u64(pc, burst_ctrs[i], &b) && a > b)
			derive_burst(d, cur, burst_ctrs[i], a - b, prev_t, t);
}

static bool qp_was_err(struct json_object *prev, struct json_object *qp)
{
	struct json_object *qps = fj_get(prev, "qps"), *q;
	long long a, b, s;
	const char *da = fj_str(qp, "device"), *db;
	size_t i;

	fj_int(qp, "qpn", &a);
	for (i = 0; i < fj_len(qps); i++) {
		q = json_object_array_get_idx(qps, i);
		db = fj_str(q, "device");
		if (fj_int(q, "qpn", &b) && a == b && da && db && !strcmp(da, db))
			return fj_int(q, "state", &s) && s == FJ_QP_STATE_ERR;
	}
	return false;
}

static void derive_events(struct digest *d, struct json_object *snap, double prev_t, double t)
{
	struct json_object *ports = fj_get(snap, "ports"), *qps = fj_get(snap, "qps"), *p, *q;
	char key[96];
	long long s, qpn;
	struct event *e;
	size_t i;

	for (i = 0; i < fj_len(ports); i++) {
		p = json_object_array_get_idx(ports, i);
		fj_port_key(key, sizeof(key), p);
		q = fj_find_port(d->prev, key);
		if (q)
			derive_port(d, p, q, prev_t, t);
	}
	for (i = 0; i < fj_len(qps); i++) {
		q = json_object_array_get_idx(qps, i);
		if (!fj_int(q, "state", &s) || s != FJ_QP_STATE_ERR || qp_was_err(d->prev, q))
			continue;
		e = derive(d, "qp_error", q, t);
		if (fj_int(q, "qpn", &qpn))
			e->qpn = qpn;
		ascii_copy(e->job_id, sizeof(e->job_id), fj_str(q, "job_id"));
	}
}

uint64_t digest_events_since(const struct digest *d)
{
	return d->from_api ? d->api_seq : 0;
}

/* an event's numbers and the jobs on its port (fabteld's events API) */
static void take_evidence(struct event *e, struct json_object *o)
{
	struct json_object *jobs = fj_get(o, "jobs");
	size_t i, at = 0;
	uint64_t more = 0;

	fj_u64(o, "amount", &e->amount);
	fj_num(o, "span_seconds", &e->span);
	fj_num(o, "down_seconds", &e->down);
	for (i = 0; i < fj_len(jobs) && at + 1 < sizeof(e->jobs); i++) {
		const char *id = json_object_get_string(json_object_array_get_idx(jobs, i));

		at += (size_t)snprintf(e->jobs + at, sizeof(e->jobs) - at, "%s%s",
				       at ? "," : "", id ? id : "?");
	}
	if (fj_u64(o, "jobs_more", &more) && more && at + 1 < sizeof(e->jobs))
		snprintf(e->jobs + at, sizeof(e->jobs) - at, "%s+%llu", at ? "," : "",
			 (unsigned long long)more);
	ascii_copy(e->jobs, sizeof(e->jobs), e->jobs);
}

/* fabteld's /api/v1/events answer into the log: only what is newer */
static void take_events(struct digest *d, struct json_object *resp)
{
	struct json_object *evs = fj_get(resp, "events"), *o;
	double started;
	long long n;
	uint64_t next, seq;
	struct event *e;
	size_t i;

	if (!d->from_api) {
		d->count = d->head = 0;	/* fabteld's history replaces our guesses */
		d->api_seq = 0;
		d->from_api = true;
	}
	/* fabteld restarted: its numbers start over */
	if (fj_num(resp, "log_started", &started) && started != d->log_started) {
		if (d->log_started)
			d->api_seq = 0;
		d->log_started = started;
	}
	if (fj_u64(resp, "next_seq", &next) && next <= d->api_seq)
		d->api_seq = 0;
	for (i = 0; i < fj_len(evs); i++) {
		o = json_object_array_get_idx(evs, i);
		if (!fj_u64(o, "seq", &seq) || seq <= d->api_seq)
			continue;
		d->api_seq = seq;
		e = ring_push(d);
		e->seq = seq;
		fj_num(o, "time", &e->time);
		ascii_copy(e->kind, sizeof(e->kind), fj_str(o, "kind") ? fj_str(o, "kind") : "?");
		ascii_copy(e->device, sizeof(e->device), fj_str(o, "device"));
		if (fj_int(o, "port", &n))
			e->port = (int)n;
		if (fj_int(o, "priority", &n))
			e->priority = (int)n;
		if (fj_int(o, "qpn", &n))
			e->qpn = n;
		ascii_copy(e->job_id, sizeof(e->job_id), fj_str(o, "job_id"));
		fj_u64(o, "count", &e->count);
		ascii_copy(e->counter, sizeof(e->counter), fj_str(o, "counter"));
		take_evidence(e, o);
	}
}

/* ---- rates ---------------------------------------------------------------- */

static struct json_object *port_state(struct digest *d, const char *key)
{
	struct json_object *st = fj_get(d->state, key);

	if (!st) {
		st = json_object_new_object();
		json_object_object_add(d->state, key, st);
	}
	return st;
}

/* (cur - prev) / dt of one counter; false when either is missing or it went down */
static bool delta_rate(struct json_object *cur, struct json_object *prev, const char *name,
		       double dt, double *out)
{
	uint64_t a, b;

	if (!fj_u64(cur, name, &a) || !fj_u64(prev, name, &b) || a < b)
		return false;
	*out = (double)(a - b) / dt;
	return true;
}

/* fabtop's own rates of one port between two distinct samples */
static void compute_rates(struct json_object *st, struct json_object *cur,
			  struct json_object *prev, double dt)
{
	struct json_object *cc = fj_get(cur, "counters"), *pc = fj_get(prev, "counters");
	struct json_object *rates = json_object_new_object(), *tx, *rx, *ce, *pe;
	struct json_object *pfc = fj_get(cur, "pfc");
	long long prio;
	double v;
	char k[24];
	size_t i;

	for (i = 0; i < FJ_NR_CTRS; i++) {
		if (!fj_get(cc, fj_ctr_names[i]))
			continue;
		json_object_object_add(rates, fj_ctr_names[i],
				       delta_rate(cc, pc, fj_ctr_names[i], dt, &v) ?
				       json_object_new_double(v) : NULL);
	}
	json_object_object_add(st, "rates", rates);
	tx = json_object_new_object();
	rx = json_object_new_object();
	for (i = 0; i < fj_len(pfc); i++) {
		ce = json_object_array_get_idx(pfc, i);
		if (!fj_int(ce, "priority", &prio))
			continue;
		pe = fj_find_prio(prev, prio);
		snprintf(k, sizeof(k), "%lld", prio);
		json_object_object_add(tx, k, delta_rate(ce, pe, "pause_tx", dt, &v) ?
				       json_object_new_double(v) : NULL);
		json_object_object_add(rx, k, delta_rate(ce, pe, "pause_rx", dt, &v) ?
				       json_object_new_double(v) : NULL);
	}
	json_object_object_add(st, "pause_tx", tx);
	json_object_object_add(st, "pause_rx", rx);
	/* the netdev's bytes: the throughput of NICs that count no RDMA bytes (rxe) */
	rates = json_object_new_object();
	for (i = 0; i < 2 && fj_get(cur, "netdev_stats"); i++)
		json_object_object_add(rates, fj_nd_names[i],
				       delta_rate(fj_get(cur, "netdev_stats"), fj_get(prev, "netdev_stats"),
						  fj_nd_names[i], dt, &v) ? json_object_new_double(v) : NULL);
	json_object_object_add(st, "netdev", rates);
}

/*
 * Fold one snapshot into the per-port state.  A new distinct sample moves
 * rates, flap times and (without fabteld's events) the events log; a second
 * look at the same sample changes nothing.
 */
static void fold_snapshot(struct digest *d, struct json_object *snap, struct frame *f)
{
	struct json_object *ports = fj_get(snap, "ports"), *p, *q, *st;
	double t = 0, pt = 0;
	uint64_t ns = 0, ps = 0, a, b;
	bool fresh, restart;
	char key[96];
	size_t i;

	fj_num(snap, "sample_time", &t);
	fj_u64(snap, "samples", &ns);
	if (d->prev) {
		fj_num(d->prev, "sample_time", &pt);
		fj_u64(d->prev, "samples", &ps);
	}
	restart = d->prev && (t < pt || ns < ps);
	fresh = !d->prev || restart || t != pt || ns != ps;
	if (!fresh)
		return;
	if (restart || !d->prev || t - pt <= 0) {
		/* a new baseline: nothing to compare with */
		json_object_put(d->state);
		d->state = json_object_new_object();
		d->basis[0] = d->basis[1] = 0;
	} else {
		for (i = 0; i < fj_len(ports); i++) {
			p = json_object_array_get_idx(ports, i);
			fj_port_key(key, sizeof(key), p);
			q = fj_find_port(d->prev, key);
			st = port_state(d, key);
			compute_rates(st, p, q, t - pt);
			if (q && fj_u64(p, "link_flaps", &a) && fj_u64(q, "link_flaps", &b) && a > b)
				json_object_object_add(st, "last_flap", json_object_new_double(t));
		}
		d->basis[0] = pt;
		d->basis[1] = t;
		if (!f->events)
			derive_events(d, snap, pt, t);
	}
	json_object_put(d->prev);
	d->prev = json_object_get(snap);
}

static struct json_object *event_json(const struct event *e)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "seq", json_object_new_uint64(e->seq));
	json_object_object_add(o, "time", json_object_new_double(e->time));
	json_object_object_add(o, "kind", json_object_new_string(e->kind));
	json_object_object_add(o, "device", json_object_new_string(e->device));
	json_object_object_add(o, "port", e->port >= 0 ? json_object_new_int(e->port) : NULL);
	if (e->priority >= 0)
		json_object_object_add(o, "priority", json_object_new_int(e->priority));
	if (e->qpn >= 0)
		json_object_object_add(o, "qpn", json_object_new_int64(e->qpn));
	json_object_object_add(o, "job_id", e->job_id[0] ? json_object_new_string(e->job_id) :
							   NULL);
	if (e->count)
		json_object_object_add(o, "count", json_object_new_uint64(e->count));
	if (e->counter[0])
		json_object_object_add(o, "counter", json_object_new_string(e->counter));
	if (e->amount)
		json_object_object_add(o, "amount", json_object_new_uint64(e->amount));
	if (e->amount && e->span > 0)
		json_object_object_add(o, "span_seconds", json_object_new_double(e->span));
	if (e->down >= 0)
		json_object_object_add(o, "down_seconds", json_object_new_double(e->down));
	if (e->jobs[0])
		json_object_object_add(o, "jobs", json_object_new_string(e->jobs));
	return o;
}

/* the log as --once --json shows it, oldest first; replaces fabteld's answer */
static void events_json(struct digest *d, struct frame *f)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < d->count; i++)
		json_object_array_add(a, event_json(ring_at(d, i)));
	json_object_put(f->events);
	f->events = a;
}

/* ---- frames -------------------------------------------------------------- */

void digest_init(struct digest *d)
{
	memset(d, 0, sizeof(*d));
	d->state = json_object_new_object();
	d->hist = hist_new();
}

void digest_history(struct digest *d, struct json_object *resp)
{
	if (d->hist && resp)
		hist_take(d->hist, resp);
	json_object_put(resp);
}

double digest_history_since(const struct digest *d)
{
	return d->hist ? d->hist->last_t : 0;
}

void digest_fini(struct digest *d)
{
	json_object_put(d->prev);
	json_object_put(d->state);
	hist_free(d->hist);
	memset(d, 0, sizeof(*d));
}

struct frame *digest_frame(struct digest *d, struct json_object *snap, struct json_object *jobs,
			   struct json_object *events)
{
	struct frame *f = calloc(1, sizeof(*f));
	struct timespec now;

	if (!f || !d->state) {
		free(f);
		json_object_put(snap);
		json_object_put(jobs);
		json_object_put(events);
		return NULL;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	f->fetched = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	f->snapshot = snap;
	f->jobs = jobs;
	f->events = events;
	fj_num(snap, "sample_time", &f->sample_time);
	if (events)
		take_events(d, events);
	else
		d->from_api = false;
	fold_snapshot(d, snap, f);
	events_json(d, f);
	f->hist = d->hist ? hist_copy(d->hist) : NULL;
	panes_build(d, f);
	if (f->rates_from && !strcmp(f->rates_from, "fabtop")) {
		f->basis[0] = d->basis[0];
		f->basis[1] = d->basis[1];
	}
	return f;
}

void frame_free(struct frame *f)
{
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < TAB_NR; i++)
		table_free(&f->tab[i]);
	json_object_put(f->snapshot);
	json_object_put(f->jobs);
	json_object_put(f->events);
	json_object_put(f->probes);
	json_object_put(f->rows);
	hist_free(f->hist);
	free(f);
}

