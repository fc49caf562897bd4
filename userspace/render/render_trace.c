// SPDX-License-Identifier: GPL-2.0
/*
 * render_trace.c - a job's fabric timeline as Chrome trace / Perfetto JSON
 * (/api/v1/jobs/<id>/trace), to lay next to a PyTorch profiler trace.
 *
 * Timestamps are microseconds since the Unix epoch, so the two line up by
 * wall clock.  Process 1 is the job: thread 1 its own signals (per-QP
 * events as instants), one thread per port it uses (link-down and pause
 * storm spans, flaps, error bursts) and, per port, counter tracks of the
 * rates fabteld kept (Gb/s, error rates, pauses).  Process 2 is the rest
 * of the host: the same spans and instants on ports the job does not use
 * (a storm next door is context).  A job's port's flight records add a span
 * each and a counter track per signal that moved in it, at fabtel.ko's
 * sample_ms (render_records.c names the signals).  Everything from the job's first sight
 * less window_s on, as far back as fabteld's rings reach (Documentation/
 * fabteld.rst).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "render.h"

#define PID_JOB		1
#define PID_HOST	2
#define TID_SIGNALS	1
#define TID_PORT0	2	/* the job's ports, then the host's */

struct tracer {
	const struct model *m;
	const struct model_job *job;
	struct json_object *events;	/* all but metadata, sorted at the end */
	uint64_t since_ns;
	/* ports with a thread: the job's first (pid 1), then the others */
	struct { const char *device; uint32_t port; int pid; } track[MODEL_MAX_PORTS + MODEL_MAX_JOB_PORTS];
	unsigned int nr_tracks;
};

static int64_t us(uint64_t ns)
{
	return (int64_t)(ns / 1000);
}

static struct json_object *tev(const char *ph, const char *name, const char *cat, int pid, int tid,
			       uint64_t ts_ns)
{
	struct json_object *e = json_object_new_object();

	json_object_object_add(e, "ph", json_object_new_string(ph));
	json_object_object_add(e, "name", json_object_new_string(name));
	if (cat)
		json_object_object_add(e, "cat", json_object_new_string(cat));
	json_object_object_add(e, "pid", json_object_new_int(pid));
	json_object_object_add(e, "tid", json_object_new_int(tid));
	json_object_object_add(e, "ts", json_object_new_int64(us(ts_ns)));
	return e;
}

static void meta(struct json_object *out, const char *what, int pid, int tid, const char *name)
{
	struct json_object *e = json_object_new_object(), *a = json_object_new_object();

	json_object_object_add(e, "ph", json_object_new_string("M"));
	json_object_object_add(e, "name", json_object_new_string(what));
	json_object_object_add(e, "pid", json_object_new_int(pid));
	json_object_object_add(e, "tid", json_object_new_int(tid));
	json_object_object_add(a, "name", json_object_new_string(name));
	json_object_object_add(e, "args", a);
	json_object_array_add(out, e);
}

/* The thread of a port, made on first use; its pid in *pid. */
static int track_of(struct tracer *t, const char *device, uint32_t port, int *pid)
{
	unsigned int i;

	for (i = 0; i < t->nr_tracks; i++)
		if (t->track[i].port == port && !strcmp(t->track[i].device, device))
			break;
	if (i == t->nr_tracks) {
		if (i == sizeof(t->track) / sizeof(t->track[0]))
			return -1;
		t->track[i].device = device;
		t->track[i].port = port;
		t->track[i].pid = PID_HOST;
		t->nr_tracks++;
	}
	*pid = t->track[i].pid;
	return TID_PORT0 + (int)i;
}

static void port_args(struct json_object *e, const char *device, uint32_t port)
{
	struct json_object *a = json_object_new_object();

	json_object_object_add(a, "device", json_object_new_string(device));
	json_object_object_add(a, "port", json_object_new_int64(port));
	json_object_object_add(e, "args", a);
}

/*
 * A span: a down (or storm) event and the matching later up (or storm end).
 * end_ns 0: still open when the trace was taken, drawn up to the last sample.
 */
static void span(struct tracer *t, const struct model_event *start, uint64_t end_ns)
{
	bool storm = start->kind == EV_PAUSE_STORM;
	bool open = !end_ns;
	struct json_object *e, *a;
	int pid, tid;

	if (open)
		end_ns = t->m->sample_ns;
	/* only spans that reach into the trace's window */
	if (end_ns < t->since_ns)
		return;
	tid = track_of(t, start->device, start->port, &pid);
	if (tid < 0)
		return;
	e = tev("X", storm ? "pause storm" : "link down", storm ? "pause_storm" : "link_flap",
		pid, tid, start->at_ns);
	json_object_object_add(e, "dur", json_object_new_int64(end_ns > start->at_ns ?
							       us(end_ns) - us(start->at_ns) : 0));
	port_args(e, start->device, start->port);
	json_object_object_get_ex(e, "args", &a);
	if (start->priority >= 0)
		json_object_object_add(a, "priority", json_object_new_int(start->priority));
	/* still down (or storming) when the trace was taken */
	json_object_object_add(a, "open", json_object_new_boolean(open));
	json_object_array_add(t->events, e);
}

/* The kind that opens the span an event closes (or that it opens itself). */
static enum model_event_kind span_start(enum model_event_kind k)
{
	return k == EV_LINK_UP ? EV_LINK_DOWN : k == EV_PAUSE_STORM_END ? EV_PAUSE_STORM : k;
}

static bool same_place(const struct model_event *a, const struct model_event *b)
{
	return a->port == b->port && a->priority == b->priority && !strcmp(a->device, b->device);
}

static void instant(struct tracer *t, const struct model_event *ev, const char *name)
{
	struct json_object *e, *a;
	int pid, tid;

	tid = track_of(t, ev->device, ev->port, &pid);
	if (tid < 0)
		return;
	e = tev("i", name, name, pid, tid, ev->at_ns);
	json_object_object_add(e, "s", json_object_new_string("t"));
	port_args(e, ev->device, ev->port);
	json_object_object_get_ex(e, "args", &a);
	json_object_object_add(a, "count", json_object_new_uint64(ev->count));
	if (ev->qpn >= 0)
		json_object_object_add(a, "qpn", json_object_new_int64(ev->qpn));
	json_object_array_add(t->events, e);
}

/*
 * One pass over the event ring.  Spans are paired as they come: a down (or
 * storm) opens one for its port (and priority), the next up (or storm end)
 * there closes it.  A span that began before the trace's window but ends in
 * it (or is still open) is kept whole; a repeated down while one is open is
 * the same outage.
 */
static void from_events(struct tracer *t)
{
	const struct model *m = t->m;
	const struct model_event *ev, *open[MODEL_MAX_EVENTS];
	unsigned int nr_open = 0, i;
	uint64_t seq, first;
	bool starts, ends;

	first = m->next_event_seq > MODEL_MAX_EVENTS ? m->next_event_seq - MODEL_MAX_EVENTS : 1;
	for (seq = first; (ev = model_event_get(m, seq)); seq++) {
		starts = ev->kind == EV_LINK_DOWN || ev->kind == EV_PAUSE_STORM;
		ends = ev->kind == EV_LINK_UP || ev->kind == EV_PAUSE_STORM_END;
		if (starts || ends) {
			for (i = 0; i < nr_open; i++)
				if (open[i]->kind == span_start(ev->kind) &&
				    same_place(open[i], ev))
					break;
			if (starts && i == nr_open)
				open[nr_open++] = ev;
			if (ends && i < nr_open) {
				span(t, open[i], ev->at_ns);
				open[i] = open[--nr_open];
			}
			continue;
		}
		if (ev->at_ns < t->since_ns)
			continue;
		switch (ev->kind) {
		case EV_LINK_FLAP:
		case EV_ERROR_BURST:
		case EV_PORT_ADDED:
		case EV_PORT_REMOVED:
			instant(t, ev, model_event_name(ev->kind));
			break;
		case EV_QP_ERROR:
			/* the job's own QP errors are its signals (thread 1) */
			if (strcmp(ev->job_id, t->job->id.id))
				instant(t, ev, "qp_error");
			break;
		default:
			break;
		}
	}
	for (i = 0; i < nr_open; i++)
		span(t, open[i], 0);
}

/* The job's own signals: per-QP events and port-level ones, as instants. */
static void from_signals(struct tracer *t)
{
	const struct health_track *tr = &t->job->track;
	const struct health_signal *s;
	struct json_object *e, *a;
	unsigned int i;

	for (i = 0; i < tr->count; i++) {
		s = &tr->sig[(tr->head + HEALTH_MAX_SIGNALS - tr->count + i) % HEALTH_MAX_SIGNALS];
		if (s->sig == HS_TRAFFIC || s->at_ns < t->since_ns)
			continue;
		e = tev("i", health_sig_name(s->sig), "job_signal", PID_JOB, TID_SIGNALS, s->at_ns);
		json_object_object_add(e, "s", json_object_new_string("t"));
		port_args(e, s->device, s->port);
		json_object_object_get_ex(e, "args", &a);
		json_object_object_add(a, "count", json_object_new_uint64(s->n));
		json_object_object_add(a, "shared", json_object_new_boolean(s->shared));
		json_object_object_add(a, "evidence", json_object_new_string(
			s->shared ? "port" : s->counter ? "qp_counter" : "qp_event"));
		json_object_array_add(t->events, e);
	}
}

/* Counter tracks of a job's port: one "C" event per kept sample and group. */
static void counters(struct tracer *t, const struct model_port *p)
{
	static const struct { const char *name; enum model_hist h[4]; unsigned int n; } groups[] = {
		{ "Gb/s", { HIST_RX_GBPS, HIST_TX_GBPS }, 2 },
		{ "errors/s", { HIST_OOS, HIST_NAK, HIST_ACK_TIMEOUT, HIST_RETRY }, 4 },
		{ "congestion/s", { HIST_CNP, HIST_ECN }, 2 },
		{ "pause/s", { HIST_PAUSE_TX, HIST_PAUSE_RX }, 2 },
	};
	const struct model_hist_point *h;
	struct json_object *e, *a;
	unsigned int i, g, k;
	char name[128];

	for (i = p->hist_count; i-- > 0;) {
		h = model_hist_get(p, i);
		if (h->at_ns < t->since_ns)
			continue;
		for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
			a = NULL;
			for (k = 0; k < groups[g].n; k++) {
				if (isnan(h->v[groups[g].h[k]]))
					continue;
				if (!a)
					a = json_object_new_object();
				json_object_object_add(a, model_hist_name(groups[g].h[k]),
						       json_object_new_double(h->v[groups[g].h[k]]));
			}
			if (!a)
				continue;	/* nothing known: no point rather than a zero */
			snprintf(name, sizeof(name), "%s/%u %s", p->device, p->port, groups[g].name);
			e = tev("C", name, "rates", PID_JOB, 0, h->at_ns);
			json_object_object_del(e, "tid");
			json_object_object_add(e, "args", a);
			json_object_array_add(t->events, e);
		}
	}
}

/* the module's levels at its reads: rx_power_min_uw, temperature_c */
static void record_optics(struct tracer *t, const struct rec *r)
{
	struct json_object *e, *a;
	uint64_t at;
	unsigned int i;
	char name[160];

	snprintf(name, sizeof(name), "%s/%u record optics", r->device, r->port);
	for (i = 0; i < r->h.nr_samples; i++) {
		at = rec_sample_real_ns(r, i);
		if (at < t->since_ns || !(r->s[i].flags & FABTEL_REC_F_OPTICS))
			continue;
		a = json_object_new_object();
		json_object_object_add(a, "rx_power_min_uw",
				       json_object_new_double(r->s[i].rx_power / 10.0));
		json_object_object_add(a, "temperature_c",
				       json_object_new_double(r->s[i].temperature / 256.0));
		e = tev("C", name, "flight_record", PID_JOB, 0, at);
		json_object_object_del(e, "tid");
		json_object_object_add(e, "args", a);
		json_object_array_add(t->events, e);
	}
}

/* a record's counter track of one signal ("carrier": 1 up, 0 down), its samples' values */
static void record_track(struct tracer *t, const struct rec *r, const struct rec_signal *g,
			 const char *sig)
{
	struct json_object *e, *a;
	uint64_t at;
	unsigned int i;
	char name[160];

	snprintf(name, sizeof(name), "%s/%u record %s", r->device, r->port, sig);
	for (i = 0; i < r->h.nr_samples; i++) {
		at = rec_sample_real_ns(r, i);
		if (at < t->since_ns || (g && !(r->s[i].flags & g->flag)))
			continue;	/* not read in this sample: no point rather than a zero */
		a = json_object_new_object();
		json_object_object_add(a, sig, json_object_new_int64(
			g ? rec_value(&r->s[i], g) : !!(r->s[i].flags & FABTEL_REC_F_CARRIER)));
		e = tev("C", name, "flight_record", PID_JOB, 0, at);
		json_object_object_del(e, "tid");
		json_object_object_add(e, "args", a);
		json_object_array_add(t->events, e);
	}
}

/*
 * The flight records of a job's port (records.h): each one's span on the
 * port's thread, and a counter track per signal that moved in it, at
 * fabtel.ko's sample_ms, around the event that froze it.
 */
static void records(struct tracer *t, const struct model_port *p)
{
	const struct model_records *mr = &t->m->records;
	struct rec_signal sig[REC_SIGNALS];
	unsigned int n = rec_signals(sig), k, g, i;
	struct json_object *e;
	uint64_t first, last;
	char name[96], url[160];
	int pid, tid;

	for (k = 0; k < mr->nr; k++) {
		const struct rec *r = &mr->r[k];

		first = rec_sample_real_ns(r, 0);
		last = rec_sample_real_ns(r, r->h.nr_samples - 1);
		if (r->port != p->port || strcmp(r->device, p->device) || last < t->since_ns)
			continue;
		tid = track_of(t, r->device, r->port, &pid);
		if (tid < 0)
			continue;
		snprintf(name, sizeof(name), "flight record %llu", (unsigned long long)r->h.seq);
		e = tev("X", name, "flight_record", pid, tid, first);
		json_object_object_add(e, "dur", json_object_new_int64(us(last) - us(first)));
		port_args(e, r->device, r->port);
		render_record_id(r, url, sizeof(url));
		json_object_object_add(json_object_object_get(e, "args"), "record",
				       json_object_new_string(url));
		json_object_array_add(t->events, e);
		record_track(t, r, NULL, "carrier");
		record_optics(t, r);
		for (g = 0; g < n; g++) {
			for (i = 0; i < r->h.nr_samples; i++)
				if ((r->s[i].flags & sig[g].flag) && rec_value(&r->s[i], &sig[g]))
					break;
			if (i < r->h.nr_samples)
				record_track(t, r, &sig[g], sig[g].name);
		}
	}
}

static int by_ts(const void *a, const void *b)
{
	struct json_object *const *x = a, *const *y = b, *tx, *ty;
	int64_t u, v;

	json_object_object_get_ex(*x, "ts", &tx);
	json_object_object_get_ex(*y, "ts", &ty);
	u = json_object_get_int64(tx);
	v = json_object_get_int64(ty);
	return u < v ? -1 : u > v;
}

struct json_object *render_trace(const struct model *m, const char *job_id)
{
	struct json_object *o, *all, *other;
	struct tracer t = { .m = m };
	const struct model_port *p;
	char name[256], host[64] = "";
	unsigned int i;

	for (i = 0; i < m->job_slots; i++)
		if (m->jobs[i].present && !strcmp(m->jobs[i].id.id, job_id))
			t.job = &m->jobs[i];
	if (!t.job)
		return NULL;
	t.since_ns = t.job->first_ns - (uint64_t)m->opts.health.window_s * 1000000000ULL;
	/* the job's ports get the first threads, in process 1 */
	for (i = 0; i < t.job->nr_ports; i++) {
		t.track[i].device = t.job->ports[i].device;
		t.track[i].port = t.job->ports[i].port;
		t.track[i].pid = PID_JOB;
	}
	t.nr_tracks = t.job->nr_ports;
	t.events = json_object_new_array();
	from_events(&t);
	from_signals(&t);
	for (i = 0; i < t.job->nr_ports; i++) {
		p = model_find_port(m, t.job->ports[i].device, t.job->ports[i].port);
		if (p) {
			counters(&t, p);
			records(&t, p);
		}
	}
	json_object_array_sort(t.events, by_ts);

	all = json_object_new_array();
	gethostname(host, sizeof(host) - 1);
	snprintf(name, sizeof(name), "fabtel: job %s on %s", job_id, host);
	meta(all, "process_name", PID_JOB, 0, name);
	snprintf(name, sizeof(name), "fabtel: host %s, other ports", host);
	meta(all, "process_name", PID_HOST, 0, name);
	meta(all, "thread_name", PID_JOB, TID_SIGNALS, "job signals (per-QP events)");
	for (i = 0; i < t.nr_tracks; i++) {
		snprintf(name, sizeof(name), "%s/%u", t.track[i].device, t.track[i].port);
		meta(all, "thread_name", t.track[i].pid, TID_PORT0 + (int)i, name);
	}
	for (i = 0; i < json_object_array_length(t.events); i++)
		json_object_array_add(all, json_object_get(json_object_array_get_idx(t.events, i)));
	json_object_put(t.events);

	o = json_object_new_object();
	json_object_object_add(o, "traceEvents", all);
	json_object_object_add(o, "displayTimeUnit", json_object_new_string("ms"));
	other = json_object_new_object();
	json_object_object_add(other, "generator", json_object_new_string("fabteld " FABTEL_VERSION));
	json_object_object_add(other, "job_id", json_object_new_string(job_id));
	json_object_object_add(other, "host", json_object_new_string(host));
	json_object_object_add(other, "verdict",
			       json_object_new_string(health_verdict_name(t.job->result.verdict)));
	json_object_object_add(other, "ts_unit", json_object_new_string("us since the Unix epoch"));
	json_object_object_add(o, "otherData", other);
	return o;
}
