// SPDX-License-Identifier: GPL-2.0
/*
 * source_sysfs.c - the ports of a host without fabtel.ko: plain
 * /sys/class/infiniband/<dev>/ports/<n> (link layer, state, the netdev, the
 * driver's hw_counters mapped through the one counter schema, schema.h) and
 * /sys/class/net/<netdev> (carrier, carrier_down_count as the flap count,
 * byte totals).  Stands by while fabtel.ko's snapshots are there.
 *
 * On the kernel's tree a sample reads what can move each second (the mapped
 * hw_counters, a quiet one every quiet_every samples, a moving one that
 * counts no error every info_every; carrier_changes, and
 * carrier and carrier_down_count when it moved; byte totals, from one read
 * of /proc/net/dev while that is cheaper, netdev_bytes.c), and the rest
 * when it can have moved: state, the netdev's name, ifindex and speed when
 * the carrier or the flap count changed, while the port is not ACTIVE with
 * carrier, and every LINK_TTL samples; the IB port counters every pma_s seconds (each of
 * their files is one MAD to the device's PMA; mlx5 answers it with a
 * firmware command) and at once when the link moved, their last values
 * given in between.  A fixture tree that is not the kernel's is read whole
 * at every sample (sysfs_plan.c).  The hw_counters files and the IB port
 * counters are each one read of the driver under its back-off
 * (port_reads.h): a file the driver fails gives none of them until a
 * retry answers.  On the kernel's tree the hw_counters may come in one
 * RDMA netlink STAT_GET instead (port_stats, sysfs_nlstat.c): auto asks
 * it first and reads the files for a port it fails, until a retry answers,
 * and for a port with counter sets (port_has_sets);
 * the way each port is read shows as its read hw_counters_netlink (ok:
 * netlink; unavailable: the files, or none with port_stats = netlink).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "collector.h"
#include "schema.h"
#include "sysfs_nlstat.h"
#include "text.h"

#define LINK_TTL	10	/* samples a steady link's files are not read again */
#define QUIET_AFTER	10	/* reads of one value in a row: a quiet hw_counters file */

void sysfs_read_netdev_bytes(struct collector *c, struct raw_port *p)
{
	char path[600];

	if (!p->netdev[0] || p->nd_by_ko)
		return;
	fs_path(c->o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/statistics/rx_bytes",
		p->netdev);
	if (fs_read_u64_kept(&c->kept, path, &p->nd_rx_bytes))
		return;
	fs_path(c->o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/statistics/tx_bytes",
		p->netdev);
	p->have_nd = !fs_read_u64_kept(&c->kept, path, &p->nd_tx_bytes);
}

/*
 * The hw_counters files the port's plan maps (sysfs_plan.c), held open.  A
 * file that read the same value QUIET_AFTER times in a row is quiet: read
 * every quiet_every-th sample, so a quiet counter's first move is seen at
 * most quiet_every - 1 samples late.  A counter of no error (congestion
 * notifications, ECN marks: schema.h) is read every info_every-th sample
 * while it moves; an error counter that moves, each sample.  In the
 * samples a file is not read (the port's files spread over the phases) its
 * last value is given, marked held: the fold leaves its rate alone, so the
 * rise the next read finds is spread over the time since the read before,
 * not put into one sample.  Every file is read at once when the link
 * moved.  Once a quiet error counter moved, the port's every file is
 * taken as moving until it is quiet again: a fault seldom moves one
 * counter alone, and what else it moves is seen at its first sample.
 * quiet_every and info_every 1: every file each sample.
 */
static unsigned int hw_period(struct collector *c, const struct port_plan *pl,
			      unsigned int i)
{
	unsigned int every;

	if (pl->hw[i].still >= QUIET_AFTER)
		every = c->o->quiet_every;
	else
		every = schema_ctr_is_error(pl->hw[i].k) ? 1 : c->o->info_every;
	return every ? every : 1;
}

/*
 * A failed read of a port's file: the file or its device went (ENOENT,
 * ENODEV, ENXIO) or it held no number (ENODATA): the plan is listed again,
 * no failure of the driver.  Any other error is the driver's answer (EIO,
 * EINVAL, EOPNOTSUPP from get_hw_stats or a MAD): the read backs off.
 */
static bool read_gone(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -ENXIO || err == -ENODATA;
}

/* the hw_counters files due (all if moved); 0, or the driver's error (the rest not asked) */
static int read_hw_files(struct collector *c, struct port_plan *pl,
			 struct raw_port *p, bool moved)
{
	bool woke = false;
	unsigned int i;
	uint64_t v;
	int k, err;

	pl->tick++;
	for (i = 0; i < pl->nr_hw; i++) {
		k = pl->hw[i].k;
		if (pl->hw[i].known && !moved && (pl->tick + i) % hw_period(c, pl, i)) {
			v = pl->hw[i].last;
			p->held |= 1u << k;
		} else if ((err = fs_held_read_u64(&c->kept, &pl->hw[i].fd, pl->base, pl->hw[i].file, &v))) {
			if (!read_gone(err))
				return err;
			pl->stale = true;	/* list it again next time */
			continue;
		} else {
			if (v != pl->hw[i].last) {
				woke |= pl->hw[i].still >= QUIET_AFTER && schema_ctr_is_error(k);
				pl->hw[i].still = 0;
			} else if (pl->hw[i].still < QUIET_AFTER) {
				pl->hw[i].still++;
			}
			pl->hw[i].last = v;
			pl->hw[i].known = true;
		}
		p->ctr[k] = v;
		p->have[k] = true;
		p->width[k] = pl->hw[i].width;
	}
	for (i = 0; woke && i < pl->nr_hw; i++)
		pl->hw[i].still = 0;
	return 0;
}

/* the files' last values are older than the netlink read: all read at the next use */
static void hw_files_unknown(struct port_plan *pl)
{
	unsigned int i;

	for (i = 0; i < pl->nr_hw; i++)
		pl->hw[i].known = false;
}

/* a read's end: ok, or failed and none of its counters given */
static void hw_done(struct backoff *b, struct raw_port *p, int err, uint64_t now)
{
	if (!err) {
		backoff_ok(b);
		return;
	}
	backoff_fail(b, err, now, 0);
	memset(p->ctr, 0, sizeof(p->ctr));
	memset(p->have, 0, sizeof(p->have));
	p->held = 0;
}

/*
 * The port's hw_counters under fabteld's back-off (port_reads.h): each
 * file read is a get_hw_stats call to the driver.  One that fails fails
 * the read: none of its counters this pass nor until the back-off is due,
 * then every file is read (what was held is as old as the failure).  With
 * nl (the kernel's tree, port_stats not files) netlink is asked first, in
 * the same back-off: what it answers stands for the files.
 */
/*
 * The port had counter sets at the qp_counters source's last read (the
 * raw readings it left, this thread's own).  ib_core gives each hw_counters
 * value of such a port as the default set plus every set: it queries each
 * set for each value (on mlx5 a firmware command per set per counter), so
 * one STAT_GET of all the port's counters costs sets x counters commands,
 * where the files' tiers read only those that move.
 */
static bool port_has_sets(const struct raw *r, const struct raw_port *p)
{
	unsigned int i;

	for (i = 0; i < r->nr_qpcnt; i++)
		if (r->qpcnt[i].port == p->port && !strcmp(r->qpcnt[i].device, p->device))
			return true;
	return false;
}

static void read_hw_counters(struct collector *c, struct sysfs_nlstat *nl, struct port_plan *pl,
			     struct raw_port *p, bool moved, uint64_t now)
{
	struct backoff *b = port_backoff(&c->backoffs, p->device, p->port, PR_HW_COUNTERS);
	int err;

	p->soft_roce = pl->soft_roce;
	if (nl && c->o->port_stats == PORT_STATS_AUTO && port_has_sets(&c->raw, p))
		nl = NULL;	/* the files: fewer values asked, fewer set queries */
	if (nl && backoff_due(b, now) &&
	    sysfs_nlstat_read(nl, &c->backoffs, c->o->port_stats, p, now, &err)) {
		hw_files_unknown(pl);
		hw_done(b, p, err, now);
	} else if (!pl->nr_hw) {
		backoff_unsupported(b);
	} else if (backoff_due(b, now)) {
		err = read_hw_files(c, pl, p, moved || b->state == BACKOFF_FAILING);
		hw_done(b, p, err, now);
	}
	port_reads_note(&p->reads, PR_HW_COUNTERS, b);
}

/*
 * plain sysfs: the netdev's carrier and carrier_down_count through the
 * plan's held files.  carrier_changes is read first: each carrier
 * transition counts in it, so while it holds still, the link is up and the
 * port ACTIVE, neither can have moved and the last values stand (one read a
 * sample, not two).  Read both when it moved, when its file was opened
 * anew (first, or the netdev went and came back), while the link is not
 * up, and where there is no carrier_changes (before Linux 3.15).  An
 * administrative down is a carrier transition on most NIC drivers (mlx5e
 * turns the carrier off on close); where it is not (virtio_net), the state
 * read with the link files every LINK_TTL samples finds it.
 */
static void read_netdev_held(struct collector *c, struct port_plan *pl,
			     struct raw_port *p)
{
	unsigned long long opens;
	uint64_t v, changes = 0;
	bool have_changes;

	sysfs_plan_netdev(&c->plans, pl, c->o->sysfs_root, p->netdev);
	opens = fs_kept_opens(&c->kept);
	have_changes = !fs_held_read_u64(&c->kept, &pl->nd_fd[4], pl->nd_dir, "carrier_changes",
					  &changes) &&
		       fs_kept_opens(&c->kept) == opens;
	if (have_changes && pl->have_changes && changes == pl->changes && pl->carrier == 1 &&
	    !strcmp(pl->state, "ACTIVE")) {
		p->carrier = pl->carrier;
		p->flaps = pl->flaps;
		p->have_flaps = pl->have_flaps;
		return;
	}
	if (!fs_held_read_u64(&c->kept, &pl->nd_fd[0], pl->nd_dir, "carrier", &v) && v <= 1)
		p->carrier = (int)v;
	if (!fs_held_read_u64(&c->kept, &pl->nd_fd[1], pl->nd_dir, "carrier_down_count", &v)) {
		p->flaps = v;
		p->have_flaps = true;
	}
	pl->changes = changes;
	pl->have_changes = !fs_held_read_u64(&c->kept, &pl->nd_fd[4], pl->nd_dir, "carrier_changes", &v) &&
			   v == changes;
}

static void read_bytes_held(struct collector *c, struct port_plan *pl, struct raw_port *p)
{
	if (p->netdev[0] && netdev_bytes_get(&c->nd, p->netdev, &p->nd_rx_bytes, &p->nd_tx_bytes)) {
		p->have_nd = true;
		return;
	}
	if (!p->netdev[0] ||
	    fs_held_read_u64(&c->kept, &pl->nd_fd[2], pl->nd_dir, "statistics/rx_bytes", &p->nd_rx_bytes))
		return;
	p->have_nd = !fs_held_read_u64(&c->kept, &pl->nd_fd[3], pl->nd_dir, "statistics/tx_bytes",
				       &p->nd_tx_bytes);
}

/* the netdev's speed file: Mb/s, "-1" or EINVAL when unknown (down, virtio) */
static bool read_netdev_speed(struct collector *c, const char *netdev, uint64_t *mbps)
{
	char path[600], buf[32], *end;
	long v;

	if (!netdev[0])
		return false;
	fs_path(c->o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/speed", netdev);
	if (fs_read_kept(&c->kept, path, buf, sizeof(buf)) <= 0)
		return false;
	v = strtol(buf, &end, 10);
	if (*end || v <= 0)
		return false;
	*mbps = (uint64_t)v;
	return true;
}

/* the netdev's ifindex, so the fold need not ask SIOCGIFINDEX each sample; 0 unknown */
static int read_netdev_ifindex(struct collector *c, const char *netdev)
{
	char path[600];
	uint64_t v;

	if (!netdev[0])
		return 0;
	fs_path(c->o->sysfs_root, path, sizeof(path), "/sys/class/net/%s/ifindex", netdev);
	return fs_read_u64_kept(&c->kept, path, &v) || !v || v > INT32_MAX ? 0 : (int)v;
}

/*
 * The IB port counters the port's plan found in counters/ and
 * counters_ext/, each file a MAD to the device's PMA, under fabteld's
 * back-off: none while it holds; one that fails fails the read (the rest
 * not asked, none given).  period_ms: how often they are read (0 each pass).
 */
static void read_pma(struct collector *c, struct port_plan *pl, struct raw_port *p, uint64_t now,
		     uint32_t period_ms)
{
	struct backoff *b = port_backoff(&c->backoffs, p->device, p->port, PR_PMA);
	unsigned int i, k;
	uint64_t v;
	int err = 0;

	sysfs_plan_pma(&c->plans, pl);
	if (!pl->nr_pma) {
		backoff_unsupported(b);
	} else if (backoff_due(b, now)) {
		for (i = 0; i < pl->nr_pma && !err; i++) {
			err = fs_held_read_u64(&c->kept, &pl->pma[i].fd, pl->base, pl->pma[i].file, &v);
			if (err && read_gone(err)) {
				pl->stale = true;
				err = 0;
			} else if (!err) {
				k = pl->pma[i].c;
				p->pma[k] = v * schema_pma_scale(k);
				p->have_pma[k] = true;
			}
		}
		if (err) {
			backoff_fail(b, err, now, period_ms);
			memset(p->have_pma, 0, sizeof(p->have_pma));
		} else {
			backoff_ok(b);
		}
	}
	port_reads_note(&p->reads, PR_PMA, b);
}

/*
 * plain sysfs: the IB port counters when due (pma_s; 0 each sample) or
 * when the link moved, else the last reading's (none if it failed).  Half
 * a sample's slack, so a 10 s period is 10 samples of 1 s, not 11.
 */
static void read_pma_due(struct collector *c, struct port_plan *pl,
			 struct raw_port *p, bool moved, uint64_t now)
{
	uint64_t period = (uint64_t)c->o->pma_s * NS_PER_S, slack = c->o->interval_ms * 1000000ULL / 2;

	if (pl->pma_ns && !moved && c->o->pma_s && now - pl->pma_ns + slack < period) {
		memcpy(p->pma, pl->pma_val, sizeof(p->pma));
		memcpy(p->have_pma, pl->have_pma, sizeof(p->have_pma));
		port_reads_note(&p->reads, PR_PMA, port_backoff(&c->backoffs, p->device, p->port, PR_PMA));
		return;
	}
	read_pma(c, pl, p, now, c->o->pma_s * 1000);
	pl->pma_ns = now ? now : 1;
	memcpy(pl->pma_val, p->pma, sizeof(p->pma));
	memcpy(pl->have_pma, p->have_pma, sizeof(p->have_pma));
}

/*
 * fabtel.ko mode, what the snapshot did not carry: the netdev's speed (an
 * older fabtel.ko), ports/<n>/rate when it can have changed (port_rate.c)
 * and the IB port counters: the files ports/<n>/counters/ has, then what
 * counters_ext/ of older kernels adds (listed once per port, not a failed
 * open per counter where there are none, as on rxe).
 */
void sysfs_read_port_extras(struct collector *c, struct raw_port *p)
{
	char base[PLAN_BASE_LEN];
	struct port_plan *pl;

	if (!p->speed_by_ko)
		p->have_nd_speed = read_netdev_speed(c, p->netdev, &p->nd_speed_mbps);
	port_rate_read(&c->rates, p);
	if (p->pma_known)
		return;		/* fabtel.ko's snapshot had them, or said there are none */
	fs_path(c->o->sysfs_root, base, sizeof(base), "/sys/class/infiniband/%s/ports/%u", p->device,
		p->port);
	pl = sysfs_plan_get(&c->plans, base, false);
	if (pl)
		read_pma(c, pl, p, port_reads_now(&c->backoffs), 0);
}

/* link_layer, state, the netdev's name and speed into the plan; -ENODEV if not Ethernet */
static int read_link_files(struct collector *c, struct port_plan *pl)
{
	char path[PLAN_BASE_LEN + 32], buf[256];

	pl->link_read = true;
	pl->link_age = 0;
	snprintf(path, sizeof(path), "%s/link_layer", pl->base);
	pl->ethernet = fs_read_kept(&c->kept, path, buf, sizeof(buf)) >= 0 && !strcmp(buf, "Ethernet");
	if (!pl->ethernet)
		return -ENODEV;
	pl->state[0] = pl->netdev[0] = '\0';
	snprintf(path, sizeof(path), "%s/state", pl->base);
	if (fs_read_kept(&c->kept, path, buf, sizeof(buf)) > 0)	/* "4: ACTIVE" */
		snprintf(pl->state, sizeof(pl->state), "%s",
			 strchr(buf, ' ') ? strchr(buf, ' ') + 1 : buf);
	snprintf(path, sizeof(path), "%s/gid_attrs/ndevs/0", pl->base);
	if (fs_read_kept(&c->kept, path, buf, sizeof(buf)) > 0 && strlen(buf) < sizeof(pl->netdev))
		text_copy(pl->netdev, sizeof(pl->netdev), buf);
	pl->have_nd_speed = read_netdev_speed(c, pl->netdev, &pl->nd_speed_mbps);
	pl->ifindex = read_netdev_ifindex(c, pl->netdev);
	return 0;
}

static void give_link(const struct port_plan *pl, struct raw_port *p)
{
	text_copy(p->state, sizeof(p->state), pl->state);
	text_copy(p->netdev, sizeof(p->netdev), pl->netdev);
	p->nd_speed_mbps = pl->nd_speed_mbps;
	p->have_nd_speed = pl->have_nd_speed;
	p->ifindex = pl->ifindex;
}

/*
 * The port's link: its files from the plan unless due; the netdev's carrier
 * and flap count; the files again when those moved or the port is not up.
 * Whether the link moved since the last sample.
 */
static bool read_link(struct collector *c, struct port_plan *pl, struct raw_port *p)
{
	bool fresh = pl->link_age == 0, moved;
	char netdev[IF_NAMESIZE];

	give_link(pl, p);
	if (p->netdev[0])
		read_netdev_held(c, pl, p);
	moved = p->carrier != pl->carrier || p->have_flaps != pl->have_flaps ||
		p->flaps != pl->flaps;
	if (!fresh && (moved || p->carrier != 1 || strcmp(p->state, "ACTIVE"))) {
		text_copy(netdev, sizeof(netdev), pl->netdev);
		if (read_link_files(c, pl))
			return moved;
		give_link(pl, p);
		if (strcmp(netdev, pl->netdev)) {	/* renamed, or another */
			p->carrier = -1;
			p->have_flaps = false;
			if (p->netdev[0])
				read_netdev_held(c, pl, p);
		}
	}
	pl->carrier = p->carrier;
	pl->flaps = p->flaps;
	pl->have_flaps = p->have_flaps;
	return moved;
}

/* sysfs_read_port, the hw_counters over netlink where nl is not NULL */
static int read_port(struct collector *c, struct sysfs_nlstat *nl, const char *base,
		     const char *dev, const char *port, struct raw_port *p)
{
	struct port_plan *pl = sysfs_plan_get(&c->plans, base, true);
	uint64_t now = port_reads_now(&c->backoffs);
	bool moved;

	if (!pl)
		return -ENAMETOOLONG;
	if (!pl->link_read || ++pl->link_age >= LINK_TTL) {
		if (read_link_files(c, pl))
			return -ENODEV;
	} else if (!pl->ethernet) {
		return -ENODEV;
	}
	memset(p, 0, sizeof(*p));
	text_copy(p->device, sizeof(p->device), dev);
	p->port = (uint32_t)strtoul(port, NULL, 10);
	p->carrier = -1;
	text_copy(p->driver, sizeof(p->driver), "-");
	moved = read_link(c, pl, p);
	read_hw_counters(c, nl, pl, p, moved, now);
	port_rate_read(&c->rates, p);
	read_pma_due(c, pl, p, moved, now);
	read_bytes_held(c, pl, p);
	return 0;
}

int sysfs_read_port(struct collector *c, const char *base, const char *dev,
		    const char *port, struct raw_port *p)
{
	return read_port(c, NULL, base, dev, port, p);
}

struct sysfs_walk {
	struct collector *c;
	struct sysfs_nlstat *nl;	/* NULL: the files only */
	struct raw *r;
};

static int read_sysfs_port(void *ctx, const char *base, const char *dev, const char *port)
{
	struct sysfs_walk *w = ctx;
	bool full = w->r->nr_ports == MODEL_MAX_PORTS;

	if (read_port(w->c, w->nl, base, dev, port,
		      full ? &w->r->over : &w->r->ports[w->r->nr_ports]))
		return 0;
	if (full)
		w->r->ports_over++;
	else
		w->r->nr_ports++;
	return 0;
}

struct source_sysfs {
	unsigned int ports;		/* the last sample's */
	bool nl_ready;			/* nl initialised (priv comes zeroed) */
	struct sysfs_nlstat nl;		/* port_stats: the hw_counters over netlink */
};

/* netlink for this pass (NULL: the files), its socket closed when not wanted */
static struct sysfs_nlstat *sysfs_nl(struct collector *c, struct source_sysfs *s)
{
	if (!sysfs_nlstat_wanted(c->o)) {
		if (s->nl_ready)
			sysfs_nlstat_fini(&s->nl);
		return NULL;
	}
	if (!s->nl_ready)
		sysfs_nlstat_init(&s->nl);
	s->nl_ready = true;
	return &s->nl;
}

static bool sysfs_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_sysfs *s = priv;
	struct model *m = c->m;
	struct sysfs_walk w = { .c = c, .r = r };
	char dir[600];
	int err;

	if (r->ko) {
		raw_report(r, SRC_SYSFS, SRC_STATE_STANDBY, "fabtel.ko is loaded");
		return false;
	}
	fs_path(m->opts.sysfs_root, dir, sizeof(dir), "/sys/class/infiniband");
	netdev_bytes_sample(&c->nd, s->ports);
	w.nl = sysfs_nl(c, s);
	err = devices_walk_ports(&c->devs, dir, false, read_sysfs_port, &w);
	s->ports = r->nr_ports;
	r->ports_mono = clock_ns(CLOCK_MONOTONIC);
	if (err)
		raw_report(r, SRC_SYSFS, SRC_STATE_UNAVAILABLE, "no RDMA devices (%s: %s)", dir,
			   raw_strerror(r, -err));
	else
		raw_report(r, SRC_SYSFS, SRC_STATE_UP, "%s", "");
	return true;
}

static void sysfs_close(struct collector *c, void *priv)
{
	struct source_sysfs *s = priv;

	(void)c;
	if (s->nl_ready)
		sysfs_nlstat_fini(&s->nl);
}

const struct source_ops source_sysfs = {
	.name = "sysfs",
	.priv_size = sizeof(struct source_sysfs),
	.sample = sysfs_sample,
	.close = sysfs_close,
};
