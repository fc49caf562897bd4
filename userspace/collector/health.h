/* SPDX-License-Identifier: GPL-2.0 */
/*
 * health.h - a job's fabric verdict from what happened to it recently.
 *
 * The collector feeds each job a series of signals (health_add): per-QP
 * events of the job's own QPs (out-of-sequence, NAK-sequence received, ACK
 * timeouts, retry exceeded, QP errors, RNR), port-level happenings on the
 * ports it uses (link flaps, pause storms, port-wide error counters when no
 * per-QP source is there: "shared"), and traffic evidence.  health_eval()
 * turns the signals of the last window into a verdict and reasons:
 *
 *   failing   a retry-exceeded (or RNR retry-exceeded) or a QP error within
 *             hold_s; a link flap on a used port within hold_s while the job
 *             was moving traffic there (or when traffic is unknown); a used
 *             port down now.
 *   degraded  at least the threshold count, within window_s, of
 *             out-of-sequence + NAK-sequence, of ACK timeouts, or of RNR
 *             NAKs; a pause storm on a used port within window_s; a used
 *             port running below the speed it had (link_degraded, now);
 *             at least link_errors symbol, link-recovery, integrity or
 *             receive errors of the IB port counters, or FEC blocks that
 *             could not be corrected, on a used port within window_s
 *             (link_errors); a used port's module raising an alarm or
 *             receiving less than its low-warning power (optics, now);
 *             a used port whose RoCE ToS lands on a priority without PFC
 *             (misconfigured, now); probes from a used port to its peers
 *             lost at probe_loss_pct or more (path_loss, now) or slower than
 *             probe_rtt_us at the median (path_latency, now).
 *   healthy   none of those.
 *
 * A flap on (or a down or slowed state of) a port where the job demonstrably moved no
 * traffic (a port in visible, no HS_TRAFFIC or error signal within window_s of
 * it) is listed as a "notice" reason and leaves the verdict alone.
 */
#ifndef FABTELD_HEALTH_H
#define FABTELD_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

#define HEALTH_DEV_LEN		64
#define HEALTH_MAX_SIGNALS	256	/* per job; the oldest are dropped */
#define HEALTH_MAX_VISIBLE	32	/* ports whose traffic is seen, per job (MODEL_MAX_JOB_PORTS) */
#define HEALTH_MAX_REASONS	16

enum health_verdict {
	VERDICT_HEALTHY,
	VERDICT_DEGRADED,
	VERDICT_FAILING,
};

enum health_sig {
	HS_OUT_OF_SEQUENCE,	/* the job's responder QP saw a PSN gap */
	HS_NAK_SEQ_RCVD,	/* its requester QP got a NAK-sequence */
	HS_ACK_TIMEOUT,		/* its requester's retransmit timer fired for real */
	HS_RNR_NAK,		/* RNR NAK received */
	HS_RETRY_EXCEEDED,
	HS_RNR_RETRY_EXCEEDED,
	HS_QP_ERROR,		/* one of its QPs went to the error state */
	HS_LINK_FLAP,		/* port-level: a carrier down+up */
	HS_PAUSE_STORM,		/* port-level */
	HS_TRAFFIC,		/* the job moved packets on the port */
	HS_LINK_ERRORS,		/* port-level: IB port link-error counters rose */
	HS_PCIE_ERRORS,		/* port-level: its PCI function's correctable AER errors */
	HS_PCIE_FATAL,		/* port-level: ... uncorrectable (nonfatal or fatal) AER errors */
	HS_NIC_FW,		/* port-level: a devlink health reporter of its device counted errors */
	HS_DRIVER,		/* port-level: its device's driver logged error lines (kmsg_match.h) */
	HS_NR,
};

/* link_degrading looks back this far at most (link_trend.c) */
#define LINK_TREND_MAX_S	120

struct health_cfg {
	unsigned int window_s;		/* default 60 */
	unsigned int hold_s;		/* default 300 */
	unsigned int oos_events;	/* OOS + NAK-seq in window: default 5 */
	unsigned int ack_timeouts;	/* default 5 */
	unsigned int rnr_naks;		/* default 100 */
	unsigned int link_errors;	/* link-error counts in window: default 10 */
	unsigned int pcie_errors;	/* correctable PCIe errors in window: default 10 */
	/* link_degrading (link_trend.c): over degrading_window_s (default 3) ... */
	unsigned int degrading_window_s;
	unsigned int degrading_fec_ppb;	/* ... FEC-corrected bits per 10^9 sent: default 1000 */
	unsigned int degrading_symbols;	/* ... or PMA symbol errors a second: default 10 */
};

struct health_signal {
	uint64_t at_ns;			/* CLOCK_REALTIME */
	enum health_sig sig;
	char device[HEALTH_DEV_LEN];
	uint32_t port;
	uint64_t n;			/* how many (events, packets) */
	bool shared;			/* port-wide, not only this job's QPs */
	bool counter;			/* from the NIC's counter sets (the job's own QPs) */
	bool has_peer;			/* ... of the job's QPs towards peer (qp_counters = peer) */
	uint8_t peer[16];		/* the peer's GID */
};

struct health_reason {
	const char *reason;		/* "out_of_sequence", "link_flap", ... */
	const char *severity;		/* "failing", "degraded", "notice" */
	char device[HEALTH_DEV_LEN];
	uint32_t port;
	uint64_t at_ns;			/* the latest signal behind it */
	uint64_t count;			/* events in the window (or hold) */
	bool shared;
	/*
	 * what the reason stands on: "qp_event" (the job's QPs' own events:
	 * BPF, QP states), "qp_counter" (the NIC's counter sets of the job's
	 * QPs), "port" (port-wide counters or states)
	 */
	const char *evidence;
	/* evidence in words (path_*, and qp_counter sets by peer: the peers), "" none */
	char detail[128];
};

struct health_result {
	enum health_verdict verdict;
	unsigned int nr_reasons;
	struct health_reason reasons[HEALTH_MAX_REASONS];
	int culprit;			/* index in reasons, -1 if healthy */
};

/*
 * A job's recent signals, a ring.  health_add() folds a signal into the
 * newest one when sig, device, port and shared match and they are less
 * than a second apart, so a steady stream does not push out a rare flap.
 * visible: the job's ports whose traffic a per-QP source sees (the wire
 * program on a Soft-RoCE port, where frames pass the kernel's stack): only
 * there does no HS_TRAFFIC mean idle rather than unknown.  A NIC that
 * offloads RoCE (mlx5, bnxt_re, irdma) moves frames the kernel never sees.
 */
struct health_track {
	struct health_signal sig[HEALTH_MAX_SIGNALS];
	unsigned int head, count;	/* head: next slot to write */
	uint64_t dropped;
	unsigned int nr_visible;
	struct {
		char device[HEALTH_DEV_LEN];
		uint32_t port;
	} visible[HEALTH_MAX_VISIBLE];
};

void health_cfg_defaults(struct health_cfg *cfg);
const char *health_verdict_name(enum health_verdict v);
const char *health_sig_name(enum health_sig s);

void health_init(struct health_track *t);
void health_add(struct health_track *t, const struct health_signal *s);
/* Forget signals older than max(window_s, hold_s) before now_ns. */
void health_expire(struct health_track *t, const struct health_cfg *cfg, uint64_t now_ns);
/* Mark device/port as one whose traffic the collector sees (up to the limit). */
void health_visible(struct health_track *t, const char *device, uint32_t port);
/* A state of a used port now, not an event: down, or below its speed. */
enum health_port_kind {
	HP_DOWN, HP_DEGRADED, HP_OPTICS, HP_MISCONFIGURED,
	HP_PATH_LOSS,		/* probes to peers from the port are lost (probes.rst) */
	HP_PATH_LATENCY,	/* their median RTT is over probe_rtt_us */
	HP_PCIE,		/* its PCI function's link below what it should run at */
	HP_NIC_FW,		/* a devlink health reporter of its device is in error (failing) */
	HP_WEDGED,		/* its device's driver is wedged: TX timeout, then a lockup (failing) */
	HP_DEGRADING,		/* FEC-corrected or symbol errors climbing while up (link_trend.c) */
};

struct health_port_state {
	enum health_port_kind kind;
	char device[HEALTH_DEV_LEN];
	uint32_t port;
	uint64_t since_ns;		/* CLOCK_REALTIME */
	uint64_t count;			/* pairs in trouble (path_*), else 0: 1 */
	char detail[128];		/* the evidence, in words; "" none */
};

void health_eval(const struct health_track *t, const struct health_cfg *cfg,
		 uint64_t now_ns, const struct health_port_state *ports,
		 unsigned int nr_ports, struct health_result *out);

#endif /* FABTELD_HEALTH_H */
