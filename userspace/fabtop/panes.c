// SPDX-License-Identifier: GPL-2.0
/*
 * panes.c - the frame's tables (see panes.h): the Jobs and Events panes
 * here, the NICs pane in panes_nics.c, a job's detail in panes_detail.c;
 * what each cell says, its sort key and its color.  Unknown is "-", never 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "fjson.h"
#include "panes_int.h"

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

const struct column event_cols[E_NR] = {
	[E_TIME] = { "TIME", 8, 8, 100, false, false, true },
	[E_EVENT] = { "EVENT", 9, 16, 95, false, false, false },
	[E_PORT] = { "PORT", 6, 24, 90, false, false, false },
	[E_DETAIL] = { "DETAIL", 8, 60, 70, false, true, false },
	[E_JOB] = { "JOB", 3, 40, 60, false, false, false },
};

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
	panes_build_nics(d, f);
	build_jobs(f);
	build_events(d, f);
}
