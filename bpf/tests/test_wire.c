// SPDX-License-Identifier: GPL-2.0
/*
 * test_wire - runs the wire TC classifier on crafted frames with
 * BPF_PROG_TEST_RUN on the build host and checks its counters and its
 * verdict.  Needs root (BPF) but no RDMA and no lab.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "tap.h"
#include "wire.h"
#include "wire.skel.h"

#define TC_ACT_OK 0

struct frame {
	uint8_t b[128];
	size_t len;
};

/* Untagged IPv4/UDP frame to dport with a zeroed 12-byte payload (a BTH). */
static struct frame udp4(uint16_t dport)
{
	struct frame f = { .len = 14 + 20 + 8 + 12 };
	uint8_t *p = f.b;

	memset(p, 0x11, 12);			/* dst, src MAC */
	p[12] = 0x08; p[13] = 0x00;		/* IPv4 */
	p += 14;
	p[0] = 0x45;				/* v4, ihl 5 */
	p[2] = 0; p[3] = 20 + 8 + 12;		/* total length */
	p[8] = 64;				/* ttl */
	p[9] = 17;				/* UDP */
	p += 20;
	p[0] = 0xc0; p[1] = 0x00;		/* sport 49152 */
	p[2] = dport >> 8; p[3] = dport & 0xff;
	p[5] = 8 + 12;				/* UDP length */
	return f;
}

static int run(struct wire_bpf *skel, const struct frame *f, uint32_t *verdict)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = f->b,
		.data_size_in = f->len,
		.repeat = 1,
	);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.wire_classify), &opts);
	*verdict = opts.retval;
	return err;
}

static int read_stats(struct wire_bpf *skel, uint64_t out[WIRE_NR_STATS])
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(skel->maps.wire_stats);
	uint64_t vals[ncpu > 0 ? ncpu : 1];

	if (ncpu <= 0)
		return -1;
	for (uint32_t k = 0; k < WIRE_NR_STATS; k++) {
		if (bpf_map_lookup_elem(fd, &k, vals))
			return -1;
		out[k] = 0;
		for (int c = 0; c < ncpu; c++)
			out[k] += vals[c];
	}
	return 0;
}

int main(void)
{
	uint64_t before[WIRE_NR_STATS], after[WIRE_NR_STATS];
	struct frame roce = udp4(4791), dns = udp4(53), cut;
	struct wire_bpf *skel;
	uint32_t verdict = UINT32_MAX;
	size_t n, truncs = 0, refused = 0;
	bool verdicts_ok = true;
	int err;

	if (geteuid() != 0)
		tap_skip_all("BPF_PROG_TEST_RUN needs root");

	skel = wire_bpf__open_and_load();
	if (!skel) {
		tap_plan(1);
		tap_ok(false, "load wire.bpf.o (errno %d)", errno);
		return 1;
	}
	tap_plan(5);
	tap_ok(true, "wire.bpf.o loads and passes the verifier");

	read_stats(skel, before);
	err = run(skel, &roce, &verdict);
	tap_ok(!err && verdict == TC_ACT_OK,
	       "RoCEv2 frame runs (%d), verdict TC_ACT_OK (%u)", err, verdict);
	run(skel, &dns, &verdict);
	verdicts_ok &= verdict == TC_ACT_OK;
	/* every cut inside the Ethernet, IPv4, UDP headers and the BTH */
	for (n = 1; n < roce.len; n++) {
		cut = roce;
		cut.len = n;
		/*
		 * test_run refuses frames shorter than ETH_HLEN, and newer
		 * kernels also IPv4 frames without a whole IP header (-EINVAL):
		 * those never reach the program, so only delivered ones count.
		 */
		if (run(skel, &cut, &verdict)) {
			refused++;
			continue;
		}
		verdicts_ok &= verdict == TC_ACT_OK;
		truncs++;
	}
	read_stats(skel, after);

	tap_ok(after[WIRE_ROCEV2] - before[WIRE_ROCEV2] == 1,
	       "one RoCEv2 frame counted (got %llu)",
	       (unsigned long long)(after[WIRE_ROCEV2] - before[WIRE_ROCEV2]));
	tap_ok(after[WIRE_OTHER] - before[WIRE_OTHER] == 1,
	       "UDP/53 counted as other (got %llu)",
	       (unsigned long long)(after[WIRE_OTHER] - before[WIRE_OTHER]));
	/* cuts inside the UDP header and the BTH are always delivered */
	tap_ok(truncs >= 8 + 12 &&
	       after[WIRE_TRUNCATED] - before[WIRE_TRUNCATED] == truncs && verdicts_ok,
	       "each of %zu delivered truncations counted as truncated (got %llu; %zu refused by the kernel), all TC_ACT_OK",
	       truncs, (unsigned long long)(after[WIRE_TRUNCATED] - before[WIRE_TRUNCATED]),
	       refused);

	wire_bpf__destroy(skel);
	return tap_done();
}
