// SPDX-License-Identifier: GPL-2.0
/*
 * fskept.c - the collector's sysfs files kept open and re-read with
 * pread(2) at offset 0 (fsread.h): a sysfs attribute is shown anew by each
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

#include "fsread.h"

#define SYSFS_MAGIC_NR	0x62656572
#define PROC_MAGIC_NR	0x9fa0
#define KEPT_SLOTS	8192		/* a power of two, twice the most kept */
#define KEPT_MOST	4096
#define FS_KEPT_IDLE	30		/* passes a kept file may go unread */
#define FS_KEPT_SWEEP	8		/* passes between looks for idle files */

struct kept {
	char *path;		/* NULL: a free slot */
	int fd;
	unsigned int used;	/* the pass it was last read in */
};

static struct kept slots[KEPT_SLOTS];
static unsigned int nr_kept, nr_held, most, pass;
static unsigned long long opens;
/* the collector's root when its /sys is not sysfs (a fixture): nothing kept */
static char plain_root[512];
static size_t plain_len;
static enum fs_keep keep_mode;

static struct kept *find(const char *path)
{
	uint32_t i = fs_path_hash(path) & (KEPT_SLOTS - 1);

	while (slots[i].path) {
		if (!strcmp(slots[i].path, path))
			return &slots[i];
		i = (i + 1) & (KEPT_SLOTS - 1);
	}
	return NULL;
}

/* close and free slot k, moving later entries of its run back (no tombstones) */
static void drop(struct kept *k)
{
	uint32_t i = (uint32_t)(k - slots), j = i, home;

	close(k->fd);
	free(k->path);
	k->path = NULL;
	nr_kept--;
	for (;;) {
		j = (j + 1) & (KEPT_SLOTS - 1);
		if (!slots[j].path)
			return;
		home = fs_path_hash(slots[j].path) & (KEPT_SLOTS - 1);
		/* slot j may move to i unless its home lies cyclically in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			slots[i] = slots[j];
			slots[j].path = NULL;
			i = j;
		}
	}
}

/*
 * How many files may be kept: half the soft limit of open files, raised to
 * the hard limit first (up to 2 x KEPT_MOST), so the collector's files
 * never crowd out sockets.
 */
static void kept_limit(void)
{
	struct rlimit rl;

	if (most)
		return;
	most = 256;
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
		most = KEPT_MOST;
	else if (rl.rlim_cur / 2 > most)
		most = (unsigned int)(rl.rlim_cur / 2);
}

static bool kernel_fs(const struct statfs *st)
{
	return st->f_type == SYSFS_MAGIC_NR || st->f_type == PROC_MAGIC_NR;
}

static bool keepable(int fd)
{
	struct statfs st;

	if (keep_mode != FS_KEEP_AUTO)
		return keep_mode == FS_KEEP_ALL;
	return !fstatfs(fd, &st) && kernel_fs(&st);
}

bool fs_kept_kernel_path(const char *path)
{
	struct statfs st;

	if (fs_backend_set() || keep_mode == FS_KEEP_NONE)
		return false;
	return keep_mode == FS_KEEP_ALL || (!statfs(path, &st) && kernel_fs(&st));
}

void fs_kept_root(const char *root, enum fs_keep keep)
{
	char sys[600];
	struct statfs st;

	snprintf(sys, sizeof(sys), "%s/sys", root);
	keep_mode = keep;
	plain_len = 0;
	if (keep == FS_KEEP_AUTO && root[0] && !statfs(sys, &st) && !kernel_fs(&st) &&
	    strlen(root) < sizeof(plain_root)) {
		snprintf(plain_root, sizeof(plain_root), "%s", root);
		plain_len = strlen(root);
	}
}

/* open and read path: its fd if it may be kept (a kernel file, room left), else closed: -1 */
static int open_keepable(const char *path, char *buf, size_t len, ssize_t *n)
{
	int fd;

	*n = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	opens++;
	*n = read(fd, buf, len);
	kept_limit();
	if (*n < 0 || nr_kept + nr_held >= most ||
	    (plain_len && !strncmp(path, plain_root, plain_len)) || !keepable(fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* open path; keep it if it is a kernel file and there is room */
static ssize_t open_read(const char *path, char *buf, size_t len)
{
	struct kept *k;
	ssize_t n;
	uint32_t i;
	int fd;

	fd = open_keepable(path, buf, len, &n);
	if (fd < 0)
		return n;
	i = fs_path_hash(path) & (KEPT_SLOTS - 1);
	while (slots[i].path)
		i = (i + 1) & (KEPT_SLOTS - 1);
	k = &slots[i];
	k->path = strdup(path);
	if (!k->path) {
		close(fd);
		return n;
	}
	k->fd = fd;
	k->used = pass;
	nr_kept++;
	return n;
}

ssize_t fs_kept_read(const char *path, char *buf, size_t len)
{
	struct kept *k = find(path);
	ssize_t n;

	if (k) {
		n = pread(k->fd, buf, len, 0);
		if (n >= 0) {
			k->used = pass;
			return n;
		}
		drop(k);	/* gone, or replaced: by path once more */
	}
	return open_read(path, buf, len);
}

/*
 * A file its reader holds open itself (a port plan's counters, by its fd in
 * *fd; -1 none): read again with pread while it answers; else opened by
 * path (dir/file, formatted only then) and held if it would be kept,
 * counted with the kept files and within their limit, or read and closed.
 */
ssize_t fs_held_read(int *fd, const char *dir, const char *file, char *buf, size_t len)
{
	char path[1024];
	ssize_t n;
	int f;

	if (*fd >= 0) {
		n = pread(*fd, buf, len, 0);
		if (n >= 0)
			return n;
		fs_held_close(fd);	/* gone, or replaced: by path once more */
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = open_keepable(path, buf, len, &n);
	if (f < 0)
		return n;
	*fd = f;
	nr_held++;
	return n;
}

void fs_held_close(int *fd)
{
	if (*fd < 0)
		return;
	close(*fd);
	*fd = -1;
	nr_held--;
}

/* every FS_KEPT_SWEEP passes: the files not read for FS_KEPT_IDLE closed */
void fs_kept_pass(void)
{
	unsigned int i;

	if (++pass % FS_KEPT_SWEEP)
		return;
	for (i = 0; i < KEPT_SLOTS; i++) {
		/* a drop may move a later entry into slot i: look at it again */
		while (slots[i].path && pass - slots[i].used > FS_KEPT_IDLE)
			drop(&slots[i]);
	}
}

void fs_kept_close_all(void)
{
	unsigned int i;

	for (i = 0; i < KEPT_SLOTS; i++)
		while (slots[i].path)
			drop(&slots[i]);
}

unsigned int fs_kept_count(void)
{
	return nr_kept + nr_held;
}

unsigned long long fs_kept_opens(void)
{
	return opens;
}
