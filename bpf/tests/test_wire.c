// SPDX-License-Identifier: GPL-2.0
/*
 * test_wire - runs the wire TC classifier (wire_ingress, wire_egress) on
 * frames crafted here with BPF_PROG_TEST_RUN and checks, case by case, the
 * exact global and per-QP counters read back from its maps (both maps are
 * cleared before each case), the verdict (always TC_ACT_OK) and that the
 * frame comes out byte for byte as it went in.  The expected numbers come
 * from the frames themselves (lengths, PSNs, syndromes), not from the
 * program.  Needs root (BPF) but no RDMA and no lab.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "tap.h"
#include "wire.h"
#include "wire.skel.h"
#include "wire_stats.h"
#include "wire_frame.h"

#define TC_ACT_OK	0
static struct wire_bpf *skel;
static int ifindex_lo;
static unsigned int n_runs, n_refused, n_bad_verdict, n_bad_data;
static char why[2048];		/* what the current case found wrong */
static size_t why_len;

__attribute__((format(printf, 1, 2)))
static void whyf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (why_len >= sizeof(why) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(why + why_len, sizeof(why) - why_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		why_len += (size_t)n;
	if (why_len > sizeof(why) - 1)
		why_len = sizeof(why) - 1;
}

/* -1: refused by the kernel; else the verdict was checked */
static int run(int prog_fd, const struct frame *f)
{
	uint8_t out[FRAME_MAX + 256];
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = f->b,
		.data_size_in = f->len,
		.data_out = out,
		.data_size_out = sizeof(out),
		.repeat = 1,
	);

	if (bpf_prog_test_run_opts(prog_fd, &opts)) {
		n_refused++;
		return -1;
	}
	n_runs++;
	if (opts.retval != TC_ACT_OK)
		n_bad_verdict++;
	if (opts.data_size_out != f->len || memcmp(out, f->b, f->len))
		n_bad_data++;
	return 0;
}

static int prog_fd(int dir)
{
	return bpf_program__fd(dir == WIRE_DIR_EGRESS ? skel->progs.wire_egress :
			       skel->progs.wire_ingress);
}

/* a frame that must reach the program; the frame's length for byte counts */
static size_t feed(int dir, const struct spec *s)
{
	struct frame f = build(s);

	if (run(prog_fd(dir), &f))
		whyf(" refused: opcode 0x%02x psn %u", s->opcode, s->psn);
	return f.len;
}

#define FEED(dir, ...) feed(dir, &(struct spec){ __VA_ARGS__ })

static void reset_maps(void)
{
	int ncpu = libbpf_num_possible_cpus();
	int fd = bpf_map__fd(skel->maps.wire_stats);
	uint64_t zero[ncpu > 0 ? ncpu : 1];
	struct wire_qp_key key;

	memset(zero, 0, sizeof(zero));
	for (uint32_t k = 0; k < WIRE_NR_STATS; k++)
		bpf_map_update_elem(fd, &k, zero, BPF_ANY);
	fd = bpf_map__fd(skel->maps.wire_qps);
	while (!bpf_map_get_next_key(fd, NULL, &key))
		if (bpf_map_delete_elem(fd, &key))
			break;
}

static unsigned int qp_entries(void)
{
	int fd = bpf_map__fd(skel->maps.wire_qps);
	struct wire_qp_key key, next;
	unsigned int n = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		n++;
	}
	return n;
}


static const char *const stat_names[WIRE_NR_STATS] = {
	[WIRE_FRAMES] = "frames", [WIRE_ROCEV2] = "rocev2",
	[WIRE_OTHER] = "other", [WIRE_TRUNCATED] = "truncated",
	[WIRE_MALFORMED] = "malformed", [WIRE_VLAN] = "vlan",
	[WIRE_IPV6] = "ipv6", [WIRE_ECN_CE] = "ecn_ce", [WIRE_CNP] = "cnp",
	[WIRE_QP_DROPS] = "qp_drops",
	[WIRE_QP_UNKNOWN] = "qp_unknown",
};

/* the global counters equal want[], all of them */
static void expect_stats(const uint64_t want[WIRE_NR_STATS])
{
	uint64_t got[WIRE_NR_STATS];

	if (wire_stats_read(skel, got)) {
		whyf(" cannot read wire_stats");
		return;
	}
	for (int i = 0; i < WIRE_NR_STATS; i++)
		if (got[i] != want[i])
			whyf(" %s=%llu(want %llu)", stat_names[i],
			     (unsigned long long)got[i], (unsigned long long)want[i]);
}

#define STATS(...) expect_stats((const uint64_t[WIRE_NR_STATS]){ __VA_ARGS__ })

#define DIFF(f) do {							\
	if (got.f != want->f)						\
		whyf(" qp%#x/%d " #f "=%llu(want %llu)", qpn, dir,	\
		     (unsigned long long)got.f, (unsigned long long)want->f); \
} while (0)

/* the entry (lo, qpn, dir) equals *want; expected_psn only if psn_valid */
static void expect_qp(uint32_t qpn, int dir, const struct wire_qp_val *want)
{
	struct wire_qp_key key = { .ifindex = ifindex_lo, .qpn = qpn, .dir = dir };
	struct wire_qp_val got;

	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.wire_qps), &key, &got)) {
		whyf(" qp%#x/%d: no entry", qpn, dir);
		return;
	}
	DIFF(pkts); DIFF(bytes); DIFF(oos); DIFF(dup);
	DIFF(naks[0]); DIFF(naks[1]); DIFF(naks[2]); DIFF(naks[3]); DIFF(naks[4]);
	DIFF(rnr_naks); DIFF(acks); DIFF(cnps); DIFF(ecn_ce); DIFF(psn_valid);
	if (want->psn_valid)
		DIFF(expected_psn);
}

#define QP(qpn, dir, ...) expect_qp(qpn, dir, &(struct wire_qp_val){ __VA_ARGS__ })

static void expect_entries(unsigned int want)
{
	unsigned int got = qp_entries();

	if (got != want)
		whyf(" qp entries=%u(want %u)", got, want);
}

/* one TAP line per case: ok if nothing was found wrong */
static void verdict(const char *desc)
{
	tap_ok(why_len == 0, "%s%s", desc, why);
	why_len = 0;
	why[0] = '\0';
}

enum { IN = WIRE_DIR_INGRESS, OUT = WIRE_DIR_EGRESS };

/* 1: WRITE FIRST, MIDDLE, LAST, ONLY on one QP, through both programs */
static void case_write_stream(void)
{
	uint64_t bytes = 0;
	int dir;

	reset_maps();
	for (dir = IN; dir <= OUT; dir++) {
		/* RETH (16 bytes) in FIRST and ONLY, then the data */
		bytes = FEED(dir, .opcode = WRITE_FIRST, .qpn = 0x11, .psn = 100,
			     .payload = 16 + 1024);
		bytes += FEED(dir, .opcode = WRITE_MIDDLE, .qpn = 0x11, .psn = 101,
			      .payload = 1024);
		bytes += FEED(dir, .opcode = WRITE_LAST, .qpn = 0x11, .psn = 102,
			      .payload = 512);
		bytes += FEED(dir, .opcode = WRITE_ONLY, .qpn = 0x11, .psn = 103,
			      .payload = 16 + 64);
	}
	for (dir = IN; dir <= OUT; dir++)
		QP(0x11, dir, .pkts = 4, .bytes = bytes, .psn_valid = 1, .expected_psn = 104);
	expect_entries(2);
	STATS([WIRE_FRAMES] = 8, [WIRE_ROCEV2] = 8);
	verdict("in-order RC WRITE FIRST/MIDDLE/LAST/ONLY, ingress and egress: 4 pkts, exact bytes, oos 0, dup 0 on each direction's entry");
}

/* 2: PSNs 1, 2, 4 then 3 */
static void case_gap(void)
{
	uint64_t len = 0;
	uint32_t psn[] = { 1, 2, 4 };

	reset_maps();
	for (int i = 0; i < 3; i++)
		len = FEED(IN, .opcode = SEND_ONLY, .qpn = 0x12, .psn = psn[i], .payload = 32);
	QP(0x12, IN, .pkts = 3, .bytes = 3 * len, .oos = 1, .psn_valid = 1, .expected_psn = 5);
	FEED(IN, .opcode = SEND_ONLY, .qpn = 0x12, .psn = 3, .payload = 32);
	QP(0x12, IN, .pkts = 4, .bytes = 4 * len, .oos = 1, .dup = 1, .psn_valid = 1,
	   .expected_psn = 5);
	STATS([WIRE_FRAMES] = 4, [WIRE_ROCEV2] = 4);
	verdict("PSN 1,2,4: oos 1, expected 5; then 3 (behind): dup 1, expected stays 5");
}

/* 3: the 24-bit wrap, and the edges of "ahead" and "behind" */
static void case_wrap(void)
{
	uint32_t psn[] = { 0xfffffe, 0xffffff, 0, 1 };
	uint64_t len = 0;

	reset_maps();
	for (int i = 0; i < 4; i++)
		len = FEED(IN, .opcode = WRITE_ONLY, .qpn = 0x13, .psn = psn[i]);
	QP(0x13, IN, .pkts = 4, .bytes = 4 * len, .psn_valid = 1, .expected_psn = 2);
	FEED(IN, .opcode = WRITE_ONLY, .qpn = 0x13, .psn = 0xffffff);
	QP(0x13, IN, .pkts = 5, .bytes = 5 * len, .dup = 1, .psn_valid = 1, .expected_psn = 2);
	FEED(OUT, .opcode = WRITE_ONLY, .qpn = 0x15, .psn = 5);
	FEED(OUT, .opcode = WRITE_ONLY, .qpn = 0x15, .psn = 6 + 0x7fffff);
	FEED(OUT, .opcode = WRITE_ONLY, .qpn = 0x15, .psn = 6);
	QP(0x15, OUT, .pkts = 3, .bytes = 3 * len, .oos = 1, .dup = 1, .psn_valid = 1,
	   .expected_psn = 0x800006);
	STATS([WIRE_FRAMES] = 8, [WIRE_ROCEV2] = 8);
	verdict("PSN 0xfffffe,0xffffff,0,1 in sequence (expected 2); 0xffffff after it is dup; 0x7fffff ahead is oos, 0x800000 behind is dup");
}

/* READ REQUEST: its responses take PSNs the wire does not announce */
static void case_read_request(void)
{
	uint64_t len_w, len_r, len_s;

	reset_maps();
	len_w = FEED(IN, .opcode = WRITE_ONLY, .qpn = 0x16, .psn = 10, .payload = 16);
	len_r = FEED(IN, .opcode = READ_REQ, .qpn = 0x16, .psn = 11, .payload = 16);
	QP(0x16, IN, .pkts = 2, .bytes = len_w + len_r, .psn_valid = 0);
	len_s = FEED(IN, .opcode = SEND_ONLY, .qpn = 0x16, .psn = 15);	/* 4 responses */
	FEED(IN, .opcode = SEND_ONLY, .qpn = 0x16, .psn = 17);
	QP(0x16, IN, .pkts = 4, .bytes = len_w + len_r + 2 * len_s, .oos = 1, .psn_valid = 1,
	   .expected_psn = 18);
	STATS([WIRE_FRAMES] = 4, [WIRE_ROCEV2] = 4);
	verdict("READ REQUEST leaves the PSN state invalid; the next request resyncs without oos; later gaps count again");
}

/* 4: NAK codes, RNR NAK, ACKs, and an AETH on a read response */
static void case_aeth(void)
{
	uint64_t len;
	int i;

	reset_maps();
	len = FEED(IN, .opcode = ACK, .qpn = 0x21, .psn = 7, .aeth = 1, .syndrome = 0x60);
	QP(0x21, IN, .pkts = 1, .bytes = len, .naks = { 1 });
	for (i = 1; i < WIRE_NR_NAKS; i++)
		FEED(IN, .opcode = ACK, .qpn = 0x21, .psn = 7, .aeth = 1, .syndrome = 0x60 + i);
	FEED(IN, .opcode = ACK, .qpn = 0x21, .psn = 7, .aeth = 1, .syndrome = 0x20 | 0x0e);
	FEED(IN, .opcode = ACK, .qpn = 0x21, .psn = 8, .aeth = 1, .syndrome = 0x1f);
	FEED(IN, .opcode = ATOMIC_ACK, .qpn = 0x21, .psn = 9, .aeth = 1, .syndrome = 0x00,
	     .payload = 8);
	FEED(IN, .opcode = READ_RESP_ONLY, .qpn = 0x21, .psn = 10, .aeth = 1,
	     .syndrome = 0x1f, .payload = 64);
	QP(0x21, IN, .pkts = 9,
	   .bytes = 7 * len + (len + 8) + (len + 64),
	   .naks = { 1, 1, 1, 1, 1 }, .rnr_naks = 1, .acks = 2);
	expect_entries(1);
	STATS([WIRE_FRAMES] = 9, [WIRE_ROCEV2] = 9);
	verdict("AETH: NAK 0x60 -> naks[0]; 0x61..0x64 -> naks[1..4]; RNR NAK 0x2e -> rnr_naks; ACK and ATOMIC ACK -> acks 2; READ RESPONSE ONLY's AETH not an ack; no PSN state");
}

/* 5: CNP */
static void case_cnp(void)
{
	uint64_t len;

	reset_maps();
	len = FEED(IN, .opcode = CNP, .qpn = 0x31, .payload = 16);
	QP(0x31, IN, .pkts = 1, .bytes = len, .cnps = 1);
	STATS([WIRE_FRAMES] = 1, [WIRE_ROCEV2] = 1, [WIRE_CNP] = 1);
	verdict("CNP (opcode 0x81): cnps 1 on its DestQP, global cnp 1");
}

/* 6, 7: ECN over IPv4 and IPv6, IPv6 parsing */
static void case_ecn_ipv6(void)
{
	uint64_t l4, l6;

	reset_maps();
	l4 = FEED(IN, .opcode = SEND_ONLY, .qpn = 0x41, .psn = 1, .ecn = 3);
	FEED(IN, .opcode = SEND_ONLY, .qpn = 0x41, .psn = 2, .ecn = 2);
	FEED(IN, .opcode = SEND_ONLY, .qpn = 0x41, .psn = 3, .ecn = 1);
	l6 = FEED(IN, .opcode = SEND_ONLY, .qpn = 0x42, .psn = 1, .ipv6 = 1, .ecn = 3);
	FEED(IN, .opcode = SEND_ONLY, .qpn = 0x42, .psn = 2, .ipv6 = 1, .ecn = 2);
	QP(0x41, IN, .pkts = 3, .bytes = 3 * l4, .ecn_ce = 1, .psn_valid = 1, .expected_psn = 4);
	QP(0x42, IN, .pkts = 2, .bytes = 2 * l6, .ecn_ce = 1, .psn_valid = 1, .expected_psn = 3);
	if (l6 != l4 + 20)
		whyf(" IPv6 frame %llu bytes, IPv4 %llu", (unsigned long long)l6,
		     (unsigned long long)l4);
	STATS([WIRE_FRAMES] = 5, [WIRE_ROCEV2] = 5, [WIRE_IPV6] = 2, [WIRE_ECN_CE] = 2);
	verdict("ECN CE in IPv4 tos and IPv6 traffic class -> ecn_ce (ECT(0)/ECT(1) not); IPv6 RoCEv2 parsed, global ipv6 2");
}

/* 8: 802.1Q, QinQ, a third tag */
static void case_vlan(void)
{
	uint64_t l1, l2, l6;

	reset_maps();
	l1 = FEED(IN, .tpid = { ETH_P_8021Q }, .opcode = SEND_ONLY, .qpn = 0x51, .psn = 1);
	l2 = FEED(IN, .tpid = { ETH_P_8021AD, ETH_P_8021Q }, .opcode = SEND_ONLY,
		  .qpn = 0x51, .psn = 2);
	l6 = FEED(IN, .tpid = { ETH_P_8021Q }, .ipv6 = 1, .opcode = SEND_ONLY, .qpn = 0x51,
		  .psn = 3);
	FEED(IN, .tpid = { ETH_P_8021AD, ETH_P_8021Q, ETH_P_8021Q }, .opcode = SEND_ONLY,
	     .qpn = 0x51, .psn = 4);
	QP(0x51, IN, .pkts = 3, .bytes = l1 + l2 + l6, .psn_valid = 1, .expected_psn = 4);
	expect_entries(1);
	STATS([WIRE_FRAMES] = 4, [WIRE_ROCEV2] = 3, [WIRE_OTHER] = 1, [WIRE_VLAN] = 3,
	      [WIRE_IPV6] = 1);
	verdict("802.1Q, QinQ (802.1ad+802.1Q) and 802.1Q+IPv6 parsed, global vlan 3; three tags -> other");
}

/* 9: not RoCEv2 */
static void case_other(void)
{
	struct frame arp = arp_frame();

	reset_maps();
	FEED(IN, .dport = 53, .opcode = SEND_ONLY, .qpn = 0x61);
	FEED(OUT, .dport = 53, .ipv6 = 1, .opcode = SEND_ONLY, .qpn = 0x61);
	FEED(IN, .l4 = 6, .opcode = SEND_ONLY, .qpn = 0x61);		/* TCP */
	FEED(IN, .l4 = 60, .ipv6 = 1, .opcode = SEND_ONLY, .qpn = 0x61);	/* dst opts */
	if (run(prog_fd(IN), &arp))
		whyf(" ARP refused");
	expect_entries(0);
	STATS([WIRE_FRAMES] = 5, [WIRE_OTHER] = 5);
	verdict("UDP/53 (IPv4, IPv6), TCP to 4791, IPv6 with an extension header, ARP -> other, no QP entry");
}

/*
 * 10: every cut inside the headers of an ACK with AETH, through both
 * programs; the frame with whole headers and nothing after them still parses.
 */
static void truncations(const char *what, const struct spec *s)
{
	struct frame f = build(s), cut;
	unsigned int delivered = 0, refused = 0;
	char desc[256];

	reset_maps();
	for (size_t n = 1; n < f.hdr_end; n++) {
		cut = f;
		cut.len = n;
		for (int dir = IN; dir <= OUT; dir++) {
			if (run(prog_fd(dir), &cut))
				refused++;
			else
				delivered++;
		}
	}
	expect_entries(0);
	STATS([WIRE_FRAMES] = delivered, [WIRE_TRUNCATED] = delivered);
	/* cuts in the UDP header, BTH and AETH always reach the program */
	if (delivered < 2 * (8 + 12 + 4))
		whyf(" only %u runs delivered", delivered);
	cut = f;
	cut.len = f.hdr_end;
	if (run(prog_fd(IN), &cut))
		whyf(" whole headers refused");
	expect_entries(1);
	STATS([WIRE_FRAMES] = delivered + 1, [WIRE_TRUNCATED] = delivered,
	      [WIRE_ROCEV2] = 1, [WIRE_VLAN] = s->tpid[0] ? 1 : 0,
	      [WIRE_IPV6] = s->ipv6 ? 1 : 0);
	snprintf(desc, sizeof(desc),
		 "%s ACK+AETH cut at each of %zu header bytes, both programs: %u runs delivered, each counted truncated once, no QP entry (%u refused by the kernel); whole headers -> rocev2",
		 what, f.hdr_end - 1, delivered, refused);
	verdict(desc);
}

static void case_trunc_ipv4(void)
{
	truncations("IPv4", &(struct spec){ .opcode = ACK, .qpn = 0x71, .aeth = 1 });
}

static void case_trunc_ipv6(void)
{
	truncations("IPv6", &(struct spec){ .opcode = ACK, .qpn = 0x72, .aeth = 1, .ipv6 = 1 });
}

static void case_trunc_vlan(void)
{
	truncations("802.1Q IPv4", &(struct spec){ .tpid = { ETH_P_8021Q },
			.opcode = ACK, .qpn = 0x73, .aeth = 1 });
}

static void case_trunc_qinq(void)
{
	truncations("QinQ IPv6", &(struct spec){ .tpid = { ETH_P_8021AD, ETH_P_8021Q },
			.ipv6 = 1, .opcode = ACK, .qpn = 0x74, .aeth = 1 });
}

/* 11: impossible header values */
static void case_malformed(void)
{
	reset_maps();
	FEED(IN, .ihl = 4, .opcode = SEND_ONLY, .qpn = 0x81);
	FEED(IN, .ipver = 5, .opcode = SEND_ONLY, .qpn = 0x81);
	FEED(IN, .ipv6 = 1, .ipver = 4, .opcode = SEND_ONLY, .qpn = 0x81);
	FEED(IN, .udp_len = 8 + 12 + 4 - 1, .opcode = SEND_ONLY, .qpn = 0x81);
	FEED(IN, .tver = 1, .opcode = SEND_ONLY, .qpn = 0x81);
	FEED(OUT, .opcode = 0x15, .qpn = 0x81);		/* RC reserved */
	FEED(OUT, .opcode = UC | READ_REQ, .qpn = 0x81);	/* no UC read */
	FEED(OUT, .opcode = UD | 0x03, .qpn = 0x81);		/* UD: SEND ONLY only */
	FEED(OUT, .opcode = 0x80, .qpn = 0x81);		/* CNP class, not 0x81 */
	FEED(OUT, .opcode = 0xc4, .qpn = 0x81);		/* reserved transport */
	FEED(OUT, .opcode = 0xe4, .qpn = 0x81);		/* manufacturer specific */
	FEED(IN, .opcode = ACK, .aeth = 1, .udp_len = 8 + 12 + 4, .qpn = 0x81);
	FEED(IN, .opcode = ACK, .aeth = 1, .syndrome = 0x40, .qpn = 0x81);
	FEED(IN, .opcode = ACK, .aeth = 1, .syndrome = 0x65, .qpn = 0x81);
	expect_entries(0);
	STATS([WIRE_FRAMES] = 14, [WIRE_MALFORMED] = 14);
	verdict("malformed, no QP entry: IHL 4, IP version 5 and 4-in-IPv6, UDP length 23, TVer 1, opcodes 0x15 0x2c 0x63 0x80 0xc4 0xe4, ACK without room for its AETH, syndromes 0x40 and 0x65");
}

static void case_fragments(void)
{
	uint64_t len;

	reset_maps();
	FEED(IN, .frag = 0x2000 | 185, .opcode = SEND_ONLY, .qpn = 0x82);	/* MF, 1480 */
	FEED(IN, .frag = 185, .opcode = SEND_ONLY, .qpn = 0x82);		/* last */
	len = FEED(IN, .frag = 0x2000, .opcode = SEND_ONLY, .qpn = 0x82, .psn = 9);
	FEED(IN, .frag = 0x4000, .opcode = SEND_ONLY, .qpn = 0x82, .psn = 10);	/* DF */
	QP(0x82, IN, .pkts = 2, .bytes = 2 * len, .psn_valid = 1, .expected_psn = 11);
	STATS([WIRE_FRAMES] = 4, [WIRE_OTHER] = 2, [WIRE_ROCEV2] = 2);
	verdict("IPv4 fragments with offset != 0 -> other, no QP; a first fragment (MF, offset 0) and DF parse");
}

/* UC tracks PSNs like RC; UD, XRC, RD are counted without PSN state */
static void case_transports(void)
{
	uint64_t len;

	reset_maps();
	len = FEED(OUT, .opcode = UC | WRITE_ONLY, .qpn = 0x91, .psn = 1, .payload = 16);
	FEED(OUT, .opcode = UC | WRITE_ONLY, .qpn = 0x91, .psn = 3, .payload = 16);
	FEED(OUT, .opcode = UC | WRITE_ONLY, .qpn = 0x91, .psn = 2, .payload = 16);
	QP(0x91, OUT, .pkts = 3, .bytes = 3 * len, .oos = 1, .dup = 1, .psn_valid = 1,
	   .expected_psn = 4);
	len = FEED(OUT, .opcode = UD | SEND_ONLY, .qpn = 0x92, .psn = 1, .payload = 8);
	FEED(OUT, .opcode = UD | SEND_ONLY, .qpn = 0x92, .psn = 9, .payload = 8);
	QP(0x92, OUT, .pkts = 2, .bytes = 2 * len);
	FEED(OUT, .opcode = 0xa0 | SEND_ONLY, .qpn = 0x93, .psn = 1, .payload = 4);
	FEED(OUT, .opcode = 0x40 | SEND_ONLY, .qpn = 0x94, .psn = 1, .payload = 12);
	expect_entries(4);
	STATS([WIRE_FRAMES] = 7, [WIRE_ROCEV2] = 7);
	verdict("UC WRITE PSN 1,3,2: oos 1, dup 1; UD PSN jumps not tracked; XRC and RD SEND counted");
}

/* the direction is part of the key: one NAK on egress, separate PSN state */
static void case_directions(void)
{
	uint64_t l_nak, l_w;

	reset_maps();
	l_nak = FEED(OUT, .opcode = ACK, .qpn = 0xa1, .psn = 3, .aeth = 1, .syndrome = 0x60);
	l_w = FEED(IN, .opcode = WRITE_ONLY, .qpn = 0xa1, .psn = 1);
	FEED(IN, .opcode = WRITE_ONLY, .qpn = 0xa1, .psn = 2);
	FEED(OUT, .opcode = WRITE_ONLY, .qpn = 0xa1, .psn = 50);
	QP(0xa1, OUT, .pkts = 2, .bytes = l_nak + l_w, .naks = { 1 }, .psn_valid = 1,
	   .expected_psn = 51);
	QP(0xa1, IN, .pkts = 2, .bytes = 2 * l_w, .psn_valid = 1, .expected_psn = 3);
	expect_entries(2);
	STATS([WIRE_FRAMES] = 4, [WIRE_ROCEV2] = 4);
	verdict("same QPN: egress NAK and PSNs counted on the egress entry only; ingress PSN state separate");
}

static void (*const cases[])(void) = {
	case_write_stream, case_gap, case_wrap, case_read_request, case_aeth,
	case_cnp, case_ecn_ipv6, case_vlan, case_other, case_trunc_ipv4,
	case_trunc_ipv6, case_trunc_vlan, case_trunc_qinq, case_malformed,
	case_fragments, case_transports, case_directions,
};

#define N_CASES ((int)(sizeof(cases) / sizeof(cases[0])))

int main(void)
{
	if (geteuid() != 0)
		tap_skip_all("BPF_PROG_TEST_RUN needs root");
	ifindex_lo = if_nametoindex("lo");

	skel = wire_bpf__open_and_load();
	if (!skel) {
		tap_plan(1);
		tap_ok(false, "load wire.bpf.o (errno %d)", errno);
		return 1;
	}
	tap_plan(N_CASES + 3);
	tap_ok(true, "wire.bpf.o: wire_ingress and wire_egress pass the verifier");
	for (int i = 0; i < N_CASES; i++)
		cases[i]();
	tap_ok(n_runs > 0 && n_bad_verdict == 0,
	       "all %u delivered runs returned TC_ACT_OK (%u did not; %u refused by the kernel)",
	       n_runs, n_bad_verdict, n_refused);
	tap_ok(n_runs > 0 && n_bad_data == 0,
	       "all %u delivered runs left the frame byte for byte as it was (%u changed)",
	       n_runs, n_bad_data);
	wire_bpf__destroy(skel);
	return tap_done();
}
