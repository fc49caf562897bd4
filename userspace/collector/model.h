/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - the collector's model of the host: sources, RoCE ports, QPs,
 * jobs, the event log and the rate history.
 *
 * The collector (collect.h) brings it up to date each pass; readers (fabteld's
 * HTTP handlers, fabtop's standalone feed) take model->lock and read.  Nothing
 * under the lock touches a source, so a slow source never blocks a reader.
 */
#ifndef FABTEL_MODEL_H
#define FABTEL_MODEL_H

#include <net/if.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "ddm.h"
#include "devfilter.h"
#include "devshape.h"
#include "ethnl.h"
#include "fsread.h"
#include "clock.h"
#include "fabtel_schema.h"
#include "health.h"
#include "kmsg_match.h"
#include "link_trend.h"
#include "sticky.h"
#include "jobs.h"
#include "mono.h"
#include "opts.h"
#include "port_reads.h"
#include "records.h"

#define MODEL_MAX_PORTS		64
#define MODEL_PASS_SOURCES	11	/* the collector's sources (collect.c) */
#define MODEL_MAX_QPS		4096
#define MODEL_QP_INDEX		(2 * MODEL_MAX_QPS)	/* a power of two */
#define MODEL_MAX_JOBS		64
/*
 * A job's ports: a GPU host has up to 8 backend RoCE NICs and 1-2 front
 * end ones, 1-2 ports each (a job on every port of such a host fits)
 */
#define MODEL_MAX_JOB_PORTS	32
#define MODEL_PRIOS		8
#define MODEL_MAX_EVENTS	256
#define MODEL_MAX_EXCLUDED	32	/* excluded devices listed (the rest counted) */
#define MODEL_MAX_QPCNT		128	/* NIC counter sets kept (RAW_MAX_QPCNT) */
#define MODEL_QPC_SIGS		4	/* the error counters a counter set stands for (fold_qpcnt.c) */
#define MODEL_HISTORY		300	/* samples of port rates kept for job traces */

/*
 * A port's RoCE configuration as the config source audits it
 * (source_config.c, Documentation/fabteld.rst "RoCE configuration").
 */
struct port_config {
	bool read;			/* the source looked (every module_s) */
	int dcb_err;			/* 0, or why there is no DCB state (-errno) */
	bool have_pfc;
	uint8_t pfc_en;			/* PFC-enabled priorities, a bit each */
	bool dscp_mode;			/* the APP table maps DSCP values (trust dscp) */
	uint8_t dscp_prio[64];		/* priority + 1 per DSCP; 0 unmapped */
	int tos;			/* the RoCE ToS; -1 unknown */
	const char *tos_source;		/* "config", "rdma_cm" or "" */
	int tos_prio;			/* the priority that ToS lands on; -1 unknown */
	unsigned int mtu;		/* the netdev's MTU; 0 unknown */
	int roce_v2_gids;		/* RoCE v2 GIDs in the table; -1 unknown */
};

enum model_source {
	SRC_FABTEL_KO,
	SRC_SYSFS,
	SRC_BPF_FLAP,
	SRC_BPF_QP,
	SRC_BPF_RXE,
	SRC_BPF_WIRE,
	SRC_RDMA_NETLINK,
	SRC_ETHTOOL,
	SRC_ETHSTATS,
	SRC_CONFIG,
	SRC_QP_COUNTERS,
	SRC_PCIE,
	SRC_DEVLINK,
	SRC_KMSG,
	SRC_NR,
};

enum src_state {
	SRC_STATE_STANDBY,	/* not needed (sysfs while fabtel.ko is there) */
	SRC_STATE_UP,
	SRC_STATE_UNAVAILABLE,	/* why says why */
};

/*
 * The normalized counters are enum fabtel_counter, FABTEL_*, from the one
 * schema fabtel.ko shares (include/fabtel_schema.h, schema.h).
 */

/* Per-port rates kept each sample: the counter tracks of a job's trace. */
enum model_hist {
	HIST_RX_GBPS, HIST_TX_GBPS, HIST_OOS, HIST_NAK, HIST_ACK_TIMEOUT, HIST_RETRY, HIST_CNP,
	HIST_ECN, HIST_PAUSE_TX, HIST_PAUSE_RX, HIST_NR,
};

/* driver statistics (ethtool -S) through the vendor map of source_ethstats.c */
enum es_prio_stat { ES_PAUSE_RX, ES_PAUSE_RX_US, ES_PAUSE_TX, ES_PAUSE_TX_US, ES_PRIO_NR };
enum es_port_stat { ES_SYMBOL_ERRORS, ES_CRC_ERRORS, ES_DISCARDS, ES_PORT_NR };

struct model_hist_point {
	uint64_t at_ns;			/* CLOCK_REALTIME */
	float v[HIST_NR];			/* per second (Gb/s); NAN when not known */
};

/*
 * A port's probe summary (fabteld's prober, Documentation/probes.rst),
 * written after each pass; the next pass's verdicts read it.
 */
struct port_probe {
	bool have;			/* the prober runs here */
	unsigned int pairs, reachable;	/* peers, and those that answered in the window */
	unsigned int loss_bad, latency_bad;	/* pairs at or over probe_loss_pct, probe_rtt_us */
	unsigned int unresolved;	/* pairs whose peer's address could not be resolved */
	double worst_loss, worst_rtt_s;	/* -1 unknown */
	char loss_peer[96], rtt_peer[96];	/* HOST/DEVICE/PORT of the worst pairs */
	unsigned int loss_flows, loss_flows_losing;	/* the worst loss pair's flows, losing */
	uint64_t loss_since_ns, latency_since_ns;	/* CLOCK_REALTIME, while bad */
};

/* path_loss's evidence in words (fold_jobs.c): "1 of 1 peers lose probes; worst: 2 of 8 flows ..." */
void port_probe_loss_text(const struct port_probe *q, char *out, size_t len);

struct model_port {
	bool present;
	char device[64];
	uint32_t port;
	char netdev[IF_NAMESIZE];	/* "" if none */
	int ifindex;
	char driver[32];
	bool soft_roce;			/* Soft-RoCE: BPF sees its frames and per-QP events */
	char state[24];			/* IB port state, "ACTIVE", ... */
	int carrier;			/* -1 unknown */
	int carrier_logged;		/* the state the last link_down/up event said */
	struct mono flaps;
	bool have_flaps;
	struct mono ctr[FABTEL_NR_COUNTERS];
	bool have[FABTEL_NR_COUNTERS];
	struct mono pma[FABTEL_NR_PMA];		/* IB port counters (schema_pma_*) */
	bool have_pma[FABTEL_NR_PMA];
	struct mono fec[ETHNL_FEC_NR];		/* FEC statistics (ethtool) */
	bool have_fec[ETHNL_FEC_NR];
	uint32_t fec_mode;			/* ethtool's active FEC bit; 0 unknown */
	struct ddm ddm;				/* the module's diagnostics (ethtool) */
	bool have_ddm;				/* decoded at its last read */
	bool ddm_read;				/* the ethtool source asked */
	bool ddm_by_ko;				/* fabtel.ko read the pages, not ethtool */
	int ddm_err;				/* why not decoded (-errno), else 0 */
	bool optics_trouble;			/* ddm_trouble(): an alarm, rx power low */
	struct link_trend trend;		/* FEC, symbol errors: link_degrading */
	struct port_sticky sticky;		/* recent_fault (sticky.c) */
	struct port_config cfg;			/* RoCE configuration (source_config.c) */
	bool misconfigured;			/* RoCE ToS lands on a priority without PFC */
	uint64_t misconfigured_ns;		/* CLOCK_REALTIME, since */
	uint64_t optics_since_ns;		/* CLOCK_REALTIME, while in trouble */
	uint64_t link_err_ns;			/* CLOCK_REALTIME of the last link-error rise */
	/* speed: the IB port's rate and lanes, the netdev's, the most seen ACTIVE */
	uint64_t rate_mbps, rate_max_mbps, nd_speed_mbps;
	unsigned int lanes;
	bool have_rate, have_nd_speed;
	uint32_t lm_supported_mbps, lm_advertised_mbps, lm_peer_mbps;	/* ethtool; 0 none */
	bool have_lm;
	struct mono es_prio[ES_PRIO_NR][MODEL_PRIOS];	/* driver statistics, mapped */
	bool have_es_prio[ES_PRIO_NR][MODEL_PRIOS];
	struct mono es_port[ES_PORT_NR];
	bool have_es_port[ES_PORT_NR];
	char es_vendor[16];			/* the map that named them; "" none */
	bool degraded;			/* ACTIVE below rate_max_mbps */
	uint64_t degraded_ns;		/* CLOCK_REALTIME it was first seen so */
	struct rate rate[FABTEL_NR_COUNTERS];		/* per second between its last two reads */
	struct mono bursts;		/* fabtel.ko error-burst events */
	bool have_bursts;
	struct mono events_dropped;	/* fabtel.ko's events lost: its ring was full */
	bool have_events_dropped;
	struct mono dcb_busy_skips;	/* fabtel.ko's DCB reads skipped: RTNL busy */
	bool have_busy_skips;
	struct mono pma_errors;		/* fabtel.ko's PMA samples not answered */
	bool have_pma_errors;
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
	uint64_t flap_timed_ns;		/* the last_flap_ns a counted flap already took */
	struct port_probe probe;		/* fabteld's prober; have false without */
	struct port_reads reads;		/* how its reads fare: fabtel.ko's, fabteld's (port_reads.h) */
	struct dev_shape shape;			/* PCI function, PF or VFs, bond (devices.c) */
	/* the NIC's counter sets on the port (fold_qpcnt.c, qp_counters.rst) */
	bool qpc_known;			/* its counter mode was read */
	uint32_t qpc_mode, qpc_mask;	/* RDMASTAT_MODE_*, RDMASTAT_MASK_* */
	bool qpc_ours;			/* auto mode on because fabteld turned it on */
	int qpc_err;			/* -errno of the mode's read or set; 0 */
	char qpc_why[96];
	unsigned int qpc_counters;	/* counter sets on it at the last read */
	unsigned int qpc_bound, qpc_unbound;	/* its live QPs in a counter set, in none */
	bool qpc_active;		/* counter sets stand for its error counters */
	bool qpc_fresh;			/* read this pass: qpc_resid and the sets' rises are due */
	uint64_t qpc_acc[MODEL_QPC_SIGS];	/* its error counters' rise since the last read */
	uint64_t qpc_resid[MODEL_QPC_SIGS];	/* ... less the sets' rise, at this read */
	uint64_t qpc_over[MODEL_QPC_SIGS];	/* the sets rose more than the port (carried) */
};

struct model_qp {
	bool present;
	bool seen;			/* in this pass's reading (fold_qps) */
	uint32_t dev_index;
	char device[64];
	uint32_t port, qpn, rqpn, pid;
	uint8_t state, type;
	unsigned int err_samples;	/* consecutive samples seen in ERR */
	char comm[16];
	int job;			/* index in jobs, -1 none */
	int qpcnt;			/* the counter set it is bound to: index in qpcnt, -1 none */
	bool has_peer;			/* peer: the GID of its AV (qp_counters = peer) */
	uint8_t peer[16];
	uint64_t rxe_prev[16];
	uint64_t wire_prev;
	uint64_t first_ns;
};

struct model_job_port {
	char device[64];
	uint32_t port;
	uint32_t key;			/* model_port_key(device, port) */
	char netdev[IF_NAMESIZE];
	bool shared;
	uint64_t events[HS_NR];		/* fabtel_job_qp_events_total by kind */
	uint64_t flaps;
	/* the NIC's counter sets of its QPs on the port (fold_qpcnt.c) */
	unsigned int qpc_bound, qpc_unbound;	/* its live QPs in a set, in none */
	unsigned int qpc_sets;			/* sets counting its QPs */
	bool qpc_shared;			/* one of them counts another job's QPs too */
	uint64_t qpc_rise[MODEL_QPC_SIGS];	/* their rise at this read */
	uint64_t qpc_total[MODEL_QPC_SIGS];	/* their values now */
};

struct model_job {
	bool present;
	struct job_match id;
	char user[32];			/* its processes' user ("" unknown) */
	uint64_t first_ns, last_qp_ns;	/* CLOCK_REALTIME */
	unsigned int nr_qps;
	unsigned int nr_ports;
	bool ports_over;		/* its QPs used a port past MODEL_MAX_JOB_PORTS, last pass */
	struct model_job_port ports[MODEL_MAX_JOB_PORTS];
	struct health_track track;
	struct health_result result;
};

/* One of the NIC's counter sets (`rdma statistic qp show`; fold_qpcnt.c). */
struct model_qpcnt {
	uint32_t dev_index;
	char device[64];
	uint32_t port, id, mode, pid;
	unsigned int nr_qpns;
	uint64_t ctr[FABTEL_NR_COUNTERS];
	bool have[FABTEL_NR_COUNTERS];
	uint64_t rise[MODEL_QPC_SIGS];	/* at this read: the error counters' rise */
	int job;			/* the job of its QPs: index in jobs, -1 none, -2 several */
	bool seen_before;		/* in the read before (a new one's values all count) */
	bool ours;			/* made by fabteld (qp_counters = peer) */
	bool has_peer;			/* ... for the job's QPs towards peer (a GID) */
	uint8_t peer[16];
};

#define MODEL_AER_KINDS		40	/* AER kinds kept per PCI function */

/* An RDMA device's PCI function: its PCIe link and AER (fold_pcie.c). */
struct model_pcie {
	char device[64];
	char bdf[16];			/* "" no PCIe function: why */
	char why[64];
	unsigned int cur_mts, max_mts, slot_mts;	/* MT/s; 0 unknown */
	unsigned int cur_w, max_w, slot_w;
	unsigned int best_mts, best_w;	/* the best current link seen since start */
	bool degraded;			/* below what it should run at (detail says how) */
	uint64_t degraded_ns;		/* CLOCK_REALTIME since */
	char detail[96];
	bool have_aer;
	uint64_t aer_total[3];		/* correctable, nonfatal, fatal */
	uint64_t aer_rise[3];		/* ... their rise at this read (fresh) */
	uint64_t aer_rise_ns;		/* CLOCK_REALTIME of the last read they rose at; 0 never */
	unsigned int nr_aer;
	struct {
		uint8_t sev;
		char name[24];
		uint64_t n;
	} aer[MODEL_AER_KINDS];
};

/* An RDMA device's devlink health reporters (fold_devlink.c). */
struct model_health {
	char device[64];
	char handle[130];		/* "pci/0000:03:00.0"; "" none */
	unsigned int nr, over;
	struct {
		char name[32];
		bool has_port;
		uint32_t port;
		bool error;
		uint64_t errors, recovers;
		uint64_t rise;		/* errors' rise at this read */
		uint64_t error_ns;	/* CLOCK_REALTIME since in error; 0 healthy */
	} rep[16];
};

/*
 * An RDMA device's driver messages (fold_kmsg.c; device "": the lines that
 * name no watched device).
 */
#define MODEL_KMSG_DEVS		(MODEL_MAX_PORTS + 1)

struct model_kmsg {
	char device[64];
	uint64_t n[KMSG_MAX_PATTERNS];	/* lines per pattern (kmsg_patterns) since the start */
	uint64_t rise;			/* error lines at this read */
	uint64_t rise_ns;		/* CLOCK_REALTIME of the last read they rose at; 0 never */
	bool wedged;
	uint64_t wedged_ns;		/* CLOCK_REALTIME */
	char wedged_why[160];
	uint64_t last_seq;		/* the last error line: its record, its text */
	char last_text[160];
};

/* The event log behind /api/v1/events and fabtop's Events pane. */
enum model_event_kind {
	EV_PORT_ADDED, EV_PORT_REMOVED, EV_LINK_DOWN, EV_LINK_UP, EV_LINK_FLAP,
	EV_PAUSE_STORM, EV_PAUSE_STORM_END, EV_ERROR_BURST, EV_QP_ERROR,
	EV_DRIVER_MESSAGE,		/* kernel log lines of a pattern (counter: its id), port 0 */
	EV_DRIVER_WEDGED,		/* the device's driver found wedged, port 0 */
	EV_NR,
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
	bool restored;			/* read back from fabtel.ko at start (past.c) */
	char counter[32];		/* error bursts fabtel.ko detailed: the counter, else "" */
	uint64_t amount;		/* ... its rise (0: not known) */
	uint64_t span_ns;		/* ... within (fabtel.ko's sample period; 0: not known) */
	uint64_t down_ns;		/* flaps fabtel.ko timed: how long the link was down */
	bool have_down;
	/*
	 * The jobs with QPs on the port when it was logged, as the last pass
	 * saw them: nr_jobs ids one after the other, each ended by its NUL;
	 * jobs_more: those that did not fit.
	 */
	char jobs[160];
	unsigned int nr_jobs, jobs_more;
};

struct model {
	pthread_mutex_t lock;
	struct collect_opts opts;	/* what collect_init was given */
	enum src_state src[SRC_NR];
	char why[SRC_NR][160];
	uint64_t samples;
	int ports_ko;			/* the last pass's ports were fabtel.ko's; -1 none yet */
	uint64_t sample_ns;		/* CLOCK_REALTIME of the last sample */
	double sample_seconds;		/* how long it took */
	/* the collector thread's CPU time in each source of the pass (collect.c) */
	uint64_t source_cpu_ns[MODEL_PASS_SOURCES];
	const char *source_name[MODEL_PASS_SOURCES];
	unsigned int kept_files;	/* kernel files the collector keeps open */
	struct model_port ports[MODEL_MAX_PORTS];
	/*
	 * ports[] from here on are all free: the loops of each pass stop there,
	 * as at qp_slots (a port is 20 KiB; a loop over all 64 touched 64 pages
	 * of a cold model each time, most of a pass's fixed cost).  Ports take
	 * the lowest free slot (fold_ports.c).
	 */
	unsigned int port_slots;
	/*
	 * Each slot's model_port_key(device, port), 0 for a free one: what a
	 * port lookup scans (256 bytes) in place of the 20 KiB ports, one
	 * lookup per QP per pass (fold_ports.c keeps it with present).
	 */
	uint32_t port_key[MODEL_MAX_PORTS];
	struct model_qp qps[MODEL_MAX_QPS];
	unsigned int qp_slots;		/* qps[] from here on are all free: loops stop there */
	/* (dev_index, qpn) -> 1 + index in qps; 0 empty (open addressing) */
	uint16_t qp_index[MODEL_QP_INDEX];
	/* the RDMA devices' PCI functions at the last read (fold_pcie.c) */
	struct model_pcie pcie[MODEL_MAX_PORTS];
	unsigned int nr_pcie;
	bool pcie_fresh;		/* read this pass: aer_rise is due */
	/* the RDMA devices' devlink health reporters at the last read (fold_devlink.c) */
	struct model_health health[MODEL_MAX_PORTS];
	unsigned int nr_health;
	bool health_fresh;		/* read this pass: rise is due */
	/* the kernel log's driver messages (fold_kmsg.c) */
	struct model_kmsg kmsg[MODEL_KMSG_DEVS];
	unsigned int nr_kmsg;
	bool kmsg_fresh;		/* read this pass: rise is due */
	uint64_t kmsg_records, kmsg_lost, kmsg_user, kmsg_events_over;
	/* the NIC's counter sets at the last read (fold_qpcnt.c) */
	struct model_qpcnt qpcnt[MODEL_MAX_QPCNT];
	unsigned int nr_qpcnt, qpcnt_over;
	uint64_t qpcnt_reads;		/* reads folded */
	uint64_t qpcnt_requests;	/* RDMA netlink requests the source made */
	struct model_job jobs[MODEL_MAX_JOBS];
	/*
	 * jobs[] from here on are all free: the loops of each pass and of the
	 * renderers stop there (a job is 37 KiB: a loop over all 64 touched 64
	 * pages each time, with no job at all).  Jobs take the lowest free slot.
	 */
	unsigned int job_slots;
	uint64_t qps_dropped, jobs_dropped;
	uint64_t bpf_pruned[2];		/* rxe, wire map entries of gone QPs deleted */
	uint64_t bpf_read_errors[2];	/* rxe, wire map walks that failed */
	uint64_t bpf_ring_drops[3];	/* flap, qp, rxe events lost: ring buffers full */
	bool have_ring_drops;		/* the BPF programs are loaded */
	uint64_t wire_refused[2];	/* wire frames not counted per QP: map full, QP unknown */
	bool have_wire_refused;		/* the wire program is loaded */
	unsigned int ports_over;	/* RoCE ports beyond MODEL_MAX_PORTS, last pass */
	unsigned int jobs_over_ports;	/* jobs with ports_over, last pass */
	struct model_event events[MODEL_MAX_EVENTS];	/* a ring, by seq */
	struct model_records records;	/* fabtel.ko's flight records (records.h) */
	uint64_t next_event_seq;
	uint64_t started_ns;		/* CLOCK_REALTIME of collect_init: names this log */
	/*
	 * Called under lock each time an event is logged, with the new
	 * next_event_seq (fabteld's long polls of /api/v1/events); must not
	 * take lock.  NULL: nobody listens.
	 */
	void (*on_event)(void *arg, uint64_t next_seq);
	void *on_event_arg;
	/* the devices the include/exclude lists leave out, as the last walk listed them (devices.c) */
	struct devfilter_hit excluded[MODEL_MAX_EXCLUDED];
	unsigned int nr_excluded, excluded_more;
	uint64_t excluded_gen;		/* bumped when the list changes */
};

const char *model_source_name(enum model_source s);
/* "up", "standby", "unavailable" */
const char *model_src_state_name(enum src_state s);
/* The Prometheus name of a health signal kind in fabtel_job_qp_events_total. */
const char *model_event_kind(enum health_sig s);
/* "link_flap", "pause_storm", ... */
const char *model_event_name(enum model_event_kind k);
/* "rx_gbps", "oos", ... */
const char *model_hist_name(enum model_hist h);

/* The key of a port in port_key: a hash of its device name and number, never 0. */
uint32_t model_port_key(const char *dev, uint32_t port);
/* A present port by device name and number, NULL if none. */
const struct model_port *model_find_port(const struct model *m, const char *dev, uint32_t port);
/* The same, writable (the collector's folds). */
struct model_port *model_port_get(struct model *m, const char *dev, uint32_t port);

/* The i-th newest history point of a port (0: the newest), NULL past the end. */
const struct model_hist_point *model_hist_get(const struct model_port *p, unsigned int i);
/* Keep this sample's rates of a port in its history ring. */
void model_hist_record(struct model_port *p, uint64_t now_ns);

/* The event with sequence number seq, NULL if never logged or overwritten. */
const struct model_event *model_event_get(const struct model *m, uint64_t seq);
/*
 * Log an event (m->lock held); the oldest is overwritten when the ring is
 * full.  on_event is told.
 */
struct model_event *model_log_event(struct model *m, enum model_event_kind kind,
				    const char *device, uint32_t port, uint64_t at_ns);

/*
 * The QP table's index, (device index, QP number) -> slot: looked up once
 * per QP per source each pass, so a hash, not a walk of every slot.
 */
void model_qp_index_add(struct model *m, unsigned int slot);
void model_qp_index_rebuild(struct model *m);
struct model_qp *model_find_qp(struct model *m, uint32_t dev_index, uint32_t qpn);

/* A job by id; create: make it if absent (NULL if the table is full, counted). */
struct model_job *model_find_job(struct model *m, const struct job_match *id, bool create,
				 uint64_t now_ns);
/* job_slots one past the highest present job again, after jobs went */
void model_job_slots_trim(struct model *m);
/* The job's entry for port p, added if new (NULL if the job has too many). */
struct model_job_port *model_job_port(struct model_job *j, const struct model_port *p);
/* Give a job a health signal. */
/* The same, from the NIC's counter sets of the job's own QPs (peer: a set by peer's GID). */
void model_signal_job_counter(struct model_job *j, enum health_sig sig, const char *dev,
			      uint32_t port, uint64_t n, const uint8_t *peer, uint64_t at_ns);
void model_signal_job(struct model_job *j, enum health_sig sig, const char *dev, uint32_t port,
		      uint64_t n, bool shared, uint64_t at_ns);

#endif /* FABTEL_MODEL_H */
