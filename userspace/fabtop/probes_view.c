// SPDX-License-Identifier: GPL-2.0
/*
 * probes_view.c - the probe matrix in lines (probes_view.h).  Every word
 * from fabteld passes through ascii_copy: it comes from other hosts' names.
 */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "fjson.h"
#include "probes_view.h"
#include "table.h"

static void add(struct probe_line *out, unsigned int *n, unsigned int max,
		enum probe_line_kind k, const char *text)
{
	if (*n == max)
		return;
	out[*n].kind = k;
	ascii_copy(out[*n].text, sizeof(out[*n].text), text);
	(*n)++;
}

static const char *us(struct json_object *o, const char *key, char *buf, size_t len)
{
	double v;

	if (!fj_num(o, key, &v))
		return "-";
	if (v >= 1000)
		snprintf(buf, len, "%.2fms", v / 1000);
	else
		snprintf(buf, len, "%.0fus", v);
	return buf;
}

static void peer_line(struct json_object *p, struct probe_line *out, unsigned int *n,
		      unsigned int max)
{
	char text[PROBES_LINE_LEN], name[96], a[24], b[24], loss[16], flows[24] = "";
	double v, sent = 0, tmo = 0, nf = 0, nl = 0;
	bool bad = fj_len(fj_get(p, "trouble")) > 0;
	const char *addr = fj_str(p, "address");
	bool unresolved = addr && !strcmp(addr, "unresolved");

	snprintf(name, sizeof(name), "%s/%s/%.0f", fj_str(p, "host") ? fj_str(p, "host") : "?",
		 fj_str(p, "device") ? fj_str(p, "device") : "?",
		 fj_num(p, "port", &v) ? v : 0);
	if (!fj_num(p, "loss", &v))
		snprintf(loss, sizeof(loss), "-");
	else
		snprintf(loss, sizeof(loss), "%.1f%%", v * 100);
	fj_num(p, "sent", &sent);
	fj_num(p, "timeouts", &tmo);
	/* which of its ECMP flows lose: some, a path; all, the peer or this port */
	if (fj_num(p, "flows", &nf) && fj_num(p, "flows_losing", &nl) && nl > 0)
		snprintf(flows, sizeof(flows), "  %.0f/%.0f flows", nl, nf);
	snprintf(text, sizeof(text), "    %-30s %9s %9s %7s %8.0f %8.0f%s%s", name,
		 us(p, "rtt_p50_us", a, sizeof(a)), us(p, "rtt_p99_us", b, sizeof(b)), loss, sent,
		 tmo, flows, unresolved ? "  << address unresolved (not probed)" :
		 bad ? "  << path or peer" : "");
	add(out, n, max, bad ? PL_TROUBLE : PL_PLAIN, text);
}

unsigned int probes_lines(struct json_object *probes, struct probe_line *out, unsigned int max)
{
	struct json_object *ports = fj_get(probes, "ports"), *pt, *peers;
	char text[PROBES_LINE_LEN];
	unsigned int n = 0;
	size_t i, k;
	double port = 0;
	const char *sus, *why;

	if (!probes || fj_bool(probes, "enabled") != 1) {
		add(out, &n, max, PL_PLAIN, probes ? "probing is off on this host (no probe_peer or probe_peers_file)" :
					       "no probe matrix (fabteld without /api/v1/probes, or --standalone)");
		return n;
	}
	snprintf(text, sizeof(text), "Probes from %s  (RTT: host clock; loss over the last %s s)",
		 fj_str(probes, "host") ? fj_str(probes, "host") : "?",
		 json_object_get_string(fj_get(probes, "window_s")));
	add(out, &n, max, PL_HEAD, text);
	snprintf(text, sizeof(text), "    %-30s %9s %9s %7s %8s %8s", "PEER", "RTT p50", "RTT p99",
		 "LOSS", "SENT", "TIMEOUTS");
	add(out, &n, max, PL_HEAD, text);
	for (i = 0; i < fj_len(ports); i++) {
		pt = json_object_array_get_idx(ports, i);
		peers = fj_get(pt, "peers");
		sus = fj_str(pt, "suspect");
		why = fj_str(pt, "why");
		fj_num(pt, "port", &port);
		snprintf(text, sizeof(text), "%s/%.0f (%s)  %zu peer(s)%s%s%s",
			 fj_str(pt, "device") ? fj_str(pt, "device") : "?", port,
			 fj_str(pt, "netdev") ? fj_str(pt, "netdev") : "-", fj_len(peers),
			 why ? "  not probing: " : "", why ? why : "",
			 sus && !strcmp(sus, "local_port") ? "  << this port: most of its peers fail" : "");
		add(out, &n, max, sus && !strcmp(sus, "local_port") ? PL_CULPRIT : PL_PLAIN, text);
		for (k = 0; k < fj_len(peers); k++)
			peer_line(json_object_array_get_idx(peers, k), out, &n, max);
	}
	return n;
}
