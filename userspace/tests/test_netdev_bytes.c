// SPDX-License-Identifier: GPL-2.0
/*
 * test_netdev_bytes - the ports' netdev byte totals from /proc/net/dev
 * (netdev_bytes.c): each netdev's rx_bytes and tx_bytes, the 1st and 9th
 * fields after its name; the list used only while it has at most two
 * lines a port and 4 more, counted again every 10 samples; a netdev not listed, or no
 * list at all, left to its files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsread.h"
#include "netdev_bytes.h"

static char root[64];
static struct collect_opts o;
static struct fs_kept kept;
static struct netdev_bytes nd;	/* the list under test */

static const char *const head =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n";

/* rewrite root/proc/net/dev in place (the kept file is read again) */
static void put_list(const char *body)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/net/dev", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s%s", head, body);
	assert_int_equal(fclose(f), 0);
}

/* what netdev_bytes_get says of name: "rx tx", or "files" */
static const char *got(const char *name)
{
	static char s[64];
	uint64_t rx, tx;

	if (!netdev_bytes_get(&nd, name, &rx, &tx))
		return "files";
	snprintf(s, sizeof(s), "%llu %llu", (unsigned long long)rx, (unsigned long long)tx);
	return s;
}

static int setup(void **state)
{
	char path[128];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/ndbytes.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/net", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(o.sysfs_root, sizeof(o.sysfs_root), "%s", root);
	netdev_bytes_init(&nd, &o, &kept);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static void list_and_rule(void **state)
{
	unsigned int i;

	(void)state;
	/* lo, a management NIC, two RoCE ports' netdevs; a line that is not one */
	put_list("    lo:  1000 10 0 0 0 0 0 0  1000 10 0 0 0 0 0 0\n"
		 "  eno1: 5 1 0 0 0 0 0 0 7 1 0 0 0 0 0 0\n"
		 "ens1f0np0: 18446744073709551615 2 3 4 5 6 7 8 42 9 9 9 9 9 9 9\n"
		 "  ens2f0np0: 123456789012 1 0 0 0 0 0 0 987654321098 1 0 0 0 0 0 0\n"
		 "  broken: 12 nope\n");
	/* two ports, four lines: read, parsed */
	netdev_bytes_sample(&nd, 2);
	assert_string_equal(got("ens2f0np0"), "123456789012 987654321098");
	assert_string_equal(got("ens1f0np0"), "18446744073709551615 42");
	assert_string_equal(got("lo"), "1000 1000");
	assert_string_equal(got("broken"), "files");
	assert_string_equal(got("ens3f0np0"), "files");	/* not listed */
	/* the list is read each sample: a new value shows in the next */
	put_list("  ens2f0np0: 2 1 0 0 0 0 0 0 3 1 0 0 0 0 0 0\n");
	netdev_bytes_sample(&nd, 2);
	assert_string_equal(got("ens2f0np0"), "2 3");
	/* 30 netdevs (containers' veths came) for 2 ports (8 at most): within 10 samples, the files */
	{
		char body[4096];
		size_t n = 0;

		for (i = 0; i < 30; i++)
			n += (size_t)snprintf(body + n, sizeof(body) - n,
					      "veth%u: 1 1 0 0 0 0 0 0 1 1 0 0 0 0 0 0\n", i);
		put_list(body);
	}
	for (i = 0; i < 10; i++)
		netdev_bytes_sample(&nd, 2);
	assert_string_equal(got("veth3"), "files");
	/* they went: the list again at the next count, 10 samples on */
	put_list("  ens2f0np0: 4 1 0 0 0 0 0 0 5 1 0 0 0 0 0 0\n");
	for (i = 0; i < 9; i++) {
		netdev_bytes_sample(&nd, 2);
		assert_string_equal(got("ens2f0np0"), "files");
	}
	netdev_bytes_sample(&nd, 2);
	assert_string_equal(got("ens2f0np0"), "4 5");
}

/* no /proc/net/dev under the root (a fixture tree): every netdev from its files */
static void no_list(void **state)
{
	char path[128];
	unsigned int i;

	(void)state;
	snprintf(path, sizeof(path), "%s/proc/net/dev", root);
	unlink(path);
	snprintf(o.sysfs_root, sizeof(o.sysfs_root), "%s/elsewhere", root);
	for (i = 0; i < 12; i++) {
		netdev_bytes_sample(&nd, 2);
		assert_string_equal(got("ens2f0np0"), "files");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(list_and_rule),
		cmocka_unit_test(no_list),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
