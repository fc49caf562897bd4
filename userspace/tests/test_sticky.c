// SPDX-License-Identifier: GPL-2.0
/*
 * test_sticky - recent_fault (collector/sticky.c) over readings made by
 * hand, pass by pass (one a second): a flap with the link already up is
 * recent_fault at once; a link down is a fault while it lasts and recent
 * for recent_fault_s after; an acknowledgement clears a recent fault, not
 * one still there; a new fault during the hold starts it again.
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
#include "readings.h"

static struct model m;
static struct raw r;
static uint64_t t;

static void pass(void)
{
	readings_pass(&m, &r, ++t);
}

static int setup(void **state)
{
	(void)state;
	readings_rxa_job7(&m, &r);
	r.ports[0].have_flaps = true;
	m.opts.recent_fault_s = 10;
	t = 0;
	return 0;
}

static const struct port_sticky *st(void)
{
	return &model_find_port(&m, "rxa", 1)->sticky;
}

static void flap_then_hold(void **state)
{
	int i;

	(void)state;
	pass();
	pass();
	assert_false(st()->recent);
	assert_string_equal(st()->fault, "");
	r.ports[0].flaps++;		/* a flap over before the pass saw it down */
	pass();
	assert_true(st()->recent);
	assert_false(st()->faulty);
	assert_string_equal(st()->fault, "link_flap");
	for (i = 0; i < 9; i++)
		pass();
	assert_true(st()->recent);	/* 9 s after: still within 10 */
	pass();
	assert_false(st()->recent);
	assert_string_equal(st()->fault, "link_flap");	/* the last fault stays known */
}

static void down_then_ack(void **state)
{
	uint64_t now = 0;

	(void)state;
	pass();
	r.ports[0].carrier = 0;
	pass();
	pass();
	assert_true(st()->faulty);
	assert_false(st()->recent);
	assert_string_equal(st()->fault, "link_down");
	/* an ack while the fault is there clears nothing */
	assert_int_equal(sticky_ack(&m, "rxa", 1, "ops", now), 0);
	r.ports[0].carrier = 1;
	r.ports[0].flaps++;
	pass();
	assert_false(st()->faulty);
	assert_true(st()->recent);
	assert_int_equal(sticky_ack(&m, "nosuch", 1, "ops", now), -1);
	assert_int_equal(sticky_ack(&m, "rxa", 2, "ops", now), -1);
	assert_int_equal(sticky_ack(&m, "rxa", 1, "ops", 1234), 1);
	assert_false(st()->recent);
	assert_string_equal(st()->acked_by, "ops");
	pass();
	assert_false(st()->recent);	/* the ack holds */
	/* a new fault during what would have been the hold: recent again */
	r.ports[0].flaps++;
	pass();
	assert_true(st()->recent);
	assert_int_equal(sticky_ack(&m, NULL, 0, "ops", now), 1);
}

static void off_never_recent(void **state)
{
	(void)state;
	m.opts.recent_fault_s = 0;
	pass();
	r.ports[0].flaps++;
	pass();
	assert_false(st()->recent);
	assert_string_equal(st()->fault, "link_flap");
}

/* without the flap program, a second flap 10 s on has its own time, not the first's */
static void second_flap_own_time(void **state)
{
	const struct model_event *ev;
	uint64_t s, at[2] = { 0, 0 };
	unsigned int n = 0;
	int i;

	(void)state;
	pass();
	r.ports[0].flaps++;
	pass();
	for (i = 0; i < 10; i++)
		pass();
	r.ports[0].flaps++;
	pass();
	for (s = 1; s < m.next_event_seq; s++)
		if ((ev = model_event_get(&m, s)) && ev->kind == EV_LINK_FLAP && n < 2)
			at[n++] = ev->at_ns;
	assert_int_equal(n, 2);
	assert_int_equal(at[1] - at[0], 11 * NS_PER_S);
	assert_int_equal(st()->fault_ns, at[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(flap_then_hold, setup),
		cmocka_unit_test_setup(down_then_ack, setup),
		cmocka_unit_test_setup(off_never_recent, setup),
		cmocka_unit_test_setup(second_flap_own_time, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
