// SPDX-License-Identifier: GPL-2.0
/*
 * source_config.c - each port's RoCE configuration, every module_s seconds
 * (it changes by hand, not by the second): the netdev's DCB state over
 * rtnetlink (PFC-enabled priorities, the APP table's DSCP-to-priority map;
 * lib/dcbnl.c), the ToS RoCE traffic uses (fabteld's roce_tos, else
 * rdma_cm's default_roce_tos in configfs when an operator set one up) and
 * the priority it lands on, the netdev's MTU, the RoCE v2 GIDs in the
 * port's GID table.  Runs after the port sources; over a fixture tree it
 * stands by.  A port whose driver fails the DCB query backs off
 * (port_reads.h).  Documentation/fabteld.rst, "RoCE configuration".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dcbnl.h"
#include "collector.h"
#include "fsread.h"
#include "netdev_slot.h"

#define DSCP_SELECTOR	5	/* IEEE_8021QAZ_APP_SEL_DSCP */

struct gid_walk {
	unsigned int readings;
	int high;		/* the highest used index seen (a whole walk resets it); -1 none */
};

/* the collector's priv for this source */
struct source_config {
	struct collector *c;
	struct dcbnl *dcb;
	/* the last reading of each netdev, at its slot's index */
	struct netdev_slot slots[MODEL_MAX_PORTS];
	struct port_config cfgs[MODEL_MAX_PORTS];
	struct gid_walk gid_walks[MODEL_MAX_PORTS];
};

/*
 * The netdev's DCB state (the driver's PFC, ETS and APP ops) under
 * fabteld's back-off of the port's dcb read: while it holds, the last
 * failure's error and no state.  dcbnl leaves out what a driver op failed
 * to give rather than fail: PFC the netdev reported at its last reading
 * (had_pfc), or whose absence is what backs off, missing now is the
 * driver failing its PFC query (-ENODATA).
 */
static void read_dcb(struct source_config *s, const struct raw_port *p,
		     struct port_config *cfg, bool had_pfc, uint64_t now)
{
	struct backoff *b = port_backoff(&s->c->backoffs, p->device, p->port, PR_DCB);
	struct dcbnl_cfg d;
	unsigned int i;

	if (!s->dcb) {
		cfg->dcb_err = -ENOTCONN;
		return;
	}
	if (!backoff_due(b, now)) {
		cfg->dcb_err = b->err;
		return;
	}
	cfg->dcb_err = dcbnl_get(s->dcb, p->netdev, &d);
	if (!cfg->dcb_err && !d.have_pfc &&
	    (had_pfc || (b->state == BACKOFF_FAILING && b->err == -ENODATA)))
		cfg->dcb_err = -ENODATA;
	if (cfg->dcb_err != -ENODEV)	/* the netdev went away mid-pass: nothing asked */
		backoff_done(b, cfg->dcb_err, now, s->c->o->module_s * 1000);
	if (cfg->dcb_err)
		return;
	cfg->have_pfc = d.have_pfc;
	cfg->pfc_en = d.pfc_en;
	for (i = 0; i < d.nr_app; i++) {
		if (d.app[i].selector != DSCP_SELECTOR || d.app[i].protocol >= 64 ||
		    d.app[i].priority >= MODEL_PRIOS)
			continue;
		cfg->dscp_prio[d.app[i].protocol] = (uint8_t)(d.app[i].priority + 1);
		cfg->dscp_mode = true;
	}
}

/* fabteld's roce_tos, else rdma_cm's configfs default (if someone made the directory) */
static void read_tos(const struct collect_opts *o, const struct raw_port *p,
		     struct port_config *cfg)
{
	char path[600], buf[32], *end;
	long v;

	cfg->tos = -1;
	cfg->tos_source = "";
	if (o->roce_tos >= 0) {
		cfg->tos = o->roce_tos;
		cfg->tos_source = "config";
		return;
	}
	fs_path(o->sysfs_root, path, sizeof(path), "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos",
		p->device, p->port);
	if (fs_read_text(path, buf, sizeof(buf)) <= 0)
		return;
	v = strtol(buf, &end, 10);
	if (*end || v < 0 || v > 255)
		return;
	cfg->tos = (int)v;
	cfg->tos_source = "rdma_cm";
}

/*
 * The RoCE v2 GIDs in the port's table (gid_attrs/types/<i>; an empty entry
 * fails to read).  ib_core fills a table from its lowest free index, so a
 * new entry is never past the highest used one + 1: a reading stops
 * GID_GAP entries past the highest used index seen so far (a larger batch
 * of new entries is followed GID_GAP more at each reading), and every
 * GID_WALK_EVERY-th reading (10 minutes at module_s 10) walks the whole
 * table (256 entries a port on mlx5, 1,024 on rxe: a file each) only to
 * lower that high mark after deletions.
 */
#define GID_GAP		16
#define GID_WALK_EVERY	60


/* a GID entry's type into buf: 1, 0 for an empty entry, -1 past the table (or none) */
static int gid_type(const char *path, char *buf, size_t len)
{
	ssize_t n = fs_read_entry(path, buf, len);

	if (n == -ENOENT)
		return -1;
	return n > 0;
}

/* the RoCE v2 GIDs under dir (gid_attrs/types); -1 if there is no table */
static int count_v2_gids(const char *dir, struct gid_walk *gw)
{
	bool whole = gw->readings++ % GID_WALK_EVERY == 0;
	char path[700], buf[32];
	int i, n = 0, high = -1, t;

	for (i = 0; whole || i <= gw->high + GID_GAP; i++) {
		snprintf(path, sizeof(path), "%s/%d", dir, i);
		t = gid_type(path, buf, sizeof(buf));
		if (t < 0)
			break;			/* past the table's end */
		if (t > 0) {
			high = i;
			n += !strcmp(buf, "RoCE v2");
		}
	}
	if (!i)
		return -1;
	if (whole || high > gw->high)
		gw->high = high;
	return n;
}

static void read_port(struct source_config *s, const struct raw_port *p,
		      struct port_config *cfg, struct gid_walk *gw, uint64_t now)
{
	const struct collect_opts *o = s->c->o;
	bool had_pfc = cfg->have_pfc;
	char path[600], buf[32];
	unsigned int dscp;

	memset(cfg, 0, sizeof(*cfg));
	cfg->read = true;
	read_dcb(s, p, cfg, had_pfc, now);
	read_tos(o, p, cfg);
	cfg->tos_prio = -1;
	dscp = cfg->tos >= 0 ? (unsigned int)cfg->tos >> 2 : 0;
	/* trust dscp: an unmapped DSCP lands on priority 0; trust pcp: unknown here */
	if (cfg->tos >= 0 && cfg->dscp_mode)
		cfg->tos_prio = cfg->dscp_prio[dscp] ? cfg->dscp_prio[dscp] - 1 : 0;
	fs_path(o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/mtu", p->netdev);
	if (fs_read_text(path, buf, sizeof(buf)) > 0)
		cfg->mtu = (unsigned int)strtoul(buf, NULL, 10);
	fs_path(o->sysfs_root, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/gid_attrs/types",
		p->device, p->port);
	cfg->roce_v2_gids = count_v2_gids(path, gw);
}

static void config_open(struct collector *c, void *priv)
{
	struct source_config *s = priv;

	s->c = c;
	if (!c->o->sysfs_root[0] && dcbnl_open(&s->dcb))
		s->dcb = NULL;	/* every port then says why (dcb_err) */
}

static void config_close(struct collector *c, void *priv)
{
	struct source_config *s = priv;

	(void)c;
	dcbnl_close(s->dcb);
	s->dcb = NULL;
}

static bool config_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_config *s = priv;
	struct model *m = c->m;
	uint64_t now = port_reads_now(&c->backoffs);
	struct raw_port *p;
	unsigned int i, k;

	if (m->opts.sysfs_root[0] || !m->opts.module_s) {
		raw_report(r, SRC_CONFIG, SRC_STATE_STANDBY, "%s",
			   m->opts.module_s ? "fixture tree: no netdev to ask" : "module_s = 0");
		return false;
	}
	for (i = 0; i < r->nr_ports; i++) {
		p = &r->ports[i];
		if (!p->netdev[0])
			continue;
		k = netdev_slot_get(s->slots, MODEL_MAX_PORTS, p->netdev);
		if (!s->slots[k].at_ns) {	/* a netdev new to its slot: a whole walk first */
			s->gid_walks[k].readings = 0;
			s->cfgs[k].have_pfc = false;	/* not its PFC */
		}
		if (netdev_slot_due(&s->slots[k], now, m->opts.module_s))
			read_port(s, p, &s->cfgs[k], &s->gid_walks[k], now);
		p->cfg = s->cfgs[k];
		if (s->dcb)
			port_reads_note(&p->reads, PR_DCB,
					port_backoff(&c->backoffs, p->device, p->port, PR_DCB));
	}
	if (s->dcb)
		raw_report(r, SRC_CONFIG, SRC_STATE_UP, "%s", "");
	else
		raw_report(r, SRC_CONFIG, SRC_STATE_UNAVAILABLE, "%s", "rtnetlink socket: no DCB state");
	return true;
}

const struct source_ops source_config = {
	.name = "roce_config",
	.priv_size = sizeof(struct source_config),
	.open = config_open,
	.sample = config_sample,
	.close = config_close,
};
