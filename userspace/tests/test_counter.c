// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "counter.h"

static void first_sample_is_total(void **state)
{
	struct fab_ctr32 c = { 0 };

	(void)state;
	assert_int_equal(fab_ctr32_update(&c, 1234), 1234);
	assert_int_equal(c.wraps, 0);
}

static void increments_add_up(void **state)
{
	struct fab_ctr32 c = { 0 };

	(void)state;
	fab_ctr32_update(&c, 10);
	fab_ctr32_update(&c, 15);
	assert_int_equal(fab_ctr32_update(&c, 15), 15);
	assert_int_equal(fab_ctr32_update(&c, 100), 100);
}

static void one_wrap_is_absorbed(void **state)
{
	struct fab_ctr32 c = { 0 };

	(void)state;
	fab_ctr32_update(&c, UINT32_MAX - 0xf);
	/* 0x10 to reach zero, then 0x10 more */
	assert_int_equal(fab_ctr32_update(&c, 0x10),
			 (uint64_t)UINT32_MAX - 0xf + 0x20);
	assert_int_equal(c.wraps, 1);
}

static void many_wraps_exceed_32_bits(void **state)
{
	struct fab_ctr32 c = { 0 };
	uint64_t expect = 0;
	uint32_t raw = 0;

	(void)state;
	fab_ctr32_update(&c, 0);
	for (int i = 0; i < 20; i++) {
		raw += 0x40000000u;	/* a quarter of the range per sample */
		expect += 0x40000000u;
		assert_int_equal(fab_ctr32_update(&c, raw), expect);
	}
	assert_true(c.total > UINT32_MAX);
	assert_int_equal(c.wraps, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_sample_is_total),
		cmocka_unit_test(increments_add_up),
		cmocka_unit_test(one_wrap_is_absorbed),
		cmocka_unit_test(many_wraps_exceed_32_bits),
	};

	return cmocka_run_group_tests_name("counter", tests, NULL, NULL);
}
