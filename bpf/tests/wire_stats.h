/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire_stats.h - for the wire program's tests: its global counters (the
 * per-CPU wire_stats map) summed over CPUs, indexed by enum wire_stat.
 * Include after wire.h and wire.skel.h.  0, or -1 if a lookup failed.
 */
#ifndef FABTEL_WIRE_STATS_H
#define FABTEL_WIRE_STATS_H

static inline int wire_stats_read(const struct wire_bpf *s, uint64_t out[WIRE_NR_STATS])
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(s->maps.wire_stats);
	uint64_t vals[ncpu > 0 ? ncpu : 1];

	for (uint32_t k = 0; k < WIRE_NR_STATS; k++) {
		if (ncpu <= 0 || bpf_map_lookup_elem(fd, &k, vals))
			return -1;
		out[k] = 0;
		for (int c = 0; c < ncpu; c++)
			out[k] += vals[c];
	}
	return 0;
}

#endif /* FABTEL_WIRE_STATS_H */
