/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h - fabteld's model of the host: sources, RoCE ports, QPs, jobs.
 *
 * collect_sample() is called by the collector thread every interval: it
 * reads every source once and brings the model up to date.  Readers (the
 * HTTP handlers) take model->lock and read; nothing under the lock touches
 * a source, so a slow source never blocks a scrape.
 */
#ifndef FABTELD_COLLECT_H
#define FABTELD_COLLECT_H

#include <net/if.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "health.h"
#include "jobs.h"
#include "mono.h"

#define MODEL_MAX_PORTS		64
#define MODEL_MAX_QPS		4096
#define MODEL_QP_INDEX		(2 * MODEL_MAX_QPS)	/* a power of two */
#define MODEL_MAX_JOBS		64
#define MODEL_MAX_JOB_PORTS	8
#define MODEL_PRIOS		8
#define MODEL_MAX_EVENTS	256
#define MODEL_HISTORY		300	/* samples of port rates kept for job traces */

enum model_source {
	SRC_FABTEL_KO,
	SRC_SYSFS,
	SRC_BPF_FLAP,
	SRC_BPF_QP,
	SRC_BPF_RXE,
	SRC_BPF_WIRE,
	SRC_RDMA_NETLINK,
	SRC_NR,
};

enum src_state {
	SRC_STANDBY,		/* not needed (sysfs while fabtel.ko is there) */
	SRC_UP,
	SRC_UNAVAILABLE,	/* why says why */
};

/* The normalized counters (Documentation/counters.rst), in that order. */
enum model_ctr {
	C_OUT_OF_SEQUENCE, C_NAK_SEQ_ERR_RCVD, C_IMPLIED_NAK_SEQ_ERR, C_LOCAL_ACK_TIMEOUT,
	C_RETRY_EXCEEDED, C_RNR_NAK_RCVD, C_RNR_NAK_SENT, C_RNR_RETRY_EXCEEDED,
	C_DUPLICATE_REQUEST, C_OUT_OF_BUFFER, C_CNP_SENT, C_CNP_HANDLED, C_CNP_IGNORED,
	C_ECN_MARKED_RX, C_ICRC_ERR, C_REQ_CQE_ERR, C_RESP_CQE_ERR, C_LINK_DOWNED,
	C_RX_PACKETS, C_TX_PACKETS, C_RX_BYTES, C_TX_BYTES,
	C_NR,
};

/* Per-port rates kept each sample, the counter tracks of a job's trace. */
enum model_hist {
	H_RX_GBPS, H_TX_GBPS, H_OOS, H_NAK, H_ACK_TIMEOUT, H_RETRY, H_CNP, H_ECN,
	H_PAUSE_TX, H_PAUSE_RX, H_NR,
};

struct model_hist_point {
	uint64_t at_ns;			/* CLOCK_REALTIME */
	float v[H_NR];			/* per second (Gb/s); NAN when not known */
};

struct model_port {
	bool present;
	char device[64];
	uint32_t port;
	char netdev[IF_NAMESIZE];	/* "" if none */
	int ifindex;
	char driver[32];
	char state[24];			/* IB port state, "ACTIVE", ... */
	int carrier;			/* -1 unknown */
	int carrier_logged;		/* the state the last link_down/up event said */
	struct mono flaps;
	bool have_flaps;
	struct mono ctr[C_NR];
	bool have[C_NR];
	struct rate rate[C_NR];		/* per second over the last interval */
	struct mono bursts;		/* fabtel.ko error-burst events */
	bool have_bursts;
	bool pfc_read;
	uint8_t pfc_enabled_mask;
	bool prio_read[MODEL_PRIOS];
	struct mono pause_tx[MODEL_PRIOS], pause_rx[MODEL_PRIOS], storms[MODEL_PRIOS];
	struct rate pause_tx_rate[MODEL_PRIOS], pause_rx_rate[MODEL_PRIOS];
	bool have_nd;			/* the netdev's byte counters were read */
	struct mono nd_rx, nd_tx;
	struct rate nd_rx_rate, nd_tx_rate;
	bool storm[MODEL_PRIOS];
	struct model_hist_point hist[MODEL_HISTORY];	/* a ring */
	unsigned int hist_head, hist_count;
	uint64_t bpf_transitions;	/* carrier events from the flap program */
	uint64_t last_flap_ns;		/* CLOCK_REALTIME of the newest flap seen */
};

struct model_qp {
	bool present;
	uint32_t dev_index;
	char device[64];
	uint32_t port, qpn, rqpn, pid;
	uint8_t state, type;
	unsigned int err_samples;	/* consecutive samples seen in ERR */
	char comm[16];
	int job;			/* index in jobs, -1 none */
	uint64_t rxe_prev[16];
	uint64_t wire_prev;
	uint64_t first_ns;
};

struct model_job_port {
	char device[64];
	uint32_t port;
	char netdev[IF_NAMESIZE];
	bool shared;
	uint64_t events[HS_NR];		/* fabtel_job_qp_events_total by kind */
	uint64_t flaps;
};

struct model_job {
	bool present;
	struct job_match id;
	uint64_t first_ns, last_qp_ns;	/* CLOCK_REALTIME */
	unsigned int nr_qps;
	unsigned int nr_ports;
	struct model_job_port ports[MODEL_MAX_JOB_PORTS];
	struct health_track track;
	struct health_result result;
};

/* The event log behind /api/v1/events and fabtop's Events pane. */
enum model_event_kind {
	EV_PORT_ADDED, EV_PORT_REMOVED, EV_LINK_DOWN, EV_LINK_UP, EV_LINK_FLAP,
	EV_PAUSE_STORM, EV_PAUSE_STORM_END, EV_ERROR_BURST, EV_QP_ERROR, EV_NR,
};

struct model_event {
	uint64_t seq;			/* from 1, never reused */
	uint64_t at_ns;			/* CLOCK_REALTIME */
	enum model_event_kind kind;
	char device[64];
	uint32_t port;
	int priority;			/* pause storms, else -1 */
	int64_t qpn;			/* QP errors, else -1 */
	char job_id[JOB_ID_LEN];	/* "" if none */
	uint64_t count;			/* flaps or bursts folded into this one */
};

struct model {
	pthread_mutex_t lock;
	const struct config *cfg;
	enum src_state src[SRC_NR];
	char why[SRC_NR][160];
	uint64_t samples;
	uint64_t sample_ns;		/* CLOCK_REALTIME of the last sample */
	double sample_seconds;		/* how long it took */
	struct model_port ports[MODEL_MAX_PORTS];
	struct model_qp qps[MODEL_MAX_QPS];
	/* (dev_index, qpn) -> 1 + index in qps; 0 empty (open addressing) */
	uint16_t qp_index[MODEL_QP_INDEX];
	struct model_job jobs[MODEL_MAX_JOBS];
	uint64_t qps_dropped, jobs_dropped;
	uint64_t bpf_pruned[2];		/* rxe, wire map entries of gone QPs deleted */
	uint64_t bpf_read_errors[2];	/* rxe, wire map walks that failed */
	struct model_event events[MODEL_MAX_EVENTS];	/* a ring, by seq */
	uint64_t next_event_seq;
	uint64_t started_ns;		/* CLOCK_REALTIME of collect_init: names this log */
	/*
	 * Called under lock each time an event is logged, with the new
	 * next_event_seq (fabteld's long polls of /api/v1/events); must not
	 * take lock.  NULL: nobody listens.
	 */
	void (*on_event)(void *arg, uint64_t next_seq);
	void *on_event_arg;
	struct collect_bpf *bpf;	/* NULL without BPF */
};

const char *model_source_name(enum model_source s);
const char *model_ctr_name(enum model_ctr c);
/* The Prometheus name of a health signal kind in fabtel_job_qp_events_total. */
const char *model_event_kind(enum health_sig s);
/* "link_flap", "pause_storm", ... */
const char *model_event_name(enum model_event_kind k);
/* A present port by device name and number, NULL if none. */
const struct model_port *model_find_port(const struct model *m, const char *dev, uint32_t port);
/* "rx_gbps", "oos", ... */
const char *model_hist_name(enum model_hist h);
/* The i-th newest history point of a port (0: the newest), NULL past the end. */
const struct model_hist_point *model_hist_get(const struct model_port *p, unsigned int i);
/* The event with sequence number seq, NULL if never logged or overwritten. */
const struct model_event *model_event_get(const struct model *m, uint64_t seq);

/*
 * Log an event (m->lock held), as the collector does; the oldest is
 * overwritten when the ring is full.  For tests and fuzzers.
 */
struct model_event *model_log_event(struct model *m, enum model_event_kind kind,
				    const char *device, uint32_t port, uint64_t at_ns);

/* Set up the model; loads BPF if cfg says so and we may (reasons in why[]). */
int collect_init(struct model *m, const struct config *cfg);
/* Attach the wire program to the ports' netdevs (root only, before dropping). */
void collect_attach_wire(struct model *m);
/* One pass over all sources; takes m->lock only to publish. */
void collect_sample(struct model *m);
/* Poll BPF events in a thread of their own from now on (fabteld's loop). */
void collect_start_events(struct model *m);
/* Wait up to ms for BPF events (handled), or just sleep. */
void collect_wait(struct model *m, int ms);
void collect_fini(struct model *m);

#endif /* FABTELD_COLLECT_H */
