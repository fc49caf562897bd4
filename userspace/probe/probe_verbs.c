// SPDX-License-Identifier: GPL-2.0
/*
 * probe_verbs.c - the verbs a prober's UD QP is made and used with
 * (prober.h): the device, the port's RoCE v2 GID, the QP's states,
 * receive buffers, a datagram sent.  probe-inject (the lab's bad-input
 * sender) uses the first three too.
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

unsigned int probe_slot_qp(unsigned int slot)
{
	return slot < PROBE_RECV_SLOTS ? 0 :
	       1 + (slot - PROBE_RECV_SLOTS) / PROBE_FLOW_RECV_SLOTS;
}

/* the slot is the wr_id: it names the buffer and, by its range, the QP */
int probe_post_recv(struct probe_port *pp, unsigned int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(pp->buf + (size_t)slot * PROBE_SLOT_LEN),
		.length = PROBE_SLOT_LEN,
		.lkey = pp->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(pp->fqp[probe_slot_qp(slot)], &wr, &bad);
}

/*
 * wr_id: recv_slots + the send slot, so completions tell them apart; the
 * send buffers are the port's, shared by its QPs
 */
int probe_send(struct probe_port *pp, unsigned int q, struct ibv_ah *ah, uint32_t qpn,
	       uint32_t qkey, const struct probe_pkt *pkt)
{
	unsigned int slot = pp->recv_slots + pp->send_next;
	uint8_t *b = pp->buf + (size_t)slot * PROBE_SLOT_LEN;
	struct ibv_sge sge = { .addr = (uintptr_t)b, .length = PROBE_PKT_LEN, .lkey = pp->mr->lkey };
	struct ibv_send_wr wr, *bad;

	if (!pp->send_free || q >= pp->nr_qp)
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
	if (ibv_post_send(pp->fqp[q], &wr, &bad))
		return -1;
	pp->send_free--;
	pp->send_next = (pp->send_next + 1) % PROBE_SEND_SLOTS;
	return 0;
}
