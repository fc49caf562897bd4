// SPDX-License-Identifier: GPL-2.0
/*
 * panes_nics.c - the NICs pane: a row per RoCE port (link, flaps, rates of
 * the normalized counters, PFC pause and storms) and why a source is
 * missing.  Rates, last flap and storms are the collector's, as the JSON
 * has them; unknown is "-", never 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "fjson.h"
#include "panes_int.h"

enum {
	N_NIC, N_NETDEV, N_LINK, N_FLAPS, N_LASTFLAP, N_RX, N_TX, N_OOS, N_NAK, N_ACKTO,
	N_RETRY, N_CNP, N_ECN, N_PAUSE, N_STORM, N_ISSUES, N_TRAFFIC, N_ERRHIST, N_NR,
};

/* the sparklines: the last SPARK_W samples, then the newest value */
#define SPARK_W		20
#define HIST_TRAFFIC	(1u << HSER_RX | 1u << HSER_TX)
#define HIST_ERRORS	(1u << HSER_OOS | 1u << HSER_NAK | 1u << HSER_ACKTO | 1u << HSER_RETRY)

/* name, min, max, prio, right, flex, desc */
static const struct column nic_cols[N_NR] = {
	[N_NIC] = { "NIC", 6, 24, 100, false, false, false, false },
	[N_NETDEV] = { "NETDEV", 6, 15, 55, false, false, false, false },
	[N_LINK] = { "LINK", 4, 8, 92, false, false, false, false },
	[N_FLAPS] = { "FLAPS", 5, 8, 88, true, false, true, false },
	[N_LASTFLAP] = { "LASTFLAP", 8, 11, 40, false, false, true, false },
	[N_RX] = { "RxGb/s", 6, 8, 70, true, false, true, false },
	[N_TX] = { "TxGb/s", 6, 8, 69, true, false, true, false },
	[N_OOS] = { "OOS/s", 5, 8, 85, true, false, true, false },
	[N_NAK] = { "NAK/s", 5, 8, 75, true, false, true, false },
	[N_ACKTO] = { "ACKTO/s", 7, 8, 80, true, false, true, false },
	[N_RETRY] = { "RETRY/s", 7, 8, 83, true, false, true, false },
	[N_CNP] = { "CNP/s", 5, 8, 50, true, false, true, false },
	[N_ECN] = { "ECN/s", 5, 8, 45, true, false, true, false },
	[N_PAUSE] = { "PAUSE/s", 7, 48, 60, false, true, false, false },
	[N_STORM] = { "STORM", 5, 16, 90, false, false, true, false },
	[N_ISSUES] = { "ISSUES", 6, 30, 91, false, false, true, false },
	/* history: only where the screen has room for it (200 columns) */
	[N_TRAFFIC] = { "TRAFFIC", SPARK_W + 7, SPARK_W + 7, 20, false, false, true, false },
	[N_ERRHIST] = { "ERRORS", SPARK_W + 7, SPARK_W + 7, 19, false, false, true, false },
};

struct nic_vals {
	double rate[FJ_NR_CTRS];
	bool have[FJ_NR_CTRS];
	double bps[2];			/* bytes/s rx, tx: RDMA's, else the netdev's */
	bool have_bps[2], bps_netdev;
	double last_flap;
	bool have_last_flap;
};

static int ctr_index(const char *name)
{
	size_t i;

	for (i = 0; i < FJ_NR_CTRS; i++)
		if (!strcmp(fj_ctr_names[i], name))
			return (int)i;
	return -1;
}

/* Throughput: the RDMA byte counters where the NIC has them, else the netdev's. */
static void nic_bps(struct json_object *p, struct nic_vals *v)
{
	struct json_object *nd = fj_get(p, "netdev_stats");
	char k[24];
	size_t i;
	int c;

	for (i = 0; i < 2; i++) {
		c = ctr_index(fj_nd_names[i]);
		if (fj_get(fj_get(p, "counters"), fj_nd_names[i])) {
			v->have_bps[i] = v->have[c];
			v->bps[i] = v->rate[c];
			continue;
		}
		if (!nd)
			continue;
		v->bps_netdev = true;
		snprintf(k, sizeof(k), "%s_rate", fj_nd_names[i]);
		v->have_bps[i] = fj_num(nd, k, &v->bps[i]);
	}
}

/* the rates to show: the collector's, as fabteld sent them; none is unknown */
static void nic_vals(struct frame *f, struct json_object *p, struct nic_vals *v)
{
	struct json_object *rates = fj_get(p, "rates");
	size_t i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < FJ_NR_CTRS; i++) {
		if (fj_num(rates, fj_ctr_names[i], &v->rate[i])) {
			v->have[i] = true;
			f->rates_from = "fabteld";
		}
	}
	v->have_last_flap = fj_num(p, "last_flap", &v->last_flap);
	nic_bps(p, v);
}


static void nic_link(struct row *r, struct json_object *p)
{
	const char *state = fj_str(p, "state");
	int carrier = fj_bool(p, "carrier");
	char lower[16];
	size_t i;

	if (carrier == 0 || (state && strcmp(state, "ACTIVE") && carrier != 1)) {
		row_set(r, N_LINK, "down");
		r->color = RC_BAD;
		r->color_col = N_LINK;
	} else if (state && strcmp(state, "ACTIVE")) {
		for (i = 0; state[i] && i < sizeof(lower) - 1; i++)
			lower[i] = (char)(state[i] >= 'A' && state[i] <= 'Z' ? state[i] + 32 : state[i]);
		lower[i] = '\0';
		row_set(r, N_LINK, "%s", lower);
		r->color = RC_WARN;
		r->color_col = N_LINK;
	} else if (carrier == 1 || state) {
		row_set(r, N_LINK, "up");
	} else {
		row_set(r, N_LINK, "-");
	}
}

/* "3:1.2k/0 4:0/0" (tx/rx per enabled priority) and the storm marker */
static void nic_pfc(struct row *r, struct json_object *p, struct json_object *jrow)
{
	struct json_object *pfc = fj_get(p, "pfc"), *e, *a = json_object_new_array(), *o;
	char text[256] = "", storm[64] = "", tx[16], rx[16];
	double vt = 0, vr = 0;
	bool ht, hr;
	long long prio;
	size_t i, at = 0, sat = 0;

	for (i = 0; i < fj_len(pfc); i++) {
		e = json_object_array_get_idx(pfc, i);
		if (!fj_int(e, "priority", &prio))
			continue;
		if (fj_bool(e, "storm") == 1 && sat < sizeof(storm))
			sat += (size_t)snprintf(storm + sat, sizeof(storm) - sat, "%sp%lld",
						sat ? "," : "", prio);
		ht = fj_num(e, "pause_tx_rate", &vt);
		hr = fj_num(e, "pause_rx_rate", &vr);
		o = json_object_new_object();
		json_object_object_add(o, "priority", json_object_new_int((int)prio));
		json_object_object_add(o, "enabled", json_object_new_boolean(fj_bool(e, "enabled") == 1));
		json_object_object_add(o, "pause_tx_rate", fj_double_or_null(ht, vt));
		json_object_object_add(o, "pause_rx_rate", fj_double_or_null(hr, vr));
		json_object_object_add(o, "storm", json_object_new_boolean(fj_bool(e, "storm") == 1));
		json_object_array_add(a, o);
		if (fj_bool(e, "enabled") != 1 || at >= sizeof(text))
			continue;
		snprintf(tx, sizeof(tx), "-");
		snprintf(rx, sizeof(rx), "-");
		if (ht)
			fmt_rate(tx, sizeof(tx), vt);
		if (hr)
			fmt_rate(rx, sizeof(rx), vr);
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%lld:%s/%s", at ? " " : "",
				       prio, tx, rx);
	}
	row_set(r, N_PAUSE, "%s", !pfc ? "-" : at ? text : "off");
	row_set(r, N_STORM, "%s", !pfc ? "-" : storm);
	if (sat) {
		r->color = RC_BAD;
		r->color_col = N_STORM;
		r->key[N_STORM] = 1;
	}
	json_object_object_add(jrow, "pfc", pfc ? a : NULL);
	if (!pfc)
		json_object_put(a);
	json_object_object_add(jrow, "storm", pfc ? json_object_new_boolean(sat > 0) : NULL);
}

/*
 * The link layer's conditions fabteld reports (speed below the port's best,
 * link errors within window_s, optics, RoCE config, the PCI function's link
 * below what it should or its AER errors), in short words.
 */
static void nic_issues(struct row *r, struct json_object *p, struct json_object *jrow)
{
	static const char *const words[][2] = {
		{ "link_degraded", "slow" }, { "link_errors", "errors" },
		{ "optics", "optics" }, { "misconfigured", "misconf" },
		{ "path_loss", "pathloss" }, { "path_latency", "pathrtt" },
		{ "pcie_degraded", "pcie" }, { "pcie_errors", "aer" },
		{ "nic_firmware", "firmware" }, { "driver_wedged", "wedged" },
		{ "driver_messages", "drvmsg" }, { "link_degrading", "degrading" },
		{ "recent_fault", "recent" },
	};
	struct json_object *c = fj_get(p, "conditions"), *s = fj_get(p, "sources");
	char text[64] = "";
	size_t i, k, at = 0;
	const char *w;

	for (i = 0; i < fj_len(c); i++) {
		w = json_object_get_string(json_object_array_get_idx(c, i));
		for (k = 0; w && k < sizeof(words) / sizeof(words[0]); k++)
			if (!strcmp(w, words[k][0]) && at < sizeof(text))
				at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s",
						       at ? "," : "", words[k][1]);
	}
	/* the first read of the driver that fails and backs off (its values absent) */
	for (i = 0; i < fj_len(s) && at < sizeof(text); i++) {
		w = fj_str(json_object_array_get_idx(s, i), "state");
		if (w && !strcmp(w, "unavailable")) {
			w = fj_str(json_object_array_get_idx(s, i), "name");
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%sunread:%s",
					       at ? "," : "", w ? w : "?");
			break;
		}
	}
	row_set(r, N_ISSUES, "%s", !c ? "-" : text);
	if (at) {
		r->key[N_ISSUES] = 1;
		if (r->color == RC_NONE) {
			r->color = RC_WARN;
			r->color_col = N_ISSUES;
		}
	}
	json_object_object_add(jrow, "issues", c ? json_object_get(c) : NULL);
}

static void nic_rate_cell(struct row *r, unsigned int c, const struct nic_vals *v,
			  const char *name, const char *alt)
{
	char buf[16];
	int i = ctr_index(name);

	if (alt && (i < 0 || !v->have[i]))
		i = ctr_index(alt);
	if (i < 0 || !v->have[i]) {
		row_num(r, c, false, 0, "-");
		return;
	}
	fmt_rate(buf, sizeof(buf), v->rate[i]);
	row_num(r, c, true, v->rate[i], "%s", buf);
	/* moving errors make the row yellow unless something is worse */
	if (v->rate[i] > 0 && c != N_CNP && c != N_ECN && r->color == RC_NONE) {
		r->color = RC_WARN;
		r->color_col = (int)c;
	}
}

static void nic_gbps_cell(struct row *r, unsigned int c, const struct nic_vals *v,
			  unsigned int dir, struct json_object *jrow, const char *jname)
{
	char buf[16];

	if (!v->have_bps[dir]) {
		row_num(r, c, false, 0, "-");
		json_object_object_add(jrow, jname, NULL);
		return;
	}
	fmt_gbps(buf, sizeof(buf), v->bps[dir]);
	row_num(r, c, true, v->bps[dir], "%s", buf);
	json_object_object_add(jrow, jname, json_object_new_double(v->bps[dir] * 8 / 1e9));
}

/*
 * A sparkline of the port's history and its newest value: Gb/s of rx + tx,
 * or errors/s (OOS, NAK, ACK timeouts, retries); "-" without history.
 */
static void nic_spark_cell(struct row *r, unsigned int c, const struct hist_port *h,
			   unsigned int mask, struct json_object *jhist, const char *jname)
{
	char spark[SPARK_W + 1], val[16];
	double last;

	if (!h || !h->count) {
		row_num(r, c, false, 0, "-");
		return;
	}
	hist_spark(spark, SPARK_W, h, mask, &last);
	if (isnan(last))
		snprintf(val, sizeof(val), "-");
	else if (mask == HIST_TRAFFIC)
		snprintf(val, sizeof(val), "%.*f", last < 10 ? 2 : 1, last);
	else
		fmt_rate(val, sizeof(val), last);
	row_num(r, c, !isnan(last), isnan(last) ? 0 : last, "%s %s", spark, val);
	json_object_object_add(jhist, jname, fj_double_or_null(!isnan(last), last));
}

static void nic_row(struct frame *f, struct json_object *p, struct json_object *jrows)
{
	struct json_object *jrow = json_object_new_object(), *rates = json_object_new_object();
	struct json_object *jhist = json_object_new_object();
	const struct hist_port *hist;
	struct nic_vals v;
	const char *netdev = fj_str(p, "netdev");
	char key[96], buf[32];
	uint64_t flaps = 0;
	bool have_flaps = fj_u64(p, "link_flaps", &flaps);
	struct row *r = table_add(&f->tab[TAB_NICS]);
	size_t i;

	fj_port_key(key, sizeof(key), p);
	nic_vals(f, p, &v);
	if (!r) {
		json_object_put(jrow);
		json_object_put(rates);
		json_object_put(jhist);
		return;
	}
	row_set(r, N_NIC, "%s", key);
	row_set(r, N_NETDEV, "%s", netdev ? netdev : "-");
	nic_link(r, p);
	row_num(r, N_FLAPS, have_flaps, (double)flaps, "%llu", (unsigned long long)flaps);
	fmt_clock(buf, sizeof(buf), v.last_flap);
	row_num(r, N_LASTFLAP, v.have_last_flap, v.last_flap, "%s", buf);
	nic_gbps_cell(r, N_RX, &v, 0, jrow, "rx_gbps");
	nic_gbps_cell(r, N_TX, &v, 1, jrow, "tx_gbps");
	json_object_object_add(jrow, "gbps_from", json_object_new_string(v.bps_netdev ?
									 "netdev" : "rdma"));
	nic_rate_cell(r, N_OOS, &v, "out_of_sequence", NULL);
	nic_rate_cell(r, N_NAK, &v, "nak_seq_err_rcvd", NULL);
	nic_rate_cell(r, N_ACKTO, &v, "local_ack_timeout", NULL);
	nic_rate_cell(r, N_RETRY, &v, "retry_exceeded", NULL);
	nic_rate_cell(r, N_CNP, &v, "cnp_handled", "cnp_sent");
	nic_rate_cell(r, N_ECN, &v, "ecn_marked_rx", NULL);
	nic_pfc(r, p, jrow);
	nic_issues(r, p, jrow);
	hist = hist_find(f->hist, key);
	nic_spark_cell(r, N_TRAFFIC, hist, HIST_TRAFFIC, jhist, "traffic_gbps");
	nic_spark_cell(r, N_ERRHIST, hist, HIST_ERRORS, jhist, "errors_per_s");
	json_object_object_add(jhist, "points", json_object_new_int(hist ? (int)hist->count : 0));
	json_object_object_add(jrow, "history_last", jhist);

	json_object_object_add(jrow, "device", json_object_get(fj_get(p, "device")));
	json_object_object_add(jrow, "port", json_object_get(fj_get(p, "port")));
	json_object_object_add(jrow, "netdev", json_object_get(fj_get(p, "netdev")));
	json_object_object_add(jrow, "link", json_object_new_string(r->cell[N_LINK]));
	json_object_object_add(jrow, "link_flaps", json_object_get(fj_get(p, "link_flaps")));
	json_object_object_add(jrow, "last_flap", fj_double_or_null(v.have_last_flap, v.last_flap));
	for (i = 0; i < FJ_NR_CTRS; i++)
		if (fj_get(fj_get(p, "counters"), fj_ctr_names[i]))
			json_object_object_add(rates, fj_ctr_names[i],
					       fj_double_or_null(v.have[i], v.rate[i]));
	json_object_object_add(jrow, "rates", rates);
	json_object_array_add(jrows, jrow);
}

static void sources_why(struct frame *f, struct json_object *snap)
{
	struct json_object *src = fj_get(snap, "sources");
	const char *names[] = { "fabtel_ko", "sysfs" }, *state, *why;
	size_t i, at = 0;
	char *s = f->tab[TAB_NICS].empty;
	size_t len = sizeof(f->tab[TAB_NICS].empty);

	snprintf(f->port_source, sizeof(f->port_source), "none");
	for (i = 0; i < 2; i++) {
		state = fj_str(fj_get(src, names[i]), "state");
		if (state && !strcmp(state, "up") && !strcmp(f->port_source, "none"))
			snprintf(f->port_source, sizeof(f->port_source), "%s", names[i]);
	}
	at = (size_t)snprintf(s, len, "no RoCE ports");
	for (i = 0; i < 2 && at < len; i++) {
		state = fj_str(fj_get(src, names[i]), "state");
		why = fj_str(fj_get(src, names[i]), "why");
		if (!state || !strcmp(state, "standby"))
			continue;
		at += (size_t)snprintf(s + at, len - at, "; %s %s%s%s", names[i], state,
				       why && *why ? ": " : "", why ? why : "");
	}
	ascii_copy(s, len, s);
}

void panes_build_nics(struct frame *f)
{
	struct json_object *ports = fj_get(f->snapshot, "ports");
	struct json_object *rows = json_object_new_array();
	size_t i;

	table_init(&f->tab[TAB_NICS], "NICs", nic_cols, N_NR, N_NIC);
	sources_why(f, f->snapshot);
	for (i = 0; i < fj_len(ports); i++)
		nic_row(f, json_object_array_get_idx(ports, i), rows);
	json_object_object_add(f->rows, "nics", rows);
}
