#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fabteld_web.sh - fabteld's endpoint over HTTPS with basic auth
# (tls_cert_file, tls_key_file, basic_auth_user: bcrypt hashes as htpasswd
# -B makes them), read by Prometheus itself: a Prometheus of the test's own
# scrapes it over TLS (the test's CA) with the right password (up 1, a
# metric), another job with a wrong one (up 0, the scrape error says 401);
# curl: no or wrong credentials 401 with WWW-Authenticate: Basic, plain HTTP
# refused, /-/healthy and /-/ready; bad settings named and refused.
. "$(dirname "$0")/../lib.sh"

FABTELD=$REPO/build/asan/fabteld
[[ -x $FABTELD ]] || ktap_skip_all "build/asan/fabteld not built (make tests)"
for t in prometheus openssl htpasswd; do
	command -v $t >/dev/null || ktap_skip_all "$t missing (scripts/deps.sh)"
done

ktap_begin 14
TMP=$(mktemp -d)
chmod 755 "$TMP"
trap 'kill $pid $PROM_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT
pid=

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/key.pem" -out "$TMP/cert.pem" \
	-days 2 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1
chmod 600 "$TMP/key.pem"	# root's only: read before fabteld drops to nobody
PORT=$(free_port)
URL=https://127.0.0.1:$PORT
cat >"$TMP/fabteld.conf" <<EOF
listen = 127.0.0.1:$PORT
bpf = off
tls_cert_file = $TMP/cert.pem
tls_key_file = $TMP/key.pem
basic_auth_user = $(htpasswd -nbB -C 10 prom 's3cret pass')
basic_auth_user = $(htpasswd -nbB -C 10 other 'another')
EOF
"$FABTELD" --config "$TMP/fabteld.conf" 2>"$TMP/err" &
pid=$!
c() { curl -s --max-time 10 --cacert "$TMP/cert.pem" "$@"; }
ktap_check "fabteld serves HTTPS with basic auth (its start line says so)" \
	wait_for 20 grep -q "serving https://127.0.0.1:$PORT/metrics (basic auth)" "$TMP/err"

ktap_eq "no credentials: 401, WWW-Authenticate: Basic realm=\"fabteld\"" \
	"$(c -o /dev/null -w '%{http_code}' "$URL/metrics") $(c -D - -o /dev/null "$URL/metrics" | tr -d '\r' | grep -i '^www-authenticate:' | cut -d' ' -f2-)" \
	'401 Basic realm="fabteld"'
ktap_eq "a wrong password, an unknown user: 401, 401" \
	"$(c -o /dev/null -w '%{http_code}' -u prom:wrong "$URL/metrics") $(c -o /dev/null -w '%{http_code}' -u nobody:'s3cret pass' "$URL/metrics")" \
	"401 401"
ktap_eq "the right password (either user): 200 with fabteld's metrics" \
	"$(c -u 'prom:s3cret pass' "$URL/metrics" | grep -c '^fabtel_build_info') $(c -o /dev/null -w '%{http_code}' -u other:another "$URL/metrics")" \
	"1 200"
ktap_eq "/-/healthy, /-/ready, /healthz: 200 without credentials (a kubelet's probes); /api/v1/jobs 401" \
	"$(c -o /dev/null -w '%{http_code}' "$URL/-/healthy") $(c -o /dev/null -w '%{http_code}' "$URL/-/ready") $(c -o /dev/null -w '%{http_code}' "$URL/healthz") $(c -o /dev/null -w '%{http_code}' "$URL/api/v1/jobs")" \
	"200 200 200 401"
ktap_eq "POST /api/v1/ack: 401 without credentials, 200 with (nothing to clear), GET 405, unknown port 404" \
	"$(c -o /dev/null -w '%{http_code}' -X POST "$URL/api/v1/ack") $(c -u 'prom:s3cret pass' -X POST "$URL/api/v1/ack") $(c -o /dev/null -w '%{http_code}' -u 'prom:s3cret pass' "$URL/api/v1/ack") $(c -o /dev/null -w '%{http_code}' -u 'prom:s3cret pass' -X POST "$URL/api/v1/ack?device=none&port=1")" \
	'401 {"cleared":0} 405 404'
ktap_check "plain HTTP to the HTTPS port gets no HTTP answer" \
	bash -c "! curl -s --max-time 5 -o /dev/null -w '%{http_code}' 'http://127.0.0.1:$PORT/metrics' | grep -q '^[1-5]'"

# Prometheus itself: one job with the right password, one with a wrong one
PP=$(free_port)
mkdir -p "$TMP/prom"
cat >"$TMP/prom/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: fabtel
    scheme: https
    tls_config:
      ca_file: $TMP/cert.pem
    basic_auth:
      username: prom
      password: 's3cret pass'
    static_configs:
      - targets: ['127.0.0.1:$PORT']
  - job_name: fabtel-wrong
    scheme: https
    tls_config:
      ca_file: $TMP/cert.pem
    basic_auth:
      username: prom
      password: 'not it'
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF
prometheus --config.file="$TMP/prom/prometheus.yml" --storage.tsdb.path="$TMP/prom/data" \
	--web.listen-address="127.0.0.1:$PP" >"$TMP/prom/log" 2>&1 &
PROM_PID=$!
PROM_PORT=$PP
ktap_check "Prometheus scrapes fabteld over TLS with basic auth: up 1" \
	wait_for 60 bash -c "[[ \$(curl -sf 'http://127.0.0.1:$PP/api/v1/query' --data-urlencode 'query=up{job=\"fabtel\"}' | jq -r '.data.result[0].value[1]') == 1 ]]"
ktap_eq "... and stores fabteld's series (fabtel_build_info)" \
	"$(prom 'fabtel_build_info{job="fabtel"}')" 1
ktap_check "with a wrong password: up 0" \
	wait_for 30 bash -c "[[ \$(curl -sf 'http://127.0.0.1:$PP/api/v1/query' --data-urlencode 'query=up{job=\"fabtel-wrong\"}' | jq -r '.data.result[0].value[1]') == 0 ]]"
err=$(curl -sf "http://127.0.0.1:$PP/api/v1/targets" |
	jq -r '.data.activeTargets[] | select(.labels.job == "fabtel-wrong") | .lastError')
ktap_info "Prometheus's scrape error: $err"
ktap_check "... its scrape error is the 401" grep -q 401 <<<"$err"

# bad settings: named, refused before anything starts
echo 'basic_auth_user = prom:plaintext' >"$TMP/plain.conf"
out=$("$FABTELD" --once metrics --config="$TMP/plain.conf" 2>&1)
ktap_eq "basic_auth_user without a bcrypt hash: exit 2, its line named" \
	"$?:$(grep -c "plain.conf:1: basic_auth_user wants NAME:BCRYPT_HASH" <<<"$out")" "2:1"
out=$("$FABTELD" --once metrics --set "basic_auth_user=$(htpasswd -nbB -C 10 prom x)" 2>&1)
ktap_eq "basic_auth_user on the command line (a hash in argv, which every user can read): refused, exit 2" \
	"$?:$(grep -c 'basic_auth_user is read from the config file only' <<<"$out")" "2:1"
out=$("$FABTELD" --bpf off --listen "127.0.0.1:$(free_port)" --set "tls_cert_file=$TMP/nope.pem" \
	--set "tls_key_file=$TMP/key.pem" 2>&1)
ktap_eq "a missing certificate: exit 1, the file named" \
	"$?:$(grep -c "tls_cert_file $TMP/nope.pem: No such file" <<<"$out")" "1:1"
kill $pid
wait $pid
ktap_info "$(grep -i sanitizer "$TMP/err" | head -3)"
ktap_end
