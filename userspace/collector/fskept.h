/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fskept.h - the collector's per-sample reads of kernel files: a file on
 * sysfs or procfs is kept open and read again with pread (fskept.c); a
 * file gone is opened by path once more.  One table per collector, its
 * thread's only.
 */
#ifndef FABTEL_FSKEPT_H
#define FABTEL_FSKEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fsread.h"

#define FS_KEPT_SLOTS	8192		/* a power of two, twice the most kept */

/* the collector's root, and which of its files are kept open (keep_files) */
enum fs_keep {
	FS_KEEP_AUTO,	/* sysfs and procfs files; none under a fixture root */
	FS_KEEP_ALL,	/* any file (a benchmark's fixture, never replaced) */
	FS_KEEP_NONE,	/* none: open, read and close at each sample */
};

struct fs_kept_file {
	char *path;		/* NULL: a free slot */
	int fd;
	unsigned int used;	/* the pass it was last read in */
};

struct fs_kept {
	struct fs_kept_file slots[FS_KEPT_SLOTS];	/* open addressing by path */
	unsigned int nr_kept, nr_held, most, pass;
	unsigned long long opens;
	/* the collector's root when its /sys is not sysfs (a fixture): nothing kept */
	char plain_root[512];
	size_t plain_len;
	enum fs_keep keep_mode;
};

/* An empty table for the files under root, kept as keep says. */
void fs_kept_init(struct fs_kept *k, const char *root, enum fs_keep keep);
/* the root and the keep mode set anew, the files kept so far left as they are */
void fs_kept_root(struct fs_kept *k, const char *root, enum fs_keep keep);
/* every file closed */
void fs_kept_fini(struct fs_kept *k);
/* fs_read_text and fs_read_u64 through the table */
ssize_t fs_read_kept(struct fs_kept *k, const char *path, char *buf, size_t len);
int fs_read_u64_kept(struct fs_kept *k, const char *path, uint64_t *v);
/*
 * A number file its reader holds open (*fd; -1 none; a port plan's
 * counters), read from offset 0: pread while it answers, else opened by
 * path dir/file and held when it would be kept (counted with the kept
 * files), else read and closed.  Through the backend when one is set (*fd
 * stays -1).  0, or -errno: the read's own error (-ENOENT: not there; a
 * backend sets errno when its read fails), -ENODATA if it held no number.
 * fs_held_read is its read(2).
 */
int fs_held_read_u64(struct fs_kept *k, int *fd, const char *dir, const char *file,
		     uint64_t *v);
ssize_t fs_held_read(struct fs_kept *k, int *fd, const char *dir, const char *file,
		     char *buf, size_t len);
void fs_held_close(struct fs_kept *k, int *fd);
/* after each collector pass: close the files not read for a while */
void fs_kept_pass(struct fs_kept *k);
/* files kept open now; opens by path since start (kept or not) */
unsigned int fs_kept_count(const struct fs_kept *k);
unsigned long long fs_kept_opens(const struct fs_kept *k);
/* path's names stay what they are while open: its directories may be listed
 * once (sysfs and procfs under keep auto; any file under keep all) */
bool fs_kept_kernel_path(const struct fs_kept *k, const char *path);

#endif /* FABTEL_FSKEPT_H */
