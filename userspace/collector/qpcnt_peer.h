/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qpcnt_peer.h - qp_counters = peer: fabteld binds each job's QPs into one
 * counter set per (job, peer) by hand (`rdma statistic qp bind`), so the
 * NIC counts a job's errors towards each remote address apart
 * (Documentation/qp_counters.rst "Per peer").  The sets it made, and the
 * QPs it bound, are kept here so that it unbinds exactly those at exit.
 */
#ifndef FABTEL_QPCNT_PEER_H
#define FABTEL_QPCNT_PEER_H

#include <stdint.h>

#include "source.h"

/* binds per port per read, at most: each is a firmware command on mlx5 */
#define QPCNT_PEER_BINDS	64

struct rdmastat;
struct backoff;

/* a set fabteld made: its key (job, peer) and where it is */
struct qpcnt_peer_set {
	uint32_t dev_index, port, cntn;
	struct job_match job;
	uint8_t peer[16];
};

/* a QP fabteld bound: unbound again at exit */
struct qpcnt_peer_qp {
	uint32_t dev_index, port, cntn, qpn;
};

struct qpcnt_peers {
	struct qpcnt_peer_set sets[MODEL_MAX_QPCNT];
	unsigned int nr_sets;
	struct qpcnt_peer_qp qps[MODEL_MAX_QPS];
	unsigned int nr_qps;
	uint64_t bound[MODEL_MAX_QPS];	/* a pass's scratch: the QPs in a set, sorted */
};

/*
 * After a read of the sets (r->qpcnt): mark each of r's sets that is
 * ours, with its peer; and if the read is complete, forget the sets of
 * ours that are gone (ib_core frees a set with its last QP) and the QPs
 * no longer in them.  false for a cut read: no binding on it.
 */
bool qpcnt_peers_read(struct qpcnt_peers *pp, struct raw *r);

/*
 * Bind port q's QPs that have a job and a peer and are in no set: into the
 * set of their (job, peer), made if the port has fewer than cap of ours.
 * Only on a port whose mode is none or manual with every set ours; says in
 * q->why what it left, and sets q->err on a refusal (to back off).
 */
void qpcnt_peers_bind(struct qpcnt_peers *pp, struct rdmastat *st, struct raw *r,
		      struct raw_qpcnt_port *q, uint32_t dev_index, unsigned int cap);

/* Unbind every QP fabteld bound (their sets go with the last): the unbinds that failed. */
unsigned int qpcnt_peers_release(struct qpcnt_peers *pp, struct rdmastat *st);

#endif /* FABTEL_QPCNT_PEER_H */
