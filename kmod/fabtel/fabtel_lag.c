// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the links of a port whose netdev is a bond (RoCE LAG).
 *
 * mlx5 makes one RDMA device (mlx5_bond_0) over a bond of two PF netdevs
 * when both are enslaved to one bond.  The bond keeps its carrier while one
 * link is up, so a flap of one link never shows in the port's own carrier
 * counts; yet every QP hashed to that link saw it.  Here each link of the
 * port's bond (a lower netdev that is a LAG port), known by ifindex and
 * network namespace, has its own carrier counts: a link going down and up
 * is a flap of the port, a history entry of source "slave" naming the link
 * (link/history), counted in link/flaps.
 *
 * The sampler walks the bond's lower netdevs (RTNL tried, as for DCB) to
 * take new links with a baseline and forget departed ones; the netdevice
 * notifier (RTNL held) folds each link's carrier change in as it happens.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "fabtel.h"

static u64 fabtel_net_cookie(const struct net_device *ndev)
{
	return dev_net(ndev)->net_cookie;
}

static struct fabtel_slave *fabtel_slave_find(struct fabtel_port *p,
					      const struct net_device *ndev)
{
	u64 cookie = fabtel_net_cookie(ndev);
	unsigned int i;

	for (i = 0; i < FABTEL_LAG_SLAVES; i++)
		if (p->slaves[i].ifindex == ndev->ifindex &&
		    p->slaves[i].net_cookie == cookie)
			return &p->slaves[i];
	return NULL;
}

/* A new link with its counts as the baseline (p->lock held); NULL: no room. */
static struct fabtel_slave *fabtel_slave_add(struct fabtel_port *p,
					     const struct net_device *ndev)
{
	struct fabtel_slave *s;
	unsigned int i;

	for (i = 0; i < FABTEL_LAG_SLAVES; i++) {
		s = &p->slaves[i];
		if (s->ifindex)
			continue;
		memset(s, 0, sizeof(*s));
		s->ifindex = ndev->ifindex;
		s->net_cookie = fabtel_net_cookie(ndev);
		strscpy(s->name, ndev->name, sizeof(s->name));
		s->seen_up = atomic_read(&ndev->carrier_up_count);
		s->seen_down = atomic_read(&ndev->carrier_down_count);
		s->up = netif_carrier_ok(ndev);
		return s;
	}
	return NULL;
}

/* One transition of link @s (p->lock held). */
static void fabtel_slave_record(struct fabtel_port *p, struct fabtel_slave *s,
				bool up, bool coalesced, u64 boot, u64 real)
{
	struct fabtel_link_entry *e = fabtel_link_entry_new(p);

	e->boot_ns = boot;
	e->real_ns = real;
	e->up = up;
	e->source = FABTEL_SRC_SLAVE;
	e->down_ns = -1;
	strscpy(e->slave, s->name, sizeof(e->slave));
	if (up && !s->up) {
		p->flaps++;
		s->flaps++;
		if (!coalesced && s->down_since_ns)
			e->down_ns = boot - s->down_since_ns;
	}
	if (!up)
		s->down_since_ns = coalesced ? 0 : boot;
	s->up = up;
}

/* Fold the carrier counts of link @ndev into the port (p->lock held). */
static void fabtel_slave_sync(struct fabtel_port *p, struct fabtel_slave *s,
			      struct net_device *ndev)
{
	unsigned int up = atomic_read(&ndev->carrier_up_count);
	unsigned int down = atomic_read(&ndev->carrier_down_count);
	unsigned int nup = up - s->seen_up, ndown = down - s->seen_down;
	bool coalesced = nup + ndown > 1, next_up;
	u64 boot, real;

	strscpy(s->name, ndev->name, sizeof(s->name));
	if (!nup && !ndown)
		return;
	s->seen_up = up;
	s->seen_down = down;
	boot = fabtel_now_boot();
	real = ktime_get_real_ns();
	while (nup || ndown) {
		next_up = fabtel_next_transition(s->up, &nup, &ndown);
		fabtel_slave_record(p, s, next_up, coalesced, boot, real);
	}
}

/*
 * Notifier (RTNL and the ports' list lock held): @slave, a link of @p's
 * bond, changed.  A link not known yet is taken with a baseline (the
 * sampler takes each within a sample_ms of its enslaving).
 */
void fabtel_lag_event(struct fabtel_port *p, struct net_device *slave)
{
	struct fabtel_slave *s;

	spin_lock(&p->lock);
	s = fabtel_slave_find(p, slave);
	if (s)
		fabtel_slave_sync(p, s, slave);
	else
		fabtel_slave_add(p, slave);
	spin_unlock(&p->lock);
}

/* Sampler: take the bond's links as they are now (RTNL tried). */
void fabtel_lag_sample(struct fabtel_port *p)
{
	struct net_device *ndev, *lower;
	struct list_head *iter;
	struct fabtel_slave *s;
	unsigned int i;

	ndev = fabtel_port_netdev_get(p);
	if (!ndev)
		return;
	if (!netif_is_lag_master(ndev) || !rtnl_trylock())
		goto out_put;
	spin_lock(&p->lock);
	for (i = 0; i < FABTEL_LAG_SLAVES; i++)
		p->slaves[i].seen = false;
	netdev_for_each_lower_dev(ndev, lower, iter) {
		s = fabtel_slave_find(p, lower);
		if (s)
			fabtel_slave_sync(p, s, lower);
		else
			s = fabtel_slave_add(p, lower);
		if (s)
			s->seen = true;
	}
	for (i = 0; i < FABTEL_LAG_SLAVES; i++)
		if (!p->slaves[i].seen)
			p->slaves[i].ifindex = 0;	/* released */
	spin_unlock(&p->lock);
	rtnl_unlock();
out_put:
	dev_put(ndev);
}

/* Snapshot lines (p->lock held): "lag_link NAME CARRIER FLAPS" per link. */
int fabtel_lag_snapshot(struct fabtel_port *p, char *buf, int n)
{
	const struct fabtel_slave *s;
	unsigned int i;

	for (i = 0; i < FABTEL_LAG_SLAVES; i++) {
		s = &p->slaves[i];
		if (s->ifindex)
			n += sysfs_emit_at(buf, n, "lag_link %s %d %llu\n",
					   s->name, s->up, s->flaps);
	}
	return n;
}
