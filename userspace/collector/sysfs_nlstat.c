// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs_nlstat.c - plain sysfs: a port's hw_counters in one RDMA netlink
 * STAT_GET (sysfs_nlstat.h).
 *
 * What it costs: the files are N preads a pass, each through the ib core's
 * hw_stats cache (a get_hw_stats driver call, one firmware command on
 * mlx5, at most each lifespan, 10 ms: one a pass); the STAT_GET is one
 * request (a send and two receives) that calls get_hw_stats once, past the
 * cache, and answers every counter.  So the quiet and info tiers
 * (quiet_every, info_every: source_sysfs.c) are moot here: no counter is
 * held, each is as fresh as the pass, for the same one driver call.  The
 * kernel leaves out an optional counter that is turned off (rdma statistic
 * set ... optional-counters); its file is still there and reads its last
 * value.
 *
 * The device's netlink index is looked up by its name in one list of the
 * kernel's devices (RDMA_NLDEV_CMD_GET), kept until a STAT_GET fails: the
 * kernel answers -EINVAL for an index it does not have, so a failure lists
 * them again and, if the device's index moved (it went and came back),
 * asks once more.  A reply that names another device is taken as -ENODEV.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fsread.h"
#include "schema.h"
#include "source.h"
#include "fnv.h"
#include "sysfs_nlstat.h"

bool sysfs_nlstat_wanted(const struct collect_opts *o)
{
	return o->port_stats != PORT_STATS_FILES &&
	       (!o->sysfs_root[0] || !strcmp(o->sysfs_root, "/")) && !fs_backend();
}

void sysfs_nlstat_init(struct sysfs_nlstat *n)
{
	memset(n, 0, sizeof(*n));
	rdmastat_init(&n->st);
}

void sysfs_nlstat_fini(struct sysfs_nlstat *n)
{
	rdmastat_close(&n->st);
	n->listed = false;
}

/* the map of a reply's names to the schema (the files' lookups) */
static void map_make(const struct rdmastat_port *sp, struct nlstat_map *m)
{
	const char *names[RDMASTAT_MAX_ENTRIES] = { NULL };
	const char *vendor;
	unsigned int i, width;
	int k;

	m->nr = sp->nr < RDMASTAT_MAX_ENTRIES ? sp->nr : RDMASTAT_MAX_ENTRIES;
	for (i = 0; i < m->nr; i++)
		names[i] = sp->e[i].name;
	vendor = schema_vendor_guess(names, m->nr);
	m->soft_roce = vendor && !strcmp(vendor, "rxe");
	for (i = 0; i < m->nr; i++) {
		k = schema_hw_lookup(vendor, names[i], &width);
		m->k[i] = (int8_t)(k < 0 ? -1 : k);
		m->width[i] = (uint8_t)width;
	}
}

static void map_apply(const struct rdmastat_port *sp, const struct nlstat_map *m,
		      struct raw_port *p)
{
	unsigned int i;

	p->soft_roce = m->soft_roce;
	p->held = 0;
	for (i = 0; i < m->nr; i++) {
		if (m->k[i] < 0)
			continue;
		p->ctr[m->k[i]] = sp->e[i].value;
		p->have[m->k[i]] = true;
		p->width[m->k[i]] = m->width[i];
	}
}

void sysfs_nlstat_map(const struct rdmastat_port *sp, struct raw_port *p)
{
	struct nlstat_map m;

	map_make(sp, &m);
	map_apply(sp, &m, p);
}

/* the port's kept map, made again when its names changed (or new) */
static void map_cached(struct sysfs_nlstat *n, const struct rdmastat_port *sp,
		       struct raw_port *p)
{
	uint32_t key = fnv1a_u32(fnv1a_str(FNV1A_INIT, p->device), p->port);
	uint32_t names = FNV1A_INIT;
	struct nlstat_map *m = NULL;
	unsigned int i;

	for (i = 0; i < sp->nr && i < RDMASTAT_MAX_ENTRIES; i++)
		names = fnv1a_str(fnv1a_u32(names, i), sp->e[i].name);
	for (i = 0; i < n->nr_maps && !m; i++)
		if (n->maps[i].key == key)
			m = &n->maps[i];
	if (!m) {
		/* a full table starts again: ports come and go rarely */
		if (n->nr_maps == NLSTAT_DEVS)
			n->nr_maps = 0;
		m = &n->maps[n->nr_maps++];
		m->key = key;
		m->names = names + 1;	/* not made yet */
	}
	if (m->names != names || m->nr != (sp->nr < RDMASTAT_MAX_ENTRIES ?
					   sp->nr : RDMASTAT_MAX_ENTRIES)) {
		map_make(sp, m);
		m->names = names;
	}
	map_apply(sp, m, p);
}

static int add_dev(uint32_t index, const char *name, void *ctx)
{
	struct sysfs_nlstat *n = ctx;

	if (n->nr_devs < NLSTAT_DEVS) {
		n->devs[n->nr_devs].index = index;
		snprintf(n->devs[n->nr_devs].name, sizeof(n->devs[0].name), "%s", name);
		n->nr_devs++;
	}
	return 0;
}

/* the kernel's devices listed anew: 0 or negative errno */
static int list_devs(struct sysfs_nlstat *n)
{
	int ret;

	n->nr_devs = 0;
	ret = rdmastat_devices(&n->st, add_dev, n);
	n->listed = !ret;
	return ret;
}

/* dev's netlink index, -ENODEV if the list has no such device */
static int64_t dev_index(const struct sysfs_nlstat *n, const char *dev)
{
	unsigned int i;

	for (i = 0; i < n->nr_devs; i++)
		if (!strcmp(n->devs[i].name, dev))
			return n->devs[i].index;
	return -ENODEV;
}

/* one STAT_GET of dev's port at index: 0 or negative errno */
static int port_get(struct sysfs_nlstat *n, uint32_t index, const char *dev, uint32_t port)
{
	int ret = rdmastat_port_get(&n->st, index, port, &n->reply);

	if (!ret && strcmp(n->reply.dev_name, dev))
		ret = -ENODEV;		/* the index is another device's now */
	return ret;
}

/* the port's counters over netlink into p: 0 or negative errno */
static int nlstat_get(struct sysfs_nlstat *n, const char *dev, uint32_t port, struct raw_port *p)
{
	bool fresh = !n->listed;
	int64_t idx;
	int ret;

	if (fresh && (ret = list_devs(n)))
		return ret;
	idx = dev_index(n, dev);
	ret = idx < 0 ? (int)idx : port_get(n, (uint32_t)idx, dev, port);
	if (ret && !fresh && ret != -ETIMEDOUT && !list_devs(n)) {
		/* the device may have come back under another index */
		if (dev_index(n, dev) >= 0 && dev_index(n, dev) != idx)
			ret = port_get(n, (uint32_t)dev_index(n, dev), dev, port);
	}
	if (ret)
		n->listed = false;	/* listed again at the next try */
	else
		map_cached(n, &n->reply, p);
	return ret;
}

bool sysfs_nlstat_read(struct sysfs_nlstat *n, struct port_backoffs *pb, enum port_stats_via via,
		       struct raw_port *p, uint64_t now, int *err)
{
	struct backoff *b = port_backoff(pb, p->device, p->port, PR_HW_NETLINK);

	*err = 0;
	if (via == PORT_STATS_AUTO && !backoff_due(b, now)) {
		port_reads_note(&p->reads, PR_HW_NETLINK, b);
		return false;		/* the files until netlink is tried again */
	}
	*err = nlstat_get(n, p->device, p->port, p);
	if (*err)
		backoff_fail(b, *err, now, via == PORT_STATS_AUTO ? NLSTAT_RETRY_MS : 0);
	else
		backoff_ok(b);
	port_reads_note(&p->reads, PR_HW_NETLINK, b);
	return !*err || via == PORT_STATS_NETLINK;
}
