// SPDX-License-Identifier: GPL-2.0
/*
 * netdev_slot.c - per-netdev slots for slow readings (netdev_slot.h).
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "netdev_slot.h"

unsigned int netdev_slot_get(struct netdev_slot *slots, unsigned int n, const char *ifname)
{
	unsigned int i, old = 0;

	for (i = 0; i < n; i++) {
		if (!strcmp(slots[i].ifname, ifname))
			return i;
		if (slots[i].at_ns < slots[old].at_ns)
			old = i;
	}
	memset(&slots[old], 0, sizeof(slots[old]));
	snprintf(slots[old].ifname, sizeof(slots[old].ifname), "%s", ifname);
	return old;
}

bool netdev_slot_due(struct netdev_slot *s, uint64_t now_ns, unsigned int period_s)
{
	if (s->at_ns && now_ns - s->at_ns < (uint64_t)period_s * NS_PER_S)
		return false;
	s->at_ns = now_ns;
	return true;
}
