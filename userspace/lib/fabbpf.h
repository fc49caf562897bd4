/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabbpf.h - load fabtel's tracing BPF programs (flap, qp, rxe) and deliver
 * their events.  Used by fabtel-trace and the collector (source_bpf.c).
 *
 * A program whose kernel module is not loaded (ib_core, ib_uverbs,
 * rdma_rxe) is not loaded either: fabbpf_unavailable() says why, and the
 * others run.
 */
#ifndef FABTEL_FABBPF_H
#define FABTEL_FABBPF_H

#include <stdbool.h>
#include <linux/types.h>

#include "flap.h"
#include "qp.h"
#include "rxe.h"

enum fabbpf_prog {
	FABBPF_FLAP,
	FABBPF_QP,
	FABBPF_RXE,
	FABBPF_NR_PROGS,
};

struct fabbpf_handlers {
	void (*flap)(const struct flap_event *e, void *ctx);
	void (*qp)(const struct qp_event *e, void *ctx);
	void (*rxe)(const struct rxe_event *e, void *ctx);
	void *ctx;
};

struct fabbpf_drops {
	__u64 flap, qp, rxe;		/* events lost: ring buffers full */
	__u64 carrier_noop_calls;	/* carrier calls that changed nothing */
	__u64 rxe_spurious_timeouts;	/* retransmit timer, nothing unacked */
};

struct fabbpf;

/* want: bitmask of 1 << enum fabbpf_prog.  Negative errno on failure. */
int fabbpf_open(struct fabbpf **out, unsigned int want,
		const struct fabbpf_handlers *h);
/* NULL if the program runs, else why not (also for programs not wanted). */
const char *fabbpf_unavailable(const struct fabbpf *fb, enum fabbpf_prog p);
/* A program that runs only in part (e.g. flap without IB events): why, or NULL. */
const char *fabbpf_partial(const struct fabbpf *fb, enum fabbpf_prog p);
/* User QPs that existed before qp attached, put in its map from RDMA netlink. */
unsigned int fabbpf_seeded(const struct fabbpf *fb);
int fabbpf_poll(struct fabbpf *fb, int timeout_ms);
void fabbpf_drops(const struct fabbpf *fb, struct fabbpf_drops *out);
int fabbpf_for_each_qp(const struct fabbpf *fb,
		       int (*cb)(const struct qp_key *, const struct qp_info *, void *),
		       void *ctx);
/* One QP's entry in the qp program's map: 0, -ENOENT, or negative errno. */
int fabbpf_qp_lookup(const struct fabbpf *fb, __u32 dev_index, __u32 qpn, struct qp_info *out);
int fabbpf_for_each_rxe_qp(const struct fabbpf *fb,
			   int (*cb)(const struct rxe_qp_key *,
				     const struct rxe_qp_counts *, void *),
			   void *ctx);
/* Delete a QP's rxe counts (the QP is gone).  0, -ENOENT, or negative errno. */
int fabbpf_forget_rxe_qp(const struct fabbpf *fb, const struct rxe_qp_key *key);
void fabbpf_close(struct fabbpf *fb);

const char *fabbpf_flap_kind_name(__u32 kind);
const char *fabbpf_qp_kind_name(__u32 kind);
const char *fabbpf_rxe_kind_name(__u32 kind);
const char *fabbpf_qp_state_name(__u8 state);

#endif /* FABTEL_FABBPF_H */
