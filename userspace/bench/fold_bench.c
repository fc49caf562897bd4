// SPDX-License-Identifier: GPL-2.0
/*
 * fold_bench - the collector's folds of one pass (fold_ports, fold_qps,
 * fold_jobs) timed on this host over readings made here: N RoCE ports and
 * Q QPs of 8 Slurm jobs, the QPs spread over the ports round robin, the
 * same readings each pass.  The part of a pass that grows with the QPs
 * once they are read (RDMA netlink's listing and the BPF maps' reads are
 * not in it).  make bench stage "folds" (scripts/bench.sh).
 *
 *   fold_bench PORTS QPS PASSES  ->  "PORTS QPS us_per_pass"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fold.h"

#define JOBS	8

static struct model m;
static struct raw r;

static void readings(unsigned int ports, unsigned int qps)
{
	unsigned int i;

	memset(&m, 0, sizeof(m));
	collect_opts_default(&m.opts);
	m.ports_ko = -1;
	for (i = 0; i < ports; i++) {
		struct raw_port *p = &r.ports[i];

		snprintf(p->device, sizeof(p->device), "mlx5_%u", i);
		p->port = 1;
		snprintf(p->state, sizeof(p->state), "ACTIVE");
		p->carrier = 1;
	}
	r.nr_ports = ports;
	for (i = 0; i < qps; i++) {
		struct raw_qp *q = &r.qps[i];

		q->nl = (struct rdmanl_qp){ .dev_index = i % ports + 1, .port = 1, .type = 2,
					    .qpn = 100 + i / ports, .pid = 4242 + i % JOBS,
					    .rqpn = 18, .state = 3, .has_state = true };
		snprintf(q->nl.dev_name, sizeof(q->nl.dev_name), "mlx5_%u", i % ports);
		snprintf(q->comm, sizeof(q->comm), "python3");
		q->has_job = true;
		q->job.kind = JOB_SLURM;
		snprintf(q->job.id, sizeof(q->job.id), "%u", 8001 + i % JOBS);
	}
	r.nr_qps = qps;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * NS_PER_S + (uint64_t)t.tv_nsec;
}

static void pass(uint64_t s)
{
	static struct fold f = { .sock = -1 };
	uint64_t now = (1790000000 + s) * NS_PER_S;

	r.ports_mono = s * NS_PER_S;
	fold_prev_take(&m, &f.prev);
	fold_ports(&f, &m, &r, now);
	fold_qps(&m, &r, now);
	fold_jobs(&m, now, &f.prev);
	m.samples++;
}

int main(int argc, char **argv)
{
	unsigned int ports, qps, passes, i;
	uint64_t t0;

	if (argc != 4 || (ports = (unsigned int)atoi(argv[1])) < 1 || ports > MODEL_MAX_PORTS ||
	    (qps = (unsigned int)atoi(argv[2])) > MODEL_MAX_QPS ||
	    (passes = (unsigned int)atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: fold_bench PORTS(1..%d) QPS(0..%d) PASSES\n",
			MODEL_MAX_PORTS, MODEL_MAX_QPS);
		return 2;
	}
	readings(ports, qps);
	for (i = 1; i <= 10; i++)	/* the model made, the jobs found */
		pass(i);
	t0 = mono_ns();
	for (i = 0; i < passes; i++)
		pass(11 + i);
	printf("%u %u %.1f\n", ports, qps, (double)(mono_ns() - t0) / passes / 1e3);
	return 0;
}
