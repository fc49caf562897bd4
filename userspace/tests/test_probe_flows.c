// SPDX-License-Identifier: GPL-2.0
/*
 * test_probe_flows - a pair's probes over its ECMP flows (probe_stats.h,
 * probe_flow.c): each outcome counted on the flow its probe took, the
 * pair's totals the flows' sums, a flow's loss over the window and its
 * last PROBE_FLOW_RING outcomes, a probe whose slot is taken again lost on
 * its own flow, and the flow labels that set mlx5's UDP source ports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "probe_stats.h"

#define MS 1000000ULL
#define SEC 1000000000ULL
#define K 8

/* flows 2 and 5 lose every probe (a bad link that ECMP hashes them onto) */
static bool bad_flow(unsigned int f)
{
	return f == 2 || f == 5;
}

/* n probes cycling over K flows, 100 ms apart from t, answered unless on a bad flow */
static uint64_t cycle(struct probe_stats *s, uint64_t t, unsigned int n)
{
	unsigned int i, f;
	uint32_t seq;

	for (i = 0; i < n; i++, t += 100 * MS) {
		f = i % K;
		seq = probe_stats_send(s, f, t);
		if (!bad_flow(f))
			assert_int_equal(probe_stats_reply(s, seq, t, t + MS, 500000, 1),
					 PROBE_DROP_NR);
		probe_stats_expire(s, t + MS, 500 * MS);
	}
	probe_stats_expire(s, t + SEC, 500 * MS);
	return t;
}

static void flows_counted_apart(void **state)
{
	static struct probe_stats s;
	uint64_t t = 1000 * SEC, end;
	unsigned int f, ended, sum_sent = 0, sum_rep = 0, sum_tmo = 0;
	double loss;

	(void)state;
	probe_stats_init(&s, 7);
	end = cycle(&s, t, 80);		/* 10 probes a flow over 8 s */
	for (f = 0; f < K; f++) {
		assert_int_equal(s.flow[f].sent, 10);
		assert_int_equal(s.flow[f].replies, bad_flow(f) ? 0 : 10);
		assert_int_equal(s.flow[f].timeouts, bad_flow(f) ? 10 : 0);
		loss = probe_flow_loss(&s.flow[f], end, 10, &ended);
		assert_int_equal(ended, 10);
		assert_true(loss == (bad_flow(f) ? 1.0 : 0.0));
		sum_sent += s.flow[f].sent;
		sum_rep += s.flow[f].replies;
		sum_tmo += s.flow[f].timeouts;
	}
	/* the pair's counts are its flows' sums, its loss 2 of 8 */
	assert_int_equal(s.sent, sum_sent);
	assert_int_equal(s.replies, sum_rep);
	assert_int_equal(s.timeouts, sum_tmo);
	loss = probe_stats_loss(&s, end, 10, &ended);
	assert_int_equal(ended, 80);
	assert_true(loss > 0.249 && loss < 0.251);
	/* flows never used: nothing ended */
	assert_true(probe_flow_loss(&s.flow[K], end, 10, &ended) < 0);
	assert_int_equal(ended, 0);
}

static void flow_window_and_ring(void **state)
{
	static struct probe_stats s;
	uint64_t t = 1000 * SEC, end;
	unsigned int ended;

	(void)state;
	probe_stats_init(&s, 0);
	end = cycle(&s, t, 80);
	/* 30 s on, the window (10 s) holds none of them: no verdict either way */
	assert_true(probe_flow_loss(&s.flow[2], end + 30 * SEC, 10, &ended) < 0);
	assert_int_equal(ended, 0);
	/* a long run: the ring keeps the last PROBE_FLOW_RING outcomes of a flow */
	end = cycle(&s, end + 30 * SEC, K * 50);
	assert_int_equal(s.flow[5].count, PROBE_FLOW_RING);
	assert_int_equal(s.flow[5].timeouts, 60);
	assert_true(probe_flow_loss(&s.flow[5], end, 60, &ended) == 1.0);
	assert_int_equal(ended, PROBE_FLOW_RING);
	/* over the last 10 s only (whole seconds, as the pair's bins): 11 to 13 a flow */
	probe_flow_loss(&s.flow[0], end, 10, &ended);
	assert_true(ended >= 11 && ended <= 13);
}

/* a probe still waiting when its slot is taken again is lost on its own flow */
static void slot_reuse_blames_its_flow(void **state)
{
	static struct probe_stats s;
	uint64_t t = 1000 * SEC;
	unsigned int i, ended;

	(void)state;
	probe_stats_init(&s, 0);
	probe_stats_send(&s, 3, t);	/* never answered, never expired */
	for (i = 1; i <= PROBE_OUTSTANDING; i++) {
		uint32_t seq = probe_stats_send(&s, 1, t + i * MS);

		probe_stats_reply(&s, seq, t + i * MS, t + i * MS + 1, 1, 1);
	}
	assert_int_equal(s.flow[3].timeouts, 1);
	assert_int_equal(s.flow[1].timeouts, 0);
	assert_true(probe_flow_loss(&s.flow[3], t + SEC, 10, &ended) == 1.0);
	assert_int_equal(ended, 1);
	/* a flow out of range is counted as flow 0, not past the array */
	probe_stats_send(&s, PROBE_MAX_FLOWS + 3, t + 2 * SEC);
	assert_int_equal(s.flow[0].sent, 1);
}

static void labels_spread(void **state)
{
	unsigned int k, f, g;

	(void)state;
	for (k = 1; k <= PROBE_MAX_FLOWS; k++) {
		assert_int_equal(probe_flow_label(0, k), 0);	/* the device's own port */
		for (f = 1; f < k; f++) {
			uint32_t l = probe_flow_label(f, k);

			/* under 2^14: the UDP port is 0xc000 | label, one a flow */
			assert_true(l > 0 && l < 0x4000);
			for (g = 1; g < f; g++)
				assert_true(probe_flow_label(g, k) != l);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flows_counted_apart),
		cmocka_unit_test(flow_window_and_ring),
		cmocka_unit_test(slot_reuse_blames_its_flow),
		cmocka_unit_test(labels_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
