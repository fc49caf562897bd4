// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel-traffic - the data paths.
 *
 * Client: keeps up to --window signalled RDMA WRITE-with-immediate WRs in
 * flight into the server's buffer (each message overwrites the same bytes),
 * paced by --rate, until --iters completed or --duration passed, then
 * drains.  The first failed work completion ends the run.
 *
 * Server: keeps TR_SERVER_RQ receives posted (a WRITE with immediate
 * consumes one and completes it with the byte count), counts them and
 * reposts, until the client disconnects.
 *
 * Both sleep in ppoll() on the CQ's completion channel, the rdma_cm event
 * channel and the signal fd, so a single-vCPU guest keeps its CPU for rxe.
 */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "traffic.h"

#define DRAIN_S		30.0	/* WRs in flight after a normal stop */
#define ERROR_DRAIN_S	2.0	/* flushes after a failure */
#define POLL_BATCH	32

/* ---- shared ------------------------------------------------------------- */

/* Consume completion-channel events (the CQ is then polled anyway). */
static void take_cq_events(struct tr_conn *c)
{
	struct ibv_cq *cq;
	void *cq_ctx;

	while (!ibv_get_cq_event(c->cc, &cq, &cq_ctx))
		ibv_ack_cq_events(cq, 1);
}

/* ppoll() until WAKE (monotonic seconds, INFINITY = no limit); fills P. */
static int sleep_until(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		       struct tr_conn *c, double wake, struct pollfd p[3])
{
	struct timespec ts, *tsp = NULL;
	double left;

	p[0] = (struct pollfd){ .fd = c->cc->fd, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = ch->fd, .events = POLLIN };
	p[2] = (struct pollfd){ .fd = ctx->sigfd, .events = POLLIN };
	if (!isinf(wake)) {
		left = fmax(0.0, wake - tr_now());
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		tsp = &ts;
	}
	if (ppoll(p, 3, tsp, NULL) < 0 && errno != EINTR) {
		tr_err("ppoll: %s", strerror(errno));
		return -1;
	}
	if (p[0].revents & POLLIN)
		take_cq_events(c);
	return 0;
}

int tr_post_recvs(struct tr_conn *c, unsigned int n)
{
	struct ibv_recv_wr wr = { 0 }, *bad;
	int e;

	/* no scatter list: a WRITE with immediate only needs the WR */
	while (n--) {
		e = ibv_post_recv(c->id->qp, &wr, &bad);
		if (e) {
			tr_err("ibv_post_recv: %s", strerror(e));
			return -1;
		}
	}
	return 0;
}

static void record_failure(struct tr_result *r, const struct ibv_wc *wc,
			   double stall)
{
	r->failed = true;
	r->wc_status = wc->status;
	r->wc_qpn = wc->qp_num;
	r->wc_wr_id = wc->wr_id;
	r->stall = stall;
}

/* ---- client ------------------------------------------------------------- */

struct crun {
	struct tr_ctx *ctx;
	const struct tr_opts *o;
	struct rdma_event_channel *ch;
	struct tr_conn *c;
	struct tr_result *r;
	unsigned int inflight;
	double t0, t_end, t_last_ok, t_last, t_progress, drain_deadline;
	double posted_at[TR_MAX_WINDOW];	/* by wr_id % window */
	bool stopping;
	bool abandon;
};

/* Stop posting; wait for the WRs in flight until DRAIN_S from now. */
static void stop(struct crun *cr, const char *why, double drain_s)
{
	double deadline = tr_now() + drain_s;

	if (!cr->stopping) {
		cr->stopping = true;
		cr->r->stop = why;
		cr->drain_deadline = deadline;
		tr_verbose(cr->o, "stopping (%s), %u WRs in flight", why,
			   cr->inflight);
	} else if (deadline < cr->drain_deadline) {
		cr->drain_deadline = deadline;
	}
}

static int post_write(struct crun *cr)
{
	struct tr_conn *c = cr->c;
	struct ibv_sge sge = {
		.addr = (uintptr_t)c->buf, .length = (uint32_t)c->len,
		.lkey = c->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = cr->r->posted, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htobe32((uint32_t)cr->r->posted),
	}, *bad;
	int e;

	wr.wr.rdma.remote_addr = c->raddr;
	wr.wr.rdma.rkey = c->rkey;
	e = ibv_post_send(c->id->qp, &wr, &bad);
	if (e) {
		tr_err("ibv_post_send: %s", strerror(e));
		cr->r->post_error = true;
		stop(cr, "post-error", ERROR_DRAIN_S);
		return -1;
	}
	cr->posted_at[cr->r->posted % cr->o->window] = tr_now();
	cr->inflight++;
	cr->r->posted++;
	return 0;
}

static void post_ready(struct crun *cr, double now)
{
	const struct tr_opts *o = cr->o;

	while (!cr->stopping) {
		if (o->iters && cr->r->posted >= o->iters) {
			stop(cr, "iters", DRAIN_S);
			break;
		}
		if (cr->inflight >= o->window)
			break;
		if (o->rate > 0 && now < cr->t0 + (double)cr->r->posted / o->rate)
			break;
		if (post_write(cr))
			break;
	}
}

static void client_wc(struct crun *cr, const struct ibv_wc *wc, double now)
{
	struct tr_result *r = cr->r;

	if (cr->inflight)
		cr->inflight--;
	cr->t_last = now;
	if (wc->status == IBV_WC_SUCCESS) {
		r->messages++;
		r->bytes += cr->c->len;
		cr->t_last_ok = now;
		return;
	}
	if (r->failed)
		return;		/* the flushes that follow the first error */
	record_failure(r, wc, now - (cr->t_last_ok > 0 ? cr->t_last_ok : cr->t0));
	/* completions come in order, so the slot is still this WR's */
	r->wr_age = now - cr->posted_at[wc->wr_id % cr->o->window];
	tr_verbose(cr->o, "WR %llu failed: %s (%d) on QPN %u, %.3f s after it was posted",
		   (unsigned long long)wc->wr_id, ibv_wc_status_str(wc->status),
		   wc->status, wc->qp_num, r->wr_age);
	stop(cr, "wc-error", ERROR_DRAIN_S);
}

static int client_reap(struct crun *cr)
{
	struct ibv_wc wc[POLL_BATCH];
	int n, i, total = 0;
	double now;

	while ((n = ibv_poll_cq(cr->c->cq, POLL_BATCH, wc)) > 0) {
		now = tr_now();
		for (i = 0; i < n; i++)
			client_wc(cr, &wc[i], now);
		total += n;
	}
	if (n < 0) {
		tr_err("ibv_poll_cq failed");
		stop(cr, "cq-error", 0);
		cr->abandon = true;
	}
	return total;
}

static void client_cm_event(struct crun *cr)
{
	struct rdma_cm_event *ev;

	while (!rdma_get_cm_event(cr->ch, &ev)) {
		tr_verbose(cr->o, "rdma_cm: %s", rdma_event_str(ev->event));
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED) {
			cr->c->disconnected = true;
			cr->r->peer_gone = true;
			stop(cr, "peer-disconnect", ERROR_DRAIN_S);
		}
		rdma_ack_cm_event(ev);
	}
}

static double client_wake(const struct crun *cr)
{
	const struct tr_opts *o = cr->o;
	double wake = INFINITY;

	if (cr->stopping) {
		wake = cr->drain_deadline;
	} else {
		if (o->duration > 0)
			wake = cr->t_end;
		if (o->rate > 0 && cr->inflight < o->window)
			wake = fmin(wake, cr->t0 + (double)cr->r->posted / o->rate);
	}
	if (o->verbose)
		wake = fmin(wake, cr->t_progress);
	return wake;
}

static void client_progress(struct crun *cr, double now)
{
	double s = now - cr->t0;

	if (!cr->o->verbose || now < cr->t_progress)
		return;
	cr->t_progress += 1.0;
	tr_verbose(cr->o, "%.1f s: %llu WRITEs done, %.2f MB/s, %u in flight", s,
		   (unsigned long long)cr->r->messages,
		   s > 0 ? (double)cr->r->bytes / s / 1e6 : 0.0, cr->inflight);
}

/* Arm the CQ, sleep, dispatch what woke us.  -1 on a fatal error. */
static int client_wait(struct crun *cr)
{
	struct pollfd p[3];

	if (ibv_req_notify_cq(cr->c->cq, 0)) {
		tr_err("ibv_req_notify_cq failed");
		return -1;
	}
	if (client_reap(cr))
		return 0;	/* raced with a completion: go around */
	if (sleep_until(cr->ctx, cr->ch, cr->c, client_wake(cr), p))
		return -1;
	if (p[1].revents & POLLIN)
		client_cm_event(cr);
	if ((p[2].revents & POLLIN) && tr_take_signals(cr->ctx)) {
		if (cr->ctx->signals > 1)
			cr->abandon = true;	/* second signal: stop waiting */
		stop(cr, "signal", DRAIN_S);
	}
	return 0;
}

int tr_client_run(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		  struct tr_conn *c, struct tr_result *r)
{
	const struct tr_opts *o = ctx->o;
	struct crun cr = { .ctx = ctx, .o = o, .ch = ch, .c = c, .r = r };
	double now;

	r->role = "client";
	r->local_qpn = c->local_qpn;
	r->remote_qpn = c->remote_qpn;
	tr_peer_name(c->id, r->peer, sizeof(r->peer));
	tr_query_qp(c, &r->qp);
	cr.t0 = cr.t_last = tr_now();
	cr.t_end = cr.t0 + o->duration;
	cr.t_progress = cr.t0 + 1.0;
	for (;;) {
		client_reap(&cr);
		now = tr_now();
		if (o->duration > 0 && now >= cr.t_end)
			stop(&cr, "duration", DRAIN_S);
		post_ready(&cr, now);
		if (cr.stopping && (!cr.inflight || cr.abandon))
			break;
		if (cr.stopping && now >= cr.drain_deadline) {
			r->drain_timeout = true;
			tr_err("%u WRs still in flight, giving up", cr.inflight);
			break;
		}
		client_progress(&cr, now);
		if (client_wait(&cr))
			break;
	}
	r->abandoned = cr.inflight;
	r->seconds = cr.t_last - cr.t0;
	return 0;
}

/* ---- server ------------------------------------------------------------- */

struct srun {
	struct tr_ctx *ctx;
	struct rdma_event_channel *ch;
	struct tr_conn *c;
	struct tr_result *r;
	struct rdma_cm_event **next;	/* a request that replaces us */
	double t_first, t_last, t_progress;
	bool done;
};

static void server_wc(struct srun *sr, const struct ibv_wc *wc, double now)
{
	struct tr_result *r = sr->r;

	if (wc->status == IBV_WC_SUCCESS) {
		if (wc->opcode == IBV_WC_RECV_RDMA_WITH_IMM) {
			sr->t_last = now;
			r->messages++;
			r->bytes += wc->byte_len;
		}
		if (!sr->c->disconnected && tr_post_recvs(sr->c, 1))
			r->post_error = true;
		return;
	}
	/* receives flushed when the QP goes down: not a traffic failure */
	if (wc->status == IBV_WC_WR_FLUSH_ERR || r->failed)
		return;
	record_failure(r, wc, now - (sr->t_last > 0 ? sr->t_last : now));
	tr_verbose(sr->ctx->o, "receive failed: %s (%d) on QPN %u",
		   ibv_wc_status_str(wc->status), wc->status, wc->qp_num);
	r->stop = "wc-error";
	sr->done = true;
}

static int server_reap(struct srun *sr)
{
	struct ibv_wc wc[POLL_BATCH];
	int n, i, total = 0;

	while ((n = ibv_poll_cq(sr->c->cq, POLL_BATCH, wc)) > 0) {
		for (i = 0; i < n; i++)
			server_wc(sr, &wc[i], tr_now());
		total += n;
	}
	if (n < 0) {
		tr_err("ibv_poll_cq failed");
		sr->done = true;
	}
	return total;
}

/*
 * Another client while we serve one.  If ours has been silent for
 * TR_STALE_S, it most likely died without its DREQ reaching us (the path
 * was down): end this connection and let the caller serve the new one.
 */
static void server_request(struct srun *sr, struct rdma_cm_event *ev)
{
	double idle = tr_now() - fmax(sr->t_first, sr->t_last);

	if (idle < TR_STALE_S) {
		tr_verbose(sr->ctx->o, "refusing a second client: busy");
		tr_reject(ev, "busy");
		return;
	}
	tr_verbose(sr->ctx->o, "new client; the current one has been silent "
		   "for %.1f s: dropping it", idle);
	*sr->next = ev;
	sr->r->stop = "replaced";
	sr->done = true;
}

static void server_cm_event(struct srun *sr)
{
	struct rdma_cm_event *ev;

	while (!sr->done && !rdma_get_cm_event(sr->ch, &ev)) {
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			server_request(sr, ev);
			continue;
		}
		tr_verbose(sr->ctx->o, "rdma_cm: %s", rdma_event_str(ev->event));
		if (ev->id == sr->c->id && ev->event != RDMA_CM_EVENT_ESTABLISHED) {
			if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
				sr->c->disconnected = true;
			if (!sr->r->stop)
				sr->r->stop = ev->event == RDMA_CM_EVENT_DISCONNECTED ?
					      "peer-disconnect" : rdma_event_str(ev->event);
			sr->done = true;
		}
		rdma_ack_cm_event(ev);
	}
}

static void server_progress(struct srun *sr, double now)
{
	if (!sr->ctx->o->verbose || now < sr->t_progress)
		return;
	sr->t_progress = now + 1.0;
	tr_verbose(sr->ctx->o, "%llu WRITEs received",
		   (unsigned long long)sr->r->messages);
}

int tr_server_run(struct tr_ctx *ctx, struct rdma_event_channel *ch,
		  struct tr_conn *c, struct tr_result *r,
		  struct rdma_cm_event **next)
{
	struct srun sr = { .ctx = ctx, .ch = ch, .c = c, .r = r, .next = next };
	struct pollfd p[3];

	r->role = "server";
	r->local_qpn = c->local_qpn;
	r->remote_qpn = c->remote_qpn;
	tr_query_qp(c, &r->qp);
	sr.t_first = tr_now();	/* accepted: the client may write from now */
	sr.t_progress = sr.t_first + 1.0;
	while (!sr.done) {
		server_reap(&sr);
		server_progress(&sr, tr_now());
		if (ibv_req_notify_cq(c->cq, 0)) {
			tr_err("ibv_req_notify_cq failed");
			break;
		}
		if (server_reap(&sr))
			continue;
		if (sleep_until(ctx, ch, c, ctx->o->verbose ? sr.t_progress : INFINITY, p))
			break;
		if (p[1].revents & POLLIN)
			server_cm_event(&sr);
		if ((p[2].revents & POLLIN) && tr_take_signals(ctx)) {
			r->stop = "signal";
			sr.done = true;
		}
	}
	server_reap(&sr);	/* completions that raced with the disconnect */
	r->posted = r->messages;
	r->seconds = r->messages ? sr.t_last - sr.t_first : 0;
	return 0;
}
