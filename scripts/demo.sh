#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - what `make demo` runs: fabtel end to end on the two-host lab.
#
#   - boots the lab (or, with --reuse-lab, uses the one that is up);
#   - on a: fabtel.ko, and fakeroce.ko with an mlx5 port fre0 with PFC on
#     priority 3 (rxe has no DCB); fabteld on a and b;
#   - two Slurm-like jobs on a: job 1001 "training" (fabtel-traffic rounds to b)
#     and job 1002 (one idle QP to b, fabtel-traffic);
#   - a fault schedule: a loss burst, reordering, a 300 ms flap, a 2 s
#     flap, a pause storm on the fakeroce port;
#   - interactive: fabtop on this terminal, over a's forwarded port, while
#     the schedule runs; headless (--headless, or no terminal): the
#     schedule, then a summary of every job's verdict and reasons and of
#     the port-level storms, and the faulted job's trace saved as JSON.
#
# usage: demo.sh [--headless] [--keep] [--reuse-lab] [--out DIR]
#   --keep       leave the lab up afterwards (scripts/fablab down ends it)
#   --reuse-lab  run in the lab that is up (the selftests do), leave it up
#   --out DIR    where the summary (summary.json) and trace go
#                (default build/demo)
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
FABLAB=$REPO/scripts/fablab
B=$REPO/build
headless=0 keep=0 reuse=0 out=$B/demo
# the same paths quoted for the guests' shell (the host's tree is their /)
QREPO=$(printf %q "$REPO") QB=$(printf %q "$B")

while (($#)); do
	case $1 in
	--headless) headless=1 ;;
	--keep) keep=1 ;;
	--reuse-lab) reuse=1 keep=1 ;;
	--out) out=${2:?--out wants a directory}; shift ;;
	*) echo "demo: unknown argument $1 (--headless, --keep, --reuse-lab, --out DIR)" >&2
	   exit 2 ;;
	esac
	shift
done
[[ -t 0 && -t 1 ]] || headless=1
for f in "$B/fabteld" "$B/fabtop" "$B/fabtel-traffic" "$REPO/kmod/fabtel.ko" \
	 "$REPO/kmod/fakeroce.ko"; do
	[[ -e $f ]] || { echo "demo: $f missing: run make first" >&2; exit 1; }
done
mkdir -p "$out" || exit 1
LOG=$out/schedule.log
: >"$LOG"

run() { "$FABLAB" run "$@"; }
say() { printf '%s  %s\n' "$(date +%T)" "$*" | tee -a "$LOG" >&2; }
[[ $headless == 0 ]] && say() { printf '%s  %s\n' "$(date +%T)" "$*" >>"$LOG"; }

# What the demo starts in a guest runs as a session of its own whose
# leader's pid goes to /tmp/demo.pids ($SPAWN; a command the guests' shell
# runs, quoted for it), and only those are stopped, by process group:
# SIGTERM, which fabtel-traffic takes as "stop posting, drain what is in
# flight, disconnect" (at most 30 s), so no QP is destroyed mid-transfer
# (that can leave an rxe QP reference behind: its destroy then waits and
# the guest kernel warns, rxe_pool.c __rxe_cleanup, Linux 6.1); what is
# left after 40 s gets SIGKILL.  Bounded (fablab run --timeout: a guest
# command that hangs in the kernel must not hold the demo).
SPAWN="setsid bash -c 'echo \$\$ >>/tmp/demo.pids; exec \"\$@\"' demo-spawn"
stop_spawned() { # host
	"$FABLAB" run --timeout 60 "$1" -- '[ -s /tmp/demo.pids ] || exit 0
		pids=$(cat /tmp/demo.pids)
		for p in $pids; do kill -TERM -- "-$p"; done 2>/dev/null
		for i in $(seq 160); do
			left=
			for p in $pids; do kill -0 -- "-$p" 2>/dev/null && left=1; done
			[ -z "$left" ] && break
			sleep 0.25
		done
		for p in $pids; do kill -KILL -- "-$p"; done 2>/dev/null
		rm -f /tmp/demo.pids; true'
}
stop_jobs() {
	local pids=() h
	for h in a b; do
		stop_spawned "$h" >/dev/null 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
}

cleanup() {
	say "clean-up: the faults cleared, the jobs stopped"
	"$FABLAB" impair a clear >/dev/null 2>&1
	stop_jobs
	say "clean-up: jobs stopped; removing the modules on a"
	"$FABLAB" run --timeout 60 a -- 'echo 0 >/sys/kernel/fakeroce/del_device; rmmod fakeroce fabtel' \
		>/dev/null 2>&1 || say "clean-up: removing the modules on a failed or timed out"
	((keep)) || "$FABLAB" down >/dev/null 2>&1
	say "clean-up: done"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ((reuse)); then
	"$FABLAB" status >/dev/null 2>&1 || { echo "demo: --reuse-lab: no lab is up" >&2; exit 1; }
	# QPs of a run killed mid-transfer can take rxe 50 s to destroy (6.1),
	# stalling the traffic of the jobs started meanwhile: start without them
	for h in a b; do
		run "$h" -- 'for i in $(seq 280); do
			[ -z "$(rdma res show qp 2>/dev/null | grep -v "comm \[")" ] && exit 0; sleep 0.25; done
			echo "demo: QPs of an earlier run are still there" >&2' >>"$LOG" 2>&1
	done
else
	say "booting the lab (two QEMU guests, Soft-RoCE between them)"
	"$FABLAB" down >/dev/null 2>&1
	"$FABLAB" up >>"$LOG" 2>&1 || { echo "demo: the lab did not come up ($LOG)" >&2; exit 1; }
fi
PA=$("$FABLAB" port a)
PB=$("$FABLAB" port b)

# ---- modules, fabteld ----------------------------------------------------------
stop_jobs	# what an earlier demo left (--keep, or killed itself)
say "a: fabtel.ko, and fakeroce.ko with an mlx5 port (fre0, PFC on priority 3)"
run a -- "rmmod fakeroce fabtel 2>/dev/null; modprobe ib_core &&
	insmod $QREPO/kmod/fabtel.ko sample_ms=100 slow_ms=100 && insmod $QREPO/kmod/fakeroce.ko &&
	echo 100 >/sys/module/fabtel/parameters/storm_ms &&
	echo '0 mlx5' >/sys/kernel/fakeroce/new_device && ip link set fre0 up &&
	echo 8 >/sys/kernel/debug/fakeroce/0/dcb/pfc_en" >>"$LOG" 2>&1 ||
	{ echo "demo: loading the modules on a failed ($LOG)" >&2; exit 1; }
for h in a b; do
	run "$h" -- "$SPAWN $QB/fabteld --listen 0.0.0.0:9465 --set window_s=20 \
		--set hold_s=300 >/tmp/fabteld.log 2>&1 &" >/dev/null
done
for _ in $(seq 150); do
	curl -sf "http://127.0.0.1:$PA/healthz" >/dev/null &&
		curl -sf "http://127.0.0.1:$PB/healthz" >/dev/null && break
	sleep 0.2
done
curl -sf "http://127.0.0.1:$PA/healthz" >/dev/null ||
	{ echo "demo: fabteld on a does not answer" >&2; exit 1; }
say "fabteld on a and b: http://127.0.0.1:$PA/metrics  http://127.0.0.1:$PB/metrics"

# ---- the jobs ----------------------------------------------------------------------
# a's root qdisc is netem before any traffic: the faults below change it in
# place (a qdisc swap under traffic fails 6.12 rxe's QPs: scripts/fablab)
"$FABLAB" impair a delay 0ms >/dev/null
# 1001: fabtel-traffic in 10 s rounds of 64 KiB RDMA WRITEs (50 a second,
# about ib_write_bw's rate under TCG) to a server on b, client on a in
# cgroup job_1001 (QP timeout 18: about 1 s, so TCG alone makes no ACK
# timeouts); a round that dies to a fault is followed by the next.  Not
# ib_write_bw: it spins on the CQ, and on the guests' one vCPU under TCG
# that starved rxe until its QP stalled (the demo on a terminal, 2026-11-25).
run b -- "mkdir -p /sys/fs/cgroup/job_1001 /sys/fs/cgroup/job_1002
	$SPAWN $QB/fabtel-traffic --server --forever --port 18602 \
		--cgroup /sys/fs/cgroup/job_1001 >/tmp/demo-srv1.log 2>&1 &
	$SPAWN $QB/fabtel-traffic --server --forever --port 18601 \
		--cgroup /sys/fs/cgroup/job_1002 >/tmp/demo-srv2.log 2>&1 &" >/dev/null
# fabtel-traffic is an rdma_cm listener
run b -- 'for i in $(seq 100); do
		rdma res show cm_id | grep -q ":18601" && rdma res show cm_id | grep -q ":18602" && exit 0
		sleep 0.2
	done; exit 1' >/dev/null || say "warning: the servers on b are slow to listen"
run a -- "mkdir -p /sys/fs/cgroup/job_1001 /sys/fs/cgroup/job_1002
	$SPAWN bash -c 'echo \$\$ >/sys/fs/cgroup/job_1001/cgroup.procs; exec -a demo-loop bash -c \"
		while :; do $QB/fabtel-traffic 10.77.0.2 --port 18602 --size 64K --rate 50 \
			--duration 10 --timeout 18; sleep 1; done\"' >/tmp/demo-1001.log 2>&1 &
	$SPAWN $QB/fabtel-traffic 10.77.0.2 --port 18601 --rate 0.005 --size 64 --duration 3600 \
		--timeout 16 --cgroup /sys/fs/cgroup/job_1002 >/tmp/demo-idle.log 2>&1 &" >/dev/null
say "jobs on a: 1001 (fabtel-traffic rounds to b), 1002 (an idle QP to b)"
# faults start once fabteld on a sees both jobs: on a slow machine the
# first round can take a while to connect
jobs_seen() {
	[[ $(curl -sf "http://127.0.0.1:$PA/api/v1/jobs" |
		jq -r '[.jobs[] | select(.qps | length > 0) | .job_id] | sort | join(" ")' 2>/dev/null) == "1001 1002" ]]
}
for _ in $(seq 120); do jobs_seen && break; sleep 0.5; done
jobs_seen || say "warning: fabteld on a does not see both jobs yet"

# ---- the fault schedule ----------------------------------------------------------------
schedule() {
	sleep 15
	say "fault: loss burst on a's link (netem loss 5%, 6 s)"
	"$FABLAB" impair a loss 5% >/dev/null
	sleep 6
	"$FABLAB" impair a clear >/dev/null
	sleep 4
	say "fault: reordering on a's link (netem delay 1ms reorder 25% 50%, 6 s)"
	"$FABLAB" impair a delay 1ms reorder 25% 50% >/dev/null
	sleep 6
	"$FABLAB" impair a clear >/dev/null
	sleep 4
	say "fault: a 300 ms flap of a's link"
	"$FABLAB" flap a --down-ms 300 >/dev/null
	sleep 8
	say "fault: a 2 s flap of a's link"
	"$FABLAB" flap a --down-ms 2000 >/dev/null
	sleep 6
	say "fault: a pause storm on fakeroce0 priority 3 (4 s)"
	run a -- 'echo 5000 >/sys/kernel/debug/fakeroce/0/dcb/prio3_requests_rate' >/dev/null
	sleep 4
	run a -- 'echo 0 >/sys/kernel/debug/fakeroce/0/dcb/prio3_requests_rate' >/dev/null
	sleep 5
	say "schedule done"
}

if ((headless)); then
	schedule
else
	cat <<EOF
fabtel demo: fabtop is about to open on guest a's fabteld.  Faults start in
15 s (loss, reorder, a 300 ms flap, a 2 s flap, a pause storm on fakeroce0):
watch the NICs pane, the Events log, and job 1001 turn degraded, then
failing.  Tab to Jobs, Enter on 1001 for its QPs, t saves its trace; q quits.

  /metrics (a):   http://127.0.0.1:$PA/metrics
  jobs (a):       http://127.0.0.1:$PA/api/v1/jobs
  trace of 1001:  http://127.0.0.1:$PA/api/v1/jobs/1001/trace
  /metrics (b):   http://127.0.0.1:$PB/metrics
EOF
	sleep 4
	# fabtop owns the terminal: the schedule's words (and fablab's) go
	# to the log, or they would scroll fabtop's screen under it
	schedule >>"$LOG" 2>&1 &
	sched=$!
	(cd "$out" && "$B/fabtop" --url "http://127.0.0.1:$PA")
	kill "$sched" 2>/dev/null
	wait "$sched" 2>/dev/null
fi

# ---- the summary ------------------------------------------------------------------------
curl -sf "http://127.0.0.1:$PA/api/v1/jobs" >"$out/jobs-a.json"
curl -sf "http://127.0.0.1:$PB/api/v1/jobs" >"$out/jobs-b.json"
curl -sf "http://127.0.0.1:$PA/api/v1/snapshot" >"$out/snapshot-a.json"
curl -sf "http://127.0.0.1:$PA/api/v1/events" >"$out/events-a.json"
curl -sf "http://127.0.0.1:$PA/api/v1/jobs/1001/trace" >"$out/trace-1001.json"
jq -n --slurpfile ja "$out/jobs-a.json" --slurpfile jb "$out/jobs-b.json" \
	--slurpfile sa "$out/snapshot-a.json" '
	def jobs($h; $j): [$j[0].jobs[] | {host: $h, job_id, verdict,
		reasons: [.reasons[] | {reason, severity, device, port, count}],
		culprit: (.culprit | if . then {reason, device, port} else null end)}];
	{jobs: (jobs("a"; $ja) + jobs("b"; $jb)),
	 storms: [$sa[0].ports[] | select(.pfc) | . as $p | .pfc[] | select(.storms > 0) |
		{host: "a", device: $p.device, port: $p.port, priority, storms}]}' >"$out/summary.json" ||
	{ echo "demo: no summary: fabteld did not answer" >&2; exit 1; }
{
	echo
	echo "fabtel demo: what fabteld concluded"
	jq -r '.jobs[] | "  \(.host)  job \(.job_id): \(.verdict)" +
		(if .culprit then "  (culprit: \(.culprit.reason) on \(.culprit.device)/\(.culprit.port))" else "" end),
		(.reasons[] | "        \(.severity): \(.reason) on \(.device)/\(.port) x\(.count)")' \
		"$out/summary.json"
	jq -r '.storms[] | "  \(.host)  pause storm: \(.device)/\(.port) priority \(.priority), \(.storms) storm(s)"' \
		"$out/summary.json"
	echo
	echo "  schedule:  $LOG"
	echo "  summary:   $out/summary.json"
	echo "  trace:     $out/trace-1001.json (open in ui.perfetto.dev)"
	((keep)) && echo "  the lab is still up: http://127.0.0.1:$PA/metrics; scripts/fablab down ends it"
} | tee "$out/summary.txt"
exit 0
