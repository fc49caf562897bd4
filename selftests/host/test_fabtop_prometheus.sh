#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fabtop_prometheus.sh - fabtop's cluster view (--prometheus) against
# a real Prometheus of the test's own: it scrapes (honor_labels) a static
# exposition of three fabtelds (busybox httpd) with deploy/prometheus/
# rules.yml, over TLS (the test's CA); job 4242 spans gpu1..gpu3, gpu2's
# port failing its probes both ways after a link fault.  fabtop's jobs,
# culprit, page and probe matrix against Prometheus's own answers; its
# queries counted; the console under tmux keeps its view when Prometheus
# goes, and quits at once while Prometheus stalls; bad answers (refused,
# slow, HTTP errors, not JSON, JSON nulls, an API error), a bearer token
# sent, bad options refused.
. "$(dirname "$0")/../lib.sh"

FABTOP=$REPO/build/asan/fabtop
[[ -x $FABTOP ]] || ktap_skip_all "build/asan/fabtop not built (make tests)"
for t in prometheus busybox openssl socat tmux jq; do
	command -v $t >/dev/null || ktap_skip_all "$t missing (scripts/deps.sh)"
done

ktap_begin 24
TMP=$(mktemp -d)
chmod 755 "$TMP"
pids=()
TM="tmux -L fabtop-prom-$$"
trap '$TM kill-server 2>/dev/null; kill "${pids[@]}" $PROM_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT

# ---- three fabtelds' series, as a scrape would give them ---------------------
mkdir -p "$TMP/www"
{
	for h in gpu1 gpu2 gpu3; do
		i="job=\"fabteld\",instance=\"$h:9465\""
		v=0; f=0
		[[ $h == gpu2 ]] && v=2 f=1
		echo "fabtel_build_info{$i,version=\"0.1.0\",host=\"$h\"} 1"
		echo "fabtel_job_verdict{$i,job_id=\"4242\"} $v"
		echo "fabtel_job_qps{$i,job_id=\"4242\"} 8"
		echo "fabtel_job_port{$i,job_id=\"4242\",device=\"mlx5_0\",port=\"1\",netdev=\"eth2\",shared=\"0\"} 1"
		echo "fabtel_port_recent_fault{$i,device=\"mlx5_0\",port=\"1\",netdev=\"eth2\"} $f"
		for p in gpu1 gpu2 gpu3; do
			[[ $p == "$h" ]] && continue
			bad=0
			[[ $h == gpu2 || $p == gpu2 ]] && bad=1
			echo "fabtel_probe_pair_trouble{$i,host=\"$h\",device=\"mlx5_0\",port=\"1\",peer_host=\"$p\",peer_device=\"mlx5_0\",peer_port=\"1\",trouble=\"loss\"} $bad"
		done
	done
	# a second job, healthy, on gpu3 only
	echo "fabtel_job_verdict{job=\"fabteld\",instance=\"gpu3:9465\",job_id=\"77\"} 0"
	echo "fabtel_job_port{job=\"fabteld\",instance=\"gpu3:9465\",job_id=\"77\",device=\"mlx5_0\",port=\"1\",netdev=\"eth2\",shared=\"1\"} 1"
} >"$TMP/www/metrics"
HPORT=$(free_port)
busybox httpd -f -p "127.0.0.1:$HPORT" -h "$TMP/www" &
pids+=($!)

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/key.pem" -out "$TMP/cert.pem" \
	-days 2 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1
printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$TMP/cert.pem" "$TMP/key.pem" >"$TMP/web.yml"
cat >"$TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $REPO/deploy/prometheus/rules.yml
scrape_configs:
  - job_name: fixture
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$HPORT']
YML
PROM_PORT=$(free_port)
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/data" \
	--web.config.file="$TMP/web.yml" --web.listen-address="127.0.0.1:$PROM_PORT" >"$TMP/prom.log" 2>&1 &
PROM_PID=$!
PURL=https://127.0.0.1:$PROM_PORT
pq() { # QUERY JQ: Prometheus's own answer
	curl -sf --max-time 5 --cacert "$TMP/cert.pem" "$PURL/api/v1/query" --data-urlencode "query=$1" | jq -r "$2"
}
culprit_known() { [[ $(pq 'count(fabtel:job_port_culprit)' '.data.result[0].value[1]') == 1 ]]; }
ktap_check "Prometheus (TLS) scrapes the three fabtelds' series and its rules name a culprit" \
	wait_for 60 culprit_known

view() { "$FABTOP" --prometheus "$PURL" --ca-file "$TMP/cert.pem" --once "$@"; }
out=$(view --json 2>"$TMP/err")
ktap_info "jobs: $(jq -c '[.jobs[] | {job_id, verdict, hosts, culprits: [.culprits[] | "\(.host) \(.device)/\(.port)"]}]' <<<"$out" 2>&1)"
ktap_eq "--once --json: the jobs by severity, 4242 failing on 3 hosts (1 failing), then 77 healthy" \
	"$(jq -r '[.jobs[] | "\(.job_id):\(.verdict):\(.hosts):\(.failing)"] | join(" ")' <<<"$out")" \
	"4242:failing:3:1 77:healthy:1:0"
ktap_eq "job 4242's culprit is the one Prometheus's fabtel:job_port_culprit names (gpu2 mlx5_0/1, 12)" \
	"$(jq -r '.jobs[0].culprits[] | "\(.instance) \(.device)/\(.port) \(.evidence)"' <<<"$out")" \
	"$(pq 'fabtel:job_port_culprit{job_id="4242"}' '.data.result[] | "\(.metric.instance) \(.metric.device)/\(.metric.port) \(.value[1])"')"
ktap_eq "6 queries for the jobs list, their time counted" \
	"$(jq -r '"\(.queries) \(.query_ms > 0)"' <<<"$out")" "6 true"

page=$(view --json --job 4242 2>>"$TMP/err")
ktap_eq "--job 4242: its three hosts, gpu2 the culprit host with evidence 12, the others 0" \
	"$(jq -r '[.job.hosts[] | "\(.host):\(.verdict):\(.evidence):\(.culprit)"] | join(" ")' <<<"$page")" \
	"gpu1:healthy:0:false gpu2:failing:12:true gpu3:healthy:0:false"
ktap_eq "the port rows: netdev from fabtel_job_port, the culprit marked" \
	"$(jq -r '[.job.ports[] | "\(.host)/\(.device)/\(.netdev):\(.culprit)"] | join(" ")' <<<"$page")" \
	"gpu1/mlx5_0/eth2:false gpu2/mlx5_0/eth2:true gpu3/mlx5_0/eth2:false"
ktap_eq "the probe matrix: the four pairs through gpu2, none between gpu1 and gpu3 (as Prometheus has them)" \
	"$(jq -r '[.job.pairs[] | "\(.host)>\(.peer_host)"] | sort | join(" ")' <<<"$page")" \
	"$(pq 'fabtel:probe_pair_bad == 1' '[.data.result[].metric | "\(.host)>\(.peer_host)"] | sort | join(" ")')"
ktap_eq "12 queries with the page (6 more: hosts, ports, netdevs, culprits, history, pairs); history points of both series, the newest 1 and 2" \
	"$(jq -r '"\(.queries) \([.job.history_failing[] | select(. != null)][-1]) \([.job.history_verdict[] | select(. != null)][-1])"' <<<"$page")" "12 1 2"
ktap_info "cost of a refresh: jobs list $(jq -r '"\(.queries) queries, \(.query_ms) ms"' <<<"$out"), with job 4242's page $(jq -r '"\(.queries) queries, \(.query_ms) ms"' <<<"$page")"
text=$(view --job 4242 --width 120 2>>"$TMP/err")
ktap_check "--once text: job 4242's row names 'gpu2 mlx5_0/1', the page marks it" \
	bash -c "grep -E '^4242 .*failing.*gpu2 mlx5_0/1' <<<\"\$1\" >/dev/null && grep -E '^gpu2 .*<==' <<<\"\$1\" >/dev/null" _ "$text"
ktap_check "--once text: 'queries 12, N ms' on top, the history lines end in the newest (1 failing host, failing)" \
	bash -c "grep -qE '^fabtop cluster  prometheus .*  queries 12, [0-9]+ ms\$' <<<\"\$1\" &&
		grep -qE '^failing hosts \\(15 min\\) .*[.,:=+*#@] 1\$' <<<\"\$1\" &&
		grep -qE '^verdict \\(15 min\\) .*@ failing\$' <<<\"\$1\"" _ "$text"

bad() { # URL: fabtop's exit status and first stderr line
	local rc
	"$FABTOP" --prometheus "$1" --once >/dev/null 2>"$TMP/bad.err"
	rc=$?
	echo "$rc $(head -1 "$TMP/bad.err")"
}
ktap_check "https without --ca-file: refused (the certificate is not trusted)" \
	bash -c "[[ \$1 == '1 fabtop: prometheus at https://127.0.0.1:'*'unreachable ('*'certificate'* ]]" _ "$(bad "$PURL")"
ktap_check "a server answering 5xx and HTML (busybox httpd: POST is 501): exit 1, the status and the page's start" \
	bash -c "[[ \$1 == '1 fabtop: prometheus at http://127.0.0.1:$HPORT: HTTP 501, not a JSON object ('*'): \"<HTML><HEAD><TITLE>501 Not Implemented'* ]]" \
	_ "$(bad "http://127.0.0.1:$HPORT")"

# ---- the console, and Prometheus gone under it ----------------------------------
$TM new-session -d -x 150 -y 30 "$FABTOP --prometheus $PURL --ca-file $TMP/cert.pem -d 0.5"
screen() { $TM capture-pane -p -t 0; }
row_4242() { screen | grep -qE '^4242 +failing.*gpu2 mlx5_0/1'; }
ktap_check "under tmux: job 4242's row, failing, culprit gpu2 mlx5_0/1" wait_for 15 row_4242
$TM send-keys -t 0 Enter
page_4242() {
	local s
	s=$(screen)
	grep -qE '^failing hosts \(15 min\) .* 1$' <<<"$s" && grep -qE '^verdict \(15 min\) .* failing$' <<<"$s" &&
		grep -qE '^gpu2 .*culprit .*<==' <<<"$s" && [[ $(grep -c 'LOSING$' <<<"$s") == 4 ]]
}
page_and_back() {
	wait_for 15 page_4242 || return 1
	ktap_info "$(screen | sed -n '1,5p')"
	$TM send-keys -t 0 Escape
	wait_for 10 row_4242
}
ktap_check "Enter: job 4242's page (both histories, gpu2 the culprit, 4 losing pairs); Esc: the jobs again" \
	page_and_back
kill "$PROM_PID"
wait "$PROM_PID" 2>/dev/null
PROM_PID=
said_gone() { screen | grep -q "prometheus at $PURL unreachable" && row_4242; }
ktap_check "Prometheus stopped: the status line says so, the last jobs stay on screen" wait_for 10 said_gone
ktap_info "$(screen | sed -n '1,4p;$p')"
t0=$(date +%s%N)
$TM send-keys -t 0 q
gone() { ! $TM has-session -t 0 2>/dev/null; }
wait_for 5 gone
ms=$((($(date +%s%N) - t0) / 1000000))
ktap_check "q quits within 1 s meanwhile (${ms} ms)" test "$ms" -le 1000

# ---- bad answers ------------------------------------------------------------------
# serve PORT REPLY-FILE [DELAY]: one canned HTTP answer per connection; the
# request is kept in $TMP/req
serve() {
	socat -T 20 -r "$TMP/req" "TCP-LISTEN:$1,bind=127.0.0.1,reuseaddr,fork" \
		SYSTEM:"cat >/dev/null & sleep ${3:-0}; cat $2" 2>/dev/null &
	pids+=($!)
}
SPORT=$(free_port)
printf 'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\nthis is not json' >"$TMP/garbage"
printf 'HTTP/1.0 422 Unprocessable Entity\r\nContent-Type: application/json\r\n\r\n{"status":"error","errorType":"execution","error":"query timed out in expression evaluation"}' >"$TMP/apierr"
serve "$SPORT" "$TMP/garbage"
sleep 0.3
ktap_check "an answer that is not JSON: exit 1, 'not a JSON object'" \
	bash -c "[[ \$1 == '1 fabtop: prometheus at http://127.0.0.1:$SPORT: HTTP 200, not a JSON object'* ]]" _ "$(bad "http://127.0.0.1:$SPORT")"
EPORT=$(free_port)
serve "$EPORT" "$TMP/apierr"
sleep 0.3
ktap_check "an API error: exit 1, Prometheus's errorType and error" \
	bash -c "[[ \$1 == '1 fabtop: prometheus at http://127.0.0.1:$EPORT: HTTP 422, execution: query timed out in expression evaluation' ]]" _ "$(bad "http://127.0.0.1:$EPORT")"
NPORT=$(free_port)
printf 'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{"status":null,"data":{"resultType":null,"result":null}}' >"$TMP/nulls"
serve "$NPORT" "$TMP/nulls"
sleep 0.3
ktap_check "JSON nulls where strings belong: exit 1, said, no crash" \
	bash -c "[[ \$1 == '1 fabtop: prometheus at http://127.0.0.1:$NPORT: HTTP 200, error: no reason given' ]]" _ "$(bad "http://127.0.0.1:$NPORT")"
WPORT=$(free_port)
serve "$WPORT" "$TMP/garbage" 30
sleep 0.3
# the console while a request hangs (-d 10: up to 5 s each): q ends it
$TM new-session -d -s stall -x 120 -y 20 "$FABTOP --prometheus http://127.0.0.1:$WPORT -d 10"
asking() { $TM capture-pane -p -t stall | grep -q 'asking Prometheus'; }
wait_for 10 asking
t0=$(date +%s%N)
$TM send-keys -t stall q
stall_gone() { ! $TM has-session -t stall 2>/dev/null; }
wait_for 5 stall_gone
ms=$((($(date +%s%N) - t0) / 1000000))
ktap_check "q quits within 1 s while a request to Prometheus hangs (${ms} ms)" test "$ms" -le 1000
t0=$(date +%s%N)
slow=$("$FABTOP" --prometheus "http://127.0.0.1:$WPORT" --once -d 1 2>&1 >/dev/null)
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
ktap_check "a Prometheus that does not answer: exit 1 within 2 s at -d 1 (${ms} ms): '$slow'" \
	bash -c "(( $rc == 1 && $ms < 2000 )) && [[ \$1 == *'no answer in time'* ]]" _ "$slow"
CPORT=$(free_port)
ktap_check "nobody listening: exit 1, 'unreachable'" \
	bash -c "[[ \$1 == '1 fabtop: prometheus at http://127.0.0.1:$CPORT unreachable'* ]]" _ "$(bad "http://127.0.0.1:$CPORT")"
echo "s3cr3t-token" >"$TMP/token"
: >"$TMP/req"
"$FABTOP" --prometheus "http://127.0.0.1:$SPORT" --bearer-token-file "$TMP/token" --once >/dev/null 2>&1
ktap_check "--bearer-token-file: the request carries 'Authorization: Bearer s3cr3t-token', a POST to /api/v1/query" \
	bash -c "grep -q \$'^Authorization: Bearer s3cr3t-token\r\$' '$TMP/req' && grep -q '^POST /api/v1/query HTTP' '$TMP/req'"
: >"$TMP/empty"
ktap_check "--bearer-token-file: an empty file refused by name; bad option mixes exit 2" \
	bash -c "! '$FABTOP' --prometheus http://127.0.0.1:1 --bearer-token-file '$TMP/empty' --once 2>&1 | grep -q 'empty' && exit 1
		'$FABTOP' --prometheus http://127.0.0.1:1 --url http://127.0.0.1:2 --once 2>/dev/null; [[ \$? == 2 ]] || exit 1
		'$FABTOP' --job 4242 --once 2>/dev/null; [[ \$? == 2 ]]"
ktap_end
