/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - time as the collector and its readers count it: nanoseconds.
 */
#ifndef FABTEL_CLOCK_H
#define FABTEL_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NS_PER_S	1000000000ULL

/* clk (CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME) in nanoseconds. */
static inline uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

#endif /* FABTEL_CLOCK_H */
