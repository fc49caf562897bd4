#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fabteld_sources.sh - fabteld's two port sources read from file trees
# laid out like /sys (sysfs_root): a fabtel.ko snapshot in the format
# kmod/fabtel_sysfs.c writes (Documentation/ABI/testing/sysfs-kernel-fabtel),
# and plain /sys/class/infiniband + /sys/class/net as on a host without
# fabtel.ko.  The lab test (lab_fabteld.sh) covers the real rxe sysfs.
. "$(dirname "$0")/../lib.sh"

FABTELD=$REPO/build/asan/fabteld
[[ -x $FABTELD ]] || ktap_skip_all "build/asan/fabteld not built (make)"

ktap_begin 8
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# ---- a fabtel.ko tree ----
K=$TMP/ko/sys/kernel/fabtel/mlx5_0/ports/1
mkdir -p "$K"
cat >"$K/snapshot" <<'SNAP'
fabtel-snapshot 1
device mlx5_0
port 1
driver mlx5
netdev ens1f0np0
samples 40
sample_errors 0
sample_ns 123456789
counter out_of_sequence 4294967301
counter nak_seq_err_rcvd 17
counter local_ack_timeout -
counter future_counter 9
link_state ACTIVE
link_carrier 1
link_carrier_up_count 3
link_carrier_down_count 2
link_flaps 2
link_transitions 4
events_seq 5
events_dropped 0
pfc supported
pfc_cap 8
pfc_enabled_mask 0x08
dcbx_mode 0x04
pfc_prio 3 1 1200 34 1 2 99
some_new_key with values
ets unsupported
raw out_of_sequence 4294967301
end
SNAP
m=$("$FABTELD" --bpf off --set sysfs_root="$TMP/ko" --once metrics 2>&1)
val() { awk -v s="$1" '$1 == s { print $2 }' <<<"$m"; }
L='device="mlx5_0",port="1",netdev="ens1f0np0"'
ktap_eq "fabtel.ko snapshot: source up" "$(val 'fabtel_source_up{source="fabtel_ko"}')" 1
ktap_eq "counters as written, 64-bit (out_of_sequence, nak_seq_err_rcvd)" \
	"$(val "fabtel_port_out_of_sequence_total{$L}") $(val "fabtel_port_nak_seq_err_rcvd_total{$L}")" \
	"4294967301 17"
ktap_eq "'-' (not sampled) and unknown names: no series, no zero" \
	"$(grep -c 'local_ack_timeout\|future_counter' <<<"$m")" 0
ktap_eq "link, flaps, PFC priority 3 (enabled, pause tx/rx, storm, storms)" \
	"$(val "fabtel_port_up{$L}") $(val "fabtel_link_flaps_total{$L}") $(val "fabtel_pfc_enabled{$L,priority=\"3\"}") $(val "fabtel_pfc_pause_tx_total{$L,priority=\"3\"}") $(val "fabtel_pfc_pause_rx_total{$L,priority=\"3\"}") $(val "fabtel_pfc_storm{$L,priority=\"3\"}") $(val "fabtel_pfc_storms_total{$L,priority=\"3\"}")" \
	"1 2 1 1200 34 1 2"
ktap_eq "sysfs on standby (not listed) while fabtel.ko is there" \
	"$(grep -c 'source="sysfs"' <<<"$m")" 0

printf 'fabtel-snapshot 2\ndevice x\nend\n' >"$K/snapshot"
out=$("$FABTELD" --bpf off --set sysfs_root="$TMP/ko" --once snapshot 2>&1)
ktap_eq "an unknown snapshot version: fabtel_ko unavailable, says why" \
	"$(jq -r '.sources.fabtel_ko | "\(.state): \(.why)"' <<<"$out")" \
	"unavailable: $K/snapshot: not a version 1 snapshot"

# ---- plain sysfs (no fabtel.ko) ----
S=$TMP/plain/sys
P=$S/class/infiniband/bnxt_re0/ports/1
mkdir -p "$P/hw_counters" "$P/gid_attrs/ndevs" "$S/class/net/ens2np0" \
	"$S/class/infiniband/mlx4_ib0/ports/1"
echo Ethernet >"$P/link_layer"
echo '4: ACTIVE' >"$P/state"
echo ens2np0 >"$P/gid_attrs/ndevs/0"
echo 77 >"$P/hw_counters/oos_drop_count"
echo 5 >"$P/hw_counters/to_retransmits"
echo 3 >"$P/hw_counters/some_vendor_thing"
echo 1 >"$S/class/net/ens2np0/carrier"
echo 4 >"$S/class/net/ens2np0/carrier_down_count"
echo InfiniBand >"$S/class/infiniband/mlx4_ib0/ports/1/link_layer"
m=$("$FABTELD" --bpf off --set sysfs_root="$TMP/plain" --once metrics 2>&1)
L='device="bnxt_re0",port="1",netdev="ens2np0"'
ktap_eq "plain sysfs: bnxt_re names mapped (oos_drop_count, to_retransmits), carrier, flaps" \
	"$(val 'fabtel_source_up{source="sysfs"}') $(val "fabtel_port_out_of_sequence_total{$L}") $(val "fabtel_port_local_ack_timeout_total{$L}") $(val "fabtel_port_carrier{$L}") $(val "fabtel_link_flaps_total{$L}")" \
	"1 77 5 1 4"
ktap_eq "an InfiniBand port is not RoCE: not listed" "$(grep -c mlx4_ib0 <<<"$m")" 0
ktap_end
