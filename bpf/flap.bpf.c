// SPDX-License-Identifier: GPL-2.0
/*
 * flap.bpf.c - every carrier transition, as it happens.
 *
 * fentry on netif_carrier_on/off sees each call, also those linkwatch later
 * folds into a single NETDEV_CHANGE (which rxe, IB port events and netdev
 * notifiers then miss).  A call that changes nothing (carrier already in
 * that state) is only counted.  ib_dispatch_event adds the IB view: port
 * active/error and GID changes.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "flap.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} flap_events SEC(".maps");

__u64 flap_drops;	/* events lost: ring buffer full */
__u64 flap_noop_calls;	/* carrier calls that changed nothing */

static __always_inline void carrier_event(struct net_device *dev, bool up)
{
	unsigned long state = BPF_CORE_READ(dev, state);
	bool nocarrier = state & (1UL << __LINK_STATE_NOCARRIER);
	struct flap_event *e;

	if (up != nocarrier) {
		__sync_fetch_and_add(&flap_noop_calls, 1);
		return;
	}
	e = bpf_ringbuf_reserve(&flap_events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&flap_drops, 1);
		return;
	}
	e->ns = bpf_ktime_get_boot_ns();
	e->kind = up ? FLAP_CARRIER_UP : FLAP_CARRIER_DOWN;
	e->ifindex = BPF_CORE_READ(dev, ifindex);
	e->port = 0;
	e->count = up ? BPF_CORE_READ(dev, carrier_up_count.counter) :
			BPF_CORE_READ(dev, carrier_down_count.counter);
	bpf_probe_read_kernel_str(e->ifname, sizeof(e->ifname), dev->name);
	e->ibdev[0] = 0;
	bpf_ringbuf_submit(e, 0);
}

SEC("fentry/netif_carrier_on")
int BPF_PROG(flap_carrier_on, struct net_device *dev)
{
	carrier_event(dev, true);
	return 0;
}

SEC("fentry/netif_carrier_off")
int BPF_PROG(flap_carrier_off, struct net_device *dev)
{
	carrier_event(dev, false);
	return 0;
}

SEC("fentry/ib_dispatch_event")
int BPF_PROG(flap_ib_event, const struct ib_event *ev)
{
	enum ib_event_type type = BPF_CORE_READ(ev, event);
	struct flap_event *e;
	const char *name;
	__u32 kind;

	if (type == IB_EVENT_PORT_ERR)
		kind = FLAP_IB_PORT_ERR;
	else if (type == IB_EVENT_PORT_ACTIVE)
		kind = FLAP_IB_PORT_ACTIVE;
	else if (type == IB_EVENT_GID_CHANGE)
		kind = FLAP_IB_GID_CHANGE;
	else
		return 0;
	e = bpf_ringbuf_reserve(&flap_events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&flap_drops, 1);
		return 0;
	}
	e->ns = bpf_ktime_get_boot_ns();
	e->kind = kind;
	e->ifindex = 0;
	e->count = 0;
	e->port = BPF_CORE_READ(ev, element.port_num);
	e->ifname[0] = 0;
	name = BPF_CORE_READ(ev, device, dev.kobj.name);
	bpf_probe_read_kernel_str(e->ibdev, sizeof(e->ibdev), name);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
