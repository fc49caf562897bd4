// SPDX-License-Identifier: GPL-2.0
/*
 * render_probes_json.c - /api/v1/probes, the probe matrix of this host
 * (Documentation/probes.rst "What fabteld says"), and its text form.
 *
 * Each port says which of its pairs are over a threshold and what this host
 * alone can suspect: "local_port" when most of at least two pairs fail
 * (the fault is likely this port or its link), "peers" when only some do
 * (the paths to those peers, or the peers).  The cross-host rules
 * (deploy/prometheus) decide between a host's port and a path.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "clock.h"
#include "prober.h"
#include "render_probes.h"

static struct json_object *num_or_null(double v, double scale)
{
	return v >= 0 ? json_object_new_double(v * scale) : NULL;
}

/* per flow: its loss over the window (null: too few ended), its totals */
static void jflows(const struct prober *pr, const struct probe_port *pp,
		   const struct probe_pair *p, uint64_t now, struct json_object *o)
{
	struct json_object *l = json_object_new_array(), *t = json_object_new_array();
	unsigned int f, ended, losing = 0;
	double loss;

	for (f = 0; f < pp->nr_flows && f < PROBE_MAX_FLOWS; f++) {
		losing += probe_flow_losing(pr, &p->st.flow[f], now, &loss);
		probe_flow_loss(&p->st.flow[f], now, pr->cfg.window_s, &ended);
		json_object_array_add(l, ended ? json_object_new_double(loss) : NULL);
		json_object_array_add(t, json_object_new_uint64(p->st.flow[f].timeouts));
	}
	json_object_object_add(o, "flows", json_object_new_int((int)pp->nr_flows));
	json_object_object_add(o, "flows_losing", json_object_new_int((int)losing));
	json_object_object_add(o, "flow_loss", l);
	json_object_object_add(o, "flow_timeouts", t);
}

static struct json_object *jpair(const struct prober *pr, const struct probe_port *pp,
				 const struct probe_pair *p, uint64_t now, unsigned int *bad)
{
	struct json_object *o = json_object_new_object(), *t = json_object_new_array();
	enum probe_addr addr;
	double loss, rtt;
	char gid[64];
	int err;

	probe_gid_str(p->peer.gid, gid, sizeof(gid));
	json_object_object_add(o, "host", json_object_new_string(p->peer.host));
	json_object_object_add(o, "device", json_object_new_string(p->peer.device));
	json_object_object_add(o, "port", json_object_new_int((int)p->peer.port));
	json_object_object_add(o, "gid", json_object_new_string(gid));
	json_object_object_add(o, "qpn", json_object_new_int64(p->peer.qpn));
	json_object_object_add(o, "source", json_object_new_string(p->src));
	json_object_object_add(o, "sent", json_object_new_uint64(p->st.sent));
	json_object_object_add(o, "replies", json_object_new_uint64(p->st.replies));
	json_object_object_add(o, "timeouts", json_object_new_uint64(p->st.timeouts));
	if (probe_pair_loss_bad(pr, p, now, &loss))
		json_object_array_add(t, json_object_new_string("loss"));
	json_object_object_add(o, "loss", num_or_null(loss, 1));
	if (probe_pair_rtt_bad(pr, p, now, &rtt))
		json_object_array_add(t, json_object_new_string("latency"));
	json_object_object_add(o, "rtt_p50_us", num_or_null(rtt, 1e6));
	json_object_object_add(o, "rtt_min_us",
			       num_or_null(probe_stats_rtt_q(&p->st, now, pr->cfg.window_s, 0), 1e6));
	json_object_object_add(o, "rtt_p99_us",
			       num_or_null(probe_stats_rtt_q(&p->st, now, pr->cfg.window_s, 0.99),
					   1e6));
	jflows(pr, pp, p, now, o);
	json_object_object_add(o, "last_success", p->st.last_ok_ns ?
			       json_object_new_double((double)p->st.last_ok_ns / 1e9) : NULL);
	*bad += json_object_array_length(t) > 0;
	addr = probe_pair_address(pp, p, &err);
	json_object_object_add(o, "address", json_object_new_string(probe_addr_name(addr)));
	json_object_object_add(o, "address_error", addr == PROBE_ADDR_UNRESOLVED ?
			       json_object_new_string(strerror(err)) : NULL);
	json_object_object_add(o, "unresolved", json_object_new_uint64(p->unresolved));
	if (addr == PROBE_ADDR_UNRESOLVED)	/* its own trouble, not the path's */
		json_object_array_add(t, json_object_new_string("unresolved"));
	json_object_object_add(o, "trouble", t);
	return o;
}

static struct json_object *jport(const struct prober *pr, const struct probe_port *pp,
				 uint64_t now)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	unsigned int k, bad = 0;
	const char *suspect = NULL;
	char gid[64];

	json_object_object_add(o, "device", json_object_new_string(pp->device));
	json_object_object_add(o, "port", json_object_new_int((int)pp->port));
	json_object_object_add(o, "netdev", json_object_new_string(pp->netdev));
	json_object_object_add(o, "up", json_object_new_boolean(pp->up));
	json_object_object_add(o, "why", pp->up ? NULL : json_object_new_string(pp->why));
	probe_gid_str(pp->gid, gid, sizeof(gid));
	json_object_object_add(o, "gid", pp->up ? json_object_new_string(gid) : NULL);
	json_object_object_add(o, "qpn", pp->up ? json_object_new_int64(pp->qpn) : NULL);
	json_object_object_add(o, "traffic_class", json_object_new_int((int)pp->tclass));
	json_object_object_add(o, "flow_mode", json_object_new_string(pp->flow_label ? "label" : "qp"));
	if (pp->up) {	/* the QP each flow leaves from: flow 0's is qpn */
		struct json_object *q = json_object_new_array();

		for (k = 0; k < pp->nr_flows && k < PROBE_MAX_FLOWS; k++)
			json_object_array_add(q, json_object_new_int64(
				pp->fqpn[pp->flow_label || k >= pp->nr_qp ? 0 : k]));
		json_object_object_add(o, "flow_qpns", q);
	}
	json_object_object_add(o, "received", json_object_new_uint64(pp->received));
	for (k = 0; k < PROBE_MAX_PEERS; k++)
		if (pp->pairs[k].present)
			json_object_array_add(a, jpair(pr, pp, &pp->pairs[k], now, &bad));
	json_object_object_add(o, "peers", a);
	if (bad && pp->nr_pairs >= 2 && 2 * bad > pp->nr_pairs)
		suspect = "local_port";
	else if (bad)
		suspect = "peers";
	json_object_object_add(o, "suspect", suspect ? json_object_new_string(suspect) : NULL);
	return o;
}

struct json_object *render_probes(struct prober *pr)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	struct json_object *s = json_object_new_array();
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	unsigned int i;

	json_object_object_add(o, "enabled", json_object_new_boolean(pr != NULL));
	if (!pr) {
		json_object_put(a);
		json_object_put(s);
		return o;
	}
	pthread_mutex_lock(&pr->lock);
	json_object_object_add(o, "host", json_object_new_string(pr->cfg.host));
	json_object_object_add(o, "clock", json_object_new_string("host"));
	json_object_object_add(o, "window_s", json_object_new_int((int)pr->cfg.window_s));
	json_object_object_add(o, "loss_pct", json_object_new_int((int)pr->cfg.loss_pct));
	json_object_object_add(o, "rtt_us", json_object_new_int((int)pr->cfg.rtt_us));
	json_object_object_add(o, "fetch_round_s",
			       json_object_new_double((double)(pr->fetch_round_ns / 1000000) / 1e3));
	for (i = 0; i < PROBE_MAX_PORTS; i++)
		if (pr->ports[i].present)
			json_object_array_add(a, jport(pr, &pr->ports[i], now));
	for (i = 0; i < pr->nr_src; i++) {
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "address", json_object_new_string(pr->src[i].addr));
		json_object_object_add(x, "from_file", json_object_new_boolean(pr->src[i].from_file));
		json_object_object_add(x, "endpoints", json_object_new_int((int)pr->src[i].nr_eps));
		json_object_object_add(x, "error", pr->src[i].err[0] ?
				       json_object_new_string(pr->src[i].err) : NULL);
		/* since its document was last taken: under probe_peer_ttl_s it is used */
		json_object_object_add(x, "age_s", pr->src[i].ok_ns ?
				       json_object_new_double((double)((now - pr->src[i].ok_ns) / 1000000) / 1e3) :
				       NULL);
		json_object_object_add(x, "conflicts", json_object_new_int((int)pr->src[i].nr_conflicts));
		json_object_object_add(x, "conflict", pr->src[i].conflict[0] ?
				       json_object_new_string(pr->src[i].conflict) : NULL);
		json_object_array_add(s, x);
	}
	pthread_mutex_unlock(&pr->lock);
	json_object_object_add(o, "ports", a);
	json_object_object_add(o, "sources", s);
	return o;
}

static const char *fmt_us(struct json_object *v, char *buf, size_t len)
{
	double us;

	if (!v)
		return "-";
	us = json_object_get_double(v);
	if (us >= 1000)
		snprintf(buf, len, "%.2f ms", us / 1000);
	else
		snprintf(buf, len, "%.0f us", us);
	return buf;
}

/* UNRESOLVED (no probe sent: the peer's address does not resolve), TROUBLE, ok */
static const char *peer_state(struct json_object *p)
{
	const char *a = json_object_get_string(json_object_object_get(p, "address"));

	if (a && !strcmp(a, "unresolved"))
		return "UNRESOLVED";
	return json_object_array_length(json_object_object_get(p, "trouble")) ? "TROUBLE" : "ok";
}

static void print_peer(struct json_object *port, struct json_object *p, FILE *f)
{
	struct json_object *v;
	char where[160], peer[160], b1[24], b2[24], loss[16], flows[24];

	snprintf(where, sizeof(where), "%s/%d", json_object_get_string(json_object_object_get(port, "device")),
		 json_object_get_int(json_object_object_get(port, "port")));
	snprintf(peer, sizeof(peer), "%s/%s/%d", json_object_get_string(json_object_object_get(p, "host")),
		 json_object_get_string(json_object_object_get(p, "device")),
		 json_object_get_int(json_object_object_get(p, "port")));
	v = json_object_object_get(p, "loss");
	if (v)
		snprintf(loss, sizeof(loss), "%.1f%%", json_object_get_double(v) * 100);
	else
		snprintf(loss, sizeof(loss), "-");
	/* the pair's ECMP flows losing, of all */
	snprintf(flows, sizeof(flows), "%d/%d",
		 json_object_get_int(json_object_object_get(p, "flows_losing")),
		 json_object_get_int(json_object_object_get(p, "flows")));
	fprintf(f, "%-16s %-32s %10s %10s %7s %8" PRIu64 " %8" PRIu64 " %7s %s\n", where, peer,
		fmt_us(json_object_object_get(p, "rtt_p50_us"), b1, sizeof(b1)),
		fmt_us(json_object_object_get(p, "rtt_p99_us"), b2, sizeof(b2)), loss,
		json_object_get_uint64(json_object_object_get(p, "sent")),
		json_object_get_uint64(json_object_object_get(p, "timeouts")), flows,
		peer_state(p));
}

void print_probes(struct json_object *m, FILE *f)
{
	struct json_object *ports = json_object_object_get(m, "ports"), *port, *peers, *v;
	size_t i, k;

	if (!json_object_get_boolean(json_object_object_get(m, "enabled"))) {
		fprintf(f, "probing is off (no probe_peer or probe_peers_file)\n");
		return;
	}
	fprintf(f, "%-16s %-32s %10s %10s %7s %8s %8s %7s %s\n", "PORT", "PEER", "RTT p50",
		"RTT p99", "LOSS", "SENT", "TIMEOUTS", "FLOWS", "STATE");
	for (i = 0; i < json_object_array_length(ports); i++) {
		port = json_object_array_get_idx(ports, i);
		peers = json_object_object_get(port, "peers");
		if (!json_object_get_boolean(json_object_object_get(port, "up")))
			fprintf(f, "%s/%d: not probing: %s\n",
				json_object_get_string(json_object_object_get(port, "device")),
				json_object_get_int(json_object_object_get(port, "port")),
				json_object_get_string(json_object_object_get(port, "why")));
		for (k = 0; k < json_object_array_length(peers); k++)
			print_peer(port, json_object_array_get_idx(peers, k), f);
		v = json_object_object_get(port, "suspect");
		if (v)
			fprintf(f, "%s/%d: suspect: %s\n",
				json_object_get_string(json_object_object_get(port, "device")),
				json_object_get_int(json_object_object_get(port, "port")),
				json_object_get_string(v));
	}
}
