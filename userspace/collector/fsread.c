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

bool fs_backend_set(void)
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

/* n bytes read into buf (len - 1 at most): NUL-terminated, newlines cut */
static ssize_t text_end(ssize_t n, char *buf)
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
		return n < 0 ? -ENOENT : text_end(n, buf);
	}
	n = real_read_entry(path, buf, len - 1);
	return n < 0 ? n : text_end(n, buf);
}

ssize_t fs_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n = fs_read_entry(path, buf, len);

	return n < 0 ? -1 : n;
}

ssize_t fs_read_kept(const char *path, char *buf, size_t len)
{
	return text_end(backend ? backend->read(backend->b, path, buf, len - 1) :
				  fs_kept_read(path, buf, len - 1), buf);
}

/*
 * A counter's text: decimal (each second's files), else what strtoull takes
 * with base 0 (hex, as some sysfs files show), a space ending either.
 */
static int parse_u64(const char *buf, uint64_t *v)
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
	return parse_u64(buf, v);
}

int fs_read_u64_kept(const char *path, uint64_t *v)
{
	char buf[64];

	if (fs_read_kept(path, buf, sizeof(buf)) <= 0)
		return -1;
	return parse_u64(buf, v);
}

int fs_held_read_u64(int *fd, const char *dir, const char *file, uint64_t *v)
{
	char buf[64], path[1024];
	ssize_t n;

	errno = ENOENT;		/* a backend's file that is not there */
	if (backend) {
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		n = backend->read(backend->b, path, buf, sizeof(buf) - 1);
	} else {
		n = fs_held_read(fd, dir, file, buf, sizeof(buf) - 1);
	}
	if (n < 0)
		return errno > 0 ? -errno : -EIO;
	if (text_end(n, buf) <= 0 || parse_u64(buf, v))
		return -ENODATA;
	return 0;
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

/* A directory's names, sorted as people count (mlx5_2 before mlx5_10). */
struct names {
	char (*name)[256];
	size_t n, max;
};

static int add_name(void *ctx, const char *name)
{
	struct names *l = ctx;

	if (name[0] != '.' && l->n < l->max)
		snprintf(l->name[l->n++], sizeof(l->name[0]), "%s", name);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(a, b);
}

static int sorted_names(const char *dir, struct names *l)
{
	int err;

	l->n = 0;
	err = fs_list(dir, add_name, l);
	qsort(l->name, l->n, sizeof(l->name[0]), cmp_names);
	return err;
}

#define WALK_MAX_DEVS	256
#define WALK_MAX_PORTS	64

/*
 * A device's port names, kept from one walk to the next on sysfs, where a
 * device's ports are fixed while it is registered: each walk lists DIR (a
 * device that came or went is seen at once), and a device's ports/ only
 * when it is new to its slot.  Every WALK_TTL walks the kept names are
 * checked with one stat of ports/ (not a listing): a device made again
 * under its name is another directory (kernfs gives it another inode
 * number), and one with other ports has another link count (a directory's
 * is 2 plus its subdirectories: the ports, numbered from 1).  Either, and
 * the names are listed again.  Direct-mapped by path: a collision only
 * costs a listing.
 */
#define WALK_CACHE	256
#define WALK_TTL	10
#define WALK_CACHE_PORTS 4

static struct walk_cached {
	char path[300];		/* DIR/<dev>/ports; "" unused */
	unsigned int n, age;
	ino_t ino;		/* ports/ when listed */
	nlink_t nlink;
	char port[WALK_CACHE_PORTS][8];
} walk_cache[WALK_CACHE];

uint32_t fs_path_hash(const char *s)
{
	return fnv1a_str(FNV1A_INIT, s);
}

/* the kept names of path, if they may still be used */
static bool port_names_kept(struct walk_cached *w, const char *path)
{
	struct stat st;

	if (strcmp(w->path, path))
		return false;
	if (++w->age < WALK_TTL)
		return true;
	if (stat(path, &st) || st.st_ino != w->ino || st.st_nlink != w->nlink)
		return false;
	w->age = 0;
	return true;
}

/* path's port names into ports (cached: see above); 0, or -errno */
static int port_names(const char *path, bool cache, struct names *ports)
{
	struct walk_cached *w = &walk_cache[fs_path_hash(path) & (WALK_CACHE - 1)];
	struct stat st;
	size_t i;
	int err;

	if (cache && port_names_kept(w, path)) {
		for (i = 0; i < w->n; i++)
			memcpy(ports->name[i], w->port[i], sizeof(w->port[i]));
		ports->n = w->n;
		return 0;
	}
	w->path[0] = '\0';
	err = sorted_names(path, ports);
	if (!cache || err || ports->n > WALK_CACHE_PORTS || strlen(path) >= sizeof(w->path) ||
	    stat(path, &st))
		return err;
	for (i = 0; i < ports->n; i++)
		if (strlen(ports->name[i]) >= sizeof(w->port[0]))
			return 0;
	for (i = 0; i < ports->n; i++)
		snprintf(w->port[i], sizeof(w->port[0]), "%s", ports->name[i]);
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->n = (unsigned int)ports->n;
	w->ino = st.st_ino;
	w->nlink = st.st_nlink;
	w->age = 0;
	return 0;
}

/*
 * The devices of DIR: listed again when DIR's link count or mtime moved
 * (on sysfs a device directory added or removed changes its parent's link
 * count), or WALK_TTL walks on; else the last listing.  A device that went
 * is skipped by the walk when its files fail; one that came under a parent
 * whose count does not move (the symlinks of /sys/class/infiniband) is
 * seen within WALK_TTL walks.  One listing per DIR walked (fabtel.ko's and
 * ib_core's: a walk of the one does not cost the other its listing).
 */
#define DEV_CACHE	2

static struct dev_cached {
	char dir[300];			/* "" unused, or not listed */
	struct stat st;
	unsigned int age;
	char name[WALK_MAX_DEVS][256];
	struct names devs;
} dev_cache[DEV_CACHE];

static struct names *device_names(const char *dir, bool cache, int *err)
{
	static unsigned int victim;
	struct dev_cached *c = NULL;
	struct stat st;
	unsigned int i;

	for (i = 0; i < DEV_CACHE && !c; i++)
		if (!strcmp(dev_cache[i].dir, dir))
			c = &dev_cache[i];
	/*
	 * Not listed: an unused entry before another DIR's listing.  A DIR
	 * that is not there (no fabtel.ko) leaves its entry unused at each
	 * walk; taking the next victim instead evicted ib_core's listing
	 * every other pass.
	 */
	for (i = 0; i < DEV_CACHE && !c; i++)
		if (!dev_cache[i].dir[0])
			c = &dev_cache[i];
	if (!c) {
		c = &dev_cache[victim];
		victim = (victim + 1) % DEV_CACHE;
	}
	c->devs.name = c->name;
	c->devs.max = WALK_MAX_DEVS;
	*err = 0;
	if (cache && c->dir[0] && !stat(dir, &st) && st.st_nlink == c->st.st_nlink &&
	    st.st_mtim.tv_sec == c->st.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == c->st.st_mtim.tv_nsec && ++c->age < WALK_TTL)
		return &c->devs;	/* the last listing */
	c->dir[0] = '\0';
	*err = sorted_names(dir, &c->devs);
	if (!cache || *err || strlen(dir) >= sizeof(c->dir) || stat(dir, &c->st))
		return &c->devs;
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	c->age = 0;
	return &c->devs;
}

int fs_walk_ports(const char *dir, int (*fn)(void *ctx, const char *base, const char *dev,
					     const char *port), void *ctx)
{
	return fs_walk_ports_keep(dir, NULL, fn, ctx);
}

int fs_walk_ports_keep(const char *dir, bool (*keep)(void *ctx, const char *dev),
		       int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		       void *ctx)
{
	static char ports_buf[WALK_MAX_PORTS][256];
	struct names ports = { ports_buf, 0, WALK_MAX_PORTS }, *devs;
	char path[900];
	bool cache = fs_kept_kernel_path(dir);
	size_t d, p, at, end;
	int err;

	devs = device_names(dir, cache, &err);
	if (err)
		return err;
	at = fs_put(path, sizeof(path), fs_put(path, sizeof(path), 0, dir), "/");
	for (d = 0; d < devs->n; d++) {
		if (keep && !keep(ctx, devs->name[d]))
			continue;	/* left out: its ports/ not even listed */
		end = fs_put(path, sizeof(path), fs_put(path, sizeof(path), at, devs->name[d]),
			     "/ports");
		/* not a device directory, or it just went away: next */
		if (port_names(path, cache, &ports))
			continue;
		end = fs_put(path, sizeof(path), end, "/");
		for (p = 0; p < ports.n; p++) {
			fs_put(path, sizeof(path), end, ports.name[p]);
			if (fn(ctx, path, devs->name[d], ports.name[p]))
				return 0;
		}
	}
	return 0;
}
