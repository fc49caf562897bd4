#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-fixture.sh DIR N [ko] - a sysfs tree under DIR with N mlx5-like
# RoCE ports (one per device, mlx5_0..), laid out as the kernel lays out
# /sys/class/infiniband and /sys/class/net, for make bench: fabteld (sysfs
# mode, sysfs_root=DIR) and node_exporter (--path.sysfs=DIR/sys) read the
# same files.  Counter names: Documentation/counters.rst (mlx5 hw_counters,
# IB PMA counters).  With "ko", each port also gets fabtel.ko's snapshot
# (/sys/kernel/fabtel/<dev>/ports/1/snapshot), made from
# scripts/bench-snapshot.txt: one fabtel.ko wrote for a fakeroce mlx5 port
# with its PMA counters, FEC and module (captured in the lab).  And
# DIR/proc/net/dev, its lines the netdevs' statistics/ totals.
set -euo pipefail
DIR=$1 N=$2 KO=${3:-}
HW=(duplicate_request implied_nak_seq_err lifespan local_ack_timeout_err
    np_cnp_sent np_ecn_marked_roce_packets out_of_buffer out_of_sequence
    packet_seq_err req_cqe_error req_cqe_flush_error req_remote_access_errors
    req_remote_invalid_request resp_cqe_error resp_cqe_flush_error
    resp_local_length_error resp_remote_access_errors rnr_nak_retry_err
    rp_cnp_handled rp_cnp_ignored rx_atomic_requests rx_dct_connect
    rx_icrc_encapsulated rx_read_requests rx_write_requests roce_adp_retrans
    roce_slow_restart)
PMA=(excessive_buffer_overrun_errors link_downed link_error_recovery
     local_link_integrity_errors multicast_rcv_packets multicast_xmit_packets
     port_rcv_constraint_errors port_rcv_data port_rcv_errors port_rcv_packets
     port_rcv_remote_physical_errors port_rcv_switch_relay_errors
     port_xmit_constraint_errors port_xmit_data port_xmit_discards
     port_xmit_packets port_xmit_wait symbol_error unicast_rcv_packets
     unicast_xmit_packets VL15_dropped)
NETSTAT=(collisions multicast rx_bytes rx_compressed rx_crc_errors rx_dropped
	 rx_errors rx_fifo_errors rx_frame_errors rx_length_errors
	 rx_missed_errors rx_nohandler rx_over_errors rx_packets tx_aborted_errors
	 tx_bytes tx_carrier_errors tx_compressed tx_dropped tx_errors
	 tx_fifo_errors tx_heartbeat_errors tx_packets tx_window_errors)

rm -rf "$DIR/sys" "$DIR/proc" "$DIR/proc-net-dev.lines"
for ((i = 0; i < N; i++)); do
	d=$DIR/sys/class/infiniband/mlx5_$i nd=ens${i}f0np0
	p=$d/ports/1
	mkdir -p "$p/counters" "$p/hw_counters" "$p/gid_attrs/ndevs"
	echo "MT_0000000222" >"$d/board_id"
	echo "22.36.1010" >"$d/fw_ver"
	echo "MT4125" >"$d/hca_type"
	echo "1: CA" >"$d/node_type"
	printf '0c42:a103:00%02x:1234\n' "$i" >"$d/node_guid"
	echo Ethernet >"$p/link_layer"
	echo "4: ACTIVE" >"$p/state"
	echo "5: LinkUp" >"$p/phys_state"
	echo "100 Gb/sec (2X HDR)" >"$p/rate"
	echo "$nd" >"$p/gid_attrs/ndevs/0"
	for c in "${HW[@]}"; do echo $((RANDOM * 1000 + i)) >"$p/hw_counters/$c"; done
	for c in "${PMA[@]}"; do echo $((RANDOM * 100000 + i)) >"$p/counters/$c"; done
	n=$DIR/sys/class/net/$nd
	mkdir -p "$n/statistics"
	echo 1 >"$n/carrier"; echo 6 >"$n/carrier_changes"
	echo 3 >"$n/carrier_up_count"; echo 3 >"$n/carrier_down_count"
	echo up >"$n/operstate"; echo 9000 >"$n/mtu"; echo 100000 >"$n/speed"
	echo full >"$n/duplex"; echo 1 >"$n/type"; echo $((i + 2)) >"$n/ifindex"
	echo $((i + 2)) >"$n/iflink"; echo 0x1003 >"$n/flags"
	printf '0c:42:a1:00:%02x:01\n' "$i" >"$n/address"
	echo ff:ff:ff:ff:ff:ff >"$n/broadcast"; echo 1000 >"$n/tx_queue_len"
	echo 0 >"$n/addr_assign_type"; echo 0 >"$n/dormant"; echo 0 >"$n/proto_down"
	for c in "${NETSTAT[@]}"; do echo $((RANDOM * 100000)) >"$n/statistics/$c"; done
	# its line of /proc/net/dev (the same totals as its statistics/ files)
	st() { cat "$n/statistics/$1"; }
	printf '%s: %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s\n' "$nd" \
		"$(st rx_bytes)" "$(st rx_packets)" "$(st rx_errors)" "$(st rx_dropped)" \
		"$(st rx_fifo_errors)" "$(st rx_frame_errors)" "$(st rx_compressed)" "$(st multicast)" \
		"$(st tx_bytes)" "$(st tx_packets)" "$(st tx_errors)" "$(st tx_dropped)" \
		"$(st tx_fifo_errors)" "$(st collisions)" "$(st tx_carrier_errors)" \
		"$(st tx_compressed)" >>"$DIR/proc-net-dev.lines"
	if [[ $KO == ko ]]; then
		k=$DIR/sys/kernel/fabtel/mlx5_$i/ports/1
		mkdir -p "$k"
		awk -v dev="mlx5_$i" -v nd="$nd" -v i="$i" '
			$1 == "device" { $2 = dev } $1 == "netdev" { $2 = nd } $1 == "netdev_ifindex" { $2 = i + 2 }
			($1 == "counter" || $1 == "raw" || $1 == "pma_counter") && $3 ~ /^[0-9]+$/ { $3 += i }
			{ print }' "$(dirname "$0")/bench-snapshot.txt" >"$k/snapshot"
	fi
done
# /proc/net/dev as the kernel writes it: its two header lines, lo, a
# management NIC, then the RoCE ports' netdevs (fabteld's plain sysfs source
# reads their byte totals there, netdev_bytes.c)
mkdir -p "$DIR/proc/net"
{
	echo "Inter-|   Receive                                                |  Transmit"
	echo " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed"
	echo "    lo: 123456 1234 0 0 0 0 0 0 123456 1234 0 0 0 0 0 0"
	echo "  eno1: 98765432 87654 0 0 0 0 0 12 87654321 76543 0 0 0 0 0 0"
	sed 's/^/  /' "$DIR/proc-net-dev.lines"
} >"$DIR/proc/net/dev"
rm -f "$DIR/proc-net-dev.lines"
