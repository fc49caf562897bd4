// SPDX-License-Identifier: GPL-2.0
/*
 * test_fold_qpcnt - the NIC's counter sets in the folds (fold_qpcnt.c,
 * Documentation/qp_counters.rst) over readings made by hand: two jobs on
 * one port, job 7's QP 17 in set 1, job 8's QP 19 in none.  A set's rise
 * is its job's own evidence; the port's rise less the sets' goes to the
 * jobs with QPs in no set only; between two reads of the sets the port's
 * rise waits; fabtel.ko's port values (the driver's default set) are all
 * rest; without the source every job takes the port's rise, as before;
 * sets fabteld made by peer name the peer whose set rose, and only it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "collector.h"
#include "fold.h"
#include "rdmastat.h"
#include "readings.h"

static struct model m;
static struct raw r;
static uint64_t t;

#define OOS	FABTEL_OUT_OF_SEQUENCE

static int setup(void **state)
{
	struct raw_qp *q;

	(void)state;
	readings_rxa_job7(&m, &r);
	t = 0;
	r.ports[0].have[OOS] = true;
	r.ports[0].width[OOS] = 64;
	/* job 8's QP 19 beside job 7's QP 17 */
	q = &r.qps[r.nr_qps++];
	*q = r.qps[0];
	q->nl.qpn = 19;
	q->nl.pid = 4343;
	snprintf(q->job.id, sizeof(q->job.id), "8");
	/* the source is up; auto mode on rxa/1; set 1 counts QP 17 */
	m.src[SRC_QP_COUNTERS] = SRC_STATE_UP;
	r.nr_qpcnt_port = 1;
	r.qpcnt_port[0] = (struct raw_qpcnt_port){ .device = "rxa", .port = 1,
						   .mode = RDMASTAT_MODE_AUTO,
						   .mask = RDMASTAT_MASK_PID, .ours = true };
	r.nr_qpcnt = 1;
	r.qpcnt[0] = (struct raw_qpcnt){ .dev_index = 1, .device = "rxa", .port = 1, .id = 1,
					 .mode = RDMASTAT_MODE_AUTO, .pid = 4242, .nr_qpns = 1 };
	r.qpcnt[0].have[OOS] = true;
	r.nr_qpcnt_qp = 1;
	r.qpcnt_qp[0] = (struct raw_qpcnt_qp){ .dev_index = 1, .qpn = 17, .cnt = 0 };
	r.qpcnt_read = true;
	return 0;
}

static void pass(void)
{
	readings_pass(&m, &r, ++t);
}

static const struct model_job *job(const char *id)
{
	unsigned int i;

	for (i = 0; i < m.job_slots; i++)
		if (m.jobs[i].present && !strcmp(m.jobs[i].id.id, id))
			return &m.jobs[i];
	return NULL;
}

/* the job's out_of_sequence reason, NULL if none */
static const struct health_reason *oos_reason(const char *id)
{
	const struct model_job *j = job(id);
	unsigned int i;

	for (i = 0; j && i < j->result.nr_reasons; i++)
		if (!strcmp(j->result.reasons[i].reason, "out_of_sequence"))
			return &j->result.reasons[i];
	return NULL;
}

/* the port rises by port_rise, set 1 by set_rise, read this pass or not */
static void rise(uint64_t port_rise, uint64_t set_rise, bool read)
{
	r.ports[0].ctr[OOS] += port_rise;
	r.qpcnt[0].ctr[OOS] += set_rise;
	r.qpcnt_read = read;
	pass();
}

static void set_rise_blames_its_job(void **state)
{
	const struct health_reason *x;

	(void)state;
	pass();			/* the first read primes */
	pass();
	rise(10, 10, true);
	x = oos_reason("7");
	assert_non_null(x);
	assert_string_equal(x->evidence, "qp_counter");
	assert_false(x->shared);
	assert_int_equal(x->count, 10);
	assert_null(oos_reason("8"));
	assert_int_equal(job("8")->result.verdict, VERDICT_HEALTHY);
	assert_int_equal(m.ports[0].qpc_counters, 1);
	assert_int_equal(m.ports[0].qpc_unbound, 1);
}

static void rest_goes_to_jobs_without_a_set(void **state)
{
	const struct health_reason *x;

	(void)state;
	pass();
	pass();
	rise(8, 0, true);
	x = oos_reason("8");
	assert_non_null(x);
	assert_string_equal(x->evidence, "port");
	assert_true(x->shared);
	assert_int_equal(x->count, 8);
	assert_non_null(strstr(x->detail, "in no counter set"));
	assert_null(oos_reason("7"));	/* all its QPs in sets: not blamed */
}

static void port_rise_waits_for_the_read(void **state)
{
	(void)state;
	pass();
	pass();
	rise(6, 6, false);		/* the port moved, the sets are not due */
	assert_null(oos_reason("7"));
	assert_null(oos_reason("8"));
	rise(0, 0, true);		/* read: the set shows its 6 */
	assert_non_null(oos_reason("7"));
	assert_int_equal(oos_reason("7")->count, 6);
	assert_null(oos_reason("8"));
}

static void set_ahead_of_port_carries(void **state)
{
	(void)state;
	pass();
	pass();
	rise(4, 9, true);	/* the set read a moment after the port */
	assert_null(oos_reason("8"));
	rise(5, 0, true);	/* the port catches up: nothing left over */
	assert_null(oos_reason("8"));
	rise(7, 0, true);
	assert_non_null(oos_reason("8"));
	assert_int_equal(oos_reason("8")->count, 7);
}

static void ko_port_is_the_default_set(void **state)
{
	(void)state;
	r.ko = true;
	m.ports_ko = 1;
	pass();
	pass();
	/* fabtel.ko's 5 are the default set's own: QP 19's, none of set 1's */
	rise(5, 7, true);
	assert_int_equal(oos_reason("7")->count, 7);
	assert_int_equal(oos_reason("8")->count, 5);
}

static void without_the_source_every_job_takes_the_port(void **state)
{
	(void)state;
	m.src[SRC_QP_COUNTERS] = SRC_STATE_STANDBY;	/* qp_counters = off */
	r.qpcnt_read = false;
	pass();
	pass();
	rise(10, 10, false);
	assert_string_equal(oos_reason("7")->evidence, "port");
	assert_string_equal(oos_reason("8")->evidence, "port");
	assert_false(m.ports[0].qpc_active);
}

static void new_set_counts_from_zero(void **state)
{
	(void)state;
	r.nr_qpcnt = 0;
	r.nr_qpcnt_qp = 0;
	pass();			/* the first read: no set */
	pass();
	/* set 1 appears with 6 already: all of them since it was made */
	r.nr_qpcnt = 1;
	r.nr_qpcnt_qp = 1;
	rise(6, 6, true);
	assert_int_equal(oos_reason("7")->count, 6);
	assert_null(oos_reason("8"));
}

/* a v4-mapped GID of 10.77.0.d */
static void gid4(uint8_t *g, uint8_t d)
{
	static const uint8_t pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	memcpy(g, pre, sizeof(pre));
	g[12] = 10;
	g[13] = 77;
	g[14] = 0;
	g[15] = d;
}

static void peer_set_names_its_peer(void **state)
{
	const struct health_reason *x;
	struct raw_qp *q;

	(void)state;
	/* job 7's QP 21 towards 10.77.0.3 beside QP 17 towards 10.77.0.2 */
	q = &r.qps[r.nr_qps++];
	*q = r.qps[0];
	q->nl.qpn = 21;
	r.qpcnt_port[0].mode = RDMASTAT_MODE_MANUAL;
	r.qpcnt[0].mode = RDMASTAT_MODE_MANUAL;
	r.qpcnt[0].ours = r.qpcnt[0].has_peer = true;
	gid4(r.qpcnt[0].peer, 2);
	r.qpcnt[1] = r.qpcnt[0];
	r.qpcnt[1].id = 2;
	gid4(r.qpcnt[1].peer, 3);
	r.nr_qpcnt = 2;
	r.qpcnt_qp[r.nr_qpcnt_qp++] = (struct raw_qpcnt_qp){ .dev_index = 1, .qpn = 21, .cnt = 1 };
	pass();
	pass();
	rise(10, 10, true);		/* set 1: the QPs towards 10.77.0.2 */
	x = oos_reason("7");
	assert_non_null(x);
	assert_string_equal(x->evidence, "qp_counter");
	assert_int_equal(x->count, 10);
	assert_string_equal(x->detail, "towards 10.77.0.2");
	assert_null(oos_reason("8"));
	r.qpcnt[1].ctr[OOS] += 4;	/* now set 2 too */
	rise(4, 0, true);
	assert_string_equal(oos_reason("7")->detail, "towards 10.77.0.2, 10.77.0.3");
	assert_int_equal(oos_reason("7")->count, 14);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(set_rise_blames_its_job, setup),
		cmocka_unit_test_setup(rest_goes_to_jobs_without_a_set, setup),
		cmocka_unit_test_setup(port_rise_waits_for_the_read, setup),
		cmocka_unit_test_setup(set_ahead_of_port_carries, setup),
		cmocka_unit_test_setup(ko_port_is_the_default_set, setup),
		cmocka_unit_test_setup(without_the_source_every_job_takes_the_port, setup),
		cmocka_unit_test_setup(new_set_counts_from_zero, setup),
		cmocka_unit_test_setup(peer_set_names_its_peer, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
