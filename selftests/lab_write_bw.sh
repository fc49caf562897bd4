#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_write_bw.sh - ib_write_bw moves data from a to b.  perftest's own
# iteration count is compared with rxe's packet counters on both sides and
# with eth0's byte counters (/sys/class/net).
. "$(dirname "$0")/lib.sh"

ITERS=200
SIZE=65536

ktap_begin 5

read_all() {
	local a b
	a=$(lab_read a /sys/class/infiniband/rxa/ports/1/hw_counters/sent_pkts \
		/sys/class/net/eth0/statistics/tx_bytes)
	b=$(lab_read b /sys/class/infiniband/rxb/ports/1/hw_counters/rcvd_pkts \
		/sys/class/net/eth0/statistics/rx_bytes)
	echo $a $b
}

mtu=$(lab a "ibv_devinfo -d rxa | sed -n 's/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p'")
read -r sent0 txb0 rcvd0 rxb0 < <(read_all)

out=$(write_bw "-n $ITERS -s $SIZE")
rc=$?
ktap_info "$(echo "$out" | tail -3)"

read -r sent1 txb1 rcvd1 rxb1 < <(read_all)
# perftest's result line: bytes, iterations, peak, average MB/s, Mpps
line=$(echo "$out" | awk -v s=$SIZE '$1 == s && NF >= 5')
iters=$(echo "$line" | awk '{print $2}')
avg=$(echo "$line" | awk '{print $4}')

ktap_eq "ib_write_bw completed $ITERS iterations" "$rc/$iters" "0/$ITERS"
if [[ $avg =~ ^[0-9.]+$ ]] && awk -v v="$avg" 'BEGIN { exit !(v > 0) }'; then
	ktap_pass "ib_write_bw reports a non-zero average ($avg MB/s)"
else
	ktap_fail "ib_write_bw reports a non-zero average" "line: $line"
fi
# each message is SIZE/mtu packets on the wire
need=$((ITERS * ((SIZE + mtu - 1) / mtu)))
ktap_ge "rxa sent_pkts rose by at least $need (mtu $mtu)" $((sent1 - sent0)) "$need"
ktap_ge "rxb rcvd_pkts rose by at least $need" $((rcvd1 - rcvd0)) "$need"
ktap_ge "a's eth0 tx_bytes and b's rx_bytes both carried the payload" \
	$(( (txb1 - txb0) < (rxb1 - rxb0) ? (txb1 - txb0) : (rxb1 - rxb0) )) $((ITERS * SIZE))

ktap_end
