#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fablab: guest=a
# timeout: 900
#
# lab_fabtel_budget.sh - what fabtel.ko and fabteld (at their defaults) ask
# of a NIC's firmware, counted by fakeroce (debugfs fw/commands), and the
# shapes of real hosts:
#  - a fakeroce mlx5 port whose PMA and hw_counters fail for 2 minutes
#    (BUDGET_WINDOW_S=600: the 10-minute run): fabtel.ko and fabteld try
#    them at most 10 times after the first minute,
#    fabtel.ko logs at most 3 lines about it, the port's carrier, flaps and
#    PFC keep flowing, /metrics says the reads are unavailable, and when the
#    firmware answers again the values return within the back-off;
#  - meanwhile a healthy mlx5 port costs at most 5 commands a second
#    (Documentation/performance.rst, "Firmware commands");
#  - devices left out by name glob and by driver (fabtel.ko's exclude and
#    exclude_drivers, fabteld's exclude_devices and exclude_drivers) have no
#    directory, no series and cost no command at all;
#  - a RoCE device over a bond (rxe on bond0 of two dummy links, as
#    mlx5_bond_0 over bond0): one link down for 300 ms is one flap of the
#    port naming the link, while the bond's carrier never drops.
# Runs inside guest a; about 3 minutes (15 with BUDGET_WINDOW_S=600).
. "$(dirname "$0")/lib.sh"

FT=/sys/kernel/fabtel
FR=/sys/kernel/fakeroce
DBG=/sys/kernel/debug/fakeroce
FABTELD=${FABTELD:-$REPO/build/fabteld}
PORT=19478
WINDOW=${BUDGET_WINDOW_S:-120}	# how long the firmware refuses (whole minutes)
BUDGET=5			# commands per second per port (performance.rst)

ktap_begin 22

cleanup() {
	[[ -n ${fpid:-} ]] && kill "$fpid" 2>/dev/null && wait "$fpid" 2>/dev/null
	rdma link delete rxbond 2>/dev/null
	ip link del bond0 2>/dev/null
	ip link del fbd0 2>/dev/null
	ip link del fbd1 2>/dev/null
	for id in 0 1 2 9; do echo $id >$FR/del_device 2>/dev/null; done
	rmmod fabtel fakeroce 2>/dev/null
}
trap cleanup EXIT

val() { cat "$1" 2>/dev/null; }
# fw ID KIND [calls|failed]: fakeroce<ID>'s count of that kind of command
fw() { awk -v k="$2" -v c="${3:-calls}" '$1 == k { print c == "calls" ? $2 : $3 }' "$DBG/$1/fw/commands"; }
fw_all() { awk '{ s += $2 } END { print s + 0 }' "$DBG/$1/fw/commands"; }
src() { # ID SOURCE: "STATE ERRNO FAILURES RETRY_MS" of fabtel.ko's read
	awk -v s="$2" '$1 == "source" && $2 == s { print $3, $4, $5, $6 }' "$FT/fakeroce$1/ports/1/snapshot"
}
metrics() { curl -sf --max-time 5 "http://127.0.0.1:$PORT/metrics"; }
# fabtel.ko's pma and hw_counters reads of fakeroce0 in /metrics: up, errno
src_series() {
	metrics | grep -E '^fabtel_port_source_(up|errno)\{device="fakeroce0",port="1",[^}]*source="(pma|hw_counters)",reader="fabtel.ko"\}'
}
export -f src_series metrics
export PORT

modprobe ib_core && modprobe bonding && modprobe dummy && modprobe rdma_rxe
rmmod fabtel fakeroce 2>/dev/null
insmod "$KMOD/fabtel.ko" exclude=fakeroce9 exclude_drivers=irdma && insmod "$KMOD/fakeroce.ko"
ktap_eq "fabtel.ko's defaults: sample_ms slow_ms module_ms" \
	"$(cd /sys/module/fabtel/parameters && cat sample_ms slow_ms module_ms | xargs)" "1000 10000 10000"

for d in "0 mlx5" "1 mlx5" "9 mlx5" "2 irdma"; do echo "$d" >$FR/new_device; done
for id in 0 1 2 9; do ip link set "fre$id" up; done
ktap_check "fakeroce0 and fakeroce1 tracked" wait_for 10 test -d $FT/fakeroce0 -a -d $FT/fakeroce1
ktap_eq "fakeroce9 (exclude=fakeroce9) and fakeroce2 (exclude_drivers=irdma): no directory, a log line each" \
	"$(ls $FT | grep -c 'fakeroce[29]') $(dmesg | grep -c 'fabtel: fakeroce9: not tracked (driver mlx5): left out by the exclude parameter') $(dmesg | grep -c 'fabtel: fakeroce2: not tracked (driver irdma): left out by the exclude_drivers parameter')" \
	"0 1 1"

# ---- a RoCE device over a bond ----------------------------------------------------
ip link add bond0 type bond mode active-backup miimon 100
ip link add fbd0 type dummy
ip link add fbd1 type dummy
ip link set fbd0 master bond0 && ip link set fbd1 master bond0
ip link set bond0 up
rdma link add rxbond type rxe netdev bond0
ktap_check "rxbond (rxe over bond0): the snapshot lists both links up (lag_link fbd0 1, fbd1 1)" \
	wait_for 10 bash -c "[[ \$(awk '\$1 == \"lag_link\" { print \$2, \$3 }' $FT/rxbond/ports/1/snapshot | sort | xargs) == 'fbd0 1 fbd1 1' ]]"

# ---- fabteld, ko mode, with its own exclusions --------------------------------------
# (ib_core itself asks each new device once: a MAD and hw_counters at registration)
ex0="$(cat $DBG/9/fw/commands $DBG/2/fw/commands | xargs)"
"$FABTELD" --listen "127.0.0.1:$PORT" --set exclude_devices=fakeroce9 --set exclude_drivers=irdma \
	>/tmp/budget-fabteld.log 2>&1 &
fpid=$!
ktap_check "fabteld answers /metrics, reading fabtel.ko" \
	wait_for 30 bash -c "curl -sf http://127.0.0.1:$PORT/metrics | grep -q 'device=\"fakeroce1\"'"

# ---- the firmware refuses fakeroce0's PMA and hw_counters ---------------------------
MARK="fabtel-budget-mark-$$-$RANDOM"
echo "$MARK" >/dev/kmsg
echo 4294967295 >$DBG/0/fail_next_get_hw_stats
echo 4294967295 >$DBG/0/fail_next_mad
t0=$SECONDS
# each minute of the window, from its start whatever the checks below take:
# "MINUTE EPOCH_S REFUSED(fakeroce0) KIND=CALLS...(fakeroce1)"
MIN_LOG=/tmp/budget-minutes.log
: >$MIN_LOG
(
	start=$(date +%s)
	for ((m = 1; m <= WINDOW / 60; m++)); do
		d=$((start + 60 * m - $(date +%s)))
		((d > 0)) && sleep "$d"
		echo "$m $(date +%s) $(($(fw 0 hw_stats failed) + $(fw 0 mad failed))) $(awk '{ printf "%s=%s ", $1, $2 }' $DBG/1/fw/commands)"
	done >>$MIN_LOG
) &
minpid=$!
ktap_check "fabtel.ko: source hw_counters and pma 'unavailable -5' in the snapshot" \
	wait_for 20 bash -c "[[ \$(awk '\$1 == \"source\" && (\$2 == \"pma\" || \$2 == \"hw_counters\") { print \$3, \$4 }' $FT/fakeroce0/ports/1/snapshot | xargs) == 'unavailable -5 unavailable -5' ]]"
ktap_check "/metrics: fabtel_port_source_up 0 for pma and hw_counters, errno 5" \
	wait_for 10 bash -c "[[ \$(src_series | awk '{ print \$2 }' | sort | xargs) == '0 0 5 5' ]]"

f0=$(val $FT/fakeroce0/ports/1/link/flaps)
echo 1 >$DBG/0/flap_coalesced
ktap_check "its carrier still flows: a flap counted (link/flaps $f0 -> +1)" \
	wait_for 10 bash -c "[[ \$(cat $FT/fakeroce0/ports/1/link/flaps) == $((f0 + 1)) ]]"
echo 8 >$DBG/0/dcb/pfc_en
echo +4321 >$DBG/0/dcb/prio3_requests
ktap_check "its PFC still flows: pfc/prio3/pause_tx = fakeroce's requests" \
	wait_for 10 bash -c "[[ \$(cat $FT/fakeroce0/ports/1/pfc/prio3/pause_tx) == \$(cat $DBG/0/dcb/prio3_requests) ]]"

# ---- one link of the bond down for 300 ms -------------------------------------------
B=$FT/rxbond/ports/1
bf0=$(val $B/link/flaps)
bcc0=$(val /sys/class/net/bond0/carrier_changes)
dcc0=$(val /sys/class/net/fbd0/carrier_changes)
ip link set fbd0 carrier off
sleep 0.3
ip link set fbd0 carrier on
ktap_check "fbd0 down 300 ms: rxbond's link/flaps +1" \
	wait_for 10 bash -c "[[ \$(cat $B/link/flaps) == $((bf0 + 1)) ]]"
ktap_eq "... as fbd0's own carrier_changes (+2); bond0's did not move, its carrier stayed 1" \
	"$(($(val /sys/class/net/fbd0/carrier_changes) - dcc0)) $(($(val /sys/class/net/bond0/carrier_changes) - bcc0)) $(val /sys/class/net/bond0/carrier)" \
	"2 0 1"
hist=$(tail -2 $B/link/history)
ktap_info "$hist"
ktap_eq "link/history: a down and an up of source slave naming fbd0" \
	"$(awk '{ print $3, $4, $6 }' <<<"$hist" | xargs)" "down slave fbd0 up slave fbd0"
down_ms=$(($(awk 'NR == 2 { print $5 }' <<<"$hist") / 1000000))
ktap_check "the up's down_ns is the 300 ms down (${down_ms} ms, linkwatch may add up to 1 s)" \
	test "$down_ms" -ge 300 -a "$down_ms" -lt 1500
ktap_check "fabteld: rxbond's fabtel_link_flaps_total = the kernel's link/flaps" \
	wait_for 10 bash -c "[[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '\$1 ~ /^fabtel_link_flaps_total\\{device=\"rxbond\"/ { print \$2 }') == \$(cat $B/link/flaps) ]]"

ktap_eq "fabteld: no series of fakeroce9 or fakeroce2 (exclude_devices, exclude_drivers)" \
	"$(metrics | grep -c 'device="fakeroce[29]"')" 0

# ---- the firmware budget of the healthy port, and the failing port's tries ------------
wait $minpid
ktap_info "$(cat $MIN_LOG)"
# minute M's line: its time, fakeroce0's refused calls, fakeroce1's count of KIND
at() { awk -v m="$1" '$1 == m { print $2 }' $MIN_LOG; }
refused() { awk -v m="$1" '$1 == m { print $3 }' $MIN_LOG; }
count() { awk -v m="$1" -v k="$2" '$1 == m { for (i = 4; i <= NF; i++) { split($i, a, "="); if (a[1] == k || k == "total") s += a[2] } } END { print s + 0 }' $MIN_LOG; }
last=$((WINDOW / 60))
span=$(($(at $last) - $(at 1)))
table="fakeroce1 (mlx5, healthy), commands per second over ${span} s:"
for k in hw_stats mad ethtool_stats fec_stats fecparam link_ksettings module_eeprom dcb total; do
	table+=$(printf '\n  %-15s %6.2f' "$k" "$(bc -l <<<"($(count $last $k) - $(count 1 $k)) / $span")")
done
rate=$(bc -l <<<"($(count $last total) - $(count 1 total)) / $span")
ktap_info "$table"
ktap_check "a healthy mlx5 port at the defaults: $(printf %.2f "$rate") commands/s <= $BUDGET" \
	test "$(bc <<<"$rate <= $BUDGET")" = 1
after=$(($(refused $last) - $(refused 1)))
ktap_info "fakeroce0: $(refused 1) refused commands in the first minute, $after in the next $((last - 1))"
ktap_check "the refused PMA and hw_counters tried $after times after the first minute (<= 10)" \
	test "$after" -le 10
klines=$(dmesg | sed -n "/$MARK/,\$p" | grep -c 'fabtel: fakeroce0 ')
ktap_info "$(dmesg | sed -n "/$MARK/,\$p" | grep 'fabtel: fakeroce0 ')"
ktap_check "fabtel.ko's kernel log: $klines lines about it (<= 3)" test "$klines" -le 3
ktap_eq "the excluded devices were asked nothing meanwhile (fakeroce9, fakeroce2 fw/commands)" \
	"$(cat $DBG/9/fw/commands $DBG/2/fw/commands | xargs)" "$ex0"

# ---- the firmware answers again ---------------------------------------------------------
retry=$(for s in hw_counters pma; do src 0 $s | awk '{ print $4 }'; done | sort -n | tail -1)
echo 777 >$DBG/0/counters/out_of_sequence
echo 55 >$DBG/0/pma/symbol_error
echo 0 >$DBG/0/fail_next_get_hw_stats
echo 0 >$DBG/0/fail_next_mad
ktap_info "back-off at the firmware's return: ${retry} ms"
back() {
	[[ $(cat $FT/fakeroce0/ports/1/counters/out_of_sequence) == 777 ]] &&
		grep -qx 'pma_counter symbol_error 55' $FT/fakeroce0/ports/1/snapshot
}
ktap_check "values return within the back-off (${retry} ms + 2 samples): out_of_sequence 777, symbol_error 55" \
	wait_for $((retry / 1000 + 3)) back
ktap_eq "fabtel.ko: both reads ok again" "$(src 0 hw_counters | cut -d' ' -f1) $(src 0 pma | cut -d' ' -f1)" "ok ok"
ktap_check "/metrics: fabtel_port_source_up 1 for both, no errno series" \
	wait_for 5 bash -c "[[ \$(src_series | awk '{ print \$2 }' | xargs) == '1 1' ]]"

ktap_end
