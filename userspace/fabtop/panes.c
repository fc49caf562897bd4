// SPDX-License-Identifier: GPL-2.0
/*
 * panes.c - the frame's tables (see panes.h): the Jobs pane here, the
 * NICs pane in panes_nics.c, the Events pane in panes_events.c, a job's
 * detail in panes_detail.c;
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
	[J_JOB] = { "JOB", 6, 40, 100, false, false, false, false },
	[J_VERDICT] = { "VERDICT", 7, 8, 95, false, false, true, false },
	[J_QPS] = { "QPS", 4, 6, 60, true, false, true, false },
	[J_PORTS] = { "PORTS", 5, 40, 50, false, false, false, false },
	[J_KIND] = { "KIND", 4, 6, 30, false, false, false, false },
	[J_REASON] = { "REASON", 10, 80, 80, false, true, false, false },
};


/*
 * A reason in words: a notice says so first (it is context, not a cause:
 * a flap while the job was idle), a count only when there is more than
 * one, the evidence when fabteld gives it.
 */
static void reason_text(char *buf, size_t len, struct json_object *r)
{
	const char *what = fj_str(r, "reason"), *dev = fj_str(r, "device");
	const char *sev = fj_str(r, "severity"), *ev = fj_str(r, "detail");
	const char *basis = fj_str(r, "evidence");
	long long port = -1;
	uint64_t n = 0;
	char count[32] = "";

	fj_int(r, "port", &port);
	if (fj_u64(r, "count", &n) && n > 1)
		snprintf(count, sizeof(count), " x%llu", (unsigned long long)n);
	snprintf(buf, len, "%s%s %s/%lld%s%s%s%s%s", sev && !strcmp(sev, "notice") ? "notice: " : "",
		 what ? what : "?", dev ? dev : "?", port, count,
		 fj_bool(r, "shared") == 1 ? " shared" : "",
		 basis && !strcmp(basis, "qp_counter") ? " [qp counter]" : "",
		 ev ? " - " : "", ev ? ev : "");
}

/* failing red, degraded yellow, a notice uncolored */
static enum row_color severity_color(struct json_object *r)
{
	const char *sev = fj_str(r, "severity");

	return !sev ? RC_NONE : !strcmp(sev, "failing") ? RC_BAD :
	       !strcmp(sev, "degraded") ? RC_WARN : RC_NONE;
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
	r->color2 = severity_color(worst);
	r->color_col2 = J_REASON;
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

void panes_build(const struct digest *d, struct frame *f)
{
	f->rows = json_object_new_object();
	panes_build_nics(f);
	build_jobs(f);
	panes_build_events(d, f);
}
