/* SPDX-License-Identifier: GPL-2.0 */
/* rxe.h - Soft-RoCE (rdma_rxe) transport events of rxe.bpf.c. */
#ifndef FABTEL_RXE_H
#define FABTEL_RXE_H

enum rxe_kind {
	RXE_NAK_SEQ_SENT = 1,	/* responder NAKed a PSN sequence error */
	RXE_RNR_NAK_SENT,
	RXE_NAK_SEQ_RCVD,	/* requester got a PSN sequence error NAK */
	RXE_RNR_NAK_RCVD,
	RXE_NAK_OTHER_RCVD,	/* NAK codes 0x61..0x64 */
	RXE_ACK_TIMEOUT,	/* retransmit timer with requests unacked */
	RXE_RETRY_EXCEEDED,	/* completion status 12 */
	RXE_RNR_RETRY_EXCEEDED,	/* completion status 13 */
	RXE_QP_ERROR,		/* rxe_qp_error: the QP went to error */
	RXE_NAK_SEQ_STALE,	/* NAK 0x60 for a PSN the completer had passed */
	RXE_NR_KINDS,
};

struct rxe_qp_key {
	__u32 dev_index;
	__u32 qpn;
};

/* per QP, indexed by enum rxe_kind */
struct rxe_qp_counts {
	__u64 n[RXE_NR_KINDS];
};

struct rxe_event {
	__u64 ns;		/* CLOCK_BOOTTIME */
	__u32 kind;		/* enum rxe_kind */
	__u32 dev_index;
	__u32 qpn;
	__u32 psn;
	__u32 arg;		/* AETH syndrome or completion status */
	__u32 pad;
};

#endif /* FABTEL_RXE_H */
