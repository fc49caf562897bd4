// SPDX-License-Identifier: GPL-2.0
/*
 * render_devlink.c - the RDMA devices' devlink health reporters
 * (fold_devlink.c) as Prometheus text and JSON (render.h;
 * Documentation/nic_health.rst, metrics.rst).
 */
#include <stdio.h>

#include <json-c/json.h>

#include "fold.h"
#include "render.h"

static void reporter_series(const struct model_health *h, struct expo *e, int which)
{
	static const char *const name[3] = {
		"fabtel_devlink_reporter_healthy", "fabtel_devlink_reporter_errors_total",
		"fabtel_devlink_reporter_recovers_total",
	};
	char port[12];
	struct expo_label l[6] = { { "device", h->device }, { "devlink", h->handle } };
	unsigned int k;

	for (k = 0; k < h->nr; k++) {
		snprintf(port, sizeof(port), "%u", h->rep[k].port);
		l[2] = (struct expo_label){ "reporter", h->rep[k].name };
		l[3] = (struct expo_label){ "devlink_port", h->rep[k].has_port ? port : "" };
		l[4] = (struct expo_label){ NULL, NULL };
		expo_u64(e, name[which], l, which == 0 ? !h->rep[k].error :
				     which == 1 ? h->rep[k].errors : h->rep[k].recovers);
	}
}

void render_devlink_families(const struct model *m, struct expo *e)
{
	static const char *const help[3][3] = {
		{ "fabtel_devlink_reporter_healthy", "gauge",
		  "1: the devlink health reporter of an RDMA device's NIC is healthy, 0: in error (reason nic_firmware)." },
		{ "fabtel_devlink_reporter_errors_total", "counter",
		  "Errors the reporter counted (devlink health show: error)." },
		{ "fabtel_devlink_reporter_recovers_total", "counter",
		  "Recoveries the reporter counted (devlink health show: recover)." },
	};
	unsigned int i, w;

	if (m->src[SRC_DEVLINK] != SRC_STATE_UP)
		return;
	for (w = 0; w < 3; w++) {
		expo_family(e, help[w][0], help[w][1], help[w][2]);
		for (i = 0; i < m->nr_health; i++)
			if (m->health[i].handle[0])
				reporter_series(&m->health[i], e, (int)w);
	}
}

/* every RDMA device's devlink instance and reporters, for /api/v1/snapshot's devlink */
struct json_object *render_devlink_devices(const struct model *m)
{
	struct json_object *a = json_object_new_array(), *o, *reps, *r;
	unsigned int i, k;

	for (i = 0; i < m->nr_health; i++) {
		const struct model_health *h = &m->health[i];

		o = json_object_new_object();
		json_object_object_add(o, "device", json_object_new_string(h->device));
		json_object_object_add(o, "devlink", h->handle[0] ?
				       json_object_new_string(h->handle) : NULL);
		reps = json_object_new_array();
		for (k = 0; k < h->nr; k++) {
			r = json_object_new_object();
			json_object_object_add(r, "reporter", json_object_new_string(h->rep[k].name));
			json_object_object_add(r, "port", h->rep[k].has_port ?
					       json_object_new_int64(h->rep[k].port) : NULL);
			json_object_object_add(r, "state", json_object_new_string(h->rep[k].error ?
									  "error" : "healthy"));
			json_object_object_add(r, "errors", json_object_new_uint64(h->rep[k].errors));
			json_object_object_add(r, "recovers",
					       json_object_new_uint64(h->rep[k].recovers));
			json_object_array_add(reps, r);
		}
		json_object_object_add(o, "reporters", reps);
		json_object_array_add(a, o);
	}
	return a;
}

/* the port's device has a reporter in error now */
bool render_devlink_in_error(const struct model *m, const char *device)
{
	const struct model_health *h = model_health_of(m, device);
	unsigned int k;

	for (k = 0; h && k < h->nr; k++)
		if (h->rep[k].error)
			return true;
	return false;
}
