// SPDX-License-Identifier: GPL-2.0
/*
 * digest.c - the events log and rate history fabteld's answers give, and
 * frames over them (see digest.h).  Nothing here is derived from counters:
 * rates, flaps, storms and bursts are the collector's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "digest.h"
#include "fjson.h"
#include "panes.h"

/* ---- the events log -------------------------------------------------------- */

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

uint64_t digest_events_since(const struct digest *d)
{
	return d->api_seq;
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
	ascii_copy(e->record, sizeof(e->record), fj_str(o, "record"));
	fj_u64(o, "record_seq", &e->record_seq);
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

	d->have_log = true;
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
	if (e->record[0]) {
		json_object_object_add(o, "record", json_object_new_string(e->record));
		json_object_object_add(o, "record_seq", json_object_new_uint64(e->record_seq));
	}
	return o;
}

/* the log as --once --json shows it, oldest first; replaces fabteld's answer */
static void events_json(struct digest *d, struct frame *f)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < d->count; i++)
		json_object_array_add(a, event_json(digest_event(d, i)));
	json_object_put(f->events);
	f->events = a;
}

/* ---- frames -------------------------------------------------------------- */

void digest_init(struct digest *d)
{
	memset(d, 0, sizeof(*d));
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
	hist_free(d->hist);
	memset(d, 0, sizeof(*d));
}

struct frame *digest_frame(struct digest *d, struct json_object *snap, struct json_object *jobs,
			   struct json_object *events)
{
	struct frame *f = calloc(1, sizeof(*f));
	struct timespec now;

	if (!f) {
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
	events_json(d, f);
	f->hist = d->hist ? hist_copy(d->hist) : NULL;
	panes_build(d, f);
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

