// SPDX-License-Identifier: GPL-2.0
/*
 * test_cluster.c - fabtop's cluster view built from canned Prometheus
 * answers (no HTTP): jobs by severity, culprits and their ties, a common
 * upstream, missing labels and values that are not numbers, a job's page
 * (hosts, ports, netdevs, culprit marks, each host's most evidence), the
 * tables and JSON drawn from them; whole API answers parsed (errors, types
 * not asked for, JSON nulls, bodies that are not JSON, bad points), the
 * probe pairs' query for any host name, the pairs' cap.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "cluster.h"

/* A vector answer's result: "label=value,...|value;..." */
static struct json_object *vec(const char *spec)
{
	struct json_object *a = json_object_new_array();
	char *dup = strdup(spec), *save = NULL, *s;

	for (s = strtok_r(dup, ";", &save); s; s = strtok_r(NULL, ";", &save)) {
		struct json_object *o = json_object_new_object(), *m = json_object_new_object();
		struct json_object *v = json_object_new_array();
		char *bar = strchr(s, '|'), *save2 = NULL, *kv;

		*bar = '\0';
		for (kv = strtok_r(s, ",", &save2); kv; kv = strtok_r(NULL, ",", &save2)) {
			char *eq = strchr(kv, '=');

			*eq = '\0';
			json_object_object_add(m, kv, json_object_new_string(eq + 1));
		}
		json_object_array_add(v, json_object_new_double(1.7e9));
		json_object_array_add(v, json_object_new_string(bar + 1));
		json_object_object_add(o, "metric", m);
		json_object_object_add(o, "value", v);
		json_object_array_add(a, o);
	}
	free(dup);
	return a;
}

static struct cl_frame *jobs(const char *const spec[6])
{
	struct json_object *res[6];
	struct cl_frame *f = calloc(1, sizeof(*f));
	int i;

	for (i = 0; i < 6; i++)
		res[i] = vec(spec[i]);
	assert_int_equal(cluster_jobs_from(f, res), 0);
	for (i = 0; i < 6; i++)
		json_object_put(res[i]);
	cluster_tables(f);
	return f;
}

static void test_severity_and_ties(void **state)
{
	static const char *const spec[6] = {
		"job_id=a|0;job_id=b|2;job_id=c|2;job_id=d|1",
		"job_id=a|4;job_id=b|3;job_id=c|8",
		"job_id=b|1;job_id=c|2;job_id=a|0",
		"job_id=c|64",
		/* b: a tie of two; c: one; a culprit of a job not in the list */
		"job_id=b,instance=h2:9465,host=h2,device=mlx5_1,port=1|2;"
		"job_id=b,instance=h1:9465,host=h1,device=mlx5_0,port=1|2;"
		"job_id=c,instance=h9:9465,device=mlx5_3,port=1|12;"
		"job_id=zz,instance=h7:9465,device=mlx5_0,port=1|8",
		"job_id=b|0;job_id=c|0",
	};
	struct cl_frame *f = jobs(spec);
	struct json_object *j;

	(void)state;
	assert_int_equal(f->njobs, 4);
	/* failing first, more failing hosts first; then degraded; then healthy */
	assert_string_equal(f->jobs[0].id, "c");
	assert_string_equal(f->jobs[1].id, "b");
	assert_string_equal(f->jobs[2].id, "d");
	assert_string_equal(f->jobs[3].id, "a");
	/* d has no hosts answer: unknown, not 0 */
	assert_true(isnan(f->jobs[2].hosts));
	/* the tie, ordered by instance; the host name missing: the instance shown */
	assert_int_equal(f->jobs[1].nculprits, 2);
	assert_string_equal(f->jobs[1].culprit[0].instance, "h1:9465");
	assert_string_equal(f->tab[CL_TAB_JOBS].row[1].cell[5], "h1 mlx5_0/1 +1");
	assert_string_equal(f->tab[CL_TAB_JOBS].row[0].cell[5], "h9:9465 mlx5_3/1");
	assert_string_equal(f->tab[CL_TAB_JOBS].row[2].cell[5], "-");
	assert_string_equal(f->tab[CL_TAB_JOBS].row[2].cell[2], "-");
	j = cluster_json(f, "http://p:9090");
	assert_string_equal(json_object_to_json_string(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(j, "jobs"), 2), "hosts")), "null");
	json_object_put(j);
	cluster_frame_free(f);
}

static void test_common_upstream_and_junk(void **state)
{
	static const char *const spec[6] = {
		"job_id=x|2;job_id=y|NaN;job_id=z|garbage",
		"job_id=x|6",
		"job_id=x|2",
		"",
		"job_id=x,instance=h1:9465,host=h1,device=mlx5_0,port=1|8;"
		"job_id=x,instance=h2:9465,host=h2,device=mlx5_0,port=1|8",
		"job_id=x|2",
	};
	struct cl_frame *f = jobs(spec);

	(void)state;
	assert_int_equal(f->njobs, 3);
	assert_string_equal(f->jobs[0].id, "x");
	assert_string_equal(f->tab[CL_TAB_JOBS].row[0].cell[5], "common upstream (2 ports)");
	/* a verdict that is not a number: unknown, listed last */
	assert_int_equal(f->jobs[1].verdict, -1);
	assert_int_equal(f->jobs[2].verdict, -1);
	assert_string_equal(f->tab[CL_TAB_JOBS].row[1].cell[1], "-");
	cluster_frame_free(f);
}

static void test_page(void **state)
{
	struct json_object *hosts = vec("instance=h2:9465,host=h2|2;instance=h1:9465,host=h1|1;"
					"instance=h3:9465,host=h3|0;instance=h1:9465|1");
	struct json_object *ports = vec("job_id=j,instance=h1:9465,device=mlx5_0,port=1|0;"
					"job_id=j,instance=h2:9465,device=mlx5_0,port=1|12;"
					"job_id=j,instance=h2:9465,device=mlx5_1,port=1|4;"
					"job_id=j,instance=h3:9465,device=mlx5_0,port=1|0");
	struct json_object *netdevs = vec("instance=h2:9465,device=mlx5_0,port=1,netdev=eth2|1;"
					  "instance=h9:9465,device=mlx5_0,port=1,netdev=eth7|1");
	struct json_object *culprits = vec("job_id=j,instance=h2:9465,device=mlx5_0,port=1|12");
	struct cl_frame *f = calloc(1, sizeof(*f));
	struct cl_page *p = calloc(1, sizeof(*p));
	unsigned int i;

	(void)state;
	f->page = p;
	assert_int_equal(cluster_page_from(p, hosts, ports, netdevs, culprits), 0);
	/* h1 twice (with and without its name): one row */
	assert_int_equal(p->nhosts, 3);
	assert_string_equal(p->hosts[0].instance, "h1:9465");
	assert_string_equal(p->hosts[1].host, "h2");
	assert_true(p->hosts[1].culprit);
	assert_true(p->hosts[1].evidence == 12);
	assert_string_equal(cluster_host_role(&p->hosts[1]), "culprit");
	assert_string_equal(cluster_host_role(&p->hosts[0]), "affected");
	assert_string_equal(cluster_host_role(&p->hosts[2]), "healthy");
	for (i = 0; i < p->nports; i++) {
		const struct cl_port *pt = &p->ports[i];

		assert_true(pt->culprit == (!strcmp(pt->ref.instance, "h2:9465") &&
					    !strcmp(pt->ref.device, "mlx5_0")));
		assert_string_equal(pt->ref.netdev, pt->culprit ? "eth2" : "");
		assert_string_equal(pt->ref.host, pt->ref.instance[1] == '1' ? "h1" :
				    pt->ref.instance[1] == '2' ? "h2" : "h3");
	}
	for (i = 0; i < CL_HIST; i++)
		p->hist_failing[i] = p->hist_verdict[i] = NAN;
	cluster_tables(f);
	assert_int_equal(f->tab[CL_TAB_HOSTS].nrows, 3);
	assert_int_equal(f->tab[CL_TAB_PORTS].nrows, 4);
	assert_string_equal(f->tab[CL_TAB_PAIRS].empty, "no probe pair between the job's hosts loses");
	json_object_put(hosts);
	json_object_put(ports);
	json_object_put(netdevs);
	json_object_put(culprits);
	cluster_frame_free(f);
}

static const struct promq_opts popts = { .url = "http://p:9090" };

/* body, HTTP status, wanted type: the result's length, or -1 and the error */
static int parsed(struct promq *q, const char *body, long code, const char *want)
{
	struct json_object *r;
	int n;

	memset(q, 0, sizeof(*q));
	q->o = &popts;
	r = promq_parse(q, body, code, want);
	n = r ? (int)json_object_array_length(r) : -1;
	json_object_put(r);
	return n;
}

static void test_answers(void **state)
{
	struct promq q;

	(void)state;
	assert_int_equal(parsed(&q, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
				"\"result\":[{\"metric\":{},\"value\":[1,\"NaN\"]}]}}", 200, "vector"), 1);
	/* Prometheus's own error: errorType and error said */
	assert_int_equal(parsed(&q, "{\"status\":\"error\",\"errorType\":\"bad_data\","
				"\"error\":\"1:5: parse error\"}", 400, "vector"), -1);
	assert_string_equal(q.error, "prometheus at http://p:9090: HTTP 400, bad_data: 1:5: parse error");
	/* a matrix where a vector was asked for */
	assert_int_equal(parsed(&q, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
				"\"result\":[]}}", 200, "vector"), -1);
	assert_string_equal(q.error, "prometheus at http://p:9090: a matrix where a vector was asked for");
	/* nulls where strings belong, a result that is not an array */
	assert_int_equal(parsed(&q, "{\"status\":null}", 200, "vector"), -1);
	assert_string_equal(q.error, "prometheus at http://p:9090: HTTP 200, error: no reason given");
	assert_int_equal(parsed(&q, "{\"status\":\"error\",\"errorType\":null,\"error\":7}", 503,
				"vector"), -1);
	assert_string_equal(q.error, "prometheus at http://p:9090: HTTP 503, error: no reason given");
	assert_int_equal(parsed(&q, "{\"status\":\"success\",\"data\":{\"resultType\":null,"
				"\"result\":[]}}", 200, "vector"), -1);
	assert_non_null(strstr(q.error, "without data.resultType"));
	assert_int_equal(parsed(&q, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
				"\"result\":{}}}", 200, "vector"), -1);
	/* not JSON: a proxy's error page, nothing, a JSON array */
	assert_int_equal(parsed(&q, "<html>502 Bad Gateway</html>\n<body>", 502, "vector"), -1);
	assert_non_null(strstr(q.error, "HTTP 502, not a JSON object ("));
	assert_non_null(strstr(q.error, ": \"<html>502 Bad Gateway</html>\""));
	assert_int_equal(parsed(&q, NULL, 200, "vector"), -1);
	assert_non_null(strstr(q.error, "HTTP 200, not a JSON object"));
	assert_int_equal(parsed(&q, "[1,2]", 200, "vector"), -1);
	assert_non_null(strstr(q.error, "(another type)"));
}

static void test_samples(void **state)
{
	struct json_object *v = json_tokener_parse(
		"[{\"metric\":{\"job_id\":null,\"host\":5},\"value\":[1,\"+Inf\"]},"
		" {\"metric\":{\"job_id\":\"j\"},\"value\":[1,\"NaN\"]},"
		" {\"metric\":{\"job_id\":\"k\"},\"value\":[1,2]},"
		" {\"metric\":{\"job_id\":\"l\"},\"value\":\"x\"}, null, 7]");
	struct json_object *m = json_tokener_parse(
		"{\"metric\":{},\"values\":[[1,\"1\"],7,[2],null,[3,\"x\"],[4,\"2\"]]}");
	double t;
	size_t i;

	(void)state;
	assert_string_equal(promq_label(json_object_array_get_idx(v, 0), "job_id"), "");
	assert_string_equal(promq_label(json_object_array_get_idx(v, 0), "host"), "");
	assert_true(isinf(promq_value(json_object_array_get_idx(v, 0))));
	assert_true(isnan(promq_value(json_object_array_get_idx(v, 1))));
	assert_true(isnan(promq_value(json_object_array_get_idx(v, 2))));	/* not a string */
	assert_true(isnan(promq_value(json_object_array_get_idx(v, 3))));
	for (i = 4; i < 6; i++) {
		assert_string_equal(promq_label(json_object_array_get_idx(v, i), "job_id"), "");
		assert_true(isnan(promq_value(json_object_array_get_idx(v, i))));
	}
	/* a range series: good points, and ones that are not [time, "value"] */
	assert_int_equal(promq_points(m), 6);
	assert_true(promq_point(m, 0, &t) == 1 && t == 1);
	for (i = 1; i < 5; i++) {
		assert_true(isnan(promq_point(m, i, &t)));
		assert_true(i == 4 ? t == 3 : isnan(t));
	}
	assert_true(promq_point(m, 5, &t) == 2 && t == 4);
	assert_true(isnan(promq_point(m, 6, &t)) && isnan(t));
	json_object_put(v);
	json_object_put(m);
}

static void test_pairs_query(void **state)
{
	struct cl_host hosts[4] = {
		{ .host = "gpu1.dc" }, { .host = "" }, { .host = "we\"ird\\n|(x)" }, { .host = "h\xc3\xa9\n" },
	};
	struct cl_page p = { .hosts = hosts, .nhosts = 4 };
	char *q = cluster_pairs_query(&p, false), *c = cluster_pairs_query(&p, true);

	(void)state;
	/* PromQL string escapes over regex escapes: "\\." is the regex's "\." */
	assert_string_equal(q, "topk(500, fabtel:probe_pair_bad{host=~\"gpu1\\\\.dc|we\\\\\\\"ird\\\\\\\\n"
			    "\\\\|\\\\(x\\\\)|h\xc3\xa9\\x0a\",peer_host=~\"gpu1\\\\.dc|we\\\\\\\"ird\\\\\\\\n"
			    "\\\\|\\\\(x\\\\)|h\xc3\xa9\\x0a\"} == 1)");
	assert_true(!strncmp(c, "count(fabtel:probe_pair_bad{host=~\"gpu1", 39));
	free(q);
	free(c);
	/* no host names: no query */
	p.nhosts = 2;
	hosts[0].host[0] = '\0';
	assert_null(cluster_pairs_query(&p, false));
}

static void test_pairs_cap(void **state)
{
	struct json_object *a = json_object_new_array();
	struct cl_page p = { 0 };
	char spec[256];
	int i;

	(void)state;
	for (i = 0; i < CL_MAX_PAIRS + 3; i++) {
		struct json_object *one;

		snprintf(spec, sizeof(spec), "host=h%d,device=mlx5_0,port=1,peer_host=h0,"
			 "peer_device=mlx5_0,peer_port=1|1", i);
		one = vec(spec);
		json_object_array_add(a, json_object_get(json_object_array_get_idx(one, 0)));
		json_object_put(one);
	}
	assert_int_equal(cluster_pairs_from(&p, a), 0);
	assert_int_equal(p.npairs, CL_MAX_PAIRS);
	assert_int_equal(p.pairs_total, CL_MAX_PAIRS + 3);
	assert_true(p.pairs_capped);
	assert_string_equal(p.pairs[7].host, "h7");
	assert_string_equal(p.pairs[7].peer_port, "1");
	free(p.pairs);
	json_object_put(a);
}

static void test_history_line(void **state)
{
	struct cl_page p = { 0 };
	char line[200];
	int i;

	(void)state;
	for (i = 0; i < CL_HIST; i++) {
		p.hist_failing[i] = i < 20 ? NAN : i < 40 ? 0 : i < 50 ? 1 : 3;
		p.hist_verdict[i] = i < 20 ? NAN : i < 40 ? 0 : i < 50 ? 1 : 2;
	}
	cluster_history_line(&p, false, line, 120);
	/* 20 points unknown, 20 at 0, 10 at a third of the most, 10 at the most */
	assert_string_equal(line, "failing hosts (15 min)                     "
			    "____________________::::::::::@@@@@@@@@@ 3");
	/* verdicts on their own scale: degraded half, failing full */
	cluster_history_line(&p, true, line, 120);
	assert_string_equal(line, "verdict (15 min)                           "
			    "____________________==========@@@@@@@@@@ failing");
	/* narrow: the newest points kept, the line cut to the width */
	cluster_history_line(&p, false, line, 40);
	assert_string_equal(line, "failing hosts (15 min) @@@@@@@ 3");
	cluster_history_line(&p, false, line, 10);
	assert_int_equal(strlen(line), 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_severity_and_ties),
		cmocka_unit_test(test_common_upstream_and_junk),
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_pairs_query),
		cmocka_unit_test(test_pairs_cap),
		cmocka_unit_test(test_history_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
