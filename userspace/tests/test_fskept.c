// SPDX-License-Identifier: GPL-2.0
/*
 * fskept.c: kernel files kept open and re-read with pread; procfs files
 * stand in for sysfs ones here (both are kept; this host's /sys has no
 * RDMA device).  Files elsewhere are read by path each time.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fskept.h"

static struct fs_kept kept;	/* the table under test */

static void reset(void)
{
	fs_kept_fini(&kept);
	assert_int_equal(fs_kept_count(&kept), 0);
}

/* path's text is now text (the file made if need be) */
static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * tmpl (ending in XXXXXX) made a new file holding text.  Apart from
 * put_file: a made name can end in X itself, and taken for a template
 * once more it failed (EINVAL) one run in 62.
 */
static void new_file(char *tmpl, const char *text)
{
	int fd = mkstemp(tmpl);

	assert_true(fd >= 0);
	close(fd);
	put_file(tmpl, text);
}

/* one open for many reads, and each read is a new one (the value moves) */
static void kept_and_read_anew(void **state)
{
	char a[256], b[256];
	unsigned long long o0;
	uint64_t s0, s1;

	(void)state;
	reset();
	o0 = fs_kept_opens(&kept);
	/* schedstat's first field, this process's CPU time, moves: burn a
	 * little between the reads */
	assert_true(fs_read_kept(&kept, "/proc/self/schedstat", a, sizeof(a)) > 0);
	for (volatile unsigned long i = 0; i < 20000000; i++)
		;
	assert_true(fs_read_kept(&kept, "/proc/self/schedstat", b, sizeof(b)) > 0);
	assert_int_equal(fs_kept_opens(&kept) - o0, 1);
	assert_int_equal(fs_kept_count(&kept), 1);
	assert_int_equal(sscanf(a, "%" SCNu64, &s0), 1);
	assert_int_equal(sscanf(b, "%" SCNu64, &s1), 1);
	assert_true(s1 > s0);
	reset();
}

/* a regular file (a fixture, replaced by rename in tests) is not kept */
static void regular_file_not_kept(void **state)
{
	char tmpl[] = "/tmp/fskept.XXXXXX", path[64], buf[16];

	(void)state;
	reset();
	new_file(tmpl, "1\n");
	assert_int_equal(fs_read_kept(&kept, tmpl, buf, sizeof(buf)), 1);
	assert_int_equal(fs_kept_count(&kept), 0);
	/* replaced by rename: the new file's value */
	snprintf(path, sizeof(path), "%s.new", tmpl);
	put_file(path, "2\n");
	assert_int_equal(rename(path, tmpl), 0);
	assert_int_equal(fs_read_kept(&kept, tmpl, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "2");
	unlink(tmpl);
	assert_int_equal(fs_read_kept(&kept, tmpl, buf, sizeof(buf)), -1);
}

/* many files: the ones not read for 30 passes go (looked for every 8
 * passes: gone by pass 38), the others stay found */
static void idle_ones_close(void **state)
{
	char names[400][300], buf[4096];
	unsigned int n = 0, i, p;
	unsigned long long o;
	struct dirent *d;
	DIR *dp;

	(void)state;
	reset();
	dp = opendir("/proc/sys/kernel");
	assert_non_null(dp);
	while ((d = readdir(dp)) && n < 400) {
		if (d->d_type != DT_REG)
			continue;
		snprintf(names[n], sizeof(names[0]), "/proc/sys/kernel/%s", d->d_name);
		if (fs_read_kept(&kept, names[n], buf, sizeof(buf)) >= 0)
			n++;
	}
	closedir(dp);
	assert_true(n > 40);
	assert_int_equal(fs_kept_count(&kept), n);
	/* the even ones read at every pass, the odd ones never again */
	for (p = 0; p < 38; p++) {
		for (i = 0; i < n; i += 2)
			assert_true(fs_read_kept(&kept, names[i], buf, sizeof(buf)) >= 0);
		fs_kept_pass(&kept);
	}
	assert_int_equal(fs_kept_count(&kept), (n + 1) / 2);
	o = fs_kept_opens(&kept);
	for (i = 0; i < n; i += 2)
		assert_true(fs_read_kept(&kept, names[i], buf, sizeof(buf)) >= 0);
	assert_int_equal(fs_kept_opens(&kept), o);	/* every even one still kept */
	reset();
}

/*
 * A held file (a port plan's counter): opened once, counted with the kept
 * files, read anew from offset 0; closed, it is opened by path again; a
 * regular file under keep_files = auto is read by path and never held.
 */
static void held_file(void **state)
{
	char tmpl[] = "/tmp/fskept.XXXXXX", dir[64], *slash;
	unsigned long long o;
	uint64_t v, v2;
	int fd = -1;

	(void)state;
	reset();
	o = fs_kept_opens(&kept);
	assert_int_equal(fs_held_read_u64(&kept, &fd, "/proc/sys/kernel", "pid_max", &v), 0);
	assert_true(fd >= 0 && v > 0);
	assert_int_equal(fs_kept_count(&kept), 1);
	assert_int_equal(fs_held_read_u64(&kept, &fd, "/proc/sys/kernel", "pid_max", &v2), 0);
	assert_int_equal(v2, v);
	assert_int_equal(fs_kept_opens(&kept) - o, 1);	/* one open, two reads */
	fs_held_close(&kept, &fd);
	assert_int_equal(fd, -1);
	assert_int_equal(fs_kept_count(&kept), 0);

	/* not kernel files under keep auto: read by path, never held */
	new_file(tmpl, "41\n");
	snprintf(dir, sizeof(dir), "%s", tmpl);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(fs_held_read_u64(&kept, &fd, dir, slash + 1, &v), 0);
	assert_int_equal(v, 41);
	assert_int_equal(fd, -1);
	assert_int_equal(fs_kept_count(&kept), 0);
	/* keep on: held, and rewritten in place its new value is read */
	fs_kept_root(&kept, "", FS_KEEP_ALL);
	assert_int_equal(fs_held_read_u64(&kept, &fd, dir, slash + 1, &v), 0);
	assert_true(fd >= 0);
	put_file(tmpl, "42\n");
	assert_int_equal(fs_held_read_u64(&kept, &fd, dir, slash + 1, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(fs_kept_count(&kept), 1);
	/* replaced by another file of that name: the held one is read until closed */
	unlink(tmpl);
	put_file(tmpl, "43\n");
	assert_int_equal(fs_held_read_u64(&kept, &fd, dir, slash + 1, &v), 0);
	assert_int_equal(v, 42);
	fs_held_close(&kept, &fd);
	assert_int_equal(fs_held_read_u64(&kept, &fd, dir, slash + 1, &v), 0);
	assert_int_equal(v, 43);
	fs_held_close(&kept, &fd);
	unlink(tmpl);
	assert_int_equal(fs_held_read_u64(&kept, &fd, dir, slash + 1, &v), -ENOENT);
	assert_int_equal(fd, -1);
	assert_int_equal(fs_kept_count(&kept), 0);
	fs_kept_root(&kept, "", FS_KEEP_AUTO);
	reset();
}

/* keep_files = on keeps a fixture's file (rewritten in place, read anew);
 * off keeps not even a kernel file (one open per read) */
static void keep_on_and_off(void **state)
{
	char tmpl[] = "/tmp/fskept.XXXXXX", buf[16];
	unsigned long long o;

	(void)state;
	reset();
	new_file(tmpl, "1\n");
	fs_kept_root(&kept, "", FS_KEEP_ALL);
	o = fs_kept_opens(&kept);
	assert_int_equal(fs_read_kept(&kept, tmpl, buf, sizeof(buf)), 1);
	assert_int_equal(fs_kept_count(&kept), 1);
	assert_true(fs_kept_kernel_path(&kept, tmpl));
	put_file(tmpl, "7\n");		/* in place: same file, new value */
	assert_int_equal(fs_read_kept(&kept, tmpl, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "7");
	assert_int_equal(fs_kept_opens(&kept) - o, 1);
	reset();
	unlink(tmpl);

	fs_kept_root(&kept, "", FS_KEEP_NONE);
	o = fs_kept_opens(&kept);
	assert_true(fs_read_kept(&kept, "/proc/self/schedstat", buf, sizeof(buf)) > 0);
	assert_true(fs_read_kept(&kept, "/proc/self/schedstat", buf, sizeof(buf)) > 0);
	assert_int_equal(fs_kept_opens(&kept) - o, 2);
	assert_int_equal(fs_kept_count(&kept), 0);
	assert_false(fs_kept_kernel_path(&kept, "/proc/self/schedstat"));
	fs_kept_root(&kept, "", FS_KEEP_AUTO);
	assert_true(fs_kept_kernel_path(&kept, "/proc/self/schedstat"));
	assert_false(fs_kept_kernel_path(&kept, "/tmp"));
}

/* a file that went: -1, and nothing kept for it */
static void gone_is_minus_one(void **state)
{
	char buf[64];

	(void)state;
	reset();
	assert_int_equal(fs_read_kept(&kept, "/proc/self/no-such-file", buf, sizeof(buf)), -1);
	assert_int_equal(fs_kept_count(&kept), 0);
}

/* fs_read_entry: a file's text; -ENOENT when it does not open; -EIO when
 * it opens and its read fails (a directory here, an empty GID entry on sysfs) */
static void entry_missing_or_unreadable(void **state)
{
	char tmpl[] = "/tmp/fskept.XXXXXX", buf[16];

	(void)state;
	new_file(tmpl, "RoCE v2\n");
	assert_int_equal(fs_read_entry(tmpl, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "RoCE v2");
	unlink(tmpl);
	assert_int_equal(fs_read_entry(tmpl, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(fs_read_entry("/tmp", buf, sizeof(buf)), -EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_and_read_anew),
		cmocka_unit_test(regular_file_not_kept),
		cmocka_unit_test(idle_ones_close),
		cmocka_unit_test(gone_is_minus_one),
		cmocka_unit_test(keep_on_and_off),
		cmocka_unit_test(held_file),
		cmocka_unit_test(entry_missing_or_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
