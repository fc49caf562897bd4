// SPDX-License-Identifier: GPL-2.0
/*
 * test_job_ports - the ports each job's live QPs use, as fold_jobs gives
 * them (one loop over the QP table for all jobs), and the QPs of a job
 * that ended losing it, so that a job made later in its slot inherits
 * none of them; a job on all 20 ports of a big GPU host has all 20; the
 * job and QP slots the passes' loops stop at (model.h job_slots, qp_slots);
 * a job on more ports than it holds counted (jobs_over_ports).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fold.h"
#include "readings.h"

static struct model m;
static struct raw r;
static uint64_t t;	/* seconds since the first pass (readings_pass) */

static void pass(void)
{
	readings_pass(&m, &r, ++t);
}

/* a QP (qpn) of Slurm job id on dev port 1 */
static void add_qp(const char *dev, uint32_t dev_index, uint32_t qpn, const char *id)
{
	struct raw_qp *q = &r.qps[r.nr_qps++];

	*q = r.qps[0];
	snprintf(q->nl.dev_name, sizeof(q->nl.dev_name), "%s", dev);
	q->nl.dev_index = dev_index;
	q->nl.qpn = qpn;
	snprintf(q->job.id, sizeof(q->job.id), "%s", id);
}

static struct model_job *job(const char *id)
{
	struct job_match j = { .kind = JOB_SLURM };

	snprintf(j.id, sizeof(j.id), "%s", id);
	return model_find_job(&m, &j, false, 0);
}

/* the job's ports, "dev/port dev/port ..." in the order it got them */
static const char *ports_of(const struct model_job *j)
{
	static char s[256];
	size_t n = 0;
	unsigned int i;

	s[0] = '\0';
	for (i = 0; j && i < j->nr_ports; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%s%s/%u", i ? " " : "",
				      j->ports[i].device, j->ports[i].port);
	return s;
}

static int setup(void **state)
{
	(void)state;
	readings_rxa_job7(&m, &r);	/* job 7: QP 17 on rxa */
	r.ports[1] = r.ports[0];
	snprintf(r.ports[1].device, sizeof(r.ports[1].device), "rxb");
	r.nr_ports = 2;
	add_qp("rxb", 2, 19, "8");	/* job 8: rxb, then rxa */
	add_qp("rxa", 1, 21, "8");
	t = 0;
	return 0;
}

static void job_ports(void **state)
{
	struct model_job *j7;
	unsigned int k;

	(void)state;
	pass();
	j7 = job("7");
	assert_string_equal(ports_of(j7), "rxa/1");
	assert_string_equal(ports_of(job("8")), "rxb/1 rxa/1");
	/* job 7's QP goes; past its linger time the job ends */
	r.qps[0] = r.qps[2];
	r.nr_qps = 2;
	t += m.opts.job_linger_s;
	pass();
	assert_null(job("7"));
	assert_false(j7->present);
	assert_string_equal(ports_of(job("8")), "rxb/1 rxa/1");
	for (k = 0; k < m.qp_slots; k++)
		assert_true(m.qps[k].job < 0 || m.jobs[m.qps[k].job].present);
	/* job 9 (in job 7's slot, the first free) has its own port only */
	add_qp("rxb", 2, 23, "9");
	pass();
	assert_ptr_equal(job("9"), j7);
	assert_string_equal(ports_of(job("9")), "rxb/1");
	assert_int_equal(job("9")->nr_qps, 1);
	assert_string_equal(ports_of(job("8")), "rxb/1 rxa/1");
}

/*
 * A job on every port of a big GPU host: 8 backend NICs and 2 front end
 * ones, 2 ports each.  All 20 are its ports (8 were kept before, the
 * rest lost).
 */
static void job_on_20_ports(void **state)
{
	char dev[16];
	unsigned int i;

	(void)state;
	r.nr_qps = 1;		/* job 7's QP 17 on rxa port 1 */
	for (i = 1; i < 20; i++) {
		r.ports[i] = r.ports[0];
		snprintf(r.ports[i].device, sizeof(r.ports[i].device), "mlx5_%u", i / 2);
		r.ports[i].port = 1 + i % 2;
		snprintf(dev, sizeof(dev), "mlx5_%u", i / 2);
		add_qp(dev, 2 + i / 2, 100 + i, "7");
		r.qps[r.nr_qps - 1].nl.port = 1 + i % 2;
	}
	r.nr_ports = 20;
	pass();
	assert_int_equal(job("7")->nr_qps, 20);
	assert_int_equal(job("7")->nr_ports, 20);
	assert_string_equal(ports_of(job("7")),
			    "rxa/1 mlx5_0/2 mlx5_1/1 mlx5_1/2 mlx5_2/1 mlx5_2/2 mlx5_3/1 "
			    "mlx5_3/2 mlx5_4/1 mlx5_4/2 mlx5_5/1 mlx5_5/2 mlx5_6/1 mlx5_6/2 "
			    "mlx5_7/1 mlx5_7/2 mlx5_8/1 mlx5_8/2 mlx5_9/1 mlx5_9/2");
}

/*
 * A job on 34 ports: it holds 32, and the model counts one job over the
 * limit (fabtel_jobs_over_port_limit) while its QPs use the other two; not
 * once those QPs are gone.
 */
static void job_over_port_limit(void **state)
{
	char dev[16];
	unsigned int i;

	(void)state;
	r.nr_qps = 1;
	for (i = 1; i < 34; i++) {
		r.ports[i] = r.ports[0];
		snprintf(dev, sizeof(dev), "mlx5_%u", i);
		snprintf(r.ports[i].device, sizeof(r.ports[i].device), "%s", dev);
		add_qp(dev, 2 + i, 100 + i, "7");
	}
	r.nr_ports = 34;
	pass();
	assert_int_equal(job("7")->nr_qps, 34);
	assert_int_equal(job("7")->nr_ports, MODEL_MAX_JOB_PORTS);
	assert_true(job("7")->ports_over);
	assert_int_equal(m.jobs_over_ports, 1);
	/* the QPs on the two ports past its 32 go: no longer over */
	r.nr_qps -= 2;
	pass();
	assert_int_equal(job("7")->nr_qps, 32);
	assert_false(job("7")->ports_over);
	assert_int_equal(m.jobs_over_ports, 0);
}

/*
 * Jobs take the lowest free slot; job_slots is one past the highest present
 * one: it does not fall when a middle job ends, it falls when the top one
 * does.  QPs that went are not found again, the ones that stay are, and
 * qp_slots falls with the top QP.
 */
static void job_and_qp_slots(void **state)
{
	unsigned int k;

	(void)state;
	add_qp("rxa", 1, 25, "10");	/* job 10: third slot */
	pass();
	assert_int_equal(m.job_slots, 3);
	assert_int_equal(m.qp_slots, 4);
	assert_ptr_equal(job("10"), &m.jobs[2]);
	/* job 8 (slot 1) ends: the slots stay; its QPs are not found again */
	r.qps[1] = r.qps[3];
	r.nr_qps = 2;
	t += m.opts.job_linger_s;
	pass();
	assert_null(job("8"));
	assert_int_equal(m.job_slots, 3);
	assert_null(model_find_qp(&m, 2, 19));
	assert_null(model_find_qp(&m, 1, 21));
	assert_non_null(model_find_qp(&m, 1, 17));
	assert_non_null(model_find_qp(&m, 1, 25));
	assert_int_equal(m.qp_slots, 4);
	/* job 10 (the top) ends: job_slots and qp_slots fall to job 7's */
	r.nr_qps = 1;
	t += m.opts.job_linger_s;
	pass();
	assert_null(job("10"));
	assert_int_equal(m.job_slots, 1);
	assert_int_equal(m.qp_slots, 1);
	assert_non_null(model_find_qp(&m, 1, 17));
	assert_int_equal(job("7")->nr_qps, 1);
	for (k = m.job_slots; k < MODEL_MAX_JOBS; k++)
		assert_false(m.jobs[k].present);
	/* a new job takes the lowest free slot, and job_slots grows with it */
	add_qp("rxb", 2, 27, "11");
	pass();
	assert_ptr_equal(job("11"), &m.jobs[1]);
	assert_int_equal(m.job_slots, 2);
	assert_int_equal(job("11")->nr_qps, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(job_ports, setup),
		cmocka_unit_test_setup(job_on_20_ports, setup),
		cmocka_unit_test_setup(job_and_qp_slots, setup),
		cmocka_unit_test_setup(job_over_port_limit, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
