#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fablab: guest=a
#
# lab_fakeroce.sh - fakeroce.ko, the simulated RoCE NIC fabtel is tested
# against: new_device/del_device make and remove the netdev fre<ID> and the
# ib_device fakeroce<ID>; what is set through fakeroce's debugfs knobs is
# read back through sources fakeroce does not control: RDMA netlink
# (`rdma link`), ib_core's sysfs (/sys/class/infiniband/.../hw_counters,
# link_layer), the netdev's sysfs carrier counters (/sys/class/net), and
# DCB netlink through iproute2's `dcb`.  Expected counter names come from
# the real 6.1 drivers (mlx5/counters.c, bnxt_re/hw_counters.c,
# irdma/verbs.c).  Ends with 100 new/del cycles under concurrent hw_counters
# readers and rmmod, and the kernel log must stay clean.  Runs inside guest a.
. "$(dirname "$0")/lib.sh"

KO=$KMOD/fakeroce.ko
CTL=/sys/kernel/fakeroce
DBG=/sys/kernel/debug/fakeroce
IB=/sys/class/infiniband

ktap_begin 104

[[ -f $KO ]] || { ktap_fail "fakeroce.ko was built" "$KO missing"; ktap_end; }
echo "lab_fakeroce: start" >/dev/kmsg

# ---- helpers ----------------------------------------------------------------

hwc() { cat "$IB/fakeroce$1/ports/1/hw_counters/$2"; } # ID NAME
hwc_is() { [[ $(hwc "$1" "$2" 2>/dev/null) == "$3" ]]; } # ID NAME VALUE
knob() { echo "$2" >"$DBG/$1"; } # PATH VALUE: a debugfs write
link_state() { rdma link show "fakeroce$1/1" 2>/dev/null; }
link_has() { [[ $(link_state "$1") == *"$2"* ]]; } # ID TEXT
netdev_cnt() { cat "/sys/class/net/fre$1/$2"; }
# writes that must be refused (the shell reports the error, status 1)
refused() { ! (echo "$2" >"$1") 2>/dev/null; } # FILE VALUE
# the error of such a write, as strerror text ("" if it succeeded)
write_err() { (echo "$2" >"$1") 2>&1 | sed 's/.*: //'; } # FILE VALUE
names_of() { local f; for f in "$@"; do [[ -e $f ]] && echo "${f##*/}"; done | xargs; }
ifaces() { names_of /sys/class/net/fre*; }
ibdevs() { names_of $IB/fakeroce*; }

# ---- load, create one device per personality --------------------------------

rmmod fakeroce 2>/dev/null
modprobe ib_core
ktap_check "insmod fakeroce.ko" insmod "$KO"

declare -A pers=([0]=mlx5 [1]=bnxt_re [2]=irdma)
# hw_counters per personality in the 6.1 drivers (plus ib_core's lifespan)
declare -A ncnt=([0]=29 [1]=68 [2]=47)
declare -A names=(
	[0]="out_of_sequence local_ack_timeout_err rp_cnp_handled np_ecn_marked_roce_packets rx_icrc_encapsulated"
	[1]="to_retransmits seq_err_naks_rcvd rx_out_of_buffer oos_drop_count tx_bytes"
	[2]="cnpHandled cnpSent RxECNMrkd ip4InOctets TxUDP")

for id in 0 1 2; do
	ktap_check "new_device $id ${pers[$id]}" \
		bash -c "echo '$id ${pers[$id]}' >$CTL/new_device"
	ip link set "fre$id" up
	wait_for 10 link_has $id "state ACTIVE"
	ktap_check "fakeroce$id: rdma link ACTIVE over fre$id" \
		link_has $id "state ACTIVE physical_state LINK_UP netdev fre$id"
	ktap_eq "fakeroce$id: sysfs link_layer" \
		"$(cat $IB/fakeroce$id/ports/1/link_layer 2>&1)" Ethernet
	ktap_eq "fakeroce$id: ${pers[$id]} hw_counters count" \
		"$(ls $IB/fakeroce$id/ports/1/hw_counters 2>/dev/null | wc -l)" \
		"${ncnt[$id]}"
	missing=
	for n in ${names[$id]}; do
		[[ -e $IB/fakeroce$id/ports/1/hw_counters/$n ]] || missing+=" $n"
	done
	ktap_eq "fakeroce$id: ${pers[$id]} counter names present" "$missing" ""
done

# the files the 6.1 driver's device_group adds to the device's directory
ident() { names_of $IB/fakeroce$1/{hw_rev,hca_type,board_id,fw_pages,reg_pages}; } # ID
ktap_eq "identity files: mlx5 as mlx5_ib, bnxt_re as bnxt_re, irdma none" \
	"$(ident 0) / $(ident 1) / $(ident 2)" \
	"hw_rev hca_type board_id fw_pages reg_pages / hw_rev hca_type / "
ktap_eq "mlx5 hca_type is MT and the PCI device ID in decimal; bnxt_re hw_rev the PCI vendor in hex, hca_type the node description" \
	"$(cat $IB/fakeroce0/hca_type $IB/fakeroce1/hw_rev $IB/fakeroce1/hca_type | xargs)" \
	"MT$((0x101d)) 0x14e4 $(cat $IB/fakeroce1/node_desc)"

# ---- counters: debugfs in, ib_core sysfs out ---------------------------------

set_counter() { # ID NAME VALUE...: writes each value to the counter's knob
	local id=$1 name=$2 v
	shift 2
	for v in "$@"; do knob "$id/counters/$name" "$v"; done
}

set_counter 0 out_of_sequence 12345
wait_for 5 hwc_is 0 out_of_sequence 12345
ktap_eq "mlx5 out_of_sequence set via debugfs, read in hw_counters" \
	"$(hwc 0 out_of_sequence)" 12345
set_counter 1 seq_err_naks_rcvd 1099511627783
wait_for 5 hwc_is 1 seq_err_naks_rcvd 1099511627783
ktap_eq "bnxt_re seq_err_naks_rcvd (64-bit value) in hw_counters" \
	"$(hwc 1 seq_err_naks_rcvd)" 1099511627783
set_counter 2 cnpHandled 7 +5
wait_for 5 hwc_is 2 cnpHandled 12
ktap_eq "irdma cnpHandled 7 then +5" "$(hwc 2 cnpHandled)" 12

set_counter 0 local_ack_timeout_err 4294967295 +2
wait_for 5 hwc_is 0 local_ack_timeout_err 1
ktap_eq "mlx5 local_ack_timeout_err (32-bit): 4294967295 +2 wraps to 1" \
	"$(hwc 0 local_ack_timeout_err)" 1
set_counter 0 rp_cnp_handled 4294967295 +2
wait_for 5 hwc_is 0 rp_cnp_handled 4294967297
ktap_eq "mlx5 rp_cnp_handled (64-bit): 4294967295 +2 does not wrap" \
	"$(hwc 0 rp_cnp_handled)" 4294967297

# ---- carrier -----------------------------------------------------------------

port_events() { dmesg | grep -c "fakeroce0: port 1 $1"; }
read -r dn0 < /sys/class/net/fre0/carrier_down_count
ev0=$(port_events DOWN)
knob 0/carrier 0
wait_for 10 link_has 0 "state DOWN"
ktap_check "carrier 0: rdma link says DOWN" link_has 0 "state DOWN physical_state DISABLED"
ktap_eq "carrier 0: /sys/class/net/fre0/carrier" "$(netdev_cnt 0 carrier)" 0
ktap_eq "carrier 0: carrier_down_count +1" \
	$(($(netdev_cnt 0 carrier_down_count) - dn0)) 1
wait_for 10 test "$(port_events DOWN)" -gt "$ev0"
ktap_eq "carrier 0: one IB port event (PORT_ERR)" $(($(port_events DOWN) - ev0)) 1
knob 0/carrier 1
wait_for 10 link_has 0 "state ACTIVE"
ktap_check "carrier 1: rdma link says ACTIVE again" link_has 0 "state ACTIVE"
ktap_eq "carrier knob reads 1" "$(cat $DBG/0/carrier)" 1

read -r up0 < /sys/class/net/fre0/carrier_up_count
read -r dn0 < /sys/class/net/fre0/carrier_down_count
read -r ch0 < /sys/class/net/fre0/carrier_changes
knob 0/flap_coalesced 3
ktap_eq "flap_coalesced 3: carrier_up/down_count +3 each" \
	"$(($(netdev_cnt 0 carrier_up_count) - up0))/$(($(netdev_cnt 0 carrier_down_count) - dn0))" 3/3
ktap_eq "flap_coalesced 3: carrier_changes +6" \
	$(($(netdev_cnt 0 carrier_changes) - ch0)) 6
ktap_check "flap_coalesced 3: port ACTIVE afterwards" link_has 0 "state ACTIVE"

# ---- get_hw_stats failure ----------------------------------------------------

# lifespan 0: ib_core asks the driver on every read (cache is one jiffy).
echo 0 >$IB/fakeroce0/ports/1/hw_counters/lifespan
knob 0/fail_next_get_hw_stats 1
ktap_check "fail_next_get_hw_stats 1: next hw_counters read fails" \
	bash -c "! cat $IB/fakeroce0/ports/1/hw_counters/out_of_sequence"
ktap_eq "fail_next_get_hw_stats reads 0 afterwards" \
	"$(cat $DBG/0/fail_next_get_hw_stats)" 0
ktap_eq "the read after succeeds" "$(hwc 0 out_of_sequence 2>&1)" 12345

# ---- PMA: debugfs in, ib_core's counters/ (its own decode of the MADs) out ---

PC=$IB/fakeroce0/ports/1/counters
pma() { cat "$PC/$1"; }
# ib_core's extended-width table, as 6.1's sysfs.c lists it
PMA_FILES="VL15_dropped excessive_buffer_overrun_errors link_downed
link_error_recovery local_link_integrity_errors multicast_rcv_packets
multicast_xmit_packets port_rcv_constraint_errors port_rcv_data port_rcv_errors
port_rcv_packets port_rcv_remote_physical_errors port_rcv_switch_relay_errors
port_xmit_constraint_errors port_xmit_data port_xmit_discards port_xmit_packets
port_xmit_wait symbol_error unicast_rcv_packets unicast_xmit_packets"
ktap_eq "mlx5: ports/1/counters/ has the extended PMA set (ClassPortInfo: extended width)" \
	"$(ls $PC 2>&1 | xargs)" "$(xargs -n1 <<<"$PMA_FILES" | LC_ALL=C sort | xargs)"
ktap_eq "bnxt_re, irdma: no PMA, no counters/ (as their 6.1 drivers)" \
	"$(names_of $IB/fakeroce1/ports/1/counters $IB/fakeroce2/ports/1/counters)" ""
declare -A pset=([symbol_error]=1234 [link_error_recovery]=7 [link_downed]=3
	[port_rcv_errors]=55 [port_rcv_remote_physical_errors]=6
	[port_rcv_switch_relay_errors]=8 [port_xmit_discards]=4242
	[port_xmit_constraint_errors]=11 [port_rcv_constraint_errors]=12
	[local_link_integrity_errors]=5 [excessive_buffer_overrun_errors]=9
	[VL15_dropped]=2 [port_xmit_wait]=99999 [port_xmit_data]=1099511627776
	[port_rcv_data]=4294967296000 [port_xmit_packets]=123456789012
	[port_rcv_packets]=12345678901 [unicast_xmit_packets]=77
	[multicast_xmit_packets]=78 [unicast_rcv_packets]=79 [multicast_rcv_packets]=80)
bad=
for n in "${!pset[@]}"; do
	knob "0/pma/$n" "${pset[$n]}"
	[[ $(pma "$n" 2>&1) == "${pset[$n]}" ]] || bad+=" $n=$(pma "$n" 2>&1)"
done
ktap_eq "each PMA counter set in debugfs reads back in counters/ (4-bit pair, 8/16/32/64-bit fields)" "$bad" ""
knob 0/pma/symbol_error 70000; knob 0/pma/link_downed +300
knob 0/pma/local_link_integrity_errors 20; knob 0/pma/port_xmit_wait 5000000000
ktap_eq "error counters stop at their width: 16-bit 65535, 8-bit 255, 4-bit 15 (its neighbour 9 kept), 32-bit xmit_wait" \
	"$(for n in symbol_error link_downed local_link_integrity_errors excessive_buffer_overrun_errors port_xmit_wait; do pma $n; done | xargs)" \
	"65535 255 15 9 4294967295"
knob 0/fail_next_mad 1
ktap_check "fail_next_mad 1: the next counters/ read fails" bash -c "! cat $PC/symbol_error"
ktap_eq "... and the one after reads again" "$(pma symbol_error 2>&1)" 65535
ktap_eq "'+x', '-1', '' refused by a PMA knob; value unchanged" \
	"$(refused $DBG/0/pma/symbol_error +x && refused $DBG/0/pma/symbol_error -1 &&
		refused $DBG/0/pma/symbol_error '' && pma symbol_error)" 65535
knob 0/pma/symbol_error 1234; knob 0/pma/link_downed 3
knob 0/pma/local_link_integrity_errors 5; knob 0/pma/port_xmit_wait 99999

# ---- FEC: debugfs in, ethtool netlink (ethtool --show-fec -I) out -----------

fec_json() { ethtool --json -I --show-fec "fre$1" 2>/dev/null; } # ID
knob 0/fec/corrected_blocks 5000000000; knob 0/fec/uncorrectable_blocks 3
knob 0/fec/corrected_bits 77; knob 0/fec/uncorrectable_blocks +4
ktap_eq "mlx5: ethtool shows active FEC RS and the three totals set in debugfs (+4 added)" \
	"$(fec_json 0 | jq -r '.[0] | "\(.active | join(",")) \(.statistics.corrected_blocks.total) \(.statistics.uncorrectable_blocks.total) \(.statistics.corrected_bits.total)"')" \
	"RS 5000000000 7 77"
knob 2/fec/uncorrectable_blocks 9
ktap_eq "irdma (ice has no get_fec_stats in 6.1): FEC mode RS, no statistics" \
	"$(fec_json 2 | jq -r '.[0] | "\(.active | join(",")) \(.statistics // {} | keys | length)"')" "RS 0"
ktap_check "'x' refused by a FEC knob" refused $DBG/0/fec/corrected_bits x

# ---- DCB: debugfs in, DCB netlink (iproute2 dcb) out ------------------------

D=$DBG/0/dcb
dcb_rates() { # PRIO: requests[PRIO] from `dcb -s pfc show`
	dcb -s pfc show dev fre0 requests | sed -n "s/.* $1:\([0-9]*\).*/\1/p"
}
dcb_at_least() { (($(dcb_rates "$1") >= $2)); }
if command -v dcb >/dev/null; then
	knob 0/dcb/pfc_en 40
	ktap_check "pfc_en 40 (prios 3, 5): dcb pfc show" bash -c \
		"dcb pfc show dev fre0 prio-pfc | grep -q 'prio-pfc 0:off 1:off 2:off 3:on 4:off 5:on 6:off 7:off'"
	knob 0/dcb/prio_tc "0 0 1 1 2 2 3 3"
	ktap_check "prio_tc: dcb ets show" bash -c \
		"dcb ets show dev fre0 prio-tc | grep -q 'prio-tc 0:0 1:0 2:1 3:1 4:2 5:2 6:3 7:3'"
	knob 0/dcb/tc_bw "40 30 20 10 0 0 0 0"
	knob 0/dcb/tc_tsa "2 2 2 2 0 0 0 0"
	ktap_check "tc_bw, tc_tsa: dcb ets show" bash -c \
		"dcb ets show dev fre0 tc-bw tc-tsa | xargs | grep -q 'tc-bw 0:40 1:30 2:20 3:10 4:0 5:0 6:0 7:0 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:strict'"
	knob 0/dcb/prio2_requests 1000
	knob 0/dcb/prio2_indications 7
	knob 0/dcb/prio2_indications +3
	ktap_check "prio2 requests 1000, indications 10: dcb -s pfc show" bash -c \
		"dcb -s pfc show dev fre0 | xargs | grep -q 'requests 0:0 1:0 2:1000 .*indications 0:0 1:0 2:10 '"
	knob 0/dcb/prio4_requests_rate 2000
	wait_for 20 dcb_at_least 4 1000
	ktap_ge "prio4_requests_rate 2000: requests[4] rises on its own" \
		"$(dcb_rates 4)" 1000
	knob 0/dcb/prio4_requests_rate 0
	r1=$(dcb_rates 4)
	r2=$(cat $D/prio4_requests)
	ktap_eq "rate 0 freezes requests[4]" "$r2" "$r1"
	dcb pfc set dev fre0 prio-pfc all:off 1:on
	ktap_eq "dcb pfc set prio-pfc 1:on (ieee_setpfc): pfc_en" "$(cat $D/pfc_en)" 2
	ktap_check "tc_bw summing to 70 refused, unchanged" bash -c \
		"! (echo '50 20 0 0 0 0 0 0' >$D/tc_bw) 2>/dev/null &&
		 [[ \$(cat $D/tc_bw) == '40 30 20 10 0 0 0 0' ]]"
else
	for t in pfc_en prio_tc tc_bw/tc_tsa requests/indications requests_rate \
		 rate-freeze ieee_setpfc tc_bw-refused; do
		ktap_skip "dcb: $t" "no dcb tool (iproute2) in the guest"
	done
fi

# ---- speed: debugfs lanes and lane_gbps in, ib_core's rate and ethtool out --
speed_of() { # ID: "<ports/1/rate> | <ethtool Speed> | <lines naming 400G CR4: ours, partner>"
	echo "$(cat $IB/fakeroce$1/ports/1/rate) | $(ethtool fre$1 | awk '/Speed:/ { print $2 }') |" \
		"$(ethtool fre$1 | grep -c '400000baseCR4/Full')"
}
knob 0/lane_gbps 100
ktap_eq "lane_gbps 100 (NDR): a 400G port, 400000baseCR4 supported, advertised and the partner's" \
	"$(speed_of 0)" "400 Gb/sec (4X NDR) | 400000Mb/s | 3"
knob 0/lanes 2
ktap_eq "... renegotiated on 2 lanes: 200 Gb/s in both readers, 400G still supported" \
	"$(speed_of 0)" "200 Gb/sec (2X NDR) | 200000Mb/s | 3"
ktap_eq "lane_gbps '40', 'x', '+25' refused with EINVAL; lanes 2, lane_gbps 100 kept" \
	"$(for v in 40 x +25; do write_err $DBG/0/lane_gbps $v; done | sort -u) $(cat $DBG/0/lanes $DBG/0/lane_gbps | xargs)" \
	"Invalid argument 2 100"
knob 0/lanes 4
knob 0/lane_gbps 25

# ---- driver statistics: debugfs and DCB in, ethtool -S out ------------------
# Names as the 6.1 Ethernet drivers print them (mlx5e en_stats.c: per
# priority with PFC on; bnxt_en bnxt_ethtool.c and ice ice_ethtool.c: all
# eight); pause frames are the DCB counts, durations and PHY errors knobs.
stat() { ethtool -S "fre$1" | awk -v n="$2" '$1 == n ":" { print $2 }'; } # ID NAME
knob 0/dcb/pfc_en 8
knob 0/dcb/prio3_requests 500
knob 0/dcb/prio3_indications 40
knob 0/dcb/prio3_tx_pause_us 2100000
knob 0/dcb/prio3_rx_pause_us +7
knob 0/phy/symbol_errors 11
knob 1/dcb/prio5_tx_pause_us 9
knob 2/phy/crc_errors 4
ktap_eq "mlx5e names (PFC on 3 only): tx_prio3_pause, its duration, rx_prio3_pause, rx_symbol_err_phy; no prio 4" \
	"$(stat 0 tx_prio3_pause) $(stat 0 tx_prio3_pause_duration) $(stat 0 rx_prio3_pause) $(stat 0 rx_prio3_pause_duration) $(stat 0 rx_symbol_err_phy) $(ethtool -S fre0 | grep -c prio4)" \
	"500 2100000 40 7 11 0"
ktap_eq "bnxt_en names: pfc_pri5_tx_duration_us, all 8 priorities listed; ice: rx_crc_errors.nic, 8 tx_priority_N_xoff.nic" \
	"$(stat 1 pfc_pri5_tx_duration_us) $(ethtool -S fre1 | grep -c 'tx_pfc_ena_frames_pri') $(stat 2 rx_crc_errors.nic) $(ethtool -S fre2 | grep -c 'tx_priority_._xoff.nic')" \
	"9 8 4 8"
knob 0/dcb/pfc_en 0
ktap_eq "mlx5e: PFC off everywhere: no per-priority statistics left, the PHY ones stay" \
	"$(ethtool -S fre0 | grep -c prio) $(stat 0 rx_symbol_err_phy)" "0 11"
knob 0/dcb/prio3_requests 0
knob 0/dcb/prio3_indications 0

# ---- QPs: debugfs in, RDMA netlink (rdma res show qp) out --------------------
# Each QP is made in the writing process's context: ib_core owns it to that
# process, as a uverbs QP.  `rdma res show qp` is the independent reader.
qps_of() { # ID: "count pid port state type" of fakeroce<ID>'s QPs, grouped
	rdma res show qp -j | jq -r --arg d "fakeroce$1" \
		'.[] | select(.ifname == $d) | "\(.pid) \(.port) \(.state) \(.type)"' |
		sort | uniq -c | xargs
}
qps_are() { [[ $(qps_of "$1") == "$2" ]]; } # ID WANT
bash -c "echo 3 >$DBG/0/qps; exec sleep 60" &
owner=$!
ktap_check "qps 3 from a process: rdma res show qp lists 3 RC QPs in RTS on port 1, owned by its pid" \
	wait_for 5 qps_are 0 "3 $owner 1 RTS RC"
ktap_info "rdma res show qp: $(qps_of 0)"
knob 0/qps 1
ktap_eq "qps 1: the newest two destroyed, the first kept (still its owner's); qps reads 1" \
	"$(qps_of 0) $(cat $DBG/0/qps)" "1 $owner 1 RTS RC 1"
ktap_eq "qps 'x', '+1', '4097' (over the limit) refused with EINVAL; still 1 QP" \
	"$(for v in x +1 4097; do write_err $DBG/0/qps $v; done | sort -u) $(cat $DBG/0/qps)" \
	"Invalid argument 1"
knob 1/qps 2	# left for del_device to destroy (the log must stay clean)
kill $owner; wait $owner 2>/dev/null

# ---- QP counter sets: debugfs in, rdma statistic qp and hw_counters out -----
# mlx5 (fakeroce0) has the counter ops: ib_core binds QPs to counters (auto,
# by pid, at RESET->INIT; or `rdma statistic qp bind`), fakeroce gives each
# counter one of counter_limit sets.  qp_errors adds to a QP's set, or to the
# port's default set if it has none; ib_core shows the port as the default
# set + the running sets + the freed ones.  (Few rdma and jq runs: TCG.)
L=fakeroce0/1
qp_mode() { rdma statistic qp mode link $L | grep -o 'qp auto.*' | xargs; }
cnt_list() { # [NAME]: "cntn:pid:lqpn,lqpn[:NAME's value]" per counter, "-" no pid
	rdma statistic qp show link $L -j 2>/dev/null | jq -r --arg n "${1:-}" \
		'sort_by(.cntn) | .[] | "\(.cntn):\(.pid // "-"):\(.lqpn | sort |
		map(tostring) | join(","))\(if $n != "" then ":\(.[$n])" else "" end)"' | xargs
}
port_stat() { rdma statistic show link $L -j | jq -r --arg n "$1" '.[0][$n]'; } # NAME
in_use() { cat $DBG/0/counters_in_use; }
qps_is() { [[ $(cat $DBG/0/qps) == "$1" ]]; }

knob 0/qps 0
ktap_eq "counter_limit 16 by default, counters_in_use 0, qp mode auto off" \
	"$(cat $DBG/0/counter_limit) $(in_use) $(qp_mode)" "16 0 qp auto off"
knob 0/counter_limit 2
rdma statistic qp set link $L auto pid on
ktap_eq "rdma statistic qp set link $L auto pid on: qp mode" "$(qp_mode)" "qp auto pid on"
w=()
for i in 1 2 3 4 5; do	# 5 jobs, one QP each
	bash -c "echo $i >$DBG/0/qps; exec sleep 60" &
	w+=($!)
	WAIT_INTERVAL=0.02 wait_for 5 qps_is $i
done
declare -A qpn_of	# pid -> its QPN, as rdma res show qp lists it
while read -r p n; do qpn_of[$p]=$n; done <<<"$(rdma res show qp -j |
	jq -r '.[] | select(.ifname == "fakeroce0") | "\(.pid) \(.lqpn)"')"
q=()
for p in "${w[@]}"; do q+=("${qpn_of[$p]}"); done
ktap_eq "counter_limit 2, 5 writers: 2 counters, the first two writers' pids and QPNs (rdma res show qp); 3 QPs unbound" \
	"$(cnt_list) $(in_use)" "1:${w[0]}:${q[0]} 2:${w[1]}:${q[1]} 2"
p0=$(hwc 0 out_of_sequence)
knob 0/qp_errors "${q[0]} out_of_sequence 7"
knob 0/qp_errors "${q[1]} packet_seq_err 3"
knob 0/qp_errors "${q[2]} out_of_sequence 5"
ktap_eq "qp_errors: bound QP +7 in its counter (the other 0), unbound QP +5; port (rdma statistic show, sysfs) +12, default set +5" \
	"$(cnt_list out_of_sequence) $(port_stat out_of_sequence) $(hwc 0 out_of_sequence) $(cat $DBG/0/counters/out_of_sequence)" \
	"1:${w[0]}:${q[0]}:7 2:${w[1]}:${q[1]}:0 $((p0 + 12)) $((p0 + 12)) $((p0 + 5))"
ktap_eq "qp_errors packet_seq_err 3 on the second writer's QP: its counter" \
	"$(cnt_list packet_seq_err)" "1:${w[0]}:${q[0]}:0 2:${w[1]}:${q[1]}:3"
ktap_eq "qp_errors: unknown QPN or name, 2 or 4 words, DELTA x or -1 refused (EINVAL); counter_limit 1025 too" \
	"$(for v in "99 out_of_sequence 1" "${q[0]} no_such 1" "${q[0]} out_of_sequence" \
		"${q[0]} out_of_sequence 1 2" "${q[0]} out_of_sequence x" "${q[0]} out_of_sequence -1"; do
		write_err $DBG/0/qp_errors "$v"; done | sort -u) $(write_err $DBG/0/counter_limit 1025) $(port_stat out_of_sequence)" \
	"Invalid argument Invalid argument $((p0 + 12))"
ktap_eq "qp_peer: \"QPN 10.77.0.2\" and \"QPN fe80::1\" taken (RTR through ib_modify_qp_with_udata); unknown QPN, 1 or 3 words, a bad address refused (EINVAL)" \
	"$(knob 0/qp_peer "${q[0]} 10.77.0.2" && knob 0/qp_peer "${q[1]} fe80::1" && echo taken) $(for v in \
		"99 10.77.0.2" "${q[0]}" "${q[0]} 10.77.0.2 x" "${q[0]} 10.77.0.300" "${q[0]} peer"; do
		write_err $DBG/0/qp_peer "$v"; done | sort -u)" "taken Invalid argument"
# devlink: platform/fakeroce.0 (the ib_device's parent) and its two reporters
rep() { # NAME: "state errors recovers" as devlink health show gives them
	devlink health show platform/fakeroce.0 reporter "$1" -j |
		jq -r '.health[][] | "\(.state) \(.error) \(.recover)"'
}
ktap_eq "devlink: fakeroce0's device is platform fakeroce.0, driver fakeroce bound; reporters fw and fw_fatal healthy, no error" \
	"$(basename "$(readlink -f $IB/fakeroce0/device)") $(basename "$(readlink -f /sys/bus/platform/devices/fakeroce.0/driver)") $(rep fw) $(rep fw_fatal)" \
	"fakeroce.0 fakeroce healthy 0 0 healthy 0 0"
# devlink's tracepoints name the instance's driver: on while the reporters report
TR=/sys/kernel/tracing; [[ -d $TR/events ]] || TR=/sys/kernel/debug/tracing
echo 1 >$TR/events/devlink/enable
knob 0/health/fw error
knob 0/health/fw_fatal error
h1="$(rep fw) $(rep fw_fatal)"
knob 0/health/fw_fatal fail_recover
knob 0/health/fw_fatal error
h2="$(rep fw_fatal)"
knob 0/health/fw clear
echo 0 >$TR/events/devlink/enable
traced=$(grep -c 'devlink_health_report' $TR/trace)
ktap_eq "health: fw error stays (error 1) until clear; fw_fatal recovered at once (1 1), then a failed recover leaves it in error (2 1); bad words refused" \
	"$h1 | $h2 | $(rep fw) | $(for v in oops "error error" ""; do write_err $DBG/0/health/fw "$v"; done | sort -u)" \
	"error 1 0 healthy 1 1 | error 2 1 | healthy 1 0 | Invalid argument"
ktap_info "devlink_health_report traced $traced times (tracepoints on, no oops: the kernel log check below)"
# kmsg: lines logged as the kernel's own (facility 0), with fakeroce.0's
# dictionary; the lab's trouble check (scripts/lab/kernel-log) leaves them out
knob 0/kmsg "0 fakeroce-selftest: BUG: planted by lab_fakeroce"
knob 0/kmsg "6*3 fakeroce-selftest: thrice"
planted() { dmesg -r | grep -c -F "$1"; }
ktap_eq "kmsg: '0 TEXT' is one record at level 0 (dmesg -r: <0>), '6*3 TEXT' three at 6; kernel-log shows neither" \
	"$(dmesg -r | grep -F 'fakeroce-selftest: BUG: planted' | cut -c1-3) $(dmesg -r | grep -F 'fakeroce-selftest: thrice' | cut -c1-3 | uniq -c | xargs) $("$REPO/scripts/lab/kernel-log" | grep -c fakeroce-selftest)" \
	"<0> 3 <6> 0"
dict=$(python3 -c 'import os
fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
out = ""
while True:
    try:
        r = os.read(fd, 8192).decode()
    except BlockingIOError:
        break
    except BrokenPipeError:
        continue
    if "fakeroce-selftest: BUG: planted" in r:
        out = " ".join(l.strip() for l in r.split("\n")[1:] if l.strip())
print(out)')
ktap_eq "... its dictionary is the platform device's" "$dict" "SUBSYSTEM=platform DEVICE=+platform:fakeroce.0"
ktap_eq "kmsg: level 8, no text, count 0 or past 1000000, no level: refused; a bad line refuses the whole write" \
	"$(for v in "8 x" "3" "3*0 x" "3*1000001 x" "x y"; do write_err $DBG/0/kmsg "$v"; done | sort -u) $(
		printf '6 fakeroce-selftest: first\n9 second\n' >/tmp/kmsg-two; cat /tmp/kmsg-two >$DBG/0/kmsg 2>/dev/null; echo "rc=$?") $(planted 'fakeroce-selftest: first')" \
	"Invalid argument rc=1 0"
rdma statistic qp set link $L auto off
ktap_eq "auto off: qp mode auto off, the counters stay" "$(qp_mode) $(cnt_list)" \
	"qp auto off 1:${w[0]}:${q[0]} 2:${w[1]}:${q[1]}"
ktap_check "manual bind with both sets in use: refused (ib_core says ENOMEM)" \
	bash -c "! rdma statistic qp bind link $L lqpn ${q[2]} 2>/dev/null"
knob 0/counter_limit 16
rdma statistic qp bind link $L lqpn "${q[2]}"
rdma statistic qp bind link $L lqpn "${q[3]}" cntn 3
knob 0/qp_errors "${q[3]} out_of_sequence 4"
ktap_eq "manual bind (limit 16): new counter 3, no pid, QPs of writers 3 and 4; qp_errors +4 there, port +4" \
	"$(cnt_list out_of_sequence) $(port_stat out_of_sequence)" \
	"1:${w[0]}:${q[0]}:7 2:${w[1]}:${q[1]}:0 3:-:${q[2]},${q[3]}:4 $((p0 + 16))"
rdma statistic qp unbind link $L cntn 3 lqpn "${q[3]}"
rdma statistic qp unbind link $L cntn 3 lqpn "${q[2]}"
ktap_eq "unbind both: counter 3 released (counters_in_use 2), its 4 kept in the port (history), sysfs too" \
	"$(cnt_list) $(in_use) $(port_stat out_of_sequence) $(hwc 0 out_of_sequence)" \
	"1:${w[0]}:${q[0]} 2:${w[1]}:${q[1]} 2 $((p0 + 16)) $((p0 + 16))"
kill "${w[@]}"; wait "${w[@]}" 2>/dev/null	# QPs and counters 1, 2 stay for rmmod
knob 0/counters/out_of_sequence 12345	# the default set, as the checks below expect
q1=$(rdma res show qp -j | jq -r '[.[] | select(.ifname == "fakeroce1") | .lqpn] | min')
b0=$(hwc 1 to_retransmits)
knob 1/qp_errors "$q1 to_retransmits 2"
wait_for 5 hwc_is 1 to_retransmits $((b0 + 2))
ktap_eq "bnxt_re (no counter ops, as its driver): no counter_limit knob, qp bind refused, qp_errors to the port" \
	"$(names_of $DBG/1/counter_limit)$(rdma statistic qp bind link fakeroce1/1 lqpn "$q1" 2>/dev/null && echo bound) $(hwc 1 to_retransmits)" \
	" $((b0 + 2))"

# ---- bad input ---------------------------------------------------------------

before="$(ifaces) / $(ibdevs)"
EINVAL="Invalid argument"
ktap_eq "new_device '3 foo': EINVAL" "$(write_err $CTL/new_device "3 foo")" "$EINVAL"
ktap_eq "new_device '64 mlx5': EINVAL" "$(write_err $CTL/new_device "64 mlx5")" "$EINVAL"
ktap_eq "new_device '0 mlx5' (in use): EEXIST" \
	"$(write_err $CTL/new_device "0 mlx5")" "File exists"
ktap_eq "new_device 'garbage': EINVAL" "$(write_err $CTL/new_device garbage)" "$EINVAL"
ktap_eq "new_device '4 mlx5 extra': EINVAL" \
	"$(write_err $CTL/new_device "4 mlx5 extra")" "$EINVAL"
ktap_eq "del_device 9 (unknown): ENOENT" \
	"$(write_err $CTL/del_device 9)" "No such file or directory"
ktap_eq "del_device 'x': EINVAL" "$(write_err $CTL/del_device x)" "$EINVAL"
ktap_eq "bad new/del_device writes changed nothing" \
	"$(ifaces) / $(ibdevs)" "$before"
ktap_eq "ID 0 is still mlx5 with its values" "$(cat $DBG/0/counters/out_of_sequence)" 12345
accepted=$(for v in abc -5 + "+x" "1 2" 18446744073709551616; do
	refused "$DBG/0/counters/out_of_sequence" "$v" || echo "accepted '$v'"
done)
ktap_eq "garbage counter writes refused" "$accepted" ""
ktap_eq "counter unchanged after garbage" "$(cat $DBG/0/counters/out_of_sequence)" 12345
ktap_check "carrier 2 refused" refused $DBG/0/carrier 2

# ---- del_device --------------------------------------------------------------

ktap_check "del_device 2" bash -c "echo 2 >$CTL/del_device"
ktap_check "del_device 2: fre2 is gone" test ! -e /sys/class/net/fre2
ktap_check "del_device 2: fakeroce2 is gone (sysfs)" test ! -e $IB/fakeroce2
ktap_eq "del_device 2: fakeroce2 is gone (rdma link)" "$(link_state 2)" ""
ktap_check "del_device 2: its debugfs directory is gone" test ! -e $DBG/2

# ---- node_exporter's infiniband collector on the mlx5 device ------------------
# (1.5 fails the whole collector on a device without board_id, as bnxt_re's
# and rxe's: it is shown fakeroce0 alone, a link to the device's directory)

ktap_check "del_device 1 (its 2 QPs destroyed with it)" bash -c "echo 1 >$CTL/del_device"
knob 0/pma/port_rcv_data 123456789
ne_sys=$(mktemp -d)
mkdir -p "$ne_sys/class/infiniband"
ln -s "$(readlink -f $IB/fakeroce0)" "$ne_sys/class/infiniband/fakeroce0"
ne_port=$(free_port)
prometheus-node-exporter --path.sysfs="$ne_sys" --collector.disable-defaults --collector.infiniband \
	--web.listen-address="127.0.0.1:$ne_port" >/tmp/lab_fakeroce-ne.log 2>&1 &
ne_pid=$!
ne_scrape() { curl -sf "127.0.0.1:$ne_port/metrics"; }
wait_for 10 ne_scrape >/dev/null
ne=$(ne_scrape)
ktap_eq "node_exporter: infiniband collector succeeds on fakeroce0 (mlx5)" \
	"$(awk '$1 == "node_scrape_collector_success{collector=\"infiniband\"}" { print $2 }' <<<"$ne")" 1
ktap_eq "node_exporter: board_id and hca_type as the device's files; received bytes = 4 x counters/port_rcv_data (4-octet units)" \
	"$(grep -o 'board_id="[^"]*"' <<<"$ne") $(grep -o 'hca_type="[^"]*"' <<<"$ne") $(awk '$1 ~ /^node_infiniband_port_data_received_bytes_total[{]device="fakeroce0"/ { printf "%.0f", $2 }' <<<"$ne")" \
	"board_id=\"$(cat $IB/fakeroce0/board_id)\" hca_type=\"$(cat $IB/fakeroce0/hca_type)\" $(($(cat $IB/fakeroce0/ports/1/counters/port_rcv_data) * 4))"
kill $ne_pid; wait $ne_pid 2>/dev/null
rm -rf "$ne_sys"

# ---- stress: new/del cycles under readers, then rmmod ------------------------

stop=/tmp/fakeroce-readers.stop
rm -f $stop
reader() {
	while [[ ! -e $stop ]]; do
		cat $IB/fakeroce*/ports/1/hw_counters/* >/dev/null 2>&1
	done
}
reader &
r1=$!
reader &
r2=$!

fails=0
for i in $(seq 100); do
	p=${pers[$((i % 3))]}
	echo "5 $p" >$CTL/new_device || fails=$((fails + 1))
	((i % 10 == 0)) && ip link set fre5 up
	echo 5 >$CTL/del_device || fails=$((fails + 1))
done
ktap_eq "100 new/del cycles under 2 hw_counters readers" $fails 0
ktap_check "rmmod fakeroce while the readers run" rmmod fakeroce
touch $stop
wait $r1 $r2
ktap_eq "after rmmod: no fre* netdev, no fakeroce* ib_device" \
	"$(ifaces) / $(ibdevs)" " / "
ktap_check "after rmmod: /sys/kernel/fakeroce and debugfs dir are gone" \
	test ! -e $CTL -a ! -e $DBG
trouble=$(kernel_trouble 'lab_fakeroce: start')
ktap_eq "kernel log clean (no BUG/WARNING/Oops/Call Trace)" "$trouble" ""

ktap_end
