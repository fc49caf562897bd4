#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_cli.sh - one command-line convention for every fabtel tool (fabteld,
# fabtop, fabtel-trace, fabtel-traffic, fablab): -h and --help print the
# usage on stdout and exit 0; -V and --version print "NAME VERSION" (the
# Makefile's VERSION) and exit 0; a bad option exits 2 with a message on
# stderr and nothing on stdout; a runtime failure exits 1.
. "$(dirname "$0")/../lib.sh"

B=$REPO/build
[[ -x $B/fabteld && -x $B/fabtop && -x $B/fabtel-trace && -x $B/fabtel-traffic ]] ||
	ktap_skip_all "not built (make)"
VERSION=$(sed -n 's/^VERSION := //p' "$REPO/Makefile")
tools=("$B/fabteld" "$B/fabtop" "$B/fabtel-trace" "$B/fabtel-traffic" "$REPO/scripts/fablab")

ktap_begin $((4 * ${#tools[@]} + 5))
TMP=$(mktemp -d)
trap 'kill $holder 2>/dev/null; rm -rf "$TMP"' EXIT
holder=

run() { # TOOL ARGS...: "rc" into $TMP/rc, stdout and stderr into files
	timeout 10 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	echo $? >"$TMP/rc"
}
for t in "${tools[@]}"; do
	n=$(basename "$t")
	for h in -h --help; do
		run "$t" $h
		ktap_eq "$n $h: exit 0, usage on stdout" \
			"$(cat "$TMP/rc") $(grep -ciE "usage|$n" "$TMP/out" | awk '{ print ($1 > 0) }')" "0 1"
	done
	for v in -V --version; do
		run "$t" $v
		ktap_eq "$n $v: exit 0, '$n $VERSION'" \
			"$(cat "$TMP/rc") $(head -1 "$TMP/out")" "0 $n $VERSION"
	done
done
for t in "${tools[@]}"; do
	run "$t" --no-such-option
	ktap_info "$(basename "$t") --no-such-option: $(head -2 "$TMP/err")"
	bad+=("$(basename "$t")=$(cat "$TMP/rc")/$(wc -c <"$TMP/out")/$(($(wc -c <"$TMP/err") > 0))")
done
ktap_eq "a bad option: exit 2, nothing on stdout, a message on stderr (each tool)" "${bad[*]}" \
	"fabteld=2/0/1 fabtop=2/0/1 fabtel-trace=2/0/1 fabtel-traffic=2/0/1 fablab=2/0/1"

# runtime failures: 1
port=$(free_port)
socat TCP-LISTEN:"$port",bind=127.0.0.1,reuseaddr,fork /dev/null &
holder=$!
wait_for 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null
run "$B/fabteld" --bpf off --listen "127.0.0.1:$port"
ktap_eq "fabteld on a port already taken: exit 1" "$(cat "$TMP/rc")" 1
run "$B/fabtop" --once --url "http://127.0.0.1:1"
ktap_eq "fabtop --once with no fabteld to read: exit 1" "$(cat "$TMP/rc")" 1
run "$B/fabtel-traffic" 127.0.0.1 --iters 1
ktap_eq "fabtel-traffic with no RDMA route to its peer: exit 1" "$(cat "$TMP/rc")" 1
FABLAB_DIR=$TMP/nolab run "$REPO/scripts/fablab" run a -- true
ktap_eq "fablab run on a lab that is not up: exit 1" "$(cat "$TMP/rc")" 1
ktap_end
