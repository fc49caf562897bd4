/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mono.h - hardware counters made monotonic, and per-second rates of them.
 *
 * A struct mono turns successive raw readings into a total that never goes
 * down: a 32-bit wrap (mlx5 Q-counters) or a reset (driver reloaded, rxe
 * device re-created under the same name) between two readings is absorbed.
 * Only a counter that may be 32 bits wide can wrap; for one known to be 64
 * bits wide (mono_update64) a decrease is always a reset.
 * A struct rate turns successive totals into events per second over the last
 * interval.  Both are pure and unit-tested (userspace/tests/test_mono.c).
 */
#ifndef FABTEL_MONO_H
#define FABTEL_MONO_H

#include <stdbool.h>
#include <stdint.h>

struct mono {
	uint64_t total, last;
	bool primed;
	uint64_t resets;	/* readings taken as a reset, not a wrap */
};

/*
 * Feed one raw reading of a counter that may be 32 bits wide (its width not
 * known); returns the total.  The first reading is the total.
 */
uint64_t mono_update(struct mono *m, uint64_t raw);
/*
 * The same for a counter known to be 64 bits wide (netdev statistics,
 * fabtel.ko's values, which it extends itself): any decrease is a reset.
 */
uint64_t mono_update64(struct mono *m, uint64_t raw);

/*
 * The counter's source changed (fabtel.ko unloaded or loaded, its values
 * now read elsewhere): the next rises count from raw, the total stays.
 */
void mono_rebase(struct mono *m, uint64_t raw);

struct rate {
	uint64_t prev;		/* the total at prev_ns */
	uint64_t prev_ns;	/* CLOCK_MONOTONIC */
	double per_s;		/* valid only when valid */
	bool primed, valid;
};

/*
 * Feed a monotonic total read at now_ns (CLOCK_MONOTONIC).  The rate is over
 * the time since the previous reading.  A reading no later than the previous
 * one (dt = 0) changes nothing; a total lower than the previous one (the
 * counter started over) restarts the rate, which is then not valid until
 * the next reading.
 */
void rate_update(struct rate *r, uint64_t total, uint64_t now_ns);
/*
 * The same reading, when the counter was reset or its source changed in
 * the interval: the rate over it is not known (not valid); the next
 * reading's is.
 */
void rate_forget(struct rate *r, uint64_t total, uint64_t now_ns);

#endif /* FABTEL_MONO_H */
