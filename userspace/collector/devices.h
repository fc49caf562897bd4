/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devices.h - the RDMA devices the port sources find (devices.c): each
 * one's fate under the include/exclude lists (devfilter.h) and its shape
 * (devshape.h), decided and read when the device is first listed and
 * again after the device list changed, never at each sample.  A device
 * left out is skipped by the port walk before anything of it is read: no
 * port, so no counter, snapshot, netlink or ethtool read, and no series.
 * The collector thread's, but for devices_fold (the model's lock held).
 */
#ifndef FABTEL_DEVICES_H
#define FABTEL_DEVICES_H

#include <stdbool.h>

#include "devshape.h"
#include "fswalk.h"
#include "model.h"

#define DEVICES_MAX	256	/* fswalk.c's walk lists as many */

struct dev_entry {
	char name[64];
	uint32_t hash;
	unsigned int gen;		/* the generation it was read in */
	unsigned int seen;		/* the last walk that listed it */
	bool excluded;
	struct devfilter_hit hit;	/* why, when excluded */
	char driver[32];		/* fabtel's name; "" not read (excluded by its name) */
	struct dev_shape shape;		/* a kept device's */
};

/* the collector's devices */
struct devices {
	struct dev_entry table[DEVICES_MAX];
	unsigned int nr_entries;
	unsigned int gen;		/* bumped when a directory lists other devices */
	unsigned int walks;		/* walks done (the current one is walks + 1) */
	struct {			/* per directory (0 ib_core's, 1 fabtel.ko's) */
		bool known;
		uint32_t names;		/* a hash of the names it listed last */
	} lists[2];
	struct {			/* devices_excluded's last answer */
		char name[64];
		bool excluded;
	} last_qp_dev;
	struct devfilter_hit hits[MODEL_MAX_EXCLUDED];	/* fold_excluded's */
	const struct collect_opts *o;
	struct fs_kept *kept;
	struct fs_walk *walk;		/* its listings */
};

/* none known yet; the walk's files through kept, its listings in walk */
void devices_init(struct devices *d, const struct collect_opts *o, struct fs_kept *kept,
		  struct fs_walk *walk);

/*
 * fs_walk_ports over dir (ko: fabtel.ko's /sys/kernel/fabtel, else ib_core's
 * /sys/class/infiniband), the devices o->devfilter leaves out skipped.
 */
int devices_walk_ports(struct devices *d, const char *dir, bool ko,
		       int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		       void *ctx);

/* Whether the QPs of device dev are left out with it (RDMA netlink lists every device's). */
bool devices_excluded(struct devices *d, const char *dev);

/*
 * After the ports' fold (lock held): each port's shape, its driver where
 * the port source did not know it ("-"), and the list of devices left out
 * into the model.
 */
void devices_fold(struct devices *d, struct model *m);

#endif /* FABTEL_DEVICES_H */
