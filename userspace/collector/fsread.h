/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsread.h - small-file reads for the sources that read sysfs and /proc,
 * under the options' roots (fixture trees in tests).
 */
#ifndef FABTEL_FSREAD_H
#define FABTEL_FSREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Where the reads go: the real file system, or (tests, fuzzers) a tree of
 * their own.  read: like read(2) of the whole file, -1 if it is not there
 * or does not read (errno says which: ENOENT not there);
 * list: fn(ctx, name) for each entry of a directory until fn returns
 * non-zero, -errno if it is not a directory.
 */
struct fs_backend {
	ssize_t (*read)(void *b, const char *path, char *buf, size_t len);
	int (*list)(void *b, const char *dir, int (*fn)(void *ctx, const char *name),
		    void *ctx);
	void *b;
};

/* Route every read through be; NULL: the real file system (the default). */
void fs_set_backend(const struct fs_backend *be);
bool fs_backend_set(void);

/* fn(ctx, name) for each entry of dir but "." and ".."; -errno if not a dir. */
int fs_list(const char *dir, int (*fn)(void *ctx, const char *name), void *ctx);

/* Read a small file whole; its length, or -1.  Trailing newlines stripped. */
ssize_t fs_read_text(const char *path, char *buf, size_t len);
/*
 * The same, telling a file that does not open (-ENOENT: not there, past a
 * table's end) from one that opens and does not read (-EIO: an empty GID
 * entry's type, whose read fails).  A backend's tree has only the first.
 */
ssize_t fs_read_entry(const char *path, char *buf, size_t len);
/* A file holding one number (decimal, or 0x hex); 0, or -1. */
int fs_read_u64(const char *path, uint64_t *v);
/*
 * The same for the collector's per-sample reads of kernel files: a file on
 * sysfs or procfs is kept open and read again with pread (fskept.c); a
 * file gone is opened by path once more.  The collector thread only.
 */
ssize_t fs_read_kept(const char *path, char *buf, size_t len);
int fs_read_u64_kept(const char *path, uint64_t *v);
/* fskept.c: read(2) of path through a kept file; -1 if it is not there */
ssize_t fs_kept_read(const char *path, char *buf, size_t len);
/*
 * A number file its reader holds open (*fd; -1 none; a port plan's
 * counters), read from offset 0: pread while it answers, else opened by
 * path dir/file and held when it would be kept (counted with the kept
 * files), else read and closed.  Through the backend when one is set (*fd
 * stays -1).  0, or -errno: the read's own error (-ENOENT: not there; a
 * backend sets errno when its read fails), -ENODATA if it held no number.
 * fs_held_read is its read(2) (fskept.c).
 */
int fs_held_read_u64(int *fd, const char *dir, const char *file, uint64_t *v);
ssize_t fs_held_read(int *fd, const char *dir, const char *file, char *buf, size_t len);
void fs_held_close(int *fd);
/* after each collector pass: close the files not read for a while */
void fs_kept_pass(void);
void fs_kept_close_all(void);
/* files kept open now; opens by path since start (kept or not) */
unsigned int fs_kept_count(void);
unsigned long long fs_kept_opens(void);
/* the collector's root, and which of its files are kept open (keep_files) */
enum fs_keep {
	FS_KEEP_AUTO,	/* sysfs and procfs files; none under a fixture root */
	FS_KEEP_ALL,	/* any file (a benchmark's fixture, never replaced) */
	FS_KEEP_NONE,	/* none: open, read and close at each sample */
};
void fs_kept_root(const char *root, enum fs_keep keep);
/* path's names stay what they are while open: its directories may be listed
 * once (sysfs and procfs under keep auto; any file under keep all) */
bool fs_kept_kernel_path(const char *path);
/* a path's hash (FNV-1a): the kept files' and the port walk's tables */
uint32_t fs_path_hash(const char *s);
/*
 * s copied to out + at (out holds len bytes), cut to fit as snprintf cuts:
 * the new end (at + strlen(s), or len - 1 when cut).  Paths built once per
 * port per sample: no format to parse.
 */
size_t fs_put(char *out, size_t len, size_t at, const char *s);
/* root + the formatted path ("" root: "/") into out. */
void fs_path(const char *root, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * Call fn(ctx, base, dev, port) for each port directory base =
 * DIR/<dev>/ports/<port> (DIR is /sys/kernel/fabtel or /sys/class/infiniband:
 * their layouts agree) until fn returns non-zero: devices and ports in
 * version order (mlx5_2 before mlx5_10), whatever order the directory
 * lists them in, so the model's ports and every output keep one order.
 * Up to 256 devices of 64 ports.  -errno if DIR cannot be opened.
 */
int fs_walk_ports(const char *dir, int (*fn)(void *ctx, const char *base, const char *dev,
					     const char *port), void *ctx);
/*
 * The same, asking keep(ctx, dev) first for each device (in the same
 * order): false leaves the device out, its ports/ not listed.
 */
int fs_walk_ports_keep(const char *dir, bool (*keep)(void *ctx, const char *dev),
		       int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		       void *ctx);

#endif /* FABTEL_FSREAD_H */
