// SPDX-License-Identifier: GPL-2.0
#include "counter.h"

uint64_t fab_ctr32_update(struct fab_ctr32 *c, uint32_t raw)
{
	if (!c->primed) {
		c->total = raw;
		c->primed = true;
	} else {
		if (raw < c->last)
			c->wraps++;
		c->total += (uint32_t)(raw - c->last);
	}
	c->last = raw;
	return c->total;
}
