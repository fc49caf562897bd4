// SPDX-License-Identifier: GPL-2.0
/*
 * render_records.c - fabtel.ko's flight records as fabteld keeps them
 * (records.h), as JSON: the list (/api/v1/records), one record with a
 * series per signal that moved (/api/v1/records/<device>/<port>/<seq>),
 * and the link from an event to the record around it
 * (Documentation/recorder.rst, "fabteld").
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "render.h"

static const char *const trigger_names[] = { "carrier", "burst", "storm", "pma", "optics" };

#define NR_TRIGGERS	(sizeof(trigger_names) / sizeof(trigger_names[0]))

static struct json_object *triggers(uint32_t bits)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < NR_TRIGGERS; i++)
		if (bits & (1u << i))
			json_object_array_add(a, json_object_new_string(trigger_names[i]));
	return a;
}

static const char *first_trigger(uint32_t bits)
{
	unsigned int i;

	for (i = 0; i < NR_TRIGGERS; i++)
		if (bits & (1u << i))
			return trigger_names[i];
	return "unknown";
}

void render_record_id(const struct rec *r, char *out, size_t size)
{
	/* at=: two records of one seq (fabtel.ko loaded again between them) */
	snprintf(out, size, "/api/v1/records/%s/%u/%llu?at=%llu", r->device, r->port,
		 (unsigned long long)r->h.seq, (unsigned long long)r->h.trigger_real_ns);
}

/* a record's header fields, the list's and the record's own */
static struct json_object *rec_head(const struct rec *r)
{
	struct json_object *o = json_object_new_object();
	char url[160];

	render_record_id(r, url, sizeof(url));
	json_object_object_add(o, "device", json_object_new_string(r->device));
	json_object_object_add(o, "port", json_object_new_int64(r->port));
	json_object_object_add(o, "seq", json_object_new_uint64(r->h.seq));
	json_object_object_add(o, "url", json_object_new_string(url));
	json_object_object_add(o, "trigger", json_object_new_string(first_trigger(r->h.first_trigger)));
	json_object_object_add(o, "triggers", triggers(r->h.triggers));
	json_object_object_add(o, "trigger_time", render_jtime(r->h.trigger_real_ns));
	json_object_object_add(o, "trigger_real_ns", json_object_new_uint64(r->h.trigger_real_ns));
	json_object_object_add(o, "start_time", render_jtime(rec_sample_real_ns(r, 0)));
	json_object_object_add(o, "end_time", render_jtime(rec_sample_real_ns(r, r->h.nr_samples - 1)));
	json_object_object_add(o, "sample_ms", json_object_new_int64(r->h.sample_ms));
	json_object_object_add(o, "samples", json_object_new_int64(r->h.nr_samples));
	json_object_object_add(o, "trigger_index", json_object_new_int64(r->h.trigger_index));
	return o;
}

struct json_object *render_records(const struct model *m)
{
	const struct model_records *mr = &m->records;
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	const struct rec *order[REC_KEEP];
	unsigned int i, k, n = 0;

	/* newest first */
	for (i = 0; i < mr->nr; i++) {
		for (k = n; k > 0 && order[k - 1]->h.trigger_real_ns < mr->r[i].h.trigger_real_ns; k--)
			order[k] = order[k - 1];
		order[k] = &mr->r[i];
		n++;
	}
	for (i = 0; i < n; i++)
		json_object_array_add(a, rec_head(order[i]));
	json_object_object_add(o, "records", a);
	json_object_object_add(o, "keep", json_object_new_int(REC_KEEP));
	json_object_object_add(o, "read", json_object_new_uint64(mr->counts.read));
	json_object_object_add(o, "loaded", json_object_new_uint64(mr->counts.loaded));
	json_object_object_add(o, "missed", json_object_new_uint64(mr->counts.missed));
	json_object_object_add(o, "bad", json_object_new_uint64(mr->counts.bad));
	json_object_object_add(o, "persist_errors",
			       json_object_new_uint64(mr->counts.persist_errors));
	json_object_object_add(o, "record_dir", m->opts.record_dir[0] ?
			       json_object_new_string(m->opts.record_dir) : NULL);
	if (mr->dir_error[0])
		json_object_object_add(o, "record_dir_error", json_object_new_string(mr->dir_error));
	return o;
}

/* each signal that rose in some sample: its rises, null where the sample did not read it */
static struct json_object *moved_signals(const struct rec *r)
{
	struct json_object *o = json_object_new_object(), *a;
	struct rec_signal sig[REC_SIGNALS];
	unsigned int n = rec_signals(sig), g, i;
	bool moved;

	for (g = 0; g < n; g++) {
		for (i = 0, moved = false; i < r->h.nr_samples && !moved; i++)
			moved = (r->s[i].flags & sig[g].flag) && rec_value(&r->s[i], &sig[g]);
		if (!moved)
			continue;
		a = json_object_new_array();
		for (i = 0; i < r->h.nr_samples; i++)
			json_object_array_add(a, r->s[i].flags & sig[g].flag ?
					      json_object_new_int64(rec_value(&r->s[i], &sig[g])) :
					      NULL);
		json_object_object_add(o, sig[g].name, a);
	}
	return o;
}

/* the module's levels at its reads (module_ms): null in samples without one */
static struct json_object *optics(const struct rec *r)
{
	struct json_object *o = json_object_new_object(), *rx = json_object_new_array(),
			   *temp = json_object_new_array(), *alarm = json_object_new_array();
	unsigned int i;
	bool any = false;

	for (i = 0; i < r->h.nr_samples; i++) {
		bool read = r->s[i].flags & FABTEL_REC_F_OPTICS;

		any |= read;
		json_object_array_add(rx, read ? json_object_new_double(r->s[i].rx_power / 10.0) :
					  NULL);
		json_object_array_add(temp, read ? json_object_new_double(
						r->s[i].temperature / 256.0) : NULL);
		json_object_array_add(alarm, read ? json_object_new_int(
						!!(r->s[i].flags & FABTEL_REC_F_OPTICS_ALARM)) : NULL);
	}
	json_object_object_add(o, "rx_power_min_uw", rx);
	json_object_object_add(o, "temperature_c", temp);
	json_object_object_add(o, "alarm", alarm);
	if (!any) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *render_record(const struct rec *r)
{
	struct json_object *o = rec_head(r), *t = json_object_new_array(),
			   *carrier = json_object_new_array(), *flap = json_object_new_array();
	int64_t trig = (int64_t)r->s[r->h.trigger_index].boot_ns;
	unsigned int i;

	for (i = 0; i < r->h.nr_samples; i++) {
		/* ms from the trigger's sample: negative before it */
		json_object_array_add(t, json_object_new_int64(((int64_t)r->s[i].boot_ns - trig) /
							       1000000));
		json_object_array_add(carrier, json_object_new_int(
					      !!(r->s[i].flags & FABTEL_REC_F_CARRIER)));
		json_object_array_add(flap, json_object_new_int(
					      !!(r->s[i].flags & FABTEL_REC_F_FLAP)));
	}
	json_object_object_add(o, "t_ms", t);
	json_object_object_add(o, "carrier", carrier);
	json_object_object_add(o, "flap", flap);
	json_object_object_add(o, "signals", moved_signals(r));
	json_object_object_add(o, "optics", optics(r));
	return o;
}

/* the kinds of event a record may hold */
static bool recorded_kind(enum model_event_kind k)
{
	return k == EV_LINK_DOWN || k == EV_LINK_UP || k == EV_LINK_FLAP ||
	       k == EV_PAUSE_STORM || k == EV_ERROR_BURST;
}

const struct rec *render_event_rec(const struct model *m, const struct model_event *ev)
{
	/* an event is logged at the pass that saw it: up to a pass after fabtel.ko's sample */
	uint64_t slack = ((uint64_t)m->opts.interval_ms + 1000) * 1000000;

	if (!recorded_kind(ev->kind))
		return NULL;
	return model_record_near(&m->records, ev->device, ev->port, ev->at_ns, slack);
}

void render_event_record(const struct model *m, const struct model_event *ev,
			 struct json_object *e)
{
	const struct rec *r = render_event_rec(m, ev);
	char url[160];

	if (!r)
		return;
	render_record_id(r, url, sizeof(url));
	json_object_object_add(e, "record", json_object_new_string(url));
	json_object_object_add(e, "record_seq", json_object_new_uint64(r->h.seq));
}
