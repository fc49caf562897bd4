// SPDX-License-Identifier: GPL-2.0
/*
 * panes.c - the frame's tables (see panes.h): what each cell says, its
 * sort key and its color.  Unknown is "-", never 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "fjson.h"
#include "panes.h"

enum {
	N_NIC, N_NETDEV, N_LINK, N_FLAPS, N_LASTFLAP, N_RX, N_TX, N_OOS, N_NAK, N_ACKTO,
	N_RETRY, N_CNP, N_ECN, N_PAUSE, N_STORM, N_NR,
};

/* name, min, max, prio, right, flex, desc */
static const struct column nic_cols[N_NR] = {
	[N_NIC] = { "NIC", 6, 24, 100, false, false, false },
	[N_NETDEV] = { "NETDEV", 6, 15, 55, false, false, false },
	[N_LINK] = { "LINK", 4, 8, 92, false, false, false },
	[N_FLAPS] = { "FLAPS", 5, 8, 88, true, false, true },
	[N_LASTFLAP] = { "LASTFLAP", 8, 11, 40, false, false, true },
	[N_RX] = { "RxGb/s", 6, 8, 70, true, false, true },
	[N_TX] = { "TxGb/s", 6, 8, 69, true, false, true },
	[N_OOS] = { "OOS/s", 5, 8, 85, true, false, true },
	[N_NAK] = { "NAK/s", 5, 8, 75, true, false, true },
	[N_ACKTO] = { "ACKTO/s", 7, 8, 80, true, false, true },
	[N_RETRY] = { "RETRY/s", 7, 8, 83, true, false, true },
	[N_CNP] = { "CNP/s", 5, 8, 50, true, false, true },
	[N_ECN] = { "ECN/s", 5, 8, 45, true, false, true },
	[N_PAUSE] = { "PAUSE/s", 7, 48, 60, false, true, false },
	[N_STORM] = { "STORM", 5, 16, 90, false, false, true },
};

enum { J_JOB, J_VERDICT, J_QPS, J_PORTS, J_KIND, J_REASON, J_NR };
_Static_assert((int)JOB_COL_VERDICT == (int)J_VERDICT && (int)JOB_COL_REASON == (int)J_REASON,
	       "panes.h quotes the Jobs columns");

static const struct column job_cols[J_NR] = {
	[J_JOB] = { "JOB", 6, 40, 100, false, false, false },
	[J_VERDICT] = { "VERDICT", 7, 8, 95, false, false, true },
	[J_QPS] = { "QPS", 4, 6, 60, true, false, true },
	[J_PORTS] = { "PORTS", 5, 40, 50, false, false, false },
	[J_KIND] = { "KIND", 4, 6, 30, false, false, false },
	[J_REASON] = { "REASON", 10, 80, 80, false, true, false },
};

enum { E_TIME, E_EVENT, E_PORT, E_DETAIL, E_JOB, E_NR };

static const struct column event_cols[E_NR] = {
	[E_TIME] = { "TIME", 8, 8, 100, false, false, true },
	[E_EVENT] = { "EVENT", 9, 16, 95, false, false, false },
	[E_PORT] = { "PORT", 6, 24, 90, false, false, false },
	[E_DETAIL] = { "DETAIL", 8, 60, 70, false, true, false },
	[E_JOB] = { "JOB", 3, 40, 60, false, false, false },
};

enum { R_REASON, R_SEVERITY, R_PORT, R_COUNT, R_AT, R_SHARED, R_NR };

static const struct column reason_cols[R_NR] = {
	[R_REASON] = { "REASON", 8, 24, 100, false, false, false },
	[R_SEVERITY] = { "SEVERITY", 8, 8, 95, false, false, true },
	[R_PORT] = { "PORT", 6, 24, 90, false, false, false },
	[R_COUNT] = { "COUNT", 5, 10, 80, true, false, true },
	[R_AT] = { "AT", 8, 8, 70, false, false, true },
	[R_SHARED] = { "SHARED", 6, 6, 40, false, false, false },
};

enum { Q_QPN, Q_PORT, Q_STATE, Q_DEST, Q_PID, Q_COMM, Q_NR };

static const struct column qp_cols[Q_NR] = {
	[Q_QPN] = { "QPN", 6, 10, 100, true, false, false },
	[Q_PORT] = { "PORT", 6, 24, 90, false, false, false },
	[Q_STATE] = { "STATE", 5, 5, 95, false, false, true },
	[Q_DEST] = { "DESTQPN", 7, 10, 60, true, false, false },
	[Q_PID] = { "PID", 5, 10, 70, true, false, false },
	[Q_COMM] = { "COMM", 4, 16, 80, false, false, false },
};


/* An integer field as a cell (and its sort key), "-" if absent. */
static void int_cell(struct row *r, unsigned int c, struct json_object *o, const char *k)
{
	long long v = 0;
	bool ok = fj_int(o, k, &v);

	row_num(r, c, ok, (double)v, "%lld", v);
}

/* ---- formatting ----------------------------------------------------------- */

void fmt_rate(char *buf, size_t len, double v)
{
	static const char units[] = "kMGTP";
	unsigned int u = 0;

	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (v < 10) {
		snprintf(buf, len, "%.1f", v);
		return;
	}
	if (v < 1000) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	v /= 1000;
	while (v >= 999.5 && u < sizeof(units) - 2) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, v < 9.95 ? "%.1f%c" : "%.0f%c", v, units[u]);
}

static void fmt_gbps(char *buf, size_t len, double bytes_per_s)
{
	double g = bytes_per_s * 8 / 1e9;

	/* three significant digits down to 1 Mb/s: a slow link is not "0.00" */
	if (g == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, g < 1 ? "%.3f" : g < 10 ? "%.2f" : g < 100 ? "%.1f" : "%.0f", g);
}

static void fmt_clock(char *buf, size_t len, double t)
{
	struct tm tm;
	time_t s;

	/* a time from the daemon: anything but a sane Unix time is "-" */
	if (!(t >= 0 && t < 1e11)) {
		snprintf(buf, len, "-");
		return;
	}
	s = (time_t)t;
	if (!localtime_r(&s, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	/* older than a day: the date says more than the time */
	strftime(buf, len, time(NULL) - s < 86400 ? "%H:%M:%S" : "%m-%d %H:%M", &tm);
}

/* ---- the panes ------------------------------------------------------------- */

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
static void nic_bps(struct json_object *st, struct json_object *p, struct nic_vals *v)
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
		v->have_bps[i] = fj_num(nd, k, &v->bps[i]) ||
				 fj_num(fj_get(st, "netdev"), fj_nd_names[i], &v->bps[i]);
	}
}

/* the rates to show: fabteld's where it sent them, else ours */
static void nic_vals(struct frame *f, struct json_object *st, struct json_object *p,
		     struct nic_vals *v)
{
	struct json_object *theirs = fj_get(p, "rates"), *ours = fj_get(st, "rates");
	bool any_theirs = false, any_ours = false;
	size_t i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < FJ_NR_CTRS; i++) {
		if (fj_num(theirs, fj_ctr_names[i], &v->rate[i])) {
			v->have[i] = any_theirs = true;
		} else if (fj_num(ours, fj_ctr_names[i], &v->rate[i])) {
			v->have[i] = any_ours = true;
		}
	}
	if (any_theirs)
		f->rates_from = "fabteld";
	else if (any_ours && !f->rates_from)
		f->rates_from = "fabtop";
	v->have_last_flap = fj_num(p, "last_flap", &v->last_flap) ||
			    fj_num(st, "last_flap", &v->last_flap);
	nic_bps(st, p, v);
}

static bool pause_rate(struct json_object *st, struct json_object *e, const char *dir,
		       double *out)
{
	char k[24];
	long long prio = -1;

	snprintf(k, sizeof(k), "%s_rate", dir);
	if (fj_get(e, k))
		return fj_num(e, k, out);
	fj_int(e, "priority", &prio);
	snprintf(k, sizeof(k), "%lld", prio);
	return fj_num(fj_get(st, dir), k, out);
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
static void nic_pfc(struct row *r, struct json_object *st, struct json_object *p,
		    struct json_object *jrow)
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
		ht = pause_rate(st, e, "pause_tx", &vt);
		hr = pause_rate(st, e, "pause_rx", &vr);
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

static void nic_row(const struct digest *d, struct frame *f, struct json_object *p,
		    struct json_object *jrows)
{
	struct json_object *jrow = json_object_new_object(), *rates = json_object_new_object();
	struct json_object *st;
	struct nic_vals v;
	const char *netdev = fj_str(p, "netdev");
	char key[96], buf[32];
	uint64_t flaps = 0;
	bool have_flaps = fj_u64(p, "link_flaps", &flaps);
	struct row *r = table_add(&f->tab[TAB_NICS]);
	size_t i;

	fj_port_key(key, sizeof(key), p);
	st = fj_get(d->state, key);
	nic_vals(f, st, p, &v);
	if (!r) {
		json_object_put(jrow);
		json_object_put(rates);
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
	nic_pfc(r, st, p, jrow);

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

static void build_nics(const struct digest *d, struct frame *f)
{
	struct json_object *ports = fj_get(f->snapshot, "ports");
	struct json_object *rows = json_object_new_array();
	size_t i;

	table_init(&f->tab[TAB_NICS], "NICs", nic_cols, N_NR, N_NIC);
	sources_why(f, f->snapshot);
	for (i = 0; i < fj_len(ports); i++)
		nic_row(d, f, json_object_array_get_idx(ports, i), rows);
	json_object_object_add(f->rows, "nics", rows);
}

static void reason_text(char *buf, size_t len, struct json_object *r)
{
	const char *what = fj_str(r, "reason"), *dev = fj_str(r, "device");
	long long port = -1;
	uint64_t n = 0;

	fj_int(r, "port", &port);
	fj_u64(r, "count", &n);
	snprintf(buf, len, "%s %s/%lld x%llu%s", what ? what : "?", dev ? dev : "?", port,
		 (unsigned long long)n, fj_bool(r, "shared") == 1 ? " shared" : "");
}

static enum row_color verdict_color(const char *v)
{
	if (!v)
		return RC_NONE;
	if (!strcmp(v, "failing"))
		return RC_BAD;
	if (!strcmp(v, "degraded"))
		return RC_WARN;
	return !strcmp(v, "healthy") ? RC_GOOD : RC_NONE;
}

static double verdict_rank(const char *v)
{
	enum row_color c = verdict_color(v);

	return c == RC_BAD ? 2 : c == RC_WARN ? 1 : c == RC_GOOD ? 0 : NAN;
}

static void job_row(struct frame *f, struct json_object *j, struct json_object *jrows)
{
	struct json_object *ports = fj_get(j, "ports"), *worst = fj_get(j, "culprit"), *p;
	struct json_object *jrow = json_object_new_object(), *jp = json_object_new_array();
	const char *id = fj_str(j, "job_id"), *verdict = fj_str(j, "verdict"), *kind = fj_str(j, "kind");
	char text[512] = "", key[96];
	long long qps = 0;
	bool have_qps = fj_int(j, "qps", &qps);
	struct row *r = table_add(&f->tab[TAB_JOBS]);
	size_t i, at = 0;

	if (!worst && fj_len(fj_get(j, "reasons")))
		worst = json_object_array_get_idx(fj_get(j, "reasons"), 0);
	for (i = 0; i < fj_len(ports); i++) {
		p = json_object_array_get_idx(ports, i);
		fj_port_key(key, sizeof(key), p);
		json_object_array_add(jp, json_object_new_string(key));
		if (at < sizeof(text))
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s", at ? "," : "",
					       key);
	}
	json_object_object_add(jrow, "job_id", json_object_get(fj_get(j, "job_id")));
	json_object_object_add(jrow, "verdict", json_object_get(fj_get(j, "verdict")));
	json_object_object_add(jrow, "qps", json_object_get(fj_get(j, "qps")));
	json_object_object_add(jrow, "ports", jp);
	json_object_object_add(jrow, "worst_reason", json_object_get(worst));
	json_object_array_add(jrows, jrow);
	if (!r)
		return;
	row_set(r, J_JOB, "%s", id ? id : "?");
	ascii_copy(r->id, sizeof(r->id), id);
	row_num(r, J_VERDICT, verdict != NULL, verdict_rank(verdict), "%s", verdict ? verdict : "-");
	r->color = verdict_color(verdict);
	r->color_col = J_VERDICT;
	row_num(r, J_QPS, have_qps, (double)qps, "%lld", qps);
	row_set(r, J_PORTS, "%s", at ? text : "-");
	row_set(r, J_KIND, "%s", kind ? kind : "-");
	reason_text(text, sizeof(text), worst);
	row_set(r, J_REASON, "%s", worst ? text : "-");
}

static void build_jobs(struct frame *f)
{
	struct json_object *jobs = fj_get(f->jobs, "jobs"), *rows = json_object_new_array();
	size_t i;

	table_init(&f->tab[TAB_JOBS], "Jobs", job_cols, J_NR, J_VERDICT);
	snprintf(f->tab[TAB_JOBS].empty, sizeof(f->tab[0].empty), "%s",
		 f->jobs ? "no jobs: no QPs of a Slurm, Kubernetes or configured job" :
			   "no job data");
	for (i = 0; i < fj_len(jobs); i++)
		job_row(f, json_object_array_get_idx(jobs, i), rows);
	json_object_object_add(f->rows, "jobs", rows);
}

static enum row_color event_color(const char *kind)
{
	if (!strcmp(kind, "link_up") || !strcmp(kind, "pause_storm_end"))
		return RC_GOOD;
	if (!strcmp(kind, "error_burst"))
		return RC_WARN;
	if (!strcmp(kind, "link_down") || !strcmp(kind, "link_flap") ||
	    !strcmp(kind, "pause_storm") || !strcmp(kind, "qp_error"))
		return RC_BAD;
	return RC_NONE;
}

static void event_detail(char *buf, size_t len, const struct event *e)
{
	size_t at = 0;

	buf[0] = '\0';
	if (e->counter[0])
		at += (size_t)snprintf(buf + at, len - at, "%s ", e->counter);
	if (e->count && at < len)
		at += (size_t)snprintf(buf + at, len - at, "x%llu ", (unsigned long long)e->count);
	if (e->priority >= 0 && at < len)
		at += (size_t)snprintf(buf + at, len - at, "prio %d ", e->priority);
	if (e->qpn >= 0 && at < len)
		at += (size_t)snprintf(buf + at, len - at, "qpn %lld ", e->qpn);
	while (at && at < len && buf[at - 1] == ' ')
		buf[--at] = '\0';
}

static void event_row(struct table *t, const struct event *e)
{
	struct row *r = table_add(t);
	char buf[128];

	if (!r)
		return;
	fmt_clock(buf, sizeof(buf), e->time);
	row_num(r, E_TIME, e->time > 0, e->time, "%s", buf);
	row_set(r, E_EVENT, "%s", e->kind);
	if (e->device[0] && e->port >= 0)
		row_set(r, E_PORT, "%s/%d", e->device, e->port);
	else
		row_set(r, E_PORT, "%s", e->device[0] ? e->device : "-");
	event_detail(buf, sizeof(buf), e);
	row_set(r, E_DETAIL, "%s", buf);
	row_set(r, E_JOB, "%s", e->job_id[0] ? e->job_id : "");
	ascii_copy(r->id, sizeof(r->id), e->job_id);
	r->color = event_color(e->kind);
	r->color_col = E_EVENT;
}

static void build_events(const struct digest *d, struct frame *f)
{
	const struct event *e;
	unsigned int i;

	table_init(&f->tab[TAB_EVENTS], "Events", event_cols, E_NR, E_TIME);
	snprintf(f->tab[TAB_EVENTS].empty, sizeof(f->tab[0].empty), "%s",
		 d->from_api ? "no events (from fabteld)" :
			       "no events yet (derived from successive samples)");
	/* newest first: ties in time stay newest first */
	for (i = d->count; i-- > 0;)
		if ((e = digest_event(d, i)))
			event_row(&f->tab[TAB_EVENTS], e);
}

void panes_build(const struct digest *d, struct frame *f)
{
	f->rows = json_object_new_object();
	build_nics(d, f);
	build_jobs(f);
	build_events(d, f);
}

/* ---- a job's detail --------------------------------------------------------- */

static struct json_object *find_job(const struct frame *f, const char *id)
{
	struct json_object *jobs = fj_get(f->jobs, "jobs"), *j;
	const char *s;
	size_t i;

	for (i = 0; i < fj_len(jobs); i++) {
		j = json_object_array_get_idx(jobs, i);
		s = fj_str(j, "job_id");
		if (s && !strcmp(s, id))
			return j;
	}
	return NULL;
}

static void detail_reasons(struct table *t, struct json_object *job)
{
	struct json_object *reasons = fj_get(job, "reasons"), *o;
	const char *sev, *dev;
	char buf[32];
	long long port = -1;
	double at;
	struct row *r;
	size_t i;

	table_init(t, "Reasons", reason_cols, R_NR, R_SEVERITY);
	snprintf(t->empty, sizeof(t->empty), "healthy: no reasons");
	for (i = 0; i < fj_len(reasons); i++) {
		o = json_object_array_get_idx(reasons, i);
		r = table_add(t);
		if (!r)
			return;
		sev = fj_str(o, "severity");
		dev = fj_str(o, "device");
		row_set(r, R_REASON, "%s", fj_str(o, "reason") ? fj_str(o, "reason") : "?");
		row_num(r, R_SEVERITY, sev != NULL,
			sev && !strcmp(sev, "notice") ? -1 : verdict_rank(sev), "%s", sev ? sev : "-");
		r->color = sev && !strcmp(sev, "notice") ? RC_NONE : verdict_color(sev);
		r->color_col = R_SEVERITY;
		fj_int(o, "port", &port);
		row_set(r, R_PORT, "%s/%lld", dev ? dev : "?", port);
		int_cell(r, R_COUNT, o, "count");
		at = 0;
		fmt_clock(buf, sizeof(buf), fj_num(o, "at", &at) ? at : 0);
		row_num(r, R_AT, at > 0, at, "%s", buf);
		row_set(r, R_SHARED, "%s", fj_bool(o, "shared") == 1 ? "yes" : "no");
	}
}

static const char *qp_state_name(long long s)
{
	static const char *const n[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };

	return s >= 0 && s < 7 ? n[s] : "?";
}

static void detail_qps(struct table *t, const struct frame *f, const char *id)
{
	struct json_object *qps = fj_get(f->snapshot, "qps"), *q;
	const char *job, *comm;
	long long v = -1;
	char key[96];
	struct row *r;
	size_t i;

	table_init(t, "QPs", qp_cols, Q_NR, Q_QPN);
	snprintf(t->empty, sizeof(t->empty), "no live QPs of this job");
	for (i = 0; i < fj_len(qps); i++) {
		q = json_object_array_get_idx(qps, i);
		job = fj_str(q, "job_id");
		if (!job || strcmp(job, id) || !(r = table_add(t)))
			continue;
		int_cell(r, Q_QPN, q, "qpn");
		fj_port_key(key, sizeof(key), q);
		row_set(r, Q_PORT, "%s", key);
		v = -1;
		fj_int(q, "state", &v);
		row_num(r, Q_STATE, v >= 0, (double)v, "%s", qp_state_name(v));
		if (v == FJ_QP_STATE_ERR) {
			r->color = RC_BAD;
			r->color_col = Q_STATE;
		}
		int_cell(r, Q_DEST, q, "dest_qpn");
		int_cell(r, Q_PID, q, "pid");
		comm = fj_str(q, "comm");
		row_set(r, Q_COMM, "%s", comm && *comm ? comm : "-");
	}
}

/* the job's own events, and those of the ports it uses */
static void detail_events(struct table *t, const struct frame *f, struct json_object *job,
			  const char *id)
{
	const struct table *all = &f->tab[TAB_EVENTS];
	struct json_object *ports = fj_get(job, "ports");
	const struct row *src;
	struct row *r;
	char key[96];
	unsigned int i, c;
	size_t k;
	bool mine;

	table_init(t, "Events", event_cols, E_NR, E_TIME);
	snprintf(t->empty, sizeof(t->empty), "no events of this job or its ports");
	for (i = 0; i < all->nrows; i++) {
		src = &all->row[i];
		mine = !strcmp(src->id, id);
		for (k = 0; !mine && !src->id[0] && k < fj_len(ports); k++) {
			fj_port_key(key, sizeof(key), json_object_array_get_idx(ports, k));
			mine = !strcmp(src->cell[E_PORT], key);
		}
		if (!mine || !(r = table_add(t)))
			continue;
		for (c = 0; c < E_NR; c++) {
			row_set(r, c, "%s", src->cell[c]);
			r->key[c] = src->key[c];
		}
		r->color = src->color;
		r->color_col = src->color_col;
		snprintf(r->id, sizeof(r->id), "%s", src->id);
	}
}

bool frame_job_detail(const struct frame *f, const char *job_id, struct table *out)
{
	struct json_object *job = find_job(f, job_id);

	if (!job)
		return false;
	detail_reasons(&out[DTAB_REASONS], job);
	detail_qps(&out[DTAB_QPS], f, job_id);
	detail_events(&out[DTAB_EVENTS], f, job, job_id);
	return true;
}

void frame_detail_free(struct table *out)
{
	unsigned int i;

	for (i = 0; i < DTAB_NR; i++)
		table_free(&out[i]);
}

