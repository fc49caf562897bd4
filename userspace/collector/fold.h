/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fold.h - the passes that fold one pass's readings (source.h) into the
 * model, under its lock, in this order: ports (counters, links, PFC,
 * events), QPs (owners, jobs, QP errors), the NIC's counter sets, the BPF
 * per-QP counts, then the jobs (port-level signals, shared flags, verdicts).
 */
#ifndef FABTEL_FOLD_H
#define FABTEL_FOLD_H

#include "source.h"

/* The port counters that stand in for per-QP events without the rxe program. */
#define FOLD_PORT_SIGS	4
#define FOLD_LINK_ERRS	6

/* those counters and the health signals they stand for (fold_qpcnt.c) */
extern const enum fabtel_counter fold_port_ctr[FOLD_PORT_SIGS];
extern const enum health_sig fold_port_sig[FOLD_PORT_SIGS];

/* The port totals before this pass's fold, UINT64_MAX where none. */
struct fold_prev {
	uint64_t flaps[MODEL_MAX_PORTS];
	uint64_t storms[MODEL_MAX_PORTS][MODEL_PRIOS];
	uint64_t ctr[MODEL_MAX_PORTS][FOLD_PORT_SIGS];
	uint64_t link_err[MODEL_MAX_PORTS][FOLD_LINK_ERRS];
	uint64_t fec_uncorr[MODEL_MAX_PORTS];
	uint64_t phy_err[MODEL_MAX_PORTS][2];	/* driver statistics: symbol, CRC errors */
};

/* a wire map entry as the fold looks it up: its key (raw_wire_key), its packets */
struct fold_wire {
	uint64_t key, pkts;
};

/* What the folds keep from one pass to the next (the collector's). */
struct fold {
	struct fold_prev prev;
	struct fold_wire wire[RAW_MAX_WIRE];	/* fold_bpf's, sorted by key */
	int sock;		/* fold_ports': ifindex lookups (SIOCGIFINDEX); -1 none yet */
	struct model_pcie pcie_next[MODEL_MAX_PORTS];	/* fold_pcie's scratch */
	struct model_health health_next[MODEL_MAX_PORTS];	/* fold_devlink's */
	struct model_kmsg kmsg_next[MODEL_KMSG_DEVS];		/* fold_kmsg's */
};

void fold_init(struct fold *f);
void fold_fini(struct fold *f);
void fold_prev_take(const struct model *m, struct fold_prev *prev);
void fold_ports(struct fold *f, struct model *m, const struct raw *r, uint64_t now);
void fold_qps(struct model *m, const struct raw *r, uint64_t now);
void fold_bpf(struct fold *f, struct model *m, const struct raw *r, uint64_t now);
void fold_jobs(struct model *m, uint64_t now, const struct fold_prev *prev);
/*
 * fold_qpcnt.c: the counter sets of the pass (after fold_qps); their
 * shares of each job-port (fold_jobs calls it once the job-ports are
 * known); the signals of a job-port on a port where sets stand for the
 * port's error counters (p->qpc_active).
 */
void fold_qpcnt(struct model *m, const struct raw *r, const struct fold_prev *prev);
/* PCIe functions (fold_pcie.c); the function of an RDMA device, NULL if not read */
void fold_pcie(struct fold *f, struct model *m, const struct raw *r, uint64_t now);
const struct model_pcie *model_pcie_of(const struct model *m, const char *device);
/* devlink health reporters (fold_devlink.c); an RDMA device's, NULL if not read */
void fold_devlink(struct fold *f, struct model *m, const struct raw *r, uint64_t now);
const struct model_health *model_health_of(const struct model *m, const char *device);
/* driver messages of the kernel log (fold_kmsg.c); an RDMA device's, NULL if none */
void fold_kmsg(struct fold *f, struct model *m, const struct raw *r, uint64_t now);
const struct model_kmsg *model_kmsg_of(const struct model *m, const char *device);
void fold_qpcnt_jobs(struct model *m);
void fold_qpcnt_signals(struct model *m, struct model_job *j, const struct model_job_port *jp,
			const struct model_port *p, uint64_t now);

#endif /* FABTEL_FOLD_H */
