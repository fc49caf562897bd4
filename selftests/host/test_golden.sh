#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_golden.sh - fabteld's whole output over committed fixture trees,
# compared with committed golden files, as node_exporter keeps its
# e2e-output.txt: `fabteld --once metrics|jobs|snapshot` (BPF off) over
#   fixtures/ko     a fabtel.ko host: the snapshots fabtel.ko wrote in the
#                   lab for fakeroce's mlx5, bnxt_re and irdma personalities
#                   and Soft-RoCE (rxa), and their netdevs' byte counters
#   fixtures/sysfs  the same devices as a host without fabtel.ko sees them:
#                   /sys/class/infiniband (link layer, state, netdev,
#                   hw_counters) and /sys/class/net, copied from the lab,
#                   plus an InfiniBand port that must be left out
# Volatile values (times, durations, version, the build host's RDMA
# netlink) are blanked by the rules in golden/volatile.sed first, and the
# fixture's path (where the tree was cloned) is written <root>.
#
# A difference fails the case and is printed.  After an intended change:
#   UPDATE_GOLDEN=1 bash selftests/host/test_golden.sh   (then review git diff)
# FABTELD=path tests another build.
. "$(dirname "$0")/../lib.sh"

FABTELD=${FABTELD:-$REPO/build/fabteld}
[[ -x $FABTELD ]] || ktap_skip_all "$FABTELD not built (make)"
H=$REPO/selftests/host
FIXTURES=(ko sysfs)
WHATS=(metrics jobs snapshot)

ktap_begin $((${#FIXTURES[@]} * ${#WHATS[@]} + 2))
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

output() { # fixture what
	"$FABTELD" --set "sysfs_root=$H/fixtures/$1" --set "proc_root=$H/fixtures/$1" \
		--set bpf=off --once "$2" 2>"$TMP/err" |
		sed -f "$H/golden/volatile.sed" -f <(root_rules "$H/fixtures/$1")
}

for f in "${FIXTURES[@]}"; do
	for w in "${WHATS[@]}"; do
		golden=$H/golden/$f-$w.txt
		if ! output "$f" "$w" >"$TMP/out"; then
			ktap_fail "$f: --once $w" "$(cat "$TMP/err")"
			continue
		fi
		if [[ ${UPDATE_GOLDEN:-0} == 1 ]]; then
			cp "$TMP/out" "$golden"
			ktap_pass "$f: --once $w: golden/$f-$w.txt rewritten"
		elif diff -u "$golden" "$TMP/out" >"$TMP/diff"; then
			ktap_pass "$f: --once $w is golden/$f-$w.txt ($(wc -l <"$golden") lines)"
		else
			ktap_fail "$f: --once $w differs from golden/$f-$w.txt" "$(head -60 "$TMP/diff")"
		fi
	done
done

# the rules blank only what moves: two runs a second apart are the same
output ko snapshot >"$TMP/a"
sleep 1
output ko snapshot >"$TMP/b"
if diff -u "$TMP/a" "$TMP/b" >"$TMP/diff" && ! grep -q '[0-9]\{10\}\.[0-9]' "$TMP/a"; then
	ktap_pass "two runs a second apart give the same filtered output, no time left in it"
else
	ktap_fail "filtered output moved between runs" "$(head -30 "$TMP/diff")"
fi
# the order of the ports is fabteld's, not the directory's: a copy made in
# sorted order on tmpfs (which lists the newest entry first) reads the same
shm=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
(cd "$H/fixtures/ko" && find . -type d | sort | while read -r d; do mkdir -p "$shm/$d"; done &&
	find . -type f | sort | while read -r f; do cp "$f" "$shm/$f"; done)
"$FABTELD" --set "sysfs_root=$shm" --set bpf=off --once metrics 2>"$TMP/err" |
	sed -f "$H/golden/volatile.sed" -f <(root_rules "$shm") >"$TMP/out"
listed=$(ls -U "$shm/sys/kernel/fabtel" | xargs)
rm -rf "$shm"
if diff -u "$H/golden/ko-metrics.txt" "$TMP/out" >"$TMP/diff"; then
	ktap_pass "ko: the same metrics from a copy whose directory lists $listed"
else
	ktap_fail "ko: the copy listing $listed gives other metrics" "$(head -40 "$TMP/diff")"
fi
ktap_end
