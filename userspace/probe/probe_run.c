// SPDX-License-Identifier: GPL-2.0
/*
 * probe_run.c - the prober thread (prober.h): open and close each port's
 * QP as the port comes and goes, send probes on schedule, answer requests,
 * take replies, time probes out.  Which peers a port probes: probe_match.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "clock.h"
#include "prober.h"

static unsigned int want_tclass(const struct prober *pr, const struct probe_port *pp)
{
	unsigned int i;

	for (i = 0; i < pr->cfg.nr_tos_rules; i++)
		if (!strcmp(pr->cfg.tos_rules[i].device, pp->device) &&
		    pr->cfg.tos_rules[i].port == pp->port)
			return pr->cfg.tos_rules[i].tos;
	if (pr->cfg.tos >= 0)
		return (unsigned int)pr->cfg.tos;
	return pp->tos >= 0 ? (unsigned int)pp->tos : 0;
}

/*
 * The next pair's probe, on its next flow: each pair's probes cycle over
 * the port's K flows, each its own UDP source port (probes.rst "Flows and
 * ECMP"): by the flow's label on one QP, or from the flow's own QP.
 */
void probe_send_one(struct prober *pr, struct probe_port *pp, uint64_t now)
{
	struct probe_pkt pkt = { .type = PROBE_REQUEST };
	struct probe_pair *p = NULL;
	unsigned int i, f, q, tc = want_tclass(pr, pp);
	uint32_t label;
	struct ibv_ah *ah;

	if (tc != pp->tclass) {		/* the ToS changed: new address handles */
		probe_ah_flush(pr, pp);
		pp->tclass = tc;
	}
	for (i = 0; i < PROBE_MAX_PEERS && !p; i++) {
		pp->rr = (pp->rr + 1) % PROBE_MAX_PEERS;
		if (pp->pairs[pp->rr].present)
			p = &pp->pairs[pp->rr];
	}
	if (!p)
		return;
	f = pp->nr_flows ? p->flow_next % pp->nr_flows : 0;
	q = pp->flow_label || f >= pp->nr_qp ? 0 : f;
	label = pp->flow_label ? probe_flow_label(f, pp->nr_flows) : 0;
	/* no handle yet, or none to be had: the peer's turn passes, no probe counted */
	ah = probe_ah_get(pr, pp, p->peer.gid, label, now);
	if (!ah) {
		p->unresolved++;
		/*
		 * another flow's handle (label mode) is being made: its turn
		 * passes to the next flow; flow 0's is the address's own, which
		 * stays the pair's first flow until it is there
		 */
		if (label)
			p->flow_next++;
		return;
	}
	pkt.seq = p->st.next_seq;
	pkt.session = pp->session;
	pkt.qpn = pp->fqpn[q];
	pkt.t_sent = now;
	if (probe_send(pp, q, ah, p->peer.qpn, p->peer.qkey, &pkt)) {
		pp->send_errors++;	/* ours, not the path's: no probe counted */
		return;
	}
	probe_stats_send(&p->st, f, now);
	p->flow_next++;
	pp->probes_total++;
}

/* a token of a bucket filled at rate a second, rate deep */
static bool take_token(double *tokens, uint64_t *since, unsigned int rate, uint64_t now)
{
	*tokens += (double)(now - *since) * rate / NS_PER_S;
	*since = now;
	if (*tokens > rate)
		*tokens = rate;
	if (*tokens < 1)
		return false;
	*tokens -= 1;
	return true;
}

static void reply(struct prober *pr, struct probe_port *pp, struct ibv_ah *ah, uint32_t qpn,
		  const struct probe_pkt *req, uint64_t t_rx)
{
	struct probe_pkt rep = *req;

	rep.type = PROBE_REPLY;
	rep.qpn = pp->qpn;
	rep.t_rx = t_rx;
	rep.t_tx = clock_ns(CLOCK_MONOTONIC);
	/* from flow 0's QP, the one the requester's pair knows (probe_doc) */
	if (probe_send(pp, 0, ah, qpn, pr->cfg.qkey, &rep)) {
		pp->send_errors++;
		return;
	}
	pp->answered++;
}

/*
 * A request: answered within the requester's own budget (reply_rate_source)
 * and the port's (reply_rate); from an address with no handle yet, held
 * (the latest one) until the resolver has made it, so that a new peer's
 * first probes are not lost to our own set-up.
 */
static void answer(struct prober *pr, struct probe_port *pp, const struct ibv_wc *wc,
		   const uint8_t gid[16], const struct probe_pkt *req, uint64_t now)
{
	struct probe_ahc *a = probe_ah_entry(pr, pp, gid, 0, now);

	if (!a || (a->state == PROBE_AH_FAILED && now < a->retry_ns)) {
		pp->dropped[PROBE_DROP_UNRESOLVED]++;
		return;
	}
	if (!take_token(&a->tokens, &a->tokens_ns, pr->cfg.reply_rate_source, now)) {
		pp->dropped[PROBE_DROP_RATE_SOURCE]++;
		return;
	}
	if (!take_token(&pp->tokens, &pp->tokens_ns, pr->cfg.reply_rate, now)) {
		pp->dropped[PROBE_DROP_RATE]++;
		return;
	}
	if (a->state != PROBE_AH_READY) {
		if (a->held)		/* replaced by a newer one */
			pp->dropped[PROBE_DROP_UNRESOLVED]++;
		a->held = true;
		a->held_req = *req;
		a->held_qpn = wc->src_qp;
		a->held_ns = now;
		return;
	}
	reply(pr, pp, a->ah, wc->src_qp, req, now);
}

/* the requests held for handles the resolver has made or failed (lock held) */
void probe_answer_held(struct prober *pr)
{
	unsigned int i, k;

	if (!pr->ah_done)
		return;
	pr->ah_done = false;
	for (i = 0; i < PROBE_MAX_PORTS; i++) {
		struct probe_port *pp = &pr->ports[i];

		for (k = 0; pp->up && k < pp->ahc_hw; k++) {
			struct probe_ahc *a = &pp->ahc[k];

			if (!a->held || a->state == PROBE_AH_WANTED || a->state == PROBE_AH_MAKING)
				continue;
			a->held = false;
			if (a->state == PROBE_AH_READY)
				reply(pr, pp, a->ah, a->held_qpn, &a->held_req, a->held_ns);
			else
				pp->dropped[PROBE_DROP_UNRESOLVED]++;
		}
	}
}

static void take_reply(struct probe_port *pp, const struct ibv_wc *wc, const uint8_t gid[16],
		       const struct probe_pkt *r, uint64_t now)
{
	struct probe_pair *p = NULL;
	uint64_t rtt;
	enum probe_drop d;
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PEERS && !p; i++)
		if (pp->pairs[i].present && pp->pairs[i].peer.qpn == wc->src_qp &&
		    !memcmp(pp->pairs[i].peer.gid, gid, 16))
			p = &pp->pairs[i];
	if (!p) {
		pp->dropped[PROBE_DROP_UNKNOWN]++;
		return;
	}
	if (r->session != pp->session) {
		pp->dropped[PROBE_DROP_SESSION]++;
		return;
	}
	if (r->t_sent > now) {
		pp->dropped[PROBE_DROP_UNSOLICITED]++;
		return;
	}
	/* a turnaround of the whole round trip or more: the reply counts, its RTT does not */
	rtt = probe_stats_rtt(now - r->t_sent, r->t_rx, r->t_tx);
	d = probe_stats_reply(&p->st, r->seq, r->t_sent, now, rtt, clock_ns(CLOCK_REALTIME));
	if (d != PROBE_DROP_NR)
		pp->dropped[d]++;
	else if (rtt == PROBE_RTT_NONE)
		pp->turnaround_bad++;
}

#ifdef PROBE_FAULTS
/*
 * The test build (fabteld-faults, selftests/lab_probes.sh): after
 * FABTEL_PROBE_FAULT_SKIP good receive completions, FABTEL_PROBE_FAULT_ALT
 * of them are turned into errors, every other one, then
 * FABTEL_PROBE_FAULT_RUN more in a row.
 */
static long fault_env(const char *name)
{
	const char *e = getenv(name);

	return e ? atol(e) : 0;
}

static bool fault_rx(void)
{
	static long skip = -1, alt, run, n;

	if (skip < 0) {
		skip = fault_env("FABTEL_PROBE_FAULT_SKIP");
		alt = fault_env("FABTEL_PROBE_FAULT_ALT");
		run = fault_env("FABTEL_PROBE_FAULT_RUN");
	}
	if (skip > 0) {
		skip--;
		return false;
	}
	if (alt > 0)
		return n++ % 2 ? alt-- > 0 : false;
	return run > 0 && run--;
}
#else
static bool fault_rx(void)
{
	return false;
}
#endif

/* a receive completion: its buffer posted again whatever it held; false if that fails */
static bool take_receive(struct prober *pr, struct probe_port *pp, const struct ibv_wc *wc,
			 uint64_t now)
{
	const uint8_t *b = pp->buf + wc->wr_id * PROBE_SLOT_LEN;
	struct probe_pkt pkt;
	uint8_t gid[16];

	if (wc->status != IBV_WC_SUCCESS || fault_rx()) {
		pp->dropped[PROBE_DROP_ERROR]++;
		pp->rx_err_run++;
	} else if (wc->byte_len < PROBE_GRH_LEN || !(wc->wc_flags & IBV_WC_GRH) ||
		   probe_grh_sgid(b, gid) ||
		   probe_pkt_decode(b + PROBE_GRH_LEN, wc->byte_len - PROBE_GRH_LEN, &pkt)) {
		pp->dropped[PROBE_DROP_MALFORMED]++;
		pp->rx_err_run = 0;
	} else {
		pp->received++;
		pp->rx_err_run = 0;
		if (pkt.type == PROBE_REQUEST)
			answer(pr, pp, wc, gid, &pkt, now);
		else
			take_reply(pp, wc, gid, &pkt, now);
	}
	return !probe_post_recv(pp, (unsigned int)wc->wr_id);
}

/*
 * One completion; false if the QP must be made again: it went to error
 * (flushed), a receive buffer could not be posted again, or receives kept
 * failing (PROBE_RX_ERR_REOPEN in a row).
 */
static bool completion(struct prober *pr, struct probe_port *pp, const struct ibv_wc *wc,
		       uint64_t now, enum probe_reopen *why)
{
	*why = PROBE_REOPEN_QP_ERROR;
	if (wc->status == IBV_WC_WR_FLUSH_ERR) {
		if (wc->wr_id >= pp->recv_slots)
			pp->send_free++;
		return false;
	}
	if (wc->wr_id >= pp->recv_slots) {
		pp->send_free++;
		if (wc->status != IBV_WC_SUCCESS)
			pp->send_errors++;
		return true;
	}
	if (!take_receive(pr, pp, wc, now))
		return false;
	*why = PROBE_REOPEN_RX_ERRORS;
	return pp->rx_err_run < PROBE_RX_ERR_REOPEN;
}

void probe_drain(struct prober *pr, struct probe_port *pp)
{
	enum probe_reopen why = PROBE_REOPEN_QP_ERROR;
	struct ibv_wc wc[16];
	struct ibv_cq *cq;
	void *ctx;
	bool ok = true;
	uint64_t now;
	int n = 0, i;

	if (!pp->up)
		return;
	if (!ibv_get_cq_event(pp->ch, &cq, &ctx)) {
		ibv_ack_cq_events(cq, 1);
		ibv_req_notify_cq(cq, 0);
	}
	while (ok && (n = ibv_poll_cq(pp->cq, 16, wc)) > 0) {
		now = clock_ns(CLOCK_MONOTONIC);
		for (i = 0; i < n && ok; i++)
			ok = completion(pr, pp, &wc[i], now, &why);
	}
	if (ok && n == 0)
		return;
	snprintf(pp->why, sizeof(pp->why), "%s; made again",
		 why == PROBE_REOPEN_RX_ERRORS ? "receives kept failing" : "the QP went to error");
	pp->reopens[why]++;
	probe_port_close(pr, pp);
	pp->retry_ns = 0;
}

const char *probe_reopen_name(enum probe_reopen r)
{
	static const char *const names[PROBE_REOPEN_NR] = {
		[PROBE_REOPEN_QP_ERROR] = "qp_error",
		[PROBE_REOPEN_RX_ERRORS] = "receive_errors",
	};

	return r < PROBE_REOPEN_NR ? names[r] : "?";
}
