#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fablab: guest=a
#
# lab_fabtel_fakeroce.sh - fabtel.ko against simulated NICs (fakeroce.ko),
# for what the lab's rxe cannot show:
#  - each personality's vendor counters (set through fakeroce's debugfs)
#    appear under the right normalized name; what the vendor lacks is absent;
#  - mlx5's 32-bit Q counters are extended to 64 bits across a wrap;
#  - a failing get_hw_stats skips the sample, counts it, keeps old values;
#  - PFC: priority 3 pausing for longer than storm_ms is a storm, shorter
#    is not; ETS and PFC config read back as iproute2's dcb tool sees them;
#  - a down/up faster than linkwatch still counts as a flap.
# Runs inside guest a.
. "$(dirname "$0")/lib.sh"

FT=/sys/kernel/fabtel
FR=/sys/kernel/fakeroce
DBG=/sys/kernel/debug/fakeroce

# Vendor counter -> normalized counter, written out from Documentation/counters.rst.
MAP_mlx5="out_of_sequence:out_of_sequence packet_seq_err:nak_seq_err_rcvd
implied_nak_seq_err:implied_nak_seq_err local_ack_timeout_err:local_ack_timeout
rnr_nak_retry_err:rnr_nak_rcvd duplicate_request:duplicate_request
out_of_buffer:out_of_buffer np_cnp_sent:cnp_sent rp_cnp_handled:cnp_handled
rp_cnp_ignored:cnp_ignored np_ecn_marked_roce_packets:ecn_marked_rx
rx_icrc_encapsulated:icrc_err req_cqe_error:req_cqe_err resp_cqe_error:resp_cqe_err"
MAP_bnxt_re="oos_drop_count:out_of_sequence seq_err_naks_rcvd:nak_seq_err_rcvd
to_retransmits:local_ack_timeout max_retry_exceeded:retry_exceeded
rnr_naks_rcvd:rnr_nak_rcvd dup_req:duplicate_request
rx_out_of_buffer:out_of_buffer rx_pkts:rx_packets tx_pkts:tx_packets
rx_bytes:rx_bytes tx_bytes:tx_bytes"
MAP_irdma="cnpSent:cnp_sent cnpHandled:cnp_handled cnpIgnored:cnp_ignored
RxECNMrkd:ecn_marked_rx RxUDP:rx_packets TxUDP:tx_packets"
ALL="out_of_sequence nak_seq_err_rcvd implied_nak_seq_err local_ack_timeout
retry_exceeded rnr_nak_rcvd rnr_nak_sent rnr_retry_exceeded duplicate_request
out_of_buffer cnp_sent cnp_handled cnp_ignored ecn_marked_rx icrc_err
req_cqe_err resp_cqe_err link_downed rx_packets tx_packets rx_bytes tx_bytes"

ktap_begin 47

cleanup() {
	echo 100 >/sys/module/fabtel/parameters/storm_ms 2>/dev/null
	echo off >$DBG/0/ramp 2>/dev/null
	for id in 0 1 2; do echo $id >$FR/del_device 2>/dev/null; done
	rmmod fabtel fakeroce 2>/dev/null
}
trap cleanup EXIT

modprobe ib_core
rmmod fabtel fakeroce 2>/dev/null
insmod "$KMOD/fabtel.ko" $KO_FAST && insmod "$KMOD/fakeroce.ko"
ktap_check "fabtel.ko and fakeroce.ko loaded" test -d $FT -a -w $FR/new_device

val() { cat "$1" 2>/dev/null; }	# empty when unreadable (ENODATA, absent)
is() { [[ $(val "$1") == "$2" ]]; }	# for wait_for: re-read on every poll
ge() { [[ $(val "$1") -ge $2 ]]; }

# ---- personalities -----------------------------------------------------------
id=0
for pers in mlx5 bnxt_re irdma; do
	echo "$id $pers" >$FR/new_device
	ip link set "fre$id" up
	P=$FT/fakeroce$id/ports/1
	wait_for 10 is $FT/fakeroce$id/driver "$pers"
	map=MAP_$pers
	bad="" n=0 v=1000
	for pair in ${!map}; do
		src=${pair%%:*} dst=${pair##*:}
		v=$((v + 7))
		echo "$v" >"$DBG/$id/counters/$src"
		wait_for 5 is "$P/counters/$dst" "$v" || bad+=" $src->$dst=$(val "$P/counters/$dst")(want $v)"
		n=$((n + 1))
	done
	ktap_eq "$pers: each of $n vendor counters shows under its normalized name" "$bad" ""
	want=$(for pair in ${!map}; do echo "${pair##*:}"; done | sort | xargs)
	have=$(for c in $ALL; do [[ -e $P/counters/$c ]] && echo "$c"; done | sort | xargs)
	ktap_eq "$pers: only mapped counters exist, the rest are absent" "$have" "$want"
	id=$((id + 1))
done

# ---- 32-bit wrap (mlx5 Q counter) --------------------------------------------
P=$FT/fakeroce0/ports/1
C=$DBG/0/counters/out_of_sequence
echo 4294967290 >$C
wait_for 5 is $P/counters/out_of_sequence 4294967290
echo +10 >$C
wait_for 5 is $P/counters/raw/out_of_sequence 4
ktap_eq "mlx5 out_of_sequence wraps in the driver: raw 4294967290 + 10 -> 4" \
	"$(val $P/counters/raw/out_of_sequence)" 4
ktap_eq "fabtel extends it: normalized 4294967300" "$(val $P/counters/out_of_sequence)" 4294967300
# a firmware reset from between 2^31 and 2^32: read as a wrap it would add
# 1.29e9 in one 100 ms sample, which no NIC does
echo 3000000000 >$C
wait_for 5 is $P/counters/raw/out_of_sequence 3000000000
n0=$(val $P/counters/out_of_sequence)
echo 5 >$C
wait_for 5 is $P/counters/raw/out_of_sequence 5
sleep 0.3
ktap_eq "a drop from 3e9 to 5 is a reset, not a wrap: normalized +5 (raw 5)" \
	"$(($(val $P/counters/out_of_sequence) - n0))" 5

# ---- failing get_hw_stats ------------------------------------------------------------
# (a 32-bit counter only moves forward here: lowering it would be a wrap)
C=$DBG/0/counters/packet_seq_err
v0=$(val $P/counters/nak_seq_err_rcvd)
echo +111 >$C
wait_for 5 is $P/counters/nak_seq_err_rcvd $((v0 + 111))
e0=$(val $P/sample_errors)
echo 1000000 >$DBG/0/fail_next_get_hw_stats
echo +111 >$C
wait_for 5 ge $P/sample_errors $((e0 + 3))
ktap_ge "failed samples are counted in sample_errors" $(($(val $P/sample_errors) - e0)) 3
ktap_eq "while they fail, the old value is kept" "$(val $P/counters/nak_seq_err_rcvd)" $((v0 + 111))
echo 0 >$DBG/0/fail_next_get_hw_stats
ktap_check "once they succeed again, the new value shows (after the back-off, at most 8 s here)" \
	wait_for 10 is $P/counters/nak_seq_err_rcvd $((v0 + 222))

# ---- PFC and ETS ----------------------------------------------------------------------
D=$DBG/0/dcb
echo 8 >$D/pfc_en				# priority 3
echo "0 0 0 1 0 0 0 0" >$D/prio_tc
echo "60 40 0 0 0 0 0 0" >$D/tc_bw
echo "2 2 0 0 0 0 0 0" >$D/tc_tsa		# IEEE 802.1Qaz ETS
wait_for 5 is $P/pfc/enabled_mask 0x08
ktap_eq "pfc: status, enabled_mask, prio3/enabled, prio0/enabled" \
	"$(val $P/pfc/status) $(val $P/pfc/enabled_mask) $(val $P/pfc/prio3/enabled) $(val $P/pfc/prio0/enabled)" \
	"supported 0x08 1 0"
if command -v dcb >/dev/null; then
	ktap_check "iproute2 dcb sees PFC enabled on priority 3 alone" \
		bash -c 'dcb pfc show dev fre0 prio-pfc | grep -q "3:on" &&
			! dcb pfc show dev fre0 prio-pfc | grep -q "[0-24-7]:on"'
else
	ktap_skip "iproute2 dcb sees PFC on priority 3" "no dcb tool in this iproute2"
fi
ktap_eq "ets: prio_tc, tc0_bw, tc1_bw, tc0_tsa" \
	"$(val $P/ets/prio_tc)|$(val $P/ets/tc0_bw) $(val $P/ets/tc1_bw) $(val $P/ets/tc0_tsa)" \
	"0 0 0 1 0 0 0 0|60 40 2"
# skipped DCB reads (RTNL busy): a count, and the snapshot says at least as many
skips=$(val $P/pfc/busy_skips)
snap_skips=$(sed -n 's/^dcb_busy_skips //p' $P/snapshot)
ktap_check "pfc/busy_skips ($skips) is a count; the snapshot's dcb_busy_skips ($snap_skips) no fewer" \
	bash -c "[[ '$skips' =~ ^[0-9]+\$ && '$snap_skips' =~ ^[0-9]+\$ ]] && (($snap_skips >= $skips))"

echo 1000 >/sys/module/fabtel/parameters/storm_ms
echo 5000 >$D/prio3_requests_rate		# pausing for ~300 ms < storm_ms
sleep 0.3
echo 0 >$D/prio3_requests_rate
wait_for 5 is $P/pfc/prio3/pause_tx "$(val $D/prio3_requests)"
ktap_eq "300 ms of pausing with storm_ms 1000: no storm" \
	"$(val $P/pfc/prio3/storm) $(val $P/pfc/prio3/storm_events)" "0 0"
echo 100 >/sys/module/fabtel/parameters/storm_ms
echo 5000 >$D/prio3_requests_rate		# and now for longer than storm_ms
ktap_check "pause_tx rising past storm_ms (100): prio3/storm = 1" \
	wait_for 5 is $P/pfc/prio3/storm 1
echo 0 >$D/prio3_requests_rate
ktap_check "pausing stops: prio3/storm = 0" wait_for 5 is $P/pfc/prio3/storm 0
ktap_eq "one storm event, its time recorded, prio0 untouched" \
	"$(val $P/pfc/prio3/storm_events) $(( $(val $P/pfc/prio3/storm_last_ns) > 0 )) $(val $P/pfc/prio0/storm_events)" \
	"1 1 0"
ktap_eq "pause_tx equals what the NIC reports (ieee_pfc.requests)" \
	"$(val $P/pfc/prio3/pause_tx)" "$(val $D/prio3_requests)"

# ---- IB port counters from the PMA ---------------------------------------------------
# fabtel.ko asks mlx5's PMA itself (two MADs a sample); ib_core's counters/
# files, each its own MAD decoded by ib_core, are the independent reader.
snap_pma() { awk '$1 == "pma_counter" { print $2, $3 }' "$FT/fakeroce$1/ports/1/snapshot"; }
files_pma() { # ID: the same counters from ib_core's counters/
	local f
	for f in $(snap_pma "$1" | cut -d' ' -f1); do echo "$f $(val "$IB/fakeroce$1/ports/1/counters/$f")"; done
}
IB=/sys/class/infiniband
for n in symbol_error:321 port_rcv_errors:17 link_error_recovery:4 local_link_integrity_errors:3 \
	excessive_buffer_overrun_errors:2 port_xmit_data:5000000000 port_rcv_packets:77777777777; do
	echo "${n#*:}" >"$DBG/0/pma/${n%:*}"
done
pma_same() { [[ -n $(snap_pma 0) && $(snap_pma 0) == "$(files_pma 0)" ]]; }
ktap_check "mlx5: every snapshot pma_counter equals ib_core's counters/ file (17 counters)" \
	wait_for 5 pma_same
ktap_eq "... 17 of them; extended width; symbol_error, port_xmit_data 64-bit" \
	"$(snap_pma 0 | wc -l) $(awk '$1 == "pma" { print $2 }' $P/snapshot) $(snap_pma 0 | awk '$1 == "symbol_error" || $1 == "port_xmit_data" { print $2 }' | xargs)" \
	"17 extended 321 5000000000"
ktap_eq "bnxt_re and irdma: 'pma unsupported', no pma_counter line" \
	"$(grep -h '^pma' $FT/fakeroce1/ports/1/snapshot $FT/fakeroce2/ports/1/snapshot | xargs)" \
	"pma unsupported pma unsupported"
e0=$(awk '$1 == "pma_errors" { print $2 }' $P/snapshot)
echo 1000000 >$DBG/0/fail_next_mad
echo +5 >$DBG/0/pma/symbol_error
dashes() { [[ $(snap_pma 0 | awk '$2 == "-"' | wc -l) == 17 ]]; }
ktap_check "a PMA that stops answering: every pma_counter '-' (not a stale or zero value)" \
	wait_for 5 dashes
ktap_ge "... each unanswered sample counted in pma_errors" \
	$(($(awk '$1 == "pma_errors" { print $2 }' $P/snapshot) - e0)) 1
echo 0 >$DBG/0/fail_next_mad
ktap_check "answered again: the new symbol_error (326) shows" \
	wait_for 10 bash -c "grep -qx 'pma_counter symbol_error 326' $P/snapshot"

# ---- FEC and speed through the netdev's ethtool ops -------------------------------
# Independent reader: ethtool itself (netlink FEC_GET, ksettings).
echo 5555 >$DBG/0/fec/corrected_blocks
echo 44 >$DBG/0/fec/uncorrectable_blocks
echo 777 >$DBG/0/fec/corrected_bits
snap_fec() {
	awk '$1 == "fec_stat" { print $2, $3 } $1 == "fec_mode" || $1 == "link_speed_mbps" { print $1, $2 }' \
		"$FT/fakeroce$1/ports/1/snapshot" | sort
}
eth_fec() {
	{ ethtool --json -I --show-fec "fre$1" | jq -r '.[0] |
		"fec_mode \(.active[0] | ascii_downcase)",
		(.statistics // {} | to_entries[] | "\(.key) \(.value.total)")'
	  echo "link_speed_mbps $(ethtool "fre$1" | awk '/Speed:/ { print $2 + 0 }')"; } | sort
}
fec_same() { [[ $(snap_fec 0) == "$(eth_fec 0)" && $(snap_fec 0 | wc -l) == 5 ]]; }
ktap_check "mlx5: snapshot fec_stat, fec_mode, link_speed_mbps = ethtool --show-fec -I and ethtool's Speed" \
	wait_for 5 fec_same
ktap_eq "irdma (no FEC statistics): 'fec supported', each fec_stat '-', mode and speed as ethtool" \
	"$(awk '$1 == "fec_stat" { print $3 }' $FT/fakeroce2/ports/1/snapshot | sort -u) $(snap_fec 2 | grep -v ' -$' | xargs)" \
	"- $(eth_fec 2 | xargs)"

# ---- the module's EEPROM pages (ports/<n>/module) --------------------------------
# Independent reader: ethtool -m's hex dump of the same pages.
echo 1000 >/sys/module/fabtel/parameters/module_ms
ko_page() { # ID PAGE: the hex of that page in fabtel.ko's module file
	awk -v p="$2" '$1 == "page" && $2 == p { print $3 }' "$FT/fakeroce$1/ports/1/module"
}
eth_page() { # ID PAGE OFFSET: 128 bytes as ethtool -m dumps them, as one hex string
	ethtool -m "fre$1" page "$2" offset "$3" length 128 | awk '/^0x/ { for (i = 2; i <= NF; i++) printf "%s", $i }'
}
echo 17 >$DBG/0/module/identifier
echo 4321 >$DBG/0/module/lane3_rx_power
pages_same() { [[ -n $(ko_page 0 lower) && $(ko_page 0 lower) == "$(eth_page 0 0 0)" && $(ko_page 0 0x03) == "$(eth_page 0 3 128)" ]]; }
ktap_check "SFF-8636: module file's lower page and page 03h = ethtool -m's (lane 3 rx power 4321 in them)" \
	wait_for 5 pages_same
echo 24 >$DBG/0/module/identifier
cmis_same() { [[ $(ko_page 0 lower) == "$(eth_page 0 0 0)" && $(ko_page 0 0x11) == "$(eth_page 0 0x11 128)" && -n $(ko_page 0 0x01) && -n $(ko_page 0 0x02) ]]; }
ktap_check "CMIS: lower page and page 11h = ethtool -m's; pages 01h and 02h there too" wait_for 5 cmis_same
echo 0 >$DBG/0/module/identifier
ktap_check "no module (ENODEV): error -19, no page" \
	wait_for 5 bash -c "[[ \$(grep -c '^page' $FT/fakeroce0/ports/1/module) == 0 && \$(awk '\$1 == \"error\" { print \$2 }' $FT/fakeroce0/ports/1/module) == -19 ]]"
ktap_eq "module_ms 500 (under 1000) and 'x' refused; 0 turns reads off" \
	"$(echo 500 >/sys/module/fabtel/parameters/module_ms 2>/dev/null && echo took; echo x >/sys/module/fabtel/parameters/module_ms 2>/dev/null && echo took; echo 0 >/sys/module/fabtel/parameters/module_ms && cat /sys/module/fabtel/parameters/module_ms)" \
	"0"
echo 10000 >/sys/module/fabtel/parameters/module_ms
echo 17 >$DBG/0/module/identifier

# ---- a flap linkwatch folds away -------------------------------------------------
N=/sys/class/net/fre0
f0=$(val $P/link/flaps)
up0=$(val $N/carrier_up_count)
echo 1 >$DBG/0/flap_coalesced
wait_for 5 is $P/link/flaps $((f0 + 1))
ktap_eq "back-to-back down/up: flaps +1, as carrier_up_count moved" \
	"$(($(val $P/link/flaps) - f0)) $(($(val $N/carrier_up_count) - up0))" "1 1"
ktap_eq "history shows it as a coalesced down/up pair" \
	"$(tail -2 $P/link/history | awk '{printf "%s/%s ", $3, $4}')" "down/coalesced up/coalesced "
f0=$(val $P/link/flaps)
echo 40 >$DBG/0/flap_coalesced			# 80 transitions: more than the 64 kept
wait_for 10 is $P/link/flaps $((f0 + 40))
ktap_eq "40 more flaps: link/history holds all 64 it keeps (a page fitted 42), the newest an up" \
	"$(wc -l <$P/link/history) $(tail -1 $P/link/history | awk '{ print $3 }')" "64 up"

# ---- the netdev moved to another network namespace and back ----------------------
# (a VF handed to a pod): a netns move is NETDEV_UNREGISTER then REGISTER of
# the same netdev; fabtel.ko used to let it go for good at the first.
ip netns del fabtel_side 2>/dev/null
ip netns add fabtel_side
f0=$(val $P/link/flaps)
ip link set fre0 netns fabtel_side
echo 1 >$DBG/0/flap_coalesced
ktap_check "in another netns: still tracked, a flap there counted (flaps $f0 -> $(val $P/link/flaps))" \
	wait_for 5 is $P/link/flaps $((f0 + 1))
ip -n fabtel_side link set fre0 netns 1
ip link set fre0 up
f1=$(val $P/link/flaps)
up1=$(val $N/carrier_up_count)
echo 1 >$DBG/0/flap_coalesced
wait_for 5 is $P/link/flaps $((f1 + 1))
ktap_eq "moved back: netdev fre0, a flap counted +1 as carrier_up_count moved (the moves themselves none)" \
	"$(val $P/netdev) $(($(val $P/link/flaps) - f1)) $(($(val $N/carrier_up_count) - up1)) $((f1 - f0))" \
	"fre0 1 1 1"
ip netns del fabtel_side

# ---- the flight recorder -------------------------------------------------------------
# fabtel.ko afresh at 100 ms samples, FEC and PMA read every 500 ms, records
# going on 1 s past their trigger.  fakeroce0's FEC corrected blocks and PMA
# symbol errors climb at 2000/s and 100/s (debugfs ramp) for 3 s, then its
# carrier drops for 300 ms: the record must show the climb at those rates
# from when the ramps began, the drop and the return.
rmmod fabtel
insmod "$KMOD/fabtel.ko" sample_ms=100 slow_ms=500 record_after_ms=1000
R=$FT/fakeroce0/ports/1/recorder
ktap_eq "recorder: none on a fresh port (seq 0, triggers 0, record0 empty)" \
	"$(val $R/seq) $(val $R/triggers) $(cat $R/record0 | wc -c)" "0 0 0"
sleep 1.5
echo "fec/corrected_blocks 2000" >$DBG/0/ramp
echo "pma/symbol_error 100" >$DBG/0/ramp
sleep 3
echo 0 >$DBG/0/carrier
sleep 0.3
echo 1 >$DBG/0/carrier
ramps=$(cat $DBG/0/ramp)
echo off >$DBG/0/ramp
wait_for 5 is $R/seq 1
"$REPO/scripts/lab/record-dump" $R/record0 >/tmp/record0.txt 2>&1
hdr=$(sed -n 's/^h //p' /tmp/record0.txt)
ti=$(sed -n 's/.* trigger_index=\([0-9]*\).*/\1/p' <<<"$hdr")
ktap_check "a 300 ms carrier drop froze record 1: first_trigger carrier (1), 10 samples after its trigger (1 s), trailer seq 1, sample_ms 100" \
	grep -qE "^seq=1 first_trigger=1 triggers=1 trigger_index=$ti nr_samples=$((ti + 11)) sample_ms=100 nr_counters=22 trigger_boot_ns=[0-9]+ trailer_seq=1$" <<<"$hdr"
ktap_info "$hdr"
# the climb: per read (a sample with the FEC or PMA flag), its rise over the
# time since the previous read, from the ramps' start to the trigger
began=$(awk '$1 == "fec/corrected_blocks" { print $3 }' <<<"$ramps")
rate() { # FLAG FIELD: counts a second between the first and last read in the ramp
	awk -v f="$1" -v c="$2" -v b="$began" -v ti="$ti" '$1 == "s" && $2 <= ti &&
		int($4 / f) % 2 && $3 > b {
		if (n++) { sum += $c; last = $3 } else first = $3 }
		END { if (last > first) printf "%.0f", sum / ((last - first) / 1e9); else print "none" }' /tmp/record0.txt
}
fec_rate=$(rate 16 5) sym_rate=$(rate 32 7)
ktap_check "the climb before the drop: FEC corrected $fec_rate/s (2000 written), symbol errors $sym_rate/s (100 written), each within 15 %" \
	awk -v a="$fec_rate" -v b="$sym_rate" 'BEGIN { exit !(a >= 1700 && a <= 2300 && b >= 85 && b <= 115) }'
quiet=$(awk -v b="$began" '$1 == "s" && $3 < b && ($5 || $7) { n++ } END { print n + 0 }' /tmp/record0.txt)
first=$(awk -v b="$began" '$1 == "s" && $5 > 0 { print ($3 >= b) ? "after" : "before"; exit }' /tmp/record0.txt)
ktap_eq "no FEC or symbol error rise before the ramps began (debugfs ramp's start, boot clock); the first one after it" \
	"$quiet $first" "0 after"
carrier_at() { awk -v i="$1" '$1 == "s" && $2 == i { print int($4 % 2) }' /tmp/record0.txt; }
back=$(awk -v ti="$ti" '$1 == "s" && $2 > ti && $4 % 2 { print $2; exit }' /tmp/record0.txt)
ktap_check "the drop and the return: carrier up before the trigger, down at it, up again $((back - ti)) samples later (300 ms)" \
	test "$(carrier_at $((ti - 1)))$(carrier_at "$ti")" = 10 -a -n "$back" -a $((back - ti)) -ge 2 -a $((back - ti)) -le 6
ktap_eq "recorder files: seq 1, triggers 1, dropped 0, recording 0; record_after_ms 60001 refused" \
	"$(val $R/seq) $(val $R/triggers) $(val $R/dropped) $(val $R/recording) $(echo 60001 2>/dev/null >/sys/module/fabtel/parameters/record_after_ms || echo EINVAL)" \
	"1 1 0 0 EINVAL"

# the module in the ring: its rx power (the lowest lane) and temperature at
# each read (module_ms 1000); a lane under its low alarm (fakeroce: 20 uW)
# freezes a record whose first trigger is optics (16)
echo 1000 >/sys/module/fabtel/parameters/module_ms
sleep 2.5
seq0=$(val $R/seq)
# what the module says before: its lowest lane and its temperature (debugfs, as written)
rx0=$(for l in 1 2 3 4; do cat $DBG/0/module/lane${l}_rx_power; done | sort -n | head -1)
lane2=$(cat $DBG/0/module/lane2_rx_power) temp0=$(cat $DBG/0/module/temperature)
echo 100 >$DBG/0/module/lane2_rx_power
wait_for 8 is $R/seq $((seq0 + 1))
"$REPO/scripts/lab/record-dump" $R/record$((seq0 % 4)) >/tmp/record-opt.txt 2>&1
ktap_check "an rx power low alarm (lane 2 at 10 uW) froze record $((seq0 + 1)): first_trigger optics (16)" \
	grep -qE "^h seq=$((seq0 + 1)) first_trigger=16 " /tmp/record-opt.txt
levels=$(awk '$1 == "s" && int($4 / 128) % 2 { if (int($4 / 64) % 2) { print last, $12, $13; exit } last = $12 }' /tmp/record-opt.txt)
ktap_eq "the module's levels in the ring: rx power $rx0 before, 100 at the trigger (0.1 uW, the lowest lane), temperature $temp0 (1/256 degC), as debugfs has them" \
	"$levels" "$rx0 100 $temp0"
echo "$lane2" >$DBG/0/module/lane2_rx_power
echo 10000 >/sys/module/fabtel/parameters/module_ms

ktap_end
