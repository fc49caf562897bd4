// SPDX-License-Identifier: GPL-2.0
/*
 * test_source_sysfs - the plain-sysfs source's port parser (source.h):
 * over the committed fixture tree of a host without fabtel.ko
 * (selftests/host/fixtures/sysfs), each value checked against the fixture's
 * own files read here with stdio; then trees in memory (memfs.h) for the
 * edges: other link layers, a port without a netdev, unreadable values.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "collector.h"
#include "memfs.h"
#include "schema.h"
#include "port_rate.h"
#include "source.h"

static struct model model;
static struct raw raw;
static struct collector *c;	/* model's, made at its first sample */
static void *sysfs_priv;

/* one sample of the plain sysfs source into raw */
static bool sysfs_sample(void)
{
	if (!c) {
		c = collector_new(&model, &model.opts);
		sysfs_priv = calloc(1, source_sysfs.priv_size);
		assert_non_null(c);
		assert_non_null(sysfs_priv);
	}
	return source_sysfs.sample(c, sysfs_priv, &raw);
}

/* a fixture file's text, newline cut; "" if none */
static const char *fixture(const char *fmt, ...)
{
	static char text[256];
	char path[2048];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	text[0] = '\0';
	f = fopen(path, "r");
	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static void check_hw_counters(const char *base, const struct raw_port *p)
{
	char dir[2048];
	struct dirent *d;
	unsigned int mapped = 0;
	DIR *hw;
	int c;

	snprintf(dir, sizeof(dir), "%s/hw_counters", base);
	hw = opendir(dir);
	if (!hw)
		return;
	while ((d = readdir(hw))) {
		c = d->d_name[0] == '.' ? -1 : schema_hw_find(NULL, d->d_name);
		if (c < 0)
			continue;
		assert_true(p->have[c]);
		assert_int_equal(p->ctr[c], strtoull(fixture("%s/%s", dir, d->d_name), NULL, 0));
		mapped++;
	}
	closedir(hw);
	for (c = 0; c < FABTEL_NR_COUNTERS; c++)
		mapped -= p->have[c];
	assert_int_equal(mapped, 0);	/* nothing claimed that the tree lacks */
}

static void check_port(const char *root, const struct raw_port *p)
{
	char base[1024];
	const char *nd;

	snprintf(base, sizeof(base), "%s/sys/class/infiniband/%s/ports/%u", root, p->device,
		 p->port);
	assert_string_equal(fixture("%s/link_layer", base), "Ethernet");
	nd = fixture("%s/gid_attrs/ndevs/0", base);
	assert_string_equal(p->netdev, nd);
	if (p->netdev[0]) {
		/* no carrier file (a netdev that is down administratively): unknown */
		nd = fixture("%s/sys/class/net/%s/carrier", root, p->netdev);
		assert_int_equal(p->carrier, nd[0] ? atoi(nd) : -1);
		nd = fixture("%s/sys/class/net/%s/carrier_down_count", root, p->netdev);
		assert_int_equal(p->have_flaps, nd[0] != '\0');
		assert_int_equal(p->flaps, strtoull(nd, NULL, 10));
	}
	assert_non_null(strstr(fixture("%s/state", base), p->state));
	check_hw_counters(base, p);
}

/* how many Ethernet ports the fixture has, counted here */
static unsigned int ethernet_ports(const char *root)
{
	char dir[1024], pdir[2048];
	struct dirent *d, *pd;
	unsigned int n = 0;
	DIR *devs, *ports;

	snprintf(dir, sizeof(dir), "%s/sys/class/infiniband", root);
	devs = opendir(dir);
	assert_non_null(devs);
	while ((d = readdir(devs))) {
		snprintf(pdir, sizeof(pdir), "%s/%s/ports", dir, d->d_name);
		ports = d->d_name[0] == '.' ? NULL : opendir(pdir);
		while (ports && (pd = readdir(ports)))
			n += pd->d_name[0] != '.' &&
			     !strcmp(fixture("%s/%s/link_layer", pdir, pd->d_name), "Ethernet");
		if (ports)
			closedir(ports);
	}
	closedir(devs);
	return n;
}

static void fixture_tree(void **state)
{
	const char *repo = getenv("REPO") ? getenv("REPO") : ".";
	unsigned int i;

	(void)state;
	collect_opts_default(&model.opts);
	snprintf(model.opts.sysfs_root, sizeof(model.opts.sysfs_root),
		 "%s/selftests/host/fixtures/sysfs", repo);
	raw.ko = false;
	sysfs_sample();
	assert_true(raw.reported[SRC_SYSFS]);
	assert_int_equal(raw.state[SRC_SYSFS], SRC_STATE_UP);
	assert_int_equal(raw.nr_ports, ethernet_ports(model.opts.sysfs_root));
	assert_true(raw.nr_ports >= 4);
	for (i = 0; i < raw.nr_ports; i++)
		check_port(model.opts.sysfs_root, &raw.ports[i]);
}

#define PORT	"/sys/class/infiniband/x0/ports/1"

static void edges_in_memory(void **state)
{
	struct collect_opts o;
	struct collector *oc;
	struct memfs fs;
	struct raw_port p;

	(void)state;
	collect_opts_default(&o);
	oc = collector_new(NULL, &o);
	assert_non_null(oc);
	memfs_init(&fs);
	fs_set_backend(&fs.be);
	memfs_put(&fs, PORT "/link_layer", "InfiniBand");
	assert_int_equal(sysfs_read_port(oc, PORT, "x0", "1", &p), -ENODEV);
	memfs_put(&fs, PORT "/link_layer", "Ethernet\n");
	memfs_put(&fs, PORT "/state", "4: ACTIVE");
	memfs_put(&fs, PORT "/hw_counters/out_of_sequence", "12abc");	/* not a number */
	memfs_put(&fs, PORT "/hw_counters/rcvd_seq_err", "0x10");
	memfs_put(&fs, PORT "/hw_counters/not_mapped", "99");
	assert_int_equal(sysfs_read_port(oc, PORT, "x0", "1", &p), 0);
	assert_string_equal(p.state, "ACTIVE");
	assert_string_equal(p.netdev, "");
	assert_int_equal(p.carrier, -1);
	assert_false(p.have_flaps);
	assert_false(p.have_nd);
	assert_false(p.have[FABTEL_OUT_OF_SEQUENCE]);
	assert_true(p.have[FABTEL_NAK_SEQ_ERR_RCVD]);
	assert_int_equal(p.ctr[FABTEL_NAK_SEQ_ERR_RCVD], 16);
	/* a netdev name too long for a netdev is no netdev */
	memfs_put(&fs, PORT "/gid_attrs/ndevs/0", "a_name_longer_than_ifnamsiz");
	assert_int_equal(sysfs_read_port(oc, PORT, "x0", "1", &p), 0);
	assert_string_equal(p.netdev, "");
	memfs_put(&fs, PORT "/gid_attrs/ndevs/0", "eth7");
	memfs_put(&fs, "/sys/class/net/eth7/carrier", "0");
	memfs_put(&fs, "/sys/class/net/eth7/carrier_down_count", "3");
	memfs_put(&fs, "/sys/class/net/eth7/statistics/rx_bytes", "1000");
	assert_int_equal(sysfs_read_port(oc, PORT, "x0", "1", &p), 0);
	assert_int_equal(p.carrier, 0);
	assert_true(p.have_flaps);
	assert_int_equal(p.flaps, 3);
	assert_false(p.have_nd);	/* rx without tx: not a pair */
	/* a carrier that is neither 0 nor 1 is unknown (the fuzzer's find) */
	memfs_put(&fs, "/sys/class/net/eth7/carrier", "44073709551615");
	assert_int_equal(sysfs_read_port(oc, PORT, "x0", "1", &p), 0);
	assert_int_equal(p.carrier, -1);
	fs_set_backend(NULL);
	collector_free(oc);
}

/* ports past the table are counted, not lost silently */
static void more_ports_than_the_table(void **state)
{
	static struct memfs fs;
	char path[128];
	unsigned int i;

	(void)state;
	memfs_init(&fs);
	for (i = 0; i < MODEL_MAX_PORTS + 2; i++) {
		snprintf(path, sizeof(path), "/sys/class/infiniband/mlx5_%u/ports/1/link_layer", i);
		memfs_put(&fs, path, "Ethernet");
	}
	memfs_put(&fs, "/sys/class/infiniband/ib0/ports/1/link_layer", "InfiniBand");
	fs_set_backend(&fs.be);
	collect_opts_default(&model.opts);
	raw.ko = false;
	raw.nr_ports = raw.ports_over = 0;
	sysfs_sample();
	fs_set_backend(NULL);
	assert_int_equal(raw.nr_ports, MODEL_MAX_PORTS);
	assert_int_equal(raw.ports_over, 2);
	/* the first 64 in version order: mlx5_0 .. mlx5_63 */
	assert_string_equal(raw.ports[0].device, "mlx5_0");
	assert_string_equal(raw.ports[MODEL_MAX_PORTS - 1].device, "mlx5_63");
}

static void no_devices(void **state)
{
	(void)state;
	collect_opts_default(&model.opts);
	snprintf(model.opts.sysfs_root, sizeof(model.opts.sysfs_root), "/nonexistent");
	raw.ko = false;
	raw.nr_ports = 0;
	assert_true(sysfs_sample());		/* it looked */
	assert_int_equal(raw.state[SRC_SYSFS], SRC_STATE_UNAVAILABLE);
	assert_non_null(strstr(raw.why[SRC_SYSFS], "no RDMA devices"));
	assert_int_equal(raw.nr_ports, 0);
	raw.ko = true;
	assert_false(sysfs_sample());	/* on standby: asked nothing */
	assert_int_equal(raw.state[SRC_SYSFS], SRC_STATE_STANDBY);
}

/* ports/<n>/rate as ib_core writes it, and what is not that */
static void rate_strings(void **state)
{
	static const char *const bad[] = {
		"", "Unknown!", "0 Gb/sec (4X EDR)", "-25 Gb/sec (1X EDR)", "100 Mb/sec (4X)",
		"100 Gb/sec", "100 Gb/sec (0X EDR)", "100 Gb/sec (99X EDR)", "nan Gb/sec (4X EDR)",
		"1e300 Gb/sec (4X EDR)",
	};
	unsigned int w, i;
	uint64_t mbps;

	(void)state;
	assert_int_equal(port_rate_parse("400 Gb/sec (4X NDR)", &mbps, &w), 0);
	assert_int_equal(mbps, 400000);
	assert_int_equal(w, 4);
	assert_int_equal(port_rate_parse("2.5 Gb/sec (1X SDR)", &mbps, &w), 0);
	assert_int_equal(mbps, 2500);
	assert_int_equal(w, 1);
	assert_int_equal(port_rate_parse("53.125 Gb/sec (1X HDR)", &mbps, &w), 0);
	assert_int_equal(mbps, 53125);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(port_rate_parse(bad[i], &mbps, &w), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixture_tree),
		cmocka_unit_test(edges_in_memory),
		cmocka_unit_test(more_ports_than_the_table),
		cmocka_unit_test(no_devices),
		cmocka_unit_test(rate_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
