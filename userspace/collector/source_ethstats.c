// SPDX-License-Identifier: GPL-2.0
/*
 * source_ethstats.c - the driver statistics of each port's netdev (`ethtool
 * -S`, lib/ethstats.c) where the standard interfaces have nothing: per
 * priority the PFC pause frames and how long the port was paused, and the
 * PHY's symbol, CRC and discard counts.  Names differ per driver; a vendor
 * map (mlx5e first, then bnxt_en and ice, the names of their 6.1 sources)
 * turns them into one set, like the hw_counters schema.  The vendor is the
 * map that names the most of the netdev's statistics (drivers are not asked
 * their name: fakeroce lends the real names).  The names are read again
 * every module_s seconds, when the count changes, and when the port's PFC
 * set changes (mlx5e lists only priorities with PFC on); the values each
 * pass.  A driver without statistics, or none the map knows, gives nothing:
 * no series, never a zero.  A port whose driver fails the reads backs off
 * (port_reads.h) and gives nothing meanwhile.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "ethstats.h"
#include "netdev_slot.h"
#include "collector.h"

#define ES_MAX_NAMES	8192	/* a big mlx5e netdev lists a few thousand */

struct es_map_entry {
	const char *fmt;	/* with "%u": per priority */
	int prio_stat;		/* enum es_prio_stat, or -1 */
	int port_stat;		/* enum es_port_stat, or -1 */
};

#define P(f, s)	{ f, s, -1 }
#define Q(f, s)	{ f, -1, s }
static const struct es_map_entry map_mlx5e[] = {
	P("rx_prio%u_pause", ES_PAUSE_RX), P("rx_prio%u_pause_duration", ES_PAUSE_RX_US),
	P("tx_prio%u_pause", ES_PAUSE_TX), P("tx_prio%u_pause_duration", ES_PAUSE_TX_US),
	Q("rx_symbol_err_phy", ES_SYMBOL_ERRORS), Q("rx_crc_errors_phy", ES_CRC_ERRORS),
	Q("rx_discards_phy", ES_DISCARDS),
};
static const struct es_map_entry map_bnxt[] = {
	P("rx_pfc_ena_frames_pri%u", ES_PAUSE_RX), P("pfc_pri%u_rx_duration_us", ES_PAUSE_RX_US),
	P("tx_pfc_ena_frames_pri%u", ES_PAUSE_TX), P("pfc_pri%u_tx_duration_us", ES_PAUSE_TX_US),
	Q("rx_fcs_err_frames", ES_CRC_ERRORS),
};
static const struct es_map_entry map_ice[] = {
	P("rx_priority_%u_xoff.nic", ES_PAUSE_RX), P("tx_priority_%u_xoff.nic", ES_PAUSE_TX),
	Q("rx_crc_errors.nic", ES_CRC_ERRORS),
};
#undef P
#undef Q

static const struct {
	const char *name;
	const struct es_map_entry *map;
	unsigned int len;
} vendors[] = {
	{ "mlx5e", map_mlx5e, sizeof(map_mlx5e) / sizeof(map_mlx5e[0]) },
	{ "bnxt_en", map_bnxt, sizeof(map_bnxt) / sizeof(map_bnxt[0]) },
	{ "ice", map_ice, sizeof(map_ice) / sizeof(map_ice[0]) },
};
#define NR_VENDORS	(sizeof(vendors) / sizeof(vendors[0]))

/* where a statistic goes: a priority's, or the port's (prio -1); -1 none */
struct es_slot_idx {
	int stat;
	int prio;
};

/* The map entry name matches, and its priority (0..7) if per priority. */
static bool es_match(const struct es_map_entry *e, const char *name, int *prio)
{
	const char *pc = strstr(e->fmt, "%u");
	size_t pre;

	*prio = -1;
	if (!pc)
		return !strcmp(e->fmt, name);
	pre = (size_t)(pc - e->fmt);
	if (strncmp(e->fmt, name, pre) || name[pre] < '0' || name[pre] >= '0' + MODEL_PRIOS)
		return false;
	*prio = name[pre] - '0';
	return !strcmp(pc + 2, name + pre + 1);
}

/* the normalized statistic a name is for, in vendor v's map; -1 none */
static int es_lookup(unsigned int v, const char *name, int *prio)
{
	unsigned int i;

	for (i = 0; i < vendors[v].len; i++)
		if (es_match(&vendors[v].map[i], name, prio))
			return (int)i;
	return -1;
}

/* ---- the per-netdev layout ------------------------------------------------- */

struct es_layout {
	int err;			/* 0, or why the netdev has none (-errno) */
	unsigned int n;			/* the driver's count when read */
	int vendor;			/* -1 none of the maps */
	uint8_t pfc_mask;		/* the PFC set when read */
	unsigned int nr_used;
	unsigned int *idx;		/* statistic index of each used entry */
	struct es_slot_idx *to;		/* ... and where it goes */
};

/* the collector's priv for this source */
struct source_ethstats {
	struct collector *c;
	int fd;				/* the ethtool ioctl socket; -1 none yet */
	struct netdev_slot slots[MODEL_MAX_PORTS];
	struct es_layout layouts[MODEL_MAX_PORTS];
	ethstats_name names[ES_MAX_NAMES];
	uint64_t vals[ES_MAX_NAMES];
	bool nonzero[MODEL_MAX_PORTS];	/* the slot's netdev had a statistic not 0 */
};


static void layout_reset(struct es_layout *l)
{
	free(l->idx);
	free(l->to);
	memset(l, 0, sizeof(*l));
	l->vendor = -1;
}

/* Read the names, pick the vendor whose map names the most, keep its entries. */
static void layout_read(struct source_ethstats *s, const char *ifname, struct es_layout *l,
			uint8_t pfc_mask)
{
	unsigned int v, i, hits, best = 0, n;
	int count, prio, k;

	layout_reset(l);
	l->pfc_mask = pfc_mask;
	count = ethstats_names(s->fd, ifname, s->names, ES_MAX_NAMES);
	if (count < 0) {
		l->err = count;
		return;
	}
	l->n = (unsigned int)count;
	n = l->n < ES_MAX_NAMES ? l->n : ES_MAX_NAMES;
	for (v = 0; v < NR_VENDORS; v++) {
		for (hits = 0, i = 0; i < n; i++)
			hits += es_lookup(v, s->names[i], &prio) >= 0;
		if (hits > best) {
			best = hits;
			l->vendor = (int)v;
		}
	}
	if (l->vendor < 0)
		return;
	l->idx = calloc(best, sizeof(*l->idx));
	l->to = calloc(best, sizeof(*l->to));
	if (!l->idx || !l->to) {
		layout_reset(l);
		l->err = -ENOMEM;
		return;
	}
	for (i = 0; i < n && l->nr_used < best; i++) {
		k = es_lookup((unsigned int)l->vendor, s->names[i], &prio);
		if (k < 0)
			continue;
		l->idx[l->nr_used] = i;
		l->to[l->nr_used].prio = prio;
		l->to[l->nr_used].stat = prio >= 0 ? vendors[l->vendor].map[k].prio_stat :
					 vendors[l->vendor].map[k].port_stat;
		l->nr_used++;
	}
}

/* ---- the source ------------------------------------------------------------- */

static void es_fill(struct source_ethstats *s, struct raw_port *p, const struct es_layout *l)
{
	unsigned int i;

	for (i = 0; i < l->nr_used; i++) {
		const struct es_slot_idx *t = &l->to[i];

		if (t->prio >= 0) {
			p->es_prio[t->stat][t->prio] = s->vals[l->idx[i]];
			p->have_es_prio[t->stat][t->prio] = true;
		} else {
			p->es_port[t->stat] = s->vals[l->idx[i]];
			p->have_es_port[t->stat] = true;
		}
	}
	snprintf(p->es_vendor, sizeof(p->es_vendor), "%s", vendors[l->vendor].name);
}

/* every one of the n values 0 */
static bool all_zero(const uint64_t *v, unsigned int n)
{
	while (n--)
		if (v[n])
			return false;
	return true;
}

/*
 * The port's statistics: 0; -EOPNOTSUPP none, or none a map knows;
 * -ENODEV the netdev went mid-pass; else the driver's -errno.  A layout
 * whose names failed to read is read again at the next try, not kept.
 * The driver's op returns nothing: one that fails leaves the kernel's
 * zeroed buffer, so every statistic 0 where one was not before (or
 * zeros_fail: while that backs off) is its failure, -ENODATA.
 */
static int es_read(struct source_ethstats *s, struct raw_port *p, uint64_t now,
		   bool zeros_fail)
{
	const struct collect_opts *o = s->c->o;
	unsigned int k = netdev_slot_get(s->slots, MODEL_MAX_PORTS, p->netdev);
	struct es_layout *l = &s->layouts[k];
	uint8_t pfc = p->pfc_read ? p->pfc_mask : p->cfg.have_pfc ? p->cfg.pfc_en : 0;
	int err, tries;

	if (!s->slots[k].at_ns)
		s->nonzero[k] = false;	/* a netdev new to its slot */
	for (tries = 0; tries < 2; tries++) {
		if (netdev_slot_due(&s->slots[k], now, o->module_s ? o->module_s : 10) ||
		    pfc != l->pfc_mask || tries || (l->err && l->err != -EOPNOTSUPP))
			layout_read(s, p->netdev, l, pfc);
		if (!l->err && l->vendor < 0)
			return -EOPNOTSUPP;
		if (l->err)
			return l->err;
		err = ethstats_values(s->fd, p->netdev, s->vals, l->n);
		if (err == -ESTALE)
			continue;	/* the driver's count changed: names again */
		if (err)
			return err;
		if (all_zero(s->vals, l->n < ES_MAX_NAMES ? l->n : ES_MAX_NAMES)) {
			if (s->nonzero[k] || zeros_fail)
				return -ENODATA;
		} else {
			s->nonzero[k] = true;
		}
		es_fill(s, p, l);
		return 0;
	}
	return -ESTALE;
}

/* es_read under fabteld's back-off of the port's ethtool_stats: the back-off's state after */
static const struct backoff *es_port(struct source_ethstats *s, struct raw_port *p,
				     uint64_t now)
{
	const struct collect_opts *o = s->c->o;
	struct backoff *b = port_backoff(&s->c->backoffs, p->device, p->port, PR_ETHTOOL_STATS);
	int err;

	if (backoff_due(b, now)) {
		err = es_read(s, p, now, b->state == BACKOFF_FAILING && b->err == -ENODATA);
		if (err != -ENODEV)	/* gone mid-pass: nothing asked */
			backoff_done(b, err, now, o->interval_ms);
	}
	port_reads_note(&p->reads, PR_ETHTOOL_STATS, b);
	return b;
}

static void ethstats_open(struct collector *c, void *priv)
{
	struct source_ethstats *s = priv;

	s->c = c;
	s->fd = -1;
}

static bool ethstats_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_ethstats *s = priv;
	uint64_t now = port_reads_now(&c->backoffs);
	const struct backoff *b;
	unsigned int i, failed = 0;
	int last = 0;

	if (c->o->sysfs_root[0]) {
		raw_report(r, SRC_ETHSTATS, SRC_STATE_STANDBY, "%s", "fixture tree: no netdev to ask");
		return false;
	}
	if (s->fd < 0) {
		s->fd = ethstats_socket();
		if (s->fd < 0) {
			raw_report(r, SRC_ETHSTATS, SRC_STATE_UNAVAILABLE, "socket: %s", raw_strerror(r, -s->fd));
			return true;
		}
	}
	for (i = 0; i < r->nr_ports; i++) {
		if (!r->ports[i].netdev[0])
			continue;
		b = es_port(s, &r->ports[i], now);
		if (b->state == BACKOFF_FAILING) {
			failed++;
			last = b->err;
		}
	}
	if (failed)
		raw_report(r, SRC_ETHSTATS, SRC_STATE_UNAVAILABLE,
			   "driver statistics unreadable on %u port(s), backing off: %s", failed,
			   raw_strerror(r, -last));
	else
		raw_report(r, SRC_ETHSTATS, SRC_STATE_UP, "%s", "");
	return true;
}

static void ethstats_close(struct collector *c, void *priv)
{
	struct source_ethstats *s = priv;
	unsigned int i;

	(void)c;
	for (i = 0; i < MODEL_MAX_PORTS; i++)
		layout_reset(&s->layouts[i]);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

const struct source_ops source_ethstats = {
	.name = "ethtool_stats",
	.priv_size = sizeof(struct source_ethstats),
	.open = ethstats_open,
	.sample = ethstats_sample,
	.close = ethstats_close,
};
