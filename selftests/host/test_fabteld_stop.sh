#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fabteld_stop.sh - fabteld's stop and privileges (issue [2/8] items 6
# and 7), on this host, ASan build:
#  - a source read that blocks (a FIFO where a hw counter should be, as a
#    hung driver's sysfs file would) does not hold up SIGTERM: exit within
#    2 s, saying why; before, the read was restarted and fabteld never ended;
#  - without the wire program fabteld keeps no capability at all (before:
#    CAP_NET_ADMIN for its whole life), as nobody or as root.
. "$(dirname "$0")/../lib.sh"

FABTELD=$REPO/build/asan/fabteld
[[ -x $FABTELD ]] || ktap_skip_all "build/asan/fabteld not built (make)"
[[ $(id -u) == 0 ]] || ktap_skip_all "needs root (it drops privileges)"

ktap_begin 6
TMP=$(mktemp -d)
chmod 755 "$TMP"
pid=
trap 'kill -9 $pid 2>/dev/null; rm -rf "$TMP"' EXIT

# a plain-sysfs RoCE port whose counter is a FIFO nobody writes
S=$TMP/plain/sys
P=$S/class/infiniband/bnxt_re0/ports/1
mkdir -p "$P/hw_counters" "$P/gid_attrs/ndevs" "$S/class/net/ens2np0"
echo Ethernet >"$P/link_layer"
echo '4: ACTIVE' >"$P/state"
echo ens2np0 >"$P/gid_attrs/ndevs/0"
echo 1 >"$S/class/net/ens2np0/carrier"
echo 0 >"$S/class/net/ens2np0/carrier_down_count"
mkfifo -m 644 "$P/hw_counters/oos_drop_count"
chmod -R a+rX "$TMP/plain"

PORT=$(free_port)
"$FABTELD" --bpf off --user root --set sysfs_root="$TMP/plain" --listen "127.0.0.1:$PORT" \
	2>"$TMP/err" &
pid=$!
sleep 1.5
ktap_check "fabteld is blocked reading the FIFO (wchan $(cat /proc/$pid/wchan 2>/dev/null)): not serving yet" \
	bash -c '! curl -sf --max-time 1 "$1"' _ "http://127.0.0.1:$PORT/healthz"
t0=$(date +%s%N)
kill -TERM "$pid"
for i in $(seq 50); do	# 5 s, then SIGKILL: the test must not hang on a failure
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
ms=$((($(date +%s%N) - t0) / 1000000))
kill -9 "$pid" 2>/dev/null
wait "$pid"
rc=$?
pid=
ktap_info "$(cat "$TMP/err")"
ktap_check "SIGTERM during a blocked source read: gone within 2 s (${ms} ms, exit $rc)" \
	test "$ms" -lt 2000
ktap_check "... saying why, exit 1" \
	bash -c '[[ $1 == 1 ]] && grep -q "a source read is blocked" "$2"' _ "$rc" "$TMP/err"

# capabilities once running: none without the wire program
rm "$P/hw_counters/oos_drop_count"
echo 7 >"$P/hw_counters/oos_drop_count"
caps() { # USER: "uid CapEff" of a running fabteld --bpf off
	local port
	port=$(free_port)
	"$FABTELD" --bpf off --user "$1" --set sysfs_root="$TMP/plain" \
		--listen "127.0.0.1:$port" 2>>"$TMP/err2" &
	pid=$!
	wait_for 20 curl -sf "http://127.0.0.1:$port/healthz" >/dev/null
	awk '/^(Uid|CapEff)/ { print $2 }' "/proc/$pid/status" | xargs
	kill -TERM "$pid"
	wait "$pid"
	echo "rc=$?"
	pid=
}
ktap_eq "--bpf off as nobody: no capability left (CapEff 0; was CAP_NET_ADMIN)" \
	"$(caps nobody | xargs)" "$(id -u nobody) 0000000000000000 rc=0"
ktap_eq "--bpf off, user root: uid 0 but no capability left" \
	"$(caps root | xargs)" "0 0000000000000000 rc=0"
ktap_check "it says what it kept" grep -q "running as nobody with no capabilities" "$TMP/err2"
ktap_end
