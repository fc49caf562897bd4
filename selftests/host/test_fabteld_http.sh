#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fabteld_http.sh - fabteld's HTTP side and config errors, on this host
# (no RDMA here: the sources say unavailable; the HTTP side is the same).
# Runs the ASan/UBSan build: any sanitizer report fails the last case.
. "$(dirname "$0")/../lib.sh"

FABTELD=$REPO/build/asan/fabteld
[[ -x $FABTELD ]] || ktap_skip_all "build/asan/fabteld not built (make)"
command -v curl >/dev/null || ktap_skip_all "curl missing (scripts/deps.sh)"

ktap_begin 25

TMP=$(mktemp -d)
PORT=$(free_port)
trap 'kill $pid 2>/dev/null; rm -rf "$TMP"' EXIT
ulimit -n 4096

"$FABTELD" --bpf off --listen "127.0.0.1:$PORT" --set max_connections=64 2>"$TMP/err" &
pid=$!
URL=http://127.0.0.1:$PORT
status() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@"; }
raw() { # send bytes, print the status line's code
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" || return 1
	printf '%b' "$1" >&$fd
	timeout 5 head -c 12 <&$fd | awk '{ print $2 }'
	exec {fd}>&-
}

ktap_check "fabteld serves /healthz" wait_for 20 curl -sf "$URL/healthz"
ktap_eq "/metrics 200" "$(status "$URL/metrics")" 200
ktap_eq "HEAD /metrics 200, no body" \
	"$(curl -s -I --max-time 5 "$URL/metrics" | head -1 | tr -d '\r') $(curl -s --head --max-time 5 -o - "$URL/metrics" | sed '1,/^\r$/d' | wc -c)" \
	"HTTP/1.1 200 OK 0"
ktap_eq "unknown path 404" "$(status "$URL/nope")" 404
ktap_eq "/api/v1/history 200 with its 10 series; since=x, since=-1, seconds=0, seconds=3601: 400" \
	"$(status "$URL/api/v1/history") $(curl -sf "$URL/api/v1/history?since=1.5&seconds=60" | jq '.series | length') $(status "$URL/api/v1/history?since=x") $(status "$URL/api/v1/history?since=-1") $(status "$URL/api/v1/history?seconds=0") $(status "$URL/api/v1/history?seconds=3601")" \
	"200 10 400 400 400 400"
# since is Unix seconds, made ns: 2^64 - 1 ns is 18446744073.709551615 s
ktap_eq "history since= up to 2^64-1 ns: 200; past it: 400 (since=18446744073, 18446744073.709551615, 18446744074, 1e300; seconds=2^64+1)" \
	"$(status "$URL/api/v1/history?since=18446744073") $(status "$URL/api/v1/history?since=18446744073.709551615") $(status "$URL/api/v1/history?since=18446744074") $(status "$URL/api/v1/history?since=1e300") $(status "$URL/api/v1/history?seconds=18446744073709551617")" \
	"200 400 400 400 400"
ktap_eq "trace of a job that is not there, malformed trace paths: 404" \
	"$(status "$URL/api/v1/jobs/4242/trace") $(status "$URL/api/v1/jobs//trace") $(status "$URL/api/v1/jobs/4242") $(status "$URL/api/v1/jobs/$(head -c 300 /dev/zero | tr '\0' x)/trace")" \
	"404 404 404 404"
ktap_eq "%00 in the path or the query: 400 (was /metrics%00x served as /metrics)" \
	"$(status "$URL/metrics%00x") $(status "$URL/api/v1/events?since=1%00") $(status "$URL/metrics?x=%00") $(status "$URL/api/v1/jobs/42%00/trace")" \
	"400 400 400 400"
ktap_eq "... while other escapes still decode: /%6detrics is /metrics" "$(status "$URL/%6detrics")" 200
ktap_eq "POST 405" "$(status -X POST "$URL/metrics")" 405
ktap_eq "GET with a body 413" "$(status -X GET --data-binary 'x=1' "$URL/metrics")" 413
code=$(raw 'GARBAGE\r\n\r\n')
ktap_check "malformed request line: 400 or closed ('$code')" test "$code" = 400 -o -z "$code"
ktap_eq "HTTP/1.1 without Host 400" "$(raw 'GET /metrics HTTP/1.1\r\n\r\n')" 400
big=$(head -c 40000 /dev/zero | tr '\0' a)
code=$(status -H "X-Big: $big" "$URL/metrics")
ktap_check "a 40 KB header: 4xx ($code)" test "${code:0:1}" = 4
ktap_eq "/api/v1/jobs is JSON" "$(curl -sf "$URL/api/v1/jobs" | jq -r '.jobs | type')" array
ktap_eq "/api/v1/snapshot says why each source is unavailable" \
	"$(curl -sf "$URL/api/v1/snapshot" | jq -r '.sources.bpf_rxe.why')" "disabled (bpf = off)"

# 1,000 idle connections at once: each new one past max_connections closes
# the oldest still waiting for its request (http_guard.c), so a real request
# is still answered, and the closed ones are counted.
opened=0
fds=()
for i in $(seq 1000); do
	if exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" 2>/dev/null; then
		fds+=("$fd")
		opened=$((opened + 1))
	fi
done
ktap_info "opened $opened of 1000 connections"
code=$(status --max-time 1 "$URL/healthz")
ktap_eq "with 1,000 idle connections open a new request is answered within 1 s" "$code" 200
evicted=$(curl -sf --max-time 5 "$URL/metrics" |
	  awk '$1 == "fabtel_http_rejected_total{reason=\"evicted\"}" { print $2 }')
ktap_check "idle connections closed to make room are counted ($evicted)" \
	test "${evicted:-0}" -ge $((opened - 64))
for fd in "${fds[@]}"; do exec {fd}>&-; done
ktap_check "after they close, /metrics answers again" wait_for 20 curl -sf "$URL/metrics"
out=$(curl -sf "$URL/metrics" | promtool check metrics 2>&1; echo "rc=$?")
ktap_eq "promtool check metrics: clean" "$out" "rc=0"
kill -TERM "$pid"
wait "$pid"
rc=$?
ktap_eq "SIGTERM: exit 0, no sanitizer report" "$rc $(grep -c 'Sanitizer' "$TMP/err")" "0 0"

printf 'listen = 127.0.0.1:1\n\x01\x02garbage\xff\n' >"$TMP/bad.conf"
out=$("$FABTELD" --config "$TMP/bad.conf" --check-config 2>&1; echo "rc=$?")
ktap_info "$out"
ktap_check "garbage config: exit 2, error names line 2" \
	bash -c '[[ $1 == *"bad.conf:2: "* && $1 == *rc=2 ]]' _ "$out"
printf 'qp_counters = auto\nport_stats = files\nqp_counters = on\n' >"$TMP/qpc.conf"
out=$("$FABTELD" --config "$TMP/qpc.conf" --check-config 2>&1; echo "rc=$?")
ktap_check "qp_counters = on: exit 2, line 3 named with the values it takes" \
	bash -c '[[ $1 == *"qpc.conf:3: "*"qp_counters wants off, read, auto or peer, not '"'on'"'"* && $1 == *rc=2 ]]' _ "$out"
out=$("$FABTELD" --set port_stats=sysfs --check-config 2>&1; echo "rc=$?")
ktap_eq "port_stats = sysfs: exit 2, named" "$out" \
	"fabteld: command line: port_stats wants auto, files or netlink, not 'sysfs'
rc=2"
out=$("$FABTELD" --bpf maybe --check-config 2>&1; echo "rc=$?")
ktap_eq "bad option value: exit 2, named" "$out" \
	"fabteld: command line: bpf wants auto, on or off, not 'maybe'
rc=2"
ktap_end
