// SPDX-License-Identifier: GPL-2.0
/*
 * source_sysfs.c - the ports of a host without fabtel.ko: plain
 * /sys/class/infiniband/<dev>/ports/<n> (link layer, state, the netdev, the
 * driver's hw_counters mapped through the one counter schema, schema.h) and
 * /sys/class/net/<netdev> (carrier, carrier_down_count as the flap count,
 * byte totals).  Stands by while fabtel.ko's snapshots are there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsread.h"
#include "schema.h"
#include "source.h"
#include "sysfs_plan.h"

void sysfs_read_netdev_bytes(const struct collect_opts *o, struct raw_port *p)
{
	char path[600];

	if (!p->netdev[0] || p->nd_by_ko)
		return;
	fs_path(o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/statistics/rx_bytes",
		p->netdev);
	if (fs_read_u64_kept(path, &p->nd_rx_bytes))
		return;
	fs_path(o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/statistics/tx_bytes",
		p->netdev);
	p->have_nd = !fs_read_u64_kept(path, &p->nd_tx_bytes);
}

/* carrier and carrier_down_count of the port's netdev */
static void read_netdev_link(const struct collect_opts *o, struct raw_port *p)
{
	char path[600];
	uint64_t v;

	fs_path(o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/carrier", p->netdev);
	if (!fs_read_u64_kept(path, &v) && v <= 1)	/* anything else is not a carrier */
		p->carrier = (int)v;
	fs_path(o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/carrier_down_count",
		p->netdev);
	if (!fs_read_u64_kept(path, &v)) {
		p->flaps = v;
		p->have_flaps = true;
	}
}

/* the hw_counters files the port's plan maps (sysfs_plan.c) */
static void read_hw_counters(struct port_plan *pl, struct raw_port *p)
{
	char path[PLAN_BASE_LEN + 80];
	unsigned int i;
	uint64_t v;
	int k;

	p->soft_roce = pl->soft_roce;
	for (i = 0; i < pl->nr_hw; i++) {
		snprintf(path, sizeof(path), "%s/hw_counters/%s", pl->base, pl->hw[i].file);
		if (fs_read_u64_kept(path, &v)) {
			pl->stale = true;	/* list it again next time */
			continue;
		}
		k = pl->hw[i].k;
		p->ctr[k] = v;
		p->have[k] = true;
		p->width[k] = pl->hw[i].width;
	}
}

int sysfs_parse_rate(const char *s, uint64_t *mbps, unsigned int *width)
{
	double gbps;
	unsigned int w;
	char unit[16];

	if (sscanf(s, "%lf %15s (%uX", &gbps, unit, &w) != 3 || strcmp(unit, "Gb/sec") ||
	    !(gbps > 0 && gbps < 1e6) || !w || w > 64)
		return -1;
	*mbps = (uint64_t)(gbps * 1000 + 0.5);
	*width = w;
	return 0;
}

/* the netdev's speed file: Mb/s, "-1" or EINVAL when unknown (down, virtio) */
static void read_netdev_speed(const struct collect_opts *o, struct raw_port *p)
{
	char path[600], buf[32], *end;
	long v;

	if (!p->netdev[0])
		return;
	fs_path(o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/speed", p->netdev);
	if (fs_read_kept(path, buf, sizeof(buf)) <= 0)
		return;
	v = strtol(buf, &end, 10);
	if (*end || v <= 0)
		return;
	p->nd_speed_mbps = (uint64_t)v;
	p->have_nd_speed = true;
}

/* the IB port counters the port's plan found in counters/ and counters_ext/ */
static void read_pma(struct port_plan *pl, struct raw_port *p)
{
	char path[PLAN_BASE_LEN + 80];
	unsigned int i, c;
	uint64_t v;

	sysfs_plan_pma(pl);
	for (i = 0; i < pl->nr_pma; i++) {
		snprintf(path, sizeof(path), "%s/%s", pl->base, pl->pma[i].file);
		if (fs_read_u64_kept(path, &v)) {
			pl->stale = true;
			continue;
		}
		c = pl->pma[i].c;
		p->pma[c] = v * schema_pma_scale(c);
		p->have_pma[c] = true;
	}
}

/*
 * The netdev's speed unless fabtel.ko's snapshot had it, ports/<n>/rate
 * when it can have changed (port_rate.c) and, unless the snapshot had
 * them, the IB port counters: the files ports/<n>/counters/ has, then what
 * counters_ext/ of older kernels adds (listed once per port, not a failed
 * open per counter where there are none, as on rxe).
 */
void sysfs_read_port_extras(const struct collect_opts *o, struct raw_port *p)
{
	char base[PLAN_BASE_LEN];
	struct port_plan *pl;

	if (!p->speed_by_ko)
		read_netdev_speed(o, p);
	port_rate_read(o, p);
	if (p->pma_known)
		return;		/* fabtel.ko's snapshot had them, or said there are none */
	fs_path(o->sysfs_root, base, sizeof(base), "/sys/class/infiniband/%s/ports/%u", p->device,
		p->port);
	pl = sysfs_plan_get(base, false);
	if (pl)
		read_pma(pl, p);
}

int sysfs_read_port(const struct collect_opts *o, const char *base, const char *dev,
		    const char *port, struct raw_port *p)
{
	char path[1200], buf[256];
	struct port_plan *pl;

	snprintf(path, sizeof(path), "%s/link_layer", base);
	if (fs_read_kept(path, buf, sizeof(buf)) < 0 || strcmp(buf, "Ethernet"))
		return -ENODEV;
	memset(p, 0, sizeof(*p));
	snprintf(p->device, sizeof(p->device), "%s", dev);
	p->port = (uint32_t)strtoul(port, NULL, 10);
	p->carrier = -1;
	snprintf(p->driver, sizeof(p->driver), "-");
	snprintf(path, sizeof(path), "%s/state", base);
	if (fs_read_kept(path, buf, sizeof(buf)) > 0)	/* "4: ACTIVE" */
		snprintf(p->state, sizeof(p->state), "%s",
			 strchr(buf, ' ') ? strchr(buf, ' ') + 1 : buf);
	snprintf(path, sizeof(path), "%s/gid_attrs/ndevs/0", base);
	if (fs_read_kept(path, buf, sizeof(buf)) > 0 && strlen(buf) < sizeof(p->netdev))
		snprintf(p->netdev, sizeof(p->netdev), "%s", buf);
	if (p->netdev[0])
		read_netdev_link(o, p);
	pl = sysfs_plan_get(base, true);
	if (pl)
		read_hw_counters(pl, p);
	sysfs_read_port_extras(o, p);
	sysfs_read_netdev_bytes(o, p);
	return 0;
}

struct sysfs_walk {
	const struct collect_opts *o;
	struct raw *r;
};

static int read_sysfs_port(void *ctx, const char *base, const char *dev, const char *port)
{
	static struct raw_port over;	/* a port past the table: parsed, counted */
	struct sysfs_walk *w = ctx;
	bool full = w->r->nr_ports == MODEL_MAX_PORTS;

	if (sysfs_read_port(w->o, base, dev, port, full ? &over : &w->r->ports[w->r->nr_ports]))
		return 0;
	if (full)
		w->r->ports_over++;
	else
		w->r->nr_ports++;
	return 0;
}

static void sysfs_sample(struct model *m, struct raw *r)
{
	struct sysfs_walk w = { .o = &m->opts, .r = r };
	char dir[600];
	int err;

	if (r->ko) {
		raw_report(r, SRC_SYSFS, SRC_STATE_STANDBY, "fabtel.ko is loaded");
		return;
	}
	fs_path(m->opts.sysfs_root, dir, sizeof(dir), "/sys/class/infiniband");
	err = fs_walk_ports(dir, read_sysfs_port, &w);
	r->ports_mono = clock_ns(CLOCK_MONOTONIC);
	if (err)
		raw_report(r, SRC_SYSFS, SRC_STATE_UNAVAILABLE, "no RDMA devices (%s: %s)", dir,
			   strerror(-err));
	else
		raw_report(r, SRC_SYSFS, SRC_STATE_UP, "%s", "");
}

const struct source_ops source_sysfs = {
	.name = "sysfs",
	.sample = sysfs_sample,
};
