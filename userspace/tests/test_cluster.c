// SPDX-License-Identifier: GPL-2.0
/*
 * test_cluster.c - fabtop's cluster view built from canned Prometheus
 * answers (no HTTP): jobs by severity, culprits and their ties, a common
 * upstream, missing labels and values that are not numbers, a job's page
 * (hosts, ports, netdevs, culprit marks, each host's most evidence), the
 * tables and JSON drawn from them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_severity_and_ties),
		cmocka_unit_test(test_common_upstream_and_junk),
		cmocka_unit_test(test_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
