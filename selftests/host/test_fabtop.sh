#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fabtop.sh - fabtop against a fixture fabteld (a fabtel.ko snapshot tree
# under sysfs_root, as in test_fabteld_sources.sh), against a static fixture
# server (busybox httpd: jobs, QPs and /api/v1/events as fabteld would send
# them) and in tmux (layout at 40x10 and 250x60, keys, fabteld dying and
# coming back).  Each case checks against an independent source: the fixture
# files, fabteld's own JSON (curl + jq), or the fixture JSON.  Runs the
# ASan/UBSan build: any report fails the last case.  FABTOP=path and
# FABTELD=path test another build.
. "$(dirname "$0")/../lib.sh"

FABTOP=${FABTOP:-$REPO/build/asan/fabtop}
FABTELD=${FABTELD:-$REPO/build/asan/fabteld}
[[ -x $FABTOP && -x $FABTELD ]] || ktap_skip_all "build/asan/fabtop or fabteld not built (make)"
for tool in curl jq tmux busybox; do
	command -v $tool >/dev/null || ktap_skip_all "$tool missing (scripts/deps.sh)"
done

ktap_begin 53

TMP=$(mktemp -d)
chmod 755 "$TMP"		# fabteld started as root reads the fixture as nobody
ROOT=$TMP/root
ERR=$TMP/fabtop.err		# every fabtop's stderr, for the sanitizer check
T="tmux -L fabtoptest -f /dev/null"
dpid= bpid= wpid=
cleanup() {
	$T kill-server 2>/dev/null
	kill $dpid $bpid $wpid 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
$T kill-server 2>/dev/null

# snap DEV NETDEV FLAPS STORM OOS: a fabtel.ko snapshot (PFC on priority 3),
# replaced atomically so fabteld never reads half of one
snap() {
	local d=$ROOT/sys/kernel/fabtel/$1/ports/1
	mkdir -p "$d"
	cat >"$d/snapshot.new" <<EOF
fabtel-snapshot 1
device $1
port 1
driver mlx5
netdev $2
samples 40
sample_errors 0
sample_ns 123456789
counter out_of_sequence $5
counter nak_seq_err_rcvd 17
counter local_ack_timeout 3
counter retry_exceeded 0
counter cnp_handled 100
counter rx_bytes 1000000
counter tx_bytes 2000000
link_state ACTIVE
link_carrier 1
link_flaps $3
events_seq 0
pfc supported
pfc_cap 8
pfc_enabled_mask 0x08
pfc_prio 3 1 1200 34 $4 $4 99
end
EOF
	mv "$d/snapshot.new" "$d/snapshot"
}
FLAPS0=2
OOS0=100
snap mlx5_0 ens1f0np0 $FLAPS0 0 $OOS0
snap mlx5_1 ens1f1np1 0 1 5

PORT=$(free_port)
URL=http://127.0.0.1:$PORT
start_fabteld() {
	"$FABTELD" --bpf off --set sysfs_root="$ROOT" --listen "127.0.0.1:$PORT" \
		--interval-ms 500 2>>"$TMP/fabteld.err" &
	dpid=$!
	wait_for 20 curl -sf "$URL/healthz"
}
start_fabteld || ktap_info "fabteld did not come up: $(cat "$TMP/fabteld.err")"

# ---- --once ----
out=$("$FABTOP" --once --url "$URL" --width 200 2>>"$ERR")
ktap_info "$out"
# NIC NETDEV LINK FLAPS come first and have no blanks inside
ktap_eq "--once: the fixture's device/port, netdev and link flaps" \
	"$(awk '$1 == "mlx5_0/1" { print $1, $2, $4 }' <<<"$out")" "mlx5_0/1 ens1f0np0 $FLAPS0"
ktap_eq "--once: storm marker on mlx5_1/1, whose fixture priority 3 storms" \
	"$(awk '$1 == "mlx5_1/1" { for (i = 2; i <= NF; i++) if ($i ~ /^p[0-7]/) print $i }' <<<"$out")" "p3"

# ---- rates: every new sample, log what fabteld says, then move the counter ----
bump_loop() {
	local last=-1 s oos=$OOS0
	while :; do
		s=$(curl -sf --max-time 1 "$URL/api/v1/snapshot" | jq -r \
			'"\(.samples) \(.sample_time) \(.ports[] | select(.device == "mlx5_0") | .counters.out_of_sequence)"') &&
		if [[ -n $s && ${s%% *} != "$last" ]]; then
			echo "$s" >>"$TMP/samples.log"
			last=${s%% *}
			oos=$((oos + 5000))
			snap mlx5_0 ens1f0np0 $FLAPS0 0 $oos
		fi
		sleep 0.05
	done
}
: >"$TMP/samples.log"
bump_loop &
wpid=$!
wait_for 10 test "$(wc -l <"$TMP/samples.log" 2>/dev/null)" -ge 3
json=$("$FABTOP" --once --json --url "$URL" 2>>"$ERR")
n=$(jq -r '.snapshot.samples' <<<"$json")
got=$(jq -r '.rows.nics[] | select(.device == "mlx5_0") | .rates.out_of_sequence' <<<"$json")
wait_for 5 grep -q "^$n " "$TMP/samples.log"
kill $wpid
wait $wpid 2>/dev/null
wpid=
read -r _ t1 c1 < <(grep "^$((n - 1)) " "$TMP/samples.log")
read -r _ t2 c2 < <(grep "^$n " "$TMP/samples.log")
want=$(awk -v a="$c1" -v b="$c2" -v s="$t1" -v t="$t2" 'BEGIN { if (t > s) printf "%.3f", (b - a) / (t - s) }')
ktap_info "samples $((n - 1)) -> $n: out_of_sequence $c1 -> $c2 at $t1 -> $t2; fabtop: $got/s (by $(jq -r .source.rates_from <<<"$json"))"
ktap_check "rates: OOS/s = counter delta / sample_time delta of fabteld's two samples (1%)" \
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(w > 0 && g != "null" && (g - w) / w < 0.01 && (w - g) / w < 0.01) }'

# fabteld's rate history: its last point is the snapshot's rate of that sample
hist_vs_snap() {
	local s h
	s=$(curl -sf "$URL/api/v1/snapshot") h=$(curl -sf "$URL/api/v1/history?seconds=5")
	jq -n --argjson s "$s" --argjson h "$h" -e '($h.ports[] | select(.device == "mlx5_0") | .points[-1]) as $p
		| ($h.series | index("out_of_sequence")) as $k
		| ($s.ports[] | select(.device == "mlx5_0") | .rates.out_of_sequence) as $r
		| ($p[0] - $s.sample_time | fabs) < 0.001 and $r != null and ($p[$k + 1] - $r | fabs) <= $r * 1e-6'
}
ktap_check "/api/v1/history's last point of mlx5_0/1 has the snapshot's OOS/s (same sample)" \
	wait_for 5 hist_vs_snap
proj='[.display.NICs[] | {NIC, NETDEV, LINK, FLAPS, STORM}]'
a=$("$FABTOP" --once --json --url "$URL" 2>>"$ERR" | jq -c "$proj")
b=$("$FABTOP" --once --json --standalone --sysfs-root "$ROOT" -d 0.2 2>>"$ERR" | jq -c "$proj")
ktap_eq "--standalone --sysfs-root: the same two port rows as via fabteld" \
	"$(jq length <<<"$b") $b" "2 $a"

# ---- tmux ----
cap() { $T capture-pane -p -t fabtop "$@"; }
cap_has() { cap | grep -qE -- "$1"; }
cap_lacks() { ! cap | grep -qE -- "$1"; }
status_has() { cap | tail -1 | grep -qE -- "$1"; }
KNOWN=" NIC NETDEV LINK FLAPS LASTFLAP RxGb/s TxGb/s OOS/s NAK/s ACKTO/s RETRY/s CNP/s ECN/s PAUSE/s STORM ISSUES TRAFFIC ERRORS JOB VERDICT QPS PORTS KIND REASON TIME EVENT PORT DETAIL "
# every line within WIDTH; the three pane headers only whole column names
layout_ok() { # WIDTH
	local c line tok
	c=$(cap)
	if awk -v w="$1" 'length > w { exit 1 }' <<<"$c"; then :; else
		echo "a line is longer than $1"; echo "$c"; return 1
	fi
	[[ $(grep -cE '^(NIC|JOB|TIME) ' <<<"$c") == 3 ]] || { echo "not 3 headers:"; echo "$c"; return 1; }
	while IFS= read -r line; do
		for tok in $line; do
			[[ $KNOWN == *" $tok "* ]] || { echo "header '$line': '$tok'"; return 1; }
		done
	done < <(grep -E '^(NIC|JOB|TIME) ' <<<"$c")
}

$T new-session -d -s fabtop -x 40 -y 10 \
	"$FABTOP --url $URL -d 0.5 2>>$ERR; echo \$? >$TMP/ui.rc"
wait_for 10 cap_has '^mlx5_0/1' || ktap_info "$(cap)"
ktap_check "40x10: no line over 40 columns, pane headers whole" layout_ok 40
$T resize-window -t fabtop -x 80 -y 24
wait_for 5 eval 'cap | head -1 | grep -q "ports via"'
ktap_check "80x24: the title drops the version, keeps the clock, source, age and port source" \
	eval 'cap | head -1 | grep -qE "^fabtop  [0-9:]{8}  http://127\.0\.0\.1:$PORT  data .+ old  ports via fabtel_ko$"'
$T resize-window -t fabtop -x 250 -y 60
wait_for 15 cap_has '^NIC .*NETDEV.*ERRORS$'
ktap_check "resized to 250x60: all NIC columns, no line over 250, headers whole" \
	bash -c '[[ $(grep "^NIC " <<<"$1" | tr -s " ") == "NIC NETDEV LINK FLAPS LASTFLAP RxGb/s TxGb/s OOS/s NAK/s ACKTO/s RETRY/s CNP/s ECN/s PAUSE/s STORM ISSUES TRAFFIC ERRORS" ]]' _ "$(cap)"
ktap_check "250x60: no line over 250, headers whole" layout_ok 250

$T send-keys -t fabtop s
ktap_check "s: the NICs pane sorts by its next column (NIC -> NETDEV)" \
	wait_for 3 status_has '^\[NICs\] sort NETDEV'
$T send-keys -t fabtop / m l x 5 _ 1 Enter
ktap_check "/mlx5_1: the NICs pane shows mlx5_1/1 only" \
	wait_for 3 eval 'cap_has "^mlx5_1/1 " && cap_lacks "^mlx5_0/1 "'
$T send-keys -t fabtop Escape
ktap_check "Esc: the filter is gone, mlx5_0/1 is back" wait_for 3 cap_has '^mlx5_0/1 '
# the F-keys htop and nvtop users type by habit
$T send-keys -t fabtop F6
ktap_check "F6: the sort menu lists the pane's columns, the one it sorts by marked" \
	wait_for 3 eval 'cap_has "^Sort by" && cap_has "^ \* NETDEV$" && cap_has "^   ISSUES +\(worst first\)$"'
$T send-keys -t fabtop Down Enter
ktap_check "Down, Enter in the menu: the NICs pane sorts by the next column (LINK), the menu closes" \
	wait_for 3 eval 'status_has "^\[NICs\] sort LINK" && cap_lacks "^Sort by"'
# an overlay opens with a key, shows its mark, closes with another; fabtop stays
opens_and_closes() { # OPEN-KEY MARK CLOSE-KEY
	$T send-keys -t fabtop "$1"
	wait_for 3 cap_has "$2" || return 1
	$T send-keys -t fabtop "$3"
	wait_for 3 cap_lacks "$2" && $T has-session -t fabtop 2>/dev/null
}
ktap_check "o opens the menu too; Esc closes it and fabtop stays" opens_and_closes o '^Sort by' Escape
$T send-keys -t fabtop F3 m l x 5 _ 1 Enter
ktap_check "F3 mlx5_1: as /, the NICs pane shows mlx5_1/1 only" \
	wait_for 3 eval 'cap_has "^mlx5_1/1 " && cap_lacks "^mlx5_0/1 "'
$T send-keys -t fabtop Escape
wait_for 3 cap_has '^mlx5_0/1 '
ktap_check "F1 opens the help; q there closes it and fabtop stays" opens_and_closes F1 'this help' q
$T send-keys -t fabtop Tab
ktap_check "Tab: focus moves to the Jobs pane" wait_for 3 status_has '^\[Jobs\]'
$T send-keys -t fabtop h
wait_for 3 cap_has 'this help'
helped=$(cap | grep -c 'next, previous pane')
$T send-keys -t fabtop x
ktap_check "h shows the help ($helped), any key closes it" \
	eval '[[ $helped == 1 ]] && wait_for 3 cap_lacks "this help"'
# the rest of the help's keys, each by what it shows
$T send-keys -t fabtop BTab
ktap_check "Shift-Tab: focus back to the NICs pane" wait_for 3 status_has '^\[NICs\]'
$T send-keys -t fabtop S
ktap_check "S: the order reverses ('rev' on the status line)" wait_for 3 status_has '^\[NICs\] sort [A-Za-z/]+ rev'
$T send-keys -t fabtop S
wait_for 3 eval '! status_has " rev"'
# the cursor row is the one in reverse video (SGR 7) that is not a header
cursor_row() {
	cap -e | grep -E $'\e\\[([0-9]+;)*7(;[0-9]+)*m' | sed -E $'s/\e\\[[0-9;]*m//g' |
		grep -vE '^(NIC|JOB|TIME) ' | awk 'NR == 1 { print $1 }'
}
keys_move() { # KEYS... : the cursor row after them
	$T send-keys -t fabtop "$@"
	sleep 0.3
	cursor_row
}
first=$(keys_move Home) second=$(keys_move Down)
moves="$first $second $(keys_move Up) $(keys_move End) $(keys_move PageUp) $(keys_move PageDown) $(keys_move Home)"
ktap_eq "Home Down Up End PgUp PgDn Home move the cursor over the two ports" \
	"$moves" "mlx5_0/1 mlx5_1/1 mlx5_0/1 mlx5_1/1 mlx5_0/1 mlx5_1/1 mlx5_0/1"
# an xterm mouse report (button 1 at column 2, line 4: mlx5_1/1's row), as a terminal sends it
$T send-keys -t fabtop -l $'\e[M "$'
ktap_check "a mouse click on mlx5_1/1's row puts the cursor there" \
	wait_for 3 eval '[[ $(cursor_row) == mlx5_1/1 ]]'
$T send-keys -t fabtop Home
$T send-keys -t fabtop p
ktap_check "p: PAUSED in the title" wait_for 3 eval 'cap | head -1 | grep -q PAUSED'
$T send-keys -t fabtop p
wait_for 3 eval '! cap | head -1 | grep -q PAUSED'
ktap_check "P shows the probe matrix, Esc closes it" opens_and_closes P '^Probe matrix' Escape
$T send-keys -t fabtop '?'
wait_for 3 cap_has 'this help'
$T send-keys -t fabtop C-l
ktap_check "? shows the help (Ctrl-L closes it as any key); Ctrl-L redraws, fabtop runs on" \
	eval 'wait_for 3 cap_lacks "this help" && $T send-keys -t fabtop C-l && sleep 0.3 && cap_has "^NIC " && $T has-session -t fabtop 2>/dev/null'

# the flaps of mlx5_0/1 the Events pane shows: a row each, or a run folded
# into one row "xN over S" (identical events in a row fold)
flaps_shown() {
	cap | awk '/ link_flap +mlx5_0\/1( |$)/ { k = match($0, / x[0-9]+ over /) ? substr($0, RSTART + 2, RLENGTH - 8) : 1; n += k }
		END { print n + 0 }'
}
# a flap in the fixture: an event row (from /api/v1/events)
before=$(flaps_shown)
FLAPS0=3
snap mlx5_0 ens1f0np0 $FLAPS0 0 \
	"$(awk '$2 == "out_of_sequence" { print $3 }' "$ROOT/sys/kernel/fabtel/mlx5_0/ports/1/snapshot")"
ktap_check "a flap written to the fixture appears in the Events pane" \
	wait_for 5 eval '(($(flaps_shown) > before))'

kill $dpid
wait $dpid 2>/dev/null
ktap_check "fabteld killed: 'unreachable (Connection refused); showing data from N s ago', rows kept" \
	wait_for 5 eval 'cap_has "unreachable \(Connection refused\); showing data from [0-9]+ s ago" && cap_has "^mlx5_0/1 "'
ktap_info "$(cap | tail -1)"
start_fabteld
ktap_check "fabteld back: the message goes within 3 refreshes (-d 0.5)" \
	wait_for 2 cap_lacks 'unreachable'

# the restarted fabteld numbers its events from 1 again (a new log_started)
before=$(flaps_shown)
FLAPS0=4
snap mlx5_0 ens1f0np0 $FLAPS0 0 $OOS0
ktap_check "after fabteld's restart its new events (seq from 1 again) still appear" \
	wait_for 5 eval '(($(flaps_shown) > before))'

$T send-keys -t fabtop q
wait_for 5 eval '! $T has-session -t fabtop 2>/dev/null'
ktap_eq "q: fabtop exits, status 0" "$(cat "$TMP/ui.rc" 2>/dev/null)" 0

# Events do not wait for the refresh: with -d 30 a flap shows within
# fabteld's sample interval (0.5 s) plus one long-poll answer, and q still
# ends fabtop at once although a long poll is parked.
rm -f "$TMP/ui.rc"
$T new-session -d -s fabtop -x 160 -y 40 \
	"$FABTOP --url $URL -d 30 2>>$ERR; echo \$? >$TMP/ui.rc"
wait_for 10 cap_has '^mlx5_0/1' || ktap_info "$(cap)"
sleep 1
before=$(flaps_shown)
FLAPS0=5
snap mlx5_0 ens1f0np0 $FLAPS0 0 $OOS0
t0=$(date +%s.%N)
wait_for 10 eval '(($(flaps_shown) > before))'
t1=$(date +%s.%N)
lag=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
ktap_info "-d 30: the flap on screen $lag s after it was written"
ktap_check "-d 30: a flap is in the Events pane within 3 s, not at the next refresh" \
	awk -v l="$lag" 'BEGIN { exit !(l < 3) }'
t0=$(date +%s.%N)
$T send-keys -t fabtop q
wait_for 5 eval '! $T has-session -t fabtop 2>/dev/null'
t1=$(date +%s.%N)
ktap_check "q with a long poll parked: exit 0 within 1.5 s ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s)" \
	awk -v a="$t0" -v b="$t1" -v rc="$(cat "$TMP/ui.rc" 2>/dev/null)" 'BEGIN { exit !(rc == "0" && b - a < 1.5) }'

# ---- a fixture fabteld with jobs and events (busybox httpd, static JSON) ----
W=$TMP/www/api/v1
mkdir -p "$W"
now=$(date +%s)
curl -sf "$URL/api/v1/snapshot" | jq '.qps = [
	{device: "mlx5_0", port: 1, qpn: 4711, dest_qpn: 812, pid: 3131, comm: "all_reduce", state: 3, job_id: "4242"},
	{device: "mlx5_0", port: 1, qpn: 4712, dest_qpn: 813, pid: 3131, comm: "all_reduce", state: 6, job_id: "4242"},
	{device: "mlx5_1", port: 1, qpn: 99, dest_qpn: 98, pid: 77, comm: "other", state: 3, job_id: "77"}]
	| walk(if type == "object" then with_entries(if (.key | endswith("_rate")) and (.value | type) == "number"
		then .value = 0 else . end) else . end)
	| .ports[].rates |= map_values(if . == null then null else 0 end)
	| (.ports[] | select(.device == "mlx5_0") | .rates.out_of_sequence) = 1200' >"$W/snapshot"
R='{"reason": "qp_error", "severity": "failing", "device": "mlx5_0", "port": 1, "at": '$now', "count": 1, "shared": false}'
cat >"$W/jobs" <<EOF
{"sample_time": $now, "jobs": [
 {"job_id": "77", "kind": "k8s", "verdict": "healthy", "reasons": [], "culprit": null, "qps": 1,
  "first_seen": $now, "ports": [{"device": "mlx5_1", "port": 1, "netdev": "ens1f1np1", "shared": false, "link_flaps": 0, "qp_events": {}}]},
 {"job_id": "4242", "kind": "slurm", "verdict": "failing", "culprit": $R, "qps": 2, "first_seen": $now,
  "reasons": [{"reason": "out_of_sequence", "severity": "degraded", "device": "mlx5_0", "port": 1, "at": $now, "count": 12, "shared": true}, $R],
  "ports": [{"device": "mlx5_0", "port": 1, "netdev": "ens1f0np0", "shared": false, "link_flaps": 0, "qp_events": {}}]}]}
EOF
# a flap with its down time, a QP error, then 12 bursts of one counter over
# 17 s (they fold into one row), each with the job on the port
{
	echo '{"next_seq": 15, "events": ['
	echo " {\"seq\": 1, \"time\": $((now - 30)), \"kind\": \"link_flap\", \"device\": \"mlx5_0\", \"port\": 1, \"job_id\": null, \"count\": 1, \"down_seconds\": 0.3, \"jobs\": [\"4242\"]},"
	echo " {\"seq\": 2, \"time\": $((now - 20)), \"kind\": \"qp_error\", \"device\": \"mlx5_0\", \"port\": 1, \"qpn\": 4712, \"job_id\": \"4242\"}"
	for i in $(seq 3 14); do
		echo ", {\"seq\": $i, \"time\": $((now - 17 + (i - 3) * 17 / 11)), \"kind\": \"error_burst\", \"device\": \"mlx5_0\", \"port\": 1, \"count\": 1, \"counter\": \"nak_seq_err_rcvd\", \"amount\": $((i * 10)), \"span_seconds\": 0.1, \"jobs\": [\"4242\"]}"
	done
	echo ']}'
} >"$W/events"
# the rates' history (busybox answers any query with the file): 60 points
# of mlx5_0/1, rx rising 0.1 Gb/s a second, out_of_sequence 0 then 40/s
{
	echo '{"sample_time": '$now', "interval_seconds": 1, "kept": 300, "series": ["rx_gbps", "tx_gbps", "out_of_sequence", "nak_seq_err_rcvd", "local_ack_timeout", "retry_exceeded", "cnp_handled", "ecn_marked_rx", "pause_tx", "pause_rx"], "ports": [{"device": "mlx5_0", "port": 1, "points": ['
	for i in $(seq 1 60); do
		echo "$( ((i > 1)) && echo ,)[$((now - 60 + i)), $(awk -v i="$i" 'BEGIN { printf "%.1f", i / 10 }'), 1.0, $(( i > 50 ? 40 : 0 )), 0, 0, 0, 5, 0, null, null]"
	done
	echo ']}]}'
} >"$W/history"
BPORT=$(free_port)
busybox httpd -f -p "127.0.0.1:$BPORT" -h "$TMP/www" &
bpid=$!
BURL=http://127.0.0.1:$BPORT
wait_for 10 curl -sf "$BURL/api/v1/jobs"
json=$("$FABTOP" --once --json --url "$BURL" 2>>"$ERR")
ktap_eq "fixture jobs: failing first, worst reason = culprit; events from /api/v1/events" \
	"$(jq -c '[.display.Jobs[] | [.JOB, .VERDICT, .REASON]], [.events[] | [.seq, .kind]][:3]' <<<"$json" | tr '\n' ' ')" \
	'[["4242","failing","qp_error mlx5_0/1"],["77","healthy","-"]] [[1,"link_flap"],[2,"qp_error"],[3,"error_burst"]] '
out=$("$FABTOP" --once --url "$BURL" --width 160 2>>"$ERR")
ktap_info "$(grep -E 'error_burst|link_flap' <<<"$out")"
bursts=$(jq '[.events[] | select(.kind == "error_burst") | .count] | add' "$W/events")
sum=$(jq '[.events[] | select(.kind == "error_burst") | .amount] | add' "$W/events")
ktap_check "events: the 12 bursts fold into one row: x$bursts (the API's bursts) over 17 s, the counter, +$sum, job 4242" \
	grep -qE "error_burst +mlx5_0/1 +x$bursts over 17 s: nak_seq_err_rcvd \+$sum +4242\$" <<<"$out"
ktap_check "events: the flap says how long the link was down and names job 4242" \
	grep -qE "link_flap +mlx5_0/1 +down 300 ms +4242\$" <<<"$out"

ktap_eq "sparklines: the last value of TRAFFIC (rx + tx Gb/s) and ERRORS (OOS+NAK+ACKTO+RETRY/s) as the history's last point" \
	"$("$FABTOP" --once --json --url "$BURL" 2>>"$ERR" | jq -c '.rows.nics[] | select(.device == "mlx5_0") | .history_last')" \
	'{"traffic_gbps":7,"errors_per_s":40,"points":60}'
out=$("$FABTOP" --once --url "$BURL" --width 200 2>>"$ERR")
ktap_info "$(grep -E '^(NIC|mlx5_0/1) ' <<<"$out")"
ktap_check "200 columns: the NICs pane draws the sparklines, rising traffic, errors in the last 10 samples" \
	grep -qE '^mlx5_0/1 .* [.,:=+*#@-]{20} 7\.00 +_{10}@{10} 40$' <<<"$out"
# Golden screens: the fixture's frame at 80x24 and 200x50, the clock,
# times, data age and the server's port masked.  After an intended change:
#   UPDATE_GOLDEN=1 selftests/run.sh --host-only test_fabtop.sh  (then review git diff)
golden_screen() { # COLS ROWS
	# a session of its own per size: the last one's kill may not have ended yet
	local g=$REPO/selftests/host/golden/fabtop-$1x$2.txt s=golden-$1x$2
	$T new-session -d -s "$s" -x "$1" -y "$2" "$FABTOP --url $BURL 2>>$ERR"
	wait_for 10 eval '$T capture-pane -p -t "$s" | grep -q "^4242 "'
	sleep 1.5	# a second frame: rates, history and events settled
	$T capture-pane -p -t "$s" | sed -E 's/[0-9]{2}:[0-9]{2}:[0-9]{2}/HH:MM:SS/g;
		s/127\.0\.0\.1:[0-9]+/127.0.0.1:PORT/; s/data [0-9.]+ s old/data N s old/' >"$TMP/screen"
	$T kill-session -t "$s"
	if [[ ${UPDATE_GOLDEN:-0} == 1 ]]; then
		cp "$TMP/screen" "$g"
		ktap_pass "$1x$2: golden/fabtop-$1x$2.txt rewritten"
	elif diff -u "$g" "$TMP/screen" >"$TMP/diff"; then
		ktap_pass "$1x$2: the screen is golden/fabtop-$1x$2.txt (masked: clock, times, age, port)"
	else
		ktap_fail "$1x$2: the screen differs from golden/fabtop-$1x$2.txt" "$(head -60 "$TMP/diff")"
	fi
}
golden_screen 80 24
golden_screen 200 50
$T new-session -d -s fabtop -x 100 -y 30 "$FABTOP --url $BURL 2>>$ERR"
wait_for 10 cap_has '^4242 '
# escape sequences with red (31) or green (32) as <R>, <G>; the others dropped
colors=$(cap -e | sed -E 's/\x1b\[([0-9]+;)*31(;[0-9]+)*m/<R>/g; s/\x1b\[([0-9]+;)*32(;[0-9]+)*m/<G>/g;
	s/\x1b\[[0-9;]*m//g')
ktap_check "verdict colors: failing red (SGR 31), healthy green (SGR 32)" \
	bash -c 'grep -qE "^4242 +(<.>)*<R>(<.>)*failing" <<<"$1" && grep -qE "^77 +(<.>)*<G>(<.>)*healthy" <<<"$1"' \
	_ "$colors"
ktap_check "the reason coloured by its severity: the failing culprit red" \
	grep -qE "^4242 .*<R>qp_error mlx5_0/1" <<<"$colors"
# Tab to Events: the cursor is on the newest row, the folded bursts; Enter unfolds
$T send-keys -t fabtop Tab Tab
wait_for 3 status_has '^\[Events\]'
$T send-keys -t fabtop Enter
ktap_check "Enter on the folded bursts: the 12 show, each with its rise in 100 ms" \
	wait_for 3 eval '(($(cap | grep -cE "\| nak_seq_err_rcvd \+[0-9]+ in 100 ms") == 12))'
$T send-keys -t fabtop Enter
ktap_check "Enter again: folded" wait_for 3 eval '(($(cap | grep -c "| nak_seq_err_rcvd") == 0))'
$T send-keys -t fabtop Tab
$T send-keys -t fabtop Tab Enter
wait_for 5 cap_has '^Job 4242'
ktap_eq "Enter on job 4242: its QPs (4711 RTS, 4712 ERR), not job 77's" \
	"$(cap | awk '$1 ~ /^(4711|4712|99)$/ { print $1, $3 }' | tr '\n' ' ')" \
	"4711 RTS 4712 ERR "
ktap_info "$(cap | grep -E '^(PORT +SERIES|mlx5_0/1 +(Gb/s|errors/s))')"
ktap_check "the job's page graphs its port: Gb/s and errors/s, newest on the right, LAST = the last point" \
	eval 'cap | grep -qE "^mlx5_0/1 +Gb/s +7\.0 .*[#@]$" && cap | grep -qE "^mlx5_0/1 +errors/s +40 .*@$"'
# t: the fixture server has no trace endpoint; fabtop says so (the lab saves one)
$T send-keys -t fabtop t
ktap_check "t without a trace endpoint: 'not saved' and why, on the status line" \
	wait_for 10 cap_has 'trace of job 4242 not saved: fabteld has no job 4242 \(or no trace export\)'
$T send-keys -t fabtop F10
ktap_check "F10 on a job's page: fabtop quits" wait_for 5 eval '! $T has-session -t fabtop 2>/dev/null'
$T kill-server 2>/dev/null

# ---- hostile names: control characters never reach the terminal ----
# A netdev name carrying an OSC "set the window title" sequence and a BEL,
# through fabteld's JSON (\u001b) to fabtop: escaped on the way to the screen.
ROOT0=$ROOT
ROOT=$TMP/hostile
snap evil0 $'ev\e]2;pwned\ail' 0 0 1
ROOT=$ROOT0
HPORT=$(free_port)
"$FABTELD" --bpf off --set sysfs_root="$TMP/hostile" --listen "127.0.0.1:$HPORT" \
	--interval-ms 500 2>>"$TMP/fabteld.err" &
hpid=$!
wait_for 20 curl -sf "http://127.0.0.1:$HPORT/healthz"
raw=$(curl -sf "http://127.0.0.1:$HPORT/api/v1/snapshot" | jq -r '.ports[0].netdev')
out=$("$FABTOP" --once --url "http://127.0.0.1:$HPORT" --width 200 2>>"$ERR")
ktap_eq "fabteld passes the name on as it is; fabtop --once prints it escaped, no control byte" \
	"$(printf %q "$raw") $(awk '$1 == "evil0/1" { print $2 }' <<<"$out") $(tr -d '\n' <<<"$out" | tr -d '[:print:]' | wc -c)" \
	"$(printf %q $'ev\e]2;pwned\ail') ev?]2;pwned?il 0"
$T new-session -d -s fabtop -x 120 -y 20 "$FABTOP --url http://127.0.0.1:$HPORT 2>>$ERR"
wait_for 10 cap_has 'evil0/1'
ktap_check "in the TUI too: the name shows escaped and the window title is not 'pwned' (tmux)" \
	bash -c '[[ $1 == *"ev?]2;pwned?il"* && $2 != *pwned* ]]' _ "$(cap)" \
	"$($T display -p -t fabtop '#{pane_title}')"
$T kill-server 2>/dev/null
kill "$hpid"
wait "$hpid" 2>/dev/null

# ---- errors ----
out=$("$FABTOP" -d 0 --once 2>&1; echo "rc=$?")
out2=$("$FABTOP" -d x --once 2>&1; echo "rc=$?")
ktap_info "$out"
ktap_check "-d 0 and -d x: exit 2, the message names -d" \
	bash -c '[[ $1 == *"-d wants seconds"*"rc=2" && $2 == *"-d wants seconds"*"rc=2" ]]' _ "$out" "$out2"
out=$("$FABTOP" --once --url "http://127.0.0.1:$(free_port)" 2>&1 >/dev/null; echo "rc=$?")
ktap_info "$out"
ktap_check "no fabteld, no --standalone: --once says unreachable and what to do, exit 1" \
	bash -c '[[ $1 == *"unreachable (Connection refused)"*"--standalone"*"rc=1" ]]' _ "$out"

grep -qE 'Sanitizer|runtime error' "$ERR" && ktap_info "$(head -60 "$ERR")"
ktap_eq "no sanitizer report from any fabtop run" \
	"$(grep -cE 'Sanitizer|runtime error' "$ERR")" 0
ktap_end
