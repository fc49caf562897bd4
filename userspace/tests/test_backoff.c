// SPDX-License-Identifier: GPL-2.0
/*
 * test_backoff - the back-off of a read that fails (backoff.h), on a clock
 * the test moves: 1 s, doubled up to 300 s (the schedule of
 * kmod/fabtel/fabtel_backoff.c), a period longer than 1 s its first step, a
 * success ending it; at most 12 failing calls an hour once at the cap.
 * Then fabteld's table of them per device and port (port_reads.h): one
 * state per port and read, kept while looked up, let go after.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "backoff.h"
#include "port_reads.h"

static struct port_backoffs pb;	/* the table under test */

#define S	1000000000ULL

/* fail each time it is due, one pass a second from t0 for secs: the calls made */
static unsigned int run_failing(struct backoff *b, uint64_t t0, unsigned int secs,
				uint32_t period_ms)
{
	unsigned int calls = 0, t;

	for (t = 0; t < secs; t++) {
		if (!backoff_due(b, t0 + t * S))
			continue;
		calls++;
		backoff_fail(b, -EIO, t0 + t * S, period_ms);
	}
	return calls;
}

static void doubles_to_the_cap(void **state)
{
	static const uint32_t want[] = { 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000,
					 256000, 300000, 300000 };
	struct backoff b = { 0 };
	uint64_t now = 5 * S;
	unsigned int i;

	(void)state;
	assert_true(backoff_due(&b, 0));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		backoff_fail(&b, -EIO, now, 0);
		assert_int_equal(b.state, BACKOFF_FAILING);
		assert_int_equal(b.delay_ms, want[i]);
		assert_int_equal(b.consecutive, i + 1);
		assert_int_equal(b.failures, i + 1);
		assert_int_equal(b.err, -EIO);
		assert_false(backoff_due(&b, now + want[i] * 1000000ULL - 1));
		now += want[i] * 1000000ULL;
		assert_true(backoff_due(&b, now));
	}
}

static void success_resets(void **state)
{
	struct backoff b = { 0 };

	(void)state;
	backoff_fail(&b, -EINVAL, 0, 0);
	backoff_fail(&b, -EINVAL, S, 0);
	assert_int_equal(b.delay_ms, 2000);
	backoff_ok(&b);
	assert_int_equal(b.state, BACKOFF_OK);
	assert_int_equal(b.consecutive, 0);
	assert_int_equal(b.delay_ms, 0);
	assert_true(backoff_due(&b, 0));
	assert_int_equal(b.failures, 2);	/* the total stays */
	assert_int_equal(b.err, -EINVAL);	/* the last failure's, kept */
	backoff_fail(&b, -ETIMEDOUT, 10 * S, 0);
	assert_int_equal(b.delay_ms, 1000);	/* from the first step again */
	assert_int_equal(b.consecutive, 1);
	assert_int_equal(b.failures, 3);
	assert_int_equal(b.err, -ETIMEDOUT);
}

/* a read every 10 s backs off 10, 20, 40, 80, 160, then 300 s */
static void period_first_step(void **state)
{
	static const uint32_t want[] = { 10000, 20000, 40000, 80000, 160000, 300000, 300000 };
	struct backoff b = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		backoff_fail(&b, -EIO, 0, 10000);
		assert_int_equal(b.delay_ms, want[i]);
	}
	backoff_ok(&b);
	backoff_fail(&b, -EIO, 0, 600000);	/* a period past the cap: the cap */
	assert_int_equal(b.delay_ms, BACKOFF_MAX_MS);
}

/* one pass a second: ~9 calls to reach the cap, then 12 an hour */
static void an_hour_at_steady_state(void **state)
{
	struct backoff b = { 0 };
	unsigned int first, second;

	(void)state;
	first = run_failing(&b, S, 3600, 0);
	second = run_failing(&b, 3601 * S, 3600, 0);
	assert_true(first <= 22);
	assert_int_equal(second, 12);
	assert_int_equal(b.failures, first + second);
	assert_int_equal(b.delay_ms, BACKOFF_MAX_MS);
}

static void answers(void **state)
{
	struct backoff b = { 0 };

	(void)state;
	backoff_done(&b, -EOPNOTSUPP, 0, 0);
	assert_int_equal(b.state, BACKOFF_UNSUPPORTED);
	assert_int_equal(b.failures, 0);
	assert_true(backoff_due(&b, 0));
	backoff_done(&b, -EIO, 0, 0);
	assert_int_equal(b.state, BACKOFF_FAILING);
	assert_false(backoff_due(&b, 0));
	backoff_done(&b, 0, 2 * S, 0);
	assert_int_equal(b.state, BACKOFF_OK);
	backoff_fail(&b, -EIO, 0, 0);
	backoff_unsupported(&b);	/* the driver lost the op: no back-off */
	assert_true(backoff_due(&b, 0));
	assert_int_equal(b.delay_ms, 0);
}

/* ---- port_reads.c ------------------------------------------------------------ */

static void names(void **state)
{
	unsigned int rd;

	(void)state;
	for (rd = 0; rd < PR_NR; rd++)
		assert_int_equal(port_read_lookup(port_read_name(rd), strlen(port_read_name(rd))),
				 rd);
	assert_int_equal(port_read_lookup("pma", 3), PR_PMA);
	assert_int_equal(port_read_lookup("pmax", 4), -1);
	assert_int_equal(port_read_lookup("pm", 2), -1);
	assert_string_equal(port_read_name(PR_HW_COUNTERS), "hw_counters");
	assert_string_equal(port_reader_name(READER_KO), "fabtel.ko");
	assert_string_equal(port_reader_name(READER_FABTELD), "fabteld");
	assert_null(port_read_state_name(BACKOFF_UNKNOWN));
	assert_string_equal(port_read_state_name(BACKOFF_OK), "ok");
	assert_string_equal(port_read_state_name(BACKOFF_FAILING), "unavailable");
	assert_string_equal(port_read_state_name(BACKOFF_UNSUPPORTED), "unsupported");
}

static void per_port_table(void **state)
{
	struct backoff *a, *b;
	struct port_reads r;
	unsigned int i;
	char dev[16];

	(void)state;
	port_backoffs_init(&pb);
	a = port_backoff(&pb, "mlx5_0", 1, PR_PMA);
	backoff_fail(a, -EIO, 0, 0);
	assert_ptr_equal(port_backoff(&pb, "mlx5_0", 1, PR_PMA), a);
	assert_ptr_not_equal(port_backoff(&pb, "mlx5_0", 1, PR_HW_COUNTERS), a);
	b = port_backoff(&pb, "mlx5_0", 2, PR_PMA);
	assert_ptr_not_equal(b, a);
	assert_int_equal(b->failures, 0);
	assert_ptr_not_equal(port_backoff(&pb, "mlx5_1", 1, PR_PMA), a);
	/* more ports than the table: the one looked up longest ago goes */
	for (i = 0; i < 100; i++) {
		snprintf(dev, sizeof(dev), "x%u", i);
		port_backoff(&pb, dev, 1, PR_PMA);
		port_reads_pass(&pb);
	}
	a = port_backoff(&pb, "mlx5_0", 1, PR_PMA);
	assert_int_equal(a->failures, 0);	/* a port added anew */
	backoff_fail(a, -EIO, 0, 0);
	memset(&r, 0, sizeof(r));
	port_reads_note(&r, PR_PMA, a);
	assert_int_equal(r.s[READER_FABTELD][PR_PMA].state, BACKOFF_FAILING);
	assert_int_equal(r.s[READER_FABTELD][PR_PMA].err, -EIO);
	assert_int_equal(r.s[READER_FABTELD][PR_PMA].failures, 1);
	assert_int_equal(r.s[READER_FABTELD][PR_PMA].retry_ms, 1000);
	assert_int_equal(r.s[READER_KO][PR_PMA].state, BACKOFF_UNKNOWN);
	backoff_ok(a);
	port_reads_note(&r, PR_PMA, a);
	assert_int_equal(r.s[READER_FABTELD][PR_PMA].retry_ms, 0);
	/* not looked up for over 30 passes: let go at the sweep */
	for (i = 0; i < 50; i++)
		port_reads_pass(&pb);
	assert_int_equal(port_backoff(&pb, "mlx5_0", 1, PR_PMA)->failures, 0);
	port_backoffs_init(&pb);
}

static uint64_t fake_now;

static uint64_t fake_clock(void)
{
	return fake_now;
}

static void clock_injected(void **state)
{
	(void)state;
	fake_now = 42;
	port_reads_set_clock(&pb, fake_clock);
	assert_int_equal(port_reads_now(&pb), 42);
	port_reads_set_clock(&pb, NULL);
	assert_true(port_reads_now(&pb) != 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(doubles_to_the_cap),
		cmocka_unit_test(success_resets),
		cmocka_unit_test(period_first_step),
		cmocka_unit_test(an_hour_at_steady_state),
		cmocka_unit_test(answers),
		cmocka_unit_test(names),
		cmocka_unit_test(per_port_table),
		cmocka_unit_test(clock_injected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
