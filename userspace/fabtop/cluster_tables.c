// SPDX-License-Identifier: GPL-2.0
/*
 * cluster_tables.c - the cluster view's frame as fabtop's tables (what the
 * console and --once draw, table.h) and as JSON (--once --json).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "cluster.h"

enum { J_JOB, J_VERDICT, J_HOSTS, J_FAILING, J_QPS, J_CULPRIT, J_NR };
static const struct column job_cols[J_NR] = {
	[J_JOB] = { "JOB", 6, 40, 9, false, true, false, false },
	[J_VERDICT] = { "VERDICT", 8, 8, 8, false, false, true, false },
	[J_HOSTS] = { "HOSTS", 5, 7, 6, true, false, true, false },
	[J_FAILING] = { "FAILING", 7, 7, 7, true, false, true, false },
	[J_QPS] = { "QPS", 5, 9, 4, true, false, true, false },
	[J_CULPRIT] = { "CULPRIT", 12, 80, 5, false, true, false, false },
};

enum { H_HOST, H_INSTANCE, H_ROLE, H_VERDICT, H_EVIDENCE, H_CULPRIT, H_NR };
static const struct column host_cols[H_NR] = {
	[H_HOST] = { "HOST", 6, 40, 9, false, true, false, false },
	[H_INSTANCE] = { "INSTANCE", 8, 40, 3, false, true, false, false },
	[H_ROLE] = { "ROLE", 8, 8, 8, false, false, true, false },
	[H_VERDICT] = { "VERDICT", 8, 8, 7, false, false, true, false },
	[H_EVIDENCE] = { "EVIDENCE", 8, 8, 7, true, false, true, false },
	[H_CULPRIT] = { "CULPRIT", 7, 7, 6, false, false, true, false },
};

enum { P_HOST, P_PORT, P_NETDEV, P_EVIDENCE, P_CULPRIT, P_NR };
static const struct column port_cols[P_NR] = {
	[P_HOST] = { "HOST", 6, 40, 9, false, true, false, false },
	[P_PORT] = { "PORT", 6, 40, 8, false, true, false, false },
	[P_NETDEV] = { "NETDEV", 6, 16, 3, false, false, false, false },
	[P_EVIDENCE] = { "EVIDENCE", 8, 8, 7, true, false, true, false },
	[P_CULPRIT] = { "CULPRIT", 7, 7, 6, false, false, true, false },
};

enum { X_FROM, X_TO, X_STATE, X_NR };
static const struct column pair_cols[X_NR] = {
	[X_FROM] = { "FROM", 10, 60, 9, false, true, false, false },
	[X_TO] = { "TO", 10, 60, 8, false, true, false, false },
	[X_STATE] = { "PROBES", 6, 6, 7, false, false, false, false },
};

static enum row_color verdict_color(int v)
{
	return v == 2 ? RC_BAD : v == 1 ? RC_WARN : v == 0 ? RC_GOOD : RC_NONE;
}

/*
 * What the cluster makes of a host: the culprit's; affected, its fabteld
 * sees the job suffer but no evidence points at it (its pairs towards the
 * culprit lose, say); healthy, neither.
 */
const char *cluster_host_role(const struct cl_host *h)
{
	if (h->culprit)
		return "culprit";
	if (h->evidence > 0 || h->verdict > 0)
		return h->evidence > 0 ? "evidence" : "affected";
	return "healthy";
}

static void num(struct row *r, unsigned int c, double v)
{
	row_num(r, c, !isnan(v), v, "%.0f", v);
}

/* "host device/port" of a port, the instance when the host has no name */
static void ref_text(char *buf, size_t len, const struct cl_port_ref *r)
{
	snprintf(buf, len, "%s %s/%s", r->host[0] ? r->host : r->instance, r->device, r->port);
}

static void job_rows(struct cl_frame *f)
{
	struct table *t = &f->tab[CL_TAB_JOBS];
	unsigned int i;
	char who[400];

	table_init(t, "Jobs", job_cols, J_NR, J_VERDICT);
	snprintf(t->empty, sizeof(t->empty),
		 "no jobs: no fabteld reports one (job_id:fabtel_verdict:max is empty)");
	for (i = 0; i < f->njobs; i++) {
		const struct cl_job *j = &f->jobs[i];
		struct row *r = table_add(t);

		if (!r)
			return;
		row_set(r, J_JOB, "%s", j->id);
		row_num(r, J_VERDICT, j->verdict >= 0, j->verdict, "%s", cluster_verdict_name(j->verdict));
		num(r, J_HOSTS, j->hosts);
		num(r, J_FAILING, j->failing);
		num(r, J_QPS, j->qps);
		if (!j->nculprits)
			snprintf(who, sizeof(who), "-");
		else if (!isnan(j->upstream) && j->upstream > 0)
			snprintf(who, sizeof(who), "common upstream (%u ports)", j->nculprits);
		else
			ref_text(who, sizeof(who), &j->culprit[0]);
		if (j->nculprits > 1 && !(j->upstream > 0))
			snprintf(who + strlen(who), sizeof(who) - strlen(who), " +%u", j->nculprits - 1);
		row_set(r, J_CULPRIT, "%s", who);
		r->color = verdict_color(j->verdict);
		r->color_col = J_VERDICT;
		r->color_col2 = -1;
		snprintf(r->id, sizeof(r->id), "%s", j->id);
	}
}

static void page_rows(struct cl_frame *f)
{
	const struct cl_page *p = f->page;
	struct table *th = &f->tab[CL_TAB_HOSTS], *tp = &f->tab[CL_TAB_PORTS];
	struct table *tx = &f->tab[CL_TAB_PAIRS];
	unsigned int i;
	struct row *r;

	table_init(th, "Hosts", host_cols, H_NR, H_EVIDENCE);
	table_init(tp, "Ports", port_cols, P_NR, P_EVIDENCE);
	table_init(tx, "Probes", pair_cols, X_NR, X_FROM);
	snprintf(th->empty, sizeof(th->empty), "no host reports job %s", p->job);
	snprintf(tp->empty, sizeof(tp->empty), "no ports (fabtel:job_port_evidence is empty)");
	snprintf(tx->empty, sizeof(tx->empty), "no probe pair between the job's hosts loses");
	for (i = 0; i < p->nhosts && (r = table_add(th)); i++) {
		row_set(r, H_HOST, "%s", p->hosts[i].host[0] ? p->hosts[i].host : "-");
		row_set(r, H_INSTANCE, "%s", p->hosts[i].instance);
		row_set(r, H_ROLE, "%s", cluster_host_role(&p->hosts[i]));
		row_num(r, H_VERDICT, p->hosts[i].verdict >= 0, p->hosts[i].verdict, "%s",
			cluster_verdict_name(p->hosts[i].verdict));
		num(r, H_EVIDENCE, p->hosts[i].evidence);
		row_num(r, H_CULPRIT, true, p->hosts[i].culprit, "%s", p->hosts[i].culprit ? "<==" : "");
		r->color = p->hosts[i].culprit ? RC_BAD : verdict_color(p->hosts[i].verdict);
		r->color_col = p->hosts[i].culprit ? -1 : H_VERDICT;
		r->color_col2 = -1;
	}
	for (i = 0; i < p->nports && (r = table_add(tp)); i++) {
		const struct cl_port *pt = &p->ports[i];

		row_set(r, P_HOST, "%s", pt->ref.host[0] ? pt->ref.host : pt->ref.instance);
		row_set(r, P_PORT, "%s/%s", pt->ref.device, pt->ref.port);
		row_set(r, P_NETDEV, "%s", pt->ref.netdev[0] ? pt->ref.netdev : "-");
		num(r, P_EVIDENCE, pt->ref.evidence);
		row_num(r, P_CULPRIT, true, pt->culprit, "%s", pt->culprit ? "<==" : "");
		r->color = pt->culprit ? RC_BAD : RC_NONE;
		r->color_col = -1;
		r->color_col2 = -1;
	}
	for (i = 0; i < p->npairs && (r = table_add(tx)); i++) {
		const struct cl_pair *x = &p->pairs[i];

		row_set(r, X_FROM, "%s %s/%s", x->host, x->device, x->port);
		row_set(r, X_TO, "%s %s/%s", x->peer_host, x->peer_device, x->peer_port);
		row_set(r, X_STATE, "LOSING");
		r->color = RC_BAD;
		r->color_col = X_STATE;
		r->color_col2 = -1;
	}
}

void cluster_tables(struct cl_frame *f)
{
	job_rows(f);
	if (f->page)
		page_rows(f);
}

/*
 * A history as the host view draws its sparklines (hist_spark): the newest
 * width points, oldest left, '_' nothing, ".,:-=+*#@" up to top (the
 * window's highest when top <= 0), ' ' no point.
 */
static void spark(char *buf, size_t width, const double *h, double fixed)
{
	static const char ramp[] = ".,:-=+*#@";
	size_t i, n = width < CL_HIST ? width : CL_HIST;
	const double *v = h + CL_HIST - n;
	double top = fixed > 0 ? fixed : 0;
	int k;

	for (i = 0; fixed <= 0 && i < n; i++)
		if (v[i] > top)		/* false for NAN */
			top = v[i];
	for (i = 0; i < n; i++) {
		if (isnan(v[i])) {
			buf[i] = ' ';
		} else if (v[i] <= 0 || top <= 0) {
			buf[i] = '_';
		} else {
			k = (int)ceil(fmin(v[i] / top, 1) * 9) - 1;	/* fmin: NAN of inf/inf is 1 */
			buf[i] = ramp[k < 0 ? 0 : k];
		}
	}
	buf[n] = '\0';
}

void cluster_history_line(const struct cl_page *p, bool verdict, char *buf, size_t width)
{
	const double *h = verdict ? p->hist_verdict : p->hist_failing;
	char line[CL_HIST + 64], marks[CL_HIST + 1], now[16] = "-";
	int i;

	for (i = CL_HIST - 1; i >= 0 && isnan(h[i]); i--)
		;
	if (i >= 0 && verdict)
		snprintf(now, sizeof(now), "%s", cluster_verdict_name(h[i] == 0 || h[i] == 1 ||
								       h[i] == 2 ? (int)h[i] : -1));
	else if (i >= 0)
		snprintf(now, sizeof(now), "%.0f", h[i]);
	/* "LABEL (22) MARKS NOW (8)": the marks take what the width leaves */
	spark(marks, width > 34 ? width - 33 : 1, h, verdict ? 2 : 0);
	snprintf(line, sizeof(line), "%-22s %s %s", verdict ? "verdict (15 min)" :
		 "failing hosts (15 min)", marks, now);
	snprintf(buf, width + 1, "%s", line);
}

static struct json_object *num_or_null(double v)
{
	return isnan(v) ? NULL : json_object_new_double(v);
}

static struct json_object *ref_json(const struct cl_port_ref *r)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "instance", json_object_new_string(r->instance));
	json_object_object_add(o, "host", json_object_new_string(r->host));
	json_object_object_add(o, "device", json_object_new_string(r->device));
	json_object_object_add(o, "port", json_object_new_string(r->port));
	if (r->netdev[0])
		json_object_object_add(o, "netdev", json_object_new_string(r->netdev));
	json_object_object_add(o, "evidence", num_or_null(r->evidence));
	return o;
}

static struct json_object *job_json(const struct cl_job *j)
{
	struct json_object *o = json_object_new_object(), *c = json_object_new_array();
	unsigned int i;

	json_object_object_add(o, "job_id", json_object_new_string(j->id));
	json_object_object_add(o, "verdict", json_object_new_string(cluster_verdict_name(j->verdict)));
	json_object_object_add(o, "hosts", num_or_null(j->hosts));
	json_object_object_add(o, "failing", num_or_null(j->failing));
	json_object_object_add(o, "qps", num_or_null(j->qps));
	json_object_object_add(o, "common_upstream", num_or_null(j->upstream));
	for (i = 0; i < j->nculprits && i < CL_MAX_CULPRITS; i++)
		json_object_array_add(c, ref_json(&j->culprit[i]));
	json_object_object_add(o, "culprits", c);
	json_object_object_add(o, "culprits_total", json_object_new_int((int)j->nculprits));
	return o;
}

static struct json_object *hist_json(const double *h)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < CL_HIST; i++)
		json_object_array_add(a, num_or_null(h[i]));
	return a;
}

static struct json_object *page_json(const struct cl_page *p)
{
	struct json_object *o = json_object_new_object(), *a;
	unsigned int i;

	json_object_object_add(o, "job_id", json_object_new_string(p->job));
	a = json_object_new_array();
	for (i = 0; i < p->nhosts; i++) {
		struct json_object *h = json_object_new_object();

		json_object_object_add(h, "instance", json_object_new_string(p->hosts[i].instance));
		json_object_object_add(h, "host", json_object_new_string(p->hosts[i].host));
		json_object_object_add(h, "verdict", json_object_new_string(
			cluster_verdict_name(p->hosts[i].verdict)));
		json_object_object_add(h, "evidence", num_or_null(p->hosts[i].evidence));
		json_object_object_add(h, "culprit", json_object_new_boolean(p->hosts[i].culprit));
		json_object_object_add(h, "role", json_object_new_string(cluster_host_role(&p->hosts[i])));
		json_object_array_add(a, h);
	}
	json_object_object_add(o, "hosts", a);
	a = json_object_new_array();
	for (i = 0; i < p->nports; i++) {
		struct json_object *r = ref_json(&p->ports[i].ref);

		json_object_object_add(r, "culprit", json_object_new_boolean(p->ports[i].culprit));
		json_object_array_add(a, r);
	}
	json_object_object_add(o, "ports", a);
	a = json_object_new_array();
	for (i = 0; i < p->npairs; i++) {
		const struct cl_pair *x = &p->pairs[i];
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "host", json_object_new_string(x->host));
		json_object_object_add(r, "device", json_object_new_string(x->device));
		json_object_object_add(r, "port", json_object_new_string(x->port));
		json_object_object_add(r, "peer_host", json_object_new_string(x->peer_host));
		json_object_object_add(r, "peer_device", json_object_new_string(x->peer_device));
		json_object_object_add(r, "peer_port", json_object_new_string(x->peer_port));
		json_object_array_add(a, r);
	}
	json_object_object_add(o, "pairs", a);
	json_object_object_add(o, "pairs_capped", json_object_new_boolean(p->pairs_capped));
	json_object_object_add(o, "pairs_total", json_object_new_int((int)p->pairs_total));
	json_object_object_add(o, "history_failing", hist_json(p->hist_failing));
	json_object_object_add(o, "history_verdict", hist_json(p->hist_verdict));
	return o;
}

struct json_object *cluster_json(const struct cl_frame *f, const char *url)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	unsigned int i;

	json_object_object_add(o, "prometheus", json_object_new_string(url));
	json_object_object_add(o, "time", json_object_new_double(f->at));
	json_object_object_add(o, "queries", json_object_new_int((int)f->queries));
	json_object_object_add(o, "query_ms", json_object_new_double(round(f->query_ms * 10) / 10));
	for (i = 0; i < f->njobs; i++)
		json_object_array_add(a, job_json(&f->jobs[i]));
	json_object_object_add(o, "jobs", a);
	json_object_object_add(o, "jobs_capped", json_object_new_boolean(f->jobs_capped));
	json_object_object_add(o, "job", f->page ? page_json(f->page) : NULL);
	return o;
}
