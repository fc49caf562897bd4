// SPDX-License-Identifier: GPL-2.0
/*
 * probe_verbs.c - one port's UD QP for the prober (prober.h): open, close,
 * receive buffers, a probe sent, address handles.  Called only from the
 * prober thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <infiniband/verbs.h>

#include "prober.h"

static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

/*
 * The port's GID for RoCE v2: an IPv4-mapped one first (what rdma_cm and
 * NCCL use on IPv4 fabrics), else any RoCE v2 GID of the port's netdev.
 */
int probe_roce_gid(struct ibv_context *ctx, uint32_t port, int *index, uint8_t gid[16])
{
	struct ibv_gid_entry e[64];
	ssize_t n, i;
	int best = -1;

	n = ibv_query_gid_table(ctx, e, 64, 0);
	if (n < 0)
		return (int)n;
	for (i = 0; i < n; i++) {
		if (e[i].port_num != port || e[i].gid_type != IBV_GID_TYPE_ROCE_V2)
			continue;
		if (!memcmp(e[i].gid.raw, v4_prefix, 12)) {
			best = (int)i;
			break;
		}
		if (best < 0)
			best = (int)i;
	}
	if (best < 0)
		return -ENOENT;
	*index = (int)e[best].gid_index;
	memcpy(gid, e[best].gid.raw, 16);
	return 0;
}

static int pick_gid(struct probe_port *pp)
{
	int err = probe_roce_gid(pp->ctx, pp->port, &pp->gid_index, pp->gid);

	if (err == -ENOENT)
		snprintf(pp->why, sizeof(pp->why), "no RoCE v2 GID on the port");
	else if (err)
		snprintf(pp->why, sizeof(pp->why), "ibv_query_gid_table: %s", strerror(-err));
	return err ? -1 : 0;
}

struct ibv_context *probe_open_device(const char *name)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			ctx = ibv_open_device(l[i]);
	if (l)
		ibv_free_device_list(l);
	return ctx;
}

/* RESET -> INIT -> RTR -> RTS, as a UD QP goes */
int probe_ud_ready(struct ibv_qp *qp, uint32_t port, unsigned int qkey)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = (uint8_t)port;
	a.qkey = qkey;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

static int make_qp(struct prober *pr, struct probe_port *pp)
{
	struct ibv_qp_init_attr qa;
	size_t len = (size_t)(PROBE_RECV_SLOTS + PROBE_SEND_SLOTS) * PROBE_SLOT_LEN;

	pp->pd = ibv_alloc_pd(pp->ctx);
	pp->ch = pp->pd ? ibv_create_comp_channel(pp->ctx) : NULL;
	pp->cq = pp->ch ? ibv_create_cq(pp->ctx, PROBE_RECV_SLOTS + PROBE_SEND_SLOTS + 8,
					NULL, pp->ch, 0) : NULL;
	pp->buf = pp->cq ? calloc(1, len) : NULL;
	pp->mr = pp->buf ? ibv_reg_mr(pp->pd, pp->buf, len, IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!pp->mr)
		return -1;
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = pp->cq;
	qa.recv_cq = pp->cq;
	qa.qp_type = IBV_QPT_UD;
	qa.cap.max_send_wr = PROBE_SEND_SLOTS;
	qa.cap.max_recv_wr = PROBE_RECV_SLOTS;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	pp->qp = ibv_create_qp(pp->pd, &qa);
	if (!pp->qp || probe_ud_ready(pp->qp, pp->port, pr->cfg.qkey))
		return -1;
	pp->qpn = pp->qp->qp_num;
	return 0;
}

int probe_port_open(struct prober *pr, struct probe_port *pp)
{
	struct ibv_port_attr pa;
	struct epoll_event ev;
	unsigned int i;

	pp->ctx = probe_open_device(pp->device);
	if (!pp->ctx) {
		snprintf(pp->why, sizeof(pp->why), "cannot open %s through libibverbs", pp->device);
		goto close;
	}
	if (ibv_query_port(pp->ctx, (uint8_t)pp->port, &pa) ||
	    pa.link_layer != IBV_LINK_LAYER_ETHERNET) {
		snprintf(pp->why, sizeof(pp->why), "not an Ethernet (RoCE) port");
		goto close;
	}
	if (pick_gid(pp))
		goto close;
	if (make_qp(pr, pp)) {
		snprintf(pp->why, sizeof(pp->why), "cannot make the UD QP: %s", strerror(errno));
		goto close;
	}
	for (i = 0; i < PROBE_RECV_SLOTS; i++)
		if (probe_post_recv(pp, i))
			goto close;
	if (fcntl(pp->ch->fd, F_SETFL, fcntl(pp->ch->fd, F_GETFL) | O_NONBLOCK) ||
	    ibv_req_notify_cq(pp->cq, 0))
		goto close;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u32 = (uint32_t)(pp - pr->ports);
	if (epoll_ctl(pr->epfd, EPOLL_CTL_ADD, pp->ch->fd, &ev))
		goto close;
	if (getrandom(&pp->session, sizeof(pp->session), 0) != sizeof(pp->session))
		pp->session = (uint32_t)(uintptr_t)pp ^ pp->qpn;
	pp->send_free = PROBE_SEND_SLOTS;
	pp->send_next = 0;
	pp->up = true;
	pp->why[0] = '\0';
	return 0;
close:
	if (!pp->why[0])
		snprintf(pp->why, sizeof(pp->why), "verbs setup failed: %s", strerror(errno));
	probe_port_close(pr, pp);
	return -1;
}

void probe_port_close(struct prober *pr, struct probe_port *pp)
{
	unsigned int i;

	for (i = 0; pp->pairs && i < PROBE_MAX_PEERS; i++) {
		if (pp->pairs[i].ah)
			ibv_destroy_ah(pp->pairs[i].ah);
		pp->pairs[i].ah = NULL;
	}
	for (i = 0; i < PROBE_RESP_AH; i++) {
		if (pp->resp[i].ah)
			ibv_destroy_ah(pp->resp[i].ah);
		pp->resp[i].ah = NULL;
	}
	if (pp->ch)
		epoll_ctl(pr->epfd, EPOLL_CTL_DEL, pp->ch->fd, NULL);
	if (pp->qp)
		ibv_destroy_qp(pp->qp);
	if (pp->mr)
		ibv_dereg_mr(pp->mr);
	free(pp->buf);
	if (pp->cq)
		ibv_destroy_cq(pp->cq);
	if (pp->ch)
		ibv_destroy_comp_channel(pp->ch);
	if (pp->pd)
		ibv_dealloc_pd(pp->pd);
	if (pp->ctx)
		ibv_close_device(pp->ctx);
	pp->qp = NULL;
	pp->mr = NULL;
	pp->buf = NULL;
	pp->cq = NULL;
	pp->ch = NULL;
	pp->pd = NULL;
	pp->ctx = NULL;
	pp->up = false;
	pp->qpn = 0;
}

int probe_post_recv(struct probe_port *pp, unsigned int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(pp->buf + (size_t)slot * PROBE_SLOT_LEN),
		.length = PROBE_SLOT_LEN,
		.lkey = pp->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(pp->qp, &wr, &bad);
}

/* wr_id: PROBE_RECV_SLOTS + the send slot, so completions tell them apart */
int probe_send(struct probe_port *pp, struct ibv_ah *ah, uint32_t qpn, uint32_t qkey,
	       const struct probe_pkt *pkt)
{
	unsigned int slot = PROBE_RECV_SLOTS + pp->send_next;
	uint8_t *b = pp->buf + (size_t)slot * PROBE_SLOT_LEN;
	struct ibv_sge sge = { .addr = (uintptr_t)b, .length = PROBE_PKT_LEN, .lkey = pp->mr->lkey };
	struct ibv_send_wr wr, *bad;

	if (!pp->send_free)
		return -1;
	probe_pkt_encode(pkt, b);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = slot;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = qpn;
	wr.wr.ud.remote_qkey = qkey;
	if (ibv_post_send(pp->qp, &wr, &bad))
		return -1;
	pp->send_free--;
	pp->send_next = (pp->send_next + 1) % PROBE_SEND_SLOTS;
	return 0;
}

/* An address handle to gid on this port, in the probes' traffic class. */
struct ibv_ah *probe_pair_ah(struct prober *pr, struct probe_port *pp, const uint8_t gid[16])
{
	struct ibv_ah_attr a;

	memset(&a, 0, sizeof(a));
	a.is_global = 1;
	memcpy(a.grh.dgid.raw, gid, 16);
	a.grh.sgid_index = (uint8_t)pp->gid_index;
	a.grh.hop_limit = 64;
	a.grh.traffic_class = (uint8_t)pp->tclass;
	a.sl = (uint8_t)pr->cfg.sl;
	a.port_num = (uint8_t)pp->port;
	return ibv_create_ah(pp->pd, &a);
}
