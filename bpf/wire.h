/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire.h - shared between wire.bpf.c (the RoCEv2 TC classifier) and its
 * loaders: the global counters, the per-QP map's key and value, and the
 * constants both sides need.  __u8/__u16/__u32/__u64 only; each type is
 * defined here and nowhere else.  Documentation/wire.rst explains every
 * counter.
 */
#ifndef FABTEL_WIRE_H
#define FABTEL_WIRE_H

#define WIRE_ROCEV2_PORT	4791
#define WIRE_QP_MAX_ENTRIES	16384		/* wire_qps and wire_known, plain hashes */
#define WIRE_UNKNOWN_MAX	4096		/* wire_qps entries of QPs not (yet) known */
#define WIRE_PSN_MASK		0xffffffU	/* PSNs are 24-bit serials */
#define WIRE_PSN_HALF		0x800000U	/* ahead: (psn - exp) & mask < half */

/*
 * wire_stats: a per-CPU array of __u64, one slot per enum value.  Each frame
 * counts in WIRE_FRAMES and in exactly one of ROCEV2, OTHER, TRUNCATED,
 * MALFORMED.  VLAN, IPV6, ECN_CE and CNP qualify ROCEV2 frames only.
 */
enum wire_stat {
	WIRE_FRAMES,		/* every frame the classifier saw */
	WIRE_ROCEV2,		/* whole, valid RoCEv2 headers */
	WIRE_OTHER,		/* not RoCEv2 (or not parsed: see wire.rst) */
	WIRE_TRUNCATED,		/* ended inside a header we needed */
	WIRE_MALFORMED,		/* a header with an impossible value */
	WIRE_VLAN,		/* RoCEv2 frames with a VLAN tag */
	WIRE_IPV6,		/* RoCEv2 frames over IPv6 */
	WIRE_ECN_CE,		/* RoCEv2 frames marked ECN CE */
	WIRE_CNP,		/* RoCEv2 CNPs (opcode 0x81) */
	WIRE_QP_DROPS,		/* RoCEv2 frames whose QP entry could not be made (map full) */
	WIRE_QP_UNKNOWN,	/* frames of a new QP not in wire_known: its share was full */
	WIRE_NR_STATS,
};

enum wire_dir {
	WIRE_DIR_INGRESS,
	WIRE_DIR_EGRESS,
};

/* naks[] slots: AETH syndrome 0x60 + slot */
enum wire_nak {
	WIRE_NAK_PSN_SEQ,	/* 0x60 PSN sequence error */
	WIRE_NAK_INVALID_REQ,	/* 0x61 invalid request */
	WIRE_NAK_REMOTE_ACCESS,	/* 0x62 remote access error */
	WIRE_NAK_REMOTE_OP,	/* 0x63 remote operational error */
	WIRE_NAK_INVALID_RD,	/* 0x64 invalid RD request */
	WIRE_NR_NAKS,
};

/*
 * wire_qps key: one entry per interface, BTH DestQP and direction.  Also the
 * key of wire_known (the QPs that exist, written by the loader) with
 * ifindex 0: the interface is not checked there.
 */
struct wire_qp_key {
	__u32 ifindex;
	__u32 qpn;		/* BTH DestQP, 24 bits */
	__u8 dir;		/* enum wire_dir */
	__u8 pad[3];		/* zero */
};

struct wire_qp_val {
	__u64 pkts;
	__u64 bytes;		/* skb->len: from the Ethernet header on */
	__u64 oos;		/* request PSN ahead of the expected one */
	__u64 dup;		/* request PSN behind it (a retransmission) */
	__u64 naks[WIRE_NR_NAKS];
	__u64 rnr_naks;
	__u64 acks;		/* ACK syndrome in ACKNOWLEDGE/ATOMIC ACKNOWLEDGE */
	__u64 cnps;
	__u64 ecn_ce;
	__u32 expected_psn;	/* next in-order request PSN, if psn_valid */
	__u8 psn_valid;
	__u8 pad[3];
};

#endif /* FABTEL_WIRE_H */
