/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fswalk.h - the walk of a device tree's ports (/sys/kernel/fabtel or
 * /sys/class/infiniband: their layouts agree), its listings kept between
 * walks in a struct fs_walk of the collector's.
 */
#ifndef FABTEL_FSWALK_H
#define FABTEL_FSWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "fskept.h"

#define WALK_MAX_DEVS	256
#define WALK_MAX_PORTS	64
#define WALK_CACHE	256
#define FS_WALK_TTL	10
#define WALK_CACHE_PORTS 4
#define DEV_CACHE	2

/* A directory's names, sorted as people count (mlx5_2 before mlx5_10). */
struct fs_names {
	char (*name)[256];
	size_t n, max;
};

/*
 * A device's port names, kept from one walk to the next on sysfs, where a
 * device's ports are fixed while it is registered: each walk lists DIR (a
 * device that came or went is seen at once), and a device's ports/ only
 * when it is new to its slot.  Every FS_WALK_TTL walks the kept names are
 * checked with one stat of ports/ (not a listing): a device made again
 * under its name is another directory (kernfs gives it another inode
 * number), and one with other ports has another link count (a directory's
 * is 2 plus its subdirectories: the ports, numbered from 1).  Either, and
 * the names are listed again.  Direct-mapped by path: a collision only
 * costs a listing.
 */
struct fs_walk_ports {
	char path[300];		/* DIR/<dev>/ports; "" unused */
	unsigned int n, age;
	ino_t ino;		/* ports/ when listed */
	nlink_t nlink;
	char port[WALK_CACHE_PORTS][8];
};

/*
 * The devices of DIR: listed again when DIR's link count or mtime moved
 * (on sysfs a device directory added or removed changes its parent's link
 * count), or FS_WALK_TTL walks on; else the last listing.  A device that went
 * is skipped by the walk when its files fail; one that came under a parent
 * whose count does not move (the symlinks of /sys/class/infiniband) is
 * seen within FS_WALK_TTL walks.  One listing per DIR walked (fabtel.ko's and
 * ib_core's: a walk of the one does not cost the other its listing).
 */
struct fs_walk_devs {
	char dir[300];			/* "" unused, or not listed */
	struct stat st;
	unsigned int age;
	char name[WALK_MAX_DEVS][256];
	struct fs_names devs;
};

struct fs_walk {
	struct fs_walk_ports ports[WALK_CACHE];
	struct fs_walk_devs devs[DEV_CACHE];
	unsigned int victim;		/* the devs entry to take next */
	char ports_buf[WALK_MAX_PORTS][256];	/* a walk's port names */
};

/*
 * Call fn(ctx, base, dev, port) for each port directory base =
 * DIR/<dev>/ports/<port> until fn returns non-zero: devices and ports in
 * version order (mlx5_2 before mlx5_10), whatever order the directory
 * lists them in, so the model's ports and every output keep one order.
 * Up to 256 devices of 64 ports.  Listings are kept in fw when k says DIR
 * is the kernel's.  -errno if DIR cannot be opened.
 */
int fs_walk_ports(struct fs_walk *fw, const struct fs_kept *k, const char *dir,
		  int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		  void *ctx);
/*
 * The same, asking keep(ctx, dev) first for each device (in the same
 * order): false leaves the device out, its ports/ not listed.
 */
int fs_walk_ports_keep(struct fs_walk *fw, const struct fs_kept *k, const char *dir,
		       bool (*keep)(void *ctx, const char *dev),
		       int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		       void *ctx);

#endif /* FABTEL_FSWALK_H */
