// SPDX-License-Identifier: GPL-2.0
/*
 * test_devices - which RDMA devices fabteld leaves out and what it knows of
 * the others: the include/exclude lists (devfilter.c: their globs checked,
 * their matches), a device's shape from a sysfs-like tree made here with
 * the kernel's links (devshape.c: driver, PCI function, PF and VFs, a
 * RoCE LAG bond), and the walk that skips a device left out before its
 * ports/ is listed and reads the shapes again only when the device list
 * changed (devices.c).  The tree's files, written here, are the independent
 * side.
 */
#include <errno.h>
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

#include "devices.h"
#include "devfilter.h"
#include "devshape.h"

static char root[64];
static struct devfilter df;
/* the devices under test, and what they walk with */
static struct fs_kept kept;
static struct fs_walk walk;
static struct devices devs;
static struct model m;
static char err[256];

/* ---- the lists -------------------------------------------------------- */

static void globs_checked(void **state)
{
	static const char *const good[] = { "mlx5_*", "rocep*", "[!m]*", "[]a]x", "a\\*", "mgmt_?",
					    "mlx5_[0-9]", "*" };
	static const char *const bad[] = { "[", "mlx5_[0-9", "a\\", "", "a/b", "[!",
					   "0123456789012345678901234567890123456789012345678901234567890123" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (devfilter_glob_error(good[i]))
			fail_msg("'%s' refused: %s", good[i], devfilter_glob_error(good[i]));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!devfilter_glob_error(bad[i]))
			fail_msg("'%s' taken", bad[i]);
}

static void values_split_and_replaced(void **state)
{
	(void)state;
	memset(&df, 0, sizeof(df));
	assert_int_equal(devfilter_set(&df, "job", "x=y", err, sizeof(err)), 1);
	assert_false(devfilter_active(&df));
	assert_int_equal(devfilter_set(&df, "exclude_devices", "mgmt_*  ,rocep9*\tbad,",
				       err, sizeof(err)), 0);
	assert_int_equal(df.n[DF_EXCLUDE_DEVICES], 3);
	assert_string_equal(df.glob[DF_EXCLUDE_DEVICES][1], "rocep9*");
	assert_true(devfilter_active(&df));
	assert_false(devfilter_wants_driver(&df));
	/* set again: the later list, not both */
	assert_int_equal(devfilter_set(&df, "exclude_devices", "x*", err, sizeof(err)), 0);
	assert_int_equal(df.n[DF_EXCLUDE_DEVICES], 1);
	/* a bad glob: the key, the glob and why; the list set before stays */
	assert_int_equal(devfilter_set(&df, "exclude_devices", "ok [", err, sizeof(err)), -1);
	assert_string_equal(err, "exclude_devices: '[' is not a glob of a name (an unclosed '[')");
	assert_string_equal(df.glob[DF_EXCLUDE_DEVICES][0], "x*");
	assert_int_equal(devfilter_set(&df, "include_drivers", " , ", err, sizeof(err)), -1);
	assert_string_equal(err, "include_drivers wants one or more globs");
	assert_int_equal(devfilter_set(&df, "include_drivers",
				       "a b c d e f g h i j k l m n o p q", err, sizeof(err)), -1);
	assert_string_equal(err, "include_drivers: more than 16 globs");
	assert_int_equal(devfilter_set(&df, "include_drivers", "mlx5 bnxt_re", err, sizeof(err)), 0);
	assert_true(devfilter_wants_driver(&df));
}

static void matches(void **state)
{
	struct devfilter_hit h;

	(void)state;
	memset(&df, 0, sizeof(df));
	assert_false(devfilter_by_name(NULL, "mgmt_0", &h));
	assert_false(devfilter_by_name(&df, "mgmt_0", &h));		/* nothing set: all kept */
	assert_int_equal(devfilter_set(&df, "exclude_devices", "mgmt_*", err, sizeof(err)), 0);
	assert_true(devfilter_by_name(&df, "mgmt_0", &h));
	assert_string_equal(h.device, "mgmt_0");
	assert_int_equal(h.rule, DF_EXCLUDE_DEVICES);
	assert_string_equal(h.match, "mgmt_*");
	assert_false(devfilter_by_name(&df, "rocep8s0f0", &h));
	/* an include list keeps only what it matches; the exclude list wins over it */
	assert_int_equal(devfilter_set(&df, "include_devices", "rocep* mgmt_1", err, sizeof(err)), 0);
	assert_false(devfilter_by_name(&df, "rocep8s0f0v1", &h));
	assert_true(devfilter_by_name(&df, "mlx5_bond_0", &h));
	assert_int_equal(h.rule, DF_INCLUDE_DEVICES);
	assert_string_equal(h.match, "");
	assert_true(devfilter_by_name(&df, "mgmt_1", &h));
	assert_int_equal(h.rule, DF_EXCLUDE_DEVICES);
	/* drivers: only the driver lists, and only when one is set */
	assert_false(devfilter_by_driver(&df, "rocep8s0f0", "bnxt_re", &h));
	assert_int_equal(devfilter_set(&df, "exclude_drivers", "bnxt_*", err, sizeof(err)), 0);
	assert_true(devfilter_by_driver(&df, "x0", "bnxt_re", &h));
	assert_string_equal(h.driver, "bnxt_re");
	assert_string_equal(h.match, "bnxt_*");
	assert_false(devfilter_by_driver(&df, "x0", "mlx5", &h));
	assert_int_equal(devfilter_set(&df, "include_drivers", "mlx5", err, sizeof(err)), 0);
	assert_true(devfilter_by_driver(&df, "x0", "irdma", &h));
	assert_int_equal(h.rule, DF_INCLUDE_DRIVERS);
	assert_string_equal(devfilter_key(h.rule), "include_drivers");
}

/* ---- a tree like the kernel's ------------------------------------------ */

static void put(const char *text, const char *fmt, ...)
{
	char path[512], *s;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	for (s = path + strlen(root) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	if (!text) {
		mkdir(path, 0755);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* a link at root/WHERE to TARGET (relative, as sysfs makes them) */
static void link_to(const char *target, const char *where)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, where);
	put(NULL, "%s/%s", root, where);	/* its parents */
	rmdir(path);
	assert_int_equal(symlink(target, path), 0);
}

#define PCI	"../../../devices/pci0000:00/"

/* an RDMA device with one Ethernet port on netdev nd; pci NULL: no parent */
static void device(const char *dev, const char *pci, const char *drv, const char *nd)
{
	char w[256], t[256];

	put("Ethernet", "%s/sys/class/infiniband/%s/ports/1/link_layer", root, dev);
	put(nd, "%s/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/0", root, dev);
	if (!pci)
		return;
	put(NULL, "%s/sys/devices/pci0000:00/%s", root, pci);
	snprintf(w, sizeof(w), "sys/class/infiniband/%s/device", dev);
	snprintf(t, sizeof(t), PCI "%s", pci);
	link_to(t, w);
	put(NULL, "%s/sys/bus/pci/drivers/%s", root, drv);
	snprintf(w, sizeof(w), "sys/devices/pci0000:00/%s/driver", pci);
	snprintf(t, sizeof(t), "../../../bus/pci/drivers/%s", drv);
	if (strchr(pci, '/'))	/* an auxiliary device under the function: one more up */
		snprintf(t, sizeof(t), "../../../../bus/pci/drivers/%s", drv);
	link_to(t, w);
}

static void make_host(void)
{
	device("rocep8s0f0", "0000:08:00.0", "mlx5_core", "ens8f0np0");
	put("2", "%s/sys/devices/pci0000:00/0000:08:00.0/sriov_numvfs", root);
	device("rocep8s0f0v0", "0000:08:00.2", "mlx5_core", "ens8f0v0");
	link_to("../0000:08:00.0", "sys/devices/pci0000:00/0000:08:00.2/physfn");
	device("rocep8s0f0v1", "0000:08:00.3", "mlx5_core", "ens8f0v1");
	link_to("../0000:08:00.0", "sys/devices/pci0000:00/0000:08:00.3/physfn");
	device("mlx5_bond_0", "0000:0a:00.0", "mlx5_core", "bond0");
	put("ens1f0np0 ens1f1np1", "%s/sys/class/net/bond0/bonding/slaves", root);
	device("mgmt_0", "0000:09:00.0", "bnxt_en", "eno1");
	device("irdma0", "0000:0b:00.0/ice.roce.0", "irdma", "ens11");
	device("rxe0", NULL, NULL, "eth0");
	put("eth0", "%s/sys/class/infiniband/rxe0/parent", root);
	device("fakeroce0", NULL, NULL, "fre0");
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_devices.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	make_host();
	memset(&df, 0, sizeof(df));
	devices_init(&devs, &m.opts, &kept, &walk);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	devices_init(&devs, &m.opts, &kept, &walk);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static const char *driver(const char *dev, const char *ko_dir)
{
	static char out[32];

	devshape_driver(root, dev, ko_dir, out, sizeof(out));
	return out;
}

static void drivers(void **state)
{
	char ko[128];

	(void)state;
	assert_string_equal(driver("rocep8s0f0", NULL), "mlx5");
	assert_string_equal(driver("mgmt_0", NULL), "bnxt_re");
	assert_string_equal(driver("irdma0", NULL), "irdma");
	assert_string_equal(driver("rxe0", NULL), "rxe");
	assert_string_equal(driver("fakeroce0", NULL), "-");	/* no parent: cannot be told */
	/* a device with no parent at all: what fabtel.ko says, when it is walked */
	snprintf(ko, sizeof(ko), "%s/sys/kernel/fabtel", root);
	put("mlx5", "%s/fakeroce0/driver", ko);
	assert_string_equal(driver("fakeroce0", ko), "mlx5");
	assert_string_equal(devshape_vendor("hns_roce_hw_v2"), "unknown");
	assert_true(devshape_is_pci("0000:08:00.1"));
	assert_true(devshape_is_pci("10000:e1:1f.7"));
	assert_false(devshape_is_pci("0000:08:00.8"));
	assert_false(devshape_is_pci("ice.roce.0"));
	assert_false(devshape_is_pci("0000:08:00.1x"));
}

static void shapes(void **state)
{
	struct dev_shape s;

	(void)state;
	devshape_read(root, "rocep8s0f0", &s);
	assert_string_equal(s.pci, "0000:08:00.0");
	assert_string_equal(s.pf, "");
	assert_true(s.is_pf);
	assert_int_equal(s.vfs, 2);
	assert_string_equal(s.bond, "");
	devshape_read(root, "rocep8s0f0v1", &s);
	assert_string_equal(s.pci, "0000:08:00.3");
	assert_string_equal(s.pf, "0000:08:00.0");
	assert_false(s.is_pf);
	devshape_read(root, "mlx5_bond_0", &s);
	assert_string_equal(s.pci, "0000:0a:00.0");
	assert_false(s.is_pf);		/* no sriov_numvfs: not an SR-IOV PF */
	assert_string_equal(s.bond, "bond0");
	assert_string_equal(s.bond_slaves, "ens1f0np0,ens1f1np1");
	devshape_read(root, "irdma0", &s);	/* the function above its auxiliary device */
	assert_string_equal(s.pci, "0000:0b:00.0");
	devshape_read(root, "rxe0", &s);
	assert_string_equal(s.pci, "");
	assert_string_equal(s.bond, "");
}

/* ---- the walk ------------------------------------------------------------ */


static int name_port(void *ctx, const char *base, const char *dev, const char *port)
{
	char *out = ctx;

	(void)base;
	(void)port;
	snprintf(out + strlen(out), 512 - strlen(out), "%s,", dev);
	return 0;
}

static const char *walk_names(void)
{
	static char names[512];
	char dir[128];

	names[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/sys/class/infiniband", root);
	assert_int_equal(devices_walk_ports(&devs, dir, false, name_port, names), 0);
	return names;
}

/* a port of dev in the model, as the ports' fold leaves it */
static struct model_port *port(unsigned int i, const char *dev, const char *nd)
{
	struct model_port *p = &m.ports[i];

	memset(p, 0, sizeof(*p));
	p->present = true;
	snprintf(p->device, sizeof(p->device), "%s", dev);
	snprintf(p->netdev, sizeof(p->netdev), "%s", nd);
	snprintf(p->driver, sizeof(p->driver), "-");
	p->port = 1;
	if (i >= m.port_slots)
		m.port_slots = i + 1;
	return p;
}

static void walk_leaves_out(void **state)
{
	(void)state;
	memset(&m, 0, sizeof(m));
	collect_opts_default(&m.opts);
	snprintf(m.opts.sysfs_root, sizeof(m.opts.sysfs_root), "%s", root);
	m.opts.devfilter = &df;
	assert_string_equal(walk_names(),
			    "fakeroce0,irdma0,mgmt_0,mlx5_bond_0,rocep8s0f0,rocep8s0f0v0,rocep8s0f0v1,rxe0,");
	assert_int_equal(devfilter_set(&df, "exclude_devices", "mgmt_*", err, sizeof(err)), 0);
	devices_init(&devs, &m.opts, &kept, &walk);
	assert_string_equal(walk_names(),
			    "fakeroce0,irdma0,mlx5_bond_0,rocep8s0f0,rocep8s0f0v0,rocep8s0f0v1,rxe0,");
	assert_true(devices_excluded(&devs, "mgmt_0"));
	assert_false(devices_excluded(&devs, "rocep8s0f0"));
	assert_true(devices_excluded(&devs, "mgmt_9"));	/* never listed: by its name */
	port(0, "rocep8s0f0v1", "ens8f0v1");
	port(1, "mlx5_bond_0", "bond0");
	port(2, "rocep8s0f0", "ens8f0np0");
	devices_fold(&devs, &m);
	assert_int_equal(m.nr_excluded, 1);
	assert_string_equal(m.excluded[0].device, "mgmt_0");
	assert_string_equal(m.excluded[0].driver, "");		/* by its name: nothing read */
	assert_int_equal(m.excluded[0].rule, DF_EXCLUDE_DEVICES);
	assert_string_equal(m.ports[0].shape.pf, "0000:08:00.0");
	assert_string_equal(m.ports[0].shape.pf_device, "rocep8s0f0");
	assert_string_equal(m.ports[0].driver, "mlx5");		/* "-" from plain sysfs */
	assert_string_equal(m.ports[1].shape.bond_slaves, "ens1f0np0,ens1f1np1");
	assert_true(m.ports[2].shape.is_pf);
	assert_int_equal(m.ports[2].shape.vfs, 2);
	/* by driver; the include list */
	memset(&df, 0, sizeof(df));
	assert_int_equal(devfilter_set(&df, "exclude_drivers", "bnxt_re", err, sizeof(err)), 0);
	devices_init(&devs, &m.opts, &kept, &walk);
	assert_string_equal(walk_names(),
			    "fakeroce0,irdma0,mlx5_bond_0,rocep8s0f0,rocep8s0f0v0,rocep8s0f0v1,rxe0,");
	devices_fold(&devs, &m);
	assert_int_equal(m.nr_excluded, 1);
	assert_string_equal(m.excluded[0].driver, "bnxt_re");
	assert_int_equal(m.excluded[0].rule, DF_EXCLUDE_DRIVERS);
	memset(&df, 0, sizeof(df));
	assert_int_equal(devfilter_set(&df, "include_devices", "rocep*", err, sizeof(err)), 0);
	devices_init(&devs, &m.opts, &kept, &walk);
	assert_string_equal(walk_names(), "rocep8s0f0,rocep8s0f0v0,rocep8s0f0v1,");
	devices_fold(&devs, &m);
	assert_int_equal(m.nr_excluded, 5);
	assert_string_equal(m.excluded[0].device, "fakeroce0");
	assert_string_equal(m.excluded[4].device, "rxe0");
}

/*
 * The shapes are read when a device is first listed, and again only after
 * the device list changed: a VF more (its PF's count moved with it) is
 * seen at the walk after the one that listed it.
 */
static void read_again_when_the_list_changes(void **state)
{
	uint64_t before;

	(void)state;
	memset(&m, 0, sizeof(m));
	collect_opts_default(&m.opts);
	snprintf(m.opts.sysfs_root, sizeof(m.opts.sysfs_root), "%s", root);
	m.opts.devfilter = &df;
	port(0, "rocep8s0f0", "ens8f0np0");
	walk_names();
	devices_fold(&devs, &m);
	assert_int_equal(m.ports[0].shape.vfs, 2);
	put("3", "%s/sys/devices/pci0000:00/0000:08:00.0/sriov_numvfs", root);
	walk_names();
	devices_fold(&devs, &m);
	assert_int_equal(m.ports[0].shape.vfs, 2);	/* not read again: same devices */
	device("rocep8s0f0v2", "0000:08:00.4", "mlx5_core", "ens8f0v2");
	link_to("../0000:08:00.0", "sys/devices/pci0000:00/0000:08:00.4/physfn");
	assert_non_null(strstr(walk_names(), "rocep8s0f0v2,"));
	walk_names();
	devices_fold(&devs, &m);
	assert_int_equal(m.ports[0].shape.vfs, 3);
	/* nothing set: no list, and the model's is not touched */
	before = m.excluded_gen;
	devices_fold(&devs, &m);
	assert_int_equal(m.excluded_gen, before);
	assert_int_equal(m.nr_excluded, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(globs_checked),
		cmocka_unit_test(values_split_and_replaced),
		cmocka_unit_test(matches),
		T(drivers),
		T(shapes),
		T(walk_leaves_out),
		T(read_again_when_the_list_changes),
	};

	return cmocka_run_group_tests_name("devices", tests, NULL, NULL);
}
