// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_bench - what a kernel log record costs fabteld's driver messages
 * (lib/kmsg.c's parse and collector/kmsg_match.c's table) on this host,
 * for three kinds of record: an mlx5 line a pattern matches (a command
 * timeout, the flood of lab_qp_counters), an mlx5 line none does (the
 * firmware's refusals, left out on purpose), and a line of no driver the
 * table knows.  make bench stage "kmsg" (scripts/bench.sh).
 *
 *   kmsg_bench RECORDS  ->  "KIND ns_per_record" lines
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmsg_match.h"

static const struct {
	const char *kind, *rec;
} kinds[] = {
	{ "mlx5_matched", "4,9001,100,-;mlx5_core 0000:03:00.0: wait_func:1186:(pid 4711): "
	  "MODIFY_CQ(0x403) timeout. Will cause a leak of a command resource\n"
	  " SUBSYSTEM=pci\n DEVICE=+pci:0000:03:00.0\n" },
	{ "mlx5_unmatched", "6,9002,100,-;mlx5_core 0000:03:00.0: mlx5_cmd_out_err:815:(pid 4711): "
	  "CREATE_QP(0x500) op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x2d8a35), "
	  "err(-22)\n SUBSYSTEM=pci\n DEVICE=+pci:0000:03:00.0\n" },
	{ "other", "6,9003,100,-;EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. "
	  "Quota mode: none.\n" },
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000, i;
	static struct kmsg_matcher mt;
	char buf[KMSG_RECORD_MAX];
	struct kmsg_hit h[2];
	struct kmsg_rec r;
	unsigned int k, hits;
	size_t len;
	double t0;

	if (!n || kmsg_matcher_init(&mt))
		return 1;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		len = strlen(kinds[k].rec);
		hits = 0;
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			memcpy(buf, kinds[k].rec, len);	/* the parse ends lines in place */
			if (kmsg_parse(buf, len, &r))
				return 1;
			hits += kmsg_match(&mt, &r, h);
		}
		printf("%s %.0f %u\n", kinds[k].kind, (now_ns() - t0) / (double)n, hits ? 1 : 0);
	}
	kmsg_matcher_free(&mt);
	return 0;
}
