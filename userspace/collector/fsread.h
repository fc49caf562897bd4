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
/* the backend set, or NULL */
const struct fs_backend *fs_backend(void);

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
/* n bytes read into buf (len - 1 at most): NUL-terminated, newlines cut; -1 if n < 0 */
ssize_t fs_text_end(ssize_t n, char *buf);
/*
 * A counter's text: decimal, else what strtoull takes with base 0 (hex, as
 * some sysfs files show), a space ending either; 0, or -1.
 */
int fs_parse_u64(const char *buf, uint64_t *v);
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
#endif /* FABTEL_FSREAD_H */
