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
# rdma's own device list and the kernel log (no BUG/WARNING/oops).  Flight
# records: REC_CYCLES times fakeroce9's carrier drops and the device is
# deleted while its record is still recording, with 2 readers reading
# every record file whole; a port whose records are replaced while read
# gives whole or torn reads (the trailer says which), never garbage; a
# record file held open across rmmod reads as an error.  Runs
# inside guest a.  make check runs 40 + 16 rounds; make stress (about
# 35 minutes under TCG) runs 1,000 of each.
. "$(dirname "$0")/lib.sh"

CYCLES=${CYCLES:-40}
CHURN_CYCLES=${CHURN_CYCLES:-16}
REC_CYCLES=${REC_CYCLES:-10}
DBG=/sys/kernel/debug/fakeroce
FT=/sys/kernel/fabtel
FR=/sys/kernel/fakeroce

ktap_begin 18

cleanup() {
	kill "${readers[@]}" "${recreaders[@]}" 2>/dev/null
	[[ -n ${flapper:-} ]] && kill "$flapper" 2>/dev/null
	echo 8 >$FR/del_device 2>/dev/null
	[[ -n ${modloop:-} ]] && kill "$modloop" 2>/dev/null
	rdma link delete fbx 2>/dev/null
	echo 9 >$FR/del_device 2>/dev/null
	ip link del fbd0 2>/dev/null
	rmmod fakeroce 2>/dev/null
}
trap cleanup EXIT

# One reader: every file, builtins only (no fork per file); it waits while
# $PAUSE exists.
PAUSE=/tmp/fabtel-stress-pause
rm -f $PAUSE
reader() {
	local f v
	while :; do
		[[ -e $PAUSE ]] && { sleep 0.2; continue; }
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

# ---- flight records: read while frozen, the device removed mid-recording ----------
# A record file read whole, as fabteld reads it (cat: read() until EOF).
recreader() {
	local f
	while :; do
		for f in $FT/*/ports/*/recorder/record*; do cat "$f" >/dev/null 2>&1; done
	done
}
recreaders=()
for _ in 1 2; do
	recreader &
	recreaders+=($!)
done
rec_mid=0 t0=$SECONDS
for ((i = 0; i < REC_CYCLES; i++)); do
	echo "9 mlx5" >$FR/new_device && ip link set fre9 up
	sleep 0.3	# a few samples in the ring
	echo 0 >$DBG/9/carrier
	sleep 0.$((1 + i % 3))
	[[ $(cat $FT/fakeroce9/ports/1/recorder/recording 2>/dev/null) == 1 ]] && rec_mid=$((rec_mid + 1))
	echo 9 >$FR/del_device
done
ktap_info "$REC_CYCLES record cycles in $((SECONDS - t0)) s"
ktap_eq "fakeroce9 deleted while its record was recording (recorder/recording 1 just before), every cycle" \
	"$rec_mid" "$REC_CYCLES"
# One read of a record file, as fabteld judges it (include/fabtel_record.h):
# whole (magic, version, sizes, trailer seq = header seq), torn (sizes or
# seqs of two records: a replacement between its pages), empty, or other.
rec_kind() {
	local f=/tmp/stress-rec len magic ver n hseq tseq
	cat "$1" >$f 2>/dev/null
	len=$(stat -c %s $f)
	((len == 0)) && { echo empty; return; }
	set -- $(od -An -tu4 -N8 $f)
	magic=$1 ver=$2
	((magic == 0x31525446 && ver == 1)) || { echo "other(len $len magic $magic)"; return; }
	n=$(od -An -tu4 -j52 -N4 $f)
	((len == 64 + n * 192 + 16)) || { echo torn; return; }
	hseq=$(od -An -tu8 -j16 -N8 $f) tseq=$(od -An -tu8 -j$((len - 16)) -N8 $f)
	((hseq == tseq)) && echo whole || echo torn
}
# fakeroce8 stays: its carrier flaps every 150 ms (records replaced while
# they are read) while its slots are read over and over; the other readers
# wait meanwhile (the guest's one vCPU)
kill "${recreaders[@]}" 2>/dev/null
wait "${recreaders[@]}" 2>/dev/null
recreaders=()
touch $PAUSE
# (records 300 ms long, so that they are replaced every half second or so,
# whatever the machine's pace: the reads go on until 8 records were made)
R8=$FT/fakeroce8/ports/1/recorder
echo 300 >/sys/module/fabtel/parameters/record_after_ms
echo "8 mlx5" >$FR/new_device && ip link set fre8 up
( while :; do echo 0 >$DBG/8/carrier; sleep 0.05; echo 1 >$DBG/8/carrier; sleep 0.1; done ) &
flapper=$!
whole=0 torn=0 other=""
t0=$SECONDS
for ((i = 0; i < 24 || ($(cat $R8/seq) <= 8 && SECONDS - t0 < 60); i++)); do
	out=$(rec_kind $FT/fakeroce8/ports/1/recorder/record$((i % 4)))
	case $out in
	whole) whole=$((whole + 1)) ;;
	torn | empty) torn=$((torn + 1)) ;;
	*) other+="$out; " ;;
	esac
done
kill "$flapper"
wait "$flapper" 2>/dev/null
flapper=
rm -f $PAUSE
ktap_info "$i reads of fakeroce8's records in $((SECONDS - t0)) s while they were replaced: $whole whole, $torn torn or empty; seq $(cat $R8/seq), dropped $(cat $R8/dropped)"
ktap_check "each read whole or torn (the trailer says so), never another layout; records were replaced meanwhile" \
	bash -c '[[ -z $1 ]] && (($2 > 0 && $3 > 4))' _ "$other" "$whole" "$(cat $R8/seq)"
sleep 1	# the last record published (record_after_ms 300)
echo 2000 >/sys/module/fabtel/parameters/record_after_ms
bad=0
for k in 0 1 2 3; do [[ $(rec_kind $R8/record$k) == whole ]] || bad=$((bad + 1)); done
ktap_eq "once quiet, all 4 slots are whole records" "$bad" 0
echo 8 >$FR/del_device

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
exec 8<"$(ls -d $FT/*/ports/1/recorder/record0 | head -1)"
ktap_check "rmmod fabtel while they read" rmmod fabtel
ktap_check "/sys/kernel/fabtel is gone" test ! -e $FT
out=$( (read -r -u 7 line; echo "rc=$?") 2>&1)
exec 7<&-
ktap_check "a file held open across rmmod reads as an error, not stale data" \
	grep -q 'No such device' <<<"$out"
out=$( (cat <&8 >/dev/null; echo "rc=$?") 2>&1)
exec 8<&-
ktap_check "a record file held open across rmmod reads as an error: $out" \
	grep -q 'No such device' <<<"$out"
kill "${readers[@]}" "${recreaders[@]}" 2>/dev/null
wait "${readers[@]}" "${recreaders[@]}" 2>/dev/null
readers=() recreaders=()
trouble=$(kernel_trouble 'fabtel-stress-start')
ktap_eq "kernel log since the start: no BUG/WARNING/oops/refcount" "$trouble" ""

ktap_end
