// SPDX-License-Identifier: GPL-2.0
/*
 * render_qpcnt.c - the NIC's counter sets (fold_qpcnt.c) as Prometheus
 * text and JSON (render.h; Documentation/qp_counters.rst, metrics.rst):
 * each port's counter mode and who set it, its sets and the QPs in none,
 * each set's error counters, each job's share on each port.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "fold.h"
#include "rdmastat.h"
#include "render.h"
#include "schema.h"
#include "text.h"

const char *render_qpcnt_mode(uint32_t mode)
{
	switch (mode) {
	case RDMASTAT_MODE_NONE:
		return "none";
	case RDMASTAT_MODE_AUTO:
		return "auto";
	case RDMASTAT_MODE_MANUAL:
		return "manual";
	}
	return "unknown";
}

static void port_series(const struct model_port *p, struct expo *e, int which)
{
	char port[12];
	struct expo_label l[5] = {
		{ "device", p->device }, { "port", port }, { NULL, NULL },
	};

	snprintf(port, sizeof(port), "%u", p->port);
	if (which == 0) {
		l[2] = (struct expo_label){ "mode", render_qpcnt_mode(p->qpc_mode) };
		l[3] = (struct expo_label){ "set_by", p->qpc_ours ? "fabteld" : "other" };
		l[4] = (struct expo_label){ NULL, NULL };
		expo_u64(e, "fabtel_qp_set_mode_info", l, 1);
	} else if (which == 1) {
		expo_u64(e, "fabtel_qp_sets", l, p->qpc_counters);
	} else {
		expo_u64(e, "fabtel_qp_set_unbound_qps", l, p->qpc_unbound);
	}
}

static void set_series(const struct model *m, const struct model_qpcnt *c, struct expo *e)
{
	char port[12], cntn[12], peer[48] = "";
	struct expo_label l[7] = {
		{ "device", c->device }, { "port", port }, { "cntn", cntn },
		{ "job", c->job >= 0 ? m->jobs[c->job].id.id : "" }, { "peer", peer },
	};
	unsigned int k;

	if (c->has_peer)
		text_gid(peer, sizeof(peer), c->peer);
	snprintf(port, sizeof(port), "%u", c->port);
	snprintf(cntn, sizeof(cntn), "%u", c->id);
	for (k = 0; k < FABTEL_NR_COUNTERS; k++) {
		if (!c->have[k] || !schema_ctr_is_error(k))
			continue;
		l[5] = (struct expo_label){ "counter", schema_ctr_name(k) };
		l[6] = (struct expo_label){ NULL, NULL };
		expo_u64(e, "fabtel_qp_set_errors_total", l, c->ctr[k]);
	}
}

void render_qpcnt_families(const struct model *m, struct expo *e)
{
	static const char *const help[3] = {
		"1: the port's QP counter mode (none, auto, manual) and who set it (fabteld under qp_counters = auto or peer, or other).",
		"The NIC's counter sets on the port at the last read.",
		"The port's live QPs in no counter set: their errors are port evidence only.",
	};
	static const char *const name[3] = {
		"fabtel_qp_set_mode_info", "fabtel_qp_sets",
		"fabtel_qp_set_unbound_qps",
	};
	unsigned int i, w;

	if (m->src[SRC_QP_COUNTERS] == SRC_STATE_STANDBY)
		return;		/* off, or a fixture tree: never asked */
	expo_family(e, "fabtel_qp_set_requests_total", "counter",
		    "RDMA netlink requests the qp_counters source made (mode reads, set dumps, auto mode); on mlx5 each set in a dump is also one firmware command.");
	expo_u64(e, "fabtel_qp_set_requests_total", NULL, m->qpcnt_requests);
	if (m->src[SRC_QP_COUNTERS] != SRC_STATE_UP)
		return;
	for (w = 0; w < 3; w++) {
		expo_family(e, name[w], "gauge", help[w]);
		for (i = 0; i < m->port_slots; i++)
			if (m->ports[i].present && m->ports[i].qpc_known)
				port_series(&m->ports[i], e, (int)w);
	}
	expo_family(e, "fabtel_qp_set_errors_total", "counter",
		    "A counter set's error counters as the NIC counts them (rdma statistic qp show), with the job of its QPs and, for a set fabteld made by peer (qp_counters = peer), the peer's address.");
	for (i = 0; i < m->nr_qpcnt; i++)
		set_series(m, &m->qpcnt[i], e);
	expo_family(e, "fabtel_qp_sets_dropped", "gauge",
		    "Counter sets past fabteld's table at the last read (not read).");
	expo_u64(e, "fabtel_qp_sets_dropped", NULL, m->qpcnt_over);
}

/* a port's counter mode and sets for /api/v1/snapshot; NULL if not read */
struct json_object *render_qpcnt_port(const struct model *m, const struct model_port *p)
{
	struct json_object *o;

	if (m->src[SRC_QP_COUNTERS] != SRC_STATE_UP || (!p->qpc_known && !p->qpc_why[0]))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "mode", p->qpc_known ?
			       json_object_new_string(render_qpcnt_mode(p->qpc_mode)) : NULL);
	json_object_object_add(o, "set_by", json_object_new_string(p->qpc_ours ? "fabteld" :
								   "other"));
	json_object_object_add(o, "sets", json_object_new_int64(p->qpc_counters));
	json_object_object_add(o, "bound_qps", json_object_new_int64(p->qpc_bound));
	json_object_object_add(o, "unbound_qps", json_object_new_int64(p->qpc_unbound));
	json_object_object_add(o, "active", json_object_new_boolean(p->qpc_active));
	json_object_object_add(o, "note", p->qpc_why[0] ?
			       json_object_new_string(p->qpc_why) : NULL);
	return o;
}

static struct json_object *jcounters(const uint64_t *v, const bool *have)
{
	struct json_object *o = json_object_new_object();
	unsigned int k;

	for (k = 0; k < FABTEL_NR_COUNTERS; k++)
		if (have[k] && schema_ctr_is_error(k))
			json_object_object_add(o, schema_ctr_name(k), json_object_new_uint64(v[k]));
	return o;
}

/* every counter set, for /api/v1/snapshot's qp_counter_sets */
struct json_object *render_qpcnt_sets(const struct model *m)
{
	struct json_object *a = json_object_new_array(), *o;
	char peer[48];
	unsigned int i;

	for (i = 0; i < m->nr_qpcnt; i++) {
		const struct model_qpcnt *c = &m->qpcnt[i];

		if (c->has_peer)
			text_gid(peer, sizeof(peer), c->peer);
		o = json_object_new_object();
		json_object_object_add(o, "device", json_object_new_string(c->device));
		json_object_object_add(o, "port", json_object_new_int64(c->port));
		json_object_object_add(o, "cntn", json_object_new_int64(c->id));
		json_object_object_add(o, "mode", json_object_new_string(render_qpcnt_mode(c->mode)));
		json_object_object_add(o, "pid", c->pid ? json_object_new_int64(c->pid) : NULL);
		json_object_object_add(o, "qps", json_object_new_int64(c->nr_qpns));
		json_object_object_add(o, "job_id", c->job >= 0 ?
				       json_object_new_string(m->jobs[c->job].id.id) : NULL);
		json_object_object_add(o, "set_by", json_object_new_string(c->ours ? "fabteld" :
									   "other"));
		json_object_object_add(o, "peer", c->has_peer ? json_object_new_string(peer) : NULL);
		json_object_object_add(o, "counters", jcounters(c->ctr, c->have));
		json_object_array_add(a, o);
	}
	return a;
}

/* a job-port's share of the sets for /api/v1/jobs; NULL where sets do not stand */
struct json_object *render_qpcnt_jobport(const struct model_port *p,
					 const struct model_job_port *jp)
{
	struct json_object *o, *v;
	unsigned int x;

	if (!p || !p->qpc_active)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "sets", json_object_new_int64(jp->qpc_sets));
	json_object_object_add(o, "bound_qps", json_object_new_int64(jp->qpc_bound));
	json_object_object_add(o, "unbound_qps", json_object_new_int64(jp->qpc_unbound));
	json_object_object_add(o, "shared", json_object_new_boolean(jp->qpc_shared));
	v = json_object_new_object();
	for (x = 0; x < MODEL_QPC_SIGS; x++)
		json_object_object_add(v, schema_ctr_name(fold_port_ctr[x]), json_object_new_uint64(jp->qpc_total[x]));
	json_object_object_add(o, "errors", v);
	return o;
}
