// SPDX-License-Identifier: GPL-2.0
/*
 * test_sysfs_tiers - what the plain-sysfs source reads at each sample on a
 * tree it keeps open (source_sysfs.c): the hw_counters, carrier, flap count
 * and byte totals every sample, from files opened once; state, the netdev's
 * name and speed only when the link moved, while the port is not up, or
 * every 10 samples; the IB port counters every pma_s seconds or when the
 * link moved.  A tree on disk under keep_files = on stands in for sysfs
 * (its files rewritten in place, as a sysfs attribute shows a new value);
 * under keep_files = auto the same tree is a fixture, read whole each time.
 * carrier and carrier_down_count only when carrier_changes moved; a quiet
 * hw_counters file every quiet_every-th sample, a moving one that counts
 * no error every info_every-th, and all of a port's taken as moving after
 * one of its quiet error counters moved.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>

#include "schema.h"
#include "source.h"
#include "collector.h"

static char root[64];
static char base[256];
static struct collect_opts opts;
static struct collector *c;	/* a tree's, from make_tree to drop_tree */

/* write text into root/rel, in place (the file's inode kept) */
static void put(const char *rel, const char *fmt, ...)
{
	char path[512], cmd[600];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

#define PORT "sys/class/infiniband/x0/ports/1/"

static void make_tree(void)
{
	snprintf(root, sizeof(root), "/tmp/tiers.XXXXXX");
	assert_non_null(mkdtemp(root));
	put(PORT "link_layer", "Ethernet");
	put(PORT "state", "4: ACTIVE");
	put(PORT "rate", "100 Gb/sec (4X EDR)");
	put(PORT "gid_attrs/ndevs/0", "eth9");
	put(PORT "hw_counters/out_of_sequence", "5");
	put(PORT "hw_counters/packet_seq_err", "1");
	put(PORT "hw_counters/local_ack_timeout_err", "0");
	put(PORT "counters/symbol_error", "7");
	put(PORT "counters/port_xmit_data", "100");
	put("sys/class/net/eth9/carrier", "1");
	put("sys/class/net/eth9/carrier_down_count", "2");
	put("sys/class/net/eth9/speed", "100000");
	put("sys/class/net/eth9/statistics/rx_bytes", "10");
	put("sys/class/net/eth9/statistics/tx_bytes", "20");
	snprintf(base, sizeof(base), "%s/" PORT, root);
	base[strlen(base) - 1] = '\0';
	collect_opts_default(&opts);
	snprintf(opts.sysfs_root, sizeof(opts.sysfs_root), "%s", root);
	opts.interval_ms = 1000;
	opts.pma_s = 3600;	/* never due within a test: only a link move reads them */
	c = collector_new(NULL, &opts);
	assert_non_null(c);
}

static void drop_tree(void)
{
	char cmd[128];

	sysfs_plan_fini(&c->plans);
	fs_kept_fini(&c->kept);
	assert_int_equal(fs_kept_count(&c->kept), 0);
	collector_free(c);
	c = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* the tree with a carrier_changes file, kept open as on the kernel's sysfs */
static void make_kept_tree(void)
{
	make_tree();
	put("sys/class/net/eth9/carrier_changes", "4");
	fs_kept_root(&c->kept, root, FS_KEEP_ALL);
}

static struct raw_port *sample(void)
{
	static struct raw_port p;

	assert_int_equal(sysfs_read_port(c, base, "x0", "1", &p), 0);
	return &p;
}

/* the kernel's tree: each tier read when it is due, and nothing reopened */
static void tiers(void **state)
{
	struct raw_port *p;
	unsigned long long o;
	unsigned int i;

	(void)state;
	make_tree();
	fs_kept_root(&c->kept, root, FS_KEEP_ALL);
	p = sample();
	assert_string_equal(p->state, "ACTIVE");
	assert_string_equal(p->netdev, "eth9");
	assert_int_equal(p->carrier, 1);
	assert_int_equal(p->flaps, 2);
	assert_int_equal(p->ctr[FABTEL_OUT_OF_SEQUENCE], 5);
	assert_true(p->have_pma[FABTEL_PMA_SYMBOL_ERROR]);
	assert_int_equal(p->pma[FABTEL_PMA_SYMBOL_ERROR], 7);
	assert_int_equal(p->pma[FABTEL_PMA_XMIT_DATA], 400);	/* 4-octet words */
	assert_int_equal(p->nd_speed_mbps, 100000);
	assert_int_equal(p->rate_mbps, 100000);

	/* every sample: counters and bytes; not state, speed or the PMA */
	put(PORT "hw_counters/out_of_sequence", "6");
	put("sys/class/net/eth9/statistics/rx_bytes", "11");
	put(PORT "state", "1: DOWN");
	put("sys/class/net/eth9/speed", "25000");
	put(PORT "counters/symbol_error", "9");
	o = fs_kept_opens(&c->kept);
	p = sample();
	assert_int_equal(fs_kept_opens(&c->kept), o);	/* no file opened again */
	assert_int_equal(p->ctr[FABTEL_OUT_OF_SEQUENCE], 6);
	assert_int_equal(p->nd_rx_bytes, 11);
	assert_string_equal(p->state, "ACTIVE");
	assert_int_equal(p->nd_speed_mbps, 100000);
	assert_true(p->have_pma[FABTEL_PMA_SYMBOL_ERROR]);	/* the last reading's */
	assert_int_equal(p->pma[FABTEL_PMA_SYMBOL_ERROR], 7);

	/* the link moves: state, speed and the PMA at once */
	put("sys/class/net/eth9/carrier", "0");
	put("sys/class/net/eth9/carrier_down_count", "3");
	p = sample();
	assert_int_equal(p->carrier, 0);
	assert_int_equal(p->flaps, 3);
	assert_string_equal(p->state, "DOWN");
	assert_int_equal(p->nd_speed_mbps, 25000);
	assert_int_equal(p->pma[FABTEL_PMA_SYMBOL_ERROR], 9);

	/* a port not up is read at each sample until it is ACTIVE with carrier */
	put(PORT "state", "4: ACTIVE");
	p = sample();
	assert_string_equal(p->state, "ACTIVE");
	assert_int_equal(p->carrier, 0);
	put("sys/class/net/eth9/carrier", "1");
	p = sample();
	assert_int_equal(p->carrier, 1);

	/* a steady link: state again within 10 samples all the same */
	put(PORT "state", "1: DOWN");
	p = sample();
	assert_string_equal(p->state, "ACTIVE");
	for (i = 0; i < 10 && strcmp(p->state, "DOWN"); i++)
		p = sample();
	assert_string_equal(p->state, "DOWN");
	assert_true(i < 10);

	/* the netdev renamed: its files are the new name's from that reading on */
	put(PORT "state", "4: ACTIVE");
	put("sys/class/net/eth10/carrier", "1");
	put("sys/class/net/eth10/carrier_down_count", "40");
	put("sys/class/net/eth10/speed", "200000");
	put("sys/class/net/eth10/statistics/rx_bytes", "1000");
	put("sys/class/net/eth10/statistics/tx_bytes", "2000");
	put(PORT "gid_attrs/ndevs/0", "eth10");
	p = sample();	/* the state was DOWN: the link files read again */
	assert_string_equal(p->netdev, "eth10");
	assert_int_equal(p->flaps, 40);
	assert_int_equal(p->nd_rx_bytes, 1000);
	assert_int_equal(p->nd_speed_mbps, 200000);

	/* pma_s = 0: the IB port counters at every sample */
	opts.pma_s = 0;
	put(PORT "counters/symbol_error", "11");
	p = sample();
	assert_int_equal(p->pma[FABTEL_PMA_SYMBOL_ERROR], 11);
	drop_tree();
}

/* pma_s = 1: read again once a second has gone, the last values until then */
static void pma_period(void **state)
{
	struct raw_port *p;

	(void)state;
	make_tree();
	fs_kept_root(&c->kept, root, FS_KEEP_ALL);
	opts.pma_s = 1;
	p = sample();
	assert_int_equal(p->pma[FABTEL_PMA_SYMBOL_ERROR], 7);
	put(PORT "counters/symbol_error", "8");
	p = sample();
	assert_int_equal(p->pma[FABTEL_PMA_SYMBOL_ERROR], 7);
	usleep(1100 * 1000);
	p = sample();
	assert_int_equal(p->pma[FABTEL_PMA_SYMBOL_ERROR], 8);
	drop_tree();
}

/*
 * carrier_changes held still: carrier and carrier_down_count not read (the
 * last values stand); moved: both at once.  The netdev's ifindex comes
 * from its file with the link files (the fold asks no ioctl).
 */
static void carrier_changes_gate(void **state)
{
	struct raw_port *p;

	(void)state;
	make_kept_tree();
	put("sys/class/net/eth9/ifindex", "7");
	p = sample();
	assert_int_equal(p->carrier, 1);
	assert_int_equal(p->flaps, 2);
	assert_int_equal(p->ifindex, 7);
	p = sample();		/* carrier_changes's file now held: the gate is on */
	put("sys/class/net/eth9/carrier_down_count", "99");	/* no transition counted */
	p = sample();
	assert_int_equal(p->flaps, 2);
	put("sys/class/net/eth9/carrier", "0");
	put("sys/class/net/eth9/carrier_down_count", "3");
	put("sys/class/net/eth9/carrier_changes", "5");
	p = sample();
	assert_int_equal(p->carrier, 0);
	assert_int_equal(p->flaps, 3);
	/* while the link is not up both are read each sample, gate or not */
	put("sys/class/net/eth9/carrier", "1");
	p = sample();
	assert_int_equal(p->carrier, 1);
	drop_tree();
}

/* samples until out_of_sequence shows want; how many it took */
static unsigned int samples_until(uint64_t want)
{
	unsigned int n = 0;

	do {
		n++;
	} while (sample()->ctr[FABTEL_OUT_OF_SEQUENCE] != want && n < 10);
	return n;
}

/*
 * A hw_counters file that held its value 10 reads in a row is quiet: read
 * every quiet_every-th sample, so its first move shows within quiet_every
 * samples, not always at the first; after it moved it is read each sample.
 * quiet_every 1 reads it each sample; a link move reads every file at once.
 */
static void quiet_counters(void **state)
{
	unsigned int r, i, n, most = 0;

	(void)state;
	make_kept_tree();
	opts.quiet_every = 3;
	for (r = 0; r < 6; r++) {
		for (i = 0; i < 12 + r % 3; i++)	/* quiet again; phases vary */
			sample();
		put(PORT "hw_counters/out_of_sequence", "%u", 100 + r);
		n = samples_until(100 + r);
		assert_in_range(n, 1, 3);
		most = n > most ? n : most;
		put(PORT "hw_counters/out_of_sequence", "%u", 200 + r);
		assert_int_equal(samples_until(200 + r), 1);	/* it moved: each sample */
	}
	assert_true(most > 1);		/* a quiet file is not read each sample */

	for (i = 0; i < 12; i++)	/* quiet; the link moves: read at once */
		sample();
	put(PORT "hw_counters/out_of_sequence", "300");
	put("sys/class/net/eth9/carrier_down_count", "3");	/* a flap: down, up */
	put("sys/class/net/eth9/carrier_changes", "6");
	assert_int_equal(samples_until(300), 1);

	opts.quiet_every = 1;
	for (r = 0; r < 3; r++) {
		for (i = 0; i < 12 + r; i++)
			sample();
		put(PORT "hw_counters/out_of_sequence", "%u", 400 + r);
		assert_int_equal(samples_until(400 + r), 1);
	}
	drop_tree();
}

/*
 * Once a quiet error counter of a port moved, the port's every
 * hw_counters file is taken as moving until each is quiet again (an error
 * counter read each sample): a second error counter that moves the sample
 * after the first showed is seen at once, whatever the phase.  A quiet file is marked held in the samples it is not read: at
 * quiet_every 4, three samples of four.
 */
static void quiet_port_wakes_whole(void **state)
{
	unsigned int r, i, held;
	struct raw_port *p;

	(void)state;
	make_kept_tree();
	opts.quiet_every = 4;
	for (r = 0; r < 8; r++) {
		for (i = 0; i < 12 + r % 4; i++)	/* quiet again; phases vary */
			sample();
		for (i = 0, held = 0; i < 4; i++)
			held += !!(sample()->held & (1u << FABTEL_NAK_SEQ_ERR_RCVD));
		assert_int_equal(held, 3);
		put(PORT "hw_counters/out_of_sequence", "%u", 100 + r);
		assert_in_range(samples_until(100 + r), 1, 4);
		put(PORT "hw_counters/packet_seq_err", "%u", 100 + r);
		p = sample();
		assert_int_equal(p->ctr[FABTEL_NAK_SEQ_ERR_RCVD], 100 + r);
		assert_false(p->held & (1u << FABTEL_NAK_SEQ_ERR_RCVD));
	}
	drop_tree();
}

/*
 * A counter of no error (np_cnp_sent: CNPs sent) is read every
 * info_every-th sample while it moves, held in between; an error counter
 * that moves (out_of_sequence), each sample; info_every 1, each sample.
 * The first sample reads every file.
 */
static void info_counters(void **state)
{
	unsigned int n, i, seen, every;
	struct raw_port *p;

	(void)state;
	make_kept_tree();
	put(PORT "hw_counters/np_cnp_sent", "1000");
	for (every = 2; every >= 1; every--) {
		opts.info_every = every;
		p = sample();
		assert_int_equal(p->ctr[FABTEL_CNP_SENT], 1000 + 20 * (2 - every));
		for (i = 1, seen = 0; i <= 10; i++) {
			n = 1000 + 20 * (2 - every) + i;
			put(PORT "hw_counters/np_cnp_sent", "%u", n);
			put(PORT "hw_counters/out_of_sequence", "%u", n);
			p = sample();
			assert_int_equal(p->ctr[FABTEL_OUT_OF_SEQUENCE], n);
			assert_false(p->held & (1u << FABTEL_OUT_OF_SEQUENCE));
			if (p->ctr[FABTEL_CNP_SENT] == n) {
				assert_false(p->held & (1u << FABTEL_CNP_SENT));
				seen++;
			} else {
				assert_int_equal(p->ctr[FABTEL_CNP_SENT], n - 1);
				assert_true(p->held & (1u << FABTEL_CNP_SENT));
			}
		}
		assert_int_equal(seen, 10 / every);
		for (; i <= 20; i++)	/* to 1020 for the next round */
			put(PORT "hw_counters/np_cnp_sent", "%u", 1000 + 20 * (2 - every) + i);
		sample();
		sample();
	}
	drop_tree();
}

/* a tree that is not the kernel's (keep auto, a fixture): all of it each time */
static void fixture_read_whole(void **state)
{
	struct raw_port *p;

	(void)state;
	make_tree();
	fs_kept_root(&c->kept, root, FS_KEEP_AUTO);
	p = sample();
	assert_string_equal(p->state, "ACTIVE");
	put(PORT "state", "1: DOWN");
	put(PORT "counters/symbol_error", "9");
	p = sample();
	assert_string_equal(p->state, "DOWN");
	assert_int_equal(p->pma[FABTEL_PMA_SYMBOL_ERROR], 9);
	assert_int_equal(fs_kept_count(&c->kept), 0);
	drop_tree();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tiers),
		cmocka_unit_test(pma_period),
		cmocka_unit_test(fixture_read_whole),
		cmocka_unit_test(carrier_changes_gate),
		cmocka_unit_test(quiet_counters),
		cmocka_unit_test(quiet_port_wakes_whole),
		cmocka_unit_test(info_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
