// SPDX-License-Identifier: GPL-2.0
/*
 * probe_port.c - a port's prober QP made and destroyed (prober.h), by the
 * prober thread with the prober lock dropped: on a real NIC each step is a
 * firmware command, and the HTTP thread and the collector must not wait
 * on them.  pp->busy keeps the slot the port's meanwhile.
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

static int pick_gid(struct probe_port *pp, char *why, size_t len)
{
	int err = probe_roce_gid(pp->ctx, pp->port, &pp->gid_index, pp->gid);

	if (err == -ENOENT)
		snprintf(why, len, "no RoCE v2 GID on the port");
	else if (err)
		snprintf(why, len, "ibv_query_gid_table: %s", strerror(-err));
	return err ? -1 : 0;
}

/* a UD QP on the port's PD and CQ, ready to send; NULL on failure */
static struct ibv_qp *ud_qp(struct prober *pr, struct probe_port *pp, unsigned int recv)
{
	struct ibv_qp_init_attr qa;
	struct ibv_qp *qp;
	int e;

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = pp->cq;
	qa.recv_cq = pp->cq;
	qa.qp_type = IBV_QPT_UD;
	qa.cap.max_send_wr = PROBE_SEND_SLOTS;
	qa.cap.max_recv_wr = recv;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pp->pd, &qa);
	if (qp && probe_ud_ready(qp, pp->port, pr->cfg.qkey)) {
		e = errno;
		ibv_destroy_qp(qp);
		errno = e;
		return NULL;
	}
	return qp;
}

/*
 * The PD, CQ, buffers and QPs: one QP, or in qp mode one per flow (each
 * its own UDP source port on rxe), sharing the CQ and the registered
 * buffers; a flow QP takes only the replies to its probes, so it has
 * PROBE_FLOW_RECV_SLOTS receive buffers, not PROBE_RECV_SLOTS.
 */
static int make_qp(struct prober *pr, struct probe_port *pp)
{
	unsigned int nq = pp->flow_label ? 1 : pp->nr_flows, q;
	size_t len;

	pp->recv_slots = PROBE_RECV_SLOTS + (nq - 1) * PROBE_FLOW_RECV_SLOTS;
	len = (size_t)(pp->recv_slots + PROBE_SEND_SLOTS) * PROBE_SLOT_LEN;
	pp->pd = ibv_alloc_pd(pp->ctx);
	pp->ch = pp->pd ? ibv_create_comp_channel(pp->ctx) : NULL;
	pp->cq = pp->ch ? ibv_create_cq(pp->ctx, (int)(pp->recv_slots + PROBE_SEND_SLOTS + 8),
					NULL, pp->ch, 0) : NULL;
	pp->buf = pp->cq ? calloc(1, len) : NULL;
	pp->mr = pp->buf ? ibv_reg_mr(pp->pd, pp->buf, len, IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!pp->mr)
		return -1;
	for (q = 0; q < nq; q++) {
		pp->fqp[q] = ud_qp(pr, pp, q ? PROBE_FLOW_RECV_SLOTS : PROBE_RECV_SLOTS);
		if (!pp->fqp[q])
			return -1;
		pp->fqpn[q] = pp->fqp[q]->qp_num;
		pp->nr_qp = q + 1;
	}
	pp->qp = pp->fqp[0];
	pp->qpn = pp->fqpn[0];
	return 0;
}

/* every verbs object of the port destroyed, the handles first (the PD's) */
static void verbs_free(struct prober *pr, struct probe_port *pp, struct ibv_ah **ahs,
		       unsigned int nr_ah)
{
	unsigned int i;

	for (i = 0; i < nr_ah; i++)
		ibv_destroy_ah(ahs[i]);
	if (pp->ch)
		epoll_ctl(pr->epfd, EPOLL_CTL_DEL, pp->ch->fd, NULL);
	for (i = 0; i < pp->nr_qp; i++)
		ibv_destroy_qp(pp->fqp[i]);
	memset(pp->fqp, 0, sizeof(pp->fqp));
	memset(pp->fqpn, 0, sizeof(pp->fqpn));
	pp->nr_qp = 0;
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
}

/*
 * Called with the lock dropped and pp->busy set: nothing else touches the
 * port's verbs objects, and none of the fields the renderers read changes
 * until the caller takes the lock and publishes the port as up.
 */
int probe_port_open(struct prober *pr, struct probe_port *pp, char *why, size_t len)
{
	struct ibv_port_attr pa;
	struct epoll_event ev;
	unsigned int i;

	why[0] = '\0';
	pp->ctx = probe_open_device(pp->device);
	if (!pp->ctx) {
		snprintf(why, len, "cannot open %s through libibverbs", pp->device);
		goto free_verbs;
	}
	if (ibv_query_port(pp->ctx, (uint8_t)pp->port, &pa) ||
	    pa.link_layer != IBV_LINK_LAYER_ETHERNET) {
		snprintf(why, len, "not an Ethernet (RoCE) port");
		goto free_verbs;
	}
	if (pick_gid(pp, why, len))
		goto free_verbs;
	if (make_qp(pr, pp)) {
		snprintf(why, len, "cannot make the UD QP%s: %s", pp->nr_qp ? " of a flow" : "",
			 strerror(errno));
		goto free_verbs;
	}
	for (i = 0; i < pp->recv_slots; i++)
		if (probe_post_recv(pp, i))
			goto free_verbs;
	if (fcntl(pp->ch->fd, F_SETFL, fcntl(pp->ch->fd, F_GETFL) | O_NONBLOCK) ||
	    ibv_req_notify_cq(pp->cq, 0))
		goto free_verbs;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u32 = (uint32_t)(pp - pr->ports);
	if (epoll_ctl(pr->epfd, EPOLL_CTL_ADD, pp->ch->fd, &ev))
		goto free_verbs;
	if (getrandom(&pp->session, sizeof(pp->session), 0) != sizeof(pp->session))
		pp->session = (uint32_t)(uintptr_t)pp ^ pp->qpn;
	pp->send_free = PROBE_SEND_SLOTS;
	pp->send_next = 0;
	pp->rx_err_run = 0;
	return 0;
free_verbs:
	if (!why[0])
		snprintf(why, len, "verbs setup failed: %s", strerror(errno));
	verbs_free(pr, pp, NULL, 0);
	pp->qpn = 0;
	return -1;
}

void probe_port_close(struct prober *pr, struct probe_port *pp)
{
	struct ibv_ah *ahs[PROBE_AH_SLOTS];
	unsigned int nr_ah;

	if (!pp->up && !pp->ctx)
		return;
	pp->up = false;
	pp->qpn = 0;
	pp->busy = true;	/* the slot stays this port's (prober_sync) */
	/* a resolver may be making a handle on this port's PD */
	while (pp->ah_making)
		pthread_cond_wait(&pr->ah_cond, &pr->lock);
	nr_ah = probe_ah_take_all(pr, pp, ahs);
	pthread_mutex_unlock(&pr->lock);
	verbs_free(pr, pp, ahs, nr_ah);
	pthread_mutex_lock(&pr->lock);
	pp->busy = false;
}
