// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - link state and the flap history.
 *
 * The carrier counters of the port's netdev (carrier_up_count and
 * carrier_down_count, bumped by every netif_carrier_on/off) are the ground
 * truth: linkwatch may fold a down/up inside ~1 s into one NETDEV_CHANGE that
 * already shows the carrier up, and rxe and the IB port events then miss the
 * flap, but the counts never do.  The netdevice notifier and the sampler both
 * call fabtel_link_sync(), which turns count deltas into transitions: one
 * transition seen alone is a "carrier" entry; several seen at once (the link
 * went down and up between two looks) are "coalesced" entries.  IB port
 * events add "ib_event" entries only for what the carrier does not explain
 * (an administrative ip link set down, say).
 *
 * A netdev moved to another network namespace is kept (it stays registered
 * through the move).  One that unregisters (its driver unbound) is let go
 * at once and never compared with later netdevs: a port without a netdev
 * asks its driver at every sample (a rebind's new netdev), with a new
 * baseline for the carrier counts: what happened meanwhile was not seen.
 * When the netdev is a bond (RoCE LAG), its links' carriers are tracked
 * too (fabtel_lag.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/timekeeping.h>
#include <rdma/ib_cache.h>

#include "fabtel.h"

/* Every port with a netdev, for the notifier; protected by fabtel_ports_lock. */
static LIST_HEAD(fabtel_ports);
static DEFINE_SPINLOCK(fabtel_ports_lock);

static const char * const fabtel_source_names[] = {
	[FABTEL_SRC_CARRIER]	= "carrier",
	[FABTEL_SRC_IB_EVENT]	= "ib_event",
	[FABTEL_SRC_COALESCED]	= "coalesced",
	[FABTEL_SRC_SLAVE]	= "slave",
};

const char *fabtel_link_source_name(u8 source)
{
	if (source >= ARRAY_SIZE(fabtel_source_names))
		return "unknown";
	return fabtel_source_names[source];
}

/* A new, zeroed history entry (p->lock held); the oldest goes when full. */
struct fabtel_link_entry *fabtel_link_entry_new(struct fabtel_port *p)
{
	struct fabtel_link_entry *e;

	if (p->hist_len == FABTEL_HISTORY_LEN) {
		p->hist_head = (p->hist_head + 1) % FABTEL_HISTORY_LEN;
		p->hist_len--;
	}
	e = &p->history[(p->hist_head + p->hist_len) % FABTEL_HISTORY_LEN];
	p->hist_len++;
	memset(e, 0, sizeof(*e));
	return e;
}

/* Record one transition of the port's own netdev (p->lock held). */
static void fabtel_link_record(struct fabtel_port *p, bool up, u8 source,
			       u64 boot, u64 real)
{
	struct fabtel_link_entry *e = fabtel_link_entry_new(p);

	e->boot_ns = boot;
	e->real_ns = real;
	e->up = up;
	e->source = source;
	e->down_ns = -1;
	if (up && !p->link_up) {
		/* flaps are carrier flaps; an admin down/up is not one */
		if (source != FABTEL_SRC_IB_EVENT)
			p->flaps++;
		if (source != FABTEL_SRC_COALESCED && p->down_since_ns)
			e->down_ns = boot - p->down_since_ns;
	}
	if (!up)
		p->down_since_ns = source == FABTEL_SRC_COALESCED ? 0 : boot;
	p->link_up = up;
}

/* Turn carrier count deltas into transitions (p->lock held). */
static void fabtel_link_sync_locked(struct fabtel_port *p,
				    struct net_device *ndev)
{
	unsigned int up = atomic_read(&ndev->carrier_up_count);
	unsigned int down = atomic_read(&ndev->carrier_down_count);
	unsigned int nup = up - p->seen_up, ndown = down - p->seen_down;
	u8 source = nup + ndown > 1 ? FABTEL_SRC_COALESCED : FABTEL_SRC_CARRIER;
	u64 boot, real;
	bool next_up;

	if (!nup && !ndown)
		return;
	p->seen_up = up;
	p->seen_down = down;
	boot = fabtel_now_boot();
	real = ktime_get_real_ns();
	if (p->ib_down) {
		/* the carrier now explains the port's state */
		p->ib_down = false;
	}
	while (nup || ndown) {
		next_up = fabtel_next_transition(p->link_up, &nup, &ndown);
		fabtel_link_record(p, next_up, source, boot, real);
	}
}

/* The port's netdev with a reference held, or NULL. */
struct net_device *fabtel_port_netdev_get(struct fabtel_port *p)
{
	struct net_device *ndev;

	spin_lock(&p->lock);
	ndev = p->ndev;
	if (ndev)
		dev_hold(ndev);
	spin_unlock(&p->lock);
	return ndev;
}

/*
 * Track ndev again (p->lock held; the caller's reference becomes ours).  A
 * new baseline: transitions while the port had no netdev were not seen and
 * are not made up.
 */
static void fabtel_link_attach_locked(struct fabtel_port *p, struct net_device *ndev)
{
	p->ndev = ndev;
	strscpy(p->ndev_name, ndev->name, sizeof(p->ndev_name));
	p->seen_up = atomic_read(&ndev->carrier_up_count);
	p->seen_down = atomic_read(&ndev->carrier_down_count);
	p->link_up = netif_carrier_ok(ndev);
	pr_info("%s port %u: tracking netdev %s again\n", dev_name(&p->fdev->ibdev->dev),
		p->num, ndev->name);
}

/*
 * A port without a netdev asks its driver again: a rebind makes a new
 * netdev, which the notifier cannot recognise (process context, no RTNL).
 */
static void fabtel_link_find_netdev(struct fabtel_port *p)
{
	struct net_device *ndev = fabtel_netdev_lookup(p->fdev->ibdev, p->num);

	if (!ndev)
		return;
	spin_lock(&fabtel_ports_lock);
	spin_lock(&p->lock);
	if (!p->ndev && !list_empty(&p->node) && ndev->reg_state == NETREG_REGISTERED) {
		fabtel_link_attach_locked(p, ndev);
		ndev = NULL;
	}
	spin_unlock(&p->lock);
	spin_unlock(&fabtel_ports_lock);
	if (ndev)
		dev_put(ndev);
}

/* Sampler: carrier counts and the IB port state, every period. */
void fabtel_link_sample(struct fabtel_port *p)
{
	struct ib_device *ibdev = p->fdev->ibdev;
	enum ib_port_state state = IB_PORT_NOP;

	if (ib_get_cached_port_state(ibdev, p->num, &state))
		state = IB_PORT_NOP;
	if (!READ_ONCE(p->ndev))
		fabtel_link_find_netdev(p);
	spin_lock(&p->lock);
	p->ib_state = state;
	if (p->ndev)
		fabtel_link_sync_locked(p, p->ndev);
	spin_unlock(&p->lock);
}

/*
 * Start tracking ndev (a reference the caller gives us).  The history starts
 * empty: transitions before this are not ours to report.
 */
void fabtel_link_port_add(struct fabtel_port *p, struct net_device *ndev)
{
	spin_lock(&fabtel_ports_lock);
	spin_lock(&p->lock);
	p->ndev = ndev;
	if (ndev) {
		strscpy(p->ndev_name, ndev->name, sizeof(p->ndev_name));
		p->seen_up = atomic_read(&ndev->carrier_up_count);
		p->seen_down = atomic_read(&ndev->carrier_down_count);
		p->link_up = netif_carrier_ok(ndev);
	}
	spin_unlock(&p->lock);
	list_add_tail(&p->node, &fabtel_ports);
	spin_unlock(&fabtel_ports_lock);
}

/* Stop tracking: after this no notifier touches p and its netdev is released. */
void fabtel_link_port_del(struct fabtel_port *p)
{
	struct net_device *ndev;

	spin_lock(&fabtel_ports_lock);
	list_del_init(&p->node);
	spin_lock(&p->lock);
	ndev = p->ndev;
	p->ndev = NULL;
	spin_unlock(&p->lock);
	spin_unlock(&fabtel_ports_lock);
	if (ndev)
		dev_put(ndev);
}

static void fabtel_link_netdev_gone(struct fabtel_port *p)
{
	struct net_device *ndev;

	spin_lock(&p->lock);
	ndev = p->ndev;
	p->ndev = NULL;
	spin_unlock(&p->lock);
	if (ndev)
		dev_put(ndev);
}

/*
 * Runs under RTNL: only spinlocks here, never anything that takes RTNL or
 * calls into the driver (ib_query_port would deadlock).
 */
static int fabtel_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct net_device *master = NULL;
	struct fabtel_port *p;

	if (event != NETDEV_CHANGE && event != NETDEV_UP &&
	    event != NETDEV_DOWN && event != NETDEV_UNREGISTER &&
	    event != NETDEV_CHANGENAME && event != NETDEV_REGISTER)
		return NOTIFY_DONE;

	/* a link of some port's bond (RoCE LAG)? */
	if (netif_is_lag_port(ndev) && event != NETDEV_UNREGISTER)
		master = netdev_master_upper_dev_get(ndev);

	spin_lock(&fabtel_ports_lock);
	list_for_each_entry(p, &fabtel_ports, node) {
		if (master && READ_ONCE(p->ndev) == master)
			fabtel_lag_event(p, ndev);
		if (READ_ONCE(p->ndev) != ndev)
			continue;
		/*
		 * A netns move notifies UNREGISTER, then REGISTER in the new
		 * namespace, of a netdev that stays NETREG_REGISTERED: it is
		 * kept (a VF handed to a pod is still the port's link).  An
		 * unregistering one is let go; no pointer to it is kept.
		 */
		if (event == NETDEV_UNREGISTER) {
			if (ndev->reg_state != NETREG_REGISTERED)
				fabtel_link_netdev_gone(p);
			continue;
		}
		spin_lock(&p->lock);
		if (event == NETDEV_CHANGENAME || event == NETDEV_REGISTER)
			strscpy(p->ndev_name, ndev->name, sizeof(p->ndev_name));
		else
			fabtel_link_sync_locked(p, ndev);
		spin_unlock(&p->lock);
	}
	spin_unlock(&fabtel_ports_lock);
	return NOTIFY_DONE;
}

static struct notifier_block fabtel_netdev_nb = {
	.notifier_call = fabtel_netdev_event,
};

/*
 * IB port events (process context, after ib_core's cache update).  First
 * fold in any carrier change, so a PORT_ERR caused by a carrier loss is
 * already explained; what remains is an administrative or driver event.
 */
void fabtel_link_ib_event(struct ib_event_handler *h, struct ib_event *ev)
{
	struct fabtel_dev *fdev = container_of(h, struct fabtel_dev,
					       event_handler);
	struct fabtel_port *p = NULL;
	unsigned int i;

	if (ev->event != IB_EVENT_PORT_ERR && ev->event != IB_EVENT_PORT_ACTIVE)
		return;
	for (i = 0; i < fdev->nports; i++)
		if (fdev->ports[i] && fdev->ports[i]->num == ev->element.port_num)
			p = fdev->ports[i];
	if (!p)
		return;

	spin_lock(&p->lock);
	if (p->ndev)
		fabtel_link_sync_locked(p, p->ndev);
	if (ev->event == IB_EVENT_PORT_ERR && p->link_up) {
		fabtel_link_record(p, false, FABTEL_SRC_IB_EVENT,
				   fabtel_now_boot(), ktime_get_real_ns());
		p->ib_down = true;
	} else if (ev->event == IB_EVENT_PORT_ACTIVE && p->ib_down) {
		fabtel_link_record(p, true, FABTEL_SRC_IB_EVENT,
				   fabtel_now_boot(), ktime_get_real_ns());
		p->ib_down = false;
	}
	spin_unlock(&p->lock);
}

int fabtel_link_init(void)
{
	return register_netdevice_notifier(&fabtel_netdev_nb);
}

void fabtel_link_exit(void)
{
	unregister_netdevice_notifier(&fabtel_netdev_nb);
}
