// SPDX-License-Identifier: GPL-2.0
/*
 * probe_flow.c - one flow of a pair (probe_stats.h): what the probes that
 * took one UDP source port, so one ECMP path, did.  A pair's probes cycle
 * over its flows (Documentation/probes.rst "Flows and ECMP"); a bad link
 * under ECMP loses only the flows hashed onto it, which the pair's total
 * shows as a fraction and the flows show as which.
 */
#include "clock.h"
#include "probe_stats.h"

void probe_flow_outcome(struct probe_flow *f, uint64_t now_ns, bool lost)
{
	f->ring[f->head] = (uint32_t)(now_ns / NS_PER_S) << 1 | (lost ? 1 : 0);
	f->head = (uint8_t)((f->head + 1) % PROBE_FLOW_RING);
	if (f->count < PROBE_FLOW_RING)
		f->count++;
	if (lost)
		f->timeouts++;
}

double probe_flow_loss(const struct probe_flow *f, uint64_t now_ns, unsigned int window_s,
		       unsigned int *ended)
{
	uint32_t sec = (uint32_t)(now_ns / NS_PER_S);
	unsigned int i, done = 0, lost = 0;

	for (i = 0; i < f->count; i++) {
		uint32_t e = f->ring[i];

		/* an outcome of the last window_s seconds, as the pair's bins count them */
		if ((e >> 1) + window_s <= sec)
			continue;
		done++;
		lost += e & 1;
	}
	if (ended)
		*ended = done;
	return done ? (double)lost / done : -1;
}

uint32_t probe_flow_label(unsigned int f, unsigned int k)
{
	if (!f || !k)
		return 0;
	/* the port's 14 bits cut in k: labels under 2^14 map to 0xc000 | label */
	return f * (0x4000u / k);
}
