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
	} f[MEMFS_MAX];
	size_t n;
	struct fs_backend be;
};

void memfs_init(struct memfs *fs);
/* Add (or replace) a file; -1 if the tree is full or the path too long. */
int memfs_put(struct memfs *fs, const char *path, const char *text);
/*
 * Lines "PATH=TEXT" (TEXT to the end of the line) into files; lines
 * without '=' are ignored.  How the fuzzer's input becomes a tree.
 */
void memfs_load(struct memfs *fs, const char *lines, size_t len);

#endif /* FABTEL_MEMFS_H */
