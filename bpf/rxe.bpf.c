// SPDX-License-Identifier: GPL-2.0
/*
 * rxe.bpf.c - Soft-RoCE transport events, per QP.
 *
 * The functions below are rdma_rxe's own (module BTF): the loader turns this
 * program off when rdma_rxe is not loaded.  Hardware RoCE NICs do all this
 * in firmware: there only fabtel.ko's counters see it.
 *
 *  prepare_ack_packet(syndrome 0x60)  responder NAKs an out-of-sequence PSN:
 *                                     exactly where rxe bumps out_of_seq_request
 *  rxe_comp_queue_pkt                 requester receives an ACK-class packet:
 *                                     RNR NAK / other NAKs
 *  rxe_completer (fentry + fexit)     the completer takes a NAK-sequence:
 *                                     counted where rxe counts rcvd_seq_err
 *  retransmit_timer                   a real ACK timeout only when the
 *                                     requester's PSN is ahead of the
 *                                     completer's (the timer also fires idle)
 *  rxe_cq_post                        completions with status 12 / 13
 *  rxe_qp_error                       the QP entered the error state
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "rxe.h"

/* rdma_rxe's private types: only the fields used, relocated against its BTF. */
struct rxe_req_info {
	u32 psn;
} __attribute__((preserve_access_index));

struct rxe_comp_info {
	u32 psn;
} __attribute__((preserve_access_index));

struct rxe_qp {
	struct ib_qp ibqp;
	struct sk_buff_head resp_pkts;
	struct rxe_req_info req;
	struct rxe_comp_info comp;
	struct timer_list retrans_timer;
} __attribute__((preserve_access_index));

struct rxe_pkt_info {
	u8 *hdr;
	u32 psn;
	u8 opcode;
} __attribute__((preserve_access_index));

/* rcvd_seq_err's index; RXE_MAX_COUNTERS bounds it for the verifier */
enum rxe_counters {
	RXE_CNT_RCV_SEQ_ERR = 1,
};

#define RXE_MAX_COUNTERS	32

struct rxe_dev {
	struct ib_device ib_dev;
	atomic64_t stats_counters[RXE_MAX_COUNTERS];
} __attribute__((preserve_access_index));

struct rxe_cq {
	struct ib_cq ibcq;
	bool is_user;
} __attribute__((preserve_access_index));

/* uapi, but only modules use it: not in vmlinux BTF */
struct ib_uverbs_wc {
	__u32 status;
	__u32 qp_num;
} __attribute__((preserve_access_index));

struct rxe_cqe {
	union {
		struct ib_wc ibwc;
		struct ib_uverbs_wc uibwc;
	};
} __attribute__((preserve_access_index));

#define AETH_NAK_PSN_SEQ	0x60
#define AETH_TYPE_MASK		0xe0
#define AETH_RNR_NAK		0x20
#define AETH_NAK		0x60
#define WC_RETRY_EXC		12
#define WC_RNR_RETRY_EXC	13

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} rxe_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct rxe_qp_key);
	__type(value, struct rxe_qp_counts);
} rxe_qp_counts SEC(".maps");

/*
 * A call of rxe_completer, from its fentry to its fexit: it handles one
 * queued packet per call.  It counts a NAK-sequence in the device's
 * rcvd_seq_err and moves the QP's comp.psn to its PSN in the same step, so
 * a call across which both moved counted one.  The packet at the head of
 * the queue, if a NAK-sequence, names the ones it dropped uncounted.
 * Keyed by the QP: one completer runs per QP at a time.
 */
struct rxe_comp_call {
	__u64 skb;		/* head of the response queue at entry */
	__s64 seq_err;		/* the device's rcvd_seq_err at entry */
	__u32 comp_psn;		/* the QP's comp.psn at entry */
	__u32 nak_psn;		/* the head's PSN, if it is a NAK-sequence */
	__u32 nak;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct rxe_comp_call);
} rxe_comp_calls SEC(".maps");

__u64 rxe_drops;		/* events lost: ring buffer full */
__u64 rxe_spurious_timeouts;	/* retransmit timer with nothing unacked */

static __always_inline void rxe_note_key(struct rxe_qp_key key, __u32 kind,
					 __u32 psn, __u32 arg)
{
	struct rxe_qp_counts *c, zero = {};
	struct rxe_event *e;

	c = bpf_map_lookup_elem(&rxe_qp_counts, &key);
	if (!c) {
		bpf_map_update_elem(&rxe_qp_counts, &key, &zero, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&rxe_qp_counts, &key);
	}
	if (c && kind < RXE_NR_KINDS)
		__sync_fetch_and_add(&c->n[kind], 1);

	e = bpf_ringbuf_reserve(&rxe_events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&rxe_drops, 1);
		return;
	}
	e->ns = bpf_ktime_get_boot_ns();
	e->kind = kind;
	e->dev_index = key.dev_index;
	e->qpn = key.qpn;
	e->psn = psn;
	e->arg = arg;
	e->pad = 0;
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void rxe_note(struct ib_qp *ibqp, __u32 kind, __u32 psn,
				     __u32 arg)
{
	struct rxe_qp_key key = {
		.dev_index = BPF_CORE_READ(ibqp, device, index),
		.qpn = BPF_CORE_READ(ibqp, qp_num),
	};

	rxe_note_key(key, kind, psn, arg);
}

SEC("fentry/prepare_ack_packet")
int BPF_PROG(rxe_ack_sent, struct rxe_qp *qp, struct rxe_pkt_info *ack,
	     int opcode, int payload, u32 psn, u8 syndrome)
{
	if (syndrome == AETH_NAK_PSN_SEQ)
		rxe_note(&qp->ibqp, RXE_NAK_SEQ_SENT, psn, syndrome);
	else if ((syndrome & AETH_TYPE_MASK) == AETH_RNR_NAK)
		rxe_note(&qp->ibqp, RXE_RNR_NAK_SENT, psn, syndrome);
	return 0;
}

/* Opcodes carrying an AETH right after the 12-byte BTH. */
static __always_inline bool has_aeth(u8 opcode)
{
	return opcode == 0x0d || opcode == 0x0f || opcode == 0x10 ||
	       opcode == 0x11 || opcode == 0x12;
}

/* 24-bit serial compare: is PSN a past PSN b? */
static __always_inline bool psn_after(u32 a, u32 b)
{
	return (s32)((a - b) << 8) > 0;
}

SEC("fentry/rxe_comp_queue_pkt")
int BPF_PROG(rxe_ack_rcvd, struct rxe_qp *qp, struct sk_buff *skb)
{
	struct rxe_pkt_info *pkt = (void *)skb->cb;
	u8 opcode = BPF_CORE_READ(pkt, opcode);
	u8 *hdr = BPF_CORE_READ(pkt, hdr);
	u32 psn;
	u8 syn;

	if (!has_aeth(opcode) || bpf_probe_read_kernel(&syn, 1, hdr + 12))
		return 0;
	psn = BPF_CORE_READ(pkt, psn);
	/* NAK-sequence: when the completer takes it (rxe_completer below) */
	if ((syn & AETH_TYPE_MASK) == AETH_RNR_NAK)
		rxe_note(&qp->ibqp, RXE_RNR_NAK_RCVD, psn, syn);
	else if ((syn & AETH_TYPE_MASK) == AETH_NAK && syn != AETH_NAK_PSN_SEQ)
		rxe_note(&qp->ibqp, RXE_NAK_OTHER_RCVD, psn, syn);
	return 0;
}

/* the packet at the head of qp's response queue, if any */
static __always_inline struct sk_buff *resp_head(struct rxe_qp *qp)
{
	struct sk_buff *skb = BPF_CORE_READ(qp, resp_pkts.next);

	return (void *)skb == (void *)&qp->resp_pkts ? NULL : skb;
}

/* rdma_rxe's rcvd_seq_err of qp's device */
static __always_inline s64 rcvd_seq_err(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = (void *)BPF_CORE_READ(qp, ibqp.device) -
			      bpf_core_field_offset(struct rxe_dev, ib_dev);
	int i = bpf_core_enum_value(enum rxe_counters, RXE_CNT_RCV_SEQ_ERR);

	if (i < 0 || i >= RXE_MAX_COUNTERS)
		return 0;
	return BPF_CORE_READ(rxe, stats_counters[i].counter);
}

/* 6.1 passes the QP as void *arg, 6.12 as struct rxe_qp * */
SEC("fentry/rxe_completer")
int BPF_PROG(rxe_comp_enter, void *arg)
{
	struct rxe_qp *qp = arg;
	struct sk_buff *skb = resp_head(qp);
	struct rxe_comp_call c = {
		.skb = (__u64)skb,
		.seq_err = rcvd_seq_err(qp),
		.comp_psn = BPF_CORE_READ(qp, comp.psn),
	};
	struct rxe_pkt_info *pkt;
	u8 syn;

	if (skb) {
		pkt = (void *)skb->cb;
		if (has_aeth(BPF_CORE_READ(pkt, opcode)) &&
		    !bpf_probe_read_kernel(&syn, 1, BPF_CORE_READ(pkt, hdr) + 12) &&
		    syn == AETH_NAK_PSN_SEQ) {
			c.nak = 1;
			c.nak_psn = BPF_CORE_READ(pkt, psn);
		}
	}
	bpf_map_update_elem(&rxe_comp_calls, &arg, &c, BPF_ANY);
	return 0;
}

SEC("fexit/rxe_completer")
int BPF_PROG(rxe_comp_exit, void *arg, int ret)
{
	struct rxe_qp *qp = arg;
	struct rxe_comp_call *c = bpf_map_lookup_elem(&rxe_comp_calls, &arg);
	u32 psn;

	if (!c)
		return 0;
	psn = BPF_CORE_READ(qp, comp.psn);
	if (rcvd_seq_err(qp) > c->seq_err && psn != c->comp_psn)
		rxe_note(&qp->ibqp, RXE_NAK_SEQ_RCVD, psn, AETH_NAK_PSN_SEQ);
	else if (c->nak && (__u64)resp_head(qp) != c->skb)
		rxe_note(&qp->ibqp, RXE_NAK_SEQ_STALE, c->nak_psn, AETH_NAK_PSN_SEQ);
	bpf_map_delete_elem(&rxe_comp_calls, &arg);
	return 0;
}

SEC("fentry/retransmit_timer")
int BPF_PROG(rxe_timeout, struct timer_list *t)
{
	struct rxe_qp *qp = (void *)t - bpf_core_field_offset(struct rxe_qp, retrans_timer);
	u32 req = BPF_CORE_READ(qp, req.psn), comp = BPF_CORE_READ(qp, comp.psn);

	/* is the requester ahead of the completer? */
	if (psn_after(req, comp))
		rxe_note(&qp->ibqp, RXE_ACK_TIMEOUT, comp, 0);
	else
		__sync_fetch_and_add(&rxe_spurious_timeouts, 1);
	return 0;
}

SEC("fentry/rxe_cq_post")
int BPF_PROG(rxe_completion, struct rxe_cq *cq, struct rxe_cqe *cqe, int solicited)
{
	bool user = BPF_CORE_READ(cq, is_user);
	struct rxe_qp_key key;
	u32 status;

	/* a user CQ holds ib_uverbs_wc (QP number), a kernel one ib_wc (QP) */
	status = user ? BPF_CORE_READ(cqe, uibwc.status) :
			BPF_CORE_READ(cqe, ibwc.status);
	if (status != WC_RETRY_EXC && status != WC_RNR_RETRY_EXC)
		return 0;
	key.dev_index = BPF_CORE_READ(cq, ibcq.device, index);
	key.qpn = user ? BPF_CORE_READ(cqe, uibwc.qp_num) :
			 BPF_CORE_READ(cqe, ibwc.qp, qp_num);
	rxe_note_key(key, status == WC_RETRY_EXC ? RXE_RETRY_EXCEEDED :
						   RXE_RNR_RETRY_EXCEEDED, 0, status);
	return 0;
}

SEC("fentry/rxe_qp_error")
int BPF_PROG(rxe_qp_err, struct rxe_qp *qp)
{
	rxe_note(&qp->ibqp, RXE_QP_ERROR, 0, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
