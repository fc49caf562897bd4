#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_flap.sh - `fablab flap` is a real carrier loss: eth0's carrier counters
# (/sys/class/net) move by exactly 2 per flap, rxe's link_downed by 1, the
# port comes back ACTIVE, and the peer's carrier is untouched.
. "$(dirname "$0")/lib.sh"

ktap_begin 10

N=/sys/class/net/eth0
carrier() { lab_read "$1" $N/carrier_changes $N/carrier_up_count $N/carrier_down_count | xargs; }
downed() { rxe_counter a link_downed; }
port_active() { [[ $(lab_read a /sys/class/infiniband/rxa/ports/1/state) == "4: ACTIVE" ]]; }
settled() { # want-link_downed
	[[ $(downed) == "$1" ]] && port_active
}

# The kernel's linkwatch handles a carrier-down event at most once a second
# (net/core/link_watch.c: linkwatch_nextevent): a loss that starts within a
# second of the last link event and ends before linkwatch runs reaches the
# netdev notifiers as one NETDEV_CHANGE with the carrier up, so rxe neither
# sets the port down nor counts link_downed, though the carrier counters
# (and fabtel, which watches the carrier) count it.  A fresh lab's links
# came up just now: let that second pass before the first flap.
sleep 1.5
for count in 1 3; do
	read -r ch0 up0 dn0 < <(carrier a)
	read -r pch0 _ < <(carrier b)
	ld0=$(downed)
	"$FABLAB" flap a --count $count --down-ms 300
	wait_for 20 settled $((ld0 + count))
	read -r ch1 up1 dn1 < <(carrier a)
	read -r pch1 _ < <(carrier b)
	ktap_eq "flap x$count: a's carrier_changes +$((2 * count))" $((ch1 - ch0)) $((2 * count))
	ktap_eq "flap x$count: a's carrier_up/down_count +$count each" \
		"$((up1 - up0))/$((dn1 - dn0))" "$count/$count"
	ktap_eq "flap x$count: rxa link_downed +$count" $(($(downed) - ld0)) $count
	ktap_check "flap x$count: rxa port is ACTIVE again" port_active
	ktap_eq "flap x$count: b's carrier_changes unchanged" $((pch1 - pch0)) 0
done

ktap_end
