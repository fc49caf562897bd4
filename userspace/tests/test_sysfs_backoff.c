// SPDX-License-Identifier: GPL-2.0
/*
 * test_sysfs_backoff - the plain-sysfs source (no fabtel.ko) when the
 * driver fails a read (source_sysfs.c, port_reads.h): a hw_counters file
 * whose read fails with EIO, as get_hw_stats failing in firmware does,
 * makes the port's counters absent (not their last values), is not read
 * again before its back-off (1 s, doubled to 300 s), and costs at most 12
 * reads an hour at steady state; its state and failures are reported; one
 * success brings the counters back.  The same for the IB port counters
 * (counters/: a MAD each).  A tree in memory (memfs.h) counts the reads; a
 * clock of the test's own times them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memfs.h"
#include "schema.h"
#include "source.h"
#include "collector.h"

#define S	1000000000ULL
#define PORT	"/sys/class/infiniband/x0/ports/1"
#define BAD	PORT "/hw_counters/packet_seq_err"
#define PMA	PORT "/counters/symbol_error"

static struct memfs fs;
static struct collect_opts opts;
static struct collector *c;	/* a tree's, from make_tree to drop_tree */
static uint64_t now_ns;

static uint64_t test_clock(void)
{
	return now_ns;
}

static void make_tree(void)
{
	memfs_init(&fs);
	memfs_put(&fs, PORT "/link_layer", "Ethernet");
	memfs_put(&fs, PORT "/state", "4: ACTIVE");
	memfs_put(&fs, PORT "/hw_counters/out_of_sequence", "5");
	memfs_put(&fs, BAD, "1");
	memfs_put(&fs, PMA, "7");
	memfs_put(&fs, PORT "/counters/port_xmit_data", "100");
	fs_set_backend(&fs.be);
	collect_opts_default(&opts);
	opts.interval_ms = 1000;
	opts.pma_s = 10;
	now_ns = 1000 * S;
	c = collector_new(NULL, &opts);
	assert_non_null(c);
	port_reads_set_clock(&c->backoffs, test_clock);
}

static void drop_tree(void)
{
	fs_set_backend(NULL);
	collector_free(c);
	c = NULL;
}

static const struct raw_port *sample_at(uint64_t t)
{
	static struct raw_port p;

	now_ns = t;
	assert_int_equal(sysfs_read_port(c, PORT, "x0", "1", &p), 0);
	return &p;
}

static const struct read_status *hw_state(const struct raw_port *p)
{
	return &p->reads.s[READER_FABTELD][PR_HW_COUNTERS];
}

static bool any_counter(const struct raw_port *p)
{
	unsigned int c;

	for (c = 0; c < FABTEL_NR_COUNTERS; c++)
		if (p->have[c])
			return true;
	return false;
}

static void hw_counters_back_off(void **state)
{
	const struct raw_port *p;
	uint64_t t = 1000 * S;
	unsigned int reads;

	(void)state;
	make_tree();
	p = sample_at(t);
	assert_true(p->have[FABTEL_OUT_OF_SEQUENCE]);
	assert_int_equal(hw_state(p)->state, BACKOFF_OK);
	assert_int_equal(p->reads.s[READER_FABTELD][PR_PMA].state, BACKOFF_OK);
	assert_int_equal(p->reads.s[READER_KO][PR_HW_COUNTERS].state, BACKOFF_UNKNOWN);

	memfs_fail(&fs, BAD, EIO);
	p = sample_at(t += S);
	assert_false(any_counter(p));		/* none, not the last values */
	assert_int_equal(p->held, 0);
	assert_int_equal(hw_state(p)->state, BACKOFF_FAILING);
	assert_int_equal(hw_state(p)->err, -EIO);
	assert_int_equal(hw_state(p)->failures, 1);
	assert_int_equal(hw_state(p)->retry_ms, 1000);
	assert_true(p->have_pma[FABTEL_PMA_SYMBOL_ERROR]);	/* another read: unaffected */
	reads = memfs_reads(&fs, BAD);

	/* within the back-off: not asked, nothing given */
	p = sample_at(t + S / 2);
	assert_int_equal(memfs_reads(&fs, BAD), reads);
	assert_false(any_counter(p));
	assert_int_equal(hw_state(p)->state, BACKOFF_FAILING);
	/* due: asked once, fails again, twice as long */
	p = sample_at(t += S);
	assert_int_equal(memfs_reads(&fs, BAD), reads + 1);
	assert_int_equal(hw_state(p)->failures, 2);
	assert_int_equal(hw_state(p)->retry_ms, 2000);
	drop_tree();
}

/* a pass a second for two hours: the failing file read ~20 times, then 12 an hour */
static void hw_counters_steady_state(void **state)
{
	const struct raw_port *p = NULL;
	uint64_t t = 1000 * S;
	unsigned int i, first, second;

	(void)state;
	make_tree();
	memfs_fail(&fs, BAD, EIO);
	for (i = 0; i < 3600; i++)
		p = sample_at(t += S);
	first = memfs_reads(&fs, BAD);
	for (i = 0; i < 3600; i++)
		p = sample_at(t += S);
	second = memfs_reads(&fs, BAD) - first;
	assert_true(first <= 22);
	assert_int_equal(second, 12);
	assert_int_equal(hw_state(p)->retry_ms, 300000);
	assert_int_equal(hw_state(p)->failures, first + second);

	/* it answers again: at the next due read, every counter is back */
	memfs_fail(&fs, BAD, 0);
	for (i = 0; i < 300 && hw_state(p)->state == BACKOFF_FAILING; i++)
		p = sample_at(t += S);
	assert_int_equal(hw_state(p)->state, BACKOFF_OK);
	assert_int_equal(hw_state(p)->retry_ms, 0);
	assert_int_equal(hw_state(p)->failures, first + second);
	assert_true(p->have[FABTEL_OUT_OF_SEQUENCE]);
	assert_int_equal(p->ctr[FABTEL_OUT_OF_SEQUENCE], 5);
	assert_int_equal(p->held, 0);		/* each file read, none held */
	drop_tree();
}

/* the IB port counters: every pma_s (10 s); failing, 10 s then doubled */
static void pma_back_off(void **state)
{
	const struct raw_port *p;
	const struct read_status *st;
	uint64_t t = 1000 * S;
	unsigned int reads, i;

	(void)state;
	make_tree();
	p = sample_at(t);
	assert_true(p->have_pma[FABTEL_PMA_SYMBOL_ERROR]);
	memfs_fail(&fs, PMA, EIO);
	p = sample_at(t += 10 * S);
	st = &p->reads.s[READER_FABTELD][PR_PMA];
	assert_int_equal(st->state, BACKOFF_FAILING);
	assert_int_equal(st->retry_ms, 10000);
	assert_false(p->have_pma[FABTEL_PMA_SYMBOL_ERROR]);
	assert_false(p->have_pma[FABTEL_PMA_XMIT_DATA]);
	assert_true(p->have[FABTEL_OUT_OF_SEQUENCE]);		/* hw_counters: unaffected */
	reads = memfs_reads(&fs, PMA);
	for (i = 1; i < 10; i++) {
		p = sample_at(t + i * S);
		assert_false(p->have_pma[FABTEL_PMA_XMIT_DATA]);	/* not the last reading */
	}
	assert_int_equal(memfs_reads(&fs, PMA), reads);
	p = sample_at(t += 10 * S);
	assert_int_equal(memfs_reads(&fs, PMA), reads + 1);
	assert_int_equal(p->reads.s[READER_FABTELD][PR_PMA].retry_ms, 20000);
	memfs_fail(&fs, PMA, 0);
	p = sample_at(t += 20 * S);
	assert_int_equal(p->reads.s[READER_FABTELD][PR_PMA].state, BACKOFF_OK);
	assert_true(p->have_pma[FABTEL_PMA_SYMBOL_ERROR]);
	drop_tree();
}

/* a file gone, or not a number: listed again, no failure of the driver */
static void gone_is_no_failure(void **state)
{
	const struct raw_port *p;

	(void)state;
	make_tree();
	memfs_fail(&fs, BAD, ENODEV);
	p = sample_at(1001 * S);
	assert_int_equal(hw_state(p)->state, BACKOFF_OK);
	assert_true(p->have[FABTEL_OUT_OF_SEQUENCE]);
	memfs_fail(&fs, BAD, 0);
	memfs_put(&fs, BAD, "12abc");
	p = sample_at(1002 * S);
	assert_int_equal(hw_state(p)->state, BACKOFF_OK);
	assert_int_equal(hw_state(p)->failures, 0);
	drop_tree();
}

/* a port with no hw_counters nor counters/ (rxe's netdev-less case): unsupported */
static void none_is_unsupported(void **state)
{
	const struct raw_port *p;

	(void)state;
	memfs_init(&fs);
	memfs_put(&fs, PORT "/link_layer", "Ethernet");
	memfs_put(&fs, PORT "/state", "4: ACTIVE");
	fs_set_backend(&fs.be);
	collect_opts_default(&opts);
	c = collector_new(NULL, &opts);
	assert_non_null(c);
	port_reads_set_clock(&c->backoffs, test_clock);
	p = sample_at(1000 * S);
	assert_int_equal(hw_state(p)->state, BACKOFF_UNSUPPORTED);
	assert_int_equal(p->reads.s[READER_FABTELD][PR_PMA].state, BACKOFF_UNSUPPORTED);
	drop_tree();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hw_counters_back_off),
		cmocka_unit_test(hw_counters_steady_state),
		cmocka_unit_test(pma_back_off),
		cmocka_unit_test(gone_is_no_failure),
		cmocka_unit_test(none_is_unsupported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
