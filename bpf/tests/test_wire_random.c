// SPDX-License-Identifier: GPL-2.0
/*
 * test_wire_random - the wire TC classifier fed 1,000,000 frames through
 * BPF_PROG_TEST_RUN: half random bytes, half mutations of valid RoCEv2
 * frames (IPv4/IPv6, VLAN tags, AETH, CNP; bytes flipped, fields set to
 * edge values, frames cut short), alternating ingress and egress.  Frames
 * the kernel's test_run cannot carry (see deliverable()) are not made.
 *
 * Checked: every run is accepted, returns TC_ACT_OK and leaves the frame
 * as it was; then the counters agree with each other and with the runs:
 * frames == runs, every frame in exactly one class (rocev2, other,
 * truncated, malformed), the qualifiers (vlan, ipv6, ecn_ce, cnp) within
 * rocev2, and the per-QP packets sum to rocev2 - qp_drops while the map
 * has not filled.  FRAMES=N in the environment changes the count.
 * Needs root (BPF) but no RDMA and no lab.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "tap.h"
#include "wire.h"
#include "xorshift.h"
#include "wire.skel.h"
#include "wire_stats.h"

#define TC_ACT_OK	0
#define FRAME_MAX	1600
#define ETH_MIN		14	/* test_run refuses shorter skb data */

static struct wire_bpf *skel;

static unsigned int below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* A valid RoCEv2 frame, its shape drawn at random; returns its length. */
static size_t template(uint8_t *b)
{
	static const uint8_t opcodes[] = { 0x04, 0x06, 0x07, 0x08, 0x0a, 0x0c, 0x10, 0x11,
					   0x12, 0x81, 0x24, 0x64 };
	unsigned int vlans = below(3), ipv6 = below(2), payload = below(1025);
	uint8_t op = opcodes[below(sizeof(opcodes))];
	bool aeth = op == 0x11 || op == 0x12 || op == 0x10;
	size_t off = 12, udp_len, bth = aeth ? 16 : 12;
	unsigned int i;

	memset(b, 0, FRAME_MAX);
	memset(b, 0x02, 6);
	memset(b + 6, 0x04, 6);
	for (i = 0; i < vlans; i++, off += 4) {
		put16(b + off, i == 0 && vlans == 2 ? 0x88a8 : 0x8100);
		put16(b + off + 2, 100 + i);
	}
	udp_len = 8 + bth + payload + 4;
	if (ipv6) {
		put16(b + off, 0x86dd);
		off += 2;
		b[off] = 0x60 | (uint8_t)(below(4) >> 2);
		b[off + 1] = (uint8_t)(below(4) << 4);	/* ECN */
		put16(b + off + 4, (unsigned int)udp_len);
		b[off + 6] = 17;
		b[off + 7] = 64;
		b[off + 8] = 0xfe; b[off + 9] = 0x80; b[off + 23] = 1;
		b[off + 24] = 0xfe; b[off + 25] = 0x80; b[off + 39] = 2;
		off += 40;
	} else {
		put16(b + off, 0x0800);
		off += 2;
		b[off] = 0x45;
		b[off + 1] = (uint8_t)below(4);		/* ECN */
		put16(b + off + 2, (unsigned int)(20 + udp_len));
		b[off + 8] = 64;
		b[off + 9] = 17;
		b[off + 12] = 10; b[off + 13] = 77; b[off + 15] = 1;
		b[off + 16] = 10; b[off + 17] = 77; b[off + 19] = 2;
		off += 20;
	}
	put16(b + off, 0xc000 | below(0x4000));
	put16(b + off + 2, WIRE_ROCEV2_PORT);
	put16(b + off + 4, (unsigned int)udp_len);
	off += 8;
	b[off] = op;
	put16(b + off + 2, 0xffff);
	b[off + 7] = (uint8_t)below(64);		/* DestQP: a few QPs */
	b[off + 9] = (uint8_t)below(256);		/* PSN */
	b[off + 10] = (uint8_t)below(256);
	b[off + 11] = (uint8_t)below(256);
	if (aeth)
		b[off + 12] = (uint8_t)(below(4) ? 0x00 : 0x20 + below(0x60));
	off += bth;
	for (i = 0; i < payload + 4; i++)
		b[off + i] = (uint8_t)i;
	return off + payload + 4;
}

/*
 * BPF_PROG_TEST_RUN refuses (EINVAL) an skb whose EtherType says IPv4 or
 * IPv6 but that is shorter than that header: such a frame cannot be fed
 * this way (test_wire's truncation cases count those refusals apart).
 */
static size_t deliverable(const uint8_t *b, size_t len)
{
	unsigned int type = (unsigned int)b[12] << 8 | b[13];
	size_t min = type == 0x0800 ? ETH_MIN + 20 : type == 0x86dd ? ETH_MIN + 40 : ETH_MIN;

	return len < min ? min : len;
}

/* A template mutated: bytes flipped or set to edges, maybe cut short. */
static size_t mutated(uint8_t *b)
{
	static const uint8_t edges[] = { 0x00, 0xff, 0x7f, 0x80, 0x01, 0x12, 0xb7, 0x11 };
	size_t len = template(b);
	unsigned int n = 1 + below(6), i, at;

	for (i = 0; i < n; i++) {
		/* mostly in the headers, where the parser looks */
		at = below(4) ? below(len < 96 ? (unsigned int)len : 96) : below((unsigned int)len);
		if (below(2))
			b[at] ^= (uint8_t)(1u << below(8));
		else
			b[at] = edges[below(sizeof(edges))];
	}
	if (!below(4))
		len = deliverable(b, ETH_MIN + below((unsigned int)(len - ETH_MIN + 1)));
	return len;
}

static size_t random_frame(uint8_t *b)
{
	size_t len = ETH_MIN + below(FRAME_MAX - ETH_MIN + 1), i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)rnd();
	/* some with a plausible EtherType, so they get past the first check */
	if (below(2))
		put16(b + 12, below(2) ? 0x0800 : 0x86dd);
	len = deliverable(b, len);
	for (i = 0; i < len; i++)	/* the bytes a longer one needs */
		b[i] = i == 12 || i == 13 ? b[i] : (uint8_t)rnd();
	return len;
}

/* Entries of wire_qps and the sum of their pkts. */
static unsigned int qp_pkts(uint64_t *pkts)
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(skel->maps.wire_qps);
	struct wire_qp_key key, next;
	struct wire_qp_val v[ncpu > 0 ? ncpu : 1];
	unsigned int n = 0;
	void *prev = NULL;
	bool percpu = bpf_map__type(skel->maps.wire_qps) == BPF_MAP_TYPE_LRU_PERCPU_HASH;

	*pkts = 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		n++;
		if (bpf_map_lookup_elem(fd, &key, v))
			continue;
		for (int c = 0; c < (percpu ? ncpu : 1); c++)
			*pkts += v[c].pkts;
	}
	return n;
}

int main(void)
{
	static uint8_t in[FRAME_MAX], out[FRAME_MAX + 256];
	unsigned long frames = 1000000, i, refused = 0, bad_verdict = 0, bad_data = 0;
	uint64_t st[WIRE_NR_STATS], classes, pkts, seed;
	const char *env = getenv("FRAMES");
	struct timespec t0, t1;
	unsigned int entries;
	double secs;
	size_t len;
	int fd[2];

	if (geteuid() != 0)
		tap_skip_all("BPF_PROG_TEST_RUN needs root");
	if (env)
		frames = strtoul(env, NULL, 10);
	seed = getenv("SEED") ? strtoull(getenv("SEED"), NULL, 0) : (uint64_t)time(NULL);
	rng_state = seed ? seed : 1;

	skel = wire_bpf__open_and_load();
	if (!skel) {
		tap_plan(1);
		tap_ok(false, "load wire.bpf.o (errno %d)", errno);
		return 1;
	}
	tap_plan(6);
	printf("# seed %llu (SEED=%llu reproduces), %lu frames\n", (unsigned long long)seed,
	       (unsigned long long)seed, frames);
	fd[0] = bpf_program__fd(skel->progs.wire_ingress);
	fd[1] = bpf_program__fd(skel->progs.wire_egress);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < frames; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in, .data_out = out,
			    .data_size_out = sizeof(out), .repeat = 1);

		len = i % 2 ? mutated(in) : random_frame(in);
		opts.data_size_in = (uint32_t)len;
		if (bpf_prog_test_run_opts(fd[(i / 2) % 2], &opts)) {
			if (refused++ < 12)
				printf("# refused: %lu bytes, errno %d, %s, ethertype 0x%02x%02x, dst %02x\n", (unsigned long)len, errno, i % 2 ? "mutated" : "random", in[12], in[13], in[0]);
			continue;
		}
		if (opts.retval != TC_ACT_OK)
			bad_verdict++;
		if (opts.data_size_out != len || memcmp(in, out, len))
			bad_data++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# %lu runs in %.1f s (%.2f us a run, syscall included)\n", frames, secs,
	       secs * 1e6 / (double)(frames ? frames : 1));

	tap_ok(refused == 0, "every one of %lu frames accepted by BPF_PROG_TEST_RUN (%lu refused)",
	       frames, refused);
	tap_ok(bad_verdict == 0 && bad_data == 0,
	       "every run TC_ACT_OK with the frame unchanged (%lu other verdicts, %lu changed)",
	       bad_verdict, bad_data);
	if (wire_stats_read(skel, st)) {
		tap_ok(false, "read wire_stats");
		wire_bpf__destroy(skel);
		return tap_done();
	}
	printf("# frames %llu: rocev2 %llu other %llu truncated %llu malformed %llu; "
	       "vlan %llu ipv6 %llu ecn_ce %llu cnp %llu qp_drops %llu\n",
	       (unsigned long long)st[WIRE_FRAMES], (unsigned long long)st[WIRE_ROCEV2],
	       (unsigned long long)st[WIRE_OTHER], (unsigned long long)st[WIRE_TRUNCATED],
	       (unsigned long long)st[WIRE_MALFORMED], (unsigned long long)st[WIRE_VLAN],
	       (unsigned long long)st[WIRE_IPV6], (unsigned long long)st[WIRE_ECN_CE],
	       (unsigned long long)st[WIRE_CNP], (unsigned long long)st[WIRE_QP_DROPS]);
	tap_ok(st[WIRE_FRAMES] == frames - refused, "frames counted %llu == runs %lu",
	       (unsigned long long)st[WIRE_FRAMES], frames - refused);
	classes = st[WIRE_ROCEV2] + st[WIRE_OTHER] + st[WIRE_TRUNCATED] + st[WIRE_MALFORMED];
	tap_ok(classes == st[WIRE_FRAMES] && st[WIRE_ROCEV2] && st[WIRE_OTHER] &&
	       st[WIRE_TRUNCATED] && st[WIRE_MALFORMED],
	       "each frame in exactly one class (sum %llu), every class reached",
	       (unsigned long long)classes);
	tap_ok(st[WIRE_VLAN] <= st[WIRE_ROCEV2] && st[WIRE_IPV6] <= st[WIRE_ROCEV2] &&
	       st[WIRE_ECN_CE] <= st[WIRE_ROCEV2] && st[WIRE_CNP] <= st[WIRE_ROCEV2] &&
	       st[WIRE_QP_DROPS] <= st[WIRE_ROCEV2] && st[WIRE_VLAN] && st[WIRE_IPV6] &&
	       st[WIRE_ECN_CE] && st[WIRE_CNP],
	       "vlan, ipv6, ecn_ce, cnp, qp_drops within rocev2 (and each seen)");
	entries = qp_pkts(&pkts);
	if (entries < WIRE_QP_MAX_ENTRIES / 2)
		tap_ok(pkts == st[WIRE_ROCEV2] - st[WIRE_QP_DROPS],
		       "per-QP pkts over %u entries %llu == rocev2 - qp_drops %llu", entries,
		       (unsigned long long)pkts,
		       (unsigned long long)(st[WIRE_ROCEV2] - st[WIRE_QP_DROPS]));
	else
		tap_ok(pkts <= st[WIRE_ROCEV2] - st[WIRE_QP_DROPS],
		       "per-QP pkts %llu <= rocev2 - qp_drops (the map filled: %u entries)",
		       (unsigned long long)pkts, entries);
	wire_bpf__destroy(skel);
	return tap_done();
}
