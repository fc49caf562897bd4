#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - make bench: fabtel's costs measured side by side (not a test;
# Documentation/performance.rst holds the results and how to read them).
#
# Host stage (this machine's kernel, no lab):
#   scrape  fabteld (sysfs mode) and Debian's prometheus-node-exporter
#           (infiniband + netclass collectors) on the same fixture sysfs
#           tree of N mlx5-like ports (scripts/bench-fixture.sh), scraped
#           alternately: CPU per scrape, wall p50/p99, syscalls per scrape
#           (strace -c), bytes per scrape; and fabteld's own sampling cost
#           per sample with nobody scraping.
#   cost    fabteld (plain sysfs and fabtel.ko snapshot modes) and
#           node_exporter side by side on fixture trees of 2, 16 and 64
#           ports, each scraped every 15 s: total CPU, RSS, fabteld's CPU per
#           port per sample; 3 runs, min / median / max
#           (scripts/bench-cost.sh).
#   wire    the wire TC program against an empty one, ns per packet per
#           packet kind (BPF_PROG_TEST_RUN, repeat; build/bpf/bench_wire).
#   folds   a collector pass's folds over readings made on this host, 2, 16
#           and 64 ports by 0, 1,000 and 4,000 QPs of 8 jobs: us a pass
#           (build/bench/fold_bench; RDMA netlink and BPF reads not in it).
#   kmsg    a kernel log record through fabteld's driver messages (parse,
#           pattern table): ns a record for an mlx5 line matched, one not,
#           a line of another driver; 3 runs (build/bench/kmsg_bench).
#
# Lab stages (the QEMU guests under TCG: timings relative only; a lab of
# its own in build/bench/lab):
#   flap    BENCH_FLAPS (50) flaps of guest a's link by QEMU `set_link`:
#           latency to fabteld's API (long poll, seen on this host) and to
#           a down line in fabtel.ko's link/history (scripts/bench-flap.py).
#   sampler fabtel.ko's sampling cost with 16 fakeroce mlx5 ports at
#           sample_ms 1000, 100 and 10: each run of its sampling work
#           timed in the guest by bpftrace (kprobe + kretprobe).
#   qps     fabteld (BPF, 1 Hz) with those 16 ports, CPU and RSS before
#           and after BENCH_QPS (1000) idle QPs are made on rxa
#           (build/bench/qpfill).
#   qps-traffic  fabteld (BPF, 1 Hz) on rxa, CPU and RSS before and after
#           BENCH_QPS (1000) QPs of a Slurm-like job (cgroup job_777) on a
#           are connected one to one to as many on b and move traffic:
#           BENCH_QPS_RATE (1000) RDMA WRITEs a second round robin, so
#           every QP has wire entries both ways.  BENCH_FABTELD picks the
#           fabteld binary (to measure an older one).
#   scale   fabteld's CPU and RSS with 2, 16 and 64 ports and 0, 1,000 and
#           4,000 QPs of 8 jobs moving traffic (scripts/bench-scale.sh).
#   lab-scrape  the scrape stage inside guest a on its real sysfs: 16
#           fakeroce mlx5 ports, the same with fabtel.ko loaded (fabteld
#           reading its snapshots), then 2 rxe ports; BENCH_LAB_ROUNDS (200),
#           BENCH_STRACE_SCRAPES (100: the scrapes under strace -c);
#           BENCH_LAB_SETS picks sets ("fakeroce16 fakeroce16files
#           fakeroce16ko rxe2": fakeroce16's hw_counters over RDMA netlink
#           (port_stats auto), fakeroce16files one file each; the last two
#           only after fakeroce16).
#   firmware  what fabtel.ko and fabteld ask of the NIC's firmware at their
#           defaults: fakeroce's command counts (debugfs fw/commands) per
#           port per second and per kind, 16 mlx5 ports, BENCH_FW_SECONDS
#           (60) per setting (scripts/bench-firmware.sh).
#   recorder the flight recorder's memory with 64 fakeroce ports, loaded and
#           with 4 records each, and what rmmod gives back (SUnreclaim +
#           VmallocUsed; scripts/bench-recorder.sh).
#   detect  fault to verdict and to action, p50/p99 (scripts/bench-detect.sh).
#   cluster fabtop's cluster view over 1,000 hosts (scripts/bench-cluster.sh).
#   probes  fabteld on a probing BENCH_PROBE_PEERS (16) answering fabtelds
#           on b at the default rate: its CPU and RSS with and without
#           probing, the prober thread's CPU per 1,000 probes.
#
#   BENCH_PORTS="2 16"  BENCH_ROUNDS=1000  scripts/bench.sh [scrape|cost|wire|folds|kmsg|flap|sampler|firmware|recorder|detect|cluster|qps|qps-traffic|scale|lab-scrape|probes]...
#   (no stage named: all of them)
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
B=$REPO/build
OUT=${BENCH_OUT:-$B/bench}
ROUNDS=${BENCH_ROUNDS:-1000}
# BENCH_REAL_SYSFS=LABEL: the scrape stage reads this machine's own /sys
# (both daemons), once, its results labelled LABEL (the lab stage uses it
# inside a guest); no fixture is made
REAL=${BENCH_REAL_SYSFS:-}
read -r -a PORTS <<<"${BENCH_PORTS:-2 16}"
STAGES=("$@")
((${#STAGES[@]})) || STAGES=(scrape cost wire folds kmsg flap sampler firmware recorder detect cluster qps qps-traffic scale lab-scrape probes)
mkdir -p "$OUT"

need() {
	command -v "$1" >/dev/null && return
	echo "bench: installing $2"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" \
		>/dev/null || { echo "bench: cannot install $2" >&2; exit 1; }
}

# the QP maker the lab stages run in guest a and b (make tests builds it; make all not)
need_qpfill() {
	[[ -x $B/bench/qpfill ]] || make -s -C "$REPO/userspace" "O=$B" "$B/bench/qpfill" ||
		{ echo "bench: build/bench/qpfill could not be built" >&2; return 1; }
}

free_port() { "$REPO/scripts/fablab" free-port; }

# CPU time of a process in ns: its threads' on-CPU time (schedstat), summed
# (threads that ended are not counted: fabteld's and node_exporter's live on)
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'; }

now_ns() { date +%s%N; }

# syscalls in an strace -c summary: the calls column, summed
strace_calls() { awk '/^-/ { body = !body; next } body && $NF != "total" { s += $4 } END { print s + 0 }' "$1"; }

pct() { # P FILE: the P-th percentile of the numbers in FILE
	sort -g "$2" | awk -v p="$1" '{ v[NR] = $1 } END {
		i = int(p / 100 * NR + 0.999999); if (i < 1) i = 1; if (i > NR) i = NR; print v[i] }'
}

# fabteld's collector CPU by source, from its /metrics: "source seconds" lines
src_cpu() {
	curl -s "127.0.0.1:$1/metrics" |
		sed -n 's/^fabtel_collector_cpu_seconds_total{source="\([^"]*\)"} \(.*\)/\1 \2/p'
}

scrape_stage() {
	local n dir fport nport fpid npid r s pid port t0 t1 w0 w1 spid
	local -A c0 c1 idle port_of pid_of
	need prometheus-node-exporter prometheus-node-exporter
	need strace strace
	local -a sets=("${PORTS[@]}") root
	[[ -n $REAL ]] && sets=("$REAL")
	for n in "${sets[@]}"; do
		if [[ -n $REAL ]]; then
			dir=
			root=()
		else
			dir=$OUT/fixture-$n
			"$REPO/scripts/bench-fixture.sh" "$dir" "$n"
			root=(--set "sysfs_root=$dir")
		fi
		fport=$(free_port)
		nport=$(free_port)
		# shellcheck disable=SC2086 # BENCH_FABTELD_ARGS: settings, split on blanks
		"$B/fabteld" --bpf off "${root[@]}" --listen "127.0.0.1:$fport" ${BENCH_FABTELD_ARGS:-} \
			>"$OUT/fabteld-$n.log" 2>&1 &
		fpid=$!
		prometheus-node-exporter --path.sysfs="${dir:-}/sys" --collector.disable-defaults \
			--collector.infiniband --collector.netclass \
			--web.listen-address="127.0.0.1:$nport" >"$OUT/node_exporter-$n.log" 2>&1 &
		npid=$!
		port_of=([fabteld]=$fport [node_exporter]=$nport)
		pid_of=([fabteld]=$fpid [node_exporter]=$npid)
		for _ in $(seq 100); do
			curl -sf "127.0.0.1:$fport/metrics" >/dev/null &&
				curl -sf "127.0.0.1:$nport/metrics" >/dev/null && break
			sleep 0.1
		done
		# what each serves on this tree
		curl -s "127.0.0.1:$fport/metrics" >"$OUT/fabteld-$n.prom"
		curl -s "127.0.0.1:$nport/metrics" >"$OUT/node_exporter-$n.prom"
		# background CPU with nobody scraping: fabteld samples each second
		# whether scraped or not; node_exporter reads only when scraped
		for s in fabteld node_exporter; do c0[$s]=$(cpu_ns "${pid_of[$s]}"); done
		src_cpu "$fport" >"$OUT/src0-$n"
		t0=$(now_ns)
		sleep 20
		t1=$(now_ns)
		src_cpu "$fport" >"$OUT/src1-$n"
		# each source's share of the sampling (fabtel_collector_cpu_seconds_total)
		awk -v n="$n" -v w=$((t1 - t0)) 'NR == FNR { a[$1] = $2; next }
			{ printf "%s src_%s_ms_per_s %.3f\n", n, $1, ($2 - a[$1]) * 1e3 / (w / 1e9) }' \
			"$OUT/src0-$n" "$OUT/src1-$n" >>"$OUT/results"
		for s in fabteld node_exporter; do
			c1[$s]=$(cpu_ns "${pid_of[$s]}")
			# ns of CPU per s of wall
			idle[$s]=$(awk -v c=$((c1[$s] - c0[$s])) -v w=$((t1 - t0)) 'BEGIN { print c / w * 1e9 }')
			echo "$n ${s}_idle_ms_per_s $(awk -v r="${idle[$s]}" 'BEGIN { printf "%.3f", r / 1e6 }')" \
				>>"$OUT/results"
		done
		# alternate: warm up, then ROUNDS scrapes of each
		for _ in $(seq 20); do
			curl -s -o /dev/null "127.0.0.1:$fport/metrics"
			curl -s -o /dev/null "127.0.0.1:$nport/metrics"
		done
		: >"$OUT/lat-fabteld-$n"
		: >"$OUT/lat-node_exporter-$n"
		for s in fabteld node_exporter; do c0[$s]=$(cpu_ns "${pid_of[$s]}"); done
		t0=$(now_ns)
		for ((r = 0; r < ROUNDS; r++)); do
			curl -s -o /dev/null -w '%{time_total}\n' "127.0.0.1:$fport/metrics" \
				>>"$OUT/lat-fabteld-$n"
			curl -s -o /dev/null -w '%{time_total}\n' "127.0.0.1:$nport/metrics" \
				>>"$OUT/lat-node_exporter-$n"
		done
		t1=$(now_ns)
		for s in fabteld node_exporter; do
			c1[$s]=$(cpu_ns "${pid_of[$s]}")
			{
				# the window's CPU less the background's, per scrape
				echo "$n ${s}_cpu_ms_per_scrape $(awk -v c=$((c1[$s] - c0[$s])) \
					-v bg="${idle[$s]}" -v w=$((t1 - t0)) -v r="$ROUNDS" \
					'BEGIN { printf "%.3f", (c - bg * w / 1e9) / r / 1e6 }')"
				echo "$n ${s}_p50_ms $(pct 50 "$OUT/lat-$s-$n" | awk '{ printf "%.3f", $1 * 1000 }')"
				echo "$n ${s}_p99_ms $(pct 99 "$OUT/lat-$s-$n" | awk '{ printf "%.3f", $1 * 1000 }')"
				echo "$n ${s}_bytes $(wc -c <"$OUT/$s-$n.prom")"
				echo "$n ${s}_samples $(grep -vc '^#' "$OUT/$s-$n.prom")"
			} >>"$OUT/results"
		done
		# syscalls: 10 s idle, then SC scrapes, under strace -c -f, each
		# daemon alone; per scrape = (busy - idle rate x busy time) / SC
		local sc=${BENCH_STRACE_SCRAPES:-100}
		for s in fabteld node_exporter; do
			pid=${pid_of[$s]} port=${port_of[$s]}
			strace -c -f -p "$pid" -o "$OUT/strace-idle-$s-$n" 2>/dev/null &
			spid=$!
			sleep 10
			kill -INT $spid
			wait $spid 2>/dev/null
			strace -c -f -p "$pid" -o "$OUT/strace-$s-$n" 2>/dev/null &
			spid=$!
			sleep 1
			w0=$(now_ns)
			for _ in $(seq "$sc"); do curl -s -o /dev/null "127.0.0.1:$port/metrics"; done
			w1=$(now_ns)
			sleep 0.2
			kill -INT $spid
			wait $spid 2>/dev/null
			echo "$n ${s}_syscalls_per_scrape $(awk \
				-v busy="$(strace_calls "$OUT/strace-$s-$n")" \
				-v idle="$(strace_calls "$OUT/strace-idle-$s-$n")" \
				-v w=$((w1 - w0)) -v sc="$sc" \
				'BEGIN { printf "%.1f", (busy - idle / 10 * (w / 1e9 + 1.2)) / sc }')" \
				>>"$OUT/results"
		done
		kill $fpid $npid
		wait $fpid $npid 2>/dev/null
	done
}

# the cost stage: cost_stage
# shellcheck source=scripts/bench-cost.sh
. "$REPO/scripts/bench-cost.sh"

wire_stage() {
	[[ -x $B/bpf/bench_wire ]] || { echo "bench: build/bpf/bench_wire not built (make)" >&2; return 1; }
	"$B/bpf/bench_wire" | tee "$OUT/wire.txt"
}

# the folds and kmsg stages: folds_stage, kmsg_stage
# shellcheck source=scripts/bench-micro.sh
. "$REPO/scripts/bench-micro.sh"

# ---- lab stages -------------------------------------------------------------
export FABLAB_DIR=$OUT/lab
FABLAB=$REPO/scripts/fablab
QB=$(printf %q "$B") QREPO=$(printf %q "$REPO")
lab_is_up=0
lab() { "$FABLAB" run "$@"; }
lab_up() {
	((lab_is_up)) && return
	echo "bench: booting the lab ($FABLAB_DIR)"
	"$FABLAB" down >/dev/null 2>&1
	"$FABLAB" up >"$OUT/fablab-up.log" 2>&1 || { cat "$OUT/fablab-up.log" >&2; exit 1; }
	lab_is_up=1
}
lab_down() { ((lab_is_up)) && "$FABLAB" down >/dev/null 2>&1; lab_is_up=0; }
trap lab_down EXIT

flap_stage() {
	local n=${BENCH_FLAPS:-50} port hist i
	lab_up
	hist=$FABLAB_DIR/a/bench-history.log
	: >"$hist"
	lab a -- "rmmod fabtel 2>/dev/null; insmod $QREPO/kmod/fabtel.ko &&
		pkill fabteld; setsid $QB/fabteld --listen 0.0.0.0:9465 >/tmp/fabteld.log 2>&1 &
		for i in \$(seq 100); do curl -sf localhost:9465/healthz >/dev/null && exit 0; sleep 0.2; done; exit 1" ||
		{ echo "bench: fabteld did not start in the lab" >&2; return 1; }
	# the poller in a: link/history's newest line, appended to $hist when it changes
	lab a -- "setsid bash $QREPO/scripts/bench-histpoll.sh /sys/kernel/fabtel/rxa/ports/1/link/history \
		$(printf %q "$hist") >/dev/null 2>&1 &"
	for ((i = 0; i < 100; i++)); do [[ -s $hist ]] && break; sleep 0.1; done
	[[ -s $hist ]] || { echo "bench: the link/history poller did not start" >&2; return 1; }
	port=$("$FABLAB" port a)
	echo "bench: flap: $n flaps of a's link (down 300 ms, 1.5 s apart)"
	python3 "$REPO/scripts/bench-flap.py" "$FABLAB_DIR" "$port" "$hist" "$OUT/results" "$n" 300 1500 |
		tee "$OUT/flap.txt"
	lab a -- 'pkill -f bench-histpoll.sh; pkill fabteld; rmmod fabtel' >/dev/null 2>&1
}

# fabtel.ko's sampling work in guest a over SECONDS, timed by bpftrace
# (kprobe/kretprobe on fabtel_sample_work, one call samples one device's
# ports): "calls total_ns"
sampler_time() {
	lab a -- "bpftrace -q -e '
		kprobe:fabtel_sample_work { @s[tid] = nsecs; }
		kretprobe:fabtel_sample_work /@s[tid]/ { @n = @n + 1; @t = @t + (nsecs - @s[tid]); delete(@s[tid]); }
		interval:s:$1 { printf(\"%d %d\\n\", @n, @t); clear(@n); clear(@t); clear(@s); exit(); }'" |
		awk 'NF == 2 && $1 ~ /^[0-9]+$/ { print; exit }'
}

sampler_stage() {
	local w=${BENCH_SAMPLER_SECONDS:-20} ms calls ns
	lab_up
	lab a -- "pkill fabteld; rmmod fabtel fakeroce 2>/dev/null; insmod $QREPO/kmod/fakeroce.ko &&
		for i in \$(seq 0 15); do echo \"\$i mlx5\" >/sys/kernel/fakeroce/new_device &&
			ip link set fre\$i up || exit 1; done" ||
		{ echo "bench: 16 fakeroce ports could not be made" >&2; return 1; }
	echo "bench: sampler: fabtel.ko with 16 fakeroce mlx5 ports + rxa, $w s per setting (bpftrace)" |
		tee "$OUT/sampler.txt"
	for ms in 1000 100 10; do
		lab a -- "insmod $QREPO/kmod/fabtel.ko sample_ms=$ms" || return 1
		sleep 2
		read -r calls ns <<<"$(sampler_time "$w")"
		lab a -- "rmmod fabtel" || return 1
		[[ -n $calls && $calls -gt 0 ]] || { echo "bench: sampler: bpftrace saw no sampling" >&2; return 1; }
		awk -v ms="$ms" -v c="$calls" -v t="$ns" -v w="$w" 'BEGIN {
			printf "  sample_ms %4d: %6.1f device samples/s (17 devices), %6.1f us each, CPU %.2f ms/s\n",
				ms, c / w, t / c / 1000, t / 1e6 / w
		}' | tee -a "$OUT/sampler.txt"
		awk -v ms="$ms" -v c="$calls" -v t="$ns" -v w="$w" 'BEGIN {
			printf "sampler samples_per_s_at_%d %.1f\n", ms, c / w
			printf "sampler us_per_sample_at_%d %.1f\n", ms, t / c / 1000
			printf "sampler cpu_ms_per_s_at_%d %.3f\n", ms, t / 1e6 / w
		}' >>"$OUT/results"
	done
	lab a -- 'for i in $(seq 0 15); do echo $i >/sys/kernel/fakeroce/del_device; done; rmmod fakeroce' \
		>/dev/null 2>&1
}

# fabteld's CPU (ms/s over SECONDS, its threads' schedstat), RSS and its
# anonymous part (KiB; the rest is file pages, mostly shared libraries) in a
fabteld_cost() {
	lab a -- "p=\$(pgrep -x fabteld | head -1); [[ -n \$p ]] || exit 1
		c() { cat /proc/\$p/task/*/schedstat | awk '{ s += \$1 } END { printf \"%.0f\", s }'; }
		x=\$(c); sleep $1; y=\$(c)
		awk -v d=\$((y - x)) -v w=$1 'BEGIN { printf \"%.2f \", d / 1e6 / w }'
		awk '/^VmRSS/ { r = \$2 } /^RssAnon/ { a = \$2 } END { print r, a }' /proc/\$p/status"
}

# the scale stage: scale_stage
# the stages of their own files: scale_stage, firmware_stage, ...
for f in scale firmware recorder detect cluster; do
	# shellcheck source=/dev/null
	. "$REPO/scripts/bench-$f.sh"
done

qps_stage() {
	local w=${BENCH_QPS_SECONDS:-30} n=${BENCH_QPS:-1000} c0 c1 seen ent
	need_qpfill || return 1
	lab_up
	lab a -- "pkill fabteld; rmmod fabtel fakeroce 2>/dev/null; insmod $QREPO/kmod/fakeroce.ko &&
		for i in \$(seq 0 15); do echo \"\$i mlx5\" >/sys/kernel/fakeroce/new_device &&
			ip link set fre\$i up || exit 1; done &&
		setsid $QB/fabteld --listen 0.0.0.0:9465 >/tmp/fabteld.log 2>&1 &
		for i in \$(seq 100); do curl -sf localhost:9465/healthz >/dev/null && exit 0; sleep 0.2; done; exit 1" ||
		{ echo "bench: 16 fakeroce ports and fabteld could not be started" >&2; return 1; }
	sleep 5
	c0=$(fabteld_cost "$w")
	lab a -- "setsid $QB/bench/qpfill --dev rxa --hold 3600 $n >/tmp/qpfill.log 2>&1 &
		for i in \$(seq 300); do grep -q QPs /tmp/qpfill.log && exit 0; sleep 0.2; done; cat /tmp/qpfill.log; exit 1" ||
		{ echo "bench: qpfill could not make $n QPs" >&2; return 1; }
	sleep 5
	seen=$(curl -sf "http://127.0.0.1:$("$FABLAB" port a)/api/v1/snapshot" |
		jq '[.qps[] | select(.comm == "qpfill")] | length')
	ent=$(lab a -- "bpftool map dump name qp_owners -j | jq length")
	c1=$(fabteld_cost "$w")
	{
		echo "bench: qps: fabteld at 1 Hz with 16 fakeroce ports + rxa, over $w s"
		echo "  QPs held by qpfill: $n; fabteld lists ${seen:-?} of them; qp_owners map entries: ${ent:-?}"
		read -r a b anon <<<"$c0"
		echo "  without them: fabteld CPU $a ms/s, RSS $b KiB"
		read -r a2 b2 anon2 <<<"$c1"
		echo "  with them:    fabteld CPU $a2 ms/s, RSS $b2 KiB"
		echo "qps cpu_ms_per_s_0 $a" >>"$OUT/results"
		echo "qps rss_kib_0 $b" >>"$OUT/results"
		echo "qps cpu_ms_per_s_$n $a2" >>"$OUT/results"
		echo "qps rss_kib_$n $b2" >>"$OUT/results"
		echo "qps map_entries $ent" >>"$OUT/results"
	} | tee "$OUT/qps.txt"
	lab a -- 'pkill qpfill; pkill fabteld; for i in $(seq 0 15); do echo $i >/sys/kernel/fakeroce/del_device; done
		rmmod fakeroce' >/dev/null 2>&1
}

# fabteld's prober on a, probing BENCH_PROBE_PEERS (16) endpoints on b at the
# default 10 probes a second (each endpoint a fabteld of its own on b that
# only answers, sampling once a minute): fabteld's CPU and RSS with probing
# and, restarted, without; the prober thread's CPU per 1,000 probes.
probes_stage() {
	local w=${BENCH_PROBES_SECONDS:-60} n=${BENCH_PROBE_PEERS:-16} i peers="" pa c0 c1 s0 s1 p0 p1
	lab_up
	# what the stage starts it stops by pid: the responders on b, fabteld on a
	lab b -- "for i in \$(seq 0 $((n - 1))); do
		$QB/fabteld -b off --listen 0.0.0.0:\$((9470 + i)) --interval-ms 60000 --set module_s=0 \
			--set probe=on --set host_name=fablab-b\$i >/tmp/responder-\$i.log 2>&1 &
		echo \$! >>/tmp/bench-responders.pid
		done; sleep 5; kill -0 \$(cat /tmp/bench-responders.pid)" ||
		{ echo "bench: the responders did not start on b" >&2; return 1; }
	for ((i = 0; i < n; i++)); do peers+=" --set probe_peer=10.77.0.2:$((9470 + i))"; done
	start_a() {
		lab a -- "if [[ -f /tmp/bench-probes.pid ]]; then p=\$(cat /tmp/bench-probes.pid); kill \$p
				while kill -0 \$p 2>/dev/null; do sleep 0.1; done; fi
			$QB/fabteld -b off --listen 0.0.0.0:9465 $1 >/tmp/fabteld.log 2>&1 & echo \$! >/tmp/bench-probes.pid
			for i in \$(seq 100); do curl -sf localhost:9465/healthz >/dev/null && exit 0; sleep 0.2; done; exit 1"
	}
	# BENCH_PROBE_SET: settings for the probing fabteld (e.g. --set probe_flows=1)
	start_a "$peers ${BENCH_PROBE_SET:-}" || { echo "bench: fabteld did not start on a" >&2; return 1; }
	pa=$("$FABLAB" port a)
	for ((i = 0; i < 60; i++)); do
		[[ $(curl -sf "http://127.0.0.1:$pa/api/v1/probes" | jq '[.ports[].peers[]] | length') == "$n" ]] && break
		sleep 1
	done
	sleep 5
	sums() {	# probes sent, prober CPU seconds
		curl -sf "http://127.0.0.1:$pa/metrics" | awk '
			$1 ~ /^fabtel_probe_sent_total/ { s += $2 } $1 == "fabtel_probe_cpu_seconds_total" { c = $2 }
			END { printf "%d %s\n", s, c }'
	}
	read -r s0 p0 <<<"$(sums)"
	c1=$(fabteld_cost "$w")
	read -r s1 p1 <<<"$(sums)"
	start_a "" || return 1
	sleep 5
	c0=$(fabteld_cost "$w")
	{
		echo "bench: probes: fabteld on a (rxa, 1 Hz, no BPF${BENCH_PROBE_SET:+, ${BENCH_PROBE_SET}}) probing $n endpoints on b, over $w s"
		read -r a b anon <<<"$c0"
		echo "  without probing: fabteld CPU $a ms/s, RSS $b KiB (anonymous $anon KiB)"
		read -r a2 b2 anon2 <<<"$c1"
		echo "  probing:         fabteld CPU $a2 ms/s, RSS $b2 KiB (anonymous $anon2 KiB) ($((s1 - s0)) probes sent)"
		awk -v s=$((s1 - s0)) -v c0="$p0" -v c1="$p1" -v w="$w" 'BEGIN {
			printf "  prober thread: %.2f ms/s, %.1f ms of CPU per 1,000 probes (sent, replies taken)\n",
				(c1 - c0) * 1000 / w, s ? (c1 - c0) * 1e6 / s : 0 }'
		echo "probes cpu_ms_per_s_off $a" >>"$OUT/results"
		echo "probes rss_kib_off $b" >>"$OUT/results"
		echo "probes cpu_ms_per_s_on $a2" >>"$OUT/results"
		echo "probes rss_kib_on $b2" >>"$OUT/results"
		echo "probes rss_anon_kib_off $anon" >>"$OUT/results"
		echo "probes rss_anon_kib_on $anon2" >>"$OUT/results"
		awk -v s=$((s1 - s0)) -v c0="$p0" -v c1="$p1" 'BEGIN {
			printf "probes prober_cpu_ms_per_1000 %.2f\n", s ? (c1 - c0) * 1e6 / s : 0 }' >>"$OUT/results"
	} | tee "$OUT/probes.txt"
	lab a -- 'kill $(cat /tmp/bench-probes.pid); rm -f /tmp/bench-probes.pid' >/dev/null 2>&1
	lab b -- 'kill $(cat /tmp/bench-responders.pid); rm -f /tmp/bench-responders.pid' >/dev/null 2>&1
}

# fabteld with BENCH_QPS QPs of one job that all move traffic: every QP is
# looked up in the rxe and wire maps each pass.
qps_traffic_stage() {
	local w=${BENCH_QPS_SECONDS:-30} n=${BENCH_QPS:-1000} rate=${BENCH_QPS_RATE:-1000}
	need_qpfill || return 1
	local fd=${BENCH_FABTELD:-$QB/fabteld} c0 c1 seen wire rxe sum a b a2 b2
	local ma=$FABLAB_DIR/qpfill-a mb=$FABLAB_DIR/qpfill-b
	lab_up
	rm -f "$ma" "$mb" "$ma.ready" "$mb.ready"
	lab a -- "pkill fabteld; pkill qpfill; rmmod fabtel fakeroce 2>/dev/null
		setsid $fd --listen 0.0.0.0:9465 >/tmp/fabteld.log 2>&1 &
		for i in \$(seq 100); do curl -sf localhost:9465/healthz >/dev/null && exit 0; sleep 0.2; done; exit 1" ||
		{ echo "bench: fabteld ($fd) could not be started" >&2; return 1; }
	lab b -- "pkill qpfill; setsid $QB/bench/qpfill --dev rxb --hold 3600 --me $mb --peer $ma $n \
		>/tmp/qpfill.log 2>&1 &" || return 1
	sleep 5
	c0=$(fabteld_cost "$w")
	lab a -- "mkdir -p /sys/fs/cgroup/job_777 &&
		setsid bash -c 'echo \$\$ >/sys/fs/cgroup/job_777/cgroup.procs &&
			exec $QB/bench/qpfill --dev rxa --hold 3600 --me $ma --peer $mb --rate $rate $n' \
			>/tmp/qpfill.log 2>&1 &
		for i in \$(seq 600); do grep -q connected /tmp/qpfill.log && exit 0; sleep 0.2; done
		cat /tmp/qpfill.log; exit 1" ||
		{ echo "bench: qpfill could not connect $n QPs" >&2; return 1; }
	sleep 10
	seen=$(curl -sf "http://127.0.0.1:$("$FABLAB" port a)/api/v1/jobs" |
		jq -r '.jobs[] | select(.job_id == "777") | "\(.qps) (verdict \(.verdict)\([.reasons[] | ", \(.reason) x\(.count)"] | add // ""))"' 2>/dev/null)
	wire=$(lab a -- "bpftool map dump name wire_qps -j | jq length")
	rxe=$(lab a -- "bpftool map dump name rxe_qp_counts -j | jq length")
	c1=$(fabteld_cost "$w")
	lab a -- "pkill -INT -x qpfill; sleep 2" >/dev/null 2>&1
	sum=$(lab a -- "grep writes /tmp/qpfill.log")
	lab b -- "pkill -x qpfill" >/dev/null 2>&1
	lab a -- "pkill fabteld; rmdir /sys/fs/cgroup/job_777" >/dev/null 2>&1
	read -r a b anon <<<"$c0"
	read -r a2 b2 anon2 <<<"$c1"
	{
		echo "bench: qps-traffic: fabteld ($fd) at 1 Hz on rxa, over $w s"
		echo "  job 777: $n QPs on a connected to $n on b, $rate RDMA WRITEs/s round robin"
		echo "  fabteld lists ${seen:-?} QPs in job 777; map entries: wire_qps ${wire:-?}, rxe_qp_counts ${rxe:-?}"
		echo "  ${sum:-qpfill printed no summary}"
		echo "  without them: fabteld CPU $a ms/s, RSS $b KiB"
		echo "  with them:    fabteld CPU $a2 ms/s, RSS $b2 KiB"
		echo "qps-traffic cpu_ms_per_s_0 $a"
		echo "qps-traffic cpu_ms_per_s_$n $a2"
		echo "qps-traffic rss_kib_$n $b2"
		echo "qps-traffic wire_entries ${wire:-?}"
	} | tee "$OUT/qps-traffic.txt" | tee >(grep '^qps-traffic ' >>"$OUT/results") | grep -v '^qps-traffic '
}

# The scrape stage inside guest a, on its real sysfs: 16 fakeroce mlx5 ports
# (rxa deleted meanwhile: node_exporter 1.5's infiniband collector fails on
# rxe), then 2 rxe ports (rxa and rxd on a dummy netdev).
lab_scrape_stage() {
	local set
	lab_up
	local sets=" ${BENCH_LAB_SETS:-fakeroce16 fakeroce16files fakeroce16ko rxe2} " args
	for set in $sets; do
		args=""
		if [[ $set == fakeroce16 ]]; then
			lab a -- "rdma link delete rxa; insmod $QREPO/kmod/fakeroce.ko &&
				for i in \$(seq 0 15); do echo \"\$i mlx5\" >/sys/kernel/fakeroce/new_device &&
					ip link set fre\$i up || exit 1; done" ||
				{ echo "bench: 16 fakeroce ports could not be made" >&2; return 1; }
		elif [[ $set == fakeroce16files ]]; then
			# the same ports, their hw_counters read one file each
			args="--set port_stats=files"
		elif [[ $set == fakeroce16ko ]]; then
			# the same ports, fabteld reading fabtel.ko's snapshots (1 s sampling)
			lab a -- "insmod $QREPO/kmod/fabtel.ko sample_ms=1000" ||
				{ echo "bench: fabtel.ko would not load" >&2; return 1; }
		else
			lab a -- "ip link add fbd0 type dummy && ip link set fbd0 up &&
				rdma link add rxd type rxe netdev fbd0" ||
				{ echo "bench: a second rxe could not be made" >&2; return 1; }
		fi
		sleep 3
		echo "bench: lab-scrape: $set in guest a ($(lab a -- 'rdma link show | wc -l') RDMA ports)"
		lab --timeout 1800 a -- "rm -rf /tmp/bench-lab; BENCH_OUT=/tmp/bench-lab BENCH_REAL_SYSFS=$set \
			BENCH_FABTELD_ARGS='$args' \
			BENCH_ROUNDS=${BENCH_LAB_ROUNDS:-200} BENCH_STRACE_SCRAPES=${BENCH_STRACE_SCRAPES:-100} \
			bash $QREPO/scripts/bench.sh scrape >/tmp/bench-lab.log 2>&1;
			rc=\$?; cat /tmp/bench-lab/results 2>/dev/null | grep '^$set '; exit \$rc" >>"$OUT/results" ||
			{ echo "bench: lab-scrape $set failed:" >&2; lab a -- 'tail -20 /tmp/bench-lab.log' >&2; }
		lab a -- "grep -h -i -m3 'error\|fail' /tmp/bench-lab/node_exporter-$set.log" |
			sed "s/^/  node_exporter ($set): /" | tee -a "$OUT/lab-scrape.txt"
		lab a -- "cat /tmp/bench-lab/node_exporter-$set.prom" >"$OUT/lab-node_exporter-$set.prom"
		lab a -- "cat /tmp/bench-lab/fabteld-$set.prom" >"$OUT/lab-fabteld-$set.prom"
		if [[ $set == fakeroce16 && $sets == *" fakeroce16"[fk]* ]] ||
			[[ $set == fakeroce16files && $sets == *" fakeroce16ko "* ]]; then
			:	# the ports stay for the next fakeroce16 set
		elif [[ $set == fakeroce16* ]]; then
			lab a -- 'rmmod fabtel 2>/dev/null; for i in $(seq 0 15); do echo $i >/sys/kernel/fakeroce/del_device; done
				rmmod fakeroce; rdma link add rxa type rxe netdev eth0' >/dev/null 2>&1
		else
			lab a -- 'rdma link delete rxd; ip link del fbd0' >/dev/null 2>&1
		fi
	done
}

: >"$OUT/results"
echo "bench: $(date -u +%FT%TZ), $(nproc) CPUs, kernel $(uname -r); results in $OUT"
for s in "${STAGES[@]}"; do
	case $s in
	scrape) scrape_stage ;;
	wire) wire_stage ;;
	folds) folds_stage ;;
	kmsg) kmsg_stage ;;
	flap) flap_stage ;;
	sampler) sampler_stage ;;
	firmware) firmware_stage ;;
	recorder) recorder_stage ;;
	detect) detect_stage ;;
	cluster) cluster_stage ;;
	qps) qps_stage ;;
	qps-traffic) qps_traffic_stage ;;
	lab-scrape) lab_scrape_stage ;;
	probes) probes_stage ;;
	cost) cost_stage ;;
	scale) scale_stage ;;
	*) echo "bench: unknown stage $s" >&2; exit 2 ;;
	esac
done
lab_down
if grep -q ' src_' "$OUT/results" 2>/dev/null; then
	echo
	echo "set    fabteld's sampling by source (fabtel_collector_cpu_seconds_total), CPU ms/s"
	awk '$2 ~ /^src_/ && $3 > 0 { sub(/^src_/, "", $2); sub(/_ms_per_s$/, "", $2)
		printf "%-12s %-16s %8s\n", $1, $2, $3 }' "$OUT/results"
fi
if grep -q ' fabteld_' "$OUT/results" 2>/dev/null; then
	echo
	echo "ports  measure                              fabteld   node_exporter  node_exporter/fabteld"
	for n in $(awk '$2 ~ /^(fabteld|node_exporter)_/ { print $1 }' "$OUT/results" | uniq); do
		awk -v n="$n" '
			$1 == n && $2 ~ /^(fabteld|node_exporter)_/ {
				if (index($2, "fabteld_") == 1) { who = "f"; m = substr($2, 9) }
				else { who = "e"; m = substr($2, 15) }	# node_exporter_
				v[who, m] = $3
				if (!(m in seen)) { seen[m] = 1; order[++nm] = m }
			}
			function row(name, f, e) {
				printf "%5s  %-34s %10s %14s  %s\n", n, name, f, e,
					(f > 0 ? sprintf("%.2fx", e / f) : "-") }
			END {
				for (i = 1; i <= nm; i++)
					if (order[i] != "idle_ms_per_s")
						row(order[i], v["f", order[i]], v["e", order[i]])
				row("idle_ms_per_s (background CPU)", v["f", "idle_ms_per_s"], v["e", "idle_ms_per_s"])
				# what a scraper costs in all: fabteld samples each second anyway
				row("cpu_ms_per_s, scraped each 1 s", sprintf("%.3f", v["f", "idle_ms_per_s"] + v["f", "cpu_ms_per_scrape"]),
				    sprintf("%.3f", v["e", "idle_ms_per_s"] + v["e", "cpu_ms_per_scrape"]))
				row("cpu_ms_per_s, scraped each 15 s", sprintf("%.3f", v["f", "idle_ms_per_s"] + v["f", "cpu_ms_per_scrape"] / 15),
				    sprintf("%.3f", v["e", "idle_ms_per_s"] + v["e", "cpu_ms_per_scrape"] / 15))
			}' "$OUT/results"
	done
fi
