/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prune.h - which BPF map entries belong to QPs that are gone.
 *
 * The rxe and wire programs key their per-QP counts by QP number and
 * never learn of a QP's end, so their maps keep an entry for every QP that
 * ever had an event or a packet.  Left alone they fill (both are LRU, 16384
 * entries), crowd live QPs out of fabteld's walk, and hand a dead QP's counts
 * to the next QP that gets its number.  fabteld therefore deletes the
 * entries of QPs that RDMA netlink no longer lists.
 *
 * A QP created between the netlink dump and the map walk would look dead
 * for one pass, so an entry goes only when it is dead in two passes in a
 * row.  The caller says which keys it saw dead this pass; prune_step()
 * returns those that were dead the pass before as well, and remembers the
 * rest for the next pass.  Keys are opaque 64-bit values.
 */
#ifndef FABTEL_PRUNE_H
#define FABTEL_PRUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct prune {
	uint64_t *dead;		/* seen dead once, sorted */
	size_t nr_dead;
	uint64_t removed;	/* entries the caller was told to delete, ever */
};

/*
 * dead_now: the keys seen dead this pass (any order, may repeat; sorted in
 * place).  Writes the keys to delete to out (room for n) and returns how
 * many; -1 (and nothing remembered, nothing to delete) if out of memory.
 */
long prune_step(struct prune *p, uint64_t *dead_now, size_t n, uint64_t *out);

/* A set of keys to look up: sort it once, then ask prune_has() (bsearch). */
void prune_sort(uint64_t *keys, size_t n);
bool prune_has(const uint64_t *sorted, size_t n, uint64_t key);

/* Forget everything remembered (e.g. when the source is unreliable). */
void prune_forget(struct prune *p);
void prune_free(struct prune *p);

#endif /* FABTEL_PRUNE_H */
