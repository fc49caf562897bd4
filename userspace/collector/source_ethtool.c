// SPDX-License-Identifier: GPL-2.0
/*
 * source_ethtool.c - what the kernel's ethtool netlink interface says of
 * each port's netdev (lib/ethnl.c): the active FEC mode and the standard
 * FEC statistics.  It runs after the port sources and adds to the ports
 * they read.  A driver without FEC ops (virtio-net, rxe's netdev) or
 * without FEC statistics gives nothing for that port: no series, never a
 * zero.  Over a fixture tree (sysfs_root set) there is no netdev to ask:
 * the source stands by.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ethnl.h"
#include "source.h"

static struct ethnl *eth;	/* the collector thread's */
static int open_err;

static void ethtool_open(struct model *m)
{
	if (m->opts.sysfs_root[0])
		return;
	open_err = ethnl_open(&eth);
}

static void ethtool_close(struct model *m)
{
	(void)m;
	ethnl_close(eth);
	eth = NULL;
}

static void port_fec(struct raw_port *p, unsigned int *failed, int *last_err)
{
	struct ethnl_fec f;
	unsigned int i;
	int err;

	err = ethnl_fec_get(eth, p->netdev, &f);
	if (err == -EOPNOTSUPP || err == -ENODEV)
		return;		/* no FEC ops; the netdev went away mid-pass */
	if (err) {
		(*failed)++;
		*last_err = err;
		return;
	}
	p->fec_mode = f.active;
	for (i = 0; i < ETHNL_FEC_NR; i++) {
		p->fec[i] = f.stat[i];
		p->have_fec[i] = f.have[i];
	}
}

static void ethtool_sample(struct model *m, struct raw *r)
{
	unsigned int i, failed = 0;
	int err = 0;

	if (m->opts.sysfs_root[0]) {
		raw_report(r, SRC_ETHTOOL, SRC_STATE_STANDBY, "%s", "fixture tree: no netdev to ask");
		return;
	}
	if (!eth) {
		open_err = ethnl_open(&eth);
		if (open_err) {
			raw_report(r, SRC_ETHTOOL, SRC_STATE_UNAVAILABLE,
				   "ethtool netlink: %s", strerror(-open_err));
			return;
		}
	}
	for (i = 0; i < r->nr_ports; i++)
		if (r->ports[i].netdev[0])
			port_fec(&r->ports[i], &failed, &err);
	if (failed) {
		/* a socket in a bad state: open a new one next pass */
		ethnl_close(eth);
		eth = NULL;
		raw_report(r, SRC_ETHTOOL, SRC_STATE_UNAVAILABLE, "FEC query failed on %u port(s): %s",
			   failed, strerror(-err));
		return;
	}
	raw_report(r, SRC_ETHTOOL, SRC_STATE_UP, "%s", "");
}

const struct source_ops source_ethtool = {
	.name = "ethtool",
	.open = ethtool_open,
	.sample = ethtool_sample,
	.close = ethtool_close,
};
