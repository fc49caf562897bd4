/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prober.h - fabteld's active RDMA prober (Documentation/probes.rst).
 *
 * On each ACTIVE RoCE port it opens one UD QP that answers probes and sends
 * probes, at probe_rate per port, round-robin to the port's peers: the UD
 * endpoints other fabtelds publish at /api/v1/probe/endpoints, fetched from
 * the addresses in the config or a peers file, on the same subnet as the
 * port.  Each (port, peer) pair keeps loss and RTT (probe_stats.h), in
 * total and per flow: its probes cycle over probe_flows UDP source ports,
 * so ECMP paths, by flow label (mlx5) or one more UD QP per flow.
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
/* a port's handle cache: a peer's K flows each have one in label mode */
#define PROBE_AH_SLOTS		(PROBE_MAX_PEERS * PROBE_MAX_FLOWS + PROBE_RESP_AH)
#define PROBE_ADDR_LEN		128

struct model;
struct ifaddrs;

/*
 * How a pair's flows get their UDP source ports (probes.rst "Flows and
 * ECMP"): by the address handle's flow label (mlx5 takes the port from it
 * for UD), or by one UD QP per flow (rxe fixes a QP's port at its
 * creation, from its number, and a UD address handle does not change it).
 */
enum probe_flow_mode { PROBE_FLOWS_AUTO, PROBE_FLOWS_LABEL, PROBE_FLOWS_QP };

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
	unsigned int reply_rate_source;	/* ... and per requesting address */
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
	unsigned int flows;		/* K: flows a pair's probes cycle over, 1..16 */
	enum probe_flow_mode flow_mode;
	/* how the fetcher reaches the peers' fabteld (config_probe.c) */
	char tls_ca_file[256];		/* HTTPS, peers verified against this CA; "" HTTP */
	bool tls_verify_host;		/* the certificate must name the address fetched */
	char auth_user[64];		/* basic auth; "" none */
	char auth_password_file[256];
	char auth_password[256];	/* the file's first line: never rendered or logged */
};

void probe_cfg_defaults(struct probe_cfg *c);

enum probe_reopen {
	PROBE_REOPEN_QP_ERROR,		/* the QP went to error (flushed completions) */
	PROBE_REOPEN_RX_ERRORS,		/* PROBE_RX_ERR_REOPEN receive errors in a row */
	PROBE_REOPEN_NR,
};

#define PROBE_RX_ERR_REOPEN	32

const char *probe_reopen_name(enum probe_reopen r);

struct probe_pair {
	bool present;
	struct probe_endpoint peer;
	uint64_t seen_ns;		/* monotonic: its document last listed it */
	char src[PROBE_ADDR_LEN];	/* the source whose document it is (probe_match.c) */
	uint64_t unresolved;		/* probes not sent: no address handle to the peer */
	unsigned int flow_next;		/* the flow its next probe takes */
	struct probe_stats st;
};

/*
 * A port's address handles (probe_ah.c), one per remote GID in the port's
 * traffic class, made by the resolver thread off the prober lock: on RoCE
 * ibv_create_ah resolves the peer's MAC and waits about a second when
 * nobody answers.  A failure is kept (err) and tried again after a
 * back-off that doubles to PROBE_AH_BACKOFF_MAX_S.
 */
enum probe_ah_state {
	PROBE_AH_FREE,
	PROBE_AH_WANTED,		/* the resolver is to make it */
	PROBE_AH_MAKING,		/* the resolver is in ibv_create_ah */
	PROBE_AH_READY,
	PROBE_AH_FAILED,		/* not before retry_ns */
};

#define PROBE_AH_BACKOFF_MAX_S	64
#define PROBE_RESOLVERS		4	/* a dead address holds one for its second */

struct probe_ahc {
	uint8_t gid[16];
	uint32_t label;			/* the GRH flow label: a flow's (label mode), else 0 */
	enum probe_ah_state state;
	unsigned int fails;		/* in a row */
	int err;			/* errno of the last failure */
	struct ibv_ah *ah;
	uint64_t retry_ns, used_ns;	/* monotonic */
	double tokens;			/* replies to this address (reply_rate_source) */
	uint64_t tokens_ns;
	bool held;			/* a request waits for the handle (held_req) */
	uint32_t held_qpn;
	uint64_t held_ns;
	struct probe_pkt held_req;
};

struct probe_port {
	bool present;			/* the collector lists it */
	bool active;			/* ACTIVE, Ethernet link layer: probe it */
	bool up;			/* its QP answers and sends */
	bool busy;			/* the prober thread opens or closes it, lock dropped */
	char device[PROBE_NAME_LEN];
	uint32_t port;
	char netdev[IF_NAMESIZE];
	int tos;			/* from the model: the RoCE ToS; -1 unknown */
	char why[160];			/* why it is not up */
	char driver[32];		/* from the model: picks the flow mode */
	uint64_t retry_ns;		/* monotonic: no reopen before */
	/* verbs (the prober thread's) */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;		/* flow 0's: the one the endpoint document names */
	struct ibv_mr *mr;
	uint8_t *buf;
	unsigned int send_free, send_next;
	/* flows: label mode sends every flow on qp; qp mode flow f on fqp[f] */
	bool flow_label;
	unsigned int nr_flows;		/* K of this port */
	unsigned int nr_qp;		/* QPs made: 1, or K in qp mode */
	struct ibv_qp *fqp[PROBE_MAX_FLOWS];	/* [0] is qp */
	uint32_t fqpn[PROBE_MAX_FLOWS];
	unsigned int recv_slots;	/* receive buffers of all its QPs; sends after */
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
	uint64_t refused;		/* ... the subnet's network or broadcast address */
	uint64_t next_send_ns;
	double tokens;			/* reply budget */
	uint64_t tokens_ns;
	struct probe_ahc ahc[PROBE_AH_SLOTS];
	unsigned int ahc_hw;		/* entries in use are below: the rest never touched */
	unsigned int ah_gen;		/* a flush or a close: a handle made before is not taken */
	unsigned int ah_making;		/* resolvers in ibv_create_ah on its PD */
	/* counts */
	uint64_t answered, dropped[PROBE_DROP_NR], send_errors, restarts;
	uint64_t turnaround_bad;	/* replies taken with no RTT (probe_stats_rtt) */
	uint64_t received;		/* datagrams received well (any kind) */
	uint64_t ah_made, ah_failed;	/* address handles made, failed */
	uint64_t reopens[PROBE_REOPEN_NR];	/* the QP made again, by cause */
	unsigned int rx_err_run;	/* receive completions in error in a row */
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
	/* its endpoints another source holds, last match (probe_match.c) */
	unsigned int nr_conflicts;
	uint64_t conflict_key[PROBE_SRC_EPS];	/* their (host, device, port), hashed */
	char conflict[192];		/* the first of them, "" none */
};

struct prober {
	pthread_mutex_t lock;
	pthread_cond_t fetch_cond;
	pthread_cond_t ah_cond;		/* the resolver: work for it; it left a port */
	pthread_t thread, fetcher, resolver[PROBE_RESOLVERS];
	unsigned int nr_resolvers;
	bool ah_done;			/* a handle was made or failed: held requests */
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
	unsigned int conflicts;		/* endpoints refused at the last match: held by another source */
	uint64_t conflicts_total;	/* ... each counted when it starts */
	unsigned int seed;		/* the send jitter's (prober thread) */
	uint64_t cpu_ns;		/* the prober thread's CPU time (probes.rst) */
	void *fetch_multi;		/* the fetcher's libcurl multi handle, NULL outside */
	uint64_t fetch_round_ns;	/* how long the last round of fetches took */
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

/*
 * The pair's flows losing now: loss at or over probe_loss_pct with
 * PROBE_MIN_ENDED probes ended in the window (lock held).
 */
unsigned int probe_pair_flows_losing(const struct prober *pr, const struct probe_port *pp,
				     const struct probe_pair *p, uint64_t now_ns);
bool probe_flow_losing(const struct prober *pr, const struct probe_flow *f, uint64_t now_ns,
		       double *loss);
#define PROBE_MIN_ENDED		3	/* probes ended in the window before a verdict */

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
/* the port's verbs objects made (lock not held, pp->busy): 0, or -1 with why */
int probe_port_open(struct prober *pr, struct probe_port *pp, char *why, size_t len);
/* lock held on entry and return; dropped while the verbs objects go */
void probe_port_close(struct prober *pr, struct probe_port *pp);
/* receive slot: which QP it is of (PROBE_RECV_SLOTS for qp, then PROBE_FLOW_RECV_SLOTS each) */
unsigned int probe_slot_qp(unsigned int slot);
int probe_post_recv(struct probe_port *pp, unsigned int slot);
/* a datagram sent from the port's QP q (< nr_qp) */
int probe_send(struct probe_port *pp, unsigned int q, struct ibv_ah *ah, uint32_t qpn,
	       uint32_t qkey, const struct probe_pkt *pkt);
/*
 * probe_ah.c (lock held): the cache's entry for (gid, flow label), made
 * WANTED if new; NULL if full.  Replies and the address's state use label 0.
 */
struct probe_ahc *probe_ah_entry(struct prober *pr, struct probe_port *pp,
				 const uint8_t gid[16], uint32_t label, uint64_t now);
/* the ready handle to (gid, label), else NULL and its making asked for */
struct ibv_ah *probe_ah_get(struct prober *pr, struct probe_port *pp, const uint8_t gid[16],
			    uint32_t label, uint64_t now);
/* every handle of the port dropped (the traffic class changed); lock held */
void probe_ah_flush(struct prober *pr, struct probe_port *pp);
/* the port's handles taken out of the cache into out (PROBE_AH_SLOTS): how many */
unsigned int probe_ah_take_all(struct prober *pr, struct probe_port *pp, struct ibv_ah **out);
/* the entry of (gid, label), or NULL (lock held) */
const struct probe_ahc *probe_ah_find(const struct probe_port *pp, const uint8_t gid[16],
				      uint32_t label);
void *probe_ah_thread(void *arg);
/* whether a pair's peer has an address handle now; err: the last failure's errno */
enum probe_addr { PROBE_ADDR_RESOLVING, PROBE_ADDR_RESOLVED, PROBE_ADDR_UNRESOLVED };
enum probe_addr probe_pair_address(const struct probe_port *pp, const struct probe_pair *p,
				   int *err);
const char *probe_addr_name(enum probe_addr s);
/* the prober thread, out of epoll_wait to look at its tables again */
void probe_wake(struct prober *pr);
/* probe_match.c: every up port's pairs from the sources' endpoints (lock held) */
void probe_match_all(struct prober *pr, uint64_t now);
/* ... with the interfaces' addresses given (the tests') */
void probe_match_ports(struct prober *pr, uint64_t now, struct ifaddrs *ifa);
void probe_send_one(struct prober *pr, struct probe_port *pp, uint64_t now);
void probe_drain(struct prober *pr, struct probe_port *pp);
void probe_answer_held(struct prober *pr);
int probe_fetch_init(char *why, size_t len);
void probe_fetch_exit(void);
void *probe_fetch_thread(void *arg);
/* the fetcher out of its transfers' wait to see pr->stop (lock not held) */
void probe_fetch_wake(struct prober *pr);

#define PROBE_RECV_SLOTS	128
#define PROBE_FLOW_RECV_SLOTS	16	/* a flow QP's: it takes only replies to its probes */
#define PROBE_SEND_SLOTS	64
#define PROBE_SLOT_LEN		(PROBE_GRH_LEN + PROBE_PKT_LEN + 16)

#endif /* FABTEL_PROBER_H */
