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

#include "model.h"

/*
 * fs_walk_ports over dir (ko: fabtel.ko's /sys/kernel/fabtel, else ib_core's
 * /sys/class/infiniband), the devices o->devfilter leaves out skipped.
 */
int devices_walk_ports(const struct collect_opts *o, const char *dir, bool ko,
		       int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		       void *ctx);

/* Whether the QPs of device dev are left out with it (RDMA netlink lists every device's). */
bool devices_excluded(const struct collect_opts *o, const char *dev);

/*
 * After the ports' fold (lock held): each port's shape, its driver where
 * the port source did not know it ("-"), and the list of devices left out
 * into the model.
 */
void devices_fold(struct model *m);

/* Everything forgotten (the collector's end; tests). */
void devices_reset(void);

#endif /* FABTEL_DEVICES_H */
