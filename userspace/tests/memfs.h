/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memfs.h - a file tree in memory for fsread's backend (fsread.h): the
 * port parsers read it in unit tests and fuzzers, no files written.
 */
#ifndef FABTEL_MEMFS_H
#define FABTEL_MEMFS_H

#include <stddef.h>

#include "fsread.h"

#define MEMFS_MAX	128

struct memfs {
	struct {
		char path[256];
		char text[256];
		int err;		/* its reads fail with this errno; 0 they answer */
		unsigned int reads;	/* reads of it so far */
	} f[MEMFS_MAX];
	size_t n;
	struct fs_backend be;
};

void memfs_init(struct memfs *fs);
/* Add (or replace) a file; -1 if the tree is full or the path too long. */
int memfs_put(struct memfs *fs, const char *path, const char *text);
/* Its reads fail with errno err (0: they answer again); -1 if there is no such file. */
int memfs_fail(struct memfs *fs, const char *path, int err);
/* Reads of the file so far (a failed one too); 0 if there is no such file. */
unsigned int memfs_reads(const struct memfs *fs, const char *path);
/*
 * Lines "PATH=TEXT" (TEXT to the end of the line) into files; lines
 * without '=' are ignored.  How the fuzzer's input becomes a tree.
 */
void memfs_load(struct memfs *fs, const char *lines, size_t len);

#endif /* FABTEL_MEMFS_H */
