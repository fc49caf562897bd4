#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_demo_tty.sh - `make demo` as an operator runs it, on a terminal
# (scripts/demo.sh --reuse-lab in a tmux session, 160x45): fabtop opens
# attached to it while the fault schedule runs, its screen stays whole (the
# schedule's words go to the log, not over fabtop), it shows the injected
# faults as they come, and q ends it with the same summary as --headless.
# Independent sources: the schedule log (what was injected and when) and the
# summary JSON; the screen is read with tmux capture-pane.
. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || ktap_skip_all "tmux missing (scripts/deps.sh)"
OUT=$REPO/build/demo-tty
S=fabtel-demo-tty-$$
ktap_begin 7
rm -rf "$OUT"
mkdir -p "$OUT"
trap 'tmux kill-session -t "$S" 2>/dev/null' EXIT

tmux new-session -d -s "$S" -x 160 -y 45 \
	"'$REPO/scripts/demo.sh' --reuse-lab --out '$OUT'; echo \"demo-exit=\$?\" >'$OUT/rc'; sleep 300"
screen() { tmux capture-pane -p -t "$S"; }
on_screen() { screen | grep -q -- "$1"; }

ktap_check "fabtop opens on the terminal (its title line)" wait_for 120 on_screen '^fabtop '
ktap_check "the fault schedule runs to its end (schedule.log)" \
	wait_for 180 grep -q "schedule done" "$OUT/schedule.log"
wait_for 5 on_screen 'pause_storm_end'
screen >"$OUT/screen.txt"
ktap_info "$(cat "$OUT/screen.txt")"
# line 1 the title, line 2 the NICs header: nothing scrolled it away
ktap_eq "the screen is whole: title on line 1, the NICs header on line 2" \
	"$(sed -n 1p "$OUT/screen.txt" | cut -c1-6)|$(sed -n 2p "$OUT/screen.txt" | awk '{ print $1, $2, $3 }')" \
	"fabtop|NIC NETDEV LINK"
ktap_eq "no schedule or fablab words written over it" \
	"$(grep -c -E 'fault:|fablab:|schedule done' "$OUT/screen.txt")" 0
ktap_eq "the flaps and the storm the log says were injected are in the Events pane" \
	"$(grep -q "fault: a 2 s flap" "$OUT/schedule.log" && echo flapped) $(grep -c -E ' link_down +rxa/1 ' "$OUT/screen.txt") $(grep -c -E ' pause_storm +fakeroce0/1 .*prio 3' "$OUT/screen.txt")" \
	"flapped 2 1"
tmux send-keys -t "$S" q
# the demo ends its jobs first: a round of ib_write_bw in flight is let
# finish (up to 30 s); one killed mid-transfer costs rxe's 50 s QP destroy
ktap_check "q quits fabtop; the demo exits 0" \
	wait_for 120 grep -q "demo-exit=0" "$OUT/rc"
# what fabteld said of job 1001 on a, so a failure below shows its reasons
ktap_info "job 1001 on a: $(jq -c '.jobs[] | select(.job_id == "1001") | del(.qps)' "$OUT/jobs-a.json" 2>/dev/null)"
ktap_eq "... and prints the summary: job 1001 failing on a link_flap of rxa/1" \
	"$(jq -r '.jobs[] | select(.host == "a" and .job_id == "1001") | .culprit | "\(.reason) \(.device)/\(.port)"' "$OUT/summary.json" 2>/dev/null)" \
	"link_flap rxa/1"
rdma_quiet a; rdma_quiet b	# the next suite's traffic must not stall (lib.sh)
ktap_end
