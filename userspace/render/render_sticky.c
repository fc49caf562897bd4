// SPDX-License-Identifier: GPL-2.0
/*
 * render_sticky.c - each port's recent_fault (sticky.c) as Prometheus text
 * and JSON (render.h; Documentation/fabteld.rst "Recent faults",
 * metrics.rst).
 */
#include <stdio.h>

#include <json-c/json.h>

#include "labels.h"
#include "render.h"

void render_sticky_families(const struct model *m, struct expo *e)
{
	struct port_labels pl;
	unsigned int i;

	expo_family(e, "fabtel_port_recent_fault", "gauge",
		    "1 while the port is clean again after a fault (flap, link down, probe loss, wedged driver, NIC firmware) for less than recent_fault_s and not acknowledged (POST /api/v1/ack).");
	for (i = 0; i < m->port_slots; i++)
		if (m->ports[i].present)
			expo_u64(e, "fabtel_port_recent_fault",
				 port_labels(&pl, &m->ports[i], NULL, NULL), m->ports[i].sticky.recent);
	expo_family(e, "fabtel_port_last_fault_timestamp_seconds", "gauge",
		    "When the port's last fault was last seen (Unix s), by kind; absent before any.");
	for (i = 0; i < m->port_slots; i++) {
		const struct model_port *p = &m->ports[i];

		if (p->present && p->sticky.fault[0])
			expo_double(e, "fabtel_port_last_fault_timestamp_seconds",
				    port_labels(&pl, p, "fault", p->sticky.fault),
				    (double)(p->sticky.fault_ns / 1000000) / 1e3);
	}
}

static struct json_object *jtime_or_null(uint64_t ns)
{
	return ns ? render_jtime(ns) : NULL;
}

struct json_object *render_sticky_port(const struct model *m, const struct model_port *p)
{
	const struct port_sticky *s = &p->sticky;
	struct json_object *o;

	if (!s->fault[0])
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "fault", json_object_new_string(s->fault));
	json_object_object_add(o, "fault_time", jtime_or_null(s->fault_ns));
	json_object_object_add(o, "faulty", json_object_new_boolean(s->faulty));
	json_object_object_add(o, "recent", json_object_new_boolean(s->recent));
	json_object_object_add(o, "clean_since", jtime_or_null(s->clean_ns));
	json_object_object_add(o, "until", s->recent ? jtime_or_null(
		s->clean_ns + (uint64_t)m->opts.recent_fault_s * 1000000000ull) : NULL);
	json_object_object_add(o, "acked_time", jtime_or_null(s->acked_ns));
	json_object_object_add(o, "acked_by", s->acked_ns ?
			       json_object_new_string(s->acked_by) : NULL);
	return o;
}
