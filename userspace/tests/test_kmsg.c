// SPDX-License-Identifier: GPL-2.0
/*
 * test_kmsg - /dev/kmsg records (lib/kmsg.c) and the table of driver
 * messages (collector/kmsg_table.c, kmsg_match.c) over the fixture logs
 * of selftests/host/fixtures/kmsg: every pattern matched by its line, the
 * device each names, the wedged shape's lockup with the modules on its
 * stack, and the lines that must not match.
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

#include "kmsg.h"
#include "kmsg_match.h"

#define MAX_HITS 64

struct run {
	struct kmsg_hit hit[MAX_HITS];
	unsigned int nr, records, user;
};

static struct kmsg_matcher mt;
static struct run run;

static void take(struct run *o, char *buf, size_t len)
{
	struct kmsg_hit h[2];
	struct kmsg_rec r;
	unsigned int n, i;

	assert_int_equal(kmsg_parse(buf, len, &r), 0);
	o->records++;
	o->user += !kmsg_from_kernel(&r);
	n = kmsg_match(&mt, &r, h);
	for (i = 0; i < n && o->nr < MAX_HITS; i++)
		o->hit[o->nr++] = h[i];
}

/* the fixture's records through the matcher, as one read each */
static void replay(const char *name, struct run *o)
{
	const char *repo = getenv("REPO") ? getenv("REPO") : ".";
	char path[512], line[1024], rec[KMSG_RECORD_MAX];
	size_t len = 0;
	FILE *f;

	memset(o, 0, sizeof(*o));
	snprintf(path, sizeof(path), "%s/selftests/host/fixtures/kmsg/%s", repo, name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (line[0] != ' ' && len) {
			take(o, rec, len);
			len = 0;
		}
		assert_true(len + strlen(line) < sizeof(rec));
		memcpy(rec + len, line, strlen(line));
		len += strlen(line);
	}
	if (len)
		take(o, rec, len);
	fclose(f);
	if (o->nr < MAX_HITS)
		o->nr += kmsg_match_idle(&mt, &o->hit[o->nr]);
	if (o->nr < MAX_HITS)
		o->nr += kmsg_match_idle(&mt, &o->hit[o->nr]);
}

static const char *id(const struct kmsg_hit *h)
{
	return kmsg_patterns[h->pattern].id;
}

static void record_fields(void **state)
{
	char buf[] = "2,2003,10000000,c,caller=T12;mlx5_core 0000:03:00.0: a\\x09b\n"
		     " SUBSYSTEM=pci\n DEVICE=+pci:0000:03:00.0\n";
	char user[] = "14,7,5,-;hello\n";
	char bad[] = "x,1,2,-;no\n";
	char cut[] = "6,1,2,-;no newline";
	struct kmsg_rec r;

	(void)state;
	assert_int_equal(kmsg_parse(buf, strlen(buf), &r), 0);
	assert_int_equal(r.prio, 2);
	assert_int_equal(r.seq, 2003);
	assert_int_equal(r.ts_us, 10000000);
	assert_true(r.cont);
	assert_string_equal(r.text, "mlx5_core 0000:03:00.0: a\\x09b");
	assert_int_equal(r.len, strlen(r.text));
	assert_string_equal(r.subsystem, "pci");
	assert_string_equal(r.device, "+pci:0000:03:00.0");
	assert_true(kmsg_from_kernel(&r));
	assert_int_equal(kmsg_parse(user, strlen(user), &r), 0);
	assert_false(kmsg_from_kernel(&r));
	assert_string_equal(r.device, "");
	assert_int_equal(kmsg_parse(bad, strlen(bad), &r), -EPROTO);
	assert_int_equal(kmsg_parse(cut, strlen(cut), &r), -EPROTO);
}

/* the table's ids, each in Documentation/driver_messages.rst's list */
static void table_is_sound(void **state)
{
	const char *repo = getenv("REPO") ? getenv("REPO") : ".";
	static char doc[65536];
	char path[512], id[40];
	unsigned int i, k;
	size_t n;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/Documentation/driver_messages.rst", repo);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(doc, 1, sizeof(doc) - 1, f);
	doc[n] = '\0';
	fclose(f);
	for (i = 0; i < kmsg_nr_patterns; i++) {
		snprintf(id, sizeof(id), "\n%s ", kmsg_patterns[i].id);
		if (!strstr(doc, id))
			fail_msg("pattern %s is not in driver_messages.rst's table", kmsg_patterns[i].id);
		assert_true(strlen(kmsg_patterns[i].id) < 32);
		assert_non_null(kmsg_patterns[i].where);
		for (k = 0; k < i; k++)
			assert_string_not_equal(kmsg_patterns[i].id, kmsg_patterns[k].id);
	}
}

/* record N of every-pattern.log is pattern N's line */
static void every_pattern_matches_its_line(void **state)
{
	unsigned int i;

	(void)state;
	replay("every-pattern.log", &run);
	assert_int_equal(run.records, kmsg_nr_patterns);
	assert_int_equal(run.nr, kmsg_nr_patterns);
	for (i = 0; i < run.nr; i++) {
		if (run.hit[i].pattern != i)
			fail_msg("record %u: %s, not %s", i + 1, id(&run.hit[i]), kmsg_patterns[i].id);
	}
	/* what the hits name */
	assert_string_equal(run.hit[0].driver, "mlx5_core");
	assert_string_equal(run.hit[0].handle, "pci/0000:03:00.0");
	assert_string_equal(run.hit[0].devname, "0000:03:00.0");
	assert_string_equal(run.hit[0].name, "");
	assert_string_equal(run.hit[9].name, "enp3s0f0np0");
	assert_string_equal(run.hit[27].handle, "virtio/virtio0");
	assert_string_equal(run.hit[27].name, "eth1");
	assert_string_equal(run.hit[28].devname, "rxa");
	assert_string_equal(run.hit[28].driver, "infiniband");
	/* the legacy watchdog: its netdev and driver from the line */
	assert_string_equal(id(&run.hit[31]), "netdev_watchdog_legacy");
	assert_string_equal(run.hit[31].name, "enp3s0f0np0");
	assert_string_equal(run.hit[31].driver, "mlx5_core");
	assert_string_equal(run.hit[31].handle, "");
	assert_string_equal(run.hit[32].name, "rxa");
}

static void wedged_shape(void **state)
{
	(void)state;
	replay("mlx5-wedged.log", &run);
	assert_int_equal(run.user, 1);
	assert_int_equal(run.nr, 5);
	assert_string_equal(id(&run.hit[0]), "netdev_watchdog");
	assert_string_equal(run.hit[0].handle, "pci/0000:03:00.0");
	assert_string_equal(run.hit[0].name, "enp3s0f0np0");
	assert_int_equal(run.hit[0].seq, 2003);
	assert_string_equal(id(&run.hit[1]), "mlx5_tx_timeout");
	assert_string_equal(id(&run.hit[2]), "mlx5_cmd_timeout");
	assert_string_equal(run.hit[2].devname, "0000:03:00.0");
	/* the lockup ends with its dump, at the next line that matches */
	assert_string_equal(id(&run.hit[3]), "soft_lockup");
	assert_string_equal(run.hit[3].modules, "mlx5_core");
	assert_string_equal(run.hit[3].handle, "");
	assert_int_equal(run.hit[3].seq, 2007);
	assert_string_equal(id(&run.hit[4]), "mlx5_link_up");
	assert_string_equal(kmsg_family_modules("mlx5_core"), "mlx5_core mlx5_ib");
	assert_string_equal(kmsg_family_modules("foo"), "foo");
}

/* a dump that ends the log: given out at the second idle read */
static void lockup_at_the_end(void **state)
{
	char l1[] = "0,1,1,-;watchdog: BUG: soft lockup - CPU#1 stuck for 23s! [swapper/1:0]\n";
	char l2[] = "4,2,2,-; bnxt_re_poll_cq+0x1c/0x80 [bnxt_re]\n";
	char l3[] = "4,3,3,-; ? ib_poll_cq+0x1c/0x80 [ib_core]\n";
	struct kmsg_hit h[2];
	struct kmsg_rec r;

	(void)state;
	kmsg_parse(l1, strlen(l1), &r);
	assert_int_equal(kmsg_match(&mt, &r, h), 0);
	kmsg_parse(l2, strlen(l2), &r);
	assert_int_equal(kmsg_match(&mt, &r, h), 0);
	assert_int_equal(kmsg_match_idle(&mt, h), 0);
	kmsg_parse(l3, strlen(l3), &r);
	assert_int_equal(kmsg_match(&mt, &r, h), 0);
	assert_int_equal(kmsg_match_idle(&mt, h), 1);
	assert_string_equal(h[0].modules, "bnxt_re ib_core");
	assert_int_equal(kmsg_match_idle(&mt, h), 0);
}

static int setup(void **state)
{
	(void)state;
	return kmsg_matcher_init(&mt);
}

static int teardown(void **state)
{
	(void)state;
	kmsg_matcher_free(&mt);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_fields),
		cmocka_unit_test(table_is_sound),
		cmocka_unit_test(every_pattern_matches_its_line),
		cmocka_unit_test(wedged_shape),
		cmocka_unit_test(lockup_at_the_end),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
