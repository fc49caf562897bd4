// SPDX-License-Identifier: GPL-2.0
/*
 * bpfmap.c - batched BPF map walks (bpfmap.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "bpfmap.h"

int bpfmap_walk(int fd, size_t ksz, size_t vsz, bpfmap_cb cb, void *ctx)
{
	/*
	 * The batch position: a bucket number (u32) for hash maps, a key for
	 * the kernel's generic batch ops.  Room for either.
	 */
	size_t tsz = ksz > sizeof(uint32_t) ? ksz : sizeof(uint32_t);
	char *keys = calloc(BPFMAP_BATCH, ksz), *vals = calloc(BPFMAP_BATCH, vsz);
	char *in = calloc(1, tsz), *out = calloc(1, tsz);
	bool first = true;
	uint32_t n, i;
	int err, ret = 0;

	if (!keys || !vals || !in || !out) {
		ret = -ENOMEM;
		goto out_free;
	}
	do {
		n = BPFMAP_BATCH;
		/* libbpf 1.x returns the negative errno; -ENOENT: the last batch */
		err = bpf_map_lookup_batch(fd, first ? NULL : in, out, keys, vals, &n, NULL);
		if (err && err != -ENOENT) {
			ret = err;
			break;
		}
		first = false;
		memcpy(in, out, tsz);
		for (i = 0; i < n && !ret; i++)
			ret = cb(keys + (size_t)i * ksz, vals + (size_t)i * vsz, ctx);
	} while (!err && !ret);
out_free:
	free(keys);
	free(vals);
	free(in);
	free(out);
	return ret;
}
