// SPDX-License-Identifier: GPL-2.0
/* prune.c: a BPF map entry goes only when its QP is dead in two passes running. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "prune.h"

static void dead_once_is_kept(void **state)
{
	struct prune p = { 0 };
	uint64_t dead[] = { 7, 3 }, out[2];

	(void)state;
	assert_int_equal(prune_step(&p, dead, 2, out), 0);
	assert_int_equal(p.nr_dead, 2);
	assert_int_equal(p.removed, 0);
	prune_free(&p);
}

static void dead_twice_goes(void **state)
{
	struct prune p = { 0 };
	uint64_t a[] = { 7, 3, 9 }, b[] = { 9, 3 }, out[3];

	(void)state;
	prune_step(&p, a, 3, out);
	/* 7 came back to life (not dead now): kept; 3 and 9 dead again: go */
	assert_int_equal(prune_step(&p, b, 2, out), 2);
	assert_int_equal(out[0], 3);
	assert_int_equal(out[1], 9);
	assert_int_equal(p.nr_dead, 0);
	assert_int_equal(p.removed, 2);
	prune_free(&p);
}

static void alive_between_resets(void **state)
{
	struct prune p = { 0 };
	uint64_t a[] = { 5 }, b[] = { 5 }, out[1];

	(void)state;
	prune_step(&p, a, 1, out);
	/* a pass where 5 was seen alive (not in the dead list) */
	assert_int_equal(prune_step(&p, NULL, 0, out), 0);
	assert_int_equal(prune_step(&p, b, 1, out), 0);
	assert_int_equal(p.nr_dead, 1);
	prune_free(&p);
}

static void repeats_counted_once(void **state)
{
	struct prune p = { 0 };
	uint64_t a[] = { 4, 4, 4 }, b[] = { 4, 4 }, out[3];

	(void)state;
	prune_step(&p, a, 3, out);
	assert_int_equal(p.nr_dead, 1);
	assert_int_equal(prune_step(&p, b, 2, out), 1);
	assert_int_equal(out[0], 4);
	prune_free(&p);
}

static void forget_restarts_grace(void **state)
{
	struct prune p = { 0 };
	uint64_t a[] = { 1ull << 40 | 17 }, b[] = { 1ull << 40 | 17 }, out[1];

	(void)state;
	prune_step(&p, a, 1, out);
	prune_forget(&p);	/* e.g. RDMA netlink failed this pass */
	assert_int_equal(prune_step(&p, b, 1, out), 0);
	assert_int_equal(prune_step(&p, a, 1, out), 1);
	assert_true(out[0] == (1ull << 40 | 17));
	prune_free(&p);
}

static void many_keys(void **state)
{
	enum { N = 5000 };
	static uint64_t a[N], b[N], out[N];
	struct prune p = { 0 };
	long n;
	int i;

	(void)state;
	for (i = 0; i < N; i++)
		a[i] = (uint64_t)(N - i) * 2654435761u;
	prune_step(&p, a, N, out);
	/* the odd ones live again */
	for (i = 0, n = 0; i < N; i++)
		if (!(i & 1))
			b[n++] = (uint64_t)(N - i) * 2654435761u;
	assert_int_equal(prune_step(&p, b, (size_t)n, out), N / 2);
	for (i = 1; i < N / 2; i++)
		assert_true(out[i - 1] < out[i]);
	assert_int_equal(p.removed, N / 2);
	prune_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dead_once_is_kept),
		cmocka_unit_test(dead_twice_goes),
		cmocka_unit_test(alive_between_resets),
		cmocka_unit_test(repeats_counted_once),
		cmocka_unit_test(forget_restarts_grace),
		cmocka_unit_test(many_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
