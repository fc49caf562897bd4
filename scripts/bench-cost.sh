# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-cost.sh - make bench's "cost" stage, sourced by scripts/bench.sh (it
# uses the helpers there: cpu_ns, now_ns, free_port, need, OUT, REPO, B);
# Documentation/performance.rst "What fabteld costs in all": fabteld's total
# CPU and RSS against node_exporter's, as a fleet runs them, on fixture
# trees of 2, 16 and 64 mlx5-like ports (scripts/bench-fixture.sh, with
# fabtel.ko snapshots).
#
# Three daemons at once on one tree, each scraped every BENCH_COST_SCRAPE_S
# (15) seconds by the stage, over a window of BENCH_COST_SECONDS (45):
#   fabteld, plain sysfs   --set fabtel_ko=off (its files kept open:
#                          keep_files=on, as sysfs files are on a real host)
#   fabteld, fabtel.ko     the snapshot files (keep_files=on)
#   node_exporter          infiniband + netclass collectors
# CPU: the processes' threads' on-CPU time (schedstat) over the window, the
# scrapes included, per second of wall time.  fabteld's cost per port per
# sample: its port source's fabtel_collector_cpu_seconds_total over its
# fabtel_samples_total and the ports.  RSS: VmRSS at the window's end.  Each
# set runs BENCH_COST_RUNS (3) times with fresh daemons; results get one
# line per run, the summary min / median / max.  BENCH_COST_FABTELD_ARGS:
# more options for both fabtelds (e.g. "--set interval_ms=2000": what an
# operator's longer sampling period costs).

# BENCH_COST_MOVING: the hw_counters that move each second on every port of
# the plain-sysfs tree (written in place by mover, as a sysfs attribute shows
# a new value); default the four congestion counters of a busy RoCE fabric
# (CNPs, ECN marks), the error counters still, as on a healthy one.  Empty:
# nothing moves (the best case of fabteld's quiet counters, source_sysfs.c).
MOVING_DEFAULT="np_cnp_sent rp_cnp_handled rp_cnp_ignored np_ecn_marked_roce_packets"
mover() { # dir ports
	local v=1000 i c
	local -a mv
	read -r -a mv <<<"${BENCH_COST_MOVING-$MOVING_DEFAULT}"
	((${#mv[@]})) || exec sleep infinity
	while :; do
		v=$((v + 7))
		for ((i = 0; i < $2; i++)); do
			for c in "${mv[@]}"; do
				echo $((v + i)) >"$1/sys/class/infiniband/mlx5_$i/ports/1/hw_counters/$c"
			done
		done
		sleep 1
	done
}

rss_kib() { awk '$1 == "VmRSS:" { print $2 }' /proc/"$1"/status; }
# a fabteld's port-source CPU seconds and samples: "cpu samples"
fab_pass() {
	curl -sf "127.0.0.1:$1/metrics" | awk -v src="$2" '
		$1 == "fabtel_collector_cpu_seconds_total{source=\"" src "\"}" { c = $2 }
		$1 == "fabtel_samples_total" { s = $2 }
		END { printf "%s %s\n", c + 0, s + 0 }'
}

# one run on the tree at $1 with $2 ports: "mode cpu_ms_per_s rss_kib us_per_port_sample"
cost_run() {
	local dir=$1 n=$2 m t0 t1 i
	local -A pid port c0 c1 p0 p1
	local -a extra
	read -r -a extra <<<"${BENCH_COST_FABTELD_ARGS:-}"
	mover "$dir" "$n" &
	pid[mover]=$!
	port[sysfs]=$(free_port) port[ko]=$(free_port) port[node_exporter]=$(free_port)
	"$B/fabteld" --bpf off --set "sysfs_root=$dir" --set keep_files=on --set fabtel_ko=off \
		--set probe=off "${extra[@]}" --listen "127.0.0.1:${port[sysfs]}" >"$OUT/cost-sysfs-$n.log" 2>&1 &
	pid[sysfs]=$!
	"$B/fabteld" --bpf off --set "sysfs_root=$dir/ko" --set keep_files=on \
		--set probe=off "${extra[@]}" --listen "127.0.0.1:${port[ko]}" >"$OUT/cost-ko-$n.log" 2>&1 &
	pid[ko]=$!
	prometheus-node-exporter --path.sysfs="$dir/sys" --collector.disable-defaults \
		--collector.infiniband --collector.netclass \
		--web.listen-address="127.0.0.1:${port[node_exporter]}" >"$OUT/cost-ne-$n.log" 2>&1 &
	pid[node_exporter]=$!
	for _ in $(seq 100); do
		curl -sf -o /dev/null "127.0.0.1:${port[sysfs]}/metrics" &&
			curl -sf -o /dev/null "127.0.0.1:${port[ko]}/metrics" &&
			curl -sf -o /dev/null "127.0.0.1:${port[node_exporter]}/metrics" && break
		sleep 0.1
	done
	sleep 5		# past the first samples (plans made, files opened)
	for m in sysfs ko node_exporter; do c0[$m]=$(cpu_ns "${pid[$m]}"); done
	read -r p0[sysfs] <<<"$(fab_pass "${port[sysfs]}" sysfs)"
	read -r p0[ko] <<<"$(fab_pass "${port[ko]}" fabtel_ko)"
	t0=$(now_ns)
	for ((i = 0; i < W; i += EVERY)); do
		for m in sysfs ko node_exporter; do
			curl -sf -o /dev/null "127.0.0.1:${port[$m]}/metrics"
		done
		sleep "$EVERY"
	done
	t1=$(now_ns)
	for m in sysfs ko node_exporter; do c1[$m]=$(cpu_ns "${pid[$m]}"); done
	read -r p1[sysfs] <<<"$(fab_pass "${port[sysfs]}" sysfs)"
	read -r p1[ko] <<<"$(fab_pass "${port[ko]}" fabtel_ko)"
	for m in sysfs ko node_exporter; do
		awk -v m="$m" -v c=$((c1[$m] - c0[$m])) -v w=$((t1 - t0)) -v r="$(rss_kib "${pid[$m]}")" \
			-v a="${p0[$m]:-}" -v b="${p1[$m]:-}" -v n="$n" 'BEGIN {
			split(a, x, " "); split(b, y, " ")
			us = (y[2] > x[2]) ? (y[1] - x[1]) / (y[2] - x[2]) / n * 1e6 : -1
			printf "%s %.3f %d %.1f\n", m, c / w * 1e3, r, us }'
	done
	kill "${pid[@]}"
	wait "${pid[@]}" 2>/dev/null
}

cost_stage() {
	local W=${BENCH_COST_SECONDS:-45} EVERY=${BENCH_COST_SCRAPE_S:-15} RUNS=${BENCH_COST_RUNS:-3}
	local -a SETS
	local n dir r
	read -r -a SETS <<<"${BENCH_COST_PORTS:-2 16 64}"
	need prometheus-node-exporter prometheus-node-exporter
	# the trees on tmpfs where there is one: sysfs lives in memory, and this
	# machine's page cache is trimmed hard (a tree on disk was read from
	# the disk again now and then, node_exporter's and fabteld's alike)
	local base=$OUT
	[[ -d /dev/shm && -w /dev/shm ]] && base=/dev/shm/fabtel-bench-$$
	for n in "${SETS[@]}"; do
		dir=$base/cost-fixture-$n
		"$REPO/scripts/bench-fixture.sh" "$dir" "$n" >/dev/null
		"$REPO/scripts/bench-fixture.sh" "$dir/ko" "$n" ko >/dev/null
		for ((r = 1; r <= RUNS; r++)); do
			cost_run "$dir" "$n" | while read -r m cpu rss us; do
				echo "cost $n $m cpu_ms_per_s $r $cpu"
				echo "cost $n $m rss_kib $r $rss"
				[[ $m != node_exporter ]] && echo "cost $n $m us_per_port_sample $r $us"
			done
		done
	done | tee -a "$OUT/results" >"$OUT/cost.raw"
	[[ $base == "$OUT" ]] || rm -rf "$base"

	echo "bench: cost: fixture trees, each daemon scraped every $EVERY s, $W s windows, $RUNS runs (min / median / max)${BENCH_COST_FABTELD_ARGS:+; fabteld $BENCH_COST_FABTELD_ARGS}"
	echo "bench: cost: moving each second on every port: ${BENCH_COST_MOVING-$MOVING_DEFAULT}"
	printf '%5s  %-14s %-22s %-22s %-22s\n' ports daemon "CPU ms/s" "RSS KiB" "µs/port/sample"
	awk '{ k = $2 " " $3; v[k, $4, ++c[k, $4]] = $6; if (!(k in seen)) { seen[k] = 1; ord[++no] = k } }
		function mmm(k, m,   i, j, t, a, nn) {
			nn = c[k, m]; if (!nn) return "-"
			for (i = 1; i <= nn; i++) a[i] = v[k, m, i]
			for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return a[1] " / " a[int((nn + 1) / 2)] " / " a[nn] }
		END { for (i = 1; i <= no; i++) { split(ord[i], p, " ")
			printf "%5s  %-14s %-22s %-22s %-22s\n", p[1], p[2], mmm(ord[i], "cpu_ms_per_s"),
				mmm(ord[i], "rss_kib"), mmm(ord[i], "us_per_port_sample") } }' "$OUT/cost.raw" |
		tee "$OUT/cost.txt"
}
