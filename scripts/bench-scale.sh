# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-scale.sh - make bench's "scale" stage, sourced by scripts/bench.sh
# (it uses the lab helpers there: lab, lab_up, fabteld_cost, FABLAB, QB).
#
# How fabteld's CPU and RSS grow with ports and QPs, in guest a: fabteld
# (BPF on, 1 Hz sampling, nobody scraping) with rxa and 1, 15 or 63
# fakeroce mlx5 ports (2, 16, 64 ports), while BENCH_SCALE_JOBS (8) jobs
# (cgroups job_8001..) hold 0, 1,000 or 4,000 QPs on rxa between them, each
# QP connected to one on b and moving traffic (qpfill --rate: in all
# BENCH_SCALE_RATE (800) 64-byte RDMA WRITEs a second, round robin).  Each
# cell: fabteld's CPU over BENCH_SCALE_SECONDS (20), its RSS at the end.
# TCG: relative only.

# QPS: start the jobs' qpfills on both guests and wait until connected
scale_jobs_up() {
	local q=$1 jobs=${BENCH_SCALE_JOBS:-8} rate=${BENCH_SCALE_RATE:-800} j n ma mb
	n=$((q / jobs))
	for ((j = 1; j <= jobs; j++)); do
		ma=$FABLAB_DIR/scale-a-$j mb=$FABLAB_DIR/scale-b-$j
		rm -f "$ma" "$mb" "$ma.ready" "$mb.ready"
		# each qpfill writes its own pid (\$! would be the guest's shell
		# that waits for setsid: a SIGINT to it never reaches qpfill)
		lab b -- "setsid bash -c 'echo \$\$ >>/tmp/scale-qpfill.pids &&
				exec $QB/bench/qpfill --dev rxb --hold 3600 --me $mb --peer $ma $n' \
			>/tmp/scale-qpfill-$j.log 2>&1 &" || return 1
		lab a -- "mkdir -p /sys/fs/cgroup/job_800$j &&
			setsid bash -c 'echo \$\$ >/sys/fs/cgroup/job_800$j/cgroup.procs &&
				echo \$\$ >>/tmp/scale-qpfill.pids &&
				exec $QB/bench/qpfill --dev rxa --hold 3600 --me $ma --peer $mb \
					--rate $((rate / jobs)) $n' >/tmp/scale-qpfill-$j.log 2>&1 &" || return 1
	done
	lab --timeout 1200 a -- "for i in \$(seq 3000); do
			[[ \$(grep -l connected /tmp/scale-qpfill-*.log 2>/dev/null | wc -l) == $jobs ]] && exit 0
			sleep 0.2; done; tail -n 3 /tmp/scale-qpfill-*.log; exit 1" ||
		{ echo "bench: scale: the jobs' $q QPs did not connect" >&2; return 1; }
}

# stop what a guest's pid file names (SIGNAL), waiting up to 60 s for it
scale_stop() { # HOST PIDFILE SIGNAL
	lab "$1" -- "[[ -f $2 ]] || exit 0; p=\$(cat $2); kill -$3 \$p 2>/dev/null
		for i in \$(seq 300); do kill -0 \$p 2>/dev/null || break; sleep 0.2; done; rm -f $2" \
		>/dev/null 2>&1
}

scale_jobs_down() {
	# SIGINT: qpfill stops its writes and tears its QPs down in order
	scale_stop a /tmp/scale-qpfill.pids INT
	scale_stop b /tmp/scale-qpfill.pids INT
	lab a -- "rmdir /sys/fs/cgroup/job_800* 2>/dev/null; true" >/dev/null 2>&1
	# no QP left to destroy (rxe 6.1: a QP closed mid-transfer takes 50 s)
	lab --timeout 200 a -- 'for i in $(seq 180); do
		[[ -z $(rdma res show qp 2>/dev/null | grep -v "comm \[") ]] && exit 0; sleep 1; done; exit 1' \
		>/dev/null 2>&1
}

# the fakeroce devices made 0..want-1 (from have)
scale_ports() {
	local have=$1 want=$2
	lab a -- "for i in \$(seq $have $((want - 1))); do echo \"\$i mlx5\" >/sys/kernel/fakeroce/new_device &&
		ip link set fre\$i up || exit 1; done"
}

scale_stage() {
	local w=${BENCH_SCALE_SECONDS:-20} q ports have seen c cpu rss anon
	need_qpfill || return 1
	local -a qsteps
	read -r -a qsteps <<<"${BENCH_SCALE_QPS:-0 1000 4000}"
	lab_up
	lab a -- "rmmod fabtel fakeroce 2>/dev/null; insmod $QREPO/kmod/fakeroce.ko" ||
		{ echo "bench: scale: fakeroce would not load" >&2; return 1; }
	echo "bench: scale: fabteld (BPF, 1 Hz) in guest a, ports = rxa + fakeroce mlx5," \
		"QPs of ${BENCH_SCALE_JOBS:-8} jobs on rxa moving traffic; $w s a cell" | tee "$OUT/scale.txt"
	printf '  %5s %6s %9s %10s %10s %8s\n' ports QPs seen "CPU ms/s" "RSS KiB" "anon KiB" |
		tee -a "$OUT/scale.txt"
	for q in "${qsteps[@]}"; do
		lab a -- "for i in \$(seq 0 70); do echo \$i >/sys/kernel/fakeroce/del_device; done 2>/dev/null
			setsid $QB/fabteld --listen 0.0.0.0:9465 >/tmp/fabteld.log 2>&1 &
			echo \$! >/tmp/scale-fabteld.pid
			for i in \$(seq 100); do curl -sf localhost:9465/healthz >/dev/null && exit 0; sleep 0.2; done
			exit 1" || { echo "bench: scale: fabteld would not start" >&2; return 1; }
		if ((q > 0)); then scale_jobs_up "$q" || return 1; fi
		have=0
		for ports in 2 16 64; do
			scale_ports "$have" $((ports - 1)) || { echo "bench: scale: no $ports ports" >&2; return 1; }
			have=$((ports - 1))
			sleep 8
			seen=$(curl -sf "http://127.0.0.1:$("$FABLAB" port a)/api/v1/jobs" |
				jq '[.jobs[] | select(.job_id | startswith("800")) | .qps] | add // 0')
			c=$(fabteld_cost "$w")
			read -r cpu rss anon <<<"$c"
			printf '  %5s %6s %9s %10s %10s %8s\n' "$ports" "$q" "$seen" "$cpu" "$rss" "$anon" |
				tee -a "$OUT/scale.txt"
			echo "scale ${ports}p_${q}q cpu_ms_per_s $cpu" >>"$OUT/results"
			echo "scale ${ports}p_${q}q rss_kib $rss" >>"$OUT/results"
		done
		scale_stop a /tmp/scale-fabteld.pid TERM
		if ((q > 0)); then scale_jobs_down; fi
	done
	lab a -- 'for i in $(seq 0 70); do echo $i >/sys/kernel/fakeroce/del_device; done 2>/dev/null
		rmmod fakeroce' >/dev/null 2>&1
}
