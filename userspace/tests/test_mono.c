// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "collect.h"

static void first_sample_is_total(void **state)
{
	struct mono m = { 0 }, big = { 0 };

	(void)state;
	assert_int_equal(mono_update(&m, 1234), 1234);
	assert_int_equal(m.total, 1234);
	assert_true(m.primed);
	assert_int_equal(mono_update(&big, UINT64_MAX - 5), UINT64_MAX - 5);
}

static void first_sample_zero(void **state)
{
	struct mono m = { 0 };

	(void)state;
	assert_int_equal(mono_update(&m, 0), 0);
	assert_true(m.primed);
	assert_int_equal(mono_update(&m, 7), 7);
}

static void increments_add(void **state)
{
	struct mono m = { 0 };

	(void)state;
	mono_update(&m, 100);
	assert_int_equal(mono_update(&m, 100), 100);
	assert_int_equal(mono_update(&m, 150), 150);
	assert_int_equal(mono_update(&m, 1000), 1000);
	/* beyond 32 bits without a wrap */
	assert_int_equal(mono_update(&m, 0x100000000ULL + 5), 0x100000000ULL + 5);
}

static void wrap_32(void **state)
{
	struct mono m = { 0 };

	(void)state;
	mono_update(&m, UINT32_MAX - 9);
	/* 10 to reach zero, then 5 more */
	assert_int_equal(mono_update(&m, 5), (uint64_t)UINT32_MAX - 9 + 15);
	assert_int_equal(mono_update(&m, 6), (uint64_t)UINT32_MAX - 9 + 16);
}

static void wrap_from_max(void **state)
{
	struct mono m = { 0 };

	(void)state;
	mono_update(&m, UINT32_MAX);
	assert_int_equal(mono_update(&m, 0), (uint64_t)UINT32_MAX + 1);
}

static void reset_above_32_bits(void **state)
{
	struct mono m = { 0 };
	uint64_t t;

	(void)state;
	mono_update(&m, 0x500000000ULL);
	t = mono_update(&m, 3);
	assert_int_equal(t, 0x500000000ULL + 3);
	assert_int_equal(mono_update(&m, 10), 0x500000000ULL + 10);
	/* a reset to zero never lowers the total */
	mono_update(&m, 0x600000000ULL);
	t = m.total;
	assert_int_equal(mono_update(&m, 0), t);
}

static void never_decreases(void **state)
{
	const uint64_t raw[] = {
		5, 3, UINT32_MAX, 1, 0x200000000ULL, 0, 0, 0xffffffffffffULL, 2, 1,
		UINT32_MAX - 1, 0x100000001ULL, 12,
	};
	struct mono m = { 0 };
	uint64_t prev = 0, t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
		t = mono_update(&m, raw[i]);
		assert_true(t >= prev);
		prev = t;
	}
}

static void many_wraps(void **state)
{
	struct mono m = { 0 };
	uint64_t expect = 0;
	uint32_t raw = 7;
	int i;

	(void)state;
	mono_update(&m, raw);
	expect = raw;
	for (i = 0; i < 100; i++) {
		raw += 0x60000000u;	/* wraps every 2-3 samples */
		expect += 0x60000000u;
		assert_int_equal(mono_update(&m, raw), expect);
	}
	assert_true(m.total > 30ULL * UINT32_MAX);
	assert_int_equal(m.last, raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_sample_is_total),
		cmocka_unit_test(first_sample_zero),
		cmocka_unit_test(increments_add),
		cmocka_unit_test(wrap_32),
		cmocka_unit_test(wrap_from_max),
		cmocka_unit_test(reset_above_32_bits),
		cmocka_unit_test(never_decreases),
		cmocka_unit_test(many_wraps),
	};

	return cmocka_run_group_tests_name("mono", tests, NULL, NULL);
}
