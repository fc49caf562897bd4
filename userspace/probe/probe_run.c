// SPDX-License-Identifier: GPL-2.0
/*
 * probe_run.c - the prober thread (prober.h): open and close each port's
 * QP as the port comes and goes, match the peers' endpoints to ports, send
 * probes on schedule, answer requests, take replies, time probes out.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
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

static bool gid_v4(const uint8_t gid[16], struct in_addr *a)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (memcmp(gid, pfx, 12))
		return false;
	memcpy(&a->s_addr, gid + 12, 4);
	return true;
}

/* the peer's IPv4-mapped GID is in a subnet of the port's netdev */
static bool same_subnet(const struct probe_port *pp, const uint8_t gid[16], struct ifaddrs *ifa)
{
	struct in_addr peer;
	struct ifaddrs *i;

	if (!gid_v4(gid, &peer))
		return false;
	for (i = ifa; i; i = i->ifa_next) {
		const struct sockaddr_in *a = (const void *)i->ifa_addr;
		const struct sockaddr_in *m = (const void *)i->ifa_netmask;

		if (!a || !m || a->sin_family != AF_INET || strcmp(i->ifa_name, pp->netdev))
			continue;
		if ((a->sin_addr.s_addr & m->sin_addr.s_addr) ==
		    (peer.s_addr & m->sin_addr.s_addr))
			return true;
	}
	return false;
}

static bool own_gid(const struct prober *pr, const uint8_t gid[16])
{
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PORTS; i++)
		if (pr->ports[i].up && !memcmp(pr->ports[i].gid, gid, 16))
			return true;
	return false;
}

static struct probe_pair *find_pair(struct probe_port *pp, const struct probe_endpoint *e)
{
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PEERS; i++) {
		struct probe_pair *p = &pp->pairs[i];

		if (p->present && !strcmp(p->peer.host, e->host) &&
		    !strcmp(p->peer.device, e->device) && p->peer.port == e->port)
			return p;
	}
	return NULL;
}

static void take_endpoint(struct prober *pr, struct probe_port *pp,
			  const struct probe_endpoint *e, uint64_t now)
{
	struct probe_pair *p = find_pair(pp, e);
	uint32_t seq;
	unsigned int i;

	if (p) {
		if (memcmp(p->peer.gid, e->gid, 16) && p->ah) {
			ibv_destroy_ah(p->ah);
			p->ah = NULL;
		}
		p->peer = *e;
		p->seen_ns = now;
		return;
	}
	for (i = 0; i < PROBE_MAX_PEERS && pp->pairs[i].present; i++)
		;
	if (i == PROBE_MAX_PEERS || pp->nr_pairs >= pr->cfg.max_peers) {
		pp->over_limit++;
		return;
	}
	p = &pp->pairs[i];
	seq = (uint32_t)(now ^ (now >> 32)) * 2654435761u;
	memset(p, 0, sizeof(*p));
	probe_stats_init(&p->st, seq);
	p->present = true;
	p->peer = *e;
	p->seen_ns = now;
	pp->nr_pairs++;
}

/* the port's pairs from the endpoints the fetcher holds (lock held) */
static void match_port(struct prober *pr, struct probe_port *pp, uint64_t now,
		       struct ifaddrs *ifa)
{
	uint64_t ttl = (uint64_t)pr->cfg.peer_ttl_s * NS_PER_S;
	unsigned int s, k;

	pp->over_limit = 0;
	for (s = 0; s < pr->nr_src; s++) {
		const struct probe_source *src = &pr->src[s];

		if (!src->ok_ns || src->ok_ns + ttl < now)
			continue;
		for (k = 0; k < src->nr_eps; k++) {
			const struct probe_endpoint *e = &src->eps[k];

			if (own_gid(pr, e->gid) || !strcmp(e->host, pr->cfg.host))
				continue;
			if (!pr->cfg.match_all && !same_subnet(pp, e->gid, ifa))
				continue;
			take_endpoint(pr, pp, e, now);
		}
	}
	/* a peer no document has listed for peer_ttl_s goes, with its series */
	for (k = 0; k < PROBE_MAX_PEERS; k++) {
		struct probe_pair *p = &pp->pairs[k];

		if (!p->present || p->seen_ns + ttl >= now)
			continue;
		if (p->ah)
			ibv_destroy_ah(p->ah);
		memset(p, 0, sizeof(*p));
		pp->nr_pairs--;
	}
}

void probe_match_all(struct prober *pr, uint64_t now)
{
	struct ifaddrs *ifa = NULL;
	unsigned int i;

	if (getifaddrs(&ifa))
		ifa = NULL;
	for (i = 0; i < PROBE_MAX_PORTS; i++)
		if (pr->ports[i].up)
			match_port(pr, &pr->ports[i], now, ifa);
	if (ifa)
		freeifaddrs(ifa);
	pr->src_seen_gen = pr->src_gen;
}

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

void probe_send_one(struct prober *pr, struct probe_port *pp, uint64_t now)
{
	struct probe_pkt pkt = { .type = PROBE_REQUEST };
	struct probe_pair *p = NULL;
	unsigned int i, tc = want_tclass(pr, pp);

	if (tc != pp->tclass) {		/* the ToS changed: new address handles */
		for (i = 0; i < PROBE_MAX_PEERS; i++) {
			if (pp->pairs[i].ah)
				ibv_destroy_ah(pp->pairs[i].ah);
			pp->pairs[i].ah = NULL;
		}
		pp->tclass = tc;
	}
	for (i = 0; i < PROBE_MAX_PEERS && !p; i++) {
		pp->rr = (pp->rr + 1) % PROBE_MAX_PEERS;
		if (pp->pairs[pp->rr].present)
			p = &pp->pairs[pp->rr];
	}
	if (!p)
		return;
	if (!p->ah)
		p->ah = probe_pair_ah(pr, pp, p->peer.gid);
	pkt.seq = p->st.next_seq;
	pkt.session = pp->session;
	pkt.qpn = pp->qpn;
	pkt.t_sent = now;
	if (!p->ah || probe_send(pp, p->ah, p->peer.qpn, p->peer.qkey, &pkt)) {
		pp->send_errors++;	/* ours, not the path's: no probe counted */
		return;
	}
	probe_stats_send(&p->st, now);
	pp->probes_total++;
}

static struct ibv_ah *responder_ah(struct prober *pr, struct probe_port *pp,
				   const uint8_t gid[16], uint64_t now)
{
	unsigned int i, old = 0;

	for (i = 0; i < PROBE_MAX_PEERS; i++) {
		struct probe_pair *p = &pp->pairs[i];

		if (p->present && !memcmp(p->peer.gid, gid, 16)) {
			if (!p->ah)
				p->ah = probe_pair_ah(pr, pp, gid);
			return p->ah;
		}
	}
	for (i = 0; i < PROBE_RESP_AH; i++) {
		if (pp->resp[i].ah && !memcmp(pp->resp[i].gid, gid, 16)) {
			pp->resp[i].used_ns = now;
			return pp->resp[i].ah;
		}
		if (pp->resp[i].used_ns < pp->resp[old].used_ns)
			old = i;
	}
	if (pp->resp[old].ah)
		ibv_destroy_ah(pp->resp[old].ah);
	memcpy(pp->resp[old].gid, gid, 16);
	pp->resp[old].used_ns = now;
	pp->resp[old].ah = probe_pair_ah(pr, pp, gid);
	return pp->resp[old].ah;
}

static void answer(struct prober *pr, struct probe_port *pp, const struct ibv_wc *wc,
		   const uint8_t gid[16], const struct probe_pkt *req, uint64_t now)
{
	struct probe_pkt rep = *req;
	struct ibv_ah *ah;

	pp->tokens += (double)(now - pp->tokens_ns) * pr->cfg.reply_rate / NS_PER_S;
	pp->tokens_ns = now;
	if (pp->tokens > pr->cfg.reply_rate)
		pp->tokens = pr->cfg.reply_rate;
	if (pp->tokens < 1) {
		pp->dropped[PROBE_DROP_RATE]++;
		return;
	}
	pp->tokens -= 1;
	ah = responder_ah(pr, pp, gid, now);
	rep.type = PROBE_REPLY;
	rep.qpn = pp->qpn;
	rep.t_rx = now;
	rep.t_tx = clock_ns(CLOCK_MONOTONIC);
	if (!ah || probe_send(pp, ah, wc->src_qp, pr->cfg.qkey, &rep)) {
		pp->send_errors++;
		return;
	}
	pp->answered++;
}

static void take_reply(struct probe_port *pp, const struct ibv_wc *wc, const uint8_t gid[16],
		       const struct probe_pkt *r, uint64_t now)
{
	struct probe_pair *p = NULL;
	uint64_t total, turn;
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
	total = now - r->t_sent;
	turn = r->t_tx - r->t_rx;
	d = probe_stats_reply(&p->st, r->seq, r->t_sent, now, turn < total ? total - turn : total,
			      clock_ns(CLOCK_REALTIME));
	if (d != PROBE_DROP_NR)
		pp->dropped[d]++;
}

/* one completion; false if the QP is in error and must be made again */
static bool completion(struct prober *pr, struct probe_port *pp, const struct ibv_wc *wc,
		       uint64_t now)
{
	struct probe_pkt pkt;
	uint8_t gid[16];
	const uint8_t *b;

	if (wc->wr_id >= PROBE_RECV_SLOTS) {
		pp->send_free++;
		if (wc->status != IBV_WC_SUCCESS)
			pp->send_errors++;
		return wc->status != IBV_WC_WR_FLUSH_ERR;
	}
	if (wc->status != IBV_WC_SUCCESS) {
		pp->dropped[PROBE_DROP_ERROR]++;
		return wc->status != IBV_WC_WR_FLUSH_ERR;
	}
	b = pp->buf + wc->wr_id * PROBE_SLOT_LEN;
	if (wc->byte_len < PROBE_GRH_LEN || !(wc->wc_flags & IBV_WC_GRH) ||
	    probe_grh_sgid(b, gid) ||
	    probe_pkt_decode(b + PROBE_GRH_LEN, wc->byte_len - PROBE_GRH_LEN, &pkt))
		pp->dropped[PROBE_DROP_MALFORMED]++;
	else if (pkt.type == PROBE_REQUEST)
		answer(pr, pp, wc, gid, &pkt, now);
	else
		take_reply(pp, wc, gid, &pkt, now);
	return !probe_post_recv(pp, (unsigned int)wc->wr_id);
}

void probe_drain(struct prober *pr, struct probe_port *pp)
{
	struct ibv_wc wc[16];
	struct ibv_cq *cq;
	void *ctx;
	bool ok = true;
	uint64_t now;
	int n, i;

	if (!pp->up)
		return;
	if (!ibv_get_cq_event(pp->ch, &cq, &ctx)) {
		ibv_ack_cq_events(cq, 1);
		ibv_req_notify_cq(cq, 0);
	}
	while (ok && (n = ibv_poll_cq(pp->cq, 16, wc)) > 0) {
		now = clock_ns(CLOCK_MONOTONIC);
		for (i = 0; i < n; i++)
			ok &= completion(pr, pp, &wc[i], now);
	}
	if (ok && n == 0)
		return;
	snprintf(pp->why, sizeof(pp->why), "the QP went to error; made again");
	probe_port_close(pr, pp);
	pp->retry_ns = 0;
}
