// SPDX-License-Identifier: GPL-2.0
/*
 * test_fold - the folds (fold.h) over readings made by hand, pass by pass
 * as collect_sample() runs them: a change of port source (fabtel.ko
 * unloaded, plain sysfs read instead) is a new baseline, not a flap; a
 * 64-bit driver counter that falls was reset, it did not wrap; a 32-bit
 * one (mlx5's Q counters) wraps; after a reset the rate is unknown; a
 * counter held (not read this pass) keeps its rate.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "collector.h"
#include "fold.h"
#include "memfs.h"
#include "readings.h"

#define S(x)	((uint64_t)(x) * NS_PER_S)
#define T0	S(1790000000)

static struct model m;
static struct raw r;
static uint64_t t;	/* seconds since T0 */

static void pass(void)
{
	readings_pass(&m, &r, ++t);
}

/* rxa port 1 as fabtel.ko or plain sysfs gives it; job 7 has a QP on it */
static int setup(void **state)
{
	(void)state;
	readings_rxa_job7(&m, &r);
	r.ports[0].have_flaps = true;
	t = 0;
	return 0;
}

static bool job_has_reason(const char *dev, enum health_sig sig)
{
	const struct model_job *j = &m.jobs[0];
	unsigned int i;

	for (i = 0; j->present && i < j->result.nr_reasons; i++)
		if (!strcmp(j->result.reasons[i].reason, health_sig_name(sig)) &&
		    !strcmp(j->result.reasons[i].device, dev))
			return true;
	return false;
}

static void source_change_is_no_flap(void **state)
{
	const struct model_port *p;

	(void)state;
	r.ko = true;
	r.ports[0].flaps = 0;		/* fabtel.ko's link_flaps */
	pass();
	pass();
	/* fabtel.ko unloaded: carrier_down_count counts the down at setup too */
	r.ko = false;
	r.ports[0].flaps = 7;
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_non_null(p);
	assert_int_equal(p->flaps.total, 0);
	assert_int_equal(readings_events(&m, EV_LINK_FLAP), 0);
	assert_true(m.jobs[0].present);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	assert_false(job_has_reason("rxa", HS_LINK_FLAP));
	/* and back: fabtel.ko loaded again, its count from 0 */
	r.ko = true;
	r.ports[0].flaps = 0;
	pass();
	assert_int_equal(p->flaps.total, 0);
	assert_int_equal(readings_events(&m, EV_LINK_FLAP), 0);
	/* a real flap after that still counts, and fails the job */
	r.ports[0].flaps = 1;
	pass();
	assert_int_equal(p->flaps.total, 1);
	assert_int_equal(readings_events(&m, EV_LINK_FLAP), 1);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_FAILING);
	assert_true(job_has_reason("rxa", HS_LINK_FLAP));
}

static void source_change_keeps_counters(void **state)
{
	const struct model_port *p;

	(void)state;
	r.ko = true;
	r.ports[0].have[FABTEL_NAK_SEQ_ERR_RCVD] = true;
	r.ports[0].ctr[FABTEL_NAK_SEQ_ERR_RCVD] = 500;
	pass();
	r.ports[0].ctr[FABTEL_NAK_SEQ_ERR_RCVD] = 520;
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_true(p->rate[FABTEL_NAK_SEQ_ERR_RCVD].valid);
	assert_int_equal(p->ctr[FABTEL_NAK_SEQ_ERR_RCVD].total, 520);
	/* sysfs gives the driver's own value, which fabtel.ko had not: 3 */
	r.ko = false;
	r.ports[0].ctr[FABTEL_NAK_SEQ_ERR_RCVD] = 3;
	r.ports[0].width[FABTEL_NAK_SEQ_ERR_RCVD] = 64;
	pass();
	assert_int_equal(p->ctr[FABTEL_NAK_SEQ_ERR_RCVD].total, 520);
	assert_false(p->rate[FABTEL_NAK_SEQ_ERR_RCVD].valid);
	assert_false(job_has_reason("rxa", HS_NAK_SEQ_RCVD));
	r.ports[0].ctr[FABTEL_NAK_SEQ_ERR_RCVD] = 5;
	pass();
	assert_int_equal(p->ctr[FABTEL_NAK_SEQ_ERR_RCVD].total, 522);
	assert_true(p->rate[FABTEL_NAK_SEQ_ERR_RCVD].valid);
	assert_true(p->rate[FABTEL_NAK_SEQ_ERR_RCVD].per_s > 1.99);
}

/* a 64-bit counter falling from between 2^31 and 2^32 was reset */
static void wide_counter_reset_is_no_wrap(void **state)
{
	const struct model_port *p;

	(void)state;
	r.ko = false;
	r.ports[0].have[FABTEL_OUT_OF_SEQUENCE] = true;
	r.ports[0].width[FABTEL_OUT_OF_SEQUENCE] = 64;
	r.ports[0].ctr[FABTEL_OUT_OF_SEQUENCE] = 3000000000ULL;
	pass();
	pass();
	r.ports[0].ctr[FABTEL_OUT_OF_SEQUENCE] = 2;	/* reset, then 2 */
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_int_equal(p->ctr[FABTEL_OUT_OF_SEQUENCE].total, 3000000002ULL);
	assert_int_equal(p->ctr[FABTEL_OUT_OF_SEQUENCE].resets, 1);
	assert_false(p->rate[FABTEL_OUT_OF_SEQUENCE].valid);	/* unknown, not 1.29e9/s */
	/* 2 out-of-sequence since the reset: below oos_events, still healthy */
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	r.ports[0].ctr[FABTEL_OUT_OF_SEQUENCE] = 6;
	pass();
	assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].valid);
	assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].per_s > 3.99 &&
		    p->rate[FABTEL_OUT_OF_SEQUENCE].per_s < 4.01);
}

/*
 * Plain sysfs gives a quiet hw_counters file's last value again in the
 * samples it does not read it (held): its rate stays that of its last
 * read, and the rise the next read finds is over the seconds since the read
 * before, not all in one sample (8 in 4 s: 2/s, not 8/s).
 */
static void held_counter_rate_over_its_span(void **state)
{
	const struct model_port *p;
	unsigned int i;

	(void)state;
	r.ko = false;
	r.ports[0].have[FABTEL_OUT_OF_SEQUENCE] = true;
	r.ports[0].width[FABTEL_OUT_OF_SEQUENCE] = 64;
	r.ports[0].ctr[FABTEL_OUT_OF_SEQUENCE] = 10;
	pass();
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].valid);
	assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].per_s == 0);
	r.ports[0].held = 1u << FABTEL_OUT_OF_SEQUENCE;
	for (i = 0; i < 3; i++) {
		pass();
		assert_true(p->have[FABTEL_OUT_OF_SEQUENCE]);
		assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].valid);
		assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].per_s == 0);
	}
	r.ports[0].held = 0;
	r.ports[0].ctr[FABTEL_OUT_OF_SEQUENCE] = 18;
	pass();
	assert_int_equal(p->ctr[FABTEL_OUT_OF_SEQUENCE].total, 18);
	assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].per_s > 1.99 &&
		    p->rate[FABTEL_OUT_OF_SEQUENCE].per_s < 2.01);
}

/*
 * fabtel.ko's own counts (link_flaps, events_seq, events_dropped) are
 * 64-bit: one that falls from between 2^31 and 2^32 (the module's state
 * lost under the same fabteld pass, say) is a reset, not a 32-bit wrap
 * adding 1.29e9 flaps and bursts.
 */
static void ko_counts_are_wide(void **state)
{
	const struct model_port *p;

	(void)state;
	r.ko = true;
	r.ports[0].flaps = 3000000000ULL;
	r.ports[0].have_bursts = true;
	r.ports[0].bursts = 3000000000ULL;
	r.ports[0].have_events_dropped = true;
	r.ports[0].events_dropped = 3000000000ULL;
	pass();
	pass();
	r.ports[0].flaps = 1;
	r.ports[0].bursts = 1;
	r.ports[0].events_dropped = 1;
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_int_equal(p->flaps.total, 3000000001ULL);
	assert_int_equal(p->bursts.total, 3000000001ULL);
	assert_int_equal(p->events_dropped.total, 3000000001ULL);
	assert_int_equal(readings_events(&m, EV_LINK_FLAP), 1);
	assert_int_equal(readings_events(&m, EV_ERROR_BURST), 1);
}

/*
 * fabtel.ko's detail of bursts and flaps into the events: one event per
 * counter for the bursts it detailed (their count, rises summed, span),
 * one counting those the ring lost,
 * a flap with its down time; each names the job with QPs on the port.
 */
static void events_carry_evidence(void **state)
{
	const struct model_event *ev;
	struct raw_port *rp = &r.ports[0];
	uint64_t s;
	unsigned int detailed = 0, counted = 0, flaps = 0;

	(void)state;
	r.ko = true;
	rp->have_bursts = true;
	rp->bursts = 5;
	pass();
	pass();		/* job 7 known, with its QP on rxa/1 */
	rp->bursts = 8;
	rp->flaps = 1;
	rp->nr_burst_ev = 2;
	rp->burst_ev[0] = (struct raw_burst){ .seq = 7, .at_ns = T0, .amount = 412,
					      .span_ns = 100000000 };
	snprintf(rp->burst_ev[0].counter, sizeof(rp->burst_ev[0].counter), "nak_seq_err_rcvd");
	rp->burst_ev[1] = rp->burst_ev[0];
	rp->burst_ev[1].seq = 8;
	rp->burst_ev[1].amount = 9;
	rp->have_flap_down = true;
	rp->flap_down_ns = 300000000;
	pass();
	for (s = 1; s < m.next_event_seq; s++) {
		if (!(ev = model_event_get(&m, s)))
			continue;
		if (ev->kind == EV_ERROR_BURST && ev->amount) {
			/* the pass's two bursts of one counter: one event */
			assert_string_equal(ev->counter, "nak_seq_err_rcvd");
			assert_int_equal(ev->count, 2);
			assert_int_equal(ev->amount, 421);
			assert_int_equal(ev->span_ns, 100000000);
			detailed++;
		} else if (ev->kind == EV_ERROR_BURST) {
			assert_int_equal(ev->count, 1);	/* 3 bursts, 2 detailed */
			counted++;
		} else if (ev->kind == EV_LINK_FLAP) {
			assert_true(ev->have_down);
			assert_int_equal(ev->down_ns, 300000000);
			flaps++;
		} else {
			continue;
		}
		assert_int_equal(ev->nr_jobs, 1);
		assert_string_equal(ev->jobs, "7");
	}
	assert_int_equal(detailed, 1);
	assert_int_equal(counted, 1);
	assert_int_equal(flaps, 1);
}

/*
 * A port renegotiated from 400G to 200G while ACTIVE: link_degraded, a
 * degraded verdict for the job on it (traffic unknown here); back at 400G
 * it clears.  A port that is down says nothing about its speed.
 */
static void speed_drop_degrades(void **state)
{
	const struct model_port *p;

	(void)state;
	r.ports[0].have_rate = true;
	r.ports[0].rate_mbps = 400000;
	r.ports[0].lanes = 4;
	pass();
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_false(p->degraded);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	r.ports[0].rate_mbps = 200000;
	r.ports[0].lanes = 2;
	pass();
	assert_true(p->degraded);
	assert_int_equal(p->rate_max_mbps, 400000);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_DEGRADED);
	assert_int_equal(m.jobs[0].result.nr_reasons, 1);
	assert_string_equal(m.jobs[0].result.reasons[0].reason, "link_degraded");
	assert_string_equal(m.jobs[0].result.reasons[0].severity, "degraded");
	r.ports[0].rate_mbps = 400000;
	pass();
	assert_false(p->degraded);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	/* down at a low rate: port_down's business, not a slower link */
	snprintf(r.ports[0].state, sizeof(r.ports[0].state), "DOWN");
	r.ports[0].rate_mbps = 10000;
	pass();
	assert_false(p->degraded);
}

/*
 * A port that came up at 200G where both ends advertise 400G is degraded
 * from its first sample (no history needed); with a partner that only
 * offers 200G, or one the driver does not report, it is not.
 */
static void speed_below_partner_degrades(void **state)
{
	struct raw_port *rp = &r.ports[0];
	const struct model_port *p;

	(void)state;
	rp->have_rate = true;
	rp->rate_mbps = 200000;
	rp->lanes = 2;
	rp->have_nd_speed = true;
	rp->nd_speed_mbps = 200000;
	rp->have_lm = true;
	rp->lm.supported_mbps = 400000;
	rp->lm.advertised_mbps = 400000;
	rp->lm.peer_mbps = 400000;
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_true(p->degraded);
	assert_int_equal(p->rate_max_mbps, 200000);
	assert_int_equal(p->lm_peer_mbps, 400000);
	rp->lm.peer_mbps = 200000;
	pass();
	assert_false(p->degraded);
	rp->lm.peer_mbps = 0;
	pass();
	assert_false(p->degraded);
	/* we advertise only up to 200G (an operator's choice): not degraded */
	rp->lm.peer_mbps = 400000;
	rp->lm.advertised_mbps = 200000;
	pass();
	assert_false(p->degraded);
}

/*
 * Symbol errors rising on the job's port: link_errors once the rise within
 * window_s reaches the threshold; xmit_discards (congestion) does not
 * count; the first reading is a baseline, not a rise.
 */
static void link_errors_from_pma(void **state)
{
	struct raw_port *rp = &r.ports[0];
	int i;

	(void)state;
	rp->have_pma[FABTEL_PMA_SYMBOL_ERROR] = true;
	rp->have_pma[FABTEL_PMA_XMIT_DISCARDS] = true;
	rp->pma[FABTEL_PMA_SYMBOL_ERROR] = 50000;	/* old errors: a baseline */
	pass();
	pass();
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	rp->pma[FABTEL_PMA_XMIT_DISCARDS] = 1000;
	rp->pma[FABTEL_PMA_SYMBOL_ERROR] += 6;
	pass();
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	rp->pma[FABTEL_PMA_SYMBOL_ERROR] += 4;
	pass();
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_DEGRADED);
	i = m.jobs[0].result.culprit;
	assert_string_equal(m.jobs[0].result.reasons[i].reason, "link_errors");
	assert_string_equal(m.jobs[0].result.reasons[i].device, "rxa");
	assert_int_equal(m.jobs[0].result.reasons[i].count, 10);
}

/* FEC blocks the FEC could not correct count as link errors; corrected ones not */
static void link_errors_from_fec(void **state)
{
	struct raw_port *rp = &r.ports[0];
	int i;

	(void)state;
	rp->have_fec[ETHNL_FEC_CORRECTED] = true;
	rp->have_fec[ETHNL_FEC_UNCORR] = true;
	pass();
	rp->fec[ETHNL_FEC_CORRECTED] = 1000000;
	pass();
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	rp->fec[ETHNL_FEC_UNCORR] = 25;
	pass();
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_DEGRADED);
	i = m.jobs[0].result.culprit;
	assert_string_equal(m.jobs[0].result.reasons[i].reason, "link_errors");
	assert_int_equal(m.jobs[0].result.reasons[i].count, 25);
}

/*
 * The PHY's CRC errors (driver statistics) are link errors on a port
 * without IB port counters; where the PMA has link-error counters they are
 * not counted again.
 */
static void link_errors_from_phy(void **state)
{
	struct raw_port *rp = &r.ports[0];
	int i;

	(void)state;
	rp->have_es_port[ES_CRC_ERRORS] = true;
	pass();
	rp->es_port[ES_CRC_ERRORS] = 30;
	pass();
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_DEGRADED);
	i = m.jobs[0].result.culprit;
	assert_string_equal(m.jobs[0].result.reasons[i].reason, "link_errors");
	assert_int_equal(m.jobs[0].result.reasons[i].count, 30);
	assert_true(model_find_port(&m, "rxa", 1)->link_err_ns > 0);
}

static void phy_errors_not_twice_with_pma(void **state)
{
	struct raw_port *rp = &r.ports[0];

	(void)state;
	rp->have_es_port[ES_CRC_ERRORS] = true;
	rp->have_pma[FABTEL_PMA_SYMBOL_ERROR] = true;
	pass();
	rp->es_port[ES_CRC_ERRORS] = 30;
	pass();
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
}

/* the module's rx power low-warning flag on the job's port: optics, until it clears */
static void optics_degrades(void **state)
{
	struct raw_port *rp = &r.ports[0];
	const struct model_port *p;
	int i;

	(void)state;
	rp->ddm_read = true;
	rp->ddm.kind = DDM_SFF8636;
	rp->ddm.lanes = 4;
	rp->ddm.have[DDM_RX_POWER] = rp->ddm.have_flags = true;
	pass();
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	rp->ddm.flags[DDM_RX_POWER][DDM_LOW_WARNING] = 0x2;
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_true(p->optics_trouble);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_DEGRADED);
	i = m.jobs[0].result.culprit;
	assert_string_equal(m.jobs[0].result.reasons[i].reason, "optics");
	/* a module the source could not read says nothing: the state clears */
	rp->ddm_err = -EIO;
	pass();
	assert_false(p->optics_trouble);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
}

/* ToS 106 (DSCP 26) mapped to priority 5, PFC only on 3: misconfigured; mapped to 3: fine */
static void misconfigured_tos(void **state)
{
	struct raw_port *rp = &r.ports[0];
	const struct model_port *p;
	int i;

	(void)state;
	rp->cfg.read = rp->cfg.have_pfc = rp->cfg.dscp_mode = true;
	rp->cfg.pfc_en = 1 << 3;
	rp->cfg.tos = 106;
	rp->cfg.tos_prio = 3;
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_false(p->misconfigured);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_HEALTHY);
	rp->cfg.tos_prio = 5;
	pass();
	assert_true(p->misconfigured);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_DEGRADED);
	i = m.jobs[0].result.culprit;
	assert_string_equal(m.jobs[0].result.reasons[i].reason, "misconfigured");
	/* trust pcp: where the ToS lands is not known here, nothing is claimed */
	rp->cfg.tos_prio = -1;
	pass();
	assert_false(p->misconfigured);
}

/* mlx5's Q counters are 32-bit: a small step over 2^32 is a wrap */
static void narrow_counter_wraps(void **state)
{
	const struct model_port *p;

	(void)state;
	r.ko = false;
	r.ports[0].have[FABTEL_OUT_OF_SEQUENCE] = true;
	r.ports[0].width[FABTEL_OUT_OF_SEQUENCE] = 32;
	r.ports[0].ctr[FABTEL_OUT_OF_SEQUENCE] = 4294967290ULL;
	pass();
	r.ports[0].ctr[FABTEL_OUT_OF_SEQUENCE] = 10;
	pass();
	p = model_find_port(&m, "rxa", 1);
	assert_int_equal(p->ctr[FABTEL_OUT_OF_SEQUENCE].total, 4294967306ULL);
	assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].valid);
	assert_true(p->rate[FABTEL_OUT_OF_SEQUENCE].per_s > 15.99);
}

#define P	"/sys/class/infiniband/x0/ports/1"

/* the plain-sysfs parser gives each counter its driver's width */
static void widths_from_the_driver(void **state)
{
	struct collect_opts o;
	struct collector *c;
	struct memfs fs;
	struct raw_port p;

	(void)state;
	collect_opts_default(&o);
	c = collector_new(NULL, &o);
	assert_non_null(c);
	memfs_init(&fs);
	fs_set_backend(&fs.be);
	memfs_put(&fs, P "/link_layer", "Ethernet");
	/* rxe's names: duplicate_request is rxe's (64) though mlx5 has one too */
	memfs_put(&fs, P "/hw_counters/rcvd_seq_err", "1");
	memfs_put(&fs, P "/hw_counters/out_of_seq_request", "1");
	memfs_put(&fs, P "/hw_counters/duplicate_request", "1");
	memfs_put(&fs, P "/hw_counters/rcvd_pkts", "1");
	assert_int_equal(sysfs_read_port(c, P, "x0", "1", &p), 0);
	assert_int_equal(p.width[FABTEL_NAK_SEQ_ERR_RCVD], 64);
	assert_int_equal(p.width[FABTEL_DUPLICATE_REQUEST], 64);
	/* mlx5's: its Q counters are 32 bits, its CNP counters 64 */
	memfs_init(&fs);
	memfs_put(&fs, P "/link_layer", "Ethernet");
	memfs_put(&fs, P "/hw_counters/out_of_sequence", "1");
	memfs_put(&fs, P "/hw_counters/packet_seq_err", "1");
	memfs_put(&fs, P "/hw_counters/duplicate_request", "1");
	memfs_put(&fs, P "/hw_counters/np_cnp_sent", "1");
	assert_int_equal(sysfs_read_port(c, P, "x0", "1", &p), 0);
	assert_int_equal(p.width[FABTEL_OUT_OF_SEQUENCE], 32);
	assert_int_equal(p.width[FABTEL_DUPLICATE_REQUEST], 32);
	assert_int_equal(p.width[FABTEL_CNP_SENT], 64);
	/* one name alone, in two vendors' maps: taken as 32 bits (it may wrap) */
	memfs_init(&fs);
	memfs_put(&fs, P "/link_layer", "Ethernet");
	memfs_put(&fs, P "/hw_counters/duplicate_request", "1");
	assert_int_equal(sysfs_read_port(c, P, "x0", "1", &p), 0);
	assert_int_equal(p.width[FABTEL_DUPLICATE_REQUEST], 32);
	fs_set_backend(NULL);
	collector_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(source_change_is_no_flap, setup),
		cmocka_unit_test_setup(source_change_keeps_counters, setup),
		cmocka_unit_test_setup(wide_counter_reset_is_no_wrap, setup),
		cmocka_unit_test_setup(narrow_counter_wraps, setup),
		cmocka_unit_test_setup(held_counter_rate_over_its_span, setup),
		cmocka_unit_test_setup(ko_counts_are_wide, setup),
		cmocka_unit_test_setup(events_carry_evidence, setup),
		cmocka_unit_test_setup(speed_drop_degrades, setup),
		cmocka_unit_test_setup(speed_below_partner_degrades, setup),
		cmocka_unit_test_setup(link_errors_from_pma, setup),
		cmocka_unit_test_setup(link_errors_from_fec, setup),
		cmocka_unit_test_setup(link_errors_from_phy, setup),
		cmocka_unit_test_setup(phy_errors_not_twice_with_pma, setup),
		cmocka_unit_test_setup(optics_degrades, setup),
		cmocka_unit_test_setup(misconfigured_tos, setup),
		cmocka_unit_test(widths_from_the_driver),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
