// SPDX-License-Identifier: GPL-2.0
/*
 * bench_wire - make bench: the wire TC classifier's cost per packet, per
 * packet kind, against an empty TC program (empty.bpf.c) on the same frame.
 * BPF_PROG_TEST_RUN with repeat runs the program REPEAT times in the kernel
 * and reports the mean ns per run; each figure is the median of TRIALS such
 * runs.  The difference is what the parser adds; the empty program's figure
 * is test_run's own overhead.  Needs root.  Not a test (Documentation/
 * performance.rst).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "wire.h"
#include "wire.skel.h"
#include "empty.skel.h"

#define REPEAT		1000000
#define TRIALS		5
#define FRAME_MAX	1600

struct kind {
	const char *name;
	int vlan, ipv6, dport, opcode, aeth, syndrome, cut;
	size_t payload;
};

static const struct kind kinds[] = {
	{ "rocev2 write, ipv4",       0, 0, 4791, 0x0a, 0, 0,    0, 1024 },
	{ "rocev2 write, vlan+ipv4",  1, 0, 4791, 0x0a, 0, 0,    0, 1024 },
	{ "rocev2 write, ipv6",       0, 1, 4791, 0x0a, 0, 0,    0, 1024 },
	{ "rocev2 ack (aeth)",        0, 0, 4791, 0x11, 1, 0x00, 0, 0 },
	{ "rocev2 nak psn-seq",       0, 0, 4791, 0x11, 1, 0x60, 0, 0 },
	{ "rocev2 cnp",               0, 0, 4791, 0x81, 0, 0,    0, 16 },
	{ "udp, not rocev2",          0, 0, 53,   0x00, 0, 0,    0, 64 },
	{ "truncated bth",            0, 0, 4791, 0x0a, 0, 0,    1, 0 },
	{ "arp",                     -1, 0, 0,    0x00, 0, 0,    0, 0 },
};

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static size_t build(const struct kind *k, uint8_t *b)
{
	size_t off = 12, bth = k->aeth ? 16 : 12, udp_len;

	memset(b, 0, FRAME_MAX);
	memset(b, 0x02, 6);
	memset(b + 6, 0x04, 6);
	if (k->vlan < 0) {			/* ARP request */
		put16(b + 12, 0x0806);
		put16(b + 14, 1);
		put16(b + 16, 0x0800);
		b[18] = 6;
		b[19] = 4;
		put16(b + 20, 1);
		return 14 + 28;
	}
	if (k->vlan) {
		put16(b + off, 0x8100);
		put16(b + off + 2, 100);
		off += 4;
	}
	udp_len = 8 + bth + k->payload + 4;
	if (k->ipv6) {
		put16(b + off, 0x86dd);
		off += 2;
		b[off] = 0x60;
		put16(b + off + 4, (unsigned int)udp_len);
		b[off + 6] = 17;
		b[off + 7] = 64;
		off += 40;
	} else {
		put16(b + off, 0x0800);
		off += 2;
		b[off] = 0x45;
		put16(b + off + 2, (unsigned int)(20 + udp_len));
		b[off + 8] = 64;
		b[off + 9] = 17;
		off += 20;
	}
	put16(b + off, 0xc011);
	put16(b + off + 2, (unsigned int)k->dport);
	put16(b + off + 4, (unsigned int)udp_len);
	off += 8;
	if (k->cut)
		return off + 6;			/* inside the BTH */
	b[off] = (uint8_t)k->opcode;
	put16(b + off + 2, 0xffff);
	b[off + 7] = 17;			/* DestQP 17 */
	b[off + 11] = 1;			/* PSN 1 */
	if (k->aeth)
		b[off + 12] = (uint8_t)k->syndrome;
	return off + bth + k->payload + 4;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Median over TRIALS of the mean ns per run; UINT32_MAX if refused. */
static uint32_t ns_per_run(int fd, const uint8_t *frame, size_t len)
{
	uint32_t t[TRIALS];
	int i;

	for (i = 0; i < TRIALS; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
			    .data_size_in = (uint32_t)len, .repeat = REPEAT);

		if (bpf_prog_test_run_opts(fd, &opts))
			return UINT32_MAX;
		t[i] = opts.duration;
	}
	qsort(t, TRIALS, sizeof(t[0]), cmp_u32);
	return t[TRIALS / 2];
}

int main(void)
{
	static uint8_t frame[FRAME_MAX];
	struct empty_bpf *empty;
	struct wire_bpf *wire;
	int wfd, efd, rc = 0;
	uint32_t w, e;
	size_t len, i;

	if (geteuid() != 0) {
		fprintf(stderr, "bench_wire: BPF_PROG_TEST_RUN needs root\n");
		return 4;
	}
	wire = wire_bpf__open_and_load();
	empty = empty_bpf__open_and_load();
	if (!wire || !empty) {
		fprintf(stderr, "bench_wire: cannot load the programs (errno %d)\n", errno);
		return 1;
	}
	wfd = bpf_program__fd(wire->progs.wire_ingress);
	efd = bpf_program__fd(empty->progs.empty_tc);
	printf("wire: ns per packet, median of %d x %d runs (BPF_PROG_TEST_RUN repeat)\n",
	       TRIALS, REPEAT);
	printf("%-26s %6s %8s %8s %9s\n", "kind", "bytes", "empty", "wire", "wire-empty");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		len = build(&kinds[i], frame);
		e = ns_per_run(efd, frame, len);
		w = ns_per_run(wfd, frame, len);
		if (e == UINT32_MAX || w == UINT32_MAX) {
			printf("%-26s %6zu  refused (errno %d)\n", kinds[i].name, len, errno);
			rc = 1;
			continue;
		}
		printf("%-26s %6zu %8u %8u %9d\n", kinds[i].name, len, e, w, (int)w - (int)e);
	}
	wire_bpf__destroy(wire);
	empty_bpf__destroy(empty);
	return rc;
}
