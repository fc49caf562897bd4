#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_fabtel.sh - fabtel.ko on the two rxe hosts.
#  - counters: after ib_write_bw under netem loss/reorder, every normalized
#    counter equals the rxe hw_counter it maps from (ib_core's own sysfs), and
#    every raw counter equals its hw_counter, on both hosts;
#  - link: fablab flap x3 -> flaps +3, 6 history transitions with increasing
#    timestamps and down times close to the real ones, checked against the
#    netdev's carrier counters (/sys/class/net); a 20 ms flap still counts;
#  - snapshot: whole, its flaps and the netdev's byte totals as the other
#    files say;
#  - DCB: virtio-net has no DCB ops -> pfc/ets say "unsupported";
#  - bad writes: read-only files and module parameters reject garbage.
. "$(dirname "$0")/lib.sh"

KO=${FABTEL_KO:-$KMOD/fabtel.ko}
FT=/sys/kernel/fabtel
HW=/sys/class/infiniband

# The rxe map, written out independently of the module (Documentation/counters.rst).
declare -A RXE_MAP=(
	[out_of_sequence]=out_of_seq_request
	[nak_seq_err_rcvd]=rcvd_seq_err
	[retry_exceeded]=retry_exceeded_err
	[rnr_nak_rcvd]=rcvd_rnr_err
	[rnr_nak_sent]=send_rnr_err
	[rnr_retry_exceeded]=retry_rnr_exceeded_err
	[duplicate_request]=duplicate_request
	[link_downed]=link_downed
	[rx_packets]=rcvd_pkts
	[tx_packets]=sent_pkts
)

ktap_begin 23

cleanup() {
	"$FABLAB" impair a clear >/dev/null 2>&1
	lab a 'pkill ib_write_bw' >/dev/null 2>&1
	lab b 'pkill ib_write_bw' >/dev/null 2>&1
	for h in a b; do lab "$h" 'rmmod fabtel' >/dev/null 2>&1; done	# as found
}
trap cleanup EXIT

for h in a b; do
	lab "$h" "rmmod fabtel 2>/dev/null; insmod $KO $KO_FAST"
	ktap_check "$h: insmod fabtel.ko; rx$h appears with driver rxe" \
		wait_for 10 lab "$h" "grep -qx rxe $FT/rx$h/driver"
done
P=$FT/rxa/ports/1

# ---- counters under real faults -------------------------------------------
"$FABLAB" impair a delay 1ms reorder 25% 50% loss 1%
write_bw "-D 4" >/dev/null
"$FABLAB" impair a clear

# Traffic has stopped; let two more samples pass so both views are settled
# (one sample period of skew at most, see the ABI document).
settle() { # host
	local s0
	s0=$(lab_read "$1" $FT/rx$1/ports/1/samples)
	wait_for 10 lab "$1" "(( \$(cat $FT/rx$1/ports/1/samples) >= $s0 + 2 ))"
}

compare() { # host -> mismatches on stdout, "ok N" when all equal
	local map
	map=$(for k in "${!RXE_MAP[@]}"; do printf '[%s]=%s ' "$k" "${RXE_MAP[$k]}"; done)
	lab "$1" "
		bad=0 n=0
		declare -A m=($map)
		for k in \"\${!m[@]}\"; do
			a=\$(cat $FT/rx$1/ports/1/counters/\$k) b=\$(cat $HW/rx$1/ports/1/hw_counters/\${m[\$k]})
			n=\$((n+1)); [[ \$a == \"\$b\" ]] || { echo \"\$k=\$a \${m[\$k]}=\$b\"; bad=1; }
		done
		for f in $HW/rx$1/ports/1/hw_counters/*; do
			c=\${f##*/}; [[ \$c == lifespan ]] && continue
			a=\$(cat $FT/rx$1/ports/1/counters/raw/\$c) b=\$(cat \$f)
			n=\$((n+1)); [[ \$a == \"\$b\" ]] || { echo \"raw \$c=\$a hw=\$b\"; bad=1; }
		done
		((bad)) || echo ok \$n"
}

for h in a b; do
	settle "$h"
	out=$(compare "$h")
	if [[ $out == "ok "* ]]; then
		ktap_pass "$h: all ${out#ok } normalized and raw counters equal rxe's hw_counters"
	else
		ktap_fail "$h: all normalized and raw counters equal rxe's hw_counters" "$out"
	fi
done
ktap_ge "a: nak_seq_err_rcvd moved under netem" "$(lab_read a $P/counters/nak_seq_err_rcvd)" 1
ktap_ge "b: out_of_sequence moved under netem" \
	"$(lab_read b $FT/rxb/ports/1/counters/out_of_sequence)" 1
absent=$(lab a "ls $P/counters/ | grep -cx -e local_ack_timeout -e cnp_sent -e ecn_marked_rx")
ktap_eq "rxe has no local_ack_timeout/cnp_sent/ecn_marked_rx: absent, not 0" "$absent" 0
ev=$(lab a "grep -c ' nak_seq_err_rcvd ' $P/events")
ktap_ge "a: error-burst events logged for nak_seq_err_rcvd" "$ev" 1

# ---- link ------------------------------------------------------------------
N=/sys/class/net/eth0
read -r flaps0 tr0 < <(lab a "echo \$(cat $P/link/flaps) \$(grep -c . $P/link/history)")
read -r ch0 < <(lab_read a $N/carrier_changes)
"$FABLAB" flap a --count 3 --down-ms 300 >/dev/null 2>&1
wait_for 20 lab a "(( \$(cat $P/link/flaps) >= $flaps0 + 3 ))"
read -r flaps1 tr1 < <(lab a "echo \$(cat $P/link/flaps) \$(grep -c . $P/link/history)")
ch1=$(lab_read a $N/carrier_changes)
ktap_eq "flap x3: link/flaps +3" $((flaps1 - flaps0)) 3
ktap_eq "flap x3: 6 new history lines, as many as carrier_changes moved" \
	"$((tr1 - tr0))/$((ch1 - ch0))" "6/6"
hist=$(lab a "tail -6 $P/link/history")
ktap_info "$hist"
ktap_check "history: down/up alternate, source carrier, boottime and wall clock increase" \
	awk 'BEGIN { want = "down" }
	     $3 != want || $4 != "carrier" || (NR > 1 && ($1 <= b || $2 <= r)) { exit 1 }
	     { b = $1; r = $2; want = (want == "down" ? "up" : "down") }
	     END { exit NR != 6 }' <<<"$hist"
ktap_check "history: each down lasted 300 ms within a sample period or two (100-900 ms)" \
	awk '$3 == "up" && ($5 < 100e6 || $5 > 900e6) { exit 1 }' <<<"$hist"
ktap_eq "link/carrier_*_count equal /sys/class/net's" \
	"$(lab a "echo \$(cat $P/link/carrier_up_count $P/link/carrier_down_count)")" \
	"$(lab a "echo \$(cat $N/carrier_up_count $N/carrier_down_count)")"

# A 20 ms down may not reach the guest: virtio-net reads the link status
# in a work item, which under TCG can run after the link is up again (no
# carrier change at all).  The flap is made again until the netdev's own
# carrier_down_count saw one (3 tries); fabtel.ko must count what it saw.
ld0=$(rxe_counter a link_downed)
f0=$(lab_read a $P/link/flaps)
d0=$(lab_read a $N/carrier_down_count)
for try in 1 2 3; do
	"$FABLAB" flap a --down-ms 20 >/dev/null 2>&1
	wait_for 5 lab a "(( \$(cat $N/carrier_down_count) > $d0 ))" && break
	ktap_info "try $try: the guest's netdev saw no carrier change for the 20 ms down"
done
d1=$(lab_read a $N/carrier_down_count)
wait_for 10 lab a "(( \$(cat $P/link/flaps) >= $f0 + $d1 - $d0 ))"
ktap_eq "a 20 ms flap counts as one flap (as many as carrier_down_count moved: $((d1 - d0)))" \
	"$(($(lab_read a $P/link/flaps) - f0))/$((d1 - d0))" 1/1
ktap_info "rxe link_downed moved by $(($(rxe_counter a link_downed) - ld0)) for it (linkwatch may hide it from rxe)"
ktap_eq "link/state agrees with ib_core's port state" \
	"$(lab_read a $P/link/state)" "$(lab_read a $HW/rxa/ports/1/state | sed 's/^[0-9]*: //')"

# ---- DCB -------------------------------------------------------------------
ktap_eq "virtio-net has no DCB ops: pfc/status, ets/status" \
	"$(lab a "echo \$(cat $P/pfc/status $P/ets/status)")" "unsupported unsupported"
ktap_eq "no PFC/ETS values invented" "$(lab a "ls $P/pfc $P/ets | grep -vc -e status -e : -e '^\$'")" 0

# ---- snapshot --------------------------------------------------------------
snap=$(lab a "cat $P/snapshot")
ktap_check "snapshot: versioned header, complete (ends with 'end')" \
	bash -c '[[ $(head -1 <<<"$1") == "fabtel-snapshot 1" && $(tail -1 <<<"$1") == end ]]' _ "$snap"
ktap_eq "snapshot's flaps equal link/flaps" \
	"$(awk '$1 == "link_flaps" {print $2}' <<<"$snap")" "$(lab_read a $P/link/flaps)"
# The netdev's byte totals are read when the snapshot is: between two reads
# of its statistics/ files (a wrote far more than it received: a swap shows).
nd=$(lab_read a $P/netdev)
out=$(lab a "S=/sys/class/net/$nd/statistics; echo \$(cat \$S/rx_bytes \$S/tx_bytes);
	awk '\$1 ~ /^netdev_.x_bytes\$/ { printf \"%s \", \$2 }' $P/snapshot; echo;
	echo \$(cat \$S/rx_bytes \$S/tx_bytes)")
ktap_check "snapshot netdev_rx_bytes, netdev_tx_bytes within /sys/class/net/$nd/statistics read around it ($(xargs <<<"$out"))" \
	awk 'NR == 1 { r0 = $1; t0 = $2 } NR == 2 { r = $1; t = $2 } NR == 3 { r1 = $1; t1 = $2 }
	     END { exit !(NR == 3 && r0 <= r && r <= r1 && t0 <= t && t <= t1 && t0 > r1) }' <<<"$out"

ktap_eq "snapshot netdev_ifindex is /sys/class/net/$nd/ifindex" \
	"$(awk '$1 == "netdev_ifindex" { print $2 }' <<<"$snap")" "$(lab_read a /sys/class/net/$nd/ifindex)"

# ---- bad writes --------------------------------------------------------------
# sysfs refuses to open a read-only file for writing (EACCES) before any
# fabtel code runs; module parameters reach fabtel's parser (EINVAL).
f0=$(lab_read a $P/link/flaps)
out=$(lab a "(echo 5 > $P/link/flaps) 2>&1; echo rc=\$?; cat $P/link/flaps")
ktap_eq "write to a read-only file: Permission denied, value unchanged" \
	"$(sed 's/.*: //' <<<"$out" | xargs)" "Permission denied rc=1 $f0"
prm=/sys/module/fabtel/parameters/sample_ms
out=$(lab a "for v in garbage 5 60001 -1 ''; do (echo \"\$v\" > $prm) 2>&1 | sed 's/.*: //'; done; cat $prm")
ktap_eq "sample_ms: each bad value gets Invalid argument, 100 kept" \
	"$(xargs <<<"$out")" "$(printf 'Invalid argument %.0s' 1 2 3 4 5)100"

ktap_end
