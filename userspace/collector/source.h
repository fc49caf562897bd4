/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source.h - the collector's sources and what they read.
 *
 * Each pass, collect_sample() asks every source, in the order of
 * collect.c's table, to fill its part of one struct raw, without the model's
 * lock; then it folds the readings into the model under the lock (fold.h).
 * A source is one file with one struct source_ops: open (once, may be
 * NULL), sample (each pass; false when it returned without a system call:
 * on standby, or nothing due), close (may be NULL).  Its own state is
 * priv_size bytes the collector allocates, zeroed, and passes to each op
 * (collector.h).  It says how it is (up, standby, unavailable) and why, in
 * the raw readings for the model's source table (or in the model itself
 * at open, for the BPF programs).
 *
 * A new source: a new source_<name>.c with its ops, a line in collect.c's
 * table, a SRC_ entry if it has a state of its own (model.h).
 */
#ifndef FABTEL_SOURCE_H
#define FABTEL_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "ddm.h"
#include "kmsg_match.h"
#include "ethnl.h"
#include "rdmanl.h"

/* One of fabtel.ko's error bursts (ports/<n>/events): a counter's rise in one sample. */
struct raw_burst {
	uint64_t seq;
	uint64_t at_ns;				/* CLOCK_REALTIME */
	uint64_t amount;			/* the rise */
	uint64_t span_ns;			/* within: fabtel.ko's sample period; 0 unknown */
	char counter[32];
};

#define RAW_BURSTS	32

_Static_assert(FABTEL_NR_COUNTERS <= 32, "raw_port.held holds a bit per counter");

/* One RoCE port as a source read it. */
struct raw_port {
	char device[64];
	uint32_t port;
	char netdev[IF_NAMESIZE];
	char driver[32];
	bool soft_roce;			/* Soft-RoCE (rxe): its frames pass the kernel's stack */
	char state[24];
	int carrier;			/* -1 unknown */
	uint64_t flaps;
	bool have_flaps;
	uint64_t ctr[FABTEL_NR_COUNTERS];
	bool have[FABTEL_NR_COUNTERS];
	uint32_t held;				/* bit k: ctr[k] given again, not read (a quiet file) */
	uint64_t pma[FABTEL_NR_PMA];		/* IB port counters, data in bytes */
	bool have_pma[FABTEL_NR_PMA];
	bool pma_known;				/* fabtel.ko said: no counters/ listing */
	uint64_t pma_errors;			/* PMA samples not answered (fabtel.ko) */
	bool have_pma_errors;
	uint64_t rate_mbps;			/* ports/<n>/rate: "100 Gb/sec (4X EDR)" */
	unsigned int lanes;			/* its width (4X: 4 lanes) */
	bool have_rate;
	uint64_t nd_speed_mbps;			/* the netdev's negotiated speed */
	bool have_nd_speed;			/* false: unknown (-1, down, no netdev) */
	struct ethnl_linkmodes lm;		/* the fastest modes (ethtool) ... */
	bool have_lm;				/* ... when asked and answered */
	uint64_t es_prio[ES_PRIO_NR][MODEL_PRIOS];	/* driver statistics (ethtool -S) */
	bool have_es_prio[ES_PRIO_NR][MODEL_PRIOS];
	uint64_t es_port[ES_PORT_NR];
	bool have_es_port[ES_PORT_NR];
	char es_vendor[16];
	uint8_t width[FABTEL_NR_COUNTERS];	/* bits of the source's counter: 32 may wrap */
	uint64_t bursts;
	bool have_bursts;
	uint64_t rec_seq;		/* the newest flight record's seq (recorder_seq) */
	bool have_rec_seq;
	uint64_t events_dropped;
	bool have_events_dropped;
	uint64_t dcb_busy_skips;
	bool have_busy_skips;
	bool pfc_read;
	uint8_t pfc_mask;
	bool prio_read[MODEL_PRIOS];
	uint64_t pause_tx[MODEL_PRIOS], pause_rx[MODEL_PRIOS], storms[MODEL_PRIOS];
	bool storm[MODEL_PRIOS];
	uint32_t fec_mode;			/* ethtool's active FEC link-mode bit; 0 unknown */
	uint64_t fec[ETHNL_FEC_NR];		/* FEC statistics, totals (ethnl.h) */
	bool have_fec[ETHNL_FEC_NR];
	bool fec_known;				/* fabtel.ko's snapshot said: no ethtool query */
	struct ddm ddm;				/* the plugged module's diagnostics */
	int ddm_err;				/* 0, or why there are none (-errno) */
	bool ddm_read;				/* the ethtool source tried */
	bool ddm_by_ko;				/* ... from fabtel.ko's module pages */
	struct port_config cfg;			/* RoCE configuration (source_config.c) */
	bool have_nd;			/* the netdev's byte counters */
	uint64_t nd_rx_bytes, nd_tx_bytes;
	/* fabtel.ko's detail of the bursts and the flap since the last pass (ko_events.c) */
	struct raw_burst burst_ev[RAW_BURSTS];	/* the newest, oldest first */
	unsigned int nr_burst_ev;
	uint64_t flap_down_ns;			/* the last flap's down time */
	bool have_flap_down;
	int ifindex;			/* the netdev's (snapshot, or sysfs ifindex); 0: ask */
	bool nd_by_ko;			/* fabtel.ko's snapshot had them (or said none) */
	bool speed_by_ko;		/* ... and the netdev's speed */
	struct port_reads reads;	/* how its reads fared: fabtel.ko's lines, fabteld's back-offs */
};

/* A QP from RDMA netlink and its owner from /proc. */
struct raw_qp {
	struct rdmanl_qp nl;
	char comm[16];
	char user[32];		/* the owner's user name, else its uid; "" unknown */
	struct job_match job;
	bool has_job;
	bool has_peer;		/* peer: the GID of the QP's AV (BPF qp map; qp_counters = peer) */
	uint8_t peer[16];
};

#define RAW_RXE_KINDS	16

struct raw_rxe {			/* the rxe program's counts of one QP */
	uint32_t dev_index, qpn;
	uint64_t n[RAW_RXE_KINDS];
};

/* wire map entries a pass reads: a QP has up to two (ingress, egress) */
#define RAW_MAX_WIRE	(2 * MODEL_MAX_QPS)

struct raw_wire {			/* the wire program's packets of one QP key */
	uint32_t ifindex, qpn, dir;
	uint64_t pkts;
};

/*
 * One of the NIC's counter sets (source_qpcnt.c: RDMA netlink, what `rdma
 * statistic qp show` lists), its counters as the schema names them.
 */
#define RAW_MAX_QPCNT	128

struct raw_qpcnt {
	uint32_t dev_index;
	char device[64];
	uint32_t port, id, mode;
	uint32_t pid;			/* auto by PID: the process; 0 otherwise */
	unsigned int nr_qpns;		/* QPs bound (those listed in raw.qpcnt_qp) */
	bool ours;			/* qp_counters = peer: a set fabteld made */
	bool has_peer;			/* ... for the QPs towards peer (a GID) */
	uint8_t peer[16];
	uint64_t ctr[FABTEL_NR_COUNTERS];
	bool have[FABTEL_NR_COUNTERS];
};

/* A QP bound to a counter set: cnt its index in raw.qpcnt. */
struct raw_qpcnt_qp {
	uint32_t dev_index, qpn;
	uint16_t cnt;
};

/* A port's counter mode as last asked, and what fabteld did about it. */
struct raw_qpcnt_port {
	char device[64];
	uint32_t port;
	uint32_t mode, mask;		/* RDMASTAT_MODE_*, RDMASTAT_MASK_* */
	bool ours;			/* auto mode is on because fabteld turned it on */
	int err;			/* the mode could not be read or set: -errno; 0 */
	char why[96];			/* ... and the kernel's words, "" none */
};

#define RAW_AER_KINDS	40	/* AER kinds kept per function (6.1 has 31 in all) */
#define RAW_AER_NAME	24

/* One RDMA device's PCI function (source_pcie.c); 0: unknown. */
struct raw_pcie {
	char device[64];
	char bdf[16];			/* "" no PCIe function (why says so) */
	unsigned int cur_mts, max_mts, slot_mts;	/* link speed, MT/s (8000: 8 GT/s) */
	unsigned int cur_w, max_w, slot_w;		/* link width, lanes */
	bool have_aer;
	uint64_t aer_total[3];		/* correctable, nonfatal, fatal */
	unsigned int nr_aer;
	struct {
		uint8_t sev;		/* index in aer_total */
		char name[RAW_AER_NAME];
		uint64_t n;
	} aer[RAW_AER_KINDS];
	char why[64];
};

#define RAW_REPORTERS	16	/* devlink health reporters kept per device */

/* An RDMA device's devlink health reporters (source_devlink.c). */
struct raw_health {
	char device[64];
	bool has_handle;		/* its device resolves to a devlink handle */
	char bus[64], dev[64];		/* the handle: "pci", "0000:03:00.0" */
	unsigned int nr, over;
	struct {
		char name[32];
		bool has_port;		/* a devlink port's reporter */
		uint32_t port;
		bool error;
		uint64_t errors, recovers;
	} rep[RAW_REPORTERS];
};

#define RAW_KMSG_DEVS	MODEL_KMSG_DEVS	/* + the lines that name no watched device */
#define RAW_KMSG_EVENTS	32	/* (device, pattern) pairs logged as events per pass */

/*
 * The driver messages (source_kmsg.c, kmsg_match.h) of one RDMA device,
 * or (device "") of none watched: counts per pattern since fabteld began.
 */
struct raw_kmsg_dev {
	char device[64];
	uint64_t n[KMSG_MAX_PATTERNS];
	bool wedged;			/* a TX timeout, then a lockup in its driver */
	uint64_t wedged_ns;		/* CLOCK_REALTIME of the lockup */
	char wedged_why[160];
	uint64_t last_seq;		/* the last error line's record */
	char last_text[160];
};

/* A (device, pattern) the pass saw: an event. */
struct raw_kmsg_event {
	char device[64];
	unsigned int pattern;
	uint64_t n, at_ns;		/* lines, CLOCK_REALTIME of the first */
	bool wedged;			/* the device was found wedged */
};

/*
 * The devlink handle of RDMA device dev: the bus and name its
 * <root>/sys/class/infiniband/<dev>/device link resolves to ("pci",
 * "0000:03:00.0"); false if it does not (source_devlink.c).
 */
bool source_device_handle(const char *root, const char *dev, char *bus, char *name, size_t len);

/* source_pcie.c's parsers, for tests */
unsigned int pcie_parse_speed(const char *s);
unsigned int pcie_parse_width(const char *s);
bool pcie_parse_aer(const char *text, unsigned int sev, struct raw_pcie *q);

/* One pass's readings. */
struct raw {
	/* ports: fabtel.ko's, else plain sysfs's */
	struct raw_port ports[MODEL_MAX_PORTS];
	unsigned int nr_ports;
	unsigned int ports_over;	/* RoCE ports found past the table's size */
	bool ko;			/* the ports are fabtel.ko's (64-bit counters) */
	uint64_t ports_mono;		/* CLOCK_MONOTONIC when the port source that read them ended */
	/* QPs */
	struct raw_qp qps[MODEL_MAX_QPS];
	unsigned int nr_qps, qps_over;
	int nl_err;
	/* BPF: per-QP counts; *_err: a map walk failed, its entries are partial */
	struct raw_rxe rxe[MODEL_MAX_QPS];
	unsigned int nr_rxe;
	struct raw_wire wire[RAW_MAX_WIRE];
	unsigned int nr_wire;
	bool rxe_err, wire_err;		/* failed, or cut off at the array's size */
	uint64_t wire_refused[2];	/* frames not counted per QP: map full, QP unknown */
	bool have_wire_refused;
	uint64_t ring_drops[3];		/* flap, qp, rxe: events the rings lost */
	bool have_ring_drops;
	/* NIC counter sets; qpcnt_read false: not due this pass (the model keeps its) */
	bool qpcnt_read;
	struct raw_qpcnt qpcnt[RAW_MAX_QPCNT];
	unsigned int nr_qpcnt, qpcnt_over;
	struct raw_qpcnt_qp qpcnt_qp[MODEL_MAX_QPS];
	unsigned int nr_qpcnt_qp, qpcnt_qp_over;
	struct raw_qpcnt_port qpcnt_port[MODEL_MAX_PORTS];
	unsigned int nr_qpcnt_port;
	uint64_t qpcnt_requests;	/* RDMA netlink requests the source made, in all */
	/* PCIe functions; pcie_read false: not due this pass (the model keeps its) */
	bool pcie_read;
	struct raw_pcie pcie[MODEL_MAX_PORTS];
	unsigned int nr_pcie;
	/* devlink health reporters; health_read false: not read this pass */
	bool health_read;
	struct raw_health health[MODEL_MAX_PORTS];
	unsigned int nr_health;
	/* driver messages; kmsg_read false: the log was not read (the model keeps its) */
	bool kmsg_read;
	struct raw_kmsg_dev kmsg[RAW_KMSG_DEVS];
	unsigned int nr_kmsg;
	struct raw_kmsg_event kmsg_ev[RAW_KMSG_EVENTS];
	unsigned int nr_kmsg_ev, kmsg_ev_over;
	uint64_t kmsg_records, kmsg_lost, kmsg_user;	/* read, lost (overwritten), not the kernel's */
	/* the states the sources reported this pass (the others keep theirs) */
	bool reported[SRC_NR];
	enum src_state state[SRC_NR];
	char why[SRC_NR][160];
	/* scratch: a port past the table, parsed to be counted; an errno's text */
	struct raw_port over;
	char errtext[32];
};

/* A source's state and reason for this pass. */
/*
 * errno's text, untranslated: the reports a source makes each pass while
 * it is unavailable (strerror's message catalogue lookup cost more than
 * the rest of the report)
 */
const char *raw_strerror(struct raw *r, int err);
void raw_report(struct raw *r, enum model_source s, enum src_state st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

struct collector;

struct source_ops {
	const char *name;
	size_t priv_size;		/* its state's size (0: none, priv NULL) */
	void (*open)(struct collector *c, void *priv);
	/* true if it asked the kernel anything (a file, a socket, a map) */
	bool (*sample)(struct collector *c, void *priv, struct raw *r);
	void (*close)(struct collector *c, void *priv);
	/*
	 * The BPF source's (NULL for the others; collect.h says when):
	 * attach the wire program; detach it, from any thread; poll events
	 * in a thread of its own; wait for events; the map entries of gone
	 * QPs deleted so far (which: 0 rxe, 1 wire).
	 */
	void (*attach_wire)(struct collector *c, void *priv);
	void (*detach_wire)(void *priv);
	void (*start_events)(void *priv);
	void (*wait)(void *priv, int ms, int wake_fd);
	uint64_t (*pruned)(const void *priv, int which);
};

extern const struct source_ops source_ko;	/* source_ko.c */
extern const struct source_ops source_sysfs;	/* source_sysfs.c */
extern const struct source_ops source_qps;	/* source_qps.c */
extern const struct source_ops source_qpcnt;	/* source_qpcnt.c */
extern const struct source_ops source_bpf;	/* source_bpf.c */
extern const struct source_ops source_ethtool;	/* source_ethtool.c */
extern const struct source_ops source_ethstats;	/* source_ethstats.c */
extern const struct source_ops source_config;	/* source_config.c */
extern const struct source_ops source_pcie;	/* source_pcie.c */
extern const struct source_ops source_devlink;	/* source_devlink.c */
extern const struct source_ops source_kmsg;	/* source_kmsg.c */

/*
 * What fabtel.ko does not (yet) give, from ib_core's and the netdev's sysfs,
 * for both port sources: the IB port (PMA) counters, the port's rate and
 * width, the netdev's speed.  Absent or unparsable files stay absent.
 */
void sysfs_read_port_extras(struct collector *c, struct raw_port *p);
/*
 * The parsers, public for their unit tests and fuzzers.
 *
 * ko_parse_snapshot: one fabtel.ko snapshot file's text (modified: it is
 * tokenized in place) into p, which must be zeroed; 0, or -EPROTO if it is
 * not a whole version 1 snapshot (Documentation/ABI/testing/sysfs-kernel-fabtel).
 */
int ko_parse_snapshot(char *text, struct raw_port *p);
/*
 * ko_parse_module: fabtel.ko's ports/<n>/module text (tokenized in place)
 * decoded through ddm.c, pages[] its scratch: 0, the module's own error
 * (-ENODEV no module, -EOPNOTSUPP no module interface, -ENODATA not read
 * yet), -EPROTONOSUPPORT from the decoder, or -EPROTO if malformed.
 */
int ko_parse_module(char *text, uint8_t pages[5][DDM_PAGE_LEN], struct ddm *out);
/*
 * sysfs_read_port: the port directory base (<root>/sys/class/infiniband/
 * <dev>/ports/<port>) and its netdev's files into p; 0, or -ENODEV if it
 * is not an Ethernet port or went away.
 */
int sysfs_read_port(struct collector *c, const char *base, const char *dev,
		    const char *port, struct raw_port *p);

/*
 * The netdev's byte counters (/sys/class/net/<netdev>/statistics): the
 * throughput of a port whose RDMA device counts no bytes (rxe).  They
 * include the netdev's non-RDMA traffic.
 */
void sysfs_read_netdev_bytes(struct collector *c, struct raw_port *p);

/*
 * A wire map entry as one sortable key: interface, direction, BTH QP number
 * (24 bits): the fold looks QPs up by it and the pruning names dead entries
 * by it.
 */
static inline uint64_t raw_wire_key(uint32_t ifindex, uint32_t dir, uint32_t qpn)
{
	return (uint64_t)ifindex << 32 | (uint64_t)(dir & 0xff) << 24 | (qpn & 0xffffff);
}

#endif /* FABTEL_SOURCE_H */
