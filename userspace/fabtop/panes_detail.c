// SPDX-License-Identifier: GPL-2.0
/*
 * panes_detail.c - a job's page (see panes.h): its reasons, its QPs and the
 * events on its ports, as tables.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "fjson.h"
#include "panes_int.h"

enum { R_REASON, R_SEVERITY, R_PORT, R_COUNT, R_AT, R_SHARED, R_EVIDENCE, R_NR };

static const struct column reason_cols[R_NR] = {
	[R_REASON] = { "REASON", 8, 24, 100, false, false, false, false },
	[R_SEVERITY] = { "SEVERITY", 8, 8, 95, false, false, true, false },
	[R_PORT] = { "PORT", 6, 24, 90, false, false, false, false },
	[R_COUNT] = { "COUNT", 5, 10, 80, true, false, true, false },
	[R_AT] = { "AT", 8, 8, 70, false, false, true, false },
	[R_SHARED] = { "SHARED", 6, 6, 40, false, false, false, false },
	[R_EVIDENCE] = { "EVIDENCE", 8, 10, 60, false, false, false, false },
};

enum { Q_QPN, Q_PORT, Q_STATE, Q_DEST, Q_PID, Q_COMM, Q_NR };

static const struct column qp_cols[Q_NR] = {
	[Q_QPN] = { "QPN", 6, 10, 100, true, false, false, false },
	[Q_PORT] = { "PORT", 6, 24, 90, false, false, false, false },
	[Q_STATE] = { "STATE", 5, 5, 95, false, false, true, false },
	[Q_DEST] = { "DESTQPN", 7, 10, 60, true, false, false, false },
	[Q_PID] = { "PID", 5, 10, 70, true, false, false, false },
	[Q_COMM] = { "COMM", 4, 16, 80, false, false, false, false },
};

enum { H_PORT, H_SERIES, H_LAST, H_GRAPH, H_NR };

static const struct column hist_cols[H_NR] = {
	[H_PORT] = { "PORT", 6, 24, 100, false, false, false, false },
	[H_SERIES] = { "SERIES", 6, 10, 90, false, false, false, false },
	[H_LAST] = { "LAST", 4, 8, 95, true, false, true, false },
	[H_GRAPH] = { "GRAPH", 10, HIST_KEEP, 80, false, true, false, true },
};

/* what a job's page graphs per port: the sum of these series */
static const struct {
	const char *name;
	unsigned int mask;
} graphs[] = {
	{ "Gb/s", 1u << HSER_RX | 1u << HSER_TX },
	{ "errors/s", 1u << HSER_OOS | 1u << HSER_NAK | 1u << HSER_ACKTO | 1u << HSER_RETRY },
	{ "CNP+ECN/s", 1u << HSER_CNP | 1u << HSER_ECN },
	{ "pause/s", 1u << HSER_PTX | 1u << HSER_PRX },
};

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

/* is reason o the job's culprit (fabteld's choice of the one cause)? */
static bool is_culprit(struct json_object *job, struct json_object *o)
{
	struct json_object *c = fj_get(job, "culprit");
	const char *a = fj_str(c, "reason"), *b = fj_str(o, "reason");
	const char *da = fj_str(c, "device"), *db = fj_str(o, "device");
	long long pa = -1, pb = -2;

	fj_int(c, "port", &pa);
	fj_int(o, "port", &pb);
	return a && b && da && db && !strcmp(a, b) && !strcmp(da, db) && pa == pb;
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
		row_set(r, R_REASON, "%s%s", fj_str(o, "reason") ? fj_str(o, "reason") : "?",
			is_culprit(job, o) ? " (culprit)" : "");
		row_num(r, R_SEVERITY, sev != NULL,
			sev && !strcmp(sev, "notice") ? -1 : verdict_rank(sev), "%s", sev ? sev : "-");
		r->color = sev && !strcmp(sev, "notice") ? RC_NONE : verdict_color(sev);
		r->color_col = R_SEVERITY;
		fj_int(o, "port", &port);
		row_set(r, R_PORT, "%s/%lld", dev ? dev : "?", port);
		if (is_culprit(job, o)) {	/* the port to look at: the whole line stands out */
			r->color2 = r->color == RC_NONE ? RC_WARN : r->color;
			r->color_col2 = R_PORT;
		}
		int_cell(r, R_COUNT, o, "count");
		at = 0;
		fmt_clock(buf, sizeof(buf), fj_num(o, "at", &at) ? at : 0);
		row_num(r, R_AT, at > 0, at, "%s", buf);
		row_set(r, R_SHARED, "%s", fj_bool(o, "shared") == 1 ? "yes" : "no");
		row_set(r, R_EVIDENCE, "%s", fj_str(o, "evidence") ? fj_str(o, "evidence") : "-");
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
		r->group = src->group;
		r->member = src->member;
		snprintf(r->id, sizeof(r->id), "%s", src->id);
	}
}

/*
 * The job's ports over the history fabtop has (up to 5 minutes): a row per
 * port and graph, the newest on the right, its newest value as LAST.
 */
static void detail_history(struct table *t, const struct frame *f, struct json_object *job)
{
	struct json_object *ports = fj_get(job, "ports");
	const struct hist_port *h;
	char key[96], spark[HIST_KEEP + 1], val[16];
	double last;
	struct row *r;
	size_t i, g;

	table_init(t, "History", hist_cols, H_NR, H_PORT);
	snprintf(t->empty, sizeof(t->empty), "no history of this job's ports yet");
	for (i = 0; i < fj_len(ports); i++) {
		fj_port_key(key, sizeof(key), json_object_array_get_idx(ports, i));
		h = hist_find(f->hist, key);
		if (!h || !h->count)
			continue;
		for (g = 0; g < sizeof(graphs) / sizeof(graphs[0]); g++) {
			if (!(r = table_add(t)))
				return;
			hist_spark(spark, h->count, h, graphs[g].mask, &last);
			fmt_rate(val, sizeof(val), last);
			row_set(r, H_PORT, "%s", key);
			row_set(r, H_SERIES, "%s", graphs[g].name);
			row_num(r, H_LAST, !isnan(last), isnan(last) ? 0 : last, "%s",
				isnan(last) ? "-" : val);
			row_set(r, H_GRAPH, "%s", spark);
		}
	}
}

bool frame_job_detail(const struct frame *f, const char *job_id, struct table *out)
{
	struct json_object *job = find_job(f, job_id);

	if (!job)
		return false;
	detail_reasons(&out[DTAB_REASONS], job);
	detail_history(&out[DTAB_HISTORY], f, job);
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
