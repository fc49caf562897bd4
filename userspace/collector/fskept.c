// SPDX-License-Identifier: GPL-2.0
/*
 * fskept.c - the collector's sysfs files kept open and re-read with
 * pread(2) at offset 0 (fskept.h): a sysfs attribute is shown anew by each
 * read from offset 0, so a file opened once serves every sample, and a
 * sample costs one system call per file instead of open, read and close
 * (the open's path walk the dearest of the three).
 *
 * Kept (keep_files = auto): files on sysfs or procfs only, whose names
 * never point to another file while open; a file elsewhere (a test's
 * fixture, replaced by rename) is read by path each time.  keep_files = on
 * keeps any file (a benchmark's fixture tree), off none.  A kept file
 * whose read fails (its device went: ENODEV) is closed and opened again
 * by path, once; one not read for FS_KEPT_IDLE passes is closed (a device
 * that went, a source that paused).
 *
 * A table of paths with open addressing; the collector thread's only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "fskept.h"

#define SYSFS_MAGIC_NR	0x62656572
#define PROC_MAGIC_NR	0x9fa0
#define KEPT_SLOTS	FS_KEPT_SLOTS
#define KEPT_MOST	4096
#define FS_KEPT_IDLE	30		/* passes a kept file may go unread */
#define FS_KEPT_SWEEP	8		/* passes between looks for idle files */

static struct fs_kept_file *find(struct fs_kept *k, const char *path)
{
	uint32_t i = fs_path_hash(path) & (KEPT_SLOTS - 1);

	while (k->slots[i].path) {
		if (!strcmp(k->slots[i].path, path))
			return &k->slots[i];
		i = (i + 1) & (KEPT_SLOTS - 1);
	}
	return NULL;
}

/* close and free slot k, moving later entries of its run back (no tombstones) */
static void drop(struct fs_kept *t, struct fs_kept_file *k)
{
	uint32_t i = (uint32_t)(k - t->slots), j = i, home;

	close(k->fd);
	free(k->path);
	k->path = NULL;
	t->nr_kept--;
	for (;;) {
		j = (j + 1) & (KEPT_SLOTS - 1);
		if (!t->slots[j].path)
			return;
		home = fs_path_hash(t->slots[j].path) & (KEPT_SLOTS - 1);
		/* slot j may move to i unless its home lies cyclically in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			t->slots[i] = t->slots[j];
			t->slots[j].path = NULL;
			i = j;
		}
	}
}

/*
 * How many files may be kept: half the soft limit of open files, raised to
 * the hard limit first (up to 2 x KEPT_MOST), so the collector's files
 * never crowd out sockets.
 */
static void kept_limit(struct fs_kept *k)
{
	struct rlimit rl;

	if (k->most)
		return;
	k->most = 256;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 2 * KEPT_MOST &&
	    (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > rl.rlim_cur)) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > 2 * KEPT_MOST ?
			      2 * KEPT_MOST : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur / 2 > KEPT_MOST)
		k->most = KEPT_MOST;
	else if (rl.rlim_cur / 2 > k->most)
		k->most = (unsigned int)(rl.rlim_cur / 2);
}

static bool kernel_fs(const struct statfs *st)
{
	return st->f_type == SYSFS_MAGIC_NR || st->f_type == PROC_MAGIC_NR;
}

static bool keepable(const struct fs_kept *k, int fd)
{
	struct statfs st;

	if (k->keep_mode != FS_KEEP_AUTO)
		return k->keep_mode == FS_KEEP_ALL;
	return !fstatfs(fd, &st) && kernel_fs(&st);
}

bool fs_kept_kernel_path(const struct fs_kept *k, const char *path)
{
	struct statfs st;

	if (fs_backend() || k->keep_mode == FS_KEEP_NONE)
		return false;
	return k->keep_mode == FS_KEEP_ALL || (!statfs(path, &st) && kernel_fs(&st));
}

void fs_kept_init(struct fs_kept *k, const char *root, enum fs_keep keep)
{
	memset(k, 0, sizeof(*k));
	fs_kept_root(k, root, keep);
}

void fs_kept_root(struct fs_kept *k, const char *root, enum fs_keep keep)
{
	char sys[600];
	struct statfs st;

	snprintf(sys, sizeof(sys), "%s/sys", root);
	k->keep_mode = keep;
	k->plain_len = 0;
	if (keep == FS_KEEP_AUTO && root[0] && !statfs(sys, &st) && !kernel_fs(&st) &&
	    strlen(root) < sizeof(k->plain_root)) {
		snprintf(k->plain_root, sizeof(k->plain_root), "%s", root);
		k->plain_len = strlen(root);
	}
}

/* open and read path: its fd if it may be kept (a kernel file, room left), else closed: -1 */
static int open_keepable(struct fs_kept *k, const char *path, char *buf, size_t len, ssize_t *n)
{
	int fd;

	*n = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	k->opens++;
	*n = read(fd, buf, len);
	kept_limit(k);
	if (*n < 0 || k->nr_kept + k->nr_held >= k->most ||
	    (k->plain_len && !strncmp(path, k->plain_root, k->plain_len)) || !keepable(k, fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* open path; keep it if it is a kernel file and there is room */
static ssize_t open_read(struct fs_kept *t, const char *path, char *buf, size_t len)
{
	struct fs_kept_file *k;
	ssize_t n;
	uint32_t i;
	int fd;

	fd = open_keepable(t, path, buf, len, &n);
	if (fd < 0)
		return n;
	i = fs_path_hash(path) & (KEPT_SLOTS - 1);
	while (t->slots[i].path)
		i = (i + 1) & (KEPT_SLOTS - 1);
	k = &t->slots[i];
	k->path = strdup(path);
	if (!k->path) {
		close(fd);
		return n;
	}
	k->fd = fd;
	k->used = t->pass;
	t->nr_kept++;
	return n;
}

static ssize_t kept_read(struct fs_kept *t, const char *path, char *buf, size_t len)
{
	struct fs_kept_file *k = find(t, path);
	ssize_t n;

	if (k) {
		n = pread(k->fd, buf, len, 0);
		if (n >= 0) {
			k->used = t->pass;
			return n;
		}
		drop(t, k);	/* gone, or replaced: by path once more */
	}
	return open_read(t, path, buf, len);
}

/*
 * A file its reader holds open itself (a port plan's counters, by its fd in
 * *fd; -1 none): read again with pread while it answers; else opened by
 * path (dir/file, formatted only then) and held if it would be kept,
 * counted with the kept files and within their limit, or read and closed.
 */
ssize_t fs_held_read(struct fs_kept *k, int *fd, const char *dir, const char *file,
		     char *buf, size_t len)
{
	char path[1024];
	ssize_t n;
	int f;

	if (*fd >= 0) {
		n = pread(*fd, buf, len, 0);
		if (n >= 0)
			return n;
		fs_held_close(k, fd);	/* gone, or replaced: by path once more */
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = open_keepable(k, path, buf, len, &n);
	if (f < 0)
		return n;
	*fd = f;
	k->nr_held++;
	return n;
}

void fs_held_close(struct fs_kept *k, int *fd)
{
	if (*fd < 0)
		return;
	close(*fd);
	*fd = -1;
	k->nr_held--;
}

/* every FS_KEPT_SWEEP passes: the files not read for FS_KEPT_IDLE closed */
void fs_kept_pass(struct fs_kept *k)
{
	unsigned int i;

	if (++k->pass % FS_KEPT_SWEEP)
		return;
	for (i = 0; i < KEPT_SLOTS; i++) {
		/* a drop may move a later entry into slot i: look at it again */
		while (k->slots[i].path && k->pass - k->slots[i].used > FS_KEPT_IDLE)
			drop(k, &k->slots[i]);
	}
}

void fs_kept_fini(struct fs_kept *k)
{
	unsigned int i;

	for (i = 0; i < KEPT_SLOTS; i++)
		while (k->slots[i].path)
			drop(k, &k->slots[i]);
}

unsigned int fs_kept_count(const struct fs_kept *k)
{
	return k->nr_kept + k->nr_held;
}

unsigned long long fs_kept_opens(const struct fs_kept *k)
{
	return k->opens;
}

ssize_t fs_read_kept(struct fs_kept *k, const char *path, char *buf, size_t len)
{
	const struct fs_backend *be = fs_backend();

	return fs_text_end(be ? be->read(be->b, path, buf, len - 1) :
				kept_read(k, path, buf, len - 1), buf);
}

int fs_read_u64_kept(struct fs_kept *k, const char *path, uint64_t *v)
{
	char buf[64];

	if (fs_read_kept(k, path, buf, sizeof(buf)) <= 0)
		return -1;
	return fs_parse_u64(buf, v);
}

int fs_held_read_u64(struct fs_kept *k, int *fd, const char *dir, const char *file,
		     uint64_t *v)
{
	const struct fs_backend *be = fs_backend();
	char buf[64], path[1024];
	ssize_t n;

	errno = ENOENT;		/* a backend's file that is not there */
	if (be) {
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		n = be->read(be->b, path, buf, sizeof(buf) - 1);
	} else {
		n = fs_held_read(k, fd, dir, file, buf, sizeof(buf) - 1);
	}
	if (n < 0)
		return errno > 0 ? -errno : -EIO;
	if (fs_text_end(n, buf) <= 0 || fs_parse_u64(buf, v))
		return -ENODATA;
	return 0;
}
