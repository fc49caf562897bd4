// SPDX-License-Identifier: GPL-2.0
/*
 * prune.c - entries dead in two passes in a row (prune.h).
 */
#include <stdlib.h>
#include <string.h>

#include "prune.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void prune_sort(uint64_t *keys, size_t n)
{
	if (n)
		qsort(keys, n, sizeof(*keys), cmp_u64);
}

bool prune_has(const uint64_t *sorted, size_t n, uint64_t key)
{
	return n && bsearch(&key, sorted, n, sizeof(*sorted), cmp_u64);
}

long prune_step(struct prune *p, uint64_t *dead_now, size_t n, uint64_t *out)
{
	uint64_t *keep = NULL;
	size_t i, nk = 0, no = 0;

	if (n) {
		keep = malloc(n * sizeof(*keep));
		if (!keep) {
			prune_forget(p);
			return -1;
		}
		prune_sort(dead_now, n);
	}
	for (i = 0; i < n; i++) {
		if (i && dead_now[i] == dead_now[i - 1])
			continue;
		if (prune_has(p->dead, p->nr_dead, dead_now[i]))
			out[no++] = dead_now[i];
		else
			keep[nk++] = dead_now[i];	/* sorted, as dead_now is */
	}
	free(p->dead);
	p->dead = keep;
	p->nr_dead = nk;
	p->removed += no;
	return (long)no;
}

void prune_forget(struct prune *p)
{
	free(p->dead);
	p->dead = NULL;
	p->nr_dead = 0;
}

void prune_free(struct prune *p)
{
	prune_forget(p);
}
