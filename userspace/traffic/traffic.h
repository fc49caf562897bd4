/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabtel-traffic - shared definitions: options, one connection's verbs
 * resources, the result of a run, and the private data both sides exchange
 * in the connection request and reply.
 */
#ifndef FABTEL_TRAFFIC_H
#define FABTEL_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define TR_NAME			"fabtel-traffic"
#define TR_DEFAULT_PORT		18600
#define TR_DEFAULT_SIZE		65536
#define TR_DEFAULT_ITERS	1000
#define TR_DEFAULT_WINDOW	16
#define TR_MAX_WINDOW		256
#define TR_MAX_SIZE		(1ULL << 30)
#define TR_SERVER_RQ		1024	/* receives kept posted by the server */
#define TR_STALE_S		5.0	/* silent client a new one may replace */

struct tr_opts {
	bool server;
	bool forever;
	bool json;
	bool verbose;
	const char *host;	/* client: the server's address */
	const char *bind;	/* server: local address to listen on */
	const char *cgroup;	/* cgroup v2 directory to join first */
	uint16_t port;
	uint64_t size;		/* bytes per message */
	uint64_t iters;		/* 0 when running for a duration */
	double duration;	/* seconds; 0 when counting iterations */
	double rate;		/* messages per second; 0 = unlimited */
	unsigned int window;	/* signalled WRITEs in flight */
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t timeout;	/* local ACK timeout exponent */
	uint8_t tos;
	bool tos_set;
};

/* What the process shares with every wait: options and the signal fd. */
struct tr_ctx {
	const struct tr_opts *o;
	int sigfd;
	int signals;		/* SIGINT/SIGTERM received so far */
};

/* One connection: its cm_id and the verbs objects hanging off it. */
struct tr_conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	void *buf;
	size_t len;
	uint32_t local_qpn;
	uint32_t remote_qpn;
	uint64_t raddr;		/* client: the server's buffer */
	uint32_t rkey;
	bool disconnected;	/* RDMA_CM_EVENT_DISCONNECTED seen */
};

/* The QP's own view of its attributes, read back with ibv_query_qp. */
struct tr_qp_attrs {
	bool valid;
	int retry_cnt;
	int rnr_retry;
	int timeout;
	int traffic_class;
	int path_mtu;		/* bytes */
};

struct tr_result {
	const char *role;	/* "client" or "server" */
	const char *stop;	/* why the run ended */
	char peer[64];		/* ADDR:PORT of the other side */
	uint32_t local_qpn;
	uint32_t remote_qpn;
	uint64_t messages;	/* successful completions */
	uint64_t posted;
	uint64_t bytes;
	uint64_t abandoned;	/* still in flight when we gave up */
	double seconds;
	struct tr_qp_attrs qp;
	bool failed;		/* a work completion failed */
	bool peer_gone;		/* the peer disconnected before the end */
	bool post_error;	/* ibv_post_send/recv refused a WR */
	bool drain_timeout;	/* gave up waiting for WRs in flight */
	enum ibv_wc_status wc_status;
	uint32_t wc_qpn;
	uint64_t wc_wr_id;
	double stall;		/* last good completion -> failed one, s */
	double wr_age;		/* failed WR: posted -> completed, s */
};

/*
 * Private data.  Request (client -> server): the message size and the RNR
 * retry count the client's QP should get (with the IB CM that value travels
 * in the reply, so the server has to put it there).  Reply (server ->
 * client): where to write.  All fields big-endian.
 */
#define TR_MAGIC	0x66747266u	/* "ftrf" */
#define TR_VERSION	1

struct tr_req_pdata {
	uint32_t magic;
	uint8_t version;
	uint8_t rnr_retry;
	uint16_t reserved;
	uint64_t size;
};

struct tr_rep_pdata {
	uint32_t magic;
	uint8_t version;
	uint8_t reserved[3];
	uint64_t addr;
	uint64_t len;
	uint32_t rkey;
	uint32_t reserved2;
};

/* Reject (server -> client): why, as text. */
struct tr_rej_pdata {
	uint32_t magic;
	uint8_t version;
	uint8_t reserved[3];
	char reason[40];
};

/* fabtel_traffic.c */
void tr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tr_verbose(const struct tr_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
double tr_now(void);

/* traffic_conn.c */
int tr_take_signals(struct tr_ctx *ctx);
void tr_reject(struct rdma_cm_event *ev, const char *reason);
void tr_peer_name(struct rdma_cm_id *id, char *buf, size_t len);
int tr_cm_wait(struct tr_ctx *ctx, struct rdma_event_channel *ch,
	       int timeout_ms, struct rdma_cm_event **ev);
int tr_conn_setup(struct tr_conn *c, struct rdma_cm_id *id, size_t len,
		  unsigned int sq, unsigned int rq);
void tr_conn_teardown(struct tr_conn *c);
void tr_query_qp(struct tr_conn *c, struct tr_qp_attrs *a);
int tr_client_connect(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		      struct tr_conn *c);
void tr_disconnect(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		   struct tr_conn *c, int timeout_ms);
int tr_server(struct tr_ctx *ctx);

/* traffic_run.c */
int tr_client_run(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		  struct tr_conn *c, struct tr_result *r);
int tr_server_run(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		  struct tr_conn *c, struct tr_result *r,
		  struct rdma_cm_event **next);
int tr_post_recvs(struct tr_conn *c, unsigned int n);

/* traffic_report.c */
void tr_report(const struct tr_opts *o, const struct tr_result *r);
int tr_exit_status(const struct tr_result *r);

#endif /* FABTEL_TRAFFIC_H */
