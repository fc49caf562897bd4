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
		qsort(dead_now, n, sizeof(*dead_now), cmp_u64);
	}
	for (i = 0; i < n; i++) {
		if (i && dead_now[i] == dead_now[i - 1])
			continue;
		if (p->nr_dead && bsearch(&dead_now[i], p->dead, p->nr_dead,
					  sizeof(*p->dead), cmp_u64))
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
