#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_reset.sh - the reset run.sh applies between the suites that share one
# booted lab (scripts/lab/guest-state) is complete: guest a is dirtied in
# every way a suite can leave it (fabtel.ko and fakeroce.ko loaded with a
# device, an extra rxe and a dummy link, netem and clsact qdiscs, an extra
# address, eth1 down, a process named as fabteld, a BPF pin); each shows in
# the state; after the reset the state equals the one before, aspect by
# aspect, and Soft-RoCE works again: an RDMA WRITE from a to b, counted by
# rxa's own hw_counters.
. "$(dirname "$0")/lib.sh"

GS="bash $REPO/scripts/lab/guest-state"
T=$(mktemp -d)
trap 'rm -rf "$T"; lab a "rm -rf /tmp/reset-test"' EXIT

aspect() { awk -v a="$1:" '$1 == a { $1 = ""; print }' "$2"; }
ASPECTS=(modules rdma links addrs qdiscs procs bpffs)

ktap_begin $((2 * ${#ASPECTS[@]} + 3))

lab a "$GS print" >"$T/before"
ktap_info "$(cat "$T/before")"

lab a "insmod $KMOD/fakeroce.ko; echo '0 mlx5' >/sys/kernel/fakeroce/new_device
	insmod $KMOD/fabtel.ko
	rdma link add rxreset type rxe netdev eth1
	ip link add dumreset type dummy
	tc qdisc add dev eth0 root netem delay 1ms
	tc qdisc add dev eth1 clsact
	ip addr add 10.77.0.97/24 dev eth0
	ip link set eth1 down
	mkdir -p /tmp/reset-test && cp /bin/sleep /tmp/reset-test/fabteld
	setsid /tmp/reset-test/fabteld 600 </dev/null >/dev/null 2>&1 &
	bpftool map create /sys/fs/bpf/fabtel_reset_test type array key 4 value 4 entries 1 name reset_test" \
	>"$T/dirty.log" 2>&1
ktap_info "$(cat "$T/dirty.log")"
lab a "$GS print" >"$T/dirty"
ktap_info "$(cat "$T/dirty")"
for a in "${ASPECTS[@]}"; do
	ktap_check "dirtied: $a moved ($(aspect "$a" "$T/dirty" | xargs))" \
		test "$(aspect "$a" "$T/dirty")" != "$(aspect "$a" "$T/before")"
done

ktap_check "guest-state reset" lab a "$GS reset"
lab a "$GS print" >"$T/after"
for a in "${ASPECTS[@]}"; do
	ktap_eq "after the reset: $a as before" "$(aspect "$a" "$T/after")" "$(aspect "$a" "$T/before")"
done

ktap_check "rxa/1 ACTIVE again" \
	wait_for 10 bash -c "$(declare -f lab); lab a rdma link show rxa/1 | grep -q 'state ACTIVE'"
w0=$(rxe_counter a sent_pkts)
out=$(write_bw "-n 20 -s 4096")
rc=$?
w1=$(rxe_counter a sent_pkts)
ktap_check "an RDMA WRITE a -> b runs (exit $rc), rxa's sent_pkts $w0 -> $w1" \
	test "$rc" -eq 0 -a "${w1:-0}" -gt "${w0:-0}"

ktap_end
