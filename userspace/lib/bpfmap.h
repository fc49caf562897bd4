/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpfmap.h - walk a BPF hash map (plain or LRU) entry by entry, many entries
 * per system call.
 *
 * fabteld walks its per-QP maps every pass; one bpf(2) call per key and one
 * per value (get_next_key + lookup) made a thousand QPs cost a few thousand
 * calls a second.  bpfmap_walk() reads BPFMAP_BATCH entries per call with
 * BPF_MAP_LOOKUP_BATCH (hash maps have it since 5.6; fabtel needs 6.1).  A
 * map without batch lookup is an error (-EINVAL or the kernel's -ENOTSUPP,
 * 524), never an empty walk.  Entries added or deleted while the walk runs
 * may or may not be seen.
 */
#ifndef FABTEL_BPFMAP_H
#define FABTEL_BPFMAP_H

#include <stddef.h>

#define BPFMAP_BATCH	256

/* cb returns 0 to go on, anything else to stop the walk (returned as is) */
typedef int (*bpfmap_cb)(const void *key, const void *val, void *ctx);

/*
 * Calls cb for each entry of the map fd (keys ksz, values vsz bytes).
 * Returns 0, cb's non-zero value, or a negative errno (-ENOMEM; a failed
 * batch lookup, e.g. -EBADF).
 */
int bpfmap_walk(int fd, size_t ksz, size_t vsz, bpfmap_cb cb, void *ctx);

#endif /* FABTEL_BPFMAP_H */
