#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_rxe.sh - the two Soft-RoCE devices are up and reach each other.
# Sources: `rdma link` (RDMA netlink), the port's sysfs state, eth0's own
# sysfs (speed set by QEMU), the guests' kernel log, and an RC ping-pong.
. "$(dirname "$0")/lib.sh"

ktap_begin 11

for h in a b; do
	link=$(lab "$h" rdma link show "rx$h/1")
	if [[ $link == *"state ACTIVE"*"netdev eth0"* ]]; then
		ktap_pass "rx$h: rdma link says ACTIVE over eth0"
	else
		ktap_fail "rx$h: rdma link says ACTIVE over eth0" "got: $link"
	fi
	ktap_eq "rx$h: sysfs port state" \
		"$(lab_read "$h" /sys/class/infiniband/rx$h/ports/1/state)" "4: ACTIVE"
	ktap_eq "rx$h: sysfs link_layer" \
		"$(lab_read "$h" /sys/class/infiniband/rx$h/ports/1/link_layer)" "Ethernet"
	ktap_eq "$h: eth0 speed set by QEMU (Mb/s)" \
		"$(lab_read "$h" /sys/class/net/eth0/speed)" 100000
	warn=$(lab "$h" 'dmesg | grep -i "speed is unknown"')
	ktap_eq "$h: no 'speed is unknown' warning from the RoCE port query" "$warn" ""
done

# An RC QP exchange between the hosts over the IPv4 GID (index 1).
lab b 'ibv_rc_pingpong -d rxb -g 1 -n 20 >/tmp/pp-srv.log 2>&1' &
srv=$!
wait_for 20 lab b 'ss -ltn | grep -q ":18515 "'
out=$(lab a 'ibv_rc_pingpong -d rxa -g 1 -n 20 10.77.0.2' 2>&1)
rc=$?
wait "$srv"
if ((rc == 0)) && [[ $out == *"20 iters"* ]]; then
	ktap_pass "ibv_rc_pingpong a -> b: 20 round trips"
else
	ktap_fail "ibv_rc_pingpong a -> b: 20 round trips" "rc=$rc: $out"
fi

ktap_end
