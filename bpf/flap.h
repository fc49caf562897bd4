/* SPDX-License-Identifier: GPL-2.0 */
/* flap.h - events of flap.bpf.c (carrier transitions, IB port events). */
#ifndef FABTEL_FLAP_H
#define FABTEL_FLAP_H

enum flap_kind {
	FLAP_CARRIER_DOWN = 1,	/* netif_carrier_off that dropped the carrier */
	FLAP_CARRIER_UP,	/* netif_carrier_on that restored it */
	FLAP_IB_PORT_ERR,	/* ib_dispatch_event(IB_EVENT_PORT_ERR) */
	FLAP_IB_PORT_ACTIVE,
	FLAP_IB_GID_CHANGE,
};

#define FLAP_NAME_LEN 32

struct flap_event {
	__u64 ns;		/* CLOCK_BOOTTIME */
	__u32 kind;		/* enum flap_kind */
	__u32 ifindex;		/* carrier events */
	__u32 port;		/* IB events */
	__u32 count;		/* carrier_up/down_count before this call */
	char ifname[16];
	char ibdev[FLAP_NAME_LEN];
};

#endif /* FABTEL_FLAP_H */
