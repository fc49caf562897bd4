// SPDX-License-Identifier: GPL-2.0
/*
 * test_bpfmap - userspace/lib/bpfmap.c against the real kernel: maps made
 * here with bpf(2), filled with known keys, walked.  Each key must come back
 * exactly once with its own value: in a hash map of almost four batches, in
 * an LRU hash (rxe_qp_counts is one; wire_qps a plain hash), in an empty map; a callback's
 * non-zero return stops the walk; a map that cannot be batch-read and a bad
 * fd are errors, not empty walks.  Needs root (or CAP_BPF).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "bpfmap.h"
#include "tap.h"

#define N_BIG	1000	/* almost four batches */

struct seen {
	unsigned int calls, wrong, dup;
	unsigned char hit[N_BIG];
};

/* hash keys k: value k * 7 + 1 */
static int check_hash(const void *k, const void *v, void *ctx)
{
	uint32_t key, val;
	struct seen *s = ctx;

	memcpy(&key, k, sizeof(key));
	memcpy(&val, v, sizeof(val));
	s->calls++;
	if (key >= N_BIG || val != key * 7 + 1) {
		s->wrong++;
		return 0;
	}
	s->dup += s->hit[key]++ > 0;
	return 0;
}

static int stop_at_5(const void *k, const void *v, void *ctx)
{
	unsigned int *calls = ctx;

	(void)k;
	(void)v;
	return ++*calls == 5 ? 42 : 0;
}

static unsigned int missing(const struct seen *s, unsigned int n)
{
	unsigned int i, m = 0;

	for (i = 0; i < n; i++)
		m += !s->hit[i];
	return m;
}

static int fill_hash(enum bpf_map_type type, unsigned int n)
{
	int fd = bpf_map_create(type, "fabtel_test", sizeof(uint32_t), sizeof(uint32_t),
				2 * N_BIG, NULL);
	uint32_t k, v;

	for (k = 0; fd >= 0 && k < n; k++) {
		v = k * 7 + 1;
		if (bpf_map_update_elem(fd, &k, &v, BPF_NOEXIST)) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

int main(void)
{
	static struct seen s;
	unsigned int calls = 0;
	int fd, ret;
	uint32_t v;

	fd = fill_hash(BPF_MAP_TYPE_HASH, N_BIG);
	if (fd < 0) {
		if (errno == EPERM)
			tap_skip_all("creating BPF maps needs root or CAP_BPF");
		printf("# bpf_map_create/update: %s\n", strerror(errno));
	}
	tap_plan(6);

	ret = bpfmap_walk(fd, sizeof(uint32_t), sizeof(uint32_t), check_hash, &s);
	tap_ok(ret == 0 && s.calls == N_BIG && !s.wrong && !s.dup && !missing(&s, N_BIG),
	       "hash of %d entries (batches of %d): each key once, with its value "
	       "(ret %d, calls %u, wrong %u, twice %u, missing %u)", N_BIG, BPFMAP_BATCH,
	       ret, s.calls, s.wrong, s.dup, missing(&s, N_BIG));
	ret = bpfmap_walk(fd, sizeof(uint32_t), sizeof(uint32_t), stop_at_5, &calls);
	tap_ok(ret == 42 && calls == 5,
	       "a callback's non-zero return stops the walk and is returned (ret %d after %u calls)",
	       ret, calls);
	close(fd);

	memset(&s, 0, sizeof(s));
	fd = fill_hash(BPF_MAP_TYPE_LRU_HASH, 300);
	ret = bpfmap_walk(fd, sizeof(uint32_t), sizeof(uint32_t), check_hash, &s);
	tap_ok(fd >= 0 && ret == 0 && s.calls == 300 && !s.wrong && !s.dup && !missing(&s, 300),
	       "LRU hash of 300: each key once (ret %d, calls %u, wrong %u, twice %u, missing %u)",
	       ret, s.calls, s.wrong, s.dup, missing(&s, 300));
	if (fd >= 0)
		close(fd);

	memset(&s, 0, sizeof(s));
	fd = fill_hash(BPF_MAP_TYPE_HASH, 0);
	ret = bpfmap_walk(fd, sizeof(uint32_t), sizeof(uint32_t), check_hash, &s);
	tap_ok(fd >= 0 && ret == 0 && s.calls == 0, "an empty map: no call, 0 (ret %d, calls %u)",
	       ret, s.calls);
	if (fd >= 0)
		close(fd);

	/* a map without batch lookup (a queue has no keys at all): an error */
	memset(&s, 0, sizeof(s));
	fd = bpf_map_create(BPF_MAP_TYPE_QUEUE, "fabtel_queue", 0, sizeof(uint32_t), 16, NULL);
	v = 7;
	if (fd >= 0)
		bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
	ret = bpfmap_walk(fd, 4, sizeof(uint32_t), check_hash, &s);
	tap_ok(fd >= 0 && ret < 0 && s.calls == 0,
	       "a map without batch lookup (a queue holding one value) is an error, "
	       "not an empty walk (%d, calls %u)", ret, s.calls);
	if (fd >= 0)
		close(fd);

	ret = bpfmap_walk(-1, 4, 4, check_hash, &s);
	tap_ok(ret == -EBADF, "a bad map fd is an error, not an empty map (%d)", ret);
	return tap_done();
}
