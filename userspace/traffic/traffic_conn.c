// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel-traffic - connections: rdma_cm events, the verbs objects of one
 * connection, the client's resolve/connect sequence and the server's
 * listen/accept loop.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "traffic.h"

#define RESOLVE_MS	2000
#define CONNECT_MS	30000

/* IB CM reject reasons (IBTA 12.6.7.2) that a user can act on. */
#define REJ_INVALID_SERVICE_ID	8
#define REJ_CONSUMER_DEFINED	28

/* Drain the signal fd; how many SIGINT/SIGTERM arrived. */
int tr_take_signals(struct tr_ctx *ctx)
{
	struct signalfd_siginfo si;
	int n = 0;

	while (read(ctx->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		n++;
	ctx->signals += n;
	if (n)
		tr_verbose(ctx->o, "signal %u received", si.ssi_signo);
	return n;
}

static void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/*
 * The next event on CH within TIMEOUT_MS (< 0: no limit): 0 with *EV set
 * (acknowledge it), -ETIMEDOUT, -EINTR when SIGINT/SIGTERM arrived, -EIO.
 */
int tr_cm_wait(struct tr_ctx *ctx, struct rdma_event_channel *ch,
	       int timeout_ms, struct rdma_cm_event **ev)
{
	double deadline = tr_now() + timeout_ms / 1e3;
	struct pollfd p[2] = {
		{ .fd = ch->fd, .events = POLLIN },
		{ .fd = ctx->sigfd, .events = POLLIN },
	};
	int left = -1;

	for (;;) {
		if (!rdma_get_cm_event(ch, ev))
			return 0;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			tr_err("rdma_get_cm_event: %s", strerror(errno));
			return -EIO;
		}
		if (timeout_ms >= 0) {
			left = (int)ceil((deadline - tr_now()) * 1e3);
			if (left <= 0)
				return -ETIMEDOUT;
		}
		if (poll(p, 2, left) < 0 && errno != EINTR) {
			tr_err("poll: %s", strerror(errno));
			return -EIO;
		}
		if ((p[1].revents & POLLIN) && tr_take_signals(ctx))
			return -EINTR;
	}
}

void tr_peer_name(struct rdma_cm_id *id, char *buf, size_t len)
{
	struct sockaddr *sa = rdma_get_peer_addr(id);
	char host[INET6_ADDRSTRLEN] = "?";
	const void *a = NULL;

	if (sa->sa_family == AF_INET)
		a = &((struct sockaddr_in *)sa)->sin_addr;
	else if (sa->sa_family == AF_INET6)
		a = &((struct sockaddr_in6 *)sa)->sin6_addr;
	if (a)
		inet_ntop(sa->sa_family, a, host, sizeof(host));
	snprintf(buf, len, "%s:%u", host, ntohs(rdma_get_dst_port(id)));
}

static int verbs_err(struct rdma_cm_id *id, const char *what)
{
	tr_err("%s on %s: %s", what, ibv_get_device_name(id->verbs->device),
	       strerror(errno));
	return -1;
}

/*
 * PD, completion channel, CQ, a LEN-byte registered buffer (local and
 * remote write) and an RC QP with SQ send and RQ receive slots.
 */
int tr_conn_setup(struct tr_conn *c, struct rdma_cm_id *id, size_t len,
		  unsigned int sq, unsigned int rq)
{
	struct ibv_qp_init_attr qa = { 0 };

	c->id = id;
	c->pd = ibv_alloc_pd(id->verbs);
	if (!c->pd)
		return verbs_err(id, "ibv_alloc_pd");
	c->cc = ibv_create_comp_channel(id->verbs);
	if (!c->cc)
		return verbs_err(id, "ibv_create_comp_channel");
	set_nonblock(c->cc->fd);
	c->cq = ibv_create_cq(id->verbs, (int)(sq + rq), NULL, c->cc, 0);
	if (!c->cq)
		return verbs_err(id, "ibv_create_cq");
	if (posix_memalign(&c->buf, 4096, len)) {
		tr_err("cannot allocate a %zu-byte buffer", len);
		return -1;
	}
	memset(c->buf, 0x5a, len);
	c->len = len;
	c->mr = ibv_reg_mr(c->pd, c->buf, len,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!c->mr)
		return verbs_err(id, "ibv_reg_mr");
	qa.send_cq = c->cq;
	qa.recv_cq = c->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = sq;
	qa.cap.max_recv_wr = rq;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(id, c->pd, &qa))
		return verbs_err(id, "rdma_create_qp");
	c->local_qpn = id->qp->qp_num;
	return 0;
}

void tr_conn_teardown(struct tr_conn *c)
{
	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->mr)
		ibv_dereg_mr(c->mr);
	free(c->buf);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->cc)
		ibv_destroy_comp_channel(c->cc);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->id)
		rdma_destroy_id(c->id);
	memset(c, 0, sizeof(*c));
}

/* What the QP really got (the IB CM, not us, sets several of these). */
void tr_query_qp(struct tr_conn *c, struct tr_qp_attrs *a)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr qa;

	a->valid = false;
	if (ibv_query_qp(c->id->qp, &qa, IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			 IBV_QP_RNR_RETRY | IBV_QP_AV | IBV_QP_PATH_MTU, &init))
		return;
	a->valid = true;
	a->retry_cnt = qa.retry_cnt;
	a->rnr_retry = qa.rnr_retry;
	a->timeout = qa.timeout;
	a->traffic_class = qa.ah_attr.grh.traffic_class;
	a->path_mtu = qa.path_mtu ? 128 << qa.path_mtu : 0;
}

/* Reject a connection request, with our reason as private data. */
static void reject_id(struct rdma_cm_id *id, const char *reason)
{
	struct tr_rej_pdata rej = {
		.magic = htobe32(TR_MAGIC), .version = TR_VERSION,
	};

	snprintf(rej.reason, sizeof(rej.reason), "%s", reason);
	if (rdma_reject(id, &rej, sizeof(rej)))
		tr_err("rdma_reject: %s", strerror(errno));
}

/* Reject the request EV, acknowledge it and destroy its new cm_id. */
void tr_reject(struct rdma_cm_event *ev, const char *reason)
{
	struct rdma_cm_id *id = ev->id;

	reject_id(id, reason);
	rdma_ack_cm_event(ev);
	rdma_destroy_id(id);
}

/* ---- client ------------------------------------------------------------- */

/* Wait for WANT; anything else is an error explained with WHAT. */
static int expect_event(struct tr_ctx *ctx, struct rdma_event_channel *ch,
			enum rdma_cm_event_type want, int timeout_ms,
			const char *what)
{
	struct rdma_cm_event *ev;
	int rc = tr_cm_wait(ctx, ch, timeout_ms, &ev);

	if (rc == -ETIMEDOUT)
		tr_err("%s: no answer within %d ms", what, timeout_ms);
	else if (rc == -EINTR)
		tr_err("%s: interrupted", what);
	if (rc)
		return -1;
	rc = ev->event == want ? 0 : -1;
	if (rc)
		tr_err("%s: %s (status %d)", what, rdma_event_str(ev->event),
		       ev->status);
	rdma_ack_cm_event(ev);
	return rc;
}

static int set_id_options(const struct tr_opts *o, struct rdma_cm_id *id)
{
	uint8_t timeout = o->timeout, tos = o->tos;

	if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
			    &timeout, sizeof(timeout))) {
		tr_err("--timeout: rdma_set_option(ACK_TIMEOUT): %s", strerror(errno));
		return -1;
	}
	if (o->tos_set && rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS,
					  &tos, sizeof(tos))) {
		tr_err("--tos: rdma_set_option(TOS): %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int resolve(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		   struct rdma_cm_id *id)
{
	const struct tr_opts *o = ctx->o;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	char port[8], what[320];
	int rc;

	snprintf(port, sizeof(port), "%u", o->port);
	rc = getaddrinfo(o->host, port, &hints, &ai);
	if (rc) {
		tr_err("%s: %s", o->host, gai_strerror(rc));
		return -1;
	}
	rc = rdma_resolve_addr(id, NULL, ai->ai_addr, RESOLVE_MS);
	freeaddrinfo(ai);
	if (rc) {
		tr_err("rdma_resolve_addr %s: %s", o->host, strerror(errno));
		return -1;
	}
	snprintf(what, sizeof(what), "resolving %s (no RDMA device on the route?)",
		 o->host);
	if (expect_event(ctx, ch, RDMA_CM_EVENT_ADDR_RESOLVED, 2 * RESOLVE_MS, what))
		return -1;
	if (rdma_resolve_route(id, RESOLVE_MS)) {
		tr_err("rdma_resolve_route %s: %s", o->host, strerror(errno));
		return -1;
	}
	snprintf(what, sizeof(what), "resolving the route to %s", o->host);
	return expect_event(ctx, ch, RDMA_CM_EVENT_ROUTE_RESOLVED,
			    2 * RESOLVE_MS, what);
}

/* The server's reply: where to write. */
static int read_reply(const struct rdma_cm_event *ev, struct tr_conn *c)
{
	struct tr_rep_pdata rep;

	if (!ev->param.conn.private_data ||
	    ev->param.conn.private_data_len < sizeof(rep)) {
		tr_err("the server sent no buffer address (not fabtel-traffic?)");
		return -1;
	}
	memcpy(&rep, ev->param.conn.private_data, sizeof(rep));
	if (be32toh(rep.magic) != TR_MAGIC || rep.version != TR_VERSION) {
		tr_err("the server speaks another protocol (magic %#x version %u)",
		       be32toh(rep.magic), rep.version);
		return -1;
	}
	if (be64toh(rep.len) < c->len) {
		tr_err("the server's buffer is too small (%llu bytes)",
		       (unsigned long long)be64toh(rep.len));
		return -1;
	}
	c->raddr = be64toh(rep.addr);
	c->rkey = be32toh(rep.rkey);
	c->remote_qpn = ev->param.conn.qp_num;
	return 0;
}

static void explain_reject(const struct tr_opts *o, const struct rdma_cm_event *ev)
{
	const struct tr_rej_pdata *rej = ev->param.conn.private_data;

	if (ev->status == REJ_INVALID_SERVICE_ID) {
		tr_err("%s:%u: nobody listens there (is the server running?)",
		       o->host, o->port);
	} else if (ev->status == REJ_CONSUMER_DEFINED && rej &&
		   ev->param.conn.private_data_len >= sizeof(*rej) &&
		   be32toh(rej->magic) == TR_MAGIC) {
		tr_err("%s:%u refused the connection: %.*s", o->host, o->port,
		       (int)sizeof(rej->reason), rej->reason);
	} else {
		tr_err("%s:%u rejected the connection (IB CM reason %d)",
		       o->host, o->port, ev->status);
	}
}

static int connect_and_wait(struct tr_ctx *ctx, struct rdma_event_channel *ch,
			    struct tr_conn *c)
{
	const struct tr_opts *o = ctx->o;
	struct tr_req_pdata req = {
		.magic = htobe32(TR_MAGIC), .version = TR_VERSION,
		.rnr_retry = o->rnr_retry, .size = htobe64(o->size),
	};
	struct rdma_conn_param p = {
		.private_data = &req, .private_data_len = sizeof(req),
		.retry_count = o->retry_cnt, .rnr_retry_count = o->rnr_retry,
	};
	struct rdma_cm_event *ev;
	int rc;

	if (rdma_connect(c->id, &p)) {
		tr_err("rdma_connect %s: %s", o->host, strerror(errno));
		return -1;
	}
	rc = tr_cm_wait(ctx, ch, CONNECT_MS, &ev);
	if (rc) {
		tr_err("connecting to %s:%u: %s", o->host, o->port,
		       rc == -EINTR ? "interrupted" : "no answer");
		return -1;
	}
	if (ev->event == RDMA_CM_EVENT_ESTABLISHED)
		rc = read_reply(ev, c);
	else if (ev->event == RDMA_CM_EVENT_REJECTED)
		explain_reject(o, ev), rc = -1;
	else
		tr_err("connecting to %s:%u: %s (status %d)", o->host, o->port,
		       rdma_event_str(ev->event), ev->status), rc = -1;
	rdma_ack_cm_event(ev);
	return rc;
}

/* Resolve, build the QP, connect.  0, or 1 after an error message. */
int tr_client_connect(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		      struct tr_conn *c)
{
	const struct tr_opts *o = ctx->o;
	struct rdma_cm_id *id;

	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		tr_err("rdma_create_id: %s", strerror(errno));
		return 1;
	}
	c->id = id;
	if (set_id_options(o, id) || resolve(ctx, ch, id))
		return 1;
	if (tr_conn_setup(c, id, o->size, o->window, 1))
		return 1;
	if (connect_and_wait(ctx, ch, c))
		return 1;
	tr_verbose(o, "connected to %s:%u: QPN %u -> %u", o->host, o->port,
		   c->local_qpn, c->remote_qpn);
	return 0;
}

/*
 * Disconnect and wait (TIMEOUT_MS at most) for the DISCONNECTED event, so
 * that the peer hears of it.  Connection requests meanwhile are refused.
 */
void tr_disconnect(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		   struct tr_conn *c, int timeout_ms)
{
	double deadline = tr_now() + timeout_ms / 1e3;
	struct rdma_cm_event *ev;
	int left;

	if (c->disconnected)
		return;
	if (rdma_disconnect(c->id)) {
		tr_verbose(ctx->o, "rdma_disconnect: %s", strerror(errno));
		return;
	}
	while (!c->disconnected) {
		left = (int)ceil((deadline - tr_now()) * 1e3);
		if (left <= 0 || tr_cm_wait(ctx, ch, left, &ev)) {
			tr_verbose(ctx->o, "no DISCONNECTED event within %d ms",
				   timeout_ms);
			return;
		}
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			tr_reject(ev, "busy");
			continue;
		}
		if (ev->id == c->id && ev->event == RDMA_CM_EVENT_DISCONNECTED)
			c->disconnected = true;
		rdma_ack_cm_event(ev);
	}
}

/* ---- server ------------------------------------------------------------- */

static struct rdma_cm_id *listen_on(struct tr_ctx *ctx,
				    struct rdma_event_channel *ch)
{
	const struct tr_opts *o = ctx->o;
	struct sockaddr_in any = {
		.sin_family = AF_INET, .sin_port = htons(o->port),
	};
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE,
	}, *ai = NULL;
	struct sockaddr *sa = (struct sockaddr *)&any;
	struct rdma_cm_id *id;
	char port[8];
	int rc;

	snprintf(port, sizeof(port), "%u", o->port);
	if (o->bind) {
		rc = getaddrinfo(o->bind, port, &hints, &ai);
		if (rc) {
			tr_err("--bind %s: %s", o->bind, gai_strerror(rc));
			return NULL;
		}
		sa = ai->ai_addr;
	}
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		tr_err("rdma_create_id: %s", strerror(errno));
		id = NULL;
	} else if (rdma_bind_addr(id, sa) || rdma_listen(id, 4)) {
		tr_err("listening on %s port %u: %s", o->bind ? o->bind : "*",
		       o->port, strerror(errno));
		rdma_destroy_id(id);
		id = NULL;
	}
	if (ai)
		freeaddrinfo(ai);
	if (id)
		tr_verbose(o, "listening on %s port %u", o->bind ? o->bind : "*",
			   o->port);
	return id;
}

/* The client's request: message size and the RNR retry it wants. */
static int read_request(const struct rdma_cm_event *ev, uint64_t *size,
			uint8_t *rnr_retry)
{
	struct tr_req_pdata req;

	if (!ev->param.conn.private_data ||
	    ev->param.conn.private_data_len < sizeof(req))
		return -1;
	memcpy(&req, ev->param.conn.private_data, sizeof(req));
	if (be32toh(req.magic) != TR_MAGIC || req.version != TR_VERSION)
		return -1;
	*size = be64toh(req.size);
	*rnr_retry = req.rnr_retry > 7 ? 7 : req.rnr_retry;
	return *size >= 1 && *size <= TR_MAX_SIZE ? 0 : -1;
}

/* Build the QP and buffer for a connection request and accept it. */
static int server_accept(struct tr_ctx *ctx, struct rdma_cm_event *ev,
			 struct tr_conn *c, struct tr_result *r)
{
	struct tr_rep_pdata rep = { .magic = htobe32(TR_MAGIC), .version = TR_VERSION };
	struct rdma_conn_param p = { .private_data = &rep, .private_data_len = sizeof(rep) };
	struct rdma_cm_id *id = ev->id;
	uint64_t size;
	uint8_t rnr;

	tr_peer_name(id, r->peer, sizeof(r->peer));
	if (read_request(ev, &size, &rnr)) {
		tr_err("refusing %s: not a fabtel-traffic client", r->peer);
		tr_reject(ev, "bad request");
		return -1;
	}
	c->remote_qpn = ev->param.conn.qp_num;
	if (tr_conn_setup(c, id, size, 1, TR_SERVER_RQ) ||
	    tr_post_recvs(c, TR_SERVER_RQ)) {
		reject_id(id, "server out of resources");
		rdma_ack_cm_event(ev);
		return -1;	/* the caller's teardown destroys the cm_id */
	}
	rdma_ack_cm_event(ev);
	rep.addr = htobe64((uintptr_t)c->buf);
	rep.len = htobe64(size);
	rep.rkey = htobe32(c->mr->rkey);
	/* with the IB CM, the REP carries the RNR retry of the client's QP */
	p.rnr_retry_count = rnr;
	if (rdma_accept(id, &p)) {
		tr_err("rdma_accept %s: %s", r->peer, strerror(errno));
		return -1;
	}
	tr_verbose(ctx->o, "accepted %s: QPN %u <- %u, %llu-byte buffer",
		   r->peer, c->local_qpn, c->remote_qpn, (unsigned long long)size);
	return 0;
}

/*
 * Serve one connection after its request EV; the exit status of that run.
 * *NEXT: a new client's request that replaced a silent one.
 */
static int serve_one(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		     struct rdma_cm_event *ev, struct rdma_cm_event **next)
{
	struct tr_conn c = { 0 };
	struct tr_result r = { 0 };
	int rc = 1;

	if (!server_accept(ctx, ev, &c, &r)) {
		tr_server_run(ctx, ch, &c, &r, next);
		tr_report(ctx->o, &r);
		rc = tr_exit_status(&r);
		tr_disconnect(ctx, ch, &c, *next ? 0 : 3000);
	}
	tr_conn_teardown(&c);
	return rc;
}

int tr_server(struct tr_ctx *ctx)
{
	const struct tr_opts *o = ctx->o;
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev, *next = NULL;
	struct rdma_cm_id *lid;
	int rc = 0, w;

	ch = rdma_create_event_channel();
	if (!ch) {
		tr_err("rdma_create_event_channel: %s (is rdma_ucm loaded?)",
		       strerror(errno));
		return 1;
	}
	set_nonblock(ch->fd);
	lid = listen_on(ctx, ch);
	while (lid && !ctx->signals) {
		if (next) {
			ev = next;
			next = NULL;
		} else if ((w = tr_cm_wait(ctx, ch, -1, &ev))) {
			rc = w == -EINTR ? 0 : 1;
			break;
		}
		if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
			tr_verbose(o, "ignoring %s", rdma_event_str(ev->event));
			rdma_ack_cm_event(ev);
			continue;
		}
		rc = serve_one(ctx, ch, ev, &next);
		if (!o->forever && !next)
			break;
		if (o->forever)
			rc = 0;
	}
	if (next)
		tr_reject(next, "server exiting");
	if (lid)
		rdma_destroy_id(lid);
	rdma_destroy_event_channel(ch);
	return lid ? rc : 1;
}
