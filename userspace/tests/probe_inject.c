// SPDX-License-Identifier: GPL-2.0
/*
 * probe-inject - send datagrams at a prober's UD QP from a QP that is no
 * peer of it, for the lab's bad-input checks (selftests/lab_probes.sh):
 *
 *   probe-inject -d DEV -g GID -q QPN [-k QKEY] [-n N] [-s SGID] MODE
 *
 * MODE: malformed (a probe's size, a wrong magic), short (20 bytes),
 * reply (a well-formed reply to a probe never sent: unknown peer), request
 * (well-formed requests, sent as fast as the send queue allows).  -s sends
 * from another of the port's GIDs than its first RoCE v2 one (an address
 * the lab added to spoof a requester).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "prober.h"

static int usage(void)
{
	fprintf(stderr, "usage: probe-inject -d DEV -g GID -q QPN [-k QKEY] [-n N] [-s SGID] malformed|short|reply|request\n");
	return 64;
}

struct ud {
	struct ibv_context *c;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct ibv_ah *ah;
	uint8_t buf[PROBE_PKT_LEN];
};

/* the index of the port's GID sgid (text), or -1 */
static int gid_index_of(struct ibv_context *c, const char *sgid)
{
	struct ibv_gid_entry e[64];
	uint8_t want[16];
	ssize_t n, i;

	if (inet_pton(AF_INET6, sgid, want) != 1)
		return -1;
	n = ibv_query_gid_table(c, e, 64, 0);
	for (i = 0; i < n; i++)
		if (e[i].port_num == 1 && e[i].gid_type == IBV_GID_TYPE_ROCE_V2 &&
		    !memcmp(e[i].gid.raw, want, 16))
			return (int)e[i].gid_index;
	return -1;
}

/* a UD QP on port 1 of dev and an address handle to gid: 0, or -1 (said why) */
static int ud_open(struct ud *u, const char *dev, const char *gid, unsigned int qkey,
		   const char *sgid_want)
{
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_UD,
				       .cap = { .max_send_wr = 64, .max_send_sge = 1 } };
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1 };
	uint8_t sgid[16];
	int idx;

	if (inet_pton(AF_INET6, gid, aa.grh.dgid.raw) != 1)
		return -1;
	u->c = probe_open_device(dev);
	u->pd = u->c ? ibv_alloc_pd(u->c) : NULL;
	u->cq = u->pd ? ibv_create_cq(u->c, 128, NULL, NULL, 0) : NULL;
	qa.send_cq = qa.recv_cq = u->cq;
	u->qp = u->cq ? ibv_create_qp(u->pd, &qa) : NULL;
	u->mr = u->qp ? ibv_reg_mr(u->pd, u->buf, sizeof(u->buf), 0) : NULL;
	if (!u->mr || probe_roce_gid(u->c, 1, &idx, sgid) || probe_ud_ready(u->qp, 1, qkey)) {
		perror("probe-inject: verbs setup");
		return -1;
	}
	if (sgid_want && (idx = gid_index_of(u->c, sgid_want)) < 0) {
		fprintf(stderr, "probe-inject: no RoCE v2 GID %s on %s port 1\n", sgid_want, dev);
		return -1;
	}
	aa.grh.sgid_index = (uint8_t)idx;
	aa.grh.hop_limit = 64;
	u->ah = ibv_create_ah(u->pd, &aa);
	if (!u->ah)
		perror("probe-inject: ibv_create_ah");
	return u->ah ? 0 : -1;
}

/* n datagrams of mode to qpn; how many were posted */
static unsigned int send_all(struct ud *u, const char *mode, unsigned int qpn, unsigned int qkey,
			     unsigned int n)
{
	struct probe_pkt p = { .type = strcmp(mode, "request") ? PROBE_REPLY : PROBE_REQUEST,
			       .qpn = u->qp->qp_num };
	struct ibv_wc wc[16];
	unsigned int i, done = 0;
	int o, inflight = 0;

	for (i = 0; i < n; i++) {
		struct ibv_sge sge = { (uintptr_t)u->buf, PROBE_PKT_LEN, u->mr->lkey };
		struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED }, *bad;

		p.seq = i;
		p.session = 0x5eed0000 + i;
		p.t_sent = 1000 + i;
		probe_pkt_encode(&p, u->buf);
		if (!strcmp(mode, "malformed"))
			u->buf[0] = 'X';
		else if (!strcmp(mode, "short"))
			sge.length = 20;
		wr.wr.ud.ah = u->ah;
		wr.wr.ud.remote_qpn = qpn;
		wr.wr.ud.remote_qkey = qkey;
		while (inflight >= 32) {
			o = ibv_poll_cq(u->cq, 16, wc);
			inflight -= o > 0 ? o : 0;
		}
		if (ibv_post_send(u->qp, &wr, &bad)) {
			perror("probe-inject: ibv_post_send");
			break;
		}
		inflight++;
		done++;
	}
	while (inflight > 0) {
		o = ibv_poll_cq(u->cq, 16, wc);
		inflight -= o > 0 ? o : 0;
	}
	return done;
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *gid = NULL, *sgid = NULL, *mode;
	unsigned int qpn = 0, qkey = 0x0fab7e11, n = 10, done;
	static struct ud u;
	int o;

	while ((o = getopt(argc, argv, "d:g:q:k:n:s:")) != -1) {
		switch (o) {
		case 'd': dev = optarg; break;
		case 'g': gid = optarg; break;
		case 'q': qpn = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'k': qkey = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'n': n = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 's': sgid = optarg; break;
		default: return usage();
		}
	}
	if (!dev || !gid || !qpn || optind != argc - 1)
		return usage();
	mode = argv[optind];
	if (strcmp(mode, "malformed") && strcmp(mode, "short") && strcmp(mode, "reply") &&
	    strcmp(mode, "request"))
		return usage();
	if (ud_open(&u, dev, gid, qkey, sgid))
		return 1;
	done = send_all(&u, mode, qpn, qkey, n);
	printf("sent %u %s\n", done, mode);
	ibv_destroy_ah(u.ah);
	ibv_destroy_qp(u.qp);
	ibv_dereg_mr(u.mr);
	ibv_destroy_cq(u.cq);
	ibv_dealloc_pd(u.pd);
	ibv_close_device(u.c);
	return done == n ? 0 : 1;
}
