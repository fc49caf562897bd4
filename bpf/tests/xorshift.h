/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xorshift.h - the tests' reproducible random numbers: xorshift64*, seeded
 * from SEED in the environment (printed, so a run can be repeated).
 */
#ifndef FABTEL_XORSHIFT_H
#define FABTEL_XORSHIFT_H

#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

#endif /* FABTEL_XORSHIFT_H */
