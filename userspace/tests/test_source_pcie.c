// SPDX-License-Identifier: GPL-2.0
/*
 * test_source_pcie - the PCIe source and fold (source_pcie.c,
 * fold_pcie.c) over a fixture tree made in a temporary directory: an RDMA
 * device whose function runs x8 of x16 at 8 of 32 GT/s in a x16 Gen5
 * slot; one limited by its slot only; Soft-RoCE over a virtio-net whose
 * PCI function is the netdev device's parent; a device with no function.
 * The link files hold what the kernel prints (pci-sysfs.c), the AER files
 * what aer.c prints.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "collector.h"
#include "fold.h"
#include "readings.h"

static struct model m;
static struct raw r;
static char root[64];
static uint64_t t;
static void *priv;

#define FN	"/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0"
#define SLOT	"/sys/devices/pci0000:00/0000:00:01.0"

static void put(const char *path, const char *text)
{
	char p[512];
	char *slash;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, path);
	for (slash = strchr(p + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p, 0755);
		*slash = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *path, const char *target)
{
	char p[512];

	snprintf(p, sizeof(p), "%s%s", root, path);
	put(path, "");
	unlink(p);
	assert_int_equal(symlink(target, p), 0);
}

static void link_files(const char *dir, const char *cur, const char *curw, const char *max,
		       const char *maxw)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/current_link_speed", dir);
	put(p, cur);
	snprintf(p, sizeof(p), "%s/current_link_width", dir);
	put(p, curw);
	snprintf(p, sizeof(p), "%s/max_link_speed", dir);
	put(p, max);
	snprintf(p, sizeof(p), "%s/max_link_width", dir);
	put(p, maxw);
}

static void aer(unsigned int rxerr, unsigned int badtlp, unsigned int comp_timeout)
{
	char b[256];

	snprintf(b, sizeof(b), "RxErr %u\nBadTLP %u\nBadDLLP 0\nRollover 0\nTimeout 0\n"
		 "TOTAL_ERR_COR %u\n", rxerr, badtlp, rxerr + badtlp);
	put(FN "/aer_dev_correctable", b);
	snprintf(b, sizeof(b), "Undefined 0\nDLP 0\nCmpltTO %u\nTOTAL_ERR_NONFATAL %u\n",
		 comp_timeout, comp_timeout);
	put(FN "/aer_dev_nonfatal", b);
	put(FN "/aer_dev_fatal", "Undefined 0\nDLP 0\nTOTAL_ERR_FATAL 0\n");
}

static int setup(void **state)
{
	(void)state;
	readings_rxa_job7(&m, &r);
	snprintf(root, sizeof(root), "/tmp/test_source_pcie.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(m.opts.sysfs_root, sizeof(m.opts.sysfs_root), "%s", root);
	m.opts.pcie_s = 1;
	m.src[SRC_PCIE] = SRC_STATE_UP;
	/* rxa: a x16 Gen5 card in a x16 Gen5 slot, trained x8 at Gen3 */
	link_files(SLOT, "32.0 GT/s PCIe\n", "16\n", "32.0 GT/s PCIe\n", "16\n");
	link_files(FN, "8.0 GT/s PCIe\n", "8\n", "32.0 GT/s PCIe\n", "16\n");
	aer(3, 2, 0);
	link_to("/sys/class/infiniband/rxa/device", "../../../devices/pci0000:00/0000:00:01.0/0000:03:00.0");
	/* fre0: no PCI function anywhere */
	r.nr_ports = 2;
	r.ports[1] = r.ports[0];
	snprintf(r.ports[1].device, sizeof(r.ports[1].device), "fakeroce0");
	snprintf(r.ports[1].netdev, sizeof(r.ports[1].netdev), "fre0");
	put("/sys/class/infiniband/fakeroce0/ports/1/state", "4: ACTIVE\n");
	priv = calloc(1, source_pcie.priv_size);
	t = 0;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	free(priv);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void pass(void)
{
	struct collector c = { .m = &m, .o = &m.opts };

	memset(priv, 0, source_pcie.priv_size);	/* due now */
	assert_true(source_pcie.sample(&c, priv, &r));
	readings_pass(&m, &r, ++t);
}

static const struct health_reason *reason(const char *what)
{
	return readings_reason(&m, 0, what);
}

static void parsers(void **state)
{
	struct raw_pcie q;

	(void)state;
	assert_int_equal(pcie_parse_speed("2.5 GT/s PCIe"), 2500);
	assert_int_equal(pcie_parse_speed("8.0 GT/s PCIe"), 8000);
	assert_int_equal(pcie_parse_speed("64.0 GT/s PCIe"), 64000);
	assert_int_equal(pcie_parse_speed("8 GT/s"), 8000);
	assert_int_equal(pcie_parse_speed("Unknown"), 0);
	assert_int_equal(pcie_parse_speed("8.0 MT/s"), 0);
	assert_int_equal(pcie_parse_width("16"), 16);
	assert_int_equal(pcie_parse_width("x8"), 8);
	assert_int_equal(pcie_parse_width("many"), 0);
	memset(&q, 0, sizeof(q));
	assert_true(pcie_parse_aer("RxErr 4\nBadTLP 1\nTOTAL_ERR_COR 5\n", 0, &q));
	assert_int_equal(q.aer_total[0], 5);
	assert_int_equal(q.nr_aer, 2);
	assert_string_equal(q.aer[1].name, "BadTLP");
	/* a kind named by its bit, longer than the names kept: cut, still counted */
	assert_true(pcie_parse_aer("Undefined 0\ndev_nonfatal_errs_bit[26] 1\n"
				   "TOTAL_ERR_NONFATAL 1\n", 1, &q));
	assert_int_equal(q.aer_total[1], 1);
	assert_int_equal(q.aer[3].n, 1);
	assert_int_equal(strlen(q.aer[3].name), RAW_AER_NAME - 1);
	assert_false(pcie_parse_aer("RxErr four\n", 0, &q));
	assert_false(pcie_parse_aer("RxErr 4\n", 0, &q));	/* no total */
}

static void trained_down_is_degraded(void **state)
{
	const struct model_pcie *q;
	const struct health_reason *x;

	(void)state;
	pass();
	q = model_pcie_of(&m, "rxa");
	assert_non_null(q);
	assert_string_equal(q->bdf, "0000:03:00.0");
	assert_int_equal(q->cur_w, 8);
	assert_int_equal(q->max_w, 16);
	assert_int_equal(q->slot_mts, 32000);
	assert_true(q->degraded);
	assert_string_equal(q->detail, "x8 of x16, 8.0 GT/s of 32.0 GT/s");
	/* AER as the files say */
	assert_true(q->have_aer);
	assert_int_equal(q->aer_total[0], 5);
	assert_int_equal(q->aer_total[1], 0);
	x = reason("pcie_degraded");
	assert_non_null(x);
	assert_string_equal(x->detail, "PCIe 0000:03:00.0: x8 of x16, 8.0 GT/s of 32.0 GT/s");
	/* the device with no function says so, and gives no reason */
	q = model_pcie_of(&m, "fakeroce0");
	assert_non_null(q);
	assert_string_equal(q->bdf, "");
	assert_non_null(strstr(q->why, "no PCIe function"));
}

static void slot_limit_is_not_degraded_until_it_drops(void **state)
{
	(void)state;
	/* a Gen5 x16 card in a Gen3 x8 slot, running x8 Gen3: as built */
	link_files(SLOT, "8.0 GT/s PCIe\n", "8\n", "8.0 GT/s PCIe\n", "8\n");
	pass();
	assert_false(model_pcie_of(&m, "rxa")->degraded);
	assert_null(reason("pcie_degraded"));
	/* then it retrains to x4: below what it ran at */
	link_files(FN, "8.0 GT/s PCIe\n", "4\n", "32.0 GT/s PCIe\n", "16\n");
	pass();
	assert_true(model_pcie_of(&m, "rxa")->degraded);
	assert_string_equal(model_pcie_of(&m, "rxa")->detail, "x4 of x8");
}

static void aer_rise_is_a_reason(void **state)
{
	const struct health_reason *x;

	(void)state;
	link_files(FN, "32.0 GT/s PCIe\n", "16\n", "32.0 GT/s PCIe\n", "16\n");
	pass();
	assert_null(reason("pcie_errors"));
	aer(10, 4, 0);		/* 9 more correctable: under 10 */
	pass();
	assert_null(reason("pcie_errors"));
	aer(11, 4, 0);
	pass();
	x = reason("pcie_errors");
	assert_non_null(x);
	assert_string_equal(x->severity, "degraded");
	assert_int_equal(x->count, 10);
	aer(11, 4, 1);		/* one uncorrectable */
	pass();
	x = reason("pcie_errors");
	assert_non_null(x);
	assert_string_equal(x->severity, "failing");
}

static void soft_roce_through_its_netdev(void **state)
{
	const struct model_pcie *q;

	(void)state;
	snprintf(r.ports[1].device, sizeof(r.ports[1].device), "rxb");
	snprintf(r.ports[1].netdev, sizeof(r.ports[1].netdev), "eth0");
	link_files("/sys/devices/pci0000:00/0000:00:02.0", "2.5 GT/s PCIe\n", "1\n",
		   "2.5 GT/s PCIe\n", "1\n");
	put("/sys/devices/pci0000:00/0000:00:02.0/virtio0/features", "0\n");
	link_to("/sys/class/net/eth0/device", "../../../devices/pci0000:00/0000:00:02.0/virtio0");
	pass();
	q = model_pcie_of(&m, "rxb");
	assert_non_null(q);
	assert_string_equal(q->bdf, "0000:00:02.0");
	assert_int_equal(q->cur_mts, 2500);
	assert_false(q->degraded);
	assert_false(q->have_aer);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parsers),
		cmocka_unit_test_setup_teardown(trained_down_is_degraded, setup, teardown),
		cmocka_unit_test_setup_teardown(slot_limit_is_not_degraded_until_it_drops, setup,
						teardown),
		cmocka_unit_test_setup_teardown(aer_rise_is_a_reason, setup, teardown),
		cmocka_unit_test_setup_teardown(soft_roce_through_its_netdev, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
