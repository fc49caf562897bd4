// SPDX-License-Identifier: GPL-2.0
/*
 * fswalk.c - the port walk over fabtel.ko's or ib_core's device tree
 * (fswalk.h), its listings kept between walks on the kernel's tree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fswalk.h"

static int add_name(void *ctx, const char *name)
{
	struct fs_names *l = ctx;

	if (name[0] != '.' && l->n < l->max)
		snprintf(l->name[l->n++], sizeof(l->name[0]), "%s", name);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(a, b);
}

static int sorted_names(const char *dir, struct fs_names *l)
{
	int err;

	l->n = 0;
	err = fs_list(dir, add_name, l);
	qsort(l->name, l->n, sizeof(l->name[0]), cmp_names);
	return err;
}

/* the kept names of path, if they may still be used */
static bool port_names_kept(struct fs_walk_ports *w, const char *path)
{
	struct stat st;

	if (strcmp(w->path, path))
		return false;
	if (++w->age < FS_WALK_TTL)
		return true;
	if (stat(path, &st) || st.st_ino != w->ino || st.st_nlink != w->nlink)
		return false;
	w->age = 0;
	return true;
}

/* path's port names into ports (cached: see above); 0, or -errno */
static int port_names(struct fs_walk *fw, const char *path, bool cache, struct fs_names *ports)
{
	struct fs_walk_ports *w = &fw->ports[fs_path_hash(path) & (WALK_CACHE - 1)];
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

static struct fs_names *device_names(struct fs_walk *fw, const char *dir, bool cache, int *err)
{
	struct fs_walk_devs *c = NULL;
	struct stat st;
	unsigned int i;

	for (i = 0; i < DEV_CACHE && !c; i++)
		if (!strcmp(fw->devs[i].dir, dir))
			c = &fw->devs[i];
	/*
	 * Not listed: an unused entry before another DIR's listing.  A DIR
	 * that is not there (no fabtel.ko) leaves its entry unused at each
	 * walk; taking the next victim instead evicted ib_core's listing
	 * every other pass.
	 */
	for (i = 0; i < DEV_CACHE && !c; i++)
		if (!fw->devs[i].dir[0])
			c = &fw->devs[i];
	if (!c) {
		c = &fw->devs[fw->victim];
		fw->victim = (fw->victim + 1) % DEV_CACHE;
	}
	c->devs.name = c->name;
	c->devs.max = WALK_MAX_DEVS;
	*err = 0;
	if (cache && c->dir[0] && !stat(dir, &st) && st.st_nlink == c->st.st_nlink &&
	    st.st_mtim.tv_sec == c->st.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == c->st.st_mtim.tv_nsec && ++c->age < FS_WALK_TTL)
		return &c->devs;	/* the last listing */
	c->dir[0] = '\0';
	*err = sorted_names(dir, &c->devs);
	if (!cache || *err || strlen(dir) >= sizeof(c->dir) || stat(dir, &c->st))
		return &c->devs;
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	c->age = 0;
	return &c->devs;
}

int fs_walk_ports(struct fs_walk *fw, const struct fs_kept *k, const char *dir,
		  int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		  void *ctx)
{
	return fs_walk_ports_keep(fw, k, dir, NULL, fn, ctx);
}

int fs_walk_ports_keep(struct fs_walk *fw, const struct fs_kept *k, const char *dir,
		       bool (*keep)(void *ctx, const char *dev),
		       int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		       void *ctx)
{
	struct fs_names ports = { fw->ports_buf, 0, WALK_MAX_PORTS }, *devs;
	char path[900];
	bool cache = fs_kept_kernel_path(k, dir);
	size_t d, p, at, end;
	int err;

	devs = device_names(fw, dir, cache, &err);
	if (err)
		return err;
	at = fs_put(path, sizeof(path), fs_put(path, sizeof(path), 0, dir), "/");
	for (d = 0; d < devs->n; d++) {
		if (keep && !keep(ctx, devs->name[d]))
			continue;	/* left out: its ports/ not even listed */
		end = fs_put(path, sizeof(path), fs_put(path, sizeof(path), at, devs->name[d]),
			     "/ports");
		/* not a device directory, or it just went away: next */
		if (port_names(fw, path, cache, &ports))
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
