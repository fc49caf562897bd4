// SPDX-License-Identifier: GPL-2.0
/*
 * render_kmsg.c - the kernel log's driver messages (fold_kmsg.c) as
 * Prometheus text and JSON (render.h; Documentation/driver_messages.rst,
 * metrics.rst).
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "fold.h"
#include "render.h"

/* each pattern a row counted: the device's series, or (row "") the host's */
static void row_series(const struct model_kmsg *k, struct expo *e, bool host)
{
	struct expo_label l[4] = { { "device", k->device } };
	unsigned int i, at = host ? 0 : 1;

	for (i = 0; i < kmsg_nr_patterns; i++) {
		if (!k->n[i])
			continue;
		l[at] = (struct expo_label){ "pattern", kmsg_patterns[i].id };
		l[at + 1] = (struct expo_label){ "kind", kmsg_kind_name(kmsg_patterns[i].kind) };
		l[at + 2] = (struct expo_label){ NULL, NULL };
		expo_u64(e, host ? "fabtel_kernel_messages_total" : "fabtel_driver_messages_total",
			 l, k->n[i]);
	}
}

/* each RDMA device the ports name, once: wedged or not */
static void wedged_series(const struct model *m, struct expo *e)
{
	const struct model_kmsg *k;
	struct expo_label l[2] = { { "device", NULL }, { NULL, NULL } };
	unsigned int i, j;

	for (i = 0; i < m->port_slots; i++) {
		if (!m->ports[i].present)
			continue;
		for (j = 0; j < i; j++)
			if (m->ports[j].present && !strcmp(m->ports[j].device, m->ports[i].device))
				break;
		if (j < i)
			continue;
		k = model_kmsg_of(m, m->ports[i].device);
		l[0].value = m->ports[i].device;
		expo_u64(e, "fabtel_driver_wedged", l, k && k->wedged);
	}
}

void render_kmsg_families(const struct model *m, struct expo *e)
{
	unsigned int i;

	if (m->src[SRC_KMSG] != SRC_STATE_UP)
		return;
	expo_family(e, "fabtel_driver_messages_total", "counter",
		    "Kernel log lines of an RDMA device's driver that match a pattern, since fabteld "
		    "started (Documentation/driver_messages.rst).");
	for (i = 0; i < m->nr_kmsg; i++)
		if (m->kmsg[i].device[0])
			row_series(&m->kmsg[i], e, false);
	expo_family(e, "fabtel_kernel_messages_total", "counter",
		    "Kernel log lines that match a pattern and name no watched RDMA device (lockups, "
		    "hung tasks, RCU stalls, other NICs), since fabteld started.");
	for (i = 0; i < m->nr_kmsg; i++)
		if (!m->kmsg[i].device[0])
			row_series(&m->kmsg[i], e, true);
	expo_family(e, "fabtel_driver_wedged", "gauge",
		    "1: the RDMA device's driver is wedged (a TX timeout, then a lockup in its "
		    "driver; reason driver_wedged), 0: not seen so.");
	wedged_series(m, e);
	expo_family(e, "fabtel_kmsg_records_total", "counter",
		    "Kernel log records fabteld read since it started.");
	expo_u64(e, "fabtel_kmsg_records_total", NULL, m->kmsg_records);
	expo_family(e, "fabtel_kmsg_lost_total", "counter",
		    "Kernel log records overwritten in the kernel's ring before fabteld read them.");
	expo_u64(e, "fabtel_kmsg_lost_total", NULL, m->kmsg_lost);
	expo_family(e, "fabtel_kmsg_ignored_total", "counter",
		    "Records written to /dev/kmsg from userspace, never matched.");
	expo_u64(e, "fabtel_kmsg_ignored_total", NULL, m->kmsg_user);
}

static struct json_object *jrow(const struct model_kmsg *k)
{
	struct json_object *o = json_object_new_object(), *n = json_object_new_object();
	unsigned int i;

	json_object_object_add(o, "device", k->device[0] ? json_object_new_string(k->device) : NULL);
	json_object_object_add(o, "wedged", json_object_new_boolean(k->wedged));
	json_object_object_add(o, "wedged_since", k->wedged ?
			       json_object_new_double((double)(k->wedged_ns / 1000000) / 1e3) : NULL);
	json_object_object_add(o, "wedged_why", k->wedged ?
			       json_object_new_string(k->wedged_why) : NULL);
	json_object_object_add(o, "last_error_line", k->last_text[0] ?
			       json_object_new_string(k->last_text) : NULL);
	for (i = 0; i < kmsg_nr_patterns; i++)
		if (k->n[i])
			json_object_object_add(n, kmsg_patterns[i].id, json_object_new_uint64(k->n[i]));
	json_object_object_add(o, "lines", n);
	return o;
}

/* /api/v1/snapshot's driver_messages */
struct json_object *render_kmsg_json(const struct model *m)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	unsigned int i;

	json_object_object_add(o, "patterns_version", json_object_new_int(KMSG_PATTERNS_VERSION));
	json_object_object_add(o, "records", json_object_new_uint64(m->kmsg_records));
	json_object_object_add(o, "lost", json_object_new_uint64(m->kmsg_lost));
	json_object_object_add(o, "ignored", json_object_new_uint64(m->kmsg_user));
	json_object_object_add(o, "events_over", json_object_new_uint64(m->kmsg_events_over));
	for (i = 0; i < m->nr_kmsg; i++)
		json_object_array_add(a, jrow(&m->kmsg[i]));
	json_object_object_add(o, "devices", a);
	return o;
}

/* the port's device: driver_wedged, driver_messages (error lines within window_s) */
void render_kmsg_conditions(const struct model *m, const char *device, struct json_object *a)
{
	const struct model_kmsg *k = model_kmsg_of(m, device);
	uint64_t window = (uint64_t)m->opts.health.window_s * NS_PER_S;

	if (k && k->wedged)
		json_object_array_add(a, json_object_new_string("driver_wedged"));
	if (k && k->rise_ns && k->rise_ns + window >= m->sample_ns)
		json_object_array_add(a, json_object_new_string("driver_messages"));
}
