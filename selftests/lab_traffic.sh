#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_traffic.sh - fabtel-traffic (build/fabtel-traffic) between the lab's
# guests: client on a (10.77.0.1, rxa), server on b (10.77.0.2, rxb).
# What each check is compared against:
#
# 1. 200 WRITEs of 64 KiB a -> b: the client's own count and exit status;
#    the server's count (its receive completions: a separate process on
#    the other guest); the QPNs each end reports about the other; rxe's
#    sent_pkts on a and rcvd_pkts on b (at least 200 x 64 KiB / active MTU
#    packets; the MTU from ibv_devinfo); --json parsed with jq.
# 2. --rate 50 --duration 2 (4 KiB WRITEs, well under what TCG carries):
#    100 messages expected, 80..120 accepted (TCG timing is noisy); the
#    server must have counted as many as the client.
# 3. --cgroup /sys/fs/cgroup/fabtel-job-42: while the client runs, the pid
#    the guest's shell started ($!) is listed in that cgroup's cgroup.procs
#    and /proc/PID/cgroup names it (both read by another process), and the
#    kernel's rdma controller charges the client's verbs objects to it
#    (rdma.current, enabled in the root's subtree_control for the test).
#    Then SIGTERM: the client must drain, exit 0 and say stop=signal.
# 4. Retry exceeded: the client runs with --retry-cnt 1 while
#    `fablab flap b --down-ms 4000` holds the peer's link down.  It must
#    exit 1 reporting status 12 on its own QPN, rxa's retry_exceeded_err
#    must move by exactly 1 (one QP), and the QP's attributes (read back by
#    the tool with ibv_query_qp) must be retry_cnt 1 and the timeout asked
#    for.  Time to notice: the tool's wr_age_seconds (failed WR posted ->
#    failed) and, from the host, flap start -> summary line seen.
#    --timeout is 16 (268 ms), not 10 (4.2 ms): on the TCG guests the ACK
#    round trip regularly exceeds two 4 ms jiffies, so with --timeout 10 the
#    QP fails with status 12 without any fault, before the flap (the test
#    shows that run as a diagnostic, not as a check).
# 5. Bad options exit 2 (a setup failure 1) with a message naming the option.
. "$(dirname "$0")/lib.sh"

BIN=$REPO/build/fabtel-traffic
PORT=18600
SERVER=10.77.0.2
CG=/sys/fs/cgroup/fabtel-job-42
ITERS=200
SIZE=65536
DOWN_MS=4000
TIMEOUT=16

[[ -x $BIN ]] || ktap_skip_all "$BIN not built (make userspace)"

ktap_begin 22

tmp=$(mktemp -d)
srv_job=
rdma_ctl_added=0
cleanup() {
	srv_stop
	lab a "rmdir $CG 2>/dev/null; true" >/dev/null 2>&1
	((rdma_ctl_added)) &&
		lab a "echo -rdma >/sys/fs/cgroup/cgroup.subtree_control" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

jq_get() { jq -r "$2" <<<"$1" 2>/dev/null; }	# JSON FILTER
json_ok() { jq -e "$2" >/dev/null <<<"$1"; }	# JSON FILTER (for ktap_check)
job_done() { ! kill -0 "$1" 2>/dev/null; }

# ---- the server on b: one connection, its JSON in b's /tmp -------------

listening() { lab b "rdma res show cm_id" | grep -q "LISTEN.*:$PORT\b"; }

srv_start() {
	lab b "rm -f /tmp/ft-srv.json; $BIN --server --port $PORT --json \
		>/tmp/ft-srv.json 2>/tmp/ft-srv.err & echo \$! >/tmp/ft-srv.pid; wait \$!" \
		>/dev/null 2>&1 &
	srv_job=$!
	wait_for 30 listening || ktap_info "server on b not listening after 30 s"
}

# The server exits when its client disconnects; SIGTERM it after SECONDS.
# Its summary is then in $srv.
srv_wait() { # seconds
	srv=
	[[ -n $srv_job ]] || return 0
	if ! wait_for "$1" job_done "$srv_job"; then
		ktap_info "server still running after $1 s: SIGTERM"
		srv_stop
	fi
	wait "$srv_job" 2>/dev/null
	srv_job=
	srv=$(lab_read b /tmp/ft-srv.json)
}

srv_stop() {
	[[ -n $srv_job ]] || return 0
	lab b 'kill -TERM $(cat /tmp/ft-srv.pid) 2>/dev/null; true' >/dev/null 2>&1
	wait_for 10 job_done "$srv_job"
	wait "$srv_job" 2>/dev/null
	srv_job=
}

# ---- 1. 200 x 64 KiB -------------------------------------------------------

mtu=$(lab a "ibv_devinfo -d rxa | sed -n 's/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p'")
sent0=$(rxe_counter a sent_pkts)
rcvd0=$(rxe_counter b rcvd_pkts)
retr0=$(rxe_counter a completer_retry_err)
srv_start
cli=$(lab a "$BIN $SERVER --port $PORT --iters $ITERS --size $SIZE --json" 2>"$tmp/1.err")
rc=$?
srv_wait 20
sent1=$(rxe_counter a sent_pkts)
rcvd1=$(rxe_counter b rcvd_pkts)
retr1=$(rxe_counter a completer_retry_err)
ktap_info "client: $cli"
ktap_info "server: $srv"
[[ -s $tmp/1.err ]] && ktap_info "client stderr: $(cat "$tmp/1.err")"

ktap_eq "200 x 64 KiB: client exit 0, $ITERS WRITEs, $((ITERS * SIZE)) bytes" \
	"$rc $(jq_get "$cli" '"\(.messages) \(.bytes)"')" "0 $ITERS $((ITERS * SIZE))"
ktap_check "200 x 64 KiB: --json has role, QPNs, messages, bytes, seconds, mb_per_s" \
	json_ok "$cli" '.role == "client" and (.local_qpn|type) == "number" and
		(.remote_qpn|type) == "number" and (.messages|type) == "number" and
		(.bytes|type) == "number" and .seconds > 0 and .mb_per_s > 0 and
		.status == "ok"'
ktap_eq "200 x 64 KiB: the server on b counted the same WRITEs and bytes" \
	"$(jq_get "$srv" '"\(.role) \(.messages) \(.bytes)"')" "server $ITERS $((ITERS * SIZE))"
ktap_eq "200 x 64 KiB: each end's remote QPN is the other's local QPN" \
	"$(jq_get "$cli" '"\(.local_qpn)/\(.remote_qpn)"')" \
	"$(jq_get "$srv" '"\(.remote_qpn)/\(.local_qpn)"')"
need=$((ITERS * ((SIZE + mtu - 1) / mtu)))
ktap_ge "200 x 64 KiB: rxa sent_pkts rose by at least $need (mtu $mtu)" \
	$((sent1 - sent0)) "$need"
ktap_ge "200 x 64 KiB: rxb rcvd_pkts rose by at least $need" $((rcvd1 - rcvd0)) "$need"
ktap_info "throughput: $(jq_get "$cli" .mb_per_s) MB/s over $(jq_get "$cli" .seconds) s;" \
	"rxa completer_retry_err +$((retr1 - retr0))"

# ---- 2. --rate 50 --duration 2 ---------------------------------------------

srv_start
cli=$(lab a "$BIN $SERVER --port $PORT --rate 50 --duration 2 --size 4096 --json" 2>"$tmp/2.err")
rc=$?
srv_wait 20
n=$(jq_get "$cli" .messages)
ktap_info "client: $cli"
if [[ $rc == 0 && $n =~ ^[0-9]+$ ]] && ((n >= 80 && n <= 120)); then
	ktap_pass "--rate 50 --duration 2: $n messages (100 +-20%), exit 0"
else
	ktap_fail "--rate 50 --duration 2: 80..120 messages, exit 0" "got '$n', exit $rc"
fi
ktap_eq "--rate 50 --duration 2: the server counted as many" \
	"$(jq_get "$srv" .messages)" "$n"

# ---- 3. --cgroup -----------------------------------------------------------

lab a "rmdir $CG 2>/dev/null; true"
if ! lab a "grep -qw rdma /sys/fs/cgroup/cgroup.subtree_control"; then
	lab a "echo +rdma >/sys/fs/cgroup/cgroup.subtree_control" && rdma_ctl_added=1
fi
srv_start
lab a "rm -f /tmp/ft-cg.*; $BIN $SERVER --port $PORT --duration 120 --rate 20 \
	--size 4096 --cgroup $CG --json >/tmp/ft-cg.json 2>/tmp/ft-cg.err &
	echo \$! >/tmp/ft-cg.pid; wait \$!; echo \$? >/tmp/ft-cg.rc" >/dev/null 2>&1 &
cg_job=$!
wait_for 20 lab_test a -s /tmp/ft-cg.pid
pid=$(lab_read a /tmp/ft-cg.pid)
in_cgroup() { lab a "grep -qx '$pid' $CG/cgroup.procs"; }
charged() { [[ $(lab_read a $CG/rdma.current) =~ rxa\ hca_handle=1\ hca_object=([4-9]|[1-9][0-9]) ]]; }
wait_for 20 in_cgroup
ktap_check "--cgroup: pid $pid is in $CG/cgroup.procs while it runs" in_cgroup
ktap_eq "--cgroup: /proc/$pid/cgroup names the job" \
	"$(lab_read a /proc/"$pid"/cgroup)" "0::/${CG#/sys/fs/cgroup/}"
wait_for 10 charged
ktap_check "--cgroup: the rdma controller charges its verbs objects to the job" charged
ktap_info "rdma.current: $(lab_read a $CG/rdma.current)"
# SIGTERM ends the run: stop posting, drain, disconnect, summary, exit 0
lab a "kill -TERM $pid"
wait_for 30 job_done "$cg_job"
wait "$cg_job"
srv_wait 20
cli=$(lab_read a /tmp/ft-cg.json)
ktap_info "client: $cli"
ktap_eq "--cgroup, SIGTERM: exit 0, stop=signal, all posted WRITEs done, pid and cgroup reported" \
	"$(lab_read a /tmp/ft-cg.rc) $(jq_get "$cli" '"\(.stop) \(.posted == .messages) \(.pid) \(.cgroup)"')" \
	"0 signal true $pid $CG"

# ---- 4. retry exceeded while the peer's link is down ----------------------

exc0=$(rxe_counter a retry_exceeded_err)
retr0=$(rxe_counter a completer_retry_err)
trace_start a rxe4 "-p rxe" >/dev/null
rcvd0=$(rxe_counter b rcvd_pkts)
srv_start
lab a "$BIN $SERVER --port $PORT --retry-cnt 1 --timeout $TIMEOUT --duration 30 \
	--size 1024 --rate 100 --json" >"$tmp/4.json" 2>"$tmp/4.err" &
cli_job=$!
flowing() { (($(rxe_counter b rcvd_pkts) >= rcvd0 + 50)); }
wait_for 30 flowing
alive_at_flap=$(job_done "$cli_job" && echo exited || echo running)
t0=$(date +%s%N)
"$FABLAB" flap b --down-ms $DOWN_MS >"$tmp/flap.log" 2>&1 &
flap_job=$!
reported() { grep -q '"wc_status"' "$tmp/4.json"; }
wait_for 30 reported
t1=$(date +%s%N)
wait_for 30 job_done "$cli_job"
wait "$cli_job"
rc=$?
wait "$flap_job"
srv_wait 30
trace_stop a rxe4
cli=$(cat "$tmp/4.json")
exc1=$(rxe_counter a retry_exceeded_err)
retr1=$(rxe_counter a completer_retry_err)
ktap_info "client: $cli"
ktap_info "server: $srv"

ktap_eq "retry exceeded: client exits 1 (the traffic failed), and was still running when the flap began" \
	"$rc $alive_at_flap" "1 running"
ktap_eq "retry exceeded: status 12 ($(jq_get "$cli" .wc_status_str)) on the client's own QPN" \
	"$(jq_get "$cli" '"\(.wc_status) \(.wc_qpn == .local_qpn)"')" "12 true"
ktap_eq "retry exceeded: rxa retry_exceeded_err +1 (one QP)" $((exc1 - exc0)) 1
qpn=$(jq_get "$cli" .local_qpn)
bpf=$(lab a "jq -c 'select(.kind == \"retry_exceeded\") | .qpn' /tmp/rxe4.json | xargs")
ktap_eq "retry exceeded: the rxe BPF program saw it once, on that QP (rxe counter +$((exc1 - exc0)))" \
	"$bpf" "$qpn"
ktap_eq "retry exceeded: the QP had retry_cnt 1, timeout $TIMEOUT (ibv_query_qp)" \
	"$(jq_get "$cli" '"\(.qp.retry_cnt) \(.qp.timeout)"')" "1 $TIMEOUT"
age=$(jq_get "$cli" .wr_age_seconds)
host_ms=$(((t1 - t0) / 1000000))
if awk -v a="$age" -v d=$DOWN_MS 'BEGIN { exit !(a > 0 && a * 1000 < d) }' &&
	((host_ms < DOWN_MS)); then
	ktap_pass "retry exceeded: noticed while the link was down (${age} s after posting, ${host_ms} ms after flap start seen from the host)"
else
	ktap_fail "retry exceeded: noticed while the link was down" \
		"wr_age_seconds '$age', host-side ${host_ms} ms, down ${DOWN_MS} ms"
fi
ktap_info "rxa completer_retry_err +$((retr1 - retr0)); expected (retry_cnt+1) x timeout =" \
	"$(awk -v t=$TIMEOUT 'BEGIN { printf "%.0f", 2 * 4.096e-3 * 2^t }') ms"

# For the record, not a check: the same client with --timeout 10 and no
# fault at all.  On the TCG guests it usually fails with status 12 at once.
srv_start
out=$(lab a "$BIN $SERVER --port $PORT --retry-cnt 1 --timeout 10 --duration 5 \
	--size 1024 --rate 100 --json" 2>/dev/null)
rc=$?
srv_wait 20
ktap_info "no fault, --retry-cnt 1 --timeout 10: exit $rc, $(jq_get "$out" \
	'"\(.messages) messages, stop \(.stop), wc_status \(.wc_status // "-"), wr_age \(.wr_age_seconds // "-") s"')"

# ---- 5. bad options --------------------------------------------------------

bad_option() { # status name args...: exit STATUS and a message naming NAME
	local want=$1 name=$2 out rc
	shift 2
	out=$(lab a "$BIN $* 2>&1")
	rc=$?
	echo "exit $rc: $out"
	[[ $rc == "$want" && $out == *"$name"* ]]
}
ktap_check "--retry-cnt 9: exit 2 (usage), message names --retry-cnt" \
	bad_option 2 --retry-cnt $SERVER --retry-cnt 9
ktap_check "--size 0: exit 2 (usage), message names --size" bad_option 2 --size $SERVER --size 0
ktap_check "unknown option --bogus: exit 2 (usage), message names it" bad_option 2 --bogus $SERVER --bogus
ktap_check "--cgroup outside cgroup2: exit 1 (setup failed), message names --cgroup" \
	bad_option 1 --cgroup $SERVER --cgroup /tmp/not-a-cgroup

ktap_end
