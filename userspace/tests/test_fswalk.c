// SPDX-License-Identifier: GPL-2.0
/*
 * fswalk: the port walk's device listings kept from one walk to the next
 * (fswalk.c device_names) under keep all, as on sysfs.  A device added
 * where its directory's link count and mtime do not move (a symlink, as
 * in /sys/class/infiniband, the mtime set back) is not seen while the
 * listing is kept; that shows which walks listed the directory again.
 * And the fabtel.ko source on the kernel's tree looking for a fabtel.ko
 * that is not loaded every third sample (source_ko.c KO_ABSENT_EVERY).
 */
#include <errno.h>
#include <fcntl.h>
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

#include "collector.h"

static char root[64];
static struct model m;
static struct collector *c;	/* the walks' and the fabtel.ko source's */
static void *ko_priv;

static void mkdirs(const char *fmt, const char *dev)
{
	char path[256], *s;

	snprintf(path, sizeof(path), fmt, root, dev);
	for (s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	assert_int_equal(mkdir(path, 0755), 0);
}

static int count_port(void *ctx, const char *base, const char *dev, const char *port)
{
	(void)base;
	(void)dev;
	(void)port;
	(*(int *)ctx)++;
	return 0;
}

static int walk(const char *sub)
{
	char dir[128];
	int n = 0, err;

	snprintf(dir, sizeof(dir), "%s/%s", root, sub);
	err = fs_walk_ports(&c->walk, &c->kept, dir, count_port, &n);
	return err ? err : n;
}

/* a device under ib/ that its stat does not show: a symlink, mtime kept */
static void add_hidden_device(void)
{
	char dir[128], link[128];
	struct stat st;
	struct timespec t[2];

	snprintf(dir, sizeof(dir), "%s/ib", root);
	assert_int_equal(stat(dir, &st), 0);
	snprintf(link, sizeof(link), "%s/ib/dev1", root);
	assert_int_equal(symlink("../devices/dev1", link), 0);
	t[0] = st.st_atim;
	t[1] = st.st_mtim;
	assert_int_equal(utimensat(AT_FDCWD, dir, t, 0), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_fswalk.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	c = collector_new(&m, &m.opts);
	ko_priv = calloc(1, source_ko.priv_size);
	if (!c || !ko_priv)
		return -1;
	fs_kept_root(&c->kept, root, FS_KEEP_ALL);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	collector_free(c);
	free(ko_priv);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

/*
 * fabteld walks fabtel.ko's directory and ib_core's each pass; without
 * fabtel.ko the first is not there.  Its failed walk must not cost the
 * other its kept listing (it did every other pass: the failed walk took
 * the next victim entry, ib_core's).
 */
static void absent_dir_keeps_the_other_listing(void **state)
{
	int i;

	(void)state;
	mkdirs("%s/devices/%s/ports/1", "dev0");
	mkdirs("%s/devices/%s/ports/1", "dev1");
	mkdirs("%s/%s", "ib");
	assert_int_equal(chdir(root), 0);
	assert_int_equal(symlink("../devices/dev0", "ib/dev0"), 0);
	assert_int_equal(walk("ib"), 1);
	add_hidden_device();
	for (i = 0; i < 5; i++) {
		assert_int_equal(walk("kernel/fabtel"), -ENOENT);
		assert_int_equal(walk("ib"), 1);		/* the kept listing */
	}
	/* ... which is listed again within WALK_TTL (10) walks: dev1 seen */
	for (i = 0; i < 10 && walk("ib") == 1; i++)
		;
	assert_int_equal(walk("ib"), 2);
}

static int name_port(void *ctx, const char *base, const char *dev, const char *port)
{
	char *out = ctx;

	(void)base;
	if (!strcmp(dev, "dev0"))
		snprintf(out + strlen(out), 64 - strlen(out), "%s,", port);
	return 0;
}

/* dev0's port names in one walk of ib/: "1,2," */
static const char *dev0_ports(void)
{
	static char names[64];
	char dir[128];

	names[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/ib", root);
	assert_int_equal(fs_walk_ports(&c->walk, &c->kept, dir, name_port, names), 0);
	return names;
}

/* walks of ib/ until dev0's ports are WANT; how many it took, or -1 past 2 * WALK_TTL */
static int walks_until(const char *want)
{
	int i;

	for (i = 1; i <= 20; i++)
		if (!strcmp(dev0_ports(), want))
			return i;
	return -1;
}

/*
 * A device's port names are kept and checked every WALK_TTL (10) walks by
 * one stat of its ports/: a port more (the link count moved) and a ports/
 * made anew with as many ports (another inode) are each seen within 10.
 */
static void kept_port_names_checked(void **state)
{
	char path[256], moved[256];

	(void)state;
	assert_string_equal(dev0_ports(), "1,");
	mkdirs("%s/devices/%s/ports/2", "dev0");
	assert_string_equal(dev0_ports(), "1,");	/* kept: not seen at once */
	assert_in_range(walks_until("1,2,"), 1, 10);
	snprintf(path, sizeof(path), "%s/devices/dev0/ports", root);
	snprintf(moved, sizeof(moved), "%s/devices/dev0/old", root);
	assert_int_equal(rename(path, moved), 0);
	mkdirs("%s/devices/%s/ports/3", "dev0");
	mkdirs("%s/devices/%s/ports/4", "dev0");
	assert_in_range(walks_until("3,4,"), 1, 10);
}

static struct raw r;

/*
 * after one sample of the fabtel.ko source: 1 its directory was found (the
 * test's snapshot is not a whole one: the source says so), 0 "not loaded"
 * or not looked at; LOOKS: whether the sample says it asked the kernel
 * (collect.c reads the thread's CPU clock only after a source that did).
 * A sample that does not look reports nothing: the last look's state stands.
 */
static int ko_up(bool looks)
{
	memset(&r, 0, sizeof(r));
	assert_int_equal(source_ko.sample(c, ko_priv, &r), looks);
	assert_int_equal(r.reported[SRC_FABTEL_KO], looks);
	if (!looks)
		return 0;
	assert_int_not_equal(r.state[SRC_FABTEL_KO], SRC_STATE_UP);
	return !strstr(r.why[SRC_FABTEL_KO], "fabtel.ko not loaded");
}

/*
 * No fabtel.ko: its directory is looked for every third sample (a failed
 * look was a tenth of a plain-sysfs pass).  An insmod between two looks
 * shows at the next one: within 3 samples, and not before it.
 */
static void absent_ko_looked_for_every_third_sample(void **state)
{
	char path[128];
	FILE *f;
	int i;

	(void)state;
	collect_opts_default(&m.opts);
	snprintf(m.opts.sysfs_root, sizeof(m.opts.sysfs_root), "%s", root);
	assert_int_equal(ko_up(true), 0);	/* looked: not there */
	mkdirs("%s/sys/kernel/fabtel/%s/ports/1", "dev0");
	snprintf(path, sizeof(path), "%s/sys/kernel/fabtel/dev0/ports/1/snapshot", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "fabtel-snapshot 1\nend\n");
	assert_int_equal(fclose(f), 0);
	assert_int_equal(ko_up(false), 0);	/* not looked again yet */
	assert_int_equal(ko_up(false), 0);
	assert_int_equal(ko_up(true), 1);	/* the third sample looks */
	for (i = 0; i < 3; i++)
		assert_int_equal(ko_up(true), 1);	/* there: walked each sample */
}

/*
 * fabtel_ko = off: never looked for, its directory there or not; each
 * sample says so (the source is absent by choice, render_self.c), and the
 * plain sysfs source is not told to stand by.
 */
static void ko_off_not_looked_for(void **state)
{
	int i;

	(void)state;
	collect_opts_default(&m.opts);
	snprintf(m.opts.sysfs_root, sizeof(m.opts.sysfs_root), "%s", root);
	mkdirs("%s/sys/kernel/fabtel/%s/ports/1", "dev2");
	assert_int_equal(ko_up(true), 1);	/* there: found with auto */
	m.opts.want_ko = false;
	for (i = 0; i < 4; i++) {
		memset(&r, 0, sizeof(r));
		assert_false(source_ko.sample(c, ko_priv, &r));
		assert_true(r.reported[SRC_FABTEL_KO]);
		assert_int_equal(r.state[SRC_FABTEL_KO], SRC_STATE_UNAVAILABLE);
		assert_non_null(strstr(r.why[SRC_FABTEL_KO], "fabtel_ko = off"));
		assert_false(r.ko);
		assert_int_equal(r.nr_ports, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(absent_dir_keeps_the_other_listing),
		cmocka_unit_test(kept_port_names_checked),
		cmocka_unit_test(absent_ko_looked_for_every_third_sample),
		cmocka_unit_test(ko_off_not_looked_for),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
