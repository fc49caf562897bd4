// SPDX-License-Identifier: GPL-2.0
/*
 * source_ethtool.c - what the kernel's ethtool netlink interface says of
 * each port's netdev (lib/ethnl.c): the active FEC mode and the standard
 * FEC statistics every fec_s seconds; every module_s seconds the plugged module's
 * diagnostics (ddm.h), from its EEPROM pages (2 to 4 reads of 128 bytes),
 * and the fastest link modes supported, advertised and the partner's, the
 * last readings kept in between.  It runs after the port sources and adds to the ports
 * they read.  A driver without FEC ops (virtio-net, rxe's netdev) or
 * without FEC statistics gives nothing for that port: no series, never a
 * zero.  Each read (phy: FEC; module; link_modes) backs off on a port
 * whose driver fails it (port_reads.h) and gives nothing meanwhile.  Over
 * a fixture tree (sysfs_root set) there is no netdev to ask: the source
 * stands by.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "ethnl.h"
#include "collector.h"
#include "fsread.h"
#include "netdev_slot.h"

/* the collector's priv for this source */
struct source_ethtool {
	struct collector *c;
	struct ethnl *eth;
	int open_err;
	/* the last module reading of each netdev, at its slot's index */
	struct netdev_slot slots[MODEL_MAX_PORTS];
	struct ddm ddms[MODEL_MAX_PORTS];
	int ddm_errs[MODEL_MAX_PORTS];
	bool ddm_by_ko[MODEL_MAX_PORTS];
	struct ethnl_linkmodes lms[MODEL_MAX_PORTS];
	int lm_errs[MODEL_MAX_PORTS];
	/* the last FEC reading of each netdev (fec_s), at its own slot's index */
	struct netdev_slot fec_slots[MODEL_MAX_PORTS];
	struct ethnl_fec fecs[MODEL_MAX_PORTS];
	bool fec_have[MODEL_MAX_PORTS];
	/* fabtel.ko's module file and its pages (module_from_ko's scratch) */
	char text[4096];
	uint8_t pages[5][DDM_PAGE_LEN];
};

/*
 * The lower page, then the upper pages its kind needs.  An upper page the
 * driver refuses as such (EOPNOTSUPP, EINVAL) or answers short is left
 * out; any other failure fails the whole reading (it backs off).
 */
static int module_read(struct source_ethtool *s, const char *ifname, struct ddm *d)
{
	uint8_t lower[DDM_PAGE_LEN], up[4][DDM_PAGE_LEN];
	struct ddm_pages pg = { .lower = lower };
	struct ddm_plan plan;
	unsigned int k;
	int n;

	memset(d, 0, sizeof(*d));
	n = ethnl_module_read(s->eth, ifname, 0, 0, lower, DDM_PAGE_LEN);
	if (n < 0)
		return n;
	if (n < DDM_PAGE_LEN)
		return -EIO;	/* a short page: nothing trusted from it */
	ddm_plan(lower, &plan);
	for (k = 0; k < 4; k++) {
		if (!plan.want[k])
			continue;
		n = ethnl_module_read(s->eth, ifname, plan.page[k], DDM_PAGE_LEN, up[k], DDM_PAGE_LEN);
		if (n == DDM_PAGE_LEN)
			pg.up[k] = up[k];
		else if (n < 0 && n != -EOPNOTSUPP && n != -EINVAL)
			return n;
	}
	return ddm_decode(&pg, d);
}

/*
 * fabtel.ko's reading of the module (ports/<n>/module), when it has one:
 * 0 or the module's error; -ENODATA when there is none to take (an older
 * fabtel.ko, not read yet, module_ms 0): ask ethtool netlink then.
 */
static int module_from_ko(struct source_ethtool *s, const struct raw_port *p,
			  struct ddm *d)
{
	const struct collect_opts *o = s->c->o;
	const struct read_status *ks = &p->reads.s[READER_KO][PR_MODULE];
	char path[512];

	if (ks->state == BACKOFF_FAILING)	/* its pages are as old as the failure */
		return ks->err ? ks->err : -EIO;
	snprintf(path, sizeof(path), "%s/sys/kernel/fabtel/%s/ports/%u/module", o->sysfs_root,
		 p->device, p->port);
	if (fs_read_text(path, s->text, sizeof(s->text)) < 0)
		return -ENODATA;
	memset(d, 0, sizeof(*d));
	return ko_parse_module(s->text, s->pages, d);
}

/*
 * The module's EEPROM into slot k: fabtel.ko's reading if it has one, else
 * ethtool netlink's under fabteld's back-off (none while it holds: the
 * last failure's error stands).  No module interface or no module plugged
 * in is no failure.
 */
static void port_module(struct source_ethtool *s, struct raw_port *p, unsigned int k,
			uint64_t now, bool ko)
{
	const struct collect_opts *o = s->c->o;
	struct backoff *b = port_backoff(&s->c->backoffs, p->device, p->port, PR_MODULE);
	int err;

	s->ddm_errs[k] = ko ? module_from_ko(s, p, &s->ddms[k]) : -ENODATA;
	s->ddm_by_ko[k] = s->ddm_errs[k] != -ENODATA;
	if (s->ddm_by_ko[k])
		return;
	if (!backoff_due(b, now)) {
		s->ddm_errs[k] = b->err;
		return;
	}
	err = s->ddm_errs[k] = module_read(s, p->netdev, &s->ddms[k]);
	if (err == -ENODEV || err == -EOPNOTSUPP)
		backoff_unsupported(b);
	else
		backoff_done(b, err == -EPROTONOSUPPORT ? 0 : err, now, o->module_s * 1000);
}

/* the link modes into slot k, under fabteld's back-off (none while it holds) */
static void port_link_modes(struct source_ethtool *s, struct raw_port *p, unsigned int k,
			    uint64_t now)
{
	const struct collect_opts *o = s->c->o;
	struct backoff *b = port_backoff(&s->c->backoffs, p->device, p->port, PR_LINK_MODES);

	if (!backoff_due(b, now)) {
		s->lm_errs[k] = b->err;
		return;
	}
	s->lm_errs[k] = ethnl_linkmodes_get(s->eth, p->netdev, &s->lms[k]);
	if (s->lm_errs[k] != -ENODEV)	/* the netdev went away mid-pass: nothing asked */
		backoff_done(b, s->lm_errs[k], now, o->module_s * 1000);
}

/* the slow reads, every module_s: the module's EEPROM, the link modes */
static void port_slow(struct source_ethtool *s, struct raw_port *p, uint64_t now, bool ko)
{
	const struct collect_opts *o = s->c->o;
	unsigned int k;

	if (!o->module_s)
		return;
	k = netdev_slot_get(s->slots, MODEL_MAX_PORTS, p->netdev);
	if (netdev_slot_due(&s->slots[k], now, o->module_s)) {
		port_module(s, p, k, now, ko);
		port_link_modes(s, p, k, now);
	}
	p->lm = s->lms[k];
	p->have_lm = !s->lm_errs[k];
	p->ddm = s->ddms[k];
	p->ddm_err = s->ddm_errs[k];
	p->ddm_read = true;
	p->ddm_by_ko = s->ddm_by_ko[k];
	if (!s->ddm_by_ko[k])
		port_reads_note(&p->reads, PR_MODULE,
				port_backoff(&s->c->backoffs, p->device, p->port, PR_MODULE));
	port_reads_note(&p->reads, PR_LINK_MODES,
			port_backoff(&s->c->backoffs, p->device, p->port, PR_LINK_MODES));
}

static void ethtool_open(struct collector *c, void *priv)
{
	struct source_ethtool *s = priv;

	s->c = c;
	if (c->o->sysfs_root[0])
		return;
	s->open_err = ethnl_open(&s->eth);
}

static void ethtool_close(struct collector *c, void *priv)
{
	struct source_ethtool *s = priv;

	(void)c;
	ethnl_close(s->eth);
	s->eth = NULL;
}

/*
 * The FEC mode and statistics, every fec_s (each a firmware command or two
 * on a real NIC: Documentation/performance.rst), the last reading kept in
 * between, under fabteld's back-off of the port's phy read; *err: the
 * driver's error if it was asked and failed.
 */
static void port_fec(struct source_ethtool *s, struct raw_port *p, uint64_t now, int *err)
{
	const struct collect_opts *o = s->c->o;
	struct backoff *b = port_backoff(&s->c->backoffs, p->device, p->port, PR_PHY);
	unsigned int k = netdev_slot_get(s->fec_slots, MODEL_MAX_PORTS, p->netdev), i;
	int e;

	/* the back-off first: a slot is stamped only when it is read */
	if (backoff_due(b, now) && netdev_slot_due(&s->fec_slots[k], now, o->fec_s)) {
		e = ethnl_fec_get(s->eth, p->netdev, &s->fecs[k]);
		if (e != -ENODEV)	/* the netdev went away mid-pass: nothing asked */
			backoff_done(b, e, now, o->fec_s * 1000);
		if (e && e != -EOPNOTSUPP && e != -ENODEV)
			*err = e;
		s->fec_have[k] = !e;
	}
	if (s->fec_have[k] && b->state != BACKOFF_FAILING) {
		p->fec_mode = s->fecs[k].active;
		for (i = 0; i < ETHNL_FEC_NR; i++) {
			p->fec[i] = s->fecs[k].stat[i];
			p->have_fec[i] = s->fecs[k].have[i];
		}
	}
	port_reads_note(&p->reads, PR_PHY, b);
}

static bool ethtool_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_ethtool *s = priv;
	uint64_t now = port_reads_now(&c->backoffs);
	unsigned int i, failing = 0;
	int err = 0;

	if (c->o->sysfs_root[0]) {
		raw_report(r, SRC_ETHTOOL, SRC_STATE_STANDBY, "%s", "fixture tree: no netdev to ask");
		return false;
	}
	if (!s->eth) {
		s->open_err = ethnl_open(&s->eth);
		if (s->open_err) {
			raw_report(r, SRC_ETHTOOL, SRC_STATE_UNAVAILABLE,
				   "ethtool netlink: %s", raw_strerror(r, -s->open_err));
			return true;
		}
	}
	for (i = 0; i < r->nr_ports; i++) {
		if (!r->ports[i].netdev[0])
			continue;
		if (!r->ports[i].fec_known)	/* fabtel.ko's snapshot had them */
			port_fec(s, &r->ports[i], now, &err);
		port_slow(s, &r->ports[i], now, r->ko);
		failing += r->ports[i].reads.s[READER_FABTELD][PR_PHY].state == BACKOFF_FAILING;
	}
	if (err) {	/* a socket in a bad state: open a new one next pass */
		ethnl_close(s->eth);
		s->eth = NULL;
	}
	if (failing)
		raw_report(r, SRC_ETHTOOL, SRC_STATE_UNAVAILABLE,
			   "FEC query failing on %u port(s), backing off%s%s", failing,
			   err ? ": " : "", err ? raw_strerror(r, -err) : "");
	else
		raw_report(r, SRC_ETHTOOL, SRC_STATE_UP, "%s", "");
	return true;
}

const struct source_ops source_ethtool = {
	.name = "ethtool",
	.priv_size = sizeof(struct source_ethtool),
	.open = ethtool_open,
	.sample = ethtool_sample,
	.close = ethtool_close,
};
