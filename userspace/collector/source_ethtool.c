// SPDX-License-Identifier: GPL-2.0
/*
 * source_ethtool.c - what the kernel's ethtool netlink interface says of
 * each port's netdev (lib/ethnl.c): the active FEC mode and the standard
 * FEC statistics each pass; every module_s seconds the plugged module's
 * diagnostics (ddm.h), from its EEPROM pages (2 to 4 reads of 128 bytes),
 * and the fastest link modes supported, advertised and the partner's, the
 * last readings kept in between.  It runs after the port sources and adds to the ports
 * they read.  A driver without FEC ops (virtio-net, rxe's netdev) or
 * without FEC statistics gives nothing for that port: no series, never a
 * zero.  Over a fixture tree (sysfs_root set) there is no netdev to ask:
 * the source stands by.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "ethnl.h"
#include "fsread.h"
#include "netdev_slot.h"
#include "source.h"

static struct ethnl *eth;	/* the collector thread's */
static int open_err;

/* the last module reading of each netdev, at its slot's index */
static struct netdev_slot slots[MODEL_MAX_PORTS];
static struct ddm ddms[MODEL_MAX_PORTS];
static int ddm_errs[MODEL_MAX_PORTS];
static bool ddm_by_ko[MODEL_MAX_PORTS];
static struct ethnl_linkmodes lms[MODEL_MAX_PORTS];
static int lm_errs[MODEL_MAX_PORTS];

/* The lower page, then the upper pages its kind needs; one that fails is left out. */
static int module_read(const char *ifname, struct ddm *d)
{
	uint8_t lower[DDM_PAGE_LEN], up[4][DDM_PAGE_LEN];
	struct ddm_pages pg = { .lower = lower };
	struct ddm_plan plan;
	unsigned int k;
	int n;

	memset(d, 0, sizeof(*d));
	n = ethnl_module_read(eth, ifname, 0, 0, lower, DDM_PAGE_LEN);
	if (n < 0)
		return n;
	if (n < DDM_PAGE_LEN)
		return -EIO;	/* a short page: nothing trusted from it */
	ddm_plan(lower, &plan);
	for (k = 0; k < 4; k++)
		if (plan.want[k] &&
		    ethnl_module_read(eth, ifname, plan.page[k], DDM_PAGE_LEN, up[k],
				      DDM_PAGE_LEN) == DDM_PAGE_LEN)
			pg.up[k] = up[k];
	return ddm_decode(&pg, d);
}

/*
 * fabtel.ko's reading of the module (ports/<n>/module), when it has one:
 * 0 or the module's error; -ENODATA when there is none to take (an older
 * fabtel.ko, not read yet, module_ms 0): ask ethtool netlink then.
 */
static int module_from_ko(const struct collect_opts *o, const struct raw_port *p,
			  struct ddm *d)
{
	static char text[4096];
	static uint8_t pages[5][DDM_PAGE_LEN];
	char path[512];

	snprintf(path, sizeof(path), "%s/sys/kernel/fabtel/%s/ports/%u/module", o->sysfs_root,
		 p->device, p->port);
	if (fs_read_text(path, text, sizeof(text)) < 0)
		return -ENODATA;
	memset(d, 0, sizeof(*d));
	return ko_parse_module(text, pages, d);
}

/* the slow reads, every module_s: the module's EEPROM, the link modes */
static void port_slow(const struct collect_opts *o, struct raw_port *p, uint64_t now, bool ko)
{
	unsigned int k;

	if (!o->module_s)
		return;
	k = netdev_slot_get(slots, MODEL_MAX_PORTS, p->netdev);
	if (netdev_slot_due(&slots[k], now, o->module_s)) {
		ddm_errs[k] = ko ? module_from_ko(o, p, &ddms[k]) : -ENODATA;
		ddm_by_ko[k] = ddm_errs[k] != -ENODATA;
		if (ddm_errs[k] == -ENODATA)
			ddm_errs[k] = module_read(p->netdev, &ddms[k]);
		lm_errs[k] = ethnl_linkmodes_get(eth, p->netdev, &lms[k]);
	}
	p->lm = lms[k];
	p->have_lm = !lm_errs[k];
	p->ddm = ddms[k];
	p->ddm_err = ddm_errs[k];
	p->ddm_read = true;
	p->ddm_by_ko = ddm_by_ko[k];
}

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

static bool ethtool_sample(struct model *m, struct raw *r)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	unsigned int i, failed = 0;
	int err = 0;

	if (m->opts.sysfs_root[0]) {
		raw_report(r, SRC_ETHTOOL, SRC_STATE_STANDBY, "%s", "fixture tree: no netdev to ask");
		return false;
	}
	if (!eth) {
		open_err = ethnl_open(&eth);
		if (open_err) {
			raw_report(r, SRC_ETHTOOL, SRC_STATE_UNAVAILABLE,
				   "ethtool netlink: %s", raw_strerror(-open_err));
			return true;
		}
	}
	for (i = 0; i < r->nr_ports; i++) {
		if (!r->ports[i].netdev[0])
			continue;
		if (!r->ports[i].fec_known)	/* fabtel.ko's snapshot had them */
			port_fec(&r->ports[i], &failed, &err);
		port_slow(&m->opts, &r->ports[i], now, r->ko);
	}
	if (failed) {
		/* a socket in a bad state: open a new one next pass */
		ethnl_close(eth);
		eth = NULL;
		raw_report(r, SRC_ETHTOOL, SRC_STATE_UNAVAILABLE, "FEC query failed on %u port(s): %s",
			   failed, raw_strerror(-err));
		return true;
	}
	raw_report(r, SRC_ETHTOOL, SRC_STATE_UP, "%s", "");
	return true;
}

const struct source_ops source_ethtool = {
	.name = "ethtool",
	.open = ethtool_open,
	.sample = ethtool_sample,
	.close = ethtool_close,
};
