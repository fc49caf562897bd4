#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fablab: guest=a
#
# lab_fabtel_stress.sh - devices come and go under fabtel.ko while readers
# hold its files: CYCLES rounds of `rdma link add/delete` (an extra rxe on a
# dummy netdev) and fakeroce new_device/del_device, with 4 readers looping
# over every file under /sys/kernel/fabtel; then CHURN_CYCLES more rounds
# while a loop unloads and reloads fabtel.ko (rmmod/insmod) as fast as it
# can; then rmmod fabtel with the readers still running.  Checked against
# rdma's own device list and the kernel log (no BUG/WARNING/oops).  Runs
# inside guest a.  make check runs 40 + 16 rounds; make stress (about
# 35 minutes under TCG) runs 1,000 of each.
. "$(dirname "$0")/lib.sh"

CYCLES=${CYCLES:-40}
CHURN_CYCLES=${CHURN_CYCLES:-16}
FT=/sys/kernel/fabtel
FR=/sys/kernel/fakeroce

ktap_begin 14

cleanup() {
	kill "${readers[@]}" 2>/dev/null
	[[ -n ${modloop:-} ]] && kill "$modloop" 2>/dev/null
	rdma link delete fbx 2>/dev/null
	echo 9 >$FR/del_device 2>/dev/null
	ip link del fbd0 2>/dev/null
	rmmod fakeroce 2>/dev/null
}
trap cleanup EXIT

# One reader: every file, builtins only (no fork per file).
reader() {
	local f v
	while :; do
		for f in $FT/*/driver $FT/*/ports/*/* $FT/*/ports/*/*/* \
			 $FT/*/ports/*/*/*/*; do
			[[ -f $f ]] && read -r -d '' v <"$f"
		done 2>/dev/null
	done
}

modprobe ib_core
rmmod fabtel 2>/dev/null
insmod "$REPO/kmod/fabtel.ko" $KO_FAST && insmod "$REPO/kmod/fakeroce.ko"
ktap_check "fabtel.ko and fakeroce.ko loaded" test -d $FT -a -d $FR
echo "fabtel-stress-start" >/dev/kmsg
ip link add fbd0 type dummy && ip link set fbd0 up

readers=()
for _ in 1 2 3 4; do
	reader &
	readers+=($!)
done

seen_rxe=0 seen_fr=0 gone=0
for ((i = 0; i < CYCLES; i++)); do
	rdma link add fbx type rxe netdev fbd0 && [[ -d $FT/fbx ]] && seen_rxe=$((seen_rxe + 1))
	echo "9 mlx5" >$FR/new_device && [[ -d $FT/fakeroce9 ]] && seen_fr=$((seen_fr + 1))
	rdma link delete fbx
	echo 9 >$FR/del_device
	[[ ! -e $FT/fbx && ! -e $FT/fakeroce9 ]] && gone=$((gone + 1))
done
ktap_eq "rxe fbx appeared under fabtel in every cycle" "$seen_rxe" "$CYCLES"
ktap_eq "fakeroce9 appeared under fabtel in every cycle" "$seen_fr" "$CYCLES"
ktap_eq "both were gone after every delete" "$gone" "$CYCLES"
ktap_eq "rdma's own list has no leftover device" \
	"$(rdma link show | grep -c -e 'fbx/' -e 'fakeroce9/')" 0

# ---- the same under a rmmod/insmod loop of fabtel.ko ----------------------------
# fabtel.ko's ib client sees devices added and removed while it registers
# and unregisters itself; the readers meet a tree that comes and goes.
LOOP_OUT=$(mktemp)
STOP=$(mktemp -u)
(
	n=0 bad=0
	while [[ ! -e $STOP ]]; do
		rmmod fabtel || bad=$((bad + 1))
		insmod "$REPO/kmod/fabtel.ko" $KO_FAST || bad=$((bad + 1))
		n=$((n + 1))
	done
	echo "$n $bad" >"$LOOP_OUT"
) 2>"$LOOP_OUT.err" &
modloop=$!
dev_fail=0
for ((i = 0; i < CHURN_CYCLES; i++)); do
	rdma link add fbx type rxe netdev fbd0 || dev_fail=$((dev_fail + 1))
	echo "9 mlx5" >$FR/new_device || dev_fail=$((dev_fail + 1))
	rdma link delete fbx || dev_fail=$((dev_fail + 1))
	echo 9 >$FR/del_device || dev_fail=$((dev_fail + 1))
done
touch "$STOP"
wait "$modloop"
modloop=
read -r rounds bad <"$LOOP_OUT"
ktap_info "$CHURN_CYCLES device cycles against $rounds rmmod/insmod rounds of fabtel.ko"
[[ -s $LOOP_OUT.err ]] && ktap_info "$(head -5 "$LOOP_OUT.err")"
rm -f "$LOOP_OUT" "$LOOP_OUT.err" "$STOP"
ktap_eq "every device add/delete succeeded under the module loop" "$dev_fail" 0
ktap_check "fabtel.ko went round at least 3 times meanwhile, every rmmod and insmod succeeded" \
	bash -c '(($1 >= 3 && $2 == 0))' _ "${rounds:-0}" "${bad:-1}"
# what the reloaded module lists against rdma's own device list
have=$(for d in $FT/*/driver; do basename "$(dirname "$d")"; done | sort | tr '\n' ' ')
want=$(rdma link show | awk '{ split($2, a, "/"); print a[1] }' | sort -u | tr '\n' ' ')
ktap_info "fabtel lists: $have"
ktap_eq "fabtel.ko reloaded lists exactly rdma's devices" "$have" "$want"
ktap_eq "rdma's own list has no leftover device after the loop" \
	"$(rdma link show | grep -c -e 'fbx/' -e 'fakeroce9/')" 0

alive=0
for r in "${readers[@]}"; do kill -0 "$r" 2>/dev/null && alive=$((alive + 1)); done
ktap_eq "4 readers still running at rmmod" "$alive" 4
exec 7<"$(ls -d $FT/*/ports/1/snapshot | head -1)"	# held open across rmmod
ktap_check "rmmod fabtel while they read" rmmod fabtel
ktap_check "/sys/kernel/fabtel is gone" test ! -e $FT
out=$( (read -r -u 7 line; echo "rc=$?") 2>&1)
exec 7<&-
ktap_check "a file held open across rmmod reads as an error, not stale data" \
	grep -q 'No such device' <<<"$out"
kill "${readers[@]}" 2>/dev/null
wait "${readers[@]}" 2>/dev/null
readers=()
trouble=$(kernel_trouble 'fabtel-stress-start')
ktap_eq "kernel log since the start: no BUG/WARNING/oops/refcount" "$trouble" ""

ktap_end
