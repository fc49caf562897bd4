// SPDX-License-Identifier: GPL-2.0
/*
 * render_history.c - /api/v1/history: each port's rates, one point per
 * sample, from the model's history ring (MODEL_HISTORY samples: 5 minutes
 * at the default 1 s interval).  What fabtop draws its sparklines and a
 * job's graphs from (Documentation/fabteld.rst).
 *
 * Bounded: the points newer than "since" (Unix seconds; a client passes
 * the last time it has and gets only what is new), at most "seconds" back
 * from the newest sample.  Points oldest first, as [time, v0, v1, ...] in
 * the order of "series"; null where the rate was not known.
 */
#include <math.h>
#include <json-c/json.h>

#include "clock.h"
#include "render.h"

static struct json_object *point(const struct model_hist_point *h)
{
	struct json_object *a = json_object_new_array_ext(HIST_NR + 1);
	unsigned int k;

	json_object_array_add(a, json_object_new_double((double)h->at_ns / NS_PER_S));
	for (k = 0; k < HIST_NR; k++)
		json_object_array_add(a, isnan(h->v[k]) ? NULL :
					 json_object_new_double((double)h->v[k]));
	return a;
}

static struct json_object *port_points(const struct model_port *p, uint64_t from_ns)
{
	struct json_object *o = json_object_new_object(), *pts = json_object_new_array();
	const struct model_hist_point *h;
	unsigned int i;

	json_object_object_add(o, "device", json_object_new_string(p->device));
	json_object_object_add(o, "port", json_object_new_int64(p->port));
	/* oldest first: from the oldest newer than from_ns to the newest */
	for (i = p->hist_count; i-- > 0;) {
		h = model_hist_get(p, i);
		if (h->at_ns > from_ns)
			json_object_array_add(pts, point(h));
	}
	json_object_object_add(o, "points", pts);
	return o;
}

struct json_object *render_history(const struct model *m, double since, unsigned int seconds)
{
	struct json_object *o = json_object_new_object(), *series = json_object_new_array();
	struct json_object *ports = json_object_new_array();
	uint64_t from = 0, back = (uint64_t)seconds * NS_PER_S;
	unsigned int i, k;

	if (since > 0)
		from = (uint64_t)(since * NS_PER_S);
	if (m->sample_ns > back && m->sample_ns - back > from)
		from = m->sample_ns - back;
	json_object_object_add(o, "sample_time",
			       json_object_new_double((double)m->sample_ns / NS_PER_S));
	json_object_object_add(o, "interval_seconds",
			       json_object_new_double(m->opts.interval_ms / 1000.0));
	json_object_object_add(o, "kept", json_object_new_int(MODEL_HISTORY));
	for (k = 0; k < HIST_NR; k++)
		json_object_array_add(series, json_object_new_string(model_hist_name(k)));
	json_object_object_add(o, "series", series);
	for (i = 0; i < MODEL_MAX_PORTS; i++)
		if (m->ports[i].present)
			json_object_array_add(ports, port_points(&m->ports[i], from));
	json_object_object_add(o, "ports", ports);
	return o;
}
