// SPDX-License-Identifier: GPL-2.0
/*
 * render_probes.c - the prober's tables (prober.h) as Prometheus families,
 * as the /api/v1/probes matrix and the endpoint document, and as the text
 * of `fabteld --once probes`.  Each takes the prober's lock, never the
 * model's.  Series per pair: bounded by PROBE_MAX_PEERS per port
 * (Documentation/probes.rst "What fabteld says").
 */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "clock.h"
#include "prober.h"
#include "render_probes.h"

struct pair_labels {
	char port[12], peer_port[12];
	struct expo_label l[9];
};

static const struct expo_label *port_lbl(struct pair_labels *pl, const struct prober *pr,
					 const struct probe_port *pp, const char *k,
					 const char *v)
{
	unsigned int n = 0;

	snprintf(pl->port, sizeof(pl->port), "%u", pp->port);
	pl->l[n++] = (struct expo_label){ "host", pr->cfg.host };
	pl->l[n++] = (struct expo_label){ "device", pp->device };
	pl->l[n++] = (struct expo_label){ "port", pl->port };
	if (k)
		pl->l[n++] = (struct expo_label){ k, v };
	pl->l[n] = (struct expo_label){ NULL, NULL };
	return pl->l;
}

static const struct expo_label *pair_lbl(struct pair_labels *pl, const struct prober *pr,
					 const struct probe_port *pp,
					 const struct probe_pair *p, const char *k, const char *v)
{
	unsigned int n = 3;

	port_lbl(pl, pr, pp, NULL, NULL);
	snprintf(pl->peer_port, sizeof(pl->peer_port), "%u", p->peer.port);
	pl->l[n++] = (struct expo_label){ "peer_host", p->peer.host };
	pl->l[n++] = (struct expo_label){ "peer_device", p->peer.device };
	pl->l[n++] = (struct expo_label){ "peer_port", pl->peer_port };
	if (k)
		pl->l[n++] = (struct expo_label){ k, v };
	pl->l[n] = (struct expo_label){ NULL, NULL };
	return pl->l;
}

enum pair_fam {
	PF_SENT, PF_REPLIES, PF_TIMEOUTS, PF_LOSS, PF_RTT_Q, PF_LAST_OK, PF_TROUBLE, PF_FLOWS,
	PF_NR,
};

static const struct {
	const char *name, *type, *help;
} pair_fams[PF_NR] = {
	[PF_SENT] = { "fabtel_probe_sent_total", "counter",
		      "Probes this port sent to the peer." },
	[PF_REPLIES] = { "fabtel_probe_replies_total", "counter",
			 "Replies to them taken in time." },
	[PF_TIMEOUTS] = { "fabtel_probe_timeouts_total", "counter",
			  "Probes with no reply within probe_timeout_ms: lost on the way out or back." },
	[PF_LOSS] = { "fabtel_probe_loss_ratio", "gauge",
		      "Lost / ended probes over the last probe_window_s; absent when none ended." },
	[PF_RTT_Q] = { "fabtel_probe_window_rtt_seconds", "gauge",
		       "The 50th and 99th percentile RTT over the last probe_window_s (host clock, the responder's own time taken out)." },
	[PF_LAST_OK] = { "fabtel_probe_last_success_timestamp_seconds", "gauge",
			 "When the last reply came (Unix time); absent before the first." },
	[PF_TROUBLE] = { "fabtel_probe_pair_trouble", "gauge",
			 "1 when the pair is over a threshold: kind loss (probe_loss_pct) or latency (probe_rtt_us), else 0." },
	[PF_FLOWS] = { "fabtel_probe_flows", "gauge",
		       "The pair's flows (UDP source ports, so ECMP paths): state total (probe_flows), losing (at or over probe_loss_pct in probe_window_s)." },
};

static void pair_sample(struct expo *e, const struct prober *pr, const struct probe_port *pp,
			const struct probe_pair *p, enum pair_fam f, uint64_t now)
{
	const char *n = pair_fams[f].name;
	struct pair_labels pl;
	double v;
	bool bad;

	switch (f) {
	case PF_SENT:
		expo_u64(e, n, pair_lbl(&pl, pr, pp, p, NULL, NULL), p->st.sent);
		break;
	case PF_REPLIES:
		expo_u64(e, n, pair_lbl(&pl, pr, pp, p, NULL, NULL), p->st.replies);
		break;
	case PF_TIMEOUTS:
		expo_u64(e, n, pair_lbl(&pl, pr, pp, p, NULL, NULL), p->st.timeouts);
		break;
	case PF_LOSS:
		v = probe_stats_loss(&p->st, now, pr->cfg.window_s, NULL);
		if (v >= 0)
			expo_double(e, n, pair_lbl(&pl, pr, pp, p, NULL, NULL), v);
		break;
	case PF_RTT_Q:
		v = probe_stats_rtt_q(&p->st, now, pr->cfg.window_s, 0.5);
		if (v >= 0)
			expo_double(e, n, pair_lbl(&pl, pr, pp, p, "percentile", "50"), v);
		v = probe_stats_rtt_q(&p->st, now, pr->cfg.window_s, 0.99);
		if (v >= 0)
			expo_double(e, n, pair_lbl(&pl, pr, pp, p, "percentile", "99"), v);
		break;
	case PF_LAST_OK:
		if (p->st.last_ok_ns)
			expo_double(e, n, pair_lbl(&pl, pr, pp, p, NULL, NULL),
				    (double)p->st.last_ok_ns / 1e9);
		break;
	case PF_TROUBLE:
		bad = probe_pair_loss_bad(pr, p, now, &v);
		expo_u64(e, n, pair_lbl(&pl, pr, pp, p, "kind", "loss"), bad);
		bad = probe_pair_rtt_bad(pr, p, now, &v);
		expo_u64(e, n, pair_lbl(&pl, pr, pp, p, "kind", "latency"), bad);
		break;
	case PF_FLOWS:	/* two series a pair, not one a flow: the cardinality stays */
		expo_u64(e, n, pair_lbl(&pl, pr, pp, p, "state", "total"), pp->nr_flows);
		expo_u64(e, n, pair_lbl(&pl, pr, pp, p, "state", "losing"),
			 probe_pair_flows_losing(pr, pp, p, now));
		break;
	default:
		break;
	}
}

static void rtt_histogram(struct expo *e, const struct prober *pr, const struct probe_port *pp,
			  const struct probe_pair *p)
{
	struct pair_labels pl;
	uint64_t cum = 0;
	char le[24];
	unsigned int b;

	for (b = 0; b <= PROBE_RTT_BUCKETS; b++) {
		cum += p->st.bucket[b];
		if (b < PROBE_RTT_BUCKETS)
			snprintf(le, sizeof(le), "%g", probe_rtt_le[b]);
		else
			snprintf(le, sizeof(le), "+Inf");
		expo_u64(e, "fabtel_probe_rtt_seconds_bucket", pair_lbl(&pl, pr, pp, p, "le", le),
			 cum);
	}
	expo_double(e, "fabtel_probe_rtt_seconds_sum", pair_lbl(&pl, pr, pp, p, NULL, NULL),
		    p->st.rtt_sum);
	/* the samples, not the replies: a reply whose turnaround is refused has none */
	expo_u64(e, "fabtel_probe_rtt_seconds_count", pair_lbl(&pl, pr, pp, p, NULL, NULL), cum);
}

static void pair_families(struct expo *e, const struct prober *pr, uint64_t now)
{
	unsigned int f, i, k;

	for (f = 0; f <= PF_NR; f++) {
		if (f == PF_NR)
			expo_family(e, "fabtel_probe_rtt_seconds", "histogram",
				    "Round-trip times of the probes answered (host clock, the responder's own time taken out).");
		else
			expo_family(e, pair_fams[f].name, pair_fams[f].type, pair_fams[f].help);
		for (i = 0; i < PROBE_MAX_PORTS; i++) {
			const struct probe_port *pp = &pr->ports[i];

			for (k = 0; pp->present && k < PROBE_MAX_PEERS; k++) {
				if (!pp->pairs[k].present)
					continue;
				if (f == PF_NR)
					rtt_histogram(e, pr, pp, &pp->pairs[k]);
				else
					pair_sample(e, pr, pp, &pp->pairs[k], f, now);
			}
		}
	}
}

static unsigned int unresolved_pairs(const struct probe_port *pp)
{
	unsigned int k, n = 0;
	int err;

	for (k = 0; k < PROBE_MAX_PEERS; k++)
		n += pp->pairs[k].present &&
		     probe_pair_address(pp, &pp->pairs[k], &err) == PROBE_ADDR_UNRESOLVED;
	return n;
}

static void port_families(struct expo *e, const struct prober *pr, uint64_t now)
{
	static const char *const fams[][3] = {
		{ "fabtel_probe_port_up", "gauge",
		  "1 when the port's prober QP answers and sends probes; 0 when it cannot (port not ACTIVE, no RoCE v2 GID, verbs error: /api/v1/probes says why)." },
		{ "fabtel_probe_peers", "gauge",
		  "The port's peers (state total), those that answered within probe_window_s (state reachable), and those whose address does not resolve (state unresolved: no probe sent, no loss counted)." },
		{ "fabtel_probe_answered_total", "counter", "Probe requests this port answered." },
		{ "fabtel_probe_dropped_total", "counter",
		  "Probe datagrams taken in and dropped, by reason: malformed, unknown_peer, other_session, duplicate, late, unsolicited, rate_limited (the port's probe_reply_rate), completion_error, rate_limited_source (one address's probe_reply_rate_source), unresolved (a request from an address that does not resolve)." },
		{ "fabtel_probe_send_errors_total", "counter",
		  "Probes and replies this host could not send (no address handle, send queue full, send completion error): not counted as loss." },
		{ "fabtel_probe_restarts_total", "counter",
		  "Times the port's prober QP was made (the first, and after each down or QP error)." },
		{ "fabtel_probe_peers_over_limit", "gauge",
		  "Peer endpoints on the port's subnet left out because the port has probe_max_peers." },
		{ "fabtel_probe_received_total", "counter",
		  "Probe datagrams (requests and replies) the port's QP received well: flat while its peers' probes fail, the port hears nothing." },
		{ "fabtel_probe_qp_reopens_total", "counter",
		  "Times the port's prober QP was made again, by reason: qp_error (it went to error), receive_errors (receive completions kept failing)." },
		{ "fabtel_probe_address_handles_total", "counter",
		  "Address handles the resolver made (result made) or could not make (result failed: the address did not resolve), for peers and requesters." },
	};
	struct pair_labels pl;
	unsigned int f, i, k, r, reach;
	double loss;

	for (f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		expo_family(e, fams[f][0], fams[f][1], fams[f][2]);
		for (i = 0; i < PROBE_MAX_PORTS; i++) {
			const struct probe_port *pp = &pr->ports[i];

			if (!pp->present)
				continue;
			switch (f) {
			case 0:
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, NULL, NULL), pp->up);
				break;
			case 1:
				for (k = reach = 0; k < PROBE_MAX_PEERS; k++) {
					loss = pp->pairs[k].present ?
					       probe_stats_loss(&pp->pairs[k].st, now,
								pr->cfg.window_s, NULL) : -1;
					reach += loss >= 0 && loss < 1;
				}
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, "state", "total"),
					 pp->nr_pairs);
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, "state", "reachable"),
					 reach);
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, "state", "unresolved"),
					 unresolved_pairs(pp));
				break;
			case 2:
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, NULL, NULL), pp->answered);
				break;
			case 3:
				for (r = 0; r < PROBE_DROP_NR; r++)
					expo_u64(e, fams[f][0],
						 port_lbl(&pl, pr, pp, "reason", probe_drop_name(r)),
						 pp->dropped[r]);
				break;
			case 4:
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, NULL, NULL),
					 pp->send_errors);
				break;
			case 5:
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, NULL, NULL), pp->restarts);
				break;
			case 6:
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, NULL, NULL),
					 pp->over_limit);
				break;
			case 7:
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, NULL, NULL), pp->received);
				break;
			case 8:
				for (r = 0; r < PROBE_REOPEN_NR; r++)
					expo_u64(e, fams[f][0],
						 port_lbl(&pl, pr, pp, "reason", probe_reopen_name(r)),
						 pp->reopens[r]);
				break;
			default:
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, "result", "made"),
					 pp->ah_made);
				expo_u64(e, fams[f][0], port_lbl(&pl, pr, pp, "result", "failed"),
					 pp->ah_failed);
			}
		}
	}
}

static void prober_families(struct expo *e, const struct prober *pr)
{
	struct expo_label l[2] = { { NULL, NULL }, { NULL, NULL } };
	unsigned int r;

	expo_family(e, "fabtel_probe_sources", "gauge",
		    "Peer fabteld addresses the prober reads endpoints from (probe_peer and probe_peers_file).");
	expo_u64(e, "fabtel_probe_sources", l, pr->nr_src);
	expo_family(e, "fabtel_probe_endpoint_fetches_total", "counter",
		    "Peer endpoint documents read and taken.");
	expo_u64(e, "fabtel_probe_endpoint_fetches_total", l, pr->fetches);
	expo_family(e, "fabtel_probe_endpoint_errors_total", "counter",
		    "Peer endpoint documents not taken, by reason: connect, http_status, too_large, bad_document.");
	for (r = 0; r < FETCH_ERR_NR; r++) {
		l[0] = (struct expo_label){ "reason", probe_fetch_err_name(r) };
		expo_u64(e, "fabtel_probe_endpoint_errors_total", l, pr->fetch_err[r]);
	}
	l[0] = (struct expo_label){ NULL, NULL };
	expo_family(e, "fabtel_probe_peers_file_errors_total", "counter",
		    "Lines of probe_peers_file that are not HOST:PORT (each read of the file).");
	expo_u64(e, "fabtel_probe_peers_file_errors_total", l, pr->file_errors);
	expo_family(e, "fabtel_probe_cpu_seconds_total", "counter",
		    "CPU time of the prober thread (sending, answering, timing probes out).");
	expo_double(e, "fabtel_probe_cpu_seconds_total", l, (double)pr->cpu_ns / 1e9);
}

/* what the prober would not take of its peers' word (Documentation/probes.rst "Which GIDs") */
static void trust_families(struct expo *e, const struct prober *pr)
{
	struct expo_label l[1] = { { NULL, NULL } };
	struct pair_labels pl;
	unsigned int i;

	expo_family(e, "fabtel_probe_peers_refused", "gauge",
		    "Peer endpoints the port left out at the last match: their GID is the network or broadcast address of one of the port's subnets.");
	for (i = 0; i < PROBE_MAX_PORTS; i++)
		if (pr->ports[i].present)
			expo_u64(e, "fabtel_probe_peers_refused",
				 port_lbl(&pl, pr, &pr->ports[i], NULL, NULL), pr->ports[i].refused);
	expo_family(e, "fabtel_probe_turnaround_refused_total", "counter",
		    "Replies taken (not lost) with no RTT sample: the turnaround the peer reported was not less than the round trip measured here.");
	for (i = 0; i < PROBE_MAX_PORTS; i++)
		if (pr->ports[i].present)
			expo_u64(e, "fabtel_probe_turnaround_refused_total",
				 port_lbl(&pl, pr, &pr->ports[i], NULL, NULL),
				 pr->ports[i].turnaround_bad);
	expo_family(e, "fabtel_probe_endpoints_contested", "gauge",
		    "Peer endpoints refused at the last match because another source holds their (host, device, port); which, per source: /api/v1/probes.");
	expo_u64(e, "fabtel_probe_endpoints_contested", l, pr->conflicts);
	expo_family(e, "fabtel_probe_endpoint_conflicts_total", "counter",
		    "Conflicts between two sources over a peer endpoint's (host, device, port), each counted when it starts.");
	expo_u64(e, "fabtel_probe_endpoint_conflicts_total", l, pr->conflicts_total);
}

void render_probe_families(struct prober *pr, struct expo *e)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);

	if (!pr)
		return;
	pthread_mutex_lock(&pr->lock);
	pair_families(e, pr, now);
	port_families(e, pr, now);
	prober_families(e, pr);
	trust_families(e, pr);
	pthread_mutex_unlock(&pr->lock);
}

struct json_object *render_probe_endpoints(struct prober *pr)
{
	struct probe_endpoint eps[PROBE_MAX_PORTS];
	unsigned int n;

	pthread_mutex_lock(&pr->lock);
	n = prober_endpoints(pr, eps, PROBE_MAX_PORTS);
	pthread_mutex_unlock(&pr->lock);
	return probe_doc_build(pr->cfg.host, eps, n);
}
