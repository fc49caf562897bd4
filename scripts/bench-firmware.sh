# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-firmware.sh - make bench's "firmware" stage, sourced by
# scripts/bench.sh (it uses the lab helpers there: lab, lab_up, QB, QREPO).
#
# What fabtel asks of a NIC's firmware: in guest a, 16 fakeroce mlx5 ports,
# each counting the driver calls that are firmware commands on a ConnectX
# (fakeroce's debugfs fw/commands: MADs, hw_counters queries, ethtool -S,
# FEC statistics and mode, link settings, module EEPROM pages, DCB
# queries).  Over BENCH_FW_SECONDS (60) each: fabtel.ko at its defaults
# alone; fabtel.ko and fabteld (ko mode) at their defaults; fabteld alone
# (plain sysfs mode); fabtel.ko at sample_ms=100 slow_ms=100 (the sub-second
# choice).  Per port per second, each kind of command and the total.

# fabteld of this stage, started and stopped by its pid (nothing else's)
FW_PID=/tmp/bench-fw-fabteld.pid
fw_fabteld_start() {
	lab a -- "setsid $QB/fabteld --listen 127.0.0.1:9466 >/tmp/bench-fw-fabteld.log 2>&1 &
		echo \$! >$FW_PID"
}
fw_fabteld_stop() {
	lab a -- "kill \$(cat $FW_PID) && while kill -0 \$(cat $FW_PID) 2>/dev/null; do sleep 0.2; done; rm -f $FW_PID"
}

# the sum over the 16 ports of each kind's calls: "KIND CALLS" lines
fw_counts() {
	lab a -- 'cat /sys/kernel/debug/fakeroce/{0..15}/fw/commands' |
		awk '{ s[$1] += $2 } END { for (k in s) print k, s[k] }' | sort
}

# LABEL SECONDS: the counts' rise over SECONDS, per port per second
fw_window() {
	local label=$1 w=$2 before after
	sleep 5		# past the first reads of whatever just started
	before=$(fw_counts)
	sleep "$w"
	after=$(fw_counts)
	join <(echo "$before") <(echo "$after") | awk -v l="$label" -v w="$w" '
		{ r = ($3 - $2) / 16 / w; t += r; printf "  %-30s %-15s %6.2f\n", l, $1, r
		  printf "firmware %s_%s_per_port_s %.3f\n", l, $1, r >>"/dev/stderr" }
		END { printf "  %-30s %-15s %6.2f\n", l, "total", t
		      printf "firmware %s_total_per_port_s %.3f\n", l, t >>"/dev/stderr" }'
}

firmware_stage() {
	local w=${BENCH_FW_SECONDS:-60}
	lab_up
	lab a -- "rmmod fabtel fakeroce 2>/dev/null; insmod $QREPO/kmod/fakeroce.ko &&
		for i in \$(seq 0 15); do echo \"\$i mlx5\" >/sys/kernel/fakeroce/new_device &&
			ip link set fre\$i up || exit 1; done" ||
		{ echo "bench: 16 fakeroce ports could not be made" >&2; return 1; }
	{
		echo "bench: firmware: commands per port per second, 16 fakeroce mlx5 ports, $w s each"
		lab a -- "insmod $QREPO/kmod/fabtel.ko" || return 1
		fw_window fabtel.ko "$w"
		fw_fabteld_start || return 1
		fw_window fabtel.ko+fabteld "$w"
		fw_fabteld_stop && lab a -- "rmmod fabtel" || return 1
		fw_fabteld_start || return 1
		fw_window fabteld-plain "$w"
		fw_fabteld_stop && lab a -- "insmod $QREPO/kmod/fabtel.ko sample_ms=100 slow_ms=100" || return 1
		fw_window fabtel.ko-100ms "$w"
		lab a -- "rmmod fabtel"
	} 2>>"$OUT/results" | tee "$OUT/firmware.txt"
	lab a -- 'for i in $(seq 0 15); do echo $i >/sys/kernel/fakeroce/del_device; done; rmmod fakeroce' \
		>/dev/null 2>&1
}
