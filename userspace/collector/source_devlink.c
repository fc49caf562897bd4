// SPDX-License-Identifier: GPL-2.0
/*
 * source_devlink.c - the devlink health reporters of each RDMA device
 * (mlx5: fw, fw_fatal, and per port tx, rx, ...), one dump each pass
 * (lib/devlinknl.h; Documentation/nic_health.rst).
 *
 * A devlink instance is named by its device's bus and name ("pci" and
 * "0000:03:00.0"); an RDMA device belongs to the instance of the device
 * its /sys/class/infiniband/<dev>/device link resolves to.  The dump is
 * kernel state: no firmware command.  Instances of no watched RDMA
 * device are left out.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backoff.h"
#include "clock.h"
#include "collector.h"
#include "devlinknl.h"
#include "fsread.h"
#include "text.h"

/* a watched device's handle as last resolved */
struct devlink_handle {
	char device[64];
	bool has_handle;
	char bus[64], dev[64];
};

/* the collector's priv for this source */
struct source_devlink {
	struct devlinknl *dl;
	struct backoff b;		/* a failing open or dump */
	uint64_t requests;
	/*
	 * the handles of the last pass's devices: resolved again only when
	 * the list of devices changes (two realpath()s a device, each a walk
	 * of sysfs links, were most of this source's cost a pass)
	 */
	struct devlink_handle cache[MODEL_MAX_PORTS];
	unsigned int nr_cache;
};

/* base name of the path link resolves to; false if it does not */
static bool resolved_name(const char *link, char *out, size_t len)
{
	char real[PATH_MAX];
	const char *slash;

	if (!realpath(link, real))
		return false;
	slash = strrchr(real, '/');
	text_copy(out, len, slash ? slash + 1 : real);
	return true;
}

bool source_device_handle(const char *root, const char *dev, char *bus, char *name, size_t len)
{
	char link[PATH_MAX];

	fs_path(root, link, sizeof(link), "/sys/class/infiniband/%s/device/subsystem", dev);
	if (!resolved_name(link, bus, len))
		return false;
	fs_path(root, link, sizeof(link), "/sys/class/infiniband/%s/device", dev);
	return resolved_name(link, name, len);
}

/* the pass's watched devices, each once, with their handles */
static void devices(struct collector *c, struct source_devlink *s, struct raw *r)
{
	struct devlink_handle *d;
	unsigned int i, k;
	bool same;

	r->nr_health = 0;
	for (i = 0; i < r->nr_ports && r->nr_health < MODEL_MAX_PORTS; i++) {
		for (k = 0; k < r->nr_health && strcmp(r->health[k].device, r->ports[i].device);
		     k++)
			;
		if (k < r->nr_health)
			continue;
		memset(&r->health[r->nr_health], 0, sizeof(r->health[0]));
		text_copy(r->health[r->nr_health].device, sizeof(r->health[0].device),
			  r->ports[i].device);
		r->nr_health++;
	}
	same = r->nr_health == s->nr_cache;
	for (i = 0; same && i < r->nr_health; i++)
		same = !strcmp(r->health[i].device, s->cache[i].device);
	for (i = 0; i < r->nr_health; i++) {
		d = &s->cache[i];
		if (same && d->has_handle)
			continue;
		text_copy(d->device, sizeof(d->device), r->health[i].device);
		d->has_handle = source_device_handle(c->o->sysfs_root, d->device, d->bus, d->dev,
					  sizeof(d->bus));
	}
	s->nr_cache = r->nr_health;
	for (i = 0; i < r->nr_health; i++) {
		d = &s->cache[i];
		r->health[i].has_handle = d->has_handle;
		text_copy(r->health[i].bus, sizeof(r->health[0].bus), d->bus);
		text_copy(r->health[i].dev, sizeof(r->health[0].dev), d->dev);
	}
}

static int reporter_cb(const struct devlinknl_reporter *rep, void *ctx)
{
	struct raw *r = ctx;
	struct raw_health *h;
	unsigned int i;

	for (i = 0; i < r->nr_health; i++) {
		h = &r->health[i];
		if (!h->has_handle || strcmp(h->bus, rep->bus) || strcmp(h->dev, rep->dev))
			continue;
		if (h->nr == RAW_REPORTERS) {
			h->over++;
			continue;
		}
		text_copy(h->rep[h->nr].name, sizeof(h->rep[0].name), rep->name);
		h->rep[h->nr].has_port = rep->has_port;
		h->rep[h->nr].port = rep->port;
		h->rep[h->nr].error = rep->error;
		h->rep[h->nr].errors = rep->errors;
		h->rep[h->nr].recovers = rep->recovers;
		h->nr++;
	}
	return 0;
}

static bool devlink_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_devlink *s = priv;
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	int err = 0;

	r->health_read = false;
	if (c->o->sysfs_root[0] && strcmp(c->o->sysfs_root, "/")) {
		raw_report(r, SRC_DEVLINK, SRC_STATE_STANDBY, "%s",
			   "sysfs_root is not the host's: devlink not read");
		return false;
	}
	if (!backoff_due(&s->b, now))
		return false;
	if (!s->dl)
		err = devlinknl_open(&s->dl);
	if (!err) {
		devices(c, s, r);
		err = devlinknl_reporters(s->dl, reporter_cb, r);
		s->requests = devlinknl_requests(s->dl);
	}
	backoff_done(&s->b, err, now, c->o->interval_ms);
	if (err) {
		devlinknl_close(s->dl);
		s->dl = NULL;
		raw_report(r, SRC_DEVLINK, SRC_STATE_UNAVAILABLE, "devlink netlink: %s",
			   raw_strerror(r, -err));
		return true;
	}
	r->health_read = true;
	raw_report(r, SRC_DEVLINK, SRC_STATE_UP, "%s", "");
	return true;
}

static void devlink_close(struct collector *c, void *priv)
{
	struct source_devlink *s = priv;

	(void)c;
	devlinknl_close(s->dl);
	s->dl = NULL;
}

const struct source_ops source_devlink = {
	.name = "devlink",
	.priv_size = sizeof(struct source_devlink),
	.sample = devlink_sample,
	.close = devlink_close,
};
