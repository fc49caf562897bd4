#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fabteld_shapes.sh - fabteld over a /sys-like tree (sysfs_root) of a
# host with SR-IOV and a RoCE LAG beside a management NIC, laid out with the
# kernel's links: a PF rocep8s0f0 (sriov_numvfs 2) and its VFs
# rocep8s0f0v0/v1 (physfn), a LAG device mlx5_bond_0 on bond0
# (bonding/slaves), and mgmt_0 (bnxt_en's function: driver bnxt_re).
#  - the labels of fabtel_port_info and the snapshot's port objects, against
#    the tree's own links and files;
#  - the include/exclude lists: a device left out has no series, is listed
#    with its rule in the snapshot and the log, and costs no read: strace
#    (the independent witness) sees no open of its files, its netdev's or
#    its PCI function's from start to the end;
#  - a bad glob: fabteld refuses to start, naming the file and line.
. "$(dirname "$0")/../lib.sh"

FABTELD=$REPO/build/asan/fabteld
[[ -x $FABTELD ]] || ktap_skip_all "build/asan/fabteld not built (make tests)"

ktap_begin 18
TMP=$(mktemp -d)
chmod 755 "$TMP"	# fabteld started as root reads it as nobody
pid= fpid=
trap 'if [[ -n $pid ]]; then kill $fpid "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi; rm -rf "$TMP"' EXIT
R=$TMP/root S=$TMP/root/sys

# ---- the tree --------------------------------------------------------------
# fn DIR: a PCI function under sys/devices, bound to DRIVER
fn() { # bdf driver
	mkdir -p "$S/devices/pci0000:00/$1" "$S/bus/pci/drivers/$2"
	ln -s "../../../bus/pci/drivers/$2" "$S/devices/pci0000:00/$1/driver"
}
# dev NAME BDF NETDEV: an RDMA device with one ACTIVE Ethernet port
dev() { # name bdf netdev
	local p=$S/class/infiniband/$1/ports/1 n=$S/class/net/$3
	mkdir -p "$p/hw_counters" "$p/gid_attrs/ndevs" "$n/statistics"
	ln -s "../../../devices/pci0000:00/$2" "$S/class/infiniband/$1/device"
	echo Ethernet >"$p/link_layer"
	echo '4: ACTIVE' >"$p/state"
	echo "$3" >"$p/gid_attrs/ndevs/0"
	echo 7 >"$p/hw_counters/out_of_sequence"
	echo 1 >"$n/carrier"
	echo 0 >"$n/carrier_down_count"
	echo 100 >"$n/statistics/rx_bytes"
	echo 200 >"$n/statistics/tx_bytes"
}
fn 0000:08:00.0 mlx5_core
echo 2 >"$S/devices/pci0000:00/0000:08:00.0/sriov_numvfs"
fn 0000:08:00.2 mlx5_core
fn 0000:08:00.3 mlx5_core
ln -s ../0000:08:00.0 "$S/devices/pci0000:00/0000:08:00.2/physfn"
ln -s ../0000:08:00.0 "$S/devices/pci0000:00/0000:08:00.3/physfn"
fn 0000:0a:00.0 mlx5_core
fn 0000:09:00.0 bnxt_en
dev rocep8s0f0 0000:08:00.0 ens8f0np0
dev rocep8s0f0v0 0000:08:00.2 ens8f0v0
dev rocep8s0f0v1 0000:08:00.3 ens8f0v1
dev mlx5_bond_0 0000:0a:00.0 bond0
mkdir -p "$S/class/net/bond0/bonding"
echo 'ens1f0np0 ens1f1np1' >"$S/class/net/bond0/bonding/slaves"
dev mgmt_0 0000:09:00.0 eno1

run() { "$FABTELD" --bpf off --set sysfs_root="$R" "$@" 2>>"$TMP/all_err"; }
info() { awk '/^fabtel_port_info\{/ { sub(/^fabtel_port_info/, ""); print $1 }' <<<"$1"; }

# ---- the labels ------------------------------------------------------------
m=$(run --once metrics)
ktap_eq "fabtel_port_info: PF (pci, vfs 2), its VFs (pf, pf_device), the LAG port (bond_slaves), mgmt_0 (driver bnxt_re)" \
	"$(info "$m")" \
	'{device="mgmt_0",port="1",netdev="eno1",driver="bnxt_re",pci="0000:09:00.0",pf="",pf_device="",vfs="",bond_slaves=""}
{device="mlx5_bond_0",port="1",netdev="bond0",driver="mlx5",pci="0000:0a:00.0",pf="",pf_device="",vfs="",bond_slaves="ens1f0np0,ens1f1np1"}
{device="rocep8s0f0",port="1",netdev="ens8f0np0",driver="mlx5",pci="0000:08:00.0",pf="",pf_device="",vfs="2",bond_slaves=""}
{device="rocep8s0f0v0",port="1",netdev="ens8f0v0",driver="mlx5",pci="0000:08:00.2",pf="0000:08:00.0",pf_device="rocep8s0f0",vfs="",bond_slaves=""}
{device="rocep8s0f0v1",port="1",netdev="ens8f0v1",driver="mlx5",pci="0000:08:00.3",pf="0000:08:00.0",pf_device="rocep8s0f0",vfs="",bond_slaves=""}'
if command -v promtool >/dev/null; then
	ktap_check "promtool check metrics: clean" bash -c 'promtool check metrics <<<"$1"' _ "$m"
else
	ktap_skip "promtool check metrics: clean" "no promtool"
fi
s=$(run --once snapshot)
ktap_eq "snapshot ports: pci, pf {pci, device}, vfs, bond_slaves (null where none)" \
	"$(jq -c '[.ports[] | [.device, .driver, .pci, .pf, .vfs, .bond_slaves]]' <<<"$s")" \
	'[["mgmt_0","bnxt_re","0000:09:00.0",null,null,null],["mlx5_bond_0","mlx5","0000:0a:00.0",null,null,["ens1f0np0","ens1f1np1"]],["rocep8s0f0","mlx5","0000:08:00.0",null,2,null],["rocep8s0f0v0","mlx5","0000:08:00.2",{"pci":"0000:08:00.0","device":"rocep8s0f0"},null,null],["rocep8s0f0v1","mlx5","0000:08:00.3",{"pci":"0000:08:00.0","device":"rocep8s0f0"},null,null]]'
ktap_eq "nothing set: nothing left out" "$(jq -c .excluded_devices <<<"$s")" "[]"

# ---- left out, under strace ------------------------------------------------
# the daemon with KEY=VALUE under strace -f, until 3 samples are done; its
# /metrics, snapshot and opens kept in $TMP/{m,s,trace}.  Its pid from the
# shell it is exec'd from; strace (bounded) ends with it, with its status.
traced() { # key=value
	local port url
	port=$(free_port)
	url=http://127.0.0.1:$port
	rm -f "$TMP/pid"
	# LeakSanitizer cannot run under ptrace: the other checks of ASan do
	ASAN_OPTIONS=detect_leaks=0 timeout -s KILL 120 \
		strace -f -qq -e trace=open,openat -o "$TMP/trace" \
		sh -c 'echo $$ >"$0"; exec "$@"' "$TMP/pid" \
		"$FABTELD" --bpf off --set sysfs_root="$R" --set "$1" --interval-ms 200 \
		--listen "127.0.0.1:$port" 2>"$TMP/err" &
	pid=$!
	wait_for 10 test -s "$TMP/pid"
	fpid=$(cat "$TMP/pid")
	wait_for 30 eval '(( $(curl -sf "$url/api/v1/snapshot" | jq -r .samples) >= 3 ))' ||
		ktap_info "fabteld with $1 did not serve 3 samples: $(cat "$TMP/err")"
	curl -sf "$url/metrics" >"$TMP/m"
	curl -sf "$url/api/v1/snapshot" >"$TMP/s"
	kill "$fpid"
	wait "$pid"
	rcs+=" $?"
	pid= fpid=
	cat "$TMP/err" >>"$TMP/all_err"
}
rcs=
# opens of the tree's files; of mgmt_0's own, its netdev's, its function's
opens() { grep -c "\"$R/" "$TMP/trace"; }
mgmt_opens() { grep -E "\"$R/[^\"]*(mgmt_0|/eno1|0000:09:00\.0)" "$TMP/trace" | head -3; }

traced 'exclude_devices=nothing_*'
ktap_check "a list that matches nothing: strace sees mgmt_0's files opened (the witness below can fail)" \
	test -n "$(mgmt_opens)"

traced 'exclude_devices=mgmt_*'
ktap_check "exclude_devices = mgmt_*: strace saw fabteld open the tree's files ($(opens)), none of mgmt_0's, eno1's or 0000:09:00.0's" \
	bash -c '(( $1 > 20 )) && [[ -z $2 ]]' _ "$(opens)" "$(mgmt_opens)"
ktap_eq "... no series names mgmt_0 or eno1, the others are there" \
	"$(grep -c 'mgmt_0\|eno1' "$TMP/m") $(grep -c '^fabtel_port_info{' "$TMP/m")" "0 4"
ktap_eq "... the snapshot lists it with its rule" \
	"$(jq -c .excluded_devices "$TMP/s")" \
	'[{"device":"mgmt_0","driver":null,"rule":"exclude_devices","match":"mgmt_*"}]'
ktap_check "... and the log says so at start" \
	grep -qx 'fabteld: device mgmt_0 left out by exclude_devices = mgmt_\*' "$TMP/err"

traced exclude_drivers=bnxt_re
ktap_check "exclude_drivers = bnxt_re: no open of mgmt_0's files (its driver from links alone)" \
	bash -c '(( $1 > 20 )) && [[ -z $2 ]]' _ "$(opens)" "$(mgmt_opens)"
ktap_eq "... no series names it; the snapshot says by which driver" \
	"$(grep -c 'mgmt_0\|eno1' "$TMP/m") $(jq -c .excluded_devices "$TMP/s")" \
	'0 [{"device":"mgmt_0","driver":"bnxt_re","rule":"exclude_drivers","match":"bnxt_re"}]'

traced 'include_devices=rocep*'
ktap_eq "include_devices = rocep*: only the PF and its VFs have series" \
	"$(grep -oE '[{,]device="[^"]*"' "$TMP/m" | cut -c2- | sort -u | xargs)" \
	"device=rocep8s0f0 device=rocep8s0f0v0 device=rocep8s0f0v1"
ktap_eq "... and ports in the snapshot" \
	"$(jq -r '[.ports[].device] | join(" ")' "$TMP/s")" "rocep8s0f0 rocep8s0f0v0 rocep8s0f0v1"
ktap_eq "... the rest listed as left out by the include list" \
	"$(jq -r '[.excluded_devices[] | "\(.device):\(.rule):\(.match)"] | join(" ")' "$TMP/s")" \
	"mgmt_0:include_devices:null mlx5_bond_0:include_devices:null"
ktap_check "... no open of the two" \
	bash -c '! grep -qE "\"$1/[^\"]*(mgmt_0|mlx5_bond_0|/eno1|/bond0)" "$2"' _ "$R" "$TMP/trace"
ktap_eq "fabteld exits 0 on SIGTERM each time, no sanitizer report" \
	"$rcs $(grep -c Sanitizer "$TMP/all_err")" " 0 0 0 0 0"

# ---- a bad glob ------------------------------------------------------------
printf 'interval_ms = 500\n# the management NIC\nexclude_devices = mgmt_* [\n' >"$TMP/bad.conf"
out=$("$FABTELD" --config "$TMP/bad.conf" --bpf off --set sysfs_root="$R" --once metrics 2>&1)
rc=$?
ktap_eq "exclude_devices = mgmt_* [: fabteld refuses to start (2), naming the file and line" \
	"$rc $out" \
	"2 fabteld: $TMP/bad.conf:3: exclude_devices: '[' is not a glob of a name (an unclosed '[')"
out=$("$FABTELD" --bpf off --set 'include_drivers=mlx5,bnxt_re' --set 'exclude_devices=mlx5_[45]' \
	--check-config 2>&1)
ktap_eq "include_drivers = mlx5,bnxt_re and exclude_devices = mlx5_[45]: --check-config takes them" \
	"$? $out" "0 fabteld: settings OK (listen 127.0.0.1:9465, 0 job rule(s))"
ktap_end
