// SPDX-License-Identifier: GPL-2.0
/*
 * test_link_trend - link_degrading (collector/link_trend.c) over readings
 * made by hand, pass by pass: FEC-corrected blocks past degrading_fec_ppb
 * of the link's speed, or symbol errors past degrading_symbols a second,
 * raise it while the link is up; a healthy trickle, a lone error and a
 * down link do not.
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
static uint64_t t;	/* seconds since readings' start */

static void pass(void)
{
	readings_pass(&m, &r, ++t);
}

/* rxa port 1; job 7 has a QP on it */
static int setup(void **state)
{
	(void)state;
	readings_rxa_job7(&m, &r);
	t = 0;
	return 0;
}

static bool has_reason_detail(const char *reason, const char *part)
{
	const struct model_job *j = &m.jobs[0];
	unsigned int i;

	for (i = 0; j->present && i < j->result.nr_reasons; i++)
		if (!strcmp(j->result.reasons[i].reason, reason))
			return strstr(j->result.reasons[i].detail, part) != NULL;
	return false;
}

/*
 * link_degrading: corrected FEC blocks past degrading_fec_ppb of the
 * link's speed, or symbol errors past degrading_symbols a second, over
 * degrading_window_s, while the link is up; a healthy link's trickle and a
 * lone symbol error are not; a link that went down has no trend.
 */
static void link_degrading_from_fec_and_symbols(void **state)
{
	struct raw_port *rp = &r.ports[0];
	const struct model_port *p;
	int i;

	(void)state;
	m.opts.health.degrading_window_s = 3;	/* totals read each pass (1 s) */
	rp->have_fec[ETHNL_FEC_CORRECTED] = true;
	rp->have_pma[FABTEL_PMA_SYMBOL_ERROR] = true;
	rp->have_nd_speed = true;
	rp->nd_speed_mbps = 100000;
	for (i = 0; i < 5; i++) {	/* 50000/s at 100 Gb/s: 500 ppb, under 1000 */
		rp->fec[ETHNL_FEC_CORRECTED] += 50000;
		rp->pma[FABTEL_PMA_SYMBOL_ERROR] += i == 2;	/* one lone error */
		pass();
	}
	p = model_find_port(&m, "rxa", 1);
	assert_false(p->trend.degrading);
	assert_true(p->trend.fec_ppb > 499 && p->trend.fec_ppb < 501);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	for (i = 0; i < 3; i++) {	/* 250000/s: 2500 ppb */
		rp->fec[ETHNL_FEC_CORRECTED] += 250000;
		pass();
	}
	assert_true(p->trend.degrading);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_DEGRADED);
	assert_true(has_reason_detail("link_degrading", "FEC corrected blocks (a lower bound) 2.5e+03 ppb"));
	/* down: no trend, no state; up again, a clean start */
	rp->carrier = 0;
	pass();
	assert_false(p->trend.degrading);
	rp->carrier = 1;
	for (i = 0; i < 4; i++) {	/* 20 symbol errors a second, FEC quiet */
		rp->pma[FABTEL_PMA_SYMBOL_ERROR] += 20;
		pass();
	}
	assert_true(p->trend.degrading);
	assert_true(has_reason_detail("link_degrading", "symbol errors 20/s"));
	for (i = 0; i < 5; i++)
		pass();
	assert_false(p->trend.degrading);
}

/*
 * Totals read every 10 s (fabtel.ko's slow_ms, fabteld's fec_s): each
 * step holds 10 s of errors.  At 80 % of the threshold the state is never
 * raised at any pass (a rate over the passes between reads would spike),
 * at twice it, raised from the second step on and held between reads,
 * until the total stops moving.
 */
static void slow_reads_give_true_rates(void **state)
{
	struct raw_port *rp = &r.ports[0];
	const struct model_port *p;
	unsigned int raised = 0;
	int i;

	(void)state;
	rp->have_fec[ETHNL_FEC_CORR_BITS] = true;
	rp->have_nd_speed = true;
	rp->nd_speed_mbps = 100000;
	for (i = 0; i < 60; i++) {	/* 80000 bits/s, read each 10 s: 800 ppb */
		if (i % 10 == 0)
			rp->fec[ETHNL_FEC_CORR_BITS] += 800000;
		pass();
		p = model_find_port(&m, "rxa", 1);
		raised += p->trend.degrading;
	}
	assert_int_equal(raised, 0);
	assert_true(p->trend.fec_ppb > 799 && p->trend.fec_ppb < 801);
	for (i = 0; i < 40; i++) {	/* 200000 bits/s: 2000 ppb */
		if (i % 10 == 0)
			rp->fec[ETHNL_FEC_CORR_BITS] += 2000000;
		pass();
		raised += p->trend.degrading;
	}
	/* the first step's rate mixes in the last 800 ppb step; raised from the second on */
	assert_true(raised >= 29);
	assert_true(p->trend.degrading);
	assert_true(has_reason_detail("link_degrading", "FEC corrected bits 2e+03 ppb of 100000 Mb/s"));
	for (i = 0; i < 25; i++)	/* no more errors: still after two steps' time */
		pass();
	assert_false(p->trend.degrading);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(link_degrading_from_fec_and_symbols, setup),
		cmocka_unit_test_setup(slow_reads_give_true_rates, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
