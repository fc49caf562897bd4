#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh - make soak: fabtel under lab traffic and a repeating fault
# schedule for SOAK_SECONDS (default 600), with fabteld's resident memory,
# open fds and BPF map entries sampled every 10 s; they must stay flat.
# Then fabteld is stopped and fabtel.ko unloaded, and both guests' kernel
# logs must have no leak, BUG, WARNING or oops line.  A summary is printed
# and written to build/soak/summary.txt; exit 1 if anything grew or failed.
#
# Load on guest a (fabtel.ko, fabteld with BPF, one fakeroce mlx5 port):
#   - jobs churn: every 30 s a new fabtel-traffic client in a new cgroup
#     job_(9000+N) (20 s of 64 KB WRITEs to b), so QPs, jobs and map entries
#     come and go;
#   - one long idle QP (job_9000) for the whole run;
#   - faults, a 60 s cycle: netem loss 2% (8 s), a 1 s flap, reordering
#     25% (8 s), a 2 s pause storm on fakeroce0 priority 3;
#   - a healthy link's errors on fakeroce0 (debugfs ramp), a new rate every
#     10 s: FEC-corrected bits at 20-95 % of degrading_fec_ppb of its speed
#     and PMA symbol errors at 20-90 % of degrading_symbols.
#     link_degrading (fabtel_port_link_degrading, read every second) must
#     never be raised; then, for the last 20 s, 150 % must raise it (the
#     check can fail).
# Restarts (SOAK_RESTART_S, default 120; 0 = none): fabteld is stopped with
# SIGTERM and started again every SOAK_RESTART_S, and fabtel.ko is unloaded
# and loaded once, halfway.  After each start, every flap injected since
# fabtel.ko was (re)loaded must be in the new event log as a restored
# link_flap within 3 s of when it was injected; during each run the live
# link_flap events must be exactly the flaps injected (no false event, none
# missed; a restart or the reload is not a flap).
# "Flat": after a 60 s warm-up, the largest value of the second half is at
# most 5% (and 1 MiB for RSS, 2 for fds, 16 for map entries) above the
# largest of the first half (RSS and fds of whichever fabteld runs).
#
#   SOAK_SECONDS=300 scripts/soak.sh [--reuse-lab]
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
FABLAB=$REPO/scripts/fablab
B=$REPO/build
OUT=$B/soak
SECS=${SOAK_SECONDS:-600}
RESTART_S=${SOAK_RESTART_S:-120}
QB=$(printf %q "$B") QREPO=$(printf %q "$REPO")
reuse=0
[[ ${1:-} == --reuse-lab ]] && reuse=1

run() { "$FABLAB" run "$@"; }
say() { printf '%s  %s\n' "$(date +%T)" "$*" | tee -a "$OUT/log"; }

for f in "$B/fabteld" "$B/fabtel-traffic" "$REPO/kmod/fabtel.ko" "$REPO/kmod/fakeroce.ko"; do
	[[ -e $f ]] || { echo "soak: $f missing: run make first" >&2; exit 1; }
done
rm -rf "$OUT"
mkdir -p "$OUT"

stop_all() {
	"$FABLAB" impair a clear >/dev/null 2>&1
	for h in a b; do
		run "$h" -- 'pkill -f soak/churn.sh; pkill fabtel-traffic; pkill fabteld' >/dev/null 2>&1
	done
}
cleanup() {
	stop_all
	run a -- 'echo 0 >/sys/kernel/fakeroce/del_device; rmmod fakeroce fabtel' >/dev/null 2>&1
	((reuse)) || "$FABLAB" down >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ((reuse)); then
	"$FABLAB" status >/dev/null 2>&1 || { echo "soak: --reuse-lab: no lab is up" >&2; exit 1; }
else
	say "booting the lab"
	"$FABLAB" down >/dev/null 2>&1
	"$FABLAB" up >>"$OUT/log" 2>&1 || { echo "soak: the lab did not come up" >&2; exit 1; }
fi
for h in a b; do run "$h" -- 'dmesg -c' >"$OUT/dmesg-before-$h" 2>&1; done

say "a: fabtel.ko, fakeroce.ko (mlx5, PFC on priority 3), fabteld with BPF"
run a -- "rmmod fakeroce fabtel 2>/dev/null; modprobe ib_core &&
	insmod $QREPO/kmod/fabtel.ko sample_ms=100 slow_ms=100 && insmod $QREPO/kmod/fakeroce.ko &&
	echo 100 >/sys/module/fabtel/parameters/storm_ms &&
	echo '0 mlx5' >/sys/kernel/fakeroce/new_device && ip link set fre0 up &&
	echo 8 >/sys/kernel/debug/fakeroce/0/dcb/pfc_en" >>"$OUT/log" 2>&1 ||
	{ echo "soak: loading the modules failed" >&2; exit 1; }
PA=$("$FABLAB" port a)
start_fabteld() {
	run a -- "$QB/fabteld --listen 0.0.0.0:9465 --set job_linger_s=30 \
		>>/tmp/soak-fabteld.log 2>&1 & echo \$! >/tmp/soak-fabteld.pid" >/dev/null
	for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PA/healthz" >/dev/null && break; sleep 0.2; done
	curl -sf "http://127.0.0.1:$PA/healthz" >/dev/null || { echo "soak: fabteld does not answer" >&2; exit 1; }
	FPID=$(run a -- 'cat /tmp/soak-fabteld.pid')
}
# a fabteld a previous soak left (--reuse-lab), by its pid: never one we did not start
run a -- '[ -f /tmp/soak-fabteld.pid ] && kill $(cat /tmp/soak-fabteld.pid); rm -f /tmp/soak-fabteld.pid; sleep 1' \
	>/dev/null 2>&1
start_fabteld
ko_loaded=$(date +%s)

say "b: two fabtel-traffic servers; a: the idle QP and the job churn"
run b -- "mkdir -p /sys/fs/cgroup/soak
	setsid $QB/fabtel-traffic --server --forever >/tmp/soak-srv.log 2>&1 &
	setsid $QB/fabtel-traffic --server --forever --port 18601 >/tmp/soak-srv2.log 2>&1 &
	for i in \$(seq 100); do rdma res show cm_id | grep -q ':18601' && exit 0; sleep 0.2; done
	exit 1" >/dev/null || say "warning: the servers on b are slow to listen"
# the churn loop, a file in the tree (the guests see the host's tree)
cat >"$OUT/churn.sh" <<EOF
# soak: a new job every 30 s (20 s of traffic, then 10 s apart)
n=0
while :; do
	n=\$((n + 1))
	mkdir -p /sys/fs/cgroup/job_\$((9000 + n))
	$QB/fabtel-traffic 10.77.0.2 --duration 20 --timeout 16 --size 65536 \\
		--cgroup /sys/fs/cgroup/job_\$((9000 + n)) >/tmp/soak-churn.log 2>&1
	sleep 10
	rmdir /sys/fs/cgroup/job_\$((9000 + n)) 2>/dev/null
done
EOF
run a -- "mkdir -p /sys/fs/cgroup/job_9000
	setsid $QB/fabtel-traffic 10.77.0.2 --port 18601 --rate 0.005 --size 64 --timeout 16 \
		--duration $((SECS + 120)) --cgroup /sys/fs/cgroup/job_9000 >/tmp/soak-idle.log 2>&1 &
	setsid bash $(printf %q "$OUT/churn.sh") >/dev/null 2>&1 &" >/dev/null

faults() {
	while :; do
		"$FABLAB" impair a loss 2% >/dev/null; sleep 8
		"$FABLAB" impair a clear >/dev/null; sleep 7
		date +%s >>"$OUT/flaps"
		"$FABLAB" flap a --down-ms 1000 >/dev/null 2>&1; sleep 7
		"$FABLAB" impair a delay 1ms reorder 25% 50% >/dev/null; sleep 8
		"$FABLAB" impair a clear >/dev/null; sleep 7
		run a -- 'echo 5000 >/sys/kernel/debug/fakeroce/0/dcb/prio3_requests_rate' >/dev/null
		sleep 2
		run a -- 'echo 0 >/sys/kernel/debug/fakeroce/0/dcb/prio3_requests_rate' >/dev/null
		sleep 19
	done
}
faults >>"$OUT/log" 2>&1 &
fpid=$!

# fakeroce0 at 100 Gb/s: degrading_fec_ppb 1000 is 100000 bits/s; degrading_symbols 10/s
trickle() {
	local fec=(20000 60000 95000 40000 80000 90000) sym=(2 5 9 3 8 6) i=0
	while :; do
		run a -- "echo 'fec/corrected_bits ${fec[i % 6]}' >/sys/kernel/debug/fakeroce/0/ramp
			echo 'pma/symbol_error ${sym[i % 6]}' >/sys/kernel/debug/fakeroce/0/ramp" >/dev/null
		i=$((i + 1))
		sleep 10
	done
}
trickle >>"$OUT/log" 2>&1 &
tpid=$!
# link_degrading of fakeroce0 every second: "unix_s value" (nothing while fabteld restarts)
degrading() {
	curl -sf --max-time 2 "http://127.0.0.1:$PA/metrics" |
		awk '$1 ~ /^fabtel_port_link_degrading\{device="fakeroce0"/ { print $2 }'
}
poll_degrading() {
	while :; do
		echo "$(date +%s) $(degrading)" >>"$OUT/degrading"
		sleep 1
	done
}
poll_degrading &
dpid=$!

# one sample: seconds rss_kib fds map_entries qps jobs events
sample() {
	run a -- "p=$FPID
		rss=\$(awk '/^VmRSS/ { print \$2 }' /proc/\$p/status)
		fds=\$(ls /proc/\$p/fd | wc -l)
		ent=0
		# fabteld is the guest's only BPF user (bpftool here shows no pids)
		for id in \$(bpftool map show -j 2>/dev/null | jq -r '.[] | select(.type | test(\"hash\")) | .id'); do
			ent=\$((ent + \$(bpftool map dump id \$id -j 2>/dev/null | jq length)))
		done
		echo \$rss \$fds \$ent"
}
api() { curl -sf --max-time 5 "http://127.0.0.1:$PA$1"; }

# restored link_flap events in the log of the fabteld now running, against
# the flaps injected since fabtel.ko was loaded (their times within 3 s)
check_restored() {
	local want got
	want=$(awk -v t="$ko_loaded" '$1 > t' "$OUT/flaps" 2>/dev/null | xargs)
	got=$(api /api/v1/events | jq -r '[.events[] | select(.kind == "link_flap" and .restored) | .time | floor] | join(" ")')
	if awk -v w="$want" -v g="$got" 'BEGIN { nw = split(w, a); ng = split(g, b)
		if (nw != ng) exit 1
		for (i = 1; i <= nw; i++) if (b[i] < a[i] - 1 || b[i] > a[i] + 3) exit 1 }'; then
		say "restart: all $(wc -w <<<"$want") flaps since fabtel.ko was loaded are restored"
	else
		say "restart: FAILED: injected at [$want], restored at [$got]"
		echo fail >>"$OUT/restart-failures"
	fi
}
# the live link_flap events of the fabteld that is about to stop, against the
# flaps injected while it ran (a flap in its first 5 s may be its predecessor's)
check_live() { # SINCE_UNIX
	local want got
	want=$(awk -v t="$1" '$1 > t + 5' "$OUT/flaps" 2>/dev/null | wc -l)
	got=$(api /api/v1/events | jq -r --argjson t "$1" '[.events[] | select(.kind == "link_flap" and (.restored | not) and .time > $t + 5)] | length')
	if [[ $want == "$got" ]]; then
		say "run: $got live link_flap events, $want flaps injected"
	else
		say "run: FAILED: $got live link_flap events, $want flaps injected"
		echo fail >>"$OUT/restart-failures"
	fi
}
last_flap() { tail -1 "$OUT/flaps" 2>/dev/null || echo 0; }
restart_fabteld() {
	local stopped
	# a flap takes 1 s and one sample to be logged: not in the middle of one
	while (($(date +%s) - $(last_flap) < 6)); do sleep 1; done
	check_live "$run_started"
	stopped=$(date +%s)
	run a -- 'kill -TERM $(cat /tmp/soak-fabteld.pid); sleep 2' >/dev/null
	start_fabteld
	run_started=$(date +%s)
	sleep 2
	if (($(last_flap) >= stopped - 1)); then
		say "restart: a flap came during the restart itself: not compared"
	else
		check_restored
	fi
}
reload_ko() {
	say "fabtel.ko unloaded and loaded under fabteld"
	run a -- "rmmod fabtel && sleep 3 && insmod $QREPO/kmod/fabtel.ko sample_ms=100 slow_ms=100 &&
		echo 100 >/sys/module/fabtel/parameters/storm_ms" >>"$OUT/log" 2>&1
	ko_loaded=$(date +%s)
}

say "soaking for $SECS s, a sample every 10 s (build/soak/samples), fabteld restarted every ${RESTART_S} s"
echo "# t_s rss_kib fds bpf_map_entries qps jobs events_next_seq" >"$OUT/samples"
start=$SECONDS
run_started=$(date +%s)
next_restart=$RESTART_S
reloaded=0
while ((SECONDS - start < SECS)); do
	t=$((SECONDS - start))
	if ((RESTART_S && !reloaded && t >= SECS / 2 - 30)); then
		reload_ko
		reloaded=1
	fi
	if ((RESTART_S && t >= next_restart)); then
		restart_fabteld
		next_restart=$((next_restart + RESTART_S))
	fi
	s=$(sample)
	q=$(api /api/v1/snapshot | jq '.qps | length' 2>/dev/null)
	j=$(api /api/v1/jobs | jq '.jobs | length' 2>/dev/null)
	e=$(api '/api/v1/events?since=999999999' | jq '.next_seq' 2>/dev/null)
	echo "$t $s ${q:--} ${j:--} ${e:--}" | tee -a "$OUT/samples"
	sleep $((10 - (SECONDS - start - t) > 0 ? 10 - (SECONDS - start - t) : 0))
done
kill $fpid $tpid $dpid 2>/dev/null
wait $fpid $tpid $dpid 2>/dev/null
# 150 % of both thresholds: link_degrading must come, within 20 s
run a -- "echo 'fec/corrected_bits 150000' >/sys/kernel/debug/fakeroce/0/ramp
	echo 'pma/symbol_error 15' >/sys/kernel/debug/fakeroce/0/ramp" >/dev/null
t150=$SECONDS raised_at=""
while ((SECONDS - t150 < 20)); do
	[[ $(degrading) == 1 ]] && { raised_at=$((SECONDS - t150)); break; }
	sleep 1
done
run a -- 'echo off >/sys/kernel/debug/fakeroce/0/ramp' >/dev/null
alive=$(run a -- "kill -0 $FPID && echo alive")

say "stopping: traffic, fabteld, then rmmod fakeroce fabtel"
stop_all
unload=$(run a -- 'echo 0 >/sys/kernel/fakeroce/del_device; rmmod fakeroce && rmmod fabtel && echo unloaded' 2>&1)
sleep 2
for h in a b; do run "$h" -- 'dmesg' >"$OUT/dmesg-$h" 2>&1; done
bad=$(for h in a b; do "$FABLAB" trouble "$h" 2>&1 | sed "s/^/$h: /"; done | head -5)

# flatness: second half against the first, after 60 s of warm-up
flat() { # COLUMN NAME ABS_SLACK
	awk -v c="$1" -v name="$2" -v slack="$3" '
		!/^#/ && $1 >= 60 { t[n] = $1; v[n++] = $c }
		END {
			if (n < 4) { printf "%-16s not enough samples (%d)\n", name, n; exit 1 }
			h = int(n / 2)
			for (i = 0; i < n; i++) {
				if (i < h && v[i] > m1) m1 = v[i]
				if (i >= h && v[i] > m2) m2 = v[i]
				if (i == 0 || v[i] < lo) lo = v[i]
			}
			lim = m1 * 1.05; if (m1 + slack > lim) lim = m1 + slack
			ok = m2 <= lim
			printf "%-16s first %-9s min %-9s max 1st half %-9s max 2nd half %-9s limit %-9.0f %s\n",
				name, v[0], lo, m1, m2, lim, ok ? "flat" : "GREW"
			exit !ok
		}' "$OUT/samples"
}
{
	echo "fabtel soak: $SECS s, $(grep -vc '^#' "$OUT/samples") samples (build/soak/samples)"
	rc=0
	flat 2 "fabteld RSS KiB" 1024 || rc=1
	flat 3 "fabteld fds" 2 || rc=1
	flat 4 "BPF map entries" 16 || rc=1
	echo "QPs seen $(awk '!/^#/ { print $5 }' "$OUT/samples" | sort -n | uniq | tr '\n' ' ')"
	echo "jobs seen $(awk '!/^#/ { print $6 }' "$OUT/samples" | sort -n | uniq | tr '\n' ' ')"
	echo "events logged: $(awk '!/^#/ { e = $7 } END { print e - 1 }' "$OUT/samples")"
	[[ $alive == alive ]] && echo "fabteld alive at the end" || { echo "fabteld DIED"; rc=1; }
	polls=$(awk 'NF == 2' "$OUT/degrading") ups=$(awk 'NF == 2 && $2 == 1' "$OUT/degrading" | wc -l)
	echo "link_degrading under a healthy trickle (20-95 %): raised in $ups of $(wc -l <<<"$polls") one-second reads (build/soak/degrading)"
	((ups == 0)) || rc=1
	[[ -n $raised_at ]] && echo "link_degrading at 150 %: raised after ${raised_at} s" ||
		{ echo "link_degrading at 150 %: NOT raised within 20 s"; rc=1; }
	if ((RESTART_S)); then
		grep '  restart: \|  run: \|fabtel.ko unloaded' "$OUT/log" | sed 's/^[0-9:]*  //'
		[[ -s $OUT/restart-failures ]] && { echo "restarts: FAILED"; rc=1; } ||
			echo "restarts: every injected flap restored, no false or missing live flap"
	fi
	[[ $unload == *unloaded* ]] && echo "fakeroce and fabtel.ko unloaded" ||
		{ echo "rmmod FAILED: $unload"; rc=1; }
	if [[ -z $bad ]]; then
		echo "kernel logs (a, b): no leak/BUG/WARNING/oops line"
	else
		echo "kernel logs: $bad"
		rc=1
	fi
	((rc)) && echo "soak: FAILED" || echo "soak: passed"
} | tee "$OUT/summary.txt"
grep -q "soak: passed" "$OUT/summary.txt"
