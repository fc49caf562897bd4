#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_probe_fetch.sh - the prober's fetcher (Documentation/probes.rst "The
# fetcher"), on this host, loopback only, ASan build, no RDMA device
# needed (a fabteld with probe = on serves its endpoint document with no
# endpoint in it):
#  - HTTPS with basic auth: a peer fabteld with tls_cert_file and
#    basic_auth_user is read with probe_tls_ca_file, probe_auth_user and
#    probe_auth_password_file (fetches counted, no error); without the
#    credentials its 401 is counted (http_status); against another CA, a
#    certificate error; by a name its certificate does not carry, refused
#    unless probe_tls_verify_host = off; the password in no page and no log;
#    bad settings named, exit 2;
#  - 40 sources that accept a connection and never answer (listeners that
#    never accept: the kernel completes the handshake) and one live peer:
#    the rounds are concurrent, so the live peer is read every round (its
#    fetch count rises, its document never older than probe_peer_ttl_s)
#    and a round lasts about the 2 s timeout, not 40 of them;
#  - SIGTERM with those 40 fetches in flight: fabteld exits 0 well within
#    its 1.7 s stop grace, not through the grace's forced exit.
# Independent sources: the peers' own 401 (curl sees it too), openssl's
# certificates, the kernel's socket table (ss) for the fetches in flight.
. "$(dirname "$0")/../lib.sh"

FABTELD=${FABTELD:-$REPO/build/asan/fabteld}
[[ -x $FABTELD ]] || ktap_skip_all "build/asan/fabteld not built (make tests)"
for t in openssl htpasswd curl jq perl ss; do
	command -v $t >/dev/null || ktap_skip_all "$t missing (scripts/deps.sh)"
done

ktap_begin 18
TMP=$(mktemp -d)
chmod 755 "$TMP"	# fabteld reads the CA file as nobody
pids=()
trap 'kill ${pids[*]} 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT

PASS='s3cret pass:with colon'
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/key.pem" -out "$TMP/cert.pem" \
	-days 2 -subj /CN=fabtel-test -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/other-key.pem" \
	-out "$TMP/other.pem" -days 2 -subj /CN=other-ca >/dev/null 2>&1
chmod 600 "$TMP/key.pem"
printf '%s\n' "$PASS" >"$TMP/pw"
chmod 600 "$TMP/pw"	# read at start, before fabteld drops to nobody

# start NAME [fabteld options]: a fabteld on its own port (PORT_NAME), stderr in NAME.err
start() {
	local name=$1 port
	shift
	port=$(free_port)
	printf -v "PORT_$name" %s "$port"
	"$FABTELD" --bpf off --listen "127.0.0.1:$port" --set "host_name=$name" "$@" \
		2>"$TMP/$name.err" &
	pids+=($!)
	printf -v "PID_$name" %s $!
}
served() { wait_for 30 grep -q "serving http" "$TMP/$1.err"; }
metric() { # NAME SERIES
	curl -s --max-time 5 "http://127.0.0.1:$(port_of "$1")/metrics" |
		awk -v k="$2" '$1 == k { print $2 }'
}
port_of() { local v=PORT_$1; echo "${!v}"; }
probes() { curl -s --max-time 5 "http://127.0.0.1:$(port_of "$1")/api/v1/probes" | jq -r "$2"; }
FETCHES=fabtel_probe_endpoint_fetches_total
HTTP_ERR='fabtel_probe_endpoint_errors_total{reason="http_status"}'
CONN_ERR='fabtel_probe_endpoint_errors_total{reason="connect"}'
at_least() { local v; v=$(metric "$1" "$2"); [[ $v =~ ^[0-9]+$ ]] && ((v >= $3)); }

# ---- HTTPS and basic auth --------------------------------------------------
echo "basic_auth_user = $(htpasswd -nbB -C 10 prober "$PASS")" >"$TMP/auth.conf"
start A --config="$TMP/auth.conf" --set probe=on --set "tls_cert_file=$TMP/cert.pem" \
	--set "tls_key_file=$TMP/key.pem"
served A
PA=$PORT_A
FAST=(--set probe_refresh_s=2)
start good --set "probe_peer=127.0.0.1:$PA" --set "probe_tls_ca_file=$TMP/cert.pem" \
	--set probe_auth_user=prober --set "probe_auth_password_file=$TMP/pw" "${FAST[@]}"
start noauth --set "probe_peer=127.0.0.1:$PA" --set "probe_tls_ca_file=$TMP/cert.pem" "${FAST[@]}"
start otherca --set "probe_peer=127.0.0.1:$PA" --set "probe_tls_ca_file=$TMP/other.pem" \
	--set probe_auth_user=prober --set "probe_auth_password_file=$TMP/pw" "${FAST[@]}"
start byname --set "probe_peer=localhost:$PA" --set "probe_tls_ca_file=$TMP/cert.pem" \
	--set probe_auth_user=prober --set "probe_auth_password_file=$TMP/pw" "${FAST[@]}"
start anyname --set "probe_peer=localhost:$PA" --set "probe_tls_ca_file=$TMP/cert.pem" \
	--set probe_auth_user=prober --set "probe_auth_password_file=$TMP/pw" \
	--set probe_tls_verify_host=off "${FAST[@]}"
for n in good noauth otherca byname anyname; do served $n; done
ktap_check "the peer serves HTTPS with basic auth; the prober says it reads over https (basic auth)" \
	bash -c "grep -q 'serving https://127.0.0.1:$PA/metrics (basic auth)' '$TMP/A.err' &&
		grep -q 'read over https (basic auth)' '$TMP/good.err'"
# the peer's own answer, as curl gets it: what the fetcher must get past
ktap_eq "the peer's endpoint document: 401 without credentials, 200 with (curl)" \
	"$(curl -s -o /dev/null -w '%{http_code}' --cacert "$TMP/cert.pem" "https://127.0.0.1:$PA/api/v1/probe/endpoints") $(curl -s -o /dev/null -w '%{http_code}' --cacert "$TMP/cert.pem" -u "prober:$PASS" "https://127.0.0.1:$PA/api/v1/probe/endpoints")" \
	"401 200"
wait_for 20 at_least good $FETCHES 2
ktap_eq "with CA, user and password file: documents taken (2 rounds), no http_status error, the source without error" \
	"$(at_least good $FETCHES 2 && echo taken) $(metric good "$HTTP_ERR") $(probes good '.sources[0].error')" \
	"taken 0 null"
wait_for 20 at_least noauth "$HTTP_ERR" 2
ktap_eq "without credentials: the 401 counted as http_status, nothing taken" \
	"$(at_least noauth "$HTTP_ERR" 2 && echo counted) $(metric noauth $FETCHES) $(probes noauth '.sources[0].error')" \
	"counted 0 HTTP status 401"
wait_for 20 at_least otherca "$CONN_ERR" 2
err=$(probes otherca '.sources[0].error')
ktap_info "another CA: $err"
ktap_eq "a certificate of another CA: refused (connect, the certificate named), nothing taken" \
	"$(metric otherca $FETCHES) $(grep -ciE 'certificate|issuer' <<<"$err")" "0 1"
wait_for 20 at_least byname "$CONN_ERR" 2
wait_for 20 at_least anyname $FETCHES 2
err=$(probes byname '.sources[0].error')
ktap_info "by a name the certificate does not carry: $err"
ktap_eq "peer by name, certificate for 127.0.0.1 only: refused; with probe_tls_verify_host = off: taken" \
	"$(metric byname $FETCHES) $(at_least anyname $FETCHES 2 && echo taken)" "0 taken"
leak=$(for n in good noauth otherca byname anyname; do
	for p in /metrics /api/v1/probes /api/v1/snapshot; do
		curl -s --max-time 5 "http://127.0.0.1:$(port_of $n)$p"
	done
	cat "$TMP/$n.err"
done | grep -cF "$PASS")
ktap_eq "the password is in no page (/metrics, /api/v1/probes, /api/v1/snapshot) and no log" "$leak" 0

# bad settings: named, exit 2, before anything starts
out=$("$FABTELD" --check-config --set probe_auth_user=prober \
	--set "probe_auth_password_file=$TMP/nope" 2>&1)
ktap_eq "a password file that is not there: exit 2, the key and the file named" \
	"$?:$(grep -c "probe_auth_password_file $TMP/nope: No such file" <<<"$out")" "2:1"
out=$("$FABTELD" --check-config --set probe_auth_user=prober 2>&1)
ktap_eq "probe_auth_user without probe_auth_password_file: exit 2, said" \
	"$?:$(grep -c 'probe_auth_user is set without probe_auth_password_file' <<<"$out")" "2:1"
out=$("$FABTELD" --check-config --set probe_tls_verify_host=maybe 2>&1)
ktap_eq "probe_tls_verify_host = maybe: exit 2, named" \
	"$?:$(grep -c 'probe_tls_verify_host wants on or off' <<<"$out")" "2:1"
if (($(id -u) == 0)); then
	mkdir -m 700 "$TMP/private"
	cp "$TMP/cert.pem" "$TMP/private/ca.pem"
	out=$("$FABTELD" --bpf off --listen "127.0.0.1:$(free_port)" \
		--set "probe_peer=127.0.0.1:$PA" --set "probe_tls_ca_file=$TMP/private/ca.pem" 2>&1)
	ktap_eq "a CA file root reads and nobody does not: exit 1 at start, the file named" \
		"$?:$(grep -c "probe_tls_ca_file $TMP/private/ca.pem: Permission denied" <<<"$out")" "1:1"
else
	ktap_skip "a CA file nobody cannot read" "needs root (fabteld drops to nobody)"
fi

# ---- 40 sources that never answer --------------------------------------------
# listeners that never accept: connect() succeeds (the kernel's backlog),
# the request gets no answer, each fetch lasts its whole timeout
perl -MIO::Socket::INET -e '
	my @s;
	for (1 .. 40) {
		my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0,
					      Listen => 128, ReuseAddr => 1) or die "listen: $!";
		push @s, $l;
		print "127.0.0.1:", $l->sockport, "\n";
	}
	close STDOUT;
	sleep 600;' >"$TMP/holes" &
pids+=($!)
wait_for 10 bash -c "(( \$(wc -l <'$TMP/holes') == 40 ))"
cp "$TMP/holes" "$TMP/peers"
HOLE1=$(head -1 "$TMP/holes")
ktap_check "40 black holes listening: a connection to one is made, a request gets no answer in 1 s" \
	bash -c "exec 3<>/dev/tcp/127.0.0.1/${HOLE1#*:} &&
		printf 'GET / HTTP/1.0\r\n\r\n' >&3 && ! read -r -t 1 -u 3 line"
start live --set probe=on
served live
start C --set "probe_peer=127.0.0.1:$PORT_live" --set "probe_peers_file=$TMP/peers" \
	--set probe_refresh_s=3 --set probe_peer_ttl_s=6
served C
wait_for 20 bash -c "[[ \$(curl -s 'http://127.0.0.1:$PORT_C/api/v1/probes' | jq '[.sources[] | select(.error != null)] | length') == 40 ]]"
ktap_eq "41 sources; the 40 black holes each end in the timeout" \
	"$(probes C '.sources | length') $(probes C '[.sources[] | select(.error // "" | test("timed out"))] | length')" \
	"41 40"

# ~20 s of rounds, looked at once a second: the live peer is never stale
f0=$(metric C $FETCHES)
max_age=0 max_round=0 errs=0 samples=0
end=$((SECONDS + 20))
while ((SECONDS < end)); do
	IFS=$'\t' read -r age error round < <(probes C \
		'[(.sources[] | select(.address | endswith(":'"$PORT_live"'")) | (.age_s // 99), (.error // "none")), .fetch_round_s] | @tsv')
	[[ $error == none ]] || errs=$((errs + 1))
	max_age=$(awk -v a="$age" -v m="$max_age" 'BEGIN { print (a > m) ? a : m }')
	max_round=$(awk -v a="$round" -v m="$max_round" 'BEGIN { print (a > m) ? a : m }')
	samples=$((samples + 1))
	sleep 1	# the sampling period of the window, not a wait for a condition
done
f1=$(metric C $FETCHES)
ktap_info "over ${samples} samples: live document at most ${max_age} s old (probe_peer_ttl_s 6), fetches $f0 -> $f1, longest round ${max_round} s"
ktap_eq "with 40 dead sources the live peer is read every round: never an error, never older than probe_peer_ttl_s" \
	"$errs $(awk -v a="$max_age" 'BEGIN { print (a < 6) ? "fresh" : "stale" }')" "0 fresh"
ktap_ge "... its document taken at least 5 times in 20 s (probe_refresh_s 3; serial: once per 80 s)" \
	$((f1 - f0)) 5
ktap_eq "a round with 40 dead sources lasts about one 2 s timeout (under 3 s), not 40 of them" \
	"$(awk -v a="$max_round" 'BEGIN { print (a > 1.5 && a < 3) ? "bounded" : "not: " a }')" "bounded"

# ---- SIGTERM with the fetches in flight -------------------------------------------
inflight() { ss -Htn state established | awk '{ print $4 }' | grep -cxFf "$TMP/holes"; }
wait_for 10 bash -c "(( \$(ss -Htn state established | awk '{ print \$4 }' | grep -cxFf '$TMP/holes') >= 40 ))"
n=$(inflight)
t0=$(date +%s%N)
kill -TERM "$PID_C"
wait "$PID_C"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
ktap_info "SIGTERM with $n fetches in flight: fabteld exited $rc after $ms ms"
ktap_eq "SIGTERM with 40 fetches in flight: exit 0 within the 1.7 s grace, not its forced exit" \
	"$((n >= 40)) $rc $((ms < 1700)) $(grep -c 'still busy' "$TMP/C.err")" "1 0 1 0"

kill "${pids[@]}" 2>/dev/null
wait 2>/dev/null
pids=()
ktap_eq "no sanitizer report from any fabteld" \
	"$(cat "$TMP"/*.err | grep -ciE 'sanitizer|runtime error')" 0
ktap_end
