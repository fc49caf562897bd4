#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - what `make demo` runs (first version): boot the two-host lab,
# run RDMA traffic from a to b, inject a loss/reorder burst and a carrier
# flap, and show both hosts' Soft-RoCE counters live as they move.
#
# usage: demo.sh [--headless] [--keep] [--seconds N]
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
FABLAB=$REPO/scripts/fablab
headless=0
keep=0
seconds=36

while (($#)); do
	case $1 in
	--headless) headless=1 ;;
	--keep) keep=1 ;;
	--seconds) seconds=${2:?}; shift ;;
	*) echo "demo: unknown argument $1 (--headless, --keep, --seconds N)" >&2; exit 2 ;;
	esac
	shift
done
[[ -t 1 ]] || headless=1

cleanup() {
	"$FABLAB" run b -- 'pkill ib_write_bw' >/dev/null 2>&1
	"$FABLAB" run a -- 'pkill ib_write_bw' >/dev/null 2>&1
	((keep)) || "$FABLAB" down
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$FABLAB" down >/dev/null 2>&1
"$FABLAB" up || exit 1

C="rcvd_pkts sent_pkts rcvd_seq_err completer_retry_err out_of_seq_request duplicate_request link_downed"
snap() { # host -> "name value" lines
	"$FABLAB" run "$1" -- "cd /sys/class/infiniband/rx$1/ports/1/hw_counters &&
		for c in $C; do echo \$c \$(cat \$c); done;
		echo carrier_changes \$(cat /sys/class/net/eth0/carrier_changes)"
}

"$FABLAB" run b -- "ib_write_bw -d rxb -x 1 -D $((seconds + 5)) >/tmp/demo-srv.log 2>&1" &
for _ in $(seq 50); do
	"$FABLAB" run b -- 'ss -ltn | grep -q ":18515 "' && break
	sleep 0.2
done
"$FABLAB" run a -- "ib_write_bw -d rxa -x 1 -D $((seconds + 2)) 10.77.0.2 >/tmp/demo-cli.log 2>&1" &

start=$SECONDS
phase="clean traffic a -> b"
while ((SECONDS - start < seconds)); do
	t=$((SECONDS - start))
	if ((t >= seconds / 3)) && [[ $phase == clean* ]]; then
		"$FABLAB" impair a delay 1ms reorder 25% 50% loss 1%
		phase="netem on a: delay 1ms, reorder 25%, loss 1%"
	elif ((t >= 2 * seconds / 3)) && [[ $phase == netem* ]]; then
		"$FABLAB" impair a clear
		"$FABLAB" flap a --down-ms 500 >/dev/null 2>&1
		phase="netem cleared; a's link flapped (500 ms down)"
	fi
	frame=$(paste <(snap a) <(snap b) | awk '{ printf "  %-22s %14s %14s\n", $1, $2, $4 }')
	((headless)) || printf '\033[H\033[2J'
	printf 'fabtel demo  t=%3ds  %s\n  %-22s %14s %14s\n%s\n\n' "$t" "$phase" \
		counter "a (rxa)" "b (rxb)" "$frame"
	sleep 2
done
echo "demo: done. (fablab status / fablab run a -- CMD while --keep leaves the lab up)"
