/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prober.h - fabteld's active RDMA prober (Documentation/probes.rst).
 *
 * On each ACTIVE RoCE port it opens one UD QP that answers probes and sends
 * probes, at probe_rate per port, round-robin to the port's peers: the UD
 * endpoints other fabtelds publish at /api/v1/probe/endpoints, fetched from
 * the addresses in the config or a peers file, on the same subnet as the
 * port.  Each (port, peer) pair keeps loss and RTT (probe_stats.h).
 *
 * Threads: the prober thread owns the verbs resources and the clock of the
 * probes; the fetcher thread reads the peers' documents (libcurl).  Both
 * write the tables below under lock; the renderers read them under lock.
 */
#ifndef FABTEL_PROBER_H
#define FABTEL_PROBER_H

#include <net/if.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "probe_doc.h"
#include "probe_pkt.h"
#include "probe_stats.h"

#define PROBE_MAX_PORTS		16
#define PROBE_MAX_PEERS		32	/* per port: the cost and series stay bounded */
#define PROBE_MAX_SOURCES	128	/* peer fabteld addresses, config + file */
#define PROBE_SRC_EPS		16	/* endpoints taken from one peer document */
#define PROBE_MAX_TOS_RULES	16
#define PROBE_RESP_AH		32	/* address handles kept for requesters not our peers */
#define PROBE_ADDR_LEN		128

struct model;

struct probe_cfg {
	bool enabled;
	char host[PROBE_NAME_LEN];	/* this host's name in the documents */
	char peers[PROBE_MAX_SOURCES][PROBE_ADDR_LEN];	/* HOST:PORT of peer fabtelds */
	unsigned int nr_peers;
	char peers_file[256];		/* "" none */
	unsigned int rate;		/* probes a second per port */
	unsigned int timeout_ms;
	unsigned int window_s;		/* loss and RTT quantiles over this */
	unsigned int max_peers;		/* per port, <= PROBE_MAX_PEERS */
	unsigned int refresh_s;		/* peers' documents read again */
	unsigned int peer_ttl_s;	/* a peer whose document cannot be read goes */
	unsigned int reply_rate;	/* requests answered a second per port */
	unsigned int qkey;
	int tos;			/* traffic class; -1: the RoCE ToS, else 0 */
	unsigned int sl;
	struct {
		char device[PROBE_NAME_LEN];
		uint32_t port;
		unsigned int tos;
	} tos_rules[PROBE_MAX_TOS_RULES];	/* probe_tos = DEVICE/PORT=TOS */
	unsigned int nr_tos_rules;
	unsigned int loss_pct;		/* path_loss at or above this loss */
	unsigned int rtt_us;		/* path_latency at or above this median RTT */
	bool match_all;			/* probe every peer endpoint, not only same-subnet */
};

void probe_cfg_defaults(struct probe_cfg *c);

struct probe_pair {
	bool present;
	struct probe_endpoint peer;
	uint64_t seen_ns;		/* monotonic: its document last listed it */
	struct ibv_ah *ah;
	struct probe_stats st;
};

struct probe_port {
	bool present;			/* the collector lists it */
	bool active;			/* ACTIVE, Ethernet link layer: probe it */
	bool up;			/* its QP answers and sends */
	char device[PROBE_NAME_LEN];
	uint32_t port;
	char netdev[IF_NAMESIZE];
	int tos;			/* from the model: the RoCE ToS; -1 unknown */
	char why[160];			/* why it is not up */
	uint64_t retry_ns;		/* monotonic: no reopen before */
	/* verbs (the prober thread's) */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	unsigned int send_free, send_next;
	int gid_index;
	uint8_t gid[16];
	uint32_t qpn, session;
	unsigned int tclass;
	/* peers */
	struct probe_pair *pairs;	/* PROBE_MAX_PEERS, allocated with the slot: the
					 * 16 ports' pairs in one block would be 3 MiB that
					 * transparent huge pages fill at the first touch */
	unsigned int nr_pairs, rr;
	uint64_t over_limit;		/* matching endpoints past max_peers, last match */
	uint64_t next_send_ns;
	double tokens;			/* reply budget */
	uint64_t tokens_ns;
	struct {
		uint8_t gid[16];
		struct ibv_ah *ah;
		uint64_t used_ns;
	} resp[PROBE_RESP_AH];
	/* counts */
	uint64_t answered, dropped[PROBE_DROP_NR], send_errors, restarts;
	uint64_t probes_total;		/* every probe sent on this port */
	uint64_t loss_since_ns, latency_since_ns;	/* CLOCK_REALTIME, while bad */
};

enum probe_fetch_err {
	FETCH_CONNECT, FETCH_HTTP, FETCH_TOO_LARGE, FETCH_BAD_DOCUMENT, FETCH_ERR_NR,
};

struct probe_source {
	char addr[PROBE_ADDR_LEN];
	bool from_file;
	unsigned int nr_eps;
	struct probe_endpoint eps[PROBE_SRC_EPS];
	uint64_t ok_ns;			/* monotonic of the last good document; 0 never */
	char err[128];			/* the last failure, "" none */
};

struct prober {
	pthread_mutex_t lock;
	pthread_cond_t fetch_cond;
	pthread_t thread, fetcher;
	bool threads;
	volatile bool stop;
	bool refetch;			/* the prober asks for documents now */
	int epfd, wake_fd;
	struct probe_cfg cfg;
	struct probe_port ports[PROBE_MAX_PORTS];
	uint64_t ports_over;		/* RoCE ports past PROBE_MAX_PORTS */
	struct probe_source src[PROBE_MAX_SOURCES];
	unsigned int nr_src;
	uint64_t src_gen, src_seen_gen;	/* the endpoint set changed */
	uint64_t fetches, fetch_err[FETCH_ERR_NR], file_errors, sources_over;
	unsigned int seed;		/* the send jitter's (prober thread) */
	uint64_t cpu_ns;		/* the prober thread's CPU time (probes.rst) */
};

const char *probe_fetch_err_name(enum probe_fetch_err e);

/* Start the prober's threads (no port yet): NULL with err on failure. */
struct prober *prober_start(const struct probe_cfg *cfg, char *err, size_t errlen);
void prober_stop(struct prober *pr);

/*
 * After each collector pass (m->lock not held): the RoCE ports the model
 * has, their state and RoCE ToS; and back into the model each port's probe
 * summary (struct port_probe), which the next pass's verdicts use.
 */
void prober_sync(struct prober *pr, struct model *m);

/* This host's endpoints (lock held by the caller): how many written. */
unsigned int prober_endpoints(const struct prober *pr, struct probe_endpoint *eps,
			      unsigned int max);

/* Sum of loss/RTT verdicts for one pair now (lock held). */
bool probe_pair_loss_bad(const struct prober *pr, const struct probe_pair *p, uint64_t now_ns,
			 double *loss);
bool probe_pair_rtt_bad(const struct prober *pr, const struct probe_pair *p, uint64_t now_ns,
			double *rtt_s);

/* internal: probe_verbs.c, probe_fetch.c */
/* the RDMA device by name, opened through libibverbs; NULL if none */
struct ibv_context *probe_open_device(const char *name);
/* port's RoCE v2 GID (IPv4-mapped first): 0, -errno, or -ENOENT if none */
int probe_roce_gid(struct ibv_context *ctx, uint32_t port, int *index, uint8_t gid[16]);
/* a UD QP on port through INIT, RTR and RTS with qkey: 0, or -1 */
int probe_ud_ready(struct ibv_qp *qp, uint32_t port, unsigned int qkey);
int probe_port_open(struct prober *pr, struct probe_port *pp);
void probe_port_close(struct prober *pr, struct probe_port *pp);
int probe_post_recv(struct probe_port *pp, unsigned int slot);
int probe_send(struct probe_port *pp, struct ibv_ah *ah, uint32_t qpn, uint32_t qkey,
	       const struct probe_pkt *pkt);
struct ibv_ah *probe_pair_ah(struct prober *pr, struct probe_port *pp, const uint8_t gid[16]);
/* the prober thread, out of epoll_wait to look at its tables again */
void probe_wake(struct prober *pr);
void probe_match_all(struct prober *pr, uint64_t now);
void probe_send_one(struct prober *pr, struct probe_port *pp, uint64_t now);
void probe_drain(struct prober *pr, struct probe_port *pp);
int probe_fetch_init(char *why, size_t len);
void probe_fetch_exit(void);
void *probe_fetch_thread(void *arg);

#define PROBE_RECV_SLOTS	128
#define PROBE_SEND_SLOTS	64
#define PROBE_SLOT_LEN		(PROBE_GRH_LEN + PROBE_PKT_LEN + 16)

#endif /* FABTEL_PROBER_H */
