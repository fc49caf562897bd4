/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter.h - extend a wrapping 32-bit hardware counter (mlx5 Q-counters,
 * for instance) to a monotonic 64-bit total.
 *
 * The total moves by the modular difference between successive samples, so
 * one wrap between two samples is absorbed.  Two wraps between samples cannot
 * be seen: sample faster than 2^32 events at the counter's top rate.  The
 * first sample is taken as the total so far.
 */
#ifndef FABTEL_COUNTER_H
#define FABTEL_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

struct fab_ctr32 {
	uint64_t total;
	uint32_t last;
	bool primed;
	uint32_t wraps;		/* wraps seen, for diagnostics */
};

uint64_t fab_ctr32_update(struct fab_ctr32 *c, uint32_t raw);

#endif /* FABTEL_COUNTER_H */
