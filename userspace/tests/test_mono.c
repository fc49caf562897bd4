// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "mono.h"

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

/* rxe re-created under the same name between two samples: counters restart */
static void small_reset_is_not_a_wrap(void **state)
{
	struct mono m = { 0 };
	uint64_t t;

	(void)state;
	mono_update(&m, 1000);
	assert_int_equal(mono_update(&m, 0), 1000);
	assert_int_equal(m.resets, 1);
	assert_int_equal(mono_update(&m, 25), 1025);
	/* 1025 + 4975, then a reset after which 7 were counted */
	mono_update(&m, 5000);
	assert_int_equal(mono_update(&m, 7), 6007);
	assert_int_equal(m.resets, 2);
	/* but a step of 2^31 - 1 across the top is a wrap, and 2^31 a reset */
	t = mono_update(&m, UINT32_MAX - 100);
	assert_int_equal(mono_update(&m, (1u << 31) - 102), t + (1u << 31) - 1);
	assert_int_equal(m.resets, 2);
	t = mono_update(&m, UINT32_MAX - 100);
	assert_int_equal(mono_update(&m, (1u << 31) - 101), t + (1u << 31) - 101);
	assert_int_equal(m.resets, 3);
}

#define S (1000000000ULL)

static void rate_first_reading_not_valid(void **state)
{
	struct rate r = { 0 };

	(void)state;
	rate_update(&r, 500, 10 * S);
	assert_false(r.valid);
	rate_update(&r, 800, 11 * S);
	assert_true(r.valid);
	assert_true(r.per_s == 300.0);
}

static void rate_over_interval(void **state)
{
	struct rate r = { 0 };

	(void)state;
	rate_update(&r, 0, 1 * S);
	rate_update(&r, 50, 1 * S + S / 2);		/* 50 in 0.5 s */
	assert_true(r.per_s == 100.0);
	rate_update(&r, 50, 3 * S);			/* idle: a true zero */
	assert_true(r.valid);
	assert_true(r.per_s == 0.0);
	rate_update(&r, 50 + 3 * 1000000, 3 * S + 3 * S / 1000);	/* 3e6 in 3 ms */
	assert_true(r.per_s > 999999999.0 && r.per_s < 1000000001.0);
}

static void rate_dt_zero_or_backwards(void **state)
{
	struct rate r = { 0 };

	(void)state;
	rate_update(&r, 0, 5 * S);
	rate_update(&r, 10, 6 * S);
	assert_true(r.per_s == 10.0);
	/* same instant again: no division by zero, nothing changes */
	rate_update(&r, 99, 6 * S);
	assert_true(r.valid);
	assert_true(r.per_s == 10.0);
	assert_int_equal(r.prev, 10);
	/* an earlier instant (clock misuse) is ignored the same way */
	rate_update(&r, 99, 4 * S);
	assert_true(r.per_s == 10.0);
	rate_update(&r, 30, 8 * S);
	assert_true(r.per_s == 10.0);
}

static void rate_counter_restarted(void **state)
{
	struct rate r = { 0 };

	(void)state;
	rate_update(&r, 1000, 1 * S);
	rate_update(&r, 1100, 2 * S);
	assert_true(r.valid);
	/* a total lower than before (device re-created): no negative rate */
	rate_update(&r, 4, 3 * S);
	assert_false(r.valid);
	rate_update(&r, 24, 4 * S);
	assert_true(r.valid);
	assert_true(r.per_s == 20.0);
}

/* the whole chain: a 32-bit counter wrapping at 1 kHz, sampled each second */
static void rate_across_a_wrap(void **state)
{
	struct mono m = { 0 };
	struct rate r = { 0 };
	uint32_t raw = UINT32_MAX - 1500;
	int i;

	(void)state;
	rate_update(&r, mono_update(&m, raw), 0);
	for (i = 1; i <= 5; i++) {
		raw += 1000;	/* wraps in the second second */
		rate_update(&r, mono_update(&m, raw), (uint64_t)i * S);
		assert_true(r.valid);
		assert_true(r.per_s == 1000.0);
	}
	assert_int_equal(m.resets, 0);
}

/*
 * A 64-bit byte counter at 3 GB when its device is re-created: a 32-bit
 * wrap would also fit (a step below 2^31), so only the width tells.
 */
static void wide_counter_reset_in_wrap_range(void **state)
{
	struct mono may32 = { 0 }, wide = { 0 };
	uint64_t before = 3000000000ULL;

	(void)state;
	mono_update(&may32, before);
	mono_update64(&wide, before);
	/* taken as a wrap: gains 2^32 - 3e9 + 5000 */
	assert_int_equal(mono_update(&may32, 5000), before + (1ULL << 32) - before + 5000);
	assert_int_equal(may32.resets, 0);
	/* known wide: a reset, what was counted since is added */
	assert_int_equal(mono_update64(&wide, 5000), before + 5000);
	assert_int_equal(wide.resets, 1);
	assert_int_equal(mono_update64(&wide, 6000), before + 6000);
	/* and a wide counter passing 2^32 just counts on */
	assert_int_equal(mono_update64(&wide, (1ULL << 32) + 6000), before + (1ULL << 32) + 6000);
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
		cmocka_unit_test(small_reset_is_not_a_wrap),
		cmocka_unit_test(rate_first_reading_not_valid),
		cmocka_unit_test(rate_over_interval),
		cmocka_unit_test(rate_dt_zero_or_backwards),
		cmocka_unit_test(rate_counter_restarted),
		cmocka_unit_test(rate_across_a_wrap),
		cmocka_unit_test(wide_counter_reset_in_wrap_range),
	};

	return cmocka_run_group_tests_name("mono and rate", tests, NULL, NULL);
}
