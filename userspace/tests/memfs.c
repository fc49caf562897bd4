// SPDX-License-Identifier: GPL-2.0
/*
 * memfs.c - a file tree in memory for fsread's backend (memfs.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "memfs.h"

static ssize_t memfs_read(void *b, const char *path, char *buf, size_t len)
{
	struct memfs *fs = b;
	size_t i, n;

	for (i = 0; i < fs->n; i++) {
		if (strcmp(fs->f[i].path, path))
			continue;
		fs->f[i].reads++;
		if (fs->f[i].err) {
			errno = fs->f[i].err;
			return -1;
		}
		n = strlen(fs->f[i].text);
		n = n < len ? n : len;
		memcpy(buf, fs->f[i].text, n);
		return (ssize_t)n;
	}
	errno = ENOENT;
	return -1;
}

/* the first path component after dir/ in path, or 0 if path is not under dir */
static size_t child(const char *dir, const char *path, const char **name)
{
	size_t d = strlen(dir);

	if (strncmp(path, dir, d) || path[d] != '/' || !path[d + 1])
		return 0;
	*name = path + d + 1;
	return strcspn(*name, "/");
}

static int memfs_list(void *b, const char *dir, int (*fn)(void *ctx, const char *name),
		      void *ctx)
{
	struct memfs *fs = b;
	const char *name, *other;
	char one[256];
	bool any = false, dup;
	size_t i, k, n;

	for (i = 0; i < fs->n; i++) {
		n = child(dir, fs->f[i].path, &name);
		if (!n || n >= sizeof(one))
			continue;
		any = true;
		for (dup = false, k = 0; k < i && !dup; k++)
			dup = child(dir, fs->f[k].path, &other) == n && !strncmp(other, name, n);
		if (dup)
			continue;
		snprintf(one, sizeof(one), "%.*s", (int)n, name);
		if (fn(ctx, one))
			break;
	}
	return any ? 0 : -ENOENT;
}

void memfs_init(struct memfs *fs)
{
	memset(fs, 0, sizeof(*fs));
	fs->be.read = memfs_read;
	fs->be.list = memfs_list;
	fs->be.b = fs;
}

int memfs_put(struct memfs *fs, const char *path, const char *text)
{
	size_t i;

	if (strlen(path) >= sizeof(fs->f[0].path))
		return -1;
	for (i = 0; i < fs->n && strcmp(fs->f[i].path, path); i++)
		;
	if (i == MEMFS_MAX)
		return -1;
	snprintf(fs->f[i].path, sizeof(fs->f[i].path), "%s", path);
	snprintf(fs->f[i].text, sizeof(fs->f[i].text), "%s", text);
	fs->f[i].err = 0;
	if (i == fs->n)
		fs->n++;
	return 0;
}

int memfs_fail(struct memfs *fs, const char *path, int err)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		if (!strcmp(fs->f[i].path, path)) {
			fs->f[i].err = err;
			return 0;
		}
	}
	return -1;
}

unsigned int memfs_reads(const struct memfs *fs, const char *path)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].path, path))
			return fs->f[i].reads;
	return 0;
}

void memfs_load(struct memfs *fs, const char *lines, size_t len)
{
	char line[512], *eq;
	size_t at = 0, n;

	while (at < len) {
		for (n = 0; at + n < len && lines[at + n] != '\n'; n++)
			;
		if (n < sizeof(line)) {
			memcpy(line, lines + at, n);
			line[n] = '\0';
			eq = strchr(line, '=');
			if (eq) {
				*eq = '\0';
				memfs_put(fs, line, eq + 1);
			}
		}
		at += n + 1;
	}
}
