# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-micro.sh - make bench's "folds" and "kmsg" stages, sourced by
# scripts/bench.sh (B, OUT): fabteld's own code timed in process on this
# host, over readings made there: a pass's folds, a kernel log record's
# parse and match.

# a pass's folds (fold_ports, fold_qps, fold_jobs) over readings made on this
# host: N ports, Q QPs of 8 jobs spread over them; 3 runs of 500 passes,
# min / median / max us a pass
folds_stage() {
	local n q r
	[[ -x $B/bench/fold_bench ]] || { echo "bench: build/bench/fold_bench not built (make tests)" >&2; return 1; }
	echo "bench: folds: us a pass (3 runs of 500 passes: min / median / max)"
	echo "ports    QPs   us_per_pass"
	for n in 2 16 64; do
		for q in 0 1000 4000; do
			for r in 1 2 3; do "$B/bench/fold_bench" "$n" "$q" 500; done |
				sort -n -k3 | awk '{ v[NR] = $3; p = $1; q = $2 }
					END { printf "%5s  %5s   %s / %s / %s\n", p, q, v[1], v[2], v[3]
					      printf "folds us_per_pass_%s_%s %s\n", p, q, v[2] >>"/dev/stderr" }'
		done
	done 2>>"$OUT/results" | tee "$OUT/folds.txt"
}

# a kernel log record through the driver messages' parse and table: 3 runs
# of BENCH_KMSG_RECORDS (200,000) per kind, min / median / max ns a record
kmsg_stage() {
	local r
	[[ -x $B/bench/kmsg_bench ]] || { echo "bench: build/bench/kmsg_bench not built (make tests)" >&2; return 1; }
	echo "bench: kmsg: ns a record (3 runs: min / median / max)"
	for r in 1 2 3; do "$B/bench/kmsg_bench" "${BENCH_KMSG_RECORDS:-200000}"; done |
		sort -k1,1 -k2n | awk '{ v[$1] = v[$1] " " $2 }
			END { for (k in v) { split(v[k], a, " "); printf "%-16s %s / %s / %s\n", k, a[1], a[2], a[3]
				printf "kmsg ns_per_record_%s %s\n", k, a[2] >>"/dev/stderr" } }' \
		2>>"$OUT/results" | tee "$OUT/kmsg.txt"
}
