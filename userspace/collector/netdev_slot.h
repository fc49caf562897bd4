/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netdev_slot.h - the slots of a source that reads each netdev only every
 * so many seconds (module EEPROM, RoCE config) and keeps the last reading
 * in between: one slot per netdev name, a new name taking the slot read
 * longest ago.  The readings themselves live in the source's own array,
 * at the slot's index.
 */
#ifndef FABTEL_NETDEV_SLOT_H
#define FABTEL_NETDEV_SLOT_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

struct netdev_slot {
	char ifname[IF_NAMESIZE];
	uint64_t at_ns;		/* CLOCK_MONOTONIC of the last reading; 0 never */
};

/* The index of ifname's slot among n; a new name's slot starts unread. */
unsigned int netdev_slot_get(struct netdev_slot *slots, unsigned int n, const char *ifname);
/* True (and the slot stamped now) if it was never read or period_s has passed. */
bool netdev_slot_due(struct netdev_slot *s, uint64_t now_ns, unsigned int period_s);

#endif /* FABTEL_NETDEV_SLOT_H */
