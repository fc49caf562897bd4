// SPDX-License-Identifier: GPL-2.0
/*
 * wire.bpf.c - a TC classifier that parses RoCEv2 frames and keeps global and
 * per-QP counters: packets, bytes, out-of-sequence and duplicate request
 * PSNs, NAKs by code, RNR NAKs, ACKs, CNPs and ECN CE marks.
 *
 * Ethernet -> at most two VLAN tags (802.1Q/802.1ad) -> IPv4 (any IHL, no
 * non-first fragment) or IPv6 (UDP as the next header) -> UDP to 4791 -> BTH
 * -> AETH where the opcode carries one (RC only).  Headers are read with
 * bpf_skb_load_bytes(), so a header in a non-linear part of the skb is still
 * seen and an end inside a header is a plain "truncated".
 *
 * Two programs, wire_ingress and wire_egress, share the parser and the maps;
 * the direction is part of the per-QP key.  They never drop or change a frame:
 * both always return TC_ACT_OK.  Documentation/wire.rst has the rules.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "wire.h"

#define TC_ACT_OK	0
#define ETH_HLEN	14
#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86dd
#define ETH_P_8021Q	0x8100
#define ETH_P_8021AD	0x88a8
#define VLAN_HLEN	4
#define IP_OFFSET	0x1fff		/* IPv4 fragment offset bits */
#define EEXIST		17

#define BTH_LEN		12
#define AETH_LEN	4
#define ICRC_LEN	4
#define ROCE_MIN_UDP_LEN (sizeof(struct udphdr) + BTH_LEN + ICRC_LEN)

/* BTH byte 0: transport in bits 7:5, operation in bits 4:0 */
#define BTH_TRANSPORT(op)	((op) >> 5)
#define BTH_OPERATION(op)	((op) & 0x1f)
#define BTH_TVER(b1)		((b1) & 0x0f)

enum bth_transport {
	BTH_TR_RC, BTH_TR_UC, BTH_TR_RD, BTH_TR_UD, BTH_TR_CNP, BTH_TR_XRC,
};

#define BIT(n)		(1U << (n))
#define BITS(lo, hi)	((~0U >> (31 - (hi))) & ~(BIT(lo) - 1))

/*
 * Operations by transport, as bit masks over bits 4:0 of the opcode
 * (IBTA vol. 1 table 38, plus FLUSH 0x1c and ATOMIC WRITE 0x1d of 1.5).
 */
#define RC_REQ		(BITS(0x00, 0x0c) | BIT(0x13) | BIT(0x14) | BIT(0x16) | \
			 BIT(0x17) | BIT(0x1c) | BIT(0x1d))
#define RC_AETH		(BIT(0x0d) | BIT(0x0f) | BIT(0x10) | BIT(0x11) | BIT(0x12))
#define RC_ACKS		(BIT(0x11) | BIT(0x12))
#define RC_VALID	(RC_REQ | RC_AETH | BIT(0x0e))
#define UC_VALID	BITS(0x00, 0x0b)	/* all UC operations are requests */
#define RD_VALID	BITS(0x00, 0x15)
#define UD_VALID	(BIT(0x04) | BIT(0x05))
#define CNP_VALID	BIT(0x01)
#define RC_READ_REQUEST	0x0c

/* what an opcode means to the parser and the per-QP counters */
enum wire_op_flag {
	WOP_VALID	= BIT(0),
	WOP_AETH	= BIT(1),	/* an AETH follows the BTH */
	WOP_ACK		= BIT(2),	/* ACKNOWLEDGE or ATOMIC ACKNOWLEDGE */
	WOP_REQ		= BIT(3),	/* RC/UC request: PSN tracked */
	WOP_READ	= BIT(4),	/* READ REQUEST: PSN state lost */
	WOP_CNP		= BIT(5),
};

/* AETH byte 0: bits 7:5 say ACK, RNR NAK or NAK; bits 4:0 credits/timer/code */
#define AETH_KIND(syn)	((syn) >> 5)
#define AETH_CODE(syn)	((syn) & 0x1f)
enum aeth_kind {
	AETH_ACK = 0,
	AETH_RNR_NAK = 1,
	AETH_NAK = 3,
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, WIRE_NR_STATS);
	__type(key, __u32);
	__type(value, __u64);
} wire_stats SEC(".maps");

/*
 * Per-QP counters.  A plain hash, not an LRU: a frame names its own
 * destination QP, so with an LRU any UDP/4791 sender could evict the
 * entries of real QPs.  When full, new QPs are refused and counted
 * (WIRE_QP_DROPS); the loader deletes the entries of QPs that are gone.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WIRE_QP_MAX_ENTRIES);
	__type(key, struct wire_qp_key);
	__type(value, struct wire_qp_val);
} wire_qps SEC(".maps");

/*
 * The QPs that exist (ingress: local QPNs, egress: their peers' QPNs, key
 * ifindex 0), kept by the loader from RDMA netlink.  With wire_known_only
 * set, QPs not in it (new ones the loader has not learnt of yet, and any
 * made-up QPN) may hold at most WIRE_UNKNOWN_MAX entries of wire_qps: a
 * frame that would make one more is counted in WIRE_QP_UNKNOWN only.  So
 * spoofed QPNs can neither evict a real QP's entry nor take the room known
 * QPs need, and a QP's first frames, sent before the loader knows of it,
 * are still counted unless a flood has filled that share.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WIRE_QP_MAX_ENTRIES);
	__type(key, struct wire_qp_key);
	__type(value, __u8);
} wire_known SEC(".maps");

/* .bss, written by the loader at run time */
__u32 wire_known_only;
__u32 wire_unknown_entries;	/* entries of unknown QPs: counted up here, recounted by the loader */

/* what the parser learnt about one frame */
struct wire_pkt {
	__u32 off;		/* where the next header starts */
	__u32 op;		/* enum wire_op_flag */
	__u16 udp_len;
	__u8 vlan;
	__u8 ipv6;
	__u8 ce;
	__u8 bth[BTH_LEN];
	__u8 aeth[AETH_LEN];
};

static __always_inline void stat_inc(__u32 stat)
{
	__u64 *v = bpf_map_lookup_elem(&wire_stats, &stat);

	if (v)
		*v += 1;
}

static __always_inline __u32 be24(const __u8 *p)
{
	return (__u32)p[0] << 16 | (__u32)p[1] << 8 | p[2];
}

static __always_inline __u32 op_flags(__u8 opcode)
{
	__u32 bit = BIT(BTH_OPERATION(opcode));

	switch (BTH_TRANSPORT(opcode)) {
	case BTH_TR_RC:
		if (!(RC_VALID & bit))
			return 0;
		return WOP_VALID | (RC_AETH & bit ? WOP_AETH : 0) |
		       (RC_ACKS & bit ? WOP_ACK : 0) |
		       (RC_REQ & bit ? WOP_REQ : 0) |
		       (BTH_OPERATION(opcode) == RC_READ_REQUEST ? WOP_READ : 0);
	case BTH_TR_UC:
		return UC_VALID & bit ? WOP_VALID | WOP_REQ : 0;
	case BTH_TR_RD:
		return RD_VALID & bit ? WOP_VALID : 0;
	case BTH_TR_UD:
		return UD_VALID & bit ? WOP_VALID : 0;
	case BTH_TR_CNP:
		return CNP_VALID & bit ? WOP_VALID | WOP_CNP : 0;
	case BTH_TR_XRC:
		return RC_VALID & bit ? WOP_VALID : 0;
	default:	/* 0xc0 reserved, 0xe0 manufacturer specific */
		return 0;
	}
}

/* one 802.1Q/802.1ad tag, if *proto says there is one */
static __always_inline int parse_vlan(struct __sk_buff *skb,
				      struct wire_pkt *p, __be16 *proto)
{
	struct vlan_hdr vh;

	if (*proto != bpf_htons(ETH_P_8021Q) && *proto != bpf_htons(ETH_P_8021AD))
		return WIRE_ROCEV2;
	if (bpf_skb_load_bytes(skb, p->off, &vh, sizeof(vh)))
		return WIRE_TRUNCATED;
	*proto = vh.h_vlan_encapsulated_proto;
	p->off += VLAN_HLEN;
	p->vlan = 1;
	return WIRE_ROCEV2;
}

static __always_inline int parse_ipv4(struct __sk_buff *skb, struct wire_pkt *p)
{
	struct iphdr ip;

	if (bpf_skb_load_bytes(skb, p->off, &ip, sizeof(ip)))
		return WIRE_TRUNCATED;
	if (ip.version != 4 || ip.ihl < 5)
		return WIRE_MALFORMED;
	if (ip.frag_off & bpf_htons(IP_OFFSET))
		return WIRE_OTHER;	/* no UDP header in this fragment */
	if (ip.protocol != IPPROTO_UDP)
		return WIRE_OTHER;
	p->ce = (ip.tos & 3) == 3;
	p->off += ip.ihl * 4;
	return WIRE_ROCEV2;
}

static __always_inline int parse_ipv6(struct __sk_buff *skb, struct wire_pkt *p)
{
	struct ipv6hdr ip6;

	if (bpf_skb_load_bytes(skb, p->off, &ip6, sizeof(ip6)))
		return WIRE_TRUNCATED;
	if (ip6.version != 6)
		return WIRE_MALFORMED;
	if (ip6.nexthdr != IPPROTO_UDP)
		return WIRE_OTHER;	/* extension headers included */
	/* ECN, traffic class bits 1:0, is bits 5:4 of the second byte */
	p->ce = ((ip6.flow_lbl[0] >> 4) & 3) == 3;
	p->ipv6 = 1;
	p->off += sizeof(ip6);
	return WIRE_ROCEV2;
}

/* Ethernet, up to two VLAN tags, then IPv4 or IPv6 */
static __always_inline int parse_l2_l3(struct __sk_buff *skb, struct wire_pkt *p)
{
	__be16 proto;
	int ret;

	if (bpf_skb_load_bytes(skb, ETH_HLEN - sizeof(proto), &proto, sizeof(proto)))
		return WIRE_TRUNCATED;
	p->off = ETH_HLEN;
	ret = parse_vlan(skb, p, &proto);	/* outer (or only) tag */
	if (ret != WIRE_ROCEV2)
		return ret;
	ret = parse_vlan(skb, p, &proto);	/* inner tag of QinQ */
	if (ret != WIRE_ROCEV2)
		return ret;
	if (proto == bpf_htons(ETH_P_IP))
		return parse_ipv4(skb, p);
	if (proto == bpf_htons(ETH_P_IPV6))
		return parse_ipv6(skb, p);
	return WIRE_OTHER;	/* ARP, a third VLAN tag, ... */
}

static __always_inline int parse_udp(struct __sk_buff *skb, struct wire_pkt *p)
{
	struct udphdr udp;

	if (bpf_skb_load_bytes(skb, p->off, &udp, sizeof(udp)))
		return WIRE_TRUNCATED;
	if (udp.dest != bpf_htons(WIRE_ROCEV2_PORT))
		return WIRE_OTHER;
	p->udp_len = bpf_ntohs(udp.len);
	if (p->udp_len < ROCE_MIN_UDP_LEN)
		return WIRE_MALFORMED;
	p->off += sizeof(udp);
	return WIRE_ROCEV2;
}

static __always_inline bool aeth_valid(__u8 syn)
{
	switch (AETH_KIND(syn)) {
	case AETH_ACK:
	case AETH_RNR_NAK:
		return true;
	case AETH_NAK:
		return AETH_CODE(syn) < WIRE_NR_NAKS;
	default:
		return false;
	}
}

static __always_inline int parse_bth(struct __sk_buff *skb, struct wire_pkt *p)
{
	if (bpf_skb_load_bytes(skb, p->off, p->bth, BTH_LEN))
		return WIRE_TRUNCATED;
	if (BTH_TVER(p->bth[1]) != 0)
		return WIRE_MALFORMED;
	p->op = op_flags(p->bth[0]);
	if (!(p->op & WOP_VALID))
		return WIRE_MALFORMED;
	p->off += BTH_LEN;
	if (!(p->op & WOP_AETH))
		return WIRE_ROCEV2;
	if (p->udp_len < ROCE_MIN_UDP_LEN + AETH_LEN)
		return WIRE_MALFORMED;
	if (bpf_skb_load_bytes(skb, p->off, p->aeth, AETH_LEN))
		return WIRE_TRUNCATED;
	if (!aeth_valid(p->aeth[0]))
		return WIRE_MALFORMED;
	p->off += AETH_LEN;
	return WIRE_ROCEV2;
}

/* the class of the frame: WIRE_ROCEV2, _OTHER, _TRUNCATED or _MALFORMED */
static __always_inline int wire_parse(struct __sk_buff *skb, struct wire_pkt *p)
{
	int ret;

	ret = parse_l2_l3(skb, p);
	if (ret != WIRE_ROCEV2)
		return ret;
	ret = parse_udp(skb, p);
	if (ret != WIRE_ROCEV2)
		return ret;
	return parse_bth(skb, p);
}

/*
 * the QP's entry, made if missing; NULL if the map would not take it
 * (stat_inc'd: WIRE_QP_DROPS full, WIRE_QP_UNKNOWN the unknown QPs' share full)
 */
static __always_inline struct wire_qp_val *qp_get(const struct wire_qp_key *key)
{
	struct wire_qp_key known = { .qpn = key->qpn, .dir = key->dir };
	struct wire_qp_val zero = {};
	struct wire_qp_val *v;
	long err;

	v = bpf_map_lookup_elem(&wire_qps, key);
	if (v)
		return v;
	if (wire_known_only && !bpf_map_lookup_elem(&wire_known, &known)) {
		if (wire_unknown_entries >= WIRE_UNKNOWN_MAX) {
			stat_inc(WIRE_QP_UNKNOWN);
			return NULL;
		}
		__sync_fetch_and_add(&wire_unknown_entries, 1);
	}
	err = bpf_map_update_elem(&wire_qps, key, &zero, BPF_NOEXIST);
	if (err && err != -EEXIST) {	/* -EEXIST: another CPU made it */
		stat_inc(WIRE_QP_DROPS);
		return NULL;
	}
	v = bpf_map_lookup_elem(&wire_qps, key);
	if (!v)				/* deleted by the loader meanwhile */
		stat_inc(WIRE_QP_DROPS);
	return v;
}

/*
 * Request PSNs of one QP and direction: in order advances, ahead counts oos
 * and resyncs, behind counts dup and keeps the expectation.  A READ REQUEST
 * takes as many PSNs as its responses, which the wire does not say, so the
 * next request resyncs without counting.
 */
static __always_inline void psn_track(struct wire_qp_val *v, __u32 psn, __u32 op)
{
	__u32 delta;

	if (v->psn_valid) {
		delta = (psn - v->expected_psn) & WIRE_PSN_MASK;
		if (delta >= WIRE_PSN_HALF) {
			__sync_fetch_and_add(&v->dup, 1);
			goto out;
		}
		if (delta)
			__sync_fetch_and_add(&v->oos, 1);
	}
	v->expected_psn = (psn + 1) & WIRE_PSN_MASK;
	v->psn_valid = 1;
out:
	if (op & WOP_READ)
		v->psn_valid = 0;
}

static __always_inline void aeth_count(struct wire_qp_val *v, __u8 syn, __u32 op)
{
	__u32 code = AETH_CODE(syn);

	switch (AETH_KIND(syn)) {
	case AETH_ACK:
		if (op & WOP_ACK)
			__sync_fetch_and_add(&v->acks, 1);
		break;
	case AETH_RNR_NAK:
		__sync_fetch_and_add(&v->rnr_naks, 1);
		break;
	case AETH_NAK:
		if (code < WIRE_NR_NAKS)
			__sync_fetch_and_add(&v->naks[code], 1);
		break;
	}
}

static __always_inline void qp_count(struct __sk_buff *skb,
				     const struct wire_pkt *p, __u8 dir)
{
	struct wire_qp_key key = {
		.ifindex = skb->ifindex,
		.qpn = be24(&p->bth[5]),
		.dir = dir,
	};
	struct wire_qp_val *v;

	v = qp_get(&key);
	if (!v)
		return;
	__sync_fetch_and_add(&v->pkts, 1);
	__sync_fetch_and_add(&v->bytes, skb->len);
	if (p->ce)
		__sync_fetch_and_add(&v->ecn_ce, 1);
	if (p->op & WOP_CNP)
		__sync_fetch_and_add(&v->cnps, 1);
	if (p->op & WOP_AETH)
		aeth_count(v, p->aeth[0], p->op);
	if (p->op & WOP_REQ)
		psn_track(v, be24(&p->bth[9]), p->op);
}

static __always_inline void wire_classify(struct __sk_buff *skb, __u8 dir)
{
	struct wire_pkt p = {};
	int ret;

	stat_inc(WIRE_FRAMES);
	ret = wire_parse(skb, &p);
	stat_inc(ret);
	if (ret != WIRE_ROCEV2)
		return;
	/* an accelerated tag lives in the skb, not in the frame's bytes */
	if (p.vlan || skb->vlan_present)
		stat_inc(WIRE_VLAN);
	if (p.ipv6)
		stat_inc(WIRE_IPV6);
	if (p.ce)
		stat_inc(WIRE_ECN_CE);
	if (p.op & WOP_CNP)
		stat_inc(WIRE_CNP);
	qp_count(skb, &p, dir);
}

SEC("tc")
int wire_ingress(struct __sk_buff *skb)
{
	wire_classify(skb, WIRE_DIR_INGRESS);
	return TC_ACT_OK;
}

SEC("tc")
int wire_egress(struct __sk_buff *skb)
{
	wire_classify(skb, WIRE_DIR_EGRESS);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
