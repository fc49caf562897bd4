// SPDX-License-Identifier: GPL-2.0
/*
 * test_source_ko - the fabtel.ko source's snapshot parser (source.h) over
 * the example snapshot in Documentation/ABI/testing/sysfs-kernel-fabtel
 * (text read from fabtel.ko in the lab), checked line by line against the
 * text itself; then the ways a snapshot can be wrong, and its reads'
 * states ("source" lines).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memfs.h"
#include "schema.h"
#include "ko_events.h"
#include "source.h"

#define EXAMPLE_MARK	"Example, read from fabtel.ko"

static char example[16384];

/* The example's lines, indentation removed, "fabtel-snapshot 1" to "end". */
static int load_example(void **state)
{
	const char *repo = getenv("REPO") ? getenv("REPO") : ".";
	char path[4096], line[1024], *s;
	size_t len = 0;
	int in = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/Documentation/ABI/testing/sysfs-kernel-fabtel", repo);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (!in && strstr(s, EXAMPLE_MARK))
			in = 1;
		else if (in == 1 && !strcmp(s, "fabtel-snapshot 1\n"))
			in = 2;
		if (in == 2 && len + strlen(s) < sizeof(example)) {
			memcpy(example + len, s, strlen(s) + 1);
			len += strlen(s);
		}
		if (in == 2 && !strcmp(s, "end\n"))
			break;
	}
	fclose(f);
	return len && strstr(example, "\nend\n") ? 0 : -1;
}

static int parse(const char *text, struct raw_port *p)
{
	static char copy[sizeof(example)];

	snprintf(copy, sizeof(copy), "%s", text);
	memset(p, 0, sizeof(*p));
	return ko_parse_snapshot(copy, p);
}

/* fabtel.ko says its read rd fails: what it gave is left out */
static bool ko_failing(const struct raw_port *p, enum port_read rd)
{
	return p->reads.s[READER_KO][rd].state == BACKOFF_FAILING;
}

/* a "source NAME STATE ERRNO ..." line: the read's state and errno in the parsed port */
static void check_source(const char *line, const struct raw_port *p)
{
	char name[64], state[32];
	long long e;
	int rd;

	assert_int_equal(sscanf(line, "source %63s %31s %lld", name, state, &e), 3);
	rd = port_read_lookup(name, strlen(name));
	assert_true(rd >= 0);
	assert_string_equal(port_read_state_name(p->reads.s[READER_KO][rd].state), state);
	assert_int_equal(p->reads.s[READER_KO][rd].err, e);
}

/* Every value line of the example, found in the parsed port. */
static void example_whole(void **state)
{
	char *save = NULL, *line, copy[sizeof(example)], name[64], val[32];
	unsigned long long v[6];
	unsigned int prio, counters = 0, prios = 0, pmas = 0, fecs = 0, nd = 0, ifx = 0;
	struct raw_port p;
	int c;

	(void)state;
	assert_int_equal(parse(example, &p), 0);
	snprintf(copy, sizeof(copy), "%s", example);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "counter %63s %31s", name, val) == 2) {
			c = schema_ctr_find(name);
			assert_true(c >= 0);
			assert_int_equal(p.have[c], strcmp(val, "-") && !ko_failing(&p, PR_HW_COUNTERS));
			if (p.have[c])
				assert_int_equal(p.ctr[c], strtoull(val, NULL, 10));
			counters++;
		} else if (sscanf(line, "pfc_prio %u %llu %llu %llu %llu %llu %llu", &prio, &v[0],
				  &v[1], &v[2], &v[3], &v[4], &v[5]) == 7) {
			prios++;
			if (ko_failing(&p, PR_DCB))
				continue;
			assert_true(p.prio_read[prio]);
			assert_int_equal(p.pause_tx[prio], v[1]);
			assert_int_equal(p.pause_rx[prio], v[2]);
			assert_int_equal(p.storm[prio], v[3] != 0);
			assert_int_equal(p.storms[prio], v[4]);
		} else if (sscanf(line, "device %63s", name) == 1) {
			assert_string_equal(p.device, name);
		} else if (sscanf(line, "link_flaps %llu", &v[0]) == 1) {
			assert_true(p.have_flaps);
			assert_int_equal(p.flaps, v[0]);
		} else if (sscanf(line, "events_seq %llu", &v[0]) == 1) {
			assert_true(p.have_bursts);
			assert_int_equal(p.bursts, v[0]);
		} else if (sscanf(line, "events_dropped %llu", &v[0]) == 1) {
			assert_true(p.have_events_dropped);
			assert_int_equal(p.events_dropped, v[0]);
		} else if (sscanf(line, "pma_counter %63s %31s", name, val) == 2) {
			for (c = 0; c < FABTEL_NR_PMA && strcmp(schema_pma_file(c), name); c++)
				;
			assert_true(c < FABTEL_NR_PMA);
			assert_int_equal(p.have_pma[c], strcmp(val, "-") && !ko_failing(&p, PR_PMA));
			if (p.have_pma[c])	/* the data counters' words made bytes */
				assert_int_equal(p.pma[c],
						 strtoull(val, NULL, 10) * schema_pma_scale(c));
			pmas++;
		} else if (sscanf(line, "fec_stat %63s %31s", name, val) == 2) {
			c = !strcmp(name, "corrected_blocks") ? ETHNL_FEC_CORRECTED :
			    !strcmp(name, "uncorrectable_blocks") ? ETHNL_FEC_UNCORR : ETHNL_FEC_CORR_BITS;
			assert_int_equal(p.have_fec[c], strcmp(val, "-") && !ko_failing(&p, PR_PHY));
			if (p.have_fec[c])
				assert_int_equal(p.fec[c], strtoull(val, NULL, 10));
			fecs++;
		} else if (sscanf(line, "pma_errors %llu", &v[0]) == 1) {
			assert_true(p.have_pma_errors);
			assert_int_equal(p.pma_errors, v[0]);
		} else if (sscanf(line, "netdev_rx_bytes %llu", &v[0]) == 1) {
			assert_int_equal(p.nd_rx_bytes, v[0]);
			nd++;
		} else if (sscanf(line, "netdev_tx_bytes %llu", &v[0]) == 1) {
			assert_int_equal(p.nd_tx_bytes, v[0]);
			nd++;
		} else if (sscanf(line, "netdev_ifindex %llu", &v[0]) == 1) {
			assert_int_equal(p.ifindex, v[0]);
			ifx++;
		} else if (sscanf(line, "netdev %31s", name) == 1) {
			assert_string_equal(p.netdev, strcmp(name, "-") ? name : "");
		} else if (sscanf(line, "link_speed_mbps %llu", &v[0]) == 1) {
			assert_true(p.speed_by_ko);
			assert_int_equal(p.have_nd_speed, !ko_failing(&p, PR_PHY));
			assert_int_equal(p.nd_speed_mbps, v[0]);
		} else if (!strncmp(line, "source ", 7)) {
			check_source(line, &p);
		}
	}
	assert_int_equal(nd, 2);	/* both byte totals: nothing read from statistics/ */
	assert_int_equal(ifx, 1);	/* the netdev's index: no SIOCGIFINDEX at the fold */
	assert_true(p.ifindex > 0);
	assert_true(p.have_nd && p.nd_by_ko);
	assert_true(counters > 0);
	assert_true(prios == 8 || prios == 0);
	assert_int_equal(pmas, FABTEL_NR_PMA);
	assert_true(p.pma_known);
	assert_int_equal(fecs, ETHNL_FEC_NR);
	assert_true(p.fec_known);
	assert_int_equal(p.fec_mode, ko_failing(&p, PR_PHY) ? 0 : ETHTOOL_LINK_MODE_FEC_RS_BIT);
	assert_int_not_equal(p.port, 0);
	/* the keys the table sends elsewhere than their own lines above */
	assert_string_equal(p.driver, "mlx5");
	assert_string_equal(p.state, "ACTIVE");
	assert_int_equal(p.carrier, 1);
	assert_int_equal(p.pfc_read, !ko_failing(&p, PR_DCB));
	assert_int_equal(p.pfc_mask, 0x08);
}

/* What the snapshot is not: another version, cut before its end. */
static void not_a_snapshot(void **state)
{
	char text[sizeof(example)], *end;
	struct raw_port p;

	(void)state;
	assert_int_equal(parse("", &p), -EPROTO);
	snprintf(text, sizeof(text), "fabtel-snapshot 2%s", strchr(example, '\n'));
	assert_int_equal(parse(text, &p), -EPROTO);
	snprintf(text, sizeof(text), "%s", example);
	end = strstr(text, "\nend\n");
	end[1] = '\0';
	assert_int_equal(parse(text, &p), -EPROTO);
	/* a page that ran out is still a snapshot: its lines are whole */
	snprintf(end + 1, sizeof(text) - (size_t)(end + 1 - text), "truncated\n");
	assert_int_equal(parse(text, &p), 0);
	/* device and port are what the port is: without them, no port */
	assert_int_equal(parse("fabtel-snapshot 1\nport 1\nend\n", &p), -EPROTO);
	assert_int_equal(parse("fabtel-snapshot 1\ndevice x\nend\n", &p), -EPROTO);
}

static void absent_and_unknown(void **state)
{
	struct raw_port p;

	(void)state;
	assert_int_equal(parse("fabtel-snapshot 1\ndevice mlx5_0\nport 1\nnetdev -\n"
			       "counter out_of_sequence -\ncounter no_such_counter 5\n"
			       "a_key_of_tomorrow 1 2 3\nlink_carrier -\ndcb_busy_skips 7\n"
			       "pfc_prio 9 1 2 3 0 0 0\nend\n", &p), 0);
	assert_string_equal(p.netdev, "");
	assert_false(p.have[FABTEL_OUT_OF_SEQUENCE]);
	assert_int_equal(p.carrier, -1);
	assert_true(p.have_busy_skips);
	assert_int_equal(p.dcb_busy_skips, 7);
	assert_false(p.have_flaps);
	assert_false(p.pfc_read);
	assert_false(p.pma_known);	/* no "pma" line: counters/ is read instead */
	assert_false(p.nd_by_ko);	/* nor netdev_*_bytes: statistics/ is */
	assert_false(p.speed_by_ko);
	/* "-": no netdev, nothing to read elsewhere; a speed not known: read it */
	assert_int_equal(parse("fabtel-snapshot 1\ndevice mlx5_0\nport 1\nnetdev -\n"
			       "netdev_rx_bytes -\nnetdev_tx_bytes -\nlink_speed_mbps -\nend\n", &p), 0);
	assert_true(p.nd_by_ko);
	assert_false(p.have_nd);
	assert_false(p.speed_by_ko || p.have_nd_speed);
	assert_int_equal(parse("fabtel-snapshot 1\ndevice mlx5_0\nport 1\nnetdev e\n"
			       "netdev_rx_bytes 5\nnetdev_tx_bytes x\nend\n", &p), 0);
	assert_false(p.have_nd);	/* half a pair is no pair */
	for (int i = 0; i < MODEL_PRIOS; i++)
		assert_false(p.prio_read[i]);
}

/*
 * Numbers, read by hand: every digit, or no value; 2^64 - 1 the largest;
 * one more, a sign, a blank inside or a letter, and the value is absent.
 * Lines may be blank, tab-separated or come after blank lines.
 */
static void numbers(void **state)
{
	struct raw_port p;

	(void)state;
	assert_int_equal(parse("\n\nfabtel-snapshot 1\ndevice mlx5_0\nport 1\n\n"
			       "counter out_of_sequence 18446744073709551615\n"
			       "counter nak_seq_err_rcvd 18446744073709551616\n"
			       "counter implied_nak_seq_err +5\ncounter local_ack_timeout 12a\n"
			       "counter rnr_nak_rcvd 0\ncounter duplicate_request 007\n"
			       "counter out_of_buffer\t42\nlink_flaps 99999999999999999999\n"
			       "events_seq 3 4\nend\n", &p), 0);
	assert_true(p.have[FABTEL_OUT_OF_SEQUENCE]);
	assert_true(p.ctr[FABTEL_OUT_OF_SEQUENCE] == UINT64_MAX);
	assert_false(p.have[FABTEL_NAK_SEQ_ERR_RCVD]);
	assert_false(p.have[FABTEL_IMPLIED_NAK_SEQ_ERR]);
	assert_false(p.have[FABTEL_LOCAL_ACK_TIMEOUT]);
	assert_true(p.have[FABTEL_RNR_NAK_RCVD]);
	assert_int_equal(p.ctr[FABTEL_RNR_NAK_RCVD], 0);
	assert_int_equal(p.ctr[FABTEL_DUPLICATE_REQUEST], 7);
	assert_true(p.have[FABTEL_OUT_OF_BUFFER]);
	assert_int_equal(p.ctr[FABTEL_OUT_OF_BUFFER], 42);
	assert_false(p.have_flaps);
	assert_false(p.have_bursts);	/* two values where one goes */
	/* the header first, whatever blank lines lead; nothing after "end" read */
	assert_int_equal(parse("device mlx5_0\nfabtel-snapshot 1\nport 1\nend\n", &p), -EPROTO);
	assert_int_equal(parse("fabtel-snapshot 1\ndevice mlx5_0\nport 1\nend\nlink_flaps 4\n",
			       &p), 0);
	assert_false(p.have_flaps);
	assert_int_equal(parse("", &p), -EPROTO);
	assert_int_equal(parse("\n\n", &p), -EPROTO);
}

/*
 * ko_events_read: a port's first reading is only a baseline; when its
 * events_seq rose, the new events lines are read (counter, rise, the
 * sampler's period as the span); when its flaps rose, the newest up's down
 * time; with no rise, nothing.
 */
static void events_read_on_rise(void **state)
{
	const char *b = "/sys/kernel/fabtel/d0/ports/1";
	static struct fs_kept kept;
	static struct ko_events ke;
	struct collect_opts o;
	struct memfs fs;
	struct raw_port p;
	char path[128];

	(void)state;
	collect_opts_default(&o);
	ko_events_init(&ke, &o, &kept);
	memfs_init(&fs);
	fs_set_backend(&fs.be);
	snprintf(path, sizeof(path), "%s/events", b);
	memfs_put(&fs, path, "1 1000 out_of_sequence 5\n2 2000 nak_seq_err_rcvd 412\n"
		  "3 3000 local_ack_timeout 7\n");
	snprintf(path, sizeof(path), "%s/link/history", b);
	memfs_put(&fs, path, "100 1700000000000000000 down carrier -\n"
		  "200 1700000000300000000 up carrier 300000000\n");
	memfs_put(&fs, "/sys/module/fabtel/parameters/sample_ms", "100");
	memset(&p, 0, sizeof(p));
	snprintf(p.device, sizeof(p.device), "d0");
	p.port = 1;
	p.have_bursts = p.have_flaps = true;
	p.bursts = 1;
	ko_events_read(&ke, b, &p);
	assert_int_equal(p.nr_burst_ev, 0);
	assert_false(p.have_flap_down);
	p.bursts = 3;
	p.flaps = 1;
	ko_events_read(&ke, b, &p);
	assert_int_equal(p.nr_burst_ev, 2);
	assert_string_equal(p.burst_ev[0].counter, "nak_seq_err_rcvd");
	assert_int_equal(p.burst_ev[0].amount, 412);
	assert_int_equal(p.burst_ev[0].span_ns, 100000000);
	assert_int_equal(p.burst_ev[1].seq, 3);
	assert_true(p.have_flap_down);
	assert_int_equal(p.flap_down_ns, 300000000);
	memset(p.burst_ev, 0, sizeof(p.burst_ev));
	p.nr_burst_ev = 0;
	p.have_flap_down = false;
	ko_events_read(&ke, b, &p);
	assert_int_equal(p.nr_burst_ev, 0);
	assert_false(p.have_flap_down);
	fs_set_backend(NULL);
}

/* "pma unsupported": known (no counters/ listing), nothing in it */
static void pma_unsupported(void **state)
{
	struct raw_port p;
	unsigned int c;

	(void)state;
	assert_int_equal(parse("fabtel-snapshot 1\ndevice rxe0\nport 1\npma unsupported\n"
			       "pma_counter symbol_error 5x\npma_counter no_such 3\nend\n", &p), 0);
	assert_true(p.pma_known);
	assert_false(p.have_pma_errors);
	for (c = 0; c < FABTEL_NR_PMA; c++)
		assert_false(p.have_pma[c]);
}

#define HEAD	"fabtel-snapshot 1\ndevice mlx5_0\nport 1\n"

/*
 * "source NAME STATE ERRNO FAILURES RETRY_MS" (kmod/fabtel/fabtel_backoff.c): each
 * read's state; what an unavailable read gave is left out (fabtel.ko keeps
 * its last values); unknown names and states, malformed lines skipped, the
 * rest of the snapshot read; fields after RETRY_MS ignored.
 */
static void source_lines(void **state)
{
	const struct read_status *s;
	struct raw_port p;
	unsigned int c;

	(void)state;
	assert_int_equal(parse(HEAD "counter out_of_sequence 4\npma extended\n"
			       "pma_counter symbol_error 5\npfc_enabled_mask 0x08\n"
			       "pfc_prio 3 1 1200 34 0 0 0\nfec supported\nfec_mode rs\n"
			       "fec_stat corrected_blocks 9\nlink_speed_mbps 100000\n"
			       "source hw_counters ok 0 3 0\nsource pma unavailable -5 7 64000\n"
			       "source dcb unsupported 0 0 0\nsource phy ok 0 0 0\n"
			       "source module ok 0 0 0 a later field or five more x\nend\n", &p), 0);
	s = p.reads.s[READER_KO];
	assert_int_equal(s[PR_HW_COUNTERS].state, BACKOFF_OK);
	assert_int_equal(s[PR_HW_COUNTERS].failures, 3);
	assert_int_equal(s[PR_PMA].state, BACKOFF_FAILING);
	assert_int_equal(s[PR_PMA].err, -EIO);
	assert_int_equal(s[PR_PMA].failures, 7);
	assert_int_equal(s[PR_PMA].retry_ms, 64000);
	assert_int_equal(s[PR_DCB].state, BACKOFF_UNSUPPORTED);
	assert_int_equal(s[PR_MODULE].state, BACKOFF_OK);	/* the extra fields ignored */
	assert_int_equal(p.reads.s[READER_FABTELD][PR_PMA].state, BACKOFF_UNKNOWN);
	assert_true(p.have[FABTEL_OUT_OF_SEQUENCE]);
	for (c = 0; c < FABTEL_NR_PMA; c++)	/* not the last values */
		assert_false(p.have_pma[c]);
	assert_true(p.pma_known);		/* nor asked from counters/ instead */
	assert_true(p.pfc_read && p.prio_read[3]);
	assert_true(p.have_fec[ETHNL_FEC_CORRECTED]);

	/* the other reads failing: their values left out too */
	assert_int_equal(parse(HEAD "counter out_of_sequence 4\npfc_enabled_mask 0x08\n"
			       "pfc_prio 3 1 1200 34 0 0 0\nfec supported\nfec_mode rs\n"
			       "fec_stat corrected_blocks 9\nlink_speed_mbps 100000\n"
			       "source hw_counters unavailable -110 2 2000\n"
			       "source dcb unavailable -22 1 1000\nsource phy unavailable -5 1 10000\n"
			       "end\n", &p), 0);
	assert_false(p.have[FABTEL_OUT_OF_SEQUENCE]);
	assert_int_equal(p.reads.s[READER_KO][PR_HW_COUNTERS].err, -ETIMEDOUT);
	assert_false(p.pfc_read || p.prio_read[3]);
	assert_false(p.have_fec[ETHNL_FEC_CORRECTED]);
	assert_int_equal(p.fec_mode, 0);
	assert_true(p.fec_known);		/* fabteld does not ask ethtool instead */
	assert_false(p.have_nd_speed);
	assert_true(p.speed_by_ko);		/* nor the speed file */

	/* malformed: skipped, each; the lines after them still read */
	assert_int_equal(parse(HEAD "source pma unavailable 5 1 1000\n"	/* errno > 0 */
			       "source pma ok -0 0 0\nsource pma ok x 0 0\nsource pma ok 0 0\n"
			       "source pma ok 0 -1 0\nsource pma ok 0 0 4294967296\n"
			       "source pma ok -4096 0 0\nsource pma sleeping 0 0 0\n"
			       "source gpu unavailable -5 1 1000\nsource\n"
			       "counter out_of_sequence 1 2 3 4 5 6 7 8 9\n"
			       "link_flaps 3\nsource hw_counters unavailable -5 1\nend\n", &p), 0);
	for (c = 0; c < PR_NR; c++)
		assert_int_equal(p.reads.s[READER_KO][c].state, BACKOFF_UNKNOWN);
	assert_false(p.have[FABTEL_OUT_OF_SEQUENCE]);	/* too many fields: not a counter */
	assert_true(p.have_flaps);
	assert_int_equal(p.flaps, 3);
	/* the largest values */
	assert_int_equal(parse(HEAD "source hw_counters unavailable -4095 18446744073709551615 "
			       "4294967295\nend\n", &p), 0);
	assert_int_equal(p.reads.s[READER_KO][PR_HW_COUNTERS].err, -4095);
	assert_true(p.reads.s[READER_KO][PR_HW_COUNTERS].failures == UINT64_MAX);
	assert_true(p.reads.s[READER_KO][PR_HW_COUNTERS].retry_ms == UINT32_MAX);
}

/* "page NAME" and 256 hex digits of page, appended at *at */
static void page_line(char *buf, size_t len, const char *name, const uint8_t *page)
{
	size_t at = strlen(buf);
	unsigned int i;

	at += (size_t)snprintf(buf + at, len - at, "page %s ", name);
	for (i = 0; i < DDM_PAGE_LEN; i++)
		at += (size_t)snprintf(buf + at, len - at, "%02x", page[i]);
	snprintf(buf + at, len - at, "\n");
}

/*
 * ports/<n>/module: a QSFP28 with lane 2 at 0.03 mW under its 0.05 mW
 * low-warning threshold, its flag set, decoded as ethtool -m would.
 */
static void module_pages(void **state)
{
	static uint8_t scratch[5][DDM_PAGE_LEN];
	uint8_t lo[DDM_PAGE_LEN] = { 0x11 }, p3[DDM_PAGE_LEN] = { 0 };
	char text[4096] = "fabtel-module 1\nage_ms 1200\nerror 0\n";
	struct ddm d;

	(void)state;
	lo[22] = 35;			/* 35 C */
	lo[26] = 0x80;			/* 3.2768 V */
	lo[36] = 0x01;			/* lane 2 rx power 300 x 0.1 uW */
	lo[37] = 0x2c;
	lo[9] = 0x01;			/* lane 2: rx power low warning */
	p3[176 - 128 + 6] = 0x01;	/* rx power low warning threshold 500 */
	p3[176 - 128 + 7] = 0xf4;
	page_line(text, sizeof(text), "lower", lo);
	page_line(text, sizeof(text), "0x03", p3);
	page_line(text, sizeof(text), "0x20", p3);	/* a page fabteld does not use */
	assert_int_equal(ko_parse_module(text, scratch, &d), 0);
	assert_int_equal(d.kind, DDM_SFF8636);
	assert_true(d.value[DDM_TEMP][0] == 35.0);
	assert_true(d.value[DDM_RX_POWER][1] == 3e-05);
	assert_true(d.thr[DDM_RX_POWER][DDM_LOW_WARNING] == 5e-05);
	assert_int_equal(d.flags[DDM_RX_POWER][DDM_LOW_WARNING], 0x02);
}

static void module_bad(void **state)
{
	static uint8_t scratch[5][DDM_PAGE_LEN];
	char t1[] = "fabtel-module 1\nage_ms 5\nerror -19\n";
	char t2[] = "fabtel-module 2\nerror 0\n";
	char t3[] = "fabtel-module 1\nerror 0\npage lower 11ab\n";
	char t4[] = "fabtel-module 1\nerror 0\n";
	char t5[] = "fabtel-module 1\nage_ms -\nerror -61\n";
	struct ddm d;

	(void)state;
	assert_int_equal(ko_parse_module(t1, scratch, &d), -ENODEV);
	assert_int_equal(ko_parse_module(t2, scratch, &d), -EPROTO);
	assert_int_equal(ko_parse_module(t3, scratch, &d), -EPROTO);	/* short page */
	assert_int_equal(ko_parse_module(t4, scratch, &d), -EPROTO);	/* no lower page */
	assert_int_equal(ko_parse_module(t5, scratch, &d), -ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(example_whole),
		cmocka_unit_test(not_a_snapshot),
		cmocka_unit_test(absent_and_unknown),
		cmocka_unit_test(numbers),
		cmocka_unit_test(pma_unsupported),
		cmocka_unit_test(source_lines),
		cmocka_unit_test(events_read_on_rise),
		cmocka_unit_test(module_pages),
		cmocka_unit_test(module_bad),
	};

	return cmocka_run_group_tests(tests, load_example, NULL);
}
