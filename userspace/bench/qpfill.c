// SPDX-License-Identifier: GPL-2.0
/*
 * qpfill - make bench's helper: create N RC QPs on an RDMA device and hold
 * them until a signal (or --hold seconds), so fabteld and the qp BPF
 * program have a full table to work on.  The QPs stay in RESET: they are
 * listed by RDMA netlink and owned by this process, and move no traffic.
 *
 *   qpfill [--dev NAME] [--hold SECONDS] N
 *
 * Prints "qpfill: N QPs on DEV (pid P)" once they exist.  Exit 0, or 1 with
 * the reason (a QP it could not create says which and why).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv)
{
	const char *want = NULL;
	long n = -1, hold = 0, i;
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp **qps;
	int nr = 0, d, a, rc = 1;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--dev") && a + 1 < argc)
			want = argv[++a];
		else if (!strcmp(argv[a], "--hold") && a + 1 < argc)
			hold = number(argv[++a], 1, 86400, "--hold");
		else if (argv[a][0] != '-' && n < 0)
			n = number(argv[a], 1, 65536, "N");
		else
			n = -2;
	}
	if (n < 0) {
		fprintf(stderr, "usage: qpfill [--dev NAME] [--hold SECONDS] N\n");
		return 1;
	}
	list = ibv_get_device_list(&nr);
	if (!list || !nr) {
		fprintf(stderr, "qpfill: no RDMA device\n");
		return 1;
	}
	for (d = 0; d < nr && !ctx; d++)
		if (!want || !strcmp(ibv_get_device_name(list[d]), want))
			ctx = ibv_open_device(list[d]);
	if (!ctx) {
		fprintf(stderr, "qpfill: cannot open %s\n", want ? want : "any device");
		goto out_list;
	}
	pd = ibv_alloc_pd(ctx);
	cq = pd ? ibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
	qps = calloc((size_t)n, sizeof(*qps));
	if (!pd || !cq || !qps) {
		fprintf(stderr, "qpfill: PD/CQ: %s\n", strerror(errno));
		goto out_cq;
	}
	for (i = 0; i < n; i++) {
		struct ibv_qp_init_attr attr = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 1, .max_recv_wr = 1,
				 .max_send_sge = 1, .max_recv_sge = 1 },
		};

		qps[i] = ibv_create_qp(pd, &attr);
		if (!qps[i]) {
			fprintf(stderr, "qpfill: QP %ld of %ld: %s\n", i + 1, n, strerror(errno));
			goto out_qps;
		}
	}
	printf("qpfill: %ld QPs on %s (pid %d)\n", n, ibv_get_device_name(ctx->device),
	       (int)getpid());
	fflush(stdout);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (hold)
		alarm((unsigned int)hold);
	signal(SIGALRM, on_signal);
	while (!stop)
		pause();
	rc = 0;
out_qps:
	for (i = 0; i < n && qps[i]; i++)
		ibv_destroy_qp(qps[i]);
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
