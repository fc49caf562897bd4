// SPDX-License-Identifier: GPL-2.0
/*
 * qpfill - make bench's helper: create N RC QPs on an RDMA device and hold
 * them until a signal (or --hold seconds), so fabteld and the qp BPF
 * program have a full table to work on.  By default the QPs stay in RESET:
 * they are listed by RDMA netlink and owned by this process, and move no
 * traffic.
 *
 *   qpfill [--dev NAME] [--hold SECONDS] N
 *   qpfill [--dev NAME] [--hold SECONDS] --me FILE --peer FILE
 *          [--gid-index I] [--rate WRITES_PER_S] N
 *
 * With --me/--peer two qpfills (one per host, each N QPs) connect QP i to
 * QP i of the other: each writes its GID, a 64-byte buffer's address and
 * rkey and its QP numbers to its --me file (the lab's shared folder
 * carries it), waits up to 300 s for the --peer file, and moves every QP
 * to RTS, then says so in FILE.ready.  --rate waits for the peer's .ready,
 * then posts that many 64-byte RDMA WRITEs a second, round
 * robin over the QPs (one outstanding per QP), so each QP moves packets on
 * the wire both ways (requests out, ACKs in).
 *
 * Prints "qpfill: N QPs on DEV (pid P)" once they exist (and are connected).
 * At the end, with --rate: "qpfill: W writes posted, C completed, E failed".
 * Exit 0, or 1 with the reason (a QP it could not create says which and why).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long number(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "qpfill: %s wants a whole number %ld..%ld, not '%s'\n",
			what, lo, hi, s);
		exit(1);
	}
	return v;
}

#define BUF_LEN 64

struct side {
	union ibv_gid gid;
	uint64_t addr;
	uint32_t rkey;
	long n;
	uint32_t *qpn;
};

static int write_me(const char *path, const struct side *me)
{
	char tmp[4096];
	FILE *f;
	long i;
	int k;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "qpfill-peer 1 ");
	for (k = 0; k < 16; k++)
		fprintf(f, "%02x", me->gid.raw[k]);
	fprintf(f, " %" PRIu64 " %" PRIu32 " %ld\n", me->addr, me->rkey, me->n);
	for (i = 0; i < me->n; i++)
		fprintf(f, "%" PRIu32 "\n", me->qpn[i]);
	if (fclose(f) || rename(tmp, path))
		return -1;
	return 0;
}

/* Wait for the peer's file (it appears whole: written, then renamed). */
static int read_peer(const char *path, struct side *peer, long want)
{
	char hex[33];
	FILE *f = NULL;
	long i;
	int k, tries;
	unsigned int b;

	for (tries = 0; tries < 1500 && !stop && !(f = fopen(path, "r")); tries++)
		usleep(200000);
	if (!f) {
		fprintf(stderr, "qpfill: no peer file %s after 300 s\n", path);
		return -1;
	}
	if (fscanf(f, "qpfill-peer 1 %32s %" SCNu64 " %" SCNu32 " %ld", hex, &peer->addr,
		   &peer->rkey, &peer->n) != 4 || strlen(hex) != 32 || peer->n != want) {
		fprintf(stderr, "qpfill: %s: not a qpfill peer file with %ld QPs\n", path, want);
		goto out_close;
	}
	for (k = 0; k < 16; k++) {
		if (sscanf(hex + 2 * k, "%2x", &b) != 1)
			goto out_close;
		peer->gid.raw[k] = (uint8_t)b;
	}
	peer->qpn = calloc((size_t)want, sizeof(*peer->qpn));
	if (!peer->qpn)
		goto out_close;
	for (i = 0; i < want; i++)
		if (fscanf(f, "%" SCNu32, &peer->qpn[i]) != 1) {
			fprintf(stderr, "qpfill: %s: QP %ld missing\n", path, i + 1);
			goto out_free;
		}
	fclose(f);
	return 0;
out_free:
	free(peer->qpn);
	peer->qpn = NULL;
out_close:
	fclose(f);
	return -1;
}

/* Say this side's QPs are connected (FILE.ready), or wait up to 300 s for the peer's. */
static int mark_ready(const char *path)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s.ready", path);
	f = fopen(p, "w");
	return f && !fclose(f) ? 0 : -1;
}

static int wait_ready(const char *path)
{
	char p[4096];
	int tries;

	snprintf(p, sizeof(p), "%s.ready", path);
	for (tries = 0; tries < 1500 && !stop; tries++) {
		if (!access(p, F_OK))
			return 0;
		usleep(200000);
	}
	fprintf(stderr, "qpfill: the peer did not connect its QPs (no %s)\n", p);
	return -1;
}

/* RESET -> INIT -> RTR -> RTS, connected to the peer's QP number rqpn. */
static int connect_qp(struct ibv_qp *qp, const struct side *peer, uint32_t rqpn, int gidx)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = rqpn;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer->gid;
	a.ah_attr.grh.sgid_index = (uint8_t)gidx;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			  IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* --rate: 64-byte RDMA WRITEs round robin, one outstanding per QP. */
static void write_loop(struct ibv_qp **qps, long n, struct ibv_cq *cq, struct ibv_mr *mr,
		       const struct side *peer, long rate)
{
	uint64_t gap = 1000000000ull / (uint64_t)rate, next = now_ns();
	uint64_t posted = 0, done = 0, failed = 0;
	char *busy = calloc((size_t)n, 1);
	struct ibv_wc wc[64];
	long i = 0, k;
	int got, j;

	if (!busy)
		return;
	while (!stop) {
		struct ibv_sge sge = { (uintptr_t)mr->addr, BUF_LEN, mr->lkey };
		struct ibv_send_wr wr = {
			.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
		}, *bad;

		while ((got = ibv_poll_cq(cq, 64, wc)) > 0)
			for (j = 0; j < got; j++) {
				busy[wc[j].wr_id] = 0;
				if (wc[j].status == IBV_WC_SUCCESS) {
					done++;
				} else if (!failed++) {
					fprintf(stderr, "qpfill: QP %" PRIu32 ": %s\n", wc[j].qp_num,
						ibv_wc_status_str(wc[j].status));
				}
			}
		if (now_ns() < next) {
			usleep(1000);
			continue;
		}
		next += gap;
		for (k = 0; k < n && busy[i]; k++)
			i = (i + 1) % n;
		if (busy[i])
			continue;	/* every QP has a write in flight */
		wr.wr_id = (uint64_t)i;
		if (!ibv_post_send(qps[i], &wr, &bad)) {
			busy[i] = 1;
			posted++;
		} else if (!failed++) {
			fprintf(stderr, "qpfill: post on QP %" PRIu32 ": %s\n", qps[i]->qp_num,
				strerror(errno));
		}
		i = (i + 1) % n;
	}
	printf("qpfill: %" PRIu64 " writes posted, %" PRIu64 " completed, %" PRIu64 " failed\n",
	       posted, done, failed);
	free(busy);
}

struct qf_opts {
	const char *want, *me_path, *peer_path;
	long n, hold, rate;
	int gidx;
};

/* 0, or 1 having printed the usage */
static int parse_opts(int argc, char **argv, struct qf_opts *o)
{
	int a;

	*o = (struct qf_opts){ .n = -1, .gidx = 1 };
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--dev") && a + 1 < argc)
			o->want = argv[++a];
		else if (!strcmp(argv[a], "--hold") && a + 1 < argc)
			o->hold = number(argv[++a], 1, 86400, "--hold");
		else if (!strcmp(argv[a], "--me") && a + 1 < argc)
			o->me_path = argv[++a];
		else if (!strcmp(argv[a], "--peer") && a + 1 < argc)
			o->peer_path = argv[++a];
		else if (!strcmp(argv[a], "--gid-index") && a + 1 < argc)
			o->gidx = (int)number(argv[++a], 0, 255, "--gid-index");
		else if (!strcmp(argv[a], "--rate") && a + 1 < argc)
			o->rate = number(argv[++a], 1, 1000000, "--rate");
		else if (argv[a][0] != '-' && o->n < 0)
			o->n = number(argv[a], 1, 65536, "N");
		else
			o->n = -2;
	}
	if (o->n < 0 || !o->me_path != !o->peer_path || (o->rate && !o->peer_path)) {
		fprintf(stderr, "usage: qpfill [--dev NAME] [--hold SECONDS] [--me FILE --peer FILE "
			"[--gid-index I] [--rate WRITES_PER_S]] N\n");
		return 1;
	}
	return 0;
}

/* n RC QPs on pd and cq; 0, or -1 having said why (those made are in qps) */
static int create_qps(struct ibv_pd *pd, struct ibv_cq *cq, struct ibv_qp **qps, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		struct ibv_qp_init_attr attr = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 1, .max_recv_wr = 1,
				 .max_send_sge = 1, .max_recv_sge = 1 },
		};

		qps[i] = ibv_create_qp(pd, &attr);
		if (!qps[i]) {
			fprintf(stderr, "qpfill: QP %ld of %ld: %s\n", i + 1, n, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * Swap QP numbers with the peer through the two files and connect each QP
 * to its peer's; 0, or -1 having said why.
 */
static int connect_all(const struct qf_opts *o, struct ibv_context *ctx, struct ibv_qp **qps,
		       struct ibv_mr *mr, struct side *me, struct side *peer)
{
	long i;

	me->qpn = calloc((size_t)o->n, sizeof(*me->qpn));
	if (!mr || !me->qpn || ibv_query_gid(ctx, 1, o->gidx, &me->gid)) {
		fprintf(stderr, "qpfill: MR/GID %d: %s\n", o->gidx, strerror(errno));
		return -1;
	}
	me->addr = (uintptr_t)mr->addr;
	me->rkey = mr->rkey;
	me->n = o->n;
	for (i = 0; i < o->n; i++)
		me->qpn[i] = qps[i]->qp_num;
	if (write_me(o->me_path, me)) {
		fprintf(stderr, "qpfill: cannot write %s: %s\n", o->me_path, strerror(errno));
		return -1;
	}
	if (read_peer(o->peer_path, peer, o->n))
		return -1;
	for (i = 0; i < o->n; i++)
		if (connect_qp(qps[i], peer, peer->qpn[i], o->gidx)) {
			fprintf(stderr, "qpfill: connecting QP %ld of %ld: %s\n", i + 1, o->n,
				strerror(errno));
			return -1;
		}
	/* writes before the peer's QPs are in RTR would be dropped and retried */
	if (mark_ready(o->me_path) || (o->rate && wait_ready(o->peer_path))) {
		fprintf(stderr, "qpfill: cannot mark %s ready\n", o->me_path);
		return -1;
	}
	return 0;
}

static struct ibv_context *open_device(struct ibv_device **list, int nr, const char *want)
{
	struct ibv_context *ctx = NULL;
	int d;

	for (d = 0; d < nr && !ctx; d++)
		if (!want || !strcmp(ibv_get_device_name(list[d]), want))
			ctx = ibv_open_device(list[d]);
	if (!ctx)
		fprintf(stderr, "qpfill: cannot open %s\n", want ? want : "any device");
	return ctx;
}

int main(int argc, char **argv)
{
	static char buf[BUF_LEN];
	struct side me = { 0 }, peer = { 0 };
	struct ibv_context *ctx = NULL;
	struct ibv_qp **qps = NULL;
	struct ibv_mr *mr = NULL;
	struct ibv_device **list;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct qf_opts o;
	int nr = 0, rc = 1;
	long i;

	if (parse_opts(argc, argv, &o))
		return 1;
	list = ibv_get_device_list(&nr);
	if (!list || !nr) {
		fprintf(stderr, "qpfill: no RDMA device\n");
		return 1;
	}
	ctx = open_device(list, nr, o.want);
	if (!ctx)
		goto out_list;
	pd = ibv_alloc_pd(ctx);
	/* one outstanding write per QP: room for all their completions */
	cq = pd ? ibv_create_cq(ctx, (int)(o.peer_path ? o.n + 16 : 16), NULL, NULL, 0) : NULL;
	qps = calloc((size_t)o.n, sizeof(*qps));
	if (!pd || !cq || !qps) {
		fprintf(stderr, "qpfill: PD/CQ: %s\n", strerror(errno));
		goto out_cq;
	}
	if (create_qps(pd, cq, qps, o.n))
		goto out_qps;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGALRM, on_signal);
	if (o.peer_path) {
		mr = ibv_reg_mr(pd, buf, BUF_LEN, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
		if (connect_all(&o, ctx, qps, mr, &me, &peer))
			goto out_qps;
	}
	printf("qpfill: %ld QPs on %s%s (pid %d)\n", o.n, ibv_get_device_name(ctx->device),
	       o.peer_path ? ", connected" : "", (int)getpid());
	fflush(stdout);
	if (o.hold)
		alarm((unsigned int)o.hold);
	if (o.rate)
		write_loop(qps, o.n, cq, mr, &peer, o.rate);
	while (!stop)
		pause();
	rc = 0;
out_qps:
	for (i = 0; i < o.n && qps[i]; i++)
		ibv_destroy_qp(qps[i]);
	if (mr)
		ibv_dereg_mr(mr);
	free(me.qpn);
	free(peer.qpn);
out_cq:
	free(qps);
	if (cq)
		ibv_destroy_cq(cq);
	if (pd)
		ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
out_list:
	ibv_free_device_list(list);
	return rc;
}
