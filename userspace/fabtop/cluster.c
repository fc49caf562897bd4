// SPDX-License-Identifier: GPL-2.0
/*
 * cluster.c - one refresh of the cluster view: the queries, and the jobs
 * and a job's page built from their answers (cluster.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "cluster.h"

#define HIST_STEP_S	15.0

/* The jobs list: aggregated by job_id, or the culprits (a few per job). */
static const char *const list_queries[6] = {
	"job_id:fabtel_verdict:max",
	"job_id:fabtel_hosts:count",
	"job_id:fabtel_hosts_failing:count",
	"job_id:fabtel_qps:sum",
	"(fabtel:job_port_culprit * on (instance) group_left (host) fabtel:instance_host)"
	" or on (job_id, instance, device, port) fabtel:job_port_culprit",
	"job_id:fabtel_common_upstream:count",
};

static void copy(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s);
}

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct cl_job *)a)->id, ((const struct cl_job *)b)->id);
}

/* Worst first: verdict, then failing hosts, then the id. */
static int by_severity(const void *a, const void *b)
{
	const struct cl_job *x = a, *y = b;
	double fx = isnan(x->failing) ? 0 : x->failing, fy = isnan(y->failing) ? 0 : y->failing;

	if (x->verdict != y->verdict)
		return y->verdict - x->verdict;
	if (fx != fy)
		return fx < fy ? 1 : -1;
	return strcmp(x->id, y->id);
}

static int by_ref(const void *a, const void *b)
{
	const struct cl_port_ref *x = a, *y = b;
	int c = strcmp(x->instance, y->instance);

	return c ? c : strcmp(x->device, y->device) ? strcmp(x->device, y->device) :
	       strcmp(x->port, y->port);
}

static struct cl_job *find_job(struct cl_frame *f, const char *id)
{
	struct cl_job key;

	copy(key.id, sizeof(key.id), id);
	return bsearch(&key, f->jobs, f->njobs, sizeof(*f->jobs), by_id);
}

/* A verdict's code (0 healthy, 1 degraded, 2 failing), -1 for anything else */
static int verdict_of(double v)
{
	return v == 0 || v == 1 || v == 2 ? (int)v : -1;
}

static void ref_from(struct cl_port_ref *r, struct json_object *s)
{
	copy(r->instance, sizeof(r->instance), promq_label(s, "instance"));
	copy(r->host, sizeof(r->host), promq_label(s, "host"));
	copy(r->device, sizeof(r->device), promq_label(s, "device"));
	copy(r->port, sizeof(r->port), promq_label(s, "port"));
	r->evidence = promq_value(s);
}

/* res: the answers to list_queries, in order.  0, or -1 out of memory. */
int cluster_jobs_from(struct cl_frame *f, struct json_object *const res[6])
{
	size_t n = json_object_array_length(res[0]), i, k;
	double *field[4];
	struct cl_job *j;

	f->jobs = calloc(n ? n : 1, sizeof(*f->jobs));
	if (!f->jobs)
		return -1;
	for (i = 0; i < n && f->njobs < CL_MAX_JOBS; i++) {
		struct json_object *s = json_object_array_get_idx(res[0], i);
		double v = promq_value(s);

		j = &f->jobs[f->njobs++];
		copy(j->id, sizeof(j->id), promq_label(s, "job_id"));
		j->verdict = verdict_of(v);
		j->hosts = j->failing = j->qps = j->upstream = NAN;
	}
	f->jobs_capped = n > CL_MAX_JOBS;
	qsort(f->jobs, f->njobs, sizeof(*f->jobs), by_id);
	for (k = 1; k < 6; k++) {
		for (i = 0; i < json_object_array_length(res[k]); i++) {
			struct json_object *s = json_object_array_get_idx(res[k], i);

			j = find_job(f, promq_label(s, "job_id"));
			if (!j)
				continue;	/* a job that came or went between two queries */
			if (k == 4) {
				if (j->nculprits < CL_MAX_CULPRITS)
					ref_from(&j->culprit[j->nculprits], s);
				j->nculprits++;
				continue;
			}
			field[0] = &j->hosts;
			field[1] = &j->failing;
			field[2] = &j->qps;
			field[3] = &j->upstream;
			*field[k == 5 ? 3 : k - 1] = promq_value(s);
		}
	}
	for (i = 0; i < f->njobs; i++) {
		j = &f->jobs[i];
		qsort(j->culprit, j->nculprits < CL_MAX_CULPRITS ? j->nculprits : CL_MAX_CULPRITS,
		      sizeof(*j->culprit), by_ref);
	}
	qsort(f->jobs, f->njobs, sizeof(*f->jobs), by_severity);
	return 0;
}

static int by_instance(const void *a, const void *b)
{
	return strcmp(((const struct cl_host *)a)->instance, ((const struct cl_host *)b)->instance);
}

static struct cl_host *find_host(struct cl_page *p, const char *instance)
{
	struct cl_host key;

	copy(key.instance, sizeof(key.instance), instance);
	return bsearch(&key, p->hosts, p->nhosts, sizeof(*p->hosts), by_instance);
}

static int by_port(const void *a, const void *b)
{
	return by_ref(&((const struct cl_port *)a)->ref, &((const struct cl_port *)b)->ref);
}

/* The port of the page with these labels, or NULL (ports sorted by by_port). */
static struct cl_port *find_port(struct cl_page *p, struct json_object *s)
{
	struct cl_port key;

	copy(key.ref.instance, sizeof(key.ref.instance), promq_label(s, "instance"));
	copy(key.ref.device, sizeof(key.ref.device), promq_label(s, "device"));
	copy(key.ref.port, sizeof(key.ref.port), promq_label(s, "port"));
	return bsearch(&key, p->ports, p->nports, sizeof(*p->ports), by_port);
}

/* Each port's netdev, culprit mark and host name; each host's evidence. */
static void port_extras(struct cl_page *p, struct json_object *netdevs,
			struct json_object *culprits)
{
	struct cl_port *pt;
	struct cl_host *h;
	unsigned int i;
	size_t k;

	qsort(p->ports, p->nports, sizeof(*p->ports), by_port);
	for (k = 0; k < json_object_array_length(netdevs); k++) {
		pt = find_port(p, json_object_array_get_idx(netdevs, k));
		if (pt)
			copy(pt->ref.netdev, sizeof(pt->ref.netdev),
			     promq_label(json_object_array_get_idx(netdevs, k), "netdev"));
	}
	for (k = 0; k < json_object_array_length(culprits); k++) {
		pt = find_port(p, json_object_array_get_idx(culprits, k));
		if (pt)
			pt->culprit = true;
	}
	for (i = 0; i < p->nports; i++) {
		pt = &p->ports[i];
		h = find_host(p, pt->ref.instance);
		if (!h)
			continue;
		copy(pt->ref.host, sizeof(pt->ref.host), h->host);
		if (isnan(h->evidence) || pt->ref.evidence > h->evidence)
			h->evidence = pt->ref.evidence;
		h->culprit |= pt->culprit;
	}
}

/* A job's hosts and ports from their answers.  0, or -1 out of memory. */
int cluster_page_from(struct cl_page *p, struct json_object *hosts, struct json_object *ports,
		      struct json_object *netdevs, struct json_object *culprits)
{
	size_t nh = json_object_array_length(hosts), np = json_object_array_length(ports), i;

	p->hosts = calloc(nh ? nh : 1, sizeof(*p->hosts));
	p->ports = calloc(np ? np : 1, sizeof(*p->ports));
	if (!p->hosts || !p->ports)
		return -1;
	for (i = 0; i < nh; i++) {
		struct json_object *s = json_object_array_get_idx(hosts, i);
		struct cl_host *h = &p->hosts[p->nhosts++];
		double v = promq_value(s);

		copy(h->instance, sizeof(h->instance), promq_label(s, "instance"));
		copy(h->host, sizeof(h->host), promq_label(s, "host"));
		h->verdict = verdict_of(v);
		h->evidence = NAN;
	}
	qsort(p->hosts, p->nhosts, sizeof(*p->hosts), by_instance);
	/* one row a host: the answer's "or" cannot hold two of one instance,
	 * but Prometheus is not this code's to trust */
	for (i = 1, nh = p->nhosts ? 1 : 0; i < p->nhosts; i++)
		if (strcmp(p->hosts[i].instance, p->hosts[nh - 1].instance))
			p->hosts[nh++] = p->hosts[i];
	p->nhosts = (unsigned int)nh;
	for (i = 0; i < np; i++)
		ref_from(&p->ports[p->nports++].ref, json_object_array_get_idx(ports, i));
	port_extras(p, netdevs, culprits);
	return 0;
}

/*
 * s as the inside of a PromQL string: " and \ escaped, control characters
 * as \xHH (dst: 4 bytes a character, then the NUL).
 */
static void promql_str(char *dst, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s && o + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(dst + o, len - o, "\\x%02x", c);
		else if (c == '"' || c == '\\')
			dst[o++] = '\\', dst[o++] = (char)c;
		else
			dst[o++] = (char)c;
	}
	dst[o] = '\0';
}

/*
 * One host name as a literal of a regex inside a PromQL string: ASCII
 * punctuation escaped for the regex (\.), that backslash and any " or \
 * escaped again for the string; at most 4 bytes a character.
 */
static size_t regex_literal(char *dst, const char *host)
{
	size_t o = 0;

	for (; *host; host++) {
		unsigned char c = (unsigned char)*host;

		if (c < 0x20 || c == 0x7f) {
			o += (size_t)sprintf(dst + o, "\\x%02x", c);
			continue;
		}
		if (c < 0x80 && !isalnum(c) && c != '_') {
			dst[o++] = '\\';	/* the string's backslash, */
			dst[o++] = '\\';	/* then the regex's */
			if (c == '"' || c == '\\')
				dst[o++] = '\\';
		}
		dst[o++] = (char)c;
	}
	return o;
}

/* The job's host names as a regex alternation; NULL when none has a name */
static char *hosts_regex(const struct cl_page *p)
{
	size_t cap = 1, o = 0;
	unsigned int i;
	char *r;

	for (i = 0; i < p->nhosts; i++)
		cap += 4 * strlen(p->hosts[i].host) + 1;
	r = malloc(cap);
	if (!r)
		return NULL;
	for (i = 0; i < p->nhosts; i++) {
		if (!p->hosts[i].host[0])
			continue;
		if (o)
			r[o++] = '|';
		o += regex_literal(r + o, p->hosts[i].host);
	}
	r[o] = '\0';
	return o ? r : (free(r), NULL);
}

char *cluster_pairs_query(const struct cl_page *p, bool count)
{
	char *re = hosts_regex(p), *expr;
	size_t n;

	if (!re)
		return NULL;
	n = 2 * strlen(re) + 128;
	expr = malloc(n);
	if (expr && count)
		snprintf(expr, n, "count(fabtel:probe_pair_bad{host=~\"%s\",peer_host=~\"%s\"} == 1)",
			 re, re);
	else if (expr)
		snprintf(expr, n, "topk(%d, fabtel:probe_pair_bad{host=~\"%s\",peer_host=~\"%s\"} == 1)",
			 CL_MAX_PAIRS, re, re);
	free(re);
	return expr;
}

int cluster_pairs_from(struct cl_page *p, struct json_object *res)
{
	size_t n = json_object_array_length(res), i;

	p->pairs = calloc(n ? n : 1, sizeof(*p->pairs));
	if (!p->pairs)
		return -1;
	for (i = 0; i < n && i < CL_MAX_PAIRS; i++) {
		struct json_object *s = json_object_array_get_idx(res, i);
		struct cl_pair *x = &p->pairs[p->npairs++];

		copy(x->host, sizeof(x->host), promq_label(s, "host"));
		copy(x->device, sizeof(x->device), promq_label(s, "device"));
		copy(x->port, sizeof(x->port), promq_label(s, "port"));
		copy(x->peer_host, sizeof(x->peer_host), promq_label(s, "peer_host"));
		copy(x->peer_device, sizeof(x->peer_device), promq_label(s, "peer_device"));
		copy(x->peer_port, sizeof(x->peer_port), promq_label(s, "peer_port"));
	}
	p->pairs_total = (unsigned int)n;
	p->pairs_capped = n >= CL_MAX_PAIRS;
	return 0;
}

/* The losing pairs; when as many as the cap came, one query more counts them. */
static int page_pairs(struct promq *q, struct cl_page *p)
{
	char *expr = cluster_pairs_query(p, false);
	struct json_object *res;
	double total;
	int rc;

	if (!expr)
		return 0;	/* no host names (fabteld without them): no matrix */
	res = promq_instant(q, expr);
	free(expr);
	if (!res)
		return -1;
	rc = cluster_pairs_from(p, res);
	json_object_put(res);
	if (rc) {
		snprintf(q->error, sizeof(q->error), "out of memory");
		return -1;
	}
	if (!p->pairs_capped)
		return 0;
	expr = cluster_pairs_query(p, true);
	res = expr ? promq_instant(q, expr) : NULL;
	free(expr);
	if (!res)
		return -1;
	total = json_object_array_length(res) ? promq_value(json_object_array_get_idx(res, 0)) : NAN;
	if (total >= p->npairs && total < 1e9)
		p->pairs_total = (unsigned int)total;
	p->pairs_capped = p->pairs_total > p->npairs;
	json_object_put(res);
	return 0;
}

static int page_history(struct promq *q, struct cl_page *p, const char *id, double now)
{
	struct json_object *res;
	char expr[1400];
	size_t s, i, n;
	double t, end = now, start = end - (CL_HIST - 1) * HIST_STEP_S;

	for (i = 0; i < CL_HIST; i++)
		p->hist_failing[i] = p->hist_verdict[i] = NAN;
	/* one query for both; "or" matches label sets without the metric name,
	 * so each side is told apart by a label of its own */
	snprintf(expr, sizeof(expr),
		 "label_replace(job_id:fabtel_hosts_failing:count{job_id=\"%s\"}, \"series\", \"failing\", \"\", \"\")"
		 " or label_replace(job_id:fabtel_verdict:max{job_id=\"%s\"}, \"series\", \"verdict\", \"\", \"\")",
		 id, id);
	res = promq_range(q, expr, start, end, HIST_STEP_S);
	if (!res)
		return -1;
	for (s = 0; s < json_object_array_length(res); s++) {
		struct json_object *ser = json_object_array_get_idx(res, s);
		const char *which = promq_label(ser, "series");
		double *h = !strcmp(which, "verdict") ? p->hist_verdict :
			    !strcmp(which, "failing") ? p->hist_failing : NULL;

		n = h ? promq_points(ser) : 0;
		for (i = 0; i < n; i++) {
			double v = promq_point(ser, i, &t), k = round((t - start) / HIST_STEP_S);

			if (k >= 0 && k < CL_HIST)	/* false for NAN */
				h[(int)k] = v;
		}
	}
	json_object_put(res);
	return 0;
}

static struct cl_page *fetch_page(struct promq *q, const char *job, double now)
{
	struct json_object *res[4] = { NULL };
	struct cl_page *p = calloc(1, sizeof(*p));
	char id[CL_NAME_LEN * 4 + 1], expr[4][1400];
	int i, ok = 0;

	if (!p)
		return NULL;
	copy(p->job, sizeof(p->job), job);
	promql_str(id, sizeof(id), job);
	snprintf(expr[0], sizeof(expr[0]),
		 "(fabtel_job_verdict{job_id=\"%s\"} * on (instance) group_left (host)"
		 " fabtel:job_host{job_id=\"%s\"}) or on (instance) fabtel_job_verdict{job_id=\"%s\"}",
		 id, id, id);
	snprintf(expr[1], sizeof(expr[1]), "fabtel:job_port_evidence{job_id=\"%s\"}", id);
	snprintf(expr[2], sizeof(expr[2]),
		 "max by (instance, device, port, netdev) (fabtel_job_port{job_id=\"%s\"})", id);
	snprintf(expr[3], sizeof(expr[3]), "fabtel:job_port_culprit{job_id=\"%s\"}", id);
	for (i = 0; i < 4; i++)
		if (!(res[i] = promq_instant(q, expr[i])))
			goto put;
	if (cluster_page_from(p, res[0], res[1], res[2], res[3])) {
		snprintf(q->error, sizeof(q->error), "out of memory");
		goto put;
	}
	if (page_history(q, p, id, now) || page_pairs(q, p))
		goto put;
	ok = 1;
put:
	for (i = 0; i < 4; i++)
		json_object_put(res[i]);
	if (!ok) {
		free(p->hosts);
		free(p->ports);
		free(p->pairs);
		free(p);
		return NULL;
	}
	return p;
}

struct cl_frame *cluster_fetch(struct promq *q, const char *job)
{
	struct json_object *res[6] = { NULL };
	struct cl_frame *f = calloc(1, sizeof(*f));
	struct timespec ts;
	int i, ok = 0;

	if (!f) {
		snprintf(q->error, sizeof(q->error), "out of memory");
		return NULL;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	f->at = ts.tv_sec + ts.tv_nsec / 1e9;
	promq_reset_count(q);
	for (i = 0; i < 6; i++)
		if (!(res[i] = promq_instant(q, list_queries[i])))
			goto put;
	if (cluster_jobs_from(f, res)) {
		snprintf(q->error, sizeof(q->error), "out of memory");
		goto put;
	}
	if (job && !(f->page = fetch_page(q, job, f->at)))
		goto put;
	f->queries = q->queries;
	f->query_ms = q->ms;
	cluster_tables(f);
	ok = 1;
put:
	for (i = 0; i < 6; i++)
		json_object_put(res[i]);
	if (!ok) {
		cluster_frame_free(f);
		return NULL;
	}
	return f;
}

void cluster_frame_free(struct cl_frame *f)
{
	int i;

	if (!f)
		return;
	if (f->page) {
		free(f->page->hosts);
		free(f->page->ports);
		free(f->page->pairs);
		free(f->page);
	}
	for (i = 0; i < CL_TAB_NR; i++)
		if (f->tab[i].name)
			table_free(&f->tab[i]);
	free(f->jobs);
	free(f);
}

const char *cluster_verdict_name(int v)
{
	static const char *const names[] = { "healthy", "degraded", "failing" };

	return v >= 0 && v <= 2 ? names[v] : "unknown";
}
