// SPDX-License-Identifier: GPL-2.0
/*
 * fsread.c - small-file reads for the sysfs and /proc sources (fsread.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fnv.h"
#include "fsread.h"
#include "text.h"

static const struct fs_backend *backend;	/* NULL: the real file system */

void fs_set_backend(const struct fs_backend *be)
{
	backend = be;
}

const struct fs_backend *fs_backend(void)
{
	return backend;
}

/* read(2) of path whole: its length; -ENOENT if it does not open, -EIO if it does not read */
static ssize_t real_read_entry(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	n = read(fd, buf, len);
	close(fd);
	return n < 0 ? -EIO : n;
}

static int real_list(const char *dir, int (*fn)(void *ctx, const char *name), void *ctx)
{
	struct dirent *d;
	DIR *dp;
	int stop = 0;

	dp = opendir(dir);
	if (!dp)
		return -errno;
	while (!stop && (d = readdir(dp)))
		stop = fn(ctx, d->d_name);
	closedir(dp);
	return 0;
}

struct list_skip {
	int (*fn)(void *ctx, const char *name);
	void *ctx;
};

static int skip_dots(void *ctx, const char *name)
{
	struct list_skip *s = ctx;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	return s->fn(s->ctx, name);
}

int fs_list(const char *dir, int (*fn)(void *ctx, const char *name), void *ctx)
{
	struct list_skip s = { fn, ctx };

	if (backend)
		return backend->list(backend->b, dir, skip_dots, &s);
	return real_list(dir, skip_dots, &s);
}

ssize_t fs_text_end(ssize_t n, char *buf)
{
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

ssize_t fs_read_entry(const char *path, char *buf, size_t len)
{
	ssize_t n;

	if (backend) {
		n = backend->read(backend->b, path, buf, len - 1);
		return n < 0 ? -ENOENT : fs_text_end(n, buf);
	}
	n = real_read_entry(path, buf, len - 1);
	return n < 0 ? n : fs_text_end(n, buf);
}

ssize_t fs_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n = fs_read_entry(path, buf, len);

	return n < 0 ? -1 : n;
}

/*
 * A counter's text: decimal (each second's files), else what strtoull takes
 * with base 0 (hex, as some sysfs files show), a space ending either.
 */
int fs_parse_u64(const char *buf, uint64_t *v)
{
	const char *dec = buf[0] != '0' ? text_dec_u64(buf, v) : NULL;
	char *end;

	if (dec && (!*dec || *dec == ' '))
		return 0;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return errno || (*end && *end != ' ') ? -1 : 0;
}

int fs_read_u64(const char *path, uint64_t *v)
{
	char buf[64];

	if (fs_read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	return fs_parse_u64(buf, v);
}

size_t fs_put(char *out, size_t len, size_t at, const char *s)
{
	size_t n = strlen(s);

	if (!len || at >= len)
		return len ? len - 1 : 0;
	if (n > len - 1 - at)
		n = len - 1 - at;
	memcpy(out + at, s, n);
	out[at + n] = '\0';
	return at + n;
}

void fs_path(const char *root, char *out, size_t len, const char *fmt, ...)
{
	char rel[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(out, len, "%s%s", root, rel);
}

uint32_t fs_path_hash(const char *s)
{
	return fnv1a_str(FNV1A_INIT, s);
}
