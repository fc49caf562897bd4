#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_http_lockout.sh - /metrics stays answered while long polls and
# slowloris sockets try to take every connection (fabteld's http_guard.c,
# issue [2/8] item 1).  ASan build, loopback only.
#
# 64 long polls (/api/v1/events?wait=30) and 64 slowloris sockets (one
# header byte a second each, reopened when closed) are held open against
# max_connections = 64; then 100 scrapes of /metrics must each be answered
# within 1 s, and fabtel_http_rejected_total must count what was refused.
. "$(dirname "$0")/../lib.sh"

FABTELD=$REPO/build/asan/fabteld
[[ -x $FABTELD ]] || ktap_skip_all "build/asan/fabteld not built (make)"
command -v curl >/dev/null || ktap_skip_all "curl missing (scripts/deps.sh)"

ktap_begin 8

TMP=$(mktemp -d)
PORT=$(free_port)
pids=()
trap 'kill "${pids[@]}" $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT
ulimit -n 4096

"$FABTELD" --bpf off --listen "127.0.0.1:$PORT" --set max_connections=64 2>"$TMP/err" &
pid=$!
URL=http://127.0.0.1:$PORT
ktap_check "fabteld serves /healthz" wait_for 20 curl -sf "$URL/healthz"

rejected() { # reason -> the counter's value
	curl -sf --max-time 5 "$URL/metrics" |
		awk -v r="$1" '$1 == "fabtel_http_rejected_total{reason=\"" r "\"}" { print $2 }'
}
ktap_eq "every reason exported, all 0 at start" \
	"$(for r in connection_limit evicted request_timeout long_poll_limit long_poll_client_limit; do rejected $r; done | tr '\n' ' ')" \
	"0 0 0 0 0 "

# 64 long polls that would each hold a connection for 30 s
since=$(( $(curl -sf "$URL/api/v1/events" | jq -r .next_seq) - 1 ))
for i in $(seq 64); do
	curl -s -o /dev/null -w '%{http_code}\n' --max-time 40 \
		"$URL/api/v1/events?since=$since&wait=30" >>"$TMP/polls" &
	pids+=($!)
done

# 64 slowloris sockets: one byte a second each, reopened when fabteld closes one
slowloris() {
	trap '' PIPE
	local fds=() i k fd
	for k in $(seq 64); do
		exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" && fds+=("$fd")
	done
	for k in $(seq 60); do
		for i in "${!fds[@]}"; do
			if ! printf 'G' >&"${fds[$i]}" 2>/dev/null; then
				exec {fd}>&- 2>/dev/null
				exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" 2>/dev/null && fds[$i]=$fd
				echo reopen >>"$TMP/reopens"
			fi
		done
		sleep 1
	done
}
slowloris &
sl=$!
pids+=($sl)
sleep 3

open=$(curl -sf --max-time 5 "$URL/metrics" | awk '$1 == "fabtel_http_connections{state=\"parked\"}" { print $2 }')
ktap_info "long polls parked: $open"
ktap_check "long polls parked, but no more than a quarter of max_connections ($open)" \
	test "${open:-0}" -ge 1 -a "${open:-99}" -le 16

ok=0 slow=0 worst=0
for i in $(seq 100); do
	t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 1 "$URL/metrics")
	set -- $t
	[[ $1 == 200 ]] && ok=$((ok + 1)) || slow=$((slow + 1))
	worst=$(awk -v a="$worst" -v b="$2" 'BEGIN { print (b > a) ? b : a }')
done
ktap_info "scrapes answered: $ok of 100, the slowest in ${worst}s"
ktap_eq "100 scrapes of /metrics all answered within 1 s each" "$ok" 100
ktap_eq "/healthz answered too" "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL/healthz")" 200

# a curl writes its 429 when its answer is in; fabteld counts it as it
# queues it: wait (at most 10 s) until the two agree
counted() { echo $(( $(rejected long_poll_limit) + $(rejected long_poll_client_limit) )); }
for _ in $(seq 50); do
	[[ $(grep -c '^429$' "$TMP/polls") == "$(counted)" ]] && break
	sleep 0.2
done
refused=$(grep -c '^429$' "$TMP/polls")
ktap_info "long polls refused with 429: $refused; slowloris reopens: $(wc -l <"$TMP/reopens" 2>/dev/null)"
ktap_eq "long polls over the cap: 429, counted" \
	"$((refused > 0)) $(counted)" \
	"1 $refused"
# every one of the 64 first slowloris sockets is past GUARD_REQUEST_S (5 s)
# within a few seconds more; the attacker goes on reopening meanwhile
cut_off() {
	rt=$(rejected request_timeout)
	cut=$((rt + $(rejected evicted) + $(rejected connection_limit)))
	((cut >= 64 && rt >= 1))
}
wait_for 10 cut_off
ktap_info "slow sockets cut off: request_timeout $rt, evicted $(rejected evicted), refused $(rejected connection_limit)"
ktap_check "slowloris sockets cut off or refused, and counted ($cut, $rt past the deadline)" \
	test "$cut" -ge 64 -a "$rt" -ge 1

kill "$sl"
kill -TERM "$pid"
wait "$pid"
rc=$?
ktap_eq "SIGTERM with long polls parked: exit 0, no sanitizer report" \
	"$rc $(grep -c 'Sanitizer' "$TMP/err")" "0 0"
pid=
wait "${pids[@]}" 2>/dev/null
ktap_end
