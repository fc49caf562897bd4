#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_slow_readers.sh - clients that read large answers slowly hold
# neither every HTTP slot nor unbounded memory (http_guard.c: the response
# deadline, the cap on large answers in flight, the reserve; issue 38
# item 6).  Loopback only, on a 64-port fixture (scripts/bench-fixture.sh).
#
# fabteld samples every 100 ms until /api/v1/history?seconds=15 holds 150
# points a port (about 600 KB), then 64 clients ask for it at once, each
# with SO_RCVBUF 4096 and an Ethernet MSS (1448: on loopback's 64 KiB MSS
# the kernel would take a whole MB into its send buffer at once, which no
# NIC does).  One in four takes the body at 1 byte a second: libmicrohttpd
# cannot write to it for 10 s and closes it (its write timeout).  The
# others take 4 KiB every 0.25 s, just enough that this timeout never fires
# (it restarts at every write), so only the response deadline
# (response_timeout_s, 20 s here) or the scrape taking their place ends
# them.  A client given 503 retries after its Retry-After.  While they run:
#
# - /metrics is fetched every 5 s: 200, its whole body (its last family
#   there), within 1 s;
# - fabteld's VmRSS, every 0.5 s, stays under its warm RSS (after fast
#   fetches of the same answers) + max_connections / 8 bodies + 6 MiB (an
#   answer of up to 64 KiB for each of 64 other connections, and
#   libmicrohttpd's 16 KiB pool for each of its 128): what http_guard.c
#   says it holds; without the cap, 64 bodies would be;
# - the clients' own log (what each got, when it ended, how) is checked
#   against fabtel_http_rejected_total: every 200 cut off before its body
#   was whole is a response_timeout or a slow_reader_evicted (a scrape or
#   a new connection took its place), every 503 a large_response_limit,
#   and some were cut at the deadline itself.
#
# And the reserve, on a second fabteld with max_connections = 1 (while the
# first one's history fills): its one slot held by a slow reader of
# /metrics for over a second, a new connection still gets its answer, and
# the reader's eviction is counted.
#
# The plain build (build/fabteld, FABTELD to pick another): ASan's
# quarantine would be measured instead of fabteld's memory.
. "$(dirname "$0")/../lib.sh"

FABTELD=${FABTELD:-$REPO/build/fabteld}
[[ -x $FABTELD ]] || ktap_skip_all "build/fabteld not built (make)"
command -v curl >/dev/null || ktap_skip_all "curl missing (scripts/deps.sh)"
command -v jq >/dev/null || ktap_skip_all "jq missing (scripts/deps.sh)"
command -v python3 >/dev/null || ktap_skip_all "python3 missing"
command -v ss >/dev/null || ktap_skip_all "ss missing (iproute2)"

ktap_begin 11

DEADLINE=20		# response_timeout_s
PHASE=$((DEADLINE + 8))	# how long the slow clients run
CLIENTS=64
MAXCONN=64
TMP=$(mktemp -d)
chmod 755 "$TMP"	# fabteld started as root reads the fixture as nobody
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
HIST="/api/v1/history?seconds=15"
pid='' pid1='' cl=''
cleanup() {
	[[ -n $cl ]] && kill "$cl" 2>/dev/null
	[[ -n $pid ]] && kill "$pid" 2>/dev/null
	[[ -n $pid1 ]] && kill "$pid1" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
ulimit -n 4096

# ---- the slow clients -----------------------------------------------------------
# slow.py PORT N PATH SECONDS: N clients; one line per answer that ended:
# "id status t_request t_end bytes how" (how: complete, eof, reset, open)
cat >"$TMP/slow.py" <<'PY'
import socket, sys, time
port, n, path, dur = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
TICK, TCP_CLOSE = 0.25, 7
t0 = time.monotonic()
def now(): return time.monotonic() - t0
class Client:
    def __init__(c, i):
        c.i, c.t, c.n, c.head, c.status, c.want = i, now(), 0, b"", None, None
        # one in four: 1 byte a second; the others 4 KiB a tick
        c.pace = (1, 1.0) if i % 4 == 0 else (4096, TICK)
        c.next = 0.0
        c.s = socket.socket()
        c.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 1448)
        c.s.connect(("127.0.0.1", port))
        c.s.sendall(("GET %s HTTP/1.1\r\nHost: fabteld\r\n\r\n" % path).encode())
        c.s.setblocking(False)
    def step(c):
        """None while going on, else how it ended"""
        if c.status is not None and now() < c.next:
            return c.closed()
        try:
            b = c.s.recv(4096 if c.status is None else c.pace[0])
        except BlockingIOError:
            return c.closed()
        except OSError:
            return "reset"
        if not b:
            return "eof"
        c.n += len(b)
        if c.status is None:
            c.head += b
            if b"\r\n\r\n" in c.head:
                h = c.head.split(b"\r\n\r\n")[0]
                c.status = int(h.split()[1])
                for l in h.split(b"\r\n")[1:]:
                    k, _, v = l.partition(b":")
                    if k.strip().lower() == b"content-length":
                        c.want = len(h) + 4 + int(v)
        c.next = now() + c.pace[1]
        return "complete" if c.want is not None and c.n >= c.want else c.closed()
    def closed(c):
        # a reset shows in the socket's state before its queued bytes are read
        st = c.s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]
        return "reset" if st == TCP_CLOSE else None
def log(c, how):
    print(c.i, c.status, "%.2f" % c.t, "%.2f" % now(), c.n, how, flush=True)
live, retry = [Client(i) for i in range(n)], {}
while now() < dur:
    tick = time.monotonic()
    for c in list(live):
        how = c.step()
        if how:
            live.remove(c)
            c.s.close()
            log(c, how)
            if c.status == 503:
                retry[c.i] = now() + 5	# its Retry-After
    for i, at in list(retry.items()):
        if now() >= at:
            del retry[i]
            live.append(Client(i))
    time.sleep(max(0.0, TICK - (time.monotonic() - tick)))
for c in live:
    log(c, "open")
PY

rss_kib() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$pid/status"; }
rejected() { # reason -> its count in the /metrics fetched last ($TMP/final), "none" if missing
	awk -v r="$1" '$1 == "fabtel_http_rejected_total{reason=\"" r "\"}" { v = $2 }
		END { print (v == "") ? "none" : v }' "$TMP/final"
}
# one scrape: "OK seconds" if 200, whole (curl's exit 0, the last family
# there) and within 1 s; else "BAD seconds (why)"
scrape() {
	local out rc
	: >"$TMP/m"
	out=$(curl -s -o "$TMP/m" -w '%{http_code} %{time_total}' --max-time 1 "$URL/metrics")
	rc=$?
	set -- $out
	if [[ $rc == 0 && $1 == 200 ]] && tail -n 1 "$TMP/m" | grep -q '^fabtel_http_connections{'; then
		echo "OK $2"
	else
		echo "BAD ${2:-?} (curl $rc, HTTP ${1:-?}, $(wc -c <"$TMP/m") bytes)"
	fi
}

# ---- fabteld on 64 ports ---------------------------------------------------------
"$REPO/scripts/bench-fixture.sh" "$TMP/fx" 64 ko >/dev/null
"$FABTELD" --bpf off --set sysfs_root="$TMP/fx" --set proc_root="$TMP/fx" --set probe=off \
	--interval-ms 100 --set max_connections=$MAXCONN --set response_timeout_s=$DEADLINE \
	--listen "127.0.0.1:$PORT" 2>"$TMP/err" &
pid=$!
ktap_check "fabteld serves /healthz on the 64-port fixture" wait_for 20 curl -sf "$URL/healthz"

# ---- the reserve: one slot, a slow reader in it ---------------------------------
PORT1=$(free_port)
"$FABTELD" --bpf off --set sysfs_root="$TMP/fx" --set proc_root="$TMP/fx" --set probe=off \
	--set max_connections=1 --listen "127.0.0.1:$PORT1" 2>"$TMP/err1" &
pid1=$!
wait_for 20 curl -sf "http://127.0.0.1:$PORT1/metrics"
python3 "$TMP/slow.py" "$PORT1" 1 /metrics 4 >"$TMP/one" &
one=$!
held() { ss -tnH state established "( sport = :$PORT1 )" | awk '$2 > 0 { n++ } END { exit !n }'; }
wait_for 10 held
sleep 1.5	# past GUARD_SLOW_S: only a response in flight that long is evictable
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$PORT1/healthz")
wait "$one"
ktap_eq "one slot, held by a slow reader of /metrics: /healthz still 200, the reader evicted and counted" \
	"$code $(curl -sf --max-time 5 "http://127.0.0.1:$PORT1/metrics" |
		 awk '$1 == "fabtel_http_rejected_total{reason=\"slow_reader_evicted\"}" { print $2 }') $(awk '{ print $2, $6 }' "$TMP/one")" \
	"200 1 200 reset"
kill "$pid1"
wait "$pid1"
pid1=

points() { curl -sf --max-time 5 "$URL$HIST" | jq '[.ports[].points | length] | min'; }
full() { (($(points) >= 145)); }
wait_for 30 full
for _ in 1 2 3; do	# warm: the same answers, fast
	hist=$(curl -s -o /dev/null -w '%{size_download}' "$URL$HIST")
	curl -s -o /dev/null "$URL/metrics"
done
ktap_check "history of 64 ports fills: $(points) points a port, $hist bytes" \
	test "$(points)" -ge 145 -a "$hist" -gt $((256 * 1024))
warm=$(rss_kib)

# ---- 64 slow readers -------------------------------------------------------------
python3 "$TMP/slow.py" "$PORT" "$CLIENTS" "$HIST" "$PHASE" >"$TMP/clients" 2>"$TMP/clients.err" &
cl=$!
start=$SECONDS peak=$warm scrapes=0 good=0 worst=0 sendq=0 bad=
for ((tick = 1; tick <= 2 * PHASE - 2; tick++)); do
	sleep 0.5
	r=$(rss_kib)
	((r > peak)) && peak=$r
	if ((tick == 4)); then	# what the kernel holds for a slow reader: fabteld's Send-Q
		sendq=$(ss -tnH state established "( sport = :$PORT )" |
			awk '$2 > m { m = $2 } END { print m + 0 }')
	fi
	if ((tick % 10 == 5)); then
		read -r verdict took why <<<"$(scrape)"
		scrapes=$((scrapes + 1))
		[[ $verdict == OK ]] && good=$((good + 1)) || bad+=" $took $why"
		worst=$(awk -v a="$worst" -v b="$took" 'BEGIN { print (b + 0 > a) ? b : a }')
	fi
done
wait "$cl"
cl=
curl -sf --max-time 5 "$URL/metrics" >"$TMP/final"
ktap_info "over $((SECONDS - start)) s: $(wc -l <"$TMP/clients") answers ended; RSS warm $warm KiB, peak $peak KiB"

ktap_eq "/metrics: 200, whole, within 1 s, every time while they read (slowest ${worst}s)${bad:+; bad:$bad}" \
	"$good/$scrapes" "$scrapes/$scrapes"
# a reader takes its 4 KiB buffer; fabteld's side holds Send-Q
ktap_check "the history ($hist bytes) is more than twice what the kernel takes for a slow reader ($sendq + 8192)" \
	test "$hist" -gt $((2 * (sendq + 8192)))
bound=$((warm + (MAXCONN / 8) * hist / 1024 + 6 * 1024))
ktap_check "RSS stays under warm + $((MAXCONN / 8)) bodies + 6 MiB (peak $peak KiB, bound $bound KiB; 64 bodies: $((warm + 64 * hist / 1024)))" \
	test "$peak" -lt "$bound"

# the clients' log: 200s cut before whole, at the deadline, 503s
cut=$(awk '$2 == 200 && ($6 == "reset" || $6 == "eof")' "$TMP/clients" | wc -l)
at_deadline=$(awk -v d=$DEADLINE '$2 == 200 && $6 == "reset" && $4 - $3 >= d && $4 - $3 < d + 1.5' "$TMP/clients" | wc -l)
got503=$(awk '$2 == 503' "$TMP/clients" | wc -l)
write_timeout=$(awk '$1 % 4 == 0 && $2 == 200 && $6 == "reset" && $4 - $3 >= 10 && $4 - $3 < 13' "$TMP/clients" | wc -l)
ktap_info "clients: $(awk '$2 == 200' "$TMP/clients" | wc -l) got 200 ($cut cut off, $at_deadline at the ${DEADLINE}s deadline, $(awk '$6 == "complete" && $2 == 200' "$TMP/clients" | wc -l) whole), $got503 got 503"
ktap_info "$(grep fabtel_http_rejected_total "$TMP/final" | grep -v '^#')"
ktap_check "slow readers' answers cut off at the deadline ($at_deadline, ${DEADLINE}-$((DEADLINE + 1)).5 s after the request)" \
	test "$at_deadline" -ge 1
ktap_check "1-byte/s readers' answers cut off by libmicrohttpd's 10 s write timeout ($write_timeout, 10-13 s after the request)" \
	test "$write_timeout" -ge 1
rt=$(rejected response_timeout) sre=$(rejected slow_reader_evicted)
ktap_eq "every cut counted: response_timeout ($rt) + slow_reader_evicted ($sre) = cuts the clients saw" \
	"$(awk -v a="$rt" -v b="$sre" 'BEGIN { print (a b ~ /^[0-9]+$/) ? a + b : "none" }')" "$cut"
ktap_eq "every 503 counted: large_response_limit = 503s the clients saw ($got503)" \
	"$(rejected large_response_limit)" "$got503"

kill -TERM "$pid"
wait "$pid"
rc=$?
pid=
ktap_eq "SIGTERM: exit 0" "$rc" 0
ktap_end
