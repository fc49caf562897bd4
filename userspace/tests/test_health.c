// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "clock.h"
#include "health.h"

#define T0	(1700000000ULL * NS_PER_S)
#define SEC(s)	(T0 + (uint64_t)(s) * NS_PER_S)

static struct health_track track;
static struct health_cfg cfg;
static struct health_result res;

static int setup(void **state)
{
	(void)state;
	health_init(&track);
	health_cfg_defaults(&cfg);
	memset(&res, 0, sizeof(res));
	return 0;
}

static struct health_signal mk(uint64_t at, enum health_sig sig, const char *dev,
			       uint32_t port, uint64_t n, bool shared)
{
	struct health_signal s;

	memset(&s, 0, sizeof(s));
	s.at_ns = at;
	s.sig = sig;
	snprintf(s.device, sizeof(s.device), "%s", dev);
	s.port = port;
	s.n = n;
	s.shared = shared;
	return s;
}

static void add(uint64_t at, enum health_sig sig, const char *dev, uint32_t port,
		uint64_t n, bool shared)
{
	struct health_signal s = mk(at, sig, dev, port, n, shared);

	health_add(&track, &s);
}

static void eval(uint64_t now)
{
	health_eval(&track, &cfg, now, NULL, 0, &res);
}

/* The index of the reason named what on dev/port, -1 if none. */
static int find(const char *what, const char *dev, uint32_t port)
{
	unsigned int i;

	for (i = 0; i < res.nr_reasons; i++)
		if (!strcmp(res.reasons[i].reason, what) &&
		    !strcmp(res.reasons[i].device, dev) && res.reasons[i].port == port)
			return (int)i;
	return -1;
}

static void defaults_and_names(void **state)
{
	(void)state;
	assert_int_equal(cfg.window_s, 60);
	assert_int_equal(cfg.hold_s, 300);
	assert_int_equal(cfg.oos_events, 5);
	assert_int_equal(cfg.ack_timeouts, 5);
	assert_int_equal(cfg.rnr_naks, 100);
	assert_int_equal(cfg.link_errors, 10);
	assert_string_equal(health_sig_name(HS_LINK_ERRORS), "link_errors");
	assert_string_equal(health_verdict_name(VERDICT_HEALTHY), "healthy");
	assert_string_equal(health_verdict_name(VERDICT_DEGRADED), "degraded");
	assert_string_equal(health_verdict_name(VERDICT_FAILING), "failing");
	assert_string_equal(health_sig_name(HS_OUT_OF_SEQUENCE), "out_of_sequence");
	assert_string_equal(health_sig_name(HS_LINK_FLAP), "link_flap");
	assert_string_equal(health_sig_name(HS_TRAFFIC), "traffic");
	assert_string_equal(health_sig_name(HS_NR), "unknown");
}

static void no_signals_healthy(void **state)
{
	(void)state;
	eval(SEC(1000));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.nr_reasons, 0);
	assert_int_equal(res.culprit, -1);
}

static void oos_below_threshold(void **state)
{
	(void)state;
	add(SEC(10), HS_OUT_OF_SEQUENCE, "rxe0", 1, 1, false);
	add(SEC(12), HS_NAK_SEQ_RCVD, "rxe0", 1, 1, false);
	add(SEC(14), HS_OUT_OF_SEQUENCE, "rxe0", 1, 2, false);
	add(SEC(15), HS_TRAFFIC, "rxe0", 1, 1000, false);
	eval(SEC(20));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.nr_reasons, 0);
	assert_int_equal(res.culprit, -1);
}

static void oos_reaches_threshold(void **state)
{
	int i;

	(void)state;
	add(SEC(5), HS_TRAFFIC, "rxe1", 1, 500, false);
	add(SEC(10), HS_OUT_OF_SEQUENCE, "rxe0", 1, 2, false);
	add(SEC(20), HS_NAK_SEQ_RCVD, "rxe0", 1, 1, false);
	add(SEC(30), HS_OUT_OF_SEQUENCE, "rxe0", 1, 1, false);
	add(SEC(40), HS_NAK_SEQ_RCVD, "rxe0", 1, 1, false);
	add(SEC(41), HS_OUT_OF_SEQUENCE, "rxe0", 2, 4, false);	/* other port */
	eval(SEC(50));
	assert_int_equal(res.verdict, VERDICT_DEGRADED);
	assert_int_equal(res.nr_reasons, 1);
	i = find("out_of_sequence", "rxe0", 1);
	assert_int_equal(i, 0);
	assert_string_equal(res.reasons[i].severity, "degraded");
	assert_int_equal(res.reasons[i].count, 5);
	assert_int_equal(res.reasons[i].at_ns, SEC(40));
	assert_false(res.reasons[i].shared);
	assert_int_equal(res.culprit, i);
}

static void oos_ages_out_of_window(void **state)
{
	(void)state;
	add(SEC(10), HS_OUT_OF_SEQUENCE, "rxe0", 1, 3, false);
	add(SEC(20), HS_NAK_SEQ_RCVD, "rxe0", 1, 2, false);
	/* all within window_s of now: degraded */
	eval(SEC(10 + 60));
	assert_int_equal(res.verdict, VERDICT_DEGRADED);
	/* the first is older than window_s: 2 < 5 */
	eval(SEC(10 + 61));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.culprit, -1);
	/* all older than window_s (but within hold_s) */
	eval(SEC(200));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.nr_reasons, 0);
	assert_int_equal(res.culprit, -1);
}

static void retry_exceeded_held(void **state)
{
	int i;

	(void)state;
	add(SEC(100), HS_RETRY_EXCEEDED, "rxe0", 1, 1, false);
	eval(SEC(101));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	i = find("retry_exceeded", "rxe0", 1);
	assert_true(i >= 0);
	assert_string_equal(res.reasons[i].severity, "failing");
	assert_int_equal(res.reasons[i].count, 1);
	assert_int_equal(res.reasons[i].at_ns, SEC(100));
	assert_int_equal(res.culprit, i);
	/* well after window_s, still within hold_s */
	eval(SEC(100 + 299));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	eval(SEC(100 + 300));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	eval(SEC(100 + 300) + 1);
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.nr_reasons, 0);
	assert_int_equal(res.culprit, -1);
}

static void other_fatal_signals(void **state)
{
	(void)state;
	add(SEC(1), HS_RNR_RETRY_EXCEEDED, "rxe0", 1, 1, false);
	add(SEC(2), HS_QP_ERROR, "rxe0", 1, 1, false);
	eval(SEC(3));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	assert_int_equal(res.nr_reasons, 2);
	assert_true(find("rnr_retry_exceeded", "rxe0", 1) >= 0);
	assert_true(find("qp_error", "rxe0", 1) >= 0);
	/* the newest failing reason is the culprit */
	assert_int_equal(res.culprit, find("qp_error", "rxe0", 1));
}

static void flap_traffic_unknown(void **state)
{
	int i;

	(void)state;
	track.nr_visible = 0;
	add(SEC(10), HS_LINK_FLAP, "rxe0", 1, 1, true);
	eval(SEC(20));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	i = find("link_flap", "rxe0", 1);
	assert_true(i >= 0);
	assert_string_equal(res.reasons[i].severity, "failing");
	assert_int_equal(res.reasons[i].count, 1);
	assert_true(res.reasons[i].shared);
	assert_int_equal(res.culprit, i);
	/* held for hold_s */
	eval(SEC(10 + 300));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	eval(SEC(10 + 301));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
}

static void flap_idle_is_notice(void **state)
{
	int i;

	(void)state;
	health_visible(&track, "rxe0", 1);
	add(SEC(10), HS_LINK_FLAP, "rxe0", 1, 1, true);
	/* traffic on another port does not count */
	add(SEC(9), HS_TRAFFIC, "rxe0", 2, 100, false);
	add(SEC(9), HS_TRAFFIC, "rxe1", 1, 100, false);
	eval(SEC(20));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.culprit, -1);
	assert_int_equal(res.nr_reasons, 1);
	i = find("link_flap", "rxe0", 1);
	assert_int_equal(i, 0);
	assert_string_equal(res.reasons[i].severity, "notice");
}

/* traffic seen on rxe0 says nothing of an offloading NIC's port: not idle there */
static void flap_on_unseen_port_fails(void **state)
{
	int i;

	(void)state;
	health_visible(&track, "rxe0", 1);
	add(SEC(10), HS_LINK_FLAP, "mlx5_0", 1, 1, true);
	add(SEC(10), HS_LINK_FLAP, "rxe0", 1, 1, true);
	eval(SEC(20));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	i = find("link_flap", "mlx5_0", 1);
	assert_true(i >= 0);
	assert_string_equal(res.reasons[i].severity, "failing");
	assert_int_equal(res.culprit, i);
	i = find("link_flap", "rxe0", 1);
	assert_true(i >= 0);
	assert_string_equal(res.reasons[i].severity, "notice");
}

static void flap_with_traffic_fails(void **state)
{
	int i;

	(void)state;
	health_visible(&track, "rxe0", 1);
	add(SEC(100), HS_TRAFFIC, "rxe0", 1, 5000, false);
	add(SEC(130), HS_LINK_FLAP, "rxe0", 1, 1, true);
	eval(SEC(140));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	i = find("link_flap", "rxe0", 1);
	assert_true(i >= 0);
	assert_string_equal(res.reasons[i].severity, "failing");
	assert_int_equal(res.culprit, i);
}

static void flap_after_old_traffic_is_notice(void **state)
{
	(void)state;
	health_visible(&track, "rxe0", 1);
	/* traffic more than window_s before the flap */
	add(SEC(100), HS_TRAFFIC, "rxe0", 1, 5000, false);
	add(SEC(100 + 61), HS_LINK_FLAP, "rxe0", 1, 1, true);
	eval(SEC(170));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.nr_reasons, 1);
	assert_string_equal(res.reasons[0].severity, "notice");
}

static void port_down_fails(void **state)
{
	struct health_port_state down = { .kind = HP_DOWN, .device = "mlx5_0", .port = 2,
					  .since_ns = SEC(50) };

	(void)state;
	health_eval(&track, &cfg, SEC(60), &down, 1, &res);
	assert_int_equal(res.verdict, VERDICT_FAILING);
	assert_int_equal(res.nr_reasons, 1);
	assert_string_equal(res.reasons[0].reason, "port_down");
	assert_string_equal(res.reasons[0].severity, "failing");
	assert_string_equal(res.reasons[0].device, "mlx5_0");
	assert_int_equal(res.reasons[0].port, 2);
	assert_int_equal(res.reasons[0].count, 1);
	assert_int_equal(res.culprit, 0);
}

/* probes lost or slow from a used port: degraded, the pairs counted, the evidence kept */
static void path_states_degrade(void **state)
{
	struct health_port_state st[2] = {
		{ .kind = HP_PATH_LOSS, .device = "mlx5_0", .port = 1, .since_ns = SEC(40),
		  .count = 3, .detail = "3 of 8 peers lose probes; worst gpu2/mlx5_0/1 31%" },
		{ .kind = HP_PATH_LATENCY, .device = "mlx5_1", .port = 1, .since_ns = SEC(45) },
	};
	int i;

	(void)state;
	health_eval(&track, &cfg, SEC(60), st, 2, &res);
	assert_int_equal(res.verdict, VERDICT_DEGRADED);
	i = find("path_loss", "mlx5_0", 1);
	assert_true(i >= 0);
	assert_string_equal(res.reasons[i].severity, "degraded");
	assert_int_equal(res.reasons[i].count, 3);
	assert_string_equal(res.reasons[i].detail, st[0].detail);
	assert_int_equal(res.culprit, i);	/* the one with most pairs */
	i = find("path_latency", "mlx5_1", 1);
	assert_true(i >= 0);
	assert_int_equal(res.reasons[i].count, 1);
	assert_string_equal(res.reasons[i].detail, "");
}

static void failing_beats_degraded(void **state)
{
	const struct health_reason *c;

	(void)state;
	add(SEC(10), HS_OUT_OF_SEQUENCE, "rxe0", 1, 50, false);
	add(SEC(11), HS_QP_ERROR, "rxe0", 2, 1, false);
	add(SEC(12), HS_OUT_OF_SEQUENCE, "rxe0", 1, 50, false);
	eval(SEC(20));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	assert_int_equal(res.nr_reasons, 2);
	assert_true(find("out_of_sequence", "rxe0", 1) >= 0);
	assert_string_equal(res.reasons[find("out_of_sequence", "rxe0", 1)].severity,
			    "degraded");
	assert_true(res.culprit >= 0);
	c = &res.reasons[res.culprit];
	assert_string_equal(c->reason, "qp_error");
	assert_string_equal(c->severity, "failing");
	assert_string_equal(c->device, "rxe0");
	assert_int_equal(c->port, 2);
}

static void degraded_culprit_most_events(void **state)
{
	const struct health_reason *c;

	(void)state;
	add(SEC(10), HS_ACK_TIMEOUT, "rxe0", 1, 6, false);
	add(SEC(11), HS_RNR_NAK, "rxe1", 1, 150, false);
	add(SEC(12), HS_OUT_OF_SEQUENCE, "rxe2", 1, 9, false);
	eval(SEC(20));
	assert_int_equal(res.verdict, VERDICT_DEGRADED);
	assert_int_equal(res.nr_reasons, 3);
	assert_true(find("ack_timeout", "rxe0", 1) >= 0);
	assert_true(find("rnr_nak", "rxe1", 1) >= 0);
	assert_true(find("out_of_sequence", "rxe2", 1) >= 0);
	c = &res.reasons[res.culprit];
	assert_string_equal(c->reason, "rnr_nak");
	assert_int_equal(c->count, 150);
}

static void below_ack_rnr_thresholds(void **state)
{
	(void)state;
	add(SEC(10), HS_ACK_TIMEOUT, "rxe0", 1, 4, false);
	add(SEC(11), HS_RNR_NAK, "rxe0", 1, 99, false);
	eval(SEC(20));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.nr_reasons, 0);
}

static void pause_storm_degrades(void **state)
{
	int i;

	(void)state;
	add(SEC(10), HS_PAUSE_STORM, "rxe0", 1, 1, true);
	eval(SEC(20));
	assert_int_equal(res.verdict, VERDICT_DEGRADED);
	i = find("pause_storm", "rxe0", 1);
	assert_true(i >= 0);
	assert_string_equal(res.reasons[i].severity, "degraded");
	assert_true(res.reasons[i].shared);
	assert_int_equal(res.culprit, i);
	/* only within window_s */
	eval(SEC(10 + 61));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
}

static void shared_propagates(void **state)
{
	int i;

	(void)state;
	add(SEC(10), HS_OUT_OF_SEQUENCE, "rxe0", 1, 3, false);
	add(SEC(12), HS_NAK_SEQ_RCVD, "rxe0", 1, 3, true);
	add(SEC(10), HS_RETRY_EXCEEDED, "rxe1", 1, 1, true);
	add(SEC(10), HS_OUT_OF_SEQUENCE, "rxe2", 1, 10, false);
	eval(SEC(20));
	i = find("out_of_sequence", "rxe0", 1);
	assert_true(i >= 0);
	assert_true(res.reasons[i].shared);
	assert_int_equal(res.reasons[i].count, 6);
	i = find("retry_exceeded", "rxe1", 1);
	assert_true(i >= 0);
	assert_true(res.reasons[i].shared);
	i = find("out_of_sequence", "rxe2", 1);
	assert_true(i >= 0);
	assert_false(res.reasons[i].shared);
}

static void future_signals_ignored(void **state)
{
	(void)state;
	add(SEC(100), HS_QP_ERROR, "rxe0", 1, 1, false);
	eval(SEC(50));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	assert_int_equal(res.nr_reasons, 0);
}

static const struct health_signal *newest(void)
{
	return &track.sig[(track.head + HEALTH_MAX_SIGNALS - 1) % HEALTH_MAX_SIGNALS];
}

static void add_folds(void **state)
{
	(void)state;
	add(SEC(10), HS_OUT_OF_SEQUENCE, "rxe0", 1, 1, false);
	add(SEC(10) + NS_PER_S / 2, HS_OUT_OF_SEQUENCE, "rxe0", 1, 2, false);
	add(SEC(10) + NS_PER_S / 2 + NS_PER_S - 1, HS_OUT_OF_SEQUENCE, "rxe0", 1, 4, false);
	assert_int_equal(track.count, 1);
	assert_int_equal(newest()->n, 7);
	assert_int_equal(newest()->at_ns, SEC(10) + NS_PER_S / 2 + NS_PER_S - 1);
	/* a second after the newest: not folded */
	add(SEC(10) + NS_PER_S / 2 + NS_PER_S - 1 + NS_PER_S, HS_OUT_OF_SEQUENCE, "rxe0", 1, 1, false);
	assert_int_equal(track.count, 2);
	/* differing sig, device, port or shared: not folded */
	add(SEC(12), HS_NAK_SEQ_RCVD, "rxe0", 1, 1, false);
	add(SEC(12), HS_NAK_SEQ_RCVD, "rxe1", 1, 1, false);
	add(SEC(12), HS_NAK_SEQ_RCVD, "rxe1", 2, 1, false);
	add(SEC(12), HS_NAK_SEQ_RCVD, "rxe1", 2, 1, true);
	assert_int_equal(track.count, 6);
	/* older than the newest: not folded */
	add(SEC(11), HS_NAK_SEQ_RCVD, "rxe1", 2, 1, true);
	assert_int_equal(track.count, 7);
	/* link flaps are never folded */
	add(SEC(20), HS_LINK_FLAP, "rxe0", 1, 1, true);
	add(SEC(20), HS_LINK_FLAP, "rxe0", 1, 1, true);
	add(SEC(20) + 1, HS_LINK_FLAP, "rxe0", 1, 1, true);
	assert_int_equal(track.count, 10);
	assert_int_equal(newest()->n, 1);
	assert_int_equal(track.dropped, 0);
	/* the folded counts all show in the evaluation */
	eval(SEC(21));
	assert_int_equal(res.reasons[find("link_flap", "rxe0", 1)].count, 3);
	assert_int_equal(res.reasons[find("out_of_sequence", "rxe0", 1)].count, 8 + 1);
}

static void ring_overflow(void **state)
{
	const unsigned int extra = 37;
	unsigned int i;

	(void)state;
	for (i = 0; i < HEALTH_MAX_SIGNALS + extra; i++)
		add(SEC(2 * i), HS_OUT_OF_SEQUENCE, "rxe0", 1, i + 1, false);
	assert_int_equal(track.count, HEALTH_MAX_SIGNALS);
	assert_int_equal(track.dropped, extra);
	assert_int_equal(newest()->at_ns, SEC(2 * (HEALTH_MAX_SIGNALS + extra - 1)));
	assert_int_equal(newest()->n, HEALTH_MAX_SIGNALS + extra);
	/* the oldest kept one is at head when full */
	assert_int_equal(track.sig[track.head].at_ns, SEC(2 * extra));
	/* a flap added now is kept */
	add(SEC(2 * (HEALTH_MAX_SIGNALS + extra)), HS_LINK_FLAP, "rxe0", 1, 1, true);
	assert_int_equal(track.dropped, extra + 1);
	assert_int_equal(newest()->sig, HS_LINK_FLAP);
	eval(SEC(2 * (HEALTH_MAX_SIGNALS + extra)));
	assert_int_equal(res.verdict, VERDICT_FAILING);
	assert_true(find("link_flap", "rxe0", 1) >= 0);
}

static void expire_old(void **state)
{
	(void)state;
	add(SEC(0), HS_QP_ERROR, "rxe0", 1, 1, false);
	add(SEC(100), HS_RETRY_EXCEEDED, "rxe0", 1, 1, false);
	add(SEC(400), HS_PAUSE_STORM, "rxe0", 1, 1, true);
	/* keeps max(window_s, hold_s) = 300 s */
	health_expire(&track, &cfg, SEC(300));
	assert_int_equal(track.count, 3);
	health_expire(&track, &cfg, SEC(300) + 1);
	assert_int_equal(track.count, 2);
	health_expire(&track, &cfg, SEC(401));
	assert_int_equal(track.count, 1);
	assert_int_equal(newest()->sig, HS_PAUSE_STORM);
	eval(SEC(401));
	assert_int_equal(res.verdict, VERDICT_DEGRADED);
	assert_int_equal(res.nr_reasons, 1);
	health_expire(&track, &cfg, SEC(10000));
	assert_int_equal(track.count, 0);
	eval(SEC(10000));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	/* window_s longer than hold_s */
	cfg.window_s = 1000;
	add(SEC(10000), HS_TRAFFIC, "rxe0", 1, 1, false);
	health_expire(&track, &cfg, SEC(10999));
	assert_int_equal(track.count, 1);
	health_expire(&track, &cfg, SEC(11001));
	assert_int_equal(track.count, 0);
}

/* IB port link errors: degraded from link_errors in window_s, not below */
static void link_errors_degrade(void **state)
{
	int i;

	(void)state;
	add(SEC(10), HS_LINK_ERRORS, "mlx5_0", 1, 9, true);
	eval(SEC(11));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	add(SEC(12), HS_LINK_ERRORS, "mlx5_0", 1, 1, true);
	eval(SEC(13));
	assert_int_equal(res.verdict, VERDICT_DEGRADED);
	i = find("link_errors", "mlx5_0", 1);
	assert_true(i >= 0);
	assert_int_equal(res.culprit, i);
	assert_string_equal(res.reasons[i].severity, "degraded");
	assert_int_equal(res.reasons[i].count, 10);
	assert_true(res.reasons[i].shared);
	eval(SEC(12 + 61));	/* out of the window */
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
}

/* a job that moves nothing on the port: a notice */
static void link_errors_idle_is_notice(void **state)
{
	int i;

	(void)state;
	health_visible(&track, "mlx5_0", 1);
	add(SEC(10), HS_LINK_ERRORS, "mlx5_0", 1, 500, true);
	eval(SEC(11));
	assert_int_equal(res.verdict, VERDICT_HEALTHY);
	i = find("link_errors", "mlx5_0", 1);
	assert_true(i >= 0);
	assert_string_equal(res.reasons[i].severity, "notice");
	add(SEC(12), HS_TRAFFIC, "mlx5_0", 1, 1000, false);
	eval(SEC(13));
	assert_int_equal(res.verdict, VERDICT_DEGRADED);
}

#define T(fn) cmocka_unit_test_setup(fn, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(defaults_and_names),
		T(no_signals_healthy),
		T(oos_below_threshold),
		T(oos_reaches_threshold),
		T(oos_ages_out_of_window),
		T(retry_exceeded_held),
		T(other_fatal_signals),
		T(flap_traffic_unknown),
		T(flap_idle_is_notice),
		T(flap_on_unseen_port_fails),
		T(flap_with_traffic_fails),
		T(flap_after_old_traffic_is_notice),
		T(port_down_fails),
		T(path_states_degrade),
		T(failing_beats_degraded),
		T(degraded_culprit_most_events),
		T(below_ack_rnr_thresholds),
		T(pause_storm_degrades),
		T(link_errors_degrade),
		T(link_errors_idle_is_notice),
		T(shared_propagates),
		T(future_signals_ignored),
		T(add_folds),
		T(ring_overflow),
		T(expire_old),
	};

	return cmocka_run_group_tests_name("health", tests, NULL, NULL);
}
