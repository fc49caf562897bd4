#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_probes.sh - fabteld's RDMA prober between the two guests (Soft-RoCE),
# each fabteld reading the other's endpoint document over eth0:
#
#  - each port's UD QP is the one RDMA netlink lists for fabteld, its GID
#    the one the rxe GID table holds; probes flow both ways, none lost;
#  - netem loss 5% on a's RoCE frames (fablab impair --roce: the endpoint
#    fetches over the same link stay out of it): both pairs lose probes, and
#    the timeouts of the two pairs add up to the drops netem itself counts (tc -s qdisc);
#    path_loss on the ports; clearing it, no timeout for 3 s within 10 s;
#  - netem delay 5 ms: the RTT of both pairs (the window's minimum: TCG) rises
#    by 5 ms;
#  - a 2 s carrier flap of a: a's prober stops and starts again (new QP),
#    b's probes time out meanwhile, both pairs answer again within 10 s;
#  - bad input: malformed, short and spoofed datagrams at a's QP are counted
#    by reason, requests past probe_reply_rate are refused and counted, bad
#    endpoint documents and peers-file lines are counted, fabteld lives;
#  - a second link (eth1, rxa1 <-> rxb1): with 30% loss on it, a real
#    Prometheus with deploy/prometheus/rules.yml names rxa1 and rxb1 as
#    culprit ports, never rxa or rxb; a peer whose fabteld is gone ages out.
. "$(dirname "$0")/lib.sh"

INJECT=$REPO/build/probe-inject
PROM_PORT=${PROM_PORT:-19091}
suite_begin
STOPLOG=$SUITE_DIR/stop.log	# what a fabteld slow to stop was doing

ktap_begin 51

# the fabtelds and Prometheus stop at exit (lib.sh, suite_cleanup); then this
cleanup() {
	for h in a b; do
		# what else this test started, stopped by pid (tmux: its own server)
		lab $h "tmux -L probes kill-server; kill \$(cat /tmp/probes-*.pid); rm -f /tmp/probes-*.pid
			rmdir /sys/fs/cgroup/job_8800; rm -f ${FABLAB_DIR:-$REPO/.lab}/qf-?.json*; rm -f /tmp/bad-doc.sh /tmp/big-doc.sh /tmp/ghost-doc.sh /tmp/ghost.json /tmp/impostor-doc.sh /tmp/impostor.json; tc filter del dev eth0 ingress prio 2; ip addr del 10.77.0.98/24 dev eth0; tc qdisc del dev eth0 root; tc filter del dev eth0 egress prio 1;
			tc qdisc del dev eth1 root; rdma link del rx${h}1; rm -f /tmp/probe-peers" >/dev/null 2>&1
	done
	# the next suite starts with no QP left over (an rxe QP's teardown can take 50 s)
	rdma_quiet a; rdma_quiet b
}
suite_on_exit cleanup

PA=$("$FABLAB" port a)
PB=$("$FABLAB" port b)
# The lab's RTT under TCG is milliseconds, tens at times: path_latency from 300 ms.
start_fabteld() { # HOST PEER-IP [SETTINGS...]
	local h=$1 peer=$2
	shift 2
	stop_fabteld "$h"
	fabteld_start "$h" probes-fabteld -b off --listen 0.0.0.0:9465 \
		--set "host_name=fablab-$h" --set "probe_peer=$peer:9465" --set probe_rate=20 \
		--set probe_rtt_us=300000 --set probe_refresh_s=3 --set probe_peer_ttl_s=15 \
		--set probe_reply_rate=200 "$@"
}
# Gone: no such process, or a zombie (State Z with one thread: every thread
# has exited and released its files; reaping it is the guest's PID 1's
# business, which CI saw take over 5 s on a slow machine).  fabteld itself
# ends within STOP_GRACE_MS (1.7 s) of SIGTERM; what follows is the
# kernel's exit, which closes the prober's verbs objects (rxe QPs, CQs)
# under TCG: CI on 2026-11-27 saw one stop end just past 5 s (the process
# gone while its state was being printed).  The bound is 10 s, and each
# stop's time is printed.
stop_fabteld() { # HOST: the fabteld this test started there, gone (its port free)
	fabteld_stop "$1" probes-fabteld >"$STOPLOG"
	[[ -s $STOPLOG ]] && sed 's/^/# /' "$STOPLOG"
	grep -qv '^stop: ' "$STOPLOG" && slow_stops=$((slow_stops + 1))
	return 0
}
slow_stops=0
probes() { api "$1" /api/v1/probes | jq -r "$2"; }	# HOST-PORT JQ
# one pair's field on a host: its first port's peer on DEVICE
pair() { probes "$1" ".ports[] | select(.device == \"$2\") | .peers[0].$3 // empty"; }
netem_dropped() { lab a "tc -s qdisc show dev eth0" | awk '/qdisc netem/ { f = 1 } f && /dropped/ { sub(",", "", $7); print $7; exit }'; }

start_fabteld a 10.77.0.2
start_fabteld b 10.77.0.1
ktap_check "fabteld on a and b serve /api/v1/probe/endpoints" \
	wait_for 30 bash -c "curl -sf http://127.0.0.1:$PA/api/v1/probe/endpoints && curl -sf http://127.0.0.1:$PB/api/v1/probe/endpoints"
ktap_check "each prober found the other host's rx port as its one peer" \
	wait_for 30 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq -r '.ports[] | select(.device == \"rxa\") | .peers[0] | \"\\(.host)/\\(.device)\"') == fablab-b/rxb &&
		\$(curl -sf http://127.0.0.1:$PB/api/v1/probes | jq -r '.ports[] | select(.device == \"rxb\") | .peers[0] | \"\\(.host)/\\(.device)\"') == fablab-a/rxa ]]"

# ---- what the endpoint says = what the kernel says ---------------------------------
qpn=$(probes "$PA" '.ports[] | select(.device == "rxa") | .qpn')
gid=$(probes "$PA" '.ports[] | select(.device == "rxa") | .gid')
ktap_check "a's probe QP $qpn is a UD QP of fabteld in RDMA netlink (rdma res show qp)" \
	lab a "rdma res show qp link rxa/1 lqpn $qpn | grep -q 'type UD.*comm fabteld'"
ktap_check "a's probe GID $gid is in rxa's GID table as RoCE v2" \
	lab a "for i in /sys/class/infiniband/rxa/ports/1/gids/*; do n=\${i##*/};
		[[ \$(cat \$i) == \$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \$(echo ${gid#::ffff:} | tr . ' ')) &&
		   \$(cat /sys/class/infiniband/rxa/ports/1/gid_attrs/types/\$n) == 'RoCE v2' ]] && exit 0; done; exit 1"
ktap_check "b's document names a's peer QP as b's prober sees it" \
	bash -c "[[ \$(curl -sf http://127.0.0.1:$PB/api/v1/probes | jq -r '.ports[0].peers[0].qpn') == $qpn ]]"
# Probes flow both ways, none lost: once both pairs have replies, 50 more
# on each with no new timeout.  Not from the first probe: one sent while
# the path was still being set up (the peer's neighbour entry, under TCG)
# can be lost, and was once (CI 2026-11-26, no netem yet).
flow() { echo "$(pair "$PA" rxa replies) $(pair "$PA" rxa timeouts) $(pair "$PB" rxb replies) $(pair "$PB" rxb timeouts)"; }
wait_for 20 bash -c "(( \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq '.ports[] | select(.device==\"rxa\") | .peers[0].replies') > 0 &&
	\$(curl -sf http://127.0.0.1:$PB/api/v1/probes | jq '.ports[] | select(.device==\"rxb\") | .peers[0].replies') > 0 ))"
read -r ra0 ta0 rb0 tb0 <<<"$(flow)"
wait_for 20 bash -c "(( \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq '.ports[] | select(.device==\"rxa\") | .peers[0].replies') >= ${ra0:-0} + 50 &&
	\$(curl -sf http://127.0.0.1:$PB/api/v1/probes | jq '.ports[] | select(.device==\"rxb\") | .peers[0].replies') >= ${rb0:-0} + 50 ))"
read -r ra1 ta1 rb1 tb1 <<<"$(flow)"
ktap_info "replies/timeouts a->b ${ra0:-}/${ta0:-} then ${ra1:-}/${ta1:-}, b->a ${rb0:-}/${tb0:-} then ${rb1:-}/${tb1:-}"
ktap_check "probes flow both ways: 50 more replies on both pairs, no new timeout" \
	bash -c "(( ${ra1:-0} >= ${ra0:-0} + 50 && ${rb1:-0} >= ${rb0:-0} + 50 && ${ta1:--1} == ${ta0:--2} && ${tb1:--1} == ${tb0:--2} ))"
ktap_check "/metrics: fabtel_probe_port_up 1 and 1 of 1 peers reachable, none unresolved on a" \
	bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/metrics | grep -E '^fabtel_probe_(port_up|peers)\\{host=\"fablab-a\",device=\"rxa\"' | awk '{print \$2}' | tr '\n' ' ') == '1 1 1 0 ' ]]"
ktap_check "promtool check metrics finds nothing to say about the probe families" \
	bash -c "! curl -sf http://127.0.0.1:$PA/metrics | promtool check metrics 2>&1 | grep fabtel_probe"

# ---- loss, checked against netem's own drop counter ----------------------------------
"$FABLAB" impair a --roce loss 5% >/dev/null
sleep 1
d0=$(netem_dropped)
ta0=$(pair "$PA" rxa timeouts); tb0=$(pair "$PB" rxb timeouts)
sa0=$(pair "$PA" rxa sent); sb0=$(pair "$PB" rxb sent)
ktap_check "loss shows on a's pair within 10 s (fabtel_probe_loss_ratio > 0)" \
	wait_for 10 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq '.ports[] | select(.device==\"rxa\") | .peers[0].loss > 0') == true ]]"
sleep 20
# a probe still in flight when counters are read is not yet a timeout: let them end
lab a "tc qdisc change dev eth0 parent 1:3 handle 30: netem loss 0%" >/dev/null
sleep 1
d1=$(netem_dropped)
ta1=$(pair "$PA" rxa timeouts); tb1=$(pair "$PB" rxb timeouts)
sa1=$(pair "$PA" rxa sent); sb1=$(pair "$PB" rxb sent)
lost=$(((ta1 - ta0) + (tb1 - tb0)))
ktap_info "netem dropped $((d1 - d0)); timeouts a->b $((ta1 - ta0)) of $((sa1 - sa0)), b->a $((tb1 - tb0)) of $((sb1 - sb0))"
tol=$(( (d1 - d0) / 10 > 3 ? (d1 - d0) / 10 : 3 ))
ktap_check "the two pairs' timeouts add up to the drops of netem (on a's RoCE frames), +-$tol" \
	bash -c "(( $lost >= $((d1 - d0 - tol)) && $lost <= $((d1 - d0 + tol)) ))"
ktap_check "each pair lost 1..12% of its probes (netem: 5%)" \
	bash -c "(( 100 * ($ta1 - $ta0) >= ($sa1 - $sa0) && 100 * ($ta1 - $ta0) <= 12 * ($sa1 - $sa0) &&
		100 * ($tb1 - $tb0) >= ($sb1 - $sb0) && 100 * ($tb1 - $tb0) <= 12 * ($sb1 - $sb0) ))"
lab a "tc qdisc del dev eth0 root" >/dev/null
no_new_timeouts() { # HOST-PORT DEVICE: 3 s without a timeout on its pair
	local t0
	t0=$(pair "$1" "$2" timeouts)
	sleep 3
	[[ $(pair "$1" "$2" timeouts) == "$t0" ]]
}
ktap_check "loss cleared: 3 s without a timeout on both pairs, within 10 s" \
	wait_for 10 bash -c "$(declare -f api probes pair no_new_timeouts); no_new_timeouts $PA rxa && no_new_timeouts $PB rxb"

# ---- delay -----------------------------------------------------------------------
# Under TCG a guest's transmit can wait in QEMU for tens of ms when it leaves
# from the sending thread (bpftrace at rxe_xmit_packet: the frame leaves the
# guest's rxe at once), not when netem's timer sends it: the baseline is
# taken through netem too, with no delay, and the window's minimum RTT is
# compared, the path's own.
lab a "tc qdisc replace dev eth0 root netem delay 0ms" >/dev/null
sleep 11	# one probe_window_s through netem
base_rtt_a=$(pair "$PA" rxa rtt_min_us)
base_rtt_b=$(pair "$PB" rxb rtt_min_us)
ktap_info "RTT (window minimum) through netem, no delay: a->b ${base_rtt_a} us, b->a ${base_rtt_b} us; medians $(pair "$PA" rxa rtt_p50_us), $(pair "$PB" rxb rtt_p50_us) us"
lab a "tc qdisc replace dev eth0 root netem delay 5ms" >/dev/null
sleep 11	# one probe_window_s of delayed probes
rtt_a=$(pair "$PA" rxa rtt_min_us)
rtt_b=$(pair "$PB" rxb rtt_min_us)
lab a "tc qdisc del dev eth0 root" >/dev/null
ktap_info "RTT (window minimum) with 5 ms delay: a->b ${rtt_a} us, b->a ${rtt_b} us"
ktap_check "delay 5ms: a->b's RTT rose by 5 ms (3.5..8 ms)" \
	awk -v b="$base_rtt_a" -v d="$rtt_a" 'BEGIN { exit !(d - b >= 3500 && d - b <= 8000) }'
ktap_check "delay 5ms: b->a's RTT rose by 5 ms (3.5..8 ms)" \
	awk -v b="$base_rtt_b" -v d="$rtt_b" 'BEGIN { exit !(d - b >= 3500 && d - b <= 8000) }'

# ---- a 2 s flap of a's carrier ---------------------------------------------------------
restarts() { metric "$PA" "fabtel_probe_restarts_total{host=\"fablab-a\",device=\"rxa\",port=\"1\"}"; }
r0=$(restarts)
tb0=$(pair "$PB" rxb timeouts)
"$FABLAB" flap a --down-ms 2000 >/dev/null 2>&1
ktap_check "during the flap b's probes to a time out (a gap)" \
	bash -c "(( \$(curl -sf http://127.0.0.1:$PB/api/v1/probes | jq '.ports[0].peers[0].timeouts') >= $tb0 + 5 ))"
ktap_check "a's prober stopped with the port and started again (a new QP)" \
	wait_for 15 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/metrics | awk '\$1 == \"fabtel_probe_restarts_total{host=\\\"fablab-a\\\",device=\\\"rxa\\\",port=\\\"1\\\"}\" { print \$2 }') == $((r0 + 1)) ]]"
ktap_check "after the flap both pairs answer again within 10 s" \
	wait_for 12 bash -c "$(declare -f api probes pair no_new_timeouts); no_new_timeouts $PA rxa && no_new_timeouts $PB rxb"

# ---- receive completions in error (the test build) -----------------------------------
# fabteld-faults turns receive completions into errors: after 100 good
# ones, 200 on every other completion (each buffer must be posted again,
# or after 128 the QP hears nothing), then 40 in a row (the QP made again
# after PROBE_RX_ERR_REOPEN, 32).
reopens() { metric "$PA" "fabtel_probe_qp_reopens_total{host=\"fablab-a\",device=\"rxa\",port=\"1\",reason=\"$1\"}"; }
FABTELD="FABTEL_PROBE_FAULT_SKIP=100 FABTEL_PROBE_FAULT_ALT=200 FABTEL_PROBE_FAULT_RUN=40 $REPO/build/fabteld-faults" \
	start_fabteld a 10.77.0.2
ktap_check "fabteld-faults on a: 240 receive completions in error, counted (dropped{reason=completion_error})" \
	wait_for 60 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/metrics | awk '\$1 ~ /^fabtel_probe_dropped_total.*rxa.*completion_error/ { print \$2 }') == 240 ]]"
rx0=$(metric "$PA" "fabtel_probe_received_total{host=\"fablab-a\",device=\"rxa\",port=\"1\"}")
ktap_info "after the faults: received ${rx0:-?}, reopens qp_error $(reopens qp_error), receive_errors $(reopens receive_errors)"
ktap_check "200 errors on every other completion reopened nothing; the 40 in a row reopened the QP once" \
	bash -c "[[ '$(reopens receive_errors) $(reopens qp_error)' == '1 0' ]]"
ktap_check "... and the port receives again (fabtel_probe_received_total +100 within 20 s)" \
	wait_for 20 bash -c "(( \$(curl -sf http://127.0.0.1:$PA/metrics | awk '\$1 == \"fabtel_probe_received_total{host=\\\"fablab-a\\\",device=\\\"rxa\\\",port=\\\"1\\\"}\" { print \$2 }') >= ${rx0:-0} + 100 ))"
ktap_check "... and both pairs answer again: 3 s without a timeout, within 20 s" \
	wait_for 20 bash -c "$(declare -f api probes pair no_new_timeouts); no_new_timeouts $PA rxa && no_new_timeouts $PB rxb"

# ---- bad input ---------------------------------------------------------------------
qpn=$(probes "$PA" '.ports[] | select(.device == "rxa") | .qpn')
dropped() { metric "$PA" "fabtel_probe_dropped_total{host=\"fablab-a\",device=\"rxa\",port=\"1\",reason=\"$1\"}"; }
m0=$(dropped malformed); u0=$(dropped unknown_peer); rl0=$(dropped rate_limited); rs0=$(dropped rate_limited_source)
lab b "$INJECT -d rxb -g ::ffff:10.77.0.1 -q $qpn -n 40 malformed && $INJECT -d rxb -g ::ffff:10.77.0.1 -q $qpn -n 40 short &&
	$INJECT -d rxb -g ::ffff:10.77.0.1 -q $qpn -n 40 reply" >/dev/null
ktap_check "40 malformed + 40 short datagrams: dropped{reason=malformed} +80" \
	wait_for 5 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/metrics | awk '\$1 ~ /^fabtel_probe_dropped_total.*rxa.*malformed/ { print \$2 }') == $((m0 + 80)) ]]"
ktap_check "40 replies from a QP that is no peer: dropped{reason=unknown_peer} +40" \
	wait_for 5 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/metrics | awk '\$1 ~ /^fabtel_probe_dropped_total.*rxa.*unknown_peer/ { print \$2 }') == $((u0 + 40)) ]]"
answered() { metric "$PA" "fabtel_probe_answered_total{host=\"fablab-a\",device=\"rxa\",port=\"1\"}"; }
an0=$(answered)
t0=$SECONDS
lab b "$INJECT -d rxb -g ::ffff:10.77.0.1 -q $qpn -n 2000 request" >/dev/null
sleep 1
t=$((SECONDS - t0 + 1))
rl=$(($(dropped rate_limited) - rl0)); rs=$(($(dropped rate_limited_source) - rs0)); an=$(($(answered) - an0))
ktap_info "2,000 requests in about $t s: $an answered, $rs refused for their address, $rl for the port (rxe drops what finds no receive buffer)"
# b's own prober asks 20 a second too, from the same address: at most
# probe_reply_rate_source (100/s, a burst of 100) answered to it
ktap_check "a flood of requests from one address: refusals counted (rate_limited_source), at most 100/s answered" \
	bash -c "(( $rs > 0 && $an <= 100 + 110 * $t ))"
# bad endpoint documents from the peers file: not JSON, too large; a bad line
lab a "printf 'read l\nprintf \"HTTP/1.0 200 OK\\\\r\\\\n\\\\r\\\\n{\\\\\"fabtel_probe\\\\\": 1, [\"\nsleep 0.3\n' >/tmp/bad-doc.sh;
	printf 'read l\nprintf \"HTTP/1.0 200 OK\\\\r\\\\n\\\\r\\\\n\"\nhead -c 100000 /dev/zero | tr \"\\\\\\\\0\" \" \"\nsleep 0.3\n' >/tmp/big-doc.sh;
	socat TCP-LISTEN:9471,fork,reuseaddr EXEC:'sh /tmp/bad-doc.sh' >/dev/null 2>&1 & echo \$! >/tmp/probes-socat1.pid;
	socat TCP-LISTEN:9472,fork,reuseaddr EXEC:'sh /tmp/big-doc.sh' >/dev/null 2>&1 & echo \$! >/tmp/probes-socat2.pid;
	printf '# peers\n127.0.0.1:9471\n127.0.0.1:9472\nnot an address\n' >/tmp/probe-peers" >/dev/null
# the probes' ToS on the wire: a tc u32 filter on a's eth0 egress counts
# RoCE v2 frames whose IP ToS byte is 106 (DSCP 26, ECT(0)), probe_tos's value
lab a "tc qdisc show dev eth0 | grep -q clsact || tc qdisc add dev eth0 clsact;
	tc filter add dev eth0 egress protocol ip prio 1 u32 \
	match ip tos 0x6a 0xff match ip protocol 17 0xff match ip dport 4791 0xffff action pass" >/dev/null
start_fabteld a 10.77.0.2 --set probe_peers_file=/tmp/probe-peers --set probe_tos=rxa/1=106
ktap_check "probe_tos rxa/1=106: the matrix says traffic class 106, and a's RoCE frames carry ToS 106 (tc u32 on eth0)" \
	wait_for 20 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq '.ports[] | select(.device==\"rxa\") | .traffic_class') == 106 ]] &&
		(( \$(\"$FABLAB\" run a -- 'tc -s filter show dev eth0 egress prio 1' | awk '/Sent .* pkt/ { print \$4; exit }') >= 20 ))"
lab a "tc filter del dev eth0 egress prio 1" >/dev/null
ktap_check "a bad endpoint document and a too large one are counted (bad_document, too_large)" \
	wait_for 20 bash -c "m=\$(curl -sf http://127.0.0.1:$PA/metrics);
		grep -q '^fabtel_probe_endpoint_errors_total{reason=\"bad_document\"} [1-9]' <<<\"\$m\" &&
		grep -q '^fabtel_probe_endpoint_errors_total{reason=\"too_large\"} [1-9]' <<<\"\$m\""
ktap_check "the peers file's bad line is counted, its good lines are sources (3 in all)" \
	bash -c "m=\$(curl -sf http://127.0.0.1:$PA/metrics); grep -q '^fabtel_probe_peers_file_errors_total [1-9]' <<<\"\$m\" &&
		grep -q '^fabtel_probe_sources 3$' <<<\"\$m\""
ktap_check "fabteld on a is alive and still probes b" \
	wait_for 15 bash -c "(( \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq '.ports[] | select(.device==\"rxa\") | .peers[0].replies') > 20 ))"

# ---- an address nobody answers; an impostor ----------------------------------------
# A peer document naming 10.77.0.99 (on the subnet, no host there: the
# address handle waits for an ARP answer that never comes), and requests
# at 1/s spoofed from 10.77.0.98 (an address b adds and whose ARP requests
# it drops).  Neither may stall the daemon, cost the healthy pair a probe,
# or show as loss: the ghost pair is "unresolved", the requests are
# dropped as such.  Beside them an impostor: a document served on a that
# claims b's port (fablab-b/rxb/1) with another GID and QPN; b's own
# document (probe_peer, the first source) keeps it, the claim is a
# counted conflict, and a's probes still reach b.
lab a "printf '{\"fabtel_probe\": 1, \"host\": \"ghost\", \"endpoints\": [{\"device\": \"rxg\", \"port\": 1, \"netdev\": \"eth0\", \"gid\": \"::ffff:10.77.0.99\", \"qpn\": 1234, \"qkey\": 262827537}]}' >/tmp/ghost.json
	printf 'read l\nprintf \"HTTP/1.0 200 OK\\\\r\\\\n\\\\r\\\\n\"\ncat /tmp/ghost.json\nsleep 0.3\n' >/tmp/ghost-doc.sh
	socat TCP-LISTEN:9473,fork,reuseaddr EXEC:'sh /tmp/ghost-doc.sh' >/dev/null 2>&1 & echo \$! >/tmp/probes-socat3.pid
	sed -e 's/ghost/fablab-b/; s/rxg/rxb/; s/10.77.0.99/10.77.0.96/; s/1234/4321/' /tmp/ghost.json >/tmp/impostor.json
	sed -e 's/ghost.json/impostor.json/' /tmp/ghost-doc.sh >/tmp/impostor-doc.sh
	socat TCP-LISTEN:9474,fork,reuseaddr EXEC:'sh /tmp/impostor-doc.sh' >/dev/null 2>&1 & echo \$! >/tmp/probes-socat4.pid
	printf '127.0.0.1:9473\n127.0.0.1:9474\n' >>/tmp/probe-peers" >/dev/null
lab b "ip addr add 10.77.0.98/24 dev eth0; tc qdisc show dev eth0 | grep -q clsact || tc qdisc add dev eth0 clsact
	tc filter add dev eth0 ingress prio 2 protocol arp u32 match u32 0x0a4d0062 0xffffffff at 24 action drop" >/dev/null
ghost() { probes "$PA" ".ports[] | select(.device == \"rxa\") | .peers[] | select(.host == \"ghost\") | .$1"; }
ktap_check "the ghost's pair is unresolved (ETIMEDOUT), fabtel_probe_peers{state=unresolved} 1, condition probe_unresolved" \
	wait_for 30 bash -c "$(declare -f api probes ghost); PA=$PA
		[[ \$(ghost address) == unresolved && \$(ghost sent) == 0 ]] &&
		curl -sf http://127.0.0.1:$PA/metrics | grep -q '^fabtel_probe_peers{host=\"fablab-a\",device=\"rxa\",port=\"1\",state=\"unresolved\"} 1$' &&
		[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/snapshot | jq -r '.ports[] | select(.device==\"rxa\") | .conditions | index(\"probe_unresolved\") != null') == true ]]"
ktap_info "ghost: $(probes "$PA" '.ports[] | select(.device == "rxa") | .peers[] | select(.host == "ghost") | {address, address_error, unresolved, sent}' | jq -c .)"
ktap_check "the impostor's claim on fablab-b/rxb/1 is a conflict: counted once, contested 1, its source says so" \
	wait_for 15 bash -c "m=\$(curl -sf http://127.0.0.1:$PA/metrics);
		grep -q '^fabtel_probe_endpoint_conflicts_total 1$' <<<\"\$m\" && grep -q '^fabtel_probe_endpoints_contested 1$' <<<\"\$m\" &&
		[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq -r '.sources[] | select(.address == \"127.0.0.1:9474\") | .conflicts') == 1 ]]"
ktap_check "... and a's pair to fablab-b/rxb/1 is still b's: its GID, its QP, from 10.77.0.2:9465" \
	bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq -r '[.ports[] | select(.device == \"rxa\") | .peers[] | select(.host == \"fablab-b\") | \"\\(.gid) \\(.qpn) \\(.source)\"] | join(\";\")') == \"::ffff:10.77.0.2 $(probes "$PB" '.ports[] | select(.device == "rxb") | .qpn') 10.77.0.2:9465\" ]]"
qpn=$(probes "$PA" '.ports[] | select(.device == "rxa") | .qpn')
bpair() { probes "$PA" ".ports[] | select(.device == \"rxa\") | .peers[] | select(.host == \"fablab-b\") | .$1"; }
ur0=$(dropped unresolved); bs0=$(bpair sent); bt0=$(bpair timeouts); gu0=$(ghost unresolved)
lab b "for i in \$(seq 22); do $INJECT -d rxb -g ::ffff:10.77.0.1 -s ::ffff:10.77.0.98 -q $qpn -n 1 request >/dev/null; sleep 1; done
	>/dev/null 2>&1 & echo \$! >/tmp/probes-spoof.pid" >/dev/null
slow=0 notready=0 worst=0
for i in $(seq 20); do
	for path in /metrics /api/v1/probes; do
		ms=$(curl -sf -o /dev/null --max-time 2 -w '%{time_total}' "http://127.0.0.1:$PA$path" | awk '{ printf "%d", $1 * 1000 }')
		((${ms:-9999} > worst)) && worst=${ms:-9999}
		((${ms:-9999} > 500)) && slow=$((slow + 1))
	done
	[[ $(curl -s -o /dev/null --max-time 2 -w '%{http_code}' "http://127.0.0.1:$PA/-/ready") == 200 ]] || notready=$((notready + 1))
	sleep 1
done
bs1=$(bpair sent); bt1=$(bpair timeouts); gu1=$(ghost unresolved)
ktap_info "20 s with the ghost and the spoofed requests: slowest answer ${worst} ms; a->b sent $((bs1 - bs0)), timeouts $((bt1 - bt0)); the ghost's turns passed $((gu1 - gu0)); dropped{unresolved} +$(($(dropped unresolved) - ur0))"
ktap_eq "20 of 20 scrapes of /metrics and /api/v1/probes answered within 0.5 s" "$slow" 0
ktap_eq "/-/ready stayed 200" "$notready" 0
# probe_rate 20 a second over 2 peers, the ghost's turns passed: 10/s each
ktap_check "the healthy pair: probes at its rate (>= 150 in 20 s), no timeout; the ghost's turns passed unsent (>= 150)" \
	bash -c "(( $bs1 - $bs0 >= 150 && $bt1 == $bt0 && ${gu1:-0} - ${gu0:-0} >= 150 ))"
ktap_check "the spoofed requests are dropped as unresolved (>= 15 of 20), none answered" \
	bash -c "(( $(dropped unresolved) - $ur0 >= 15 ))"
lab a "kill \$(cat /tmp/probes-socat3.pid /tmp/probes-socat4.pid); rm -f /tmp/probes-socat[34].pid; sed -i '/947[34]/d' /tmp/probe-peers" >/dev/null
lab b "kill \$(cat /tmp/probes-spoof.pid) 2>/dev/null; rm -f /tmp/probes-spoof.pid; tc filter del dev eth0 ingress prio 2; ip addr del 10.77.0.98/24 dev eth0" >/dev/null

# ---- two links: which port is the culprit, in a real Prometheus ------------------------------
lab a "rdma link add rxa1 type rxe netdev eth1" >/dev/null
lab b "rdma link add rxb1 type rxe netdev eth1" >/dev/null
ktap_check "the new ports pair by subnet: rxa1 <-> rxb1 only" \
	wait_for 30 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq -r '[.ports[] | \"\\(.device):\" + ([.peers[].device] | join(\",\"))] | sort | join(\" \")') == 'rxa1:rxb1 rxa:rxb' ]]"
suite_prom "$PROM_PORT" "127.0.0.1:$PA" "127.0.0.1:$PB"
ktap_check "Prometheus scrapes a and b" \
	wait_for 60 bash -c "[[ \$(curl -sf 'http://127.0.0.1:$PROM_PORT/api/v1/query?query=count(up==1)' | jq -r '.data.result[0].value[1]') == 2 ]]"
# a job (cgroup job_8800) with 4 RC QPs on rxa1 connected to rxb1 (qpfill),
# to see its verdict cite the probes
QF=$REPO/build/bench/qpfill
LABQ=${FABLAB_DIR:-$REPO/.lab}	# the lab folder, shared by the guests at the same path
lab a "rm -f /tmp/qpfill.*; mkdir -p /sys/fs/cgroup/job_8800; sh -c 'echo \$\$ >/sys/fs/cgroup/job_8800/cgroup.procs;
	exec $QF --dev rxa1 --hold 300 --me $LABQ/qf-a.json --peer $LABQ/qf-b.json 4' >/tmp/qpfill.log 2>&1 &
	echo \$! >/tmp/probes-qpfill.pid" >/dev/null
lab b "$QF --dev rxb1 --hold 300 --me $LABQ/qf-b.json --peer $LABQ/qf-a.json 4 >/tmp/qpfill.log 2>&1 &
	echo \$! >/tmp/probes-qpfill.pid" >/dev/null
lab a "tc qdisc replace dev eth1 root netem loss 30%" >/dev/null
ktap_check "30% loss on the second link: fabtel:probe_port_culprit names rxa1 on a and rxb1 on b" \
	wait_for 40 bash -c "[[ \$(curl -sf http://127.0.0.1:$PROM_PORT/api/v1/query --data-urlencode 'query=fabtel:probe_port_culprit' |
		jq -r '[.data.result[].metric | \"\\(.host)/\\(.device)\"] | sort | join(\" \")') == 'fablab-a/rxa1 fablab-b/rxb1' ]]"
ktap_check "... and never rxa or rxb (no culprit, no path trouble on the first link)" \
	bash -c "[[ \$(curl -sf http://127.0.0.1:$PROM_PORT/api/v1/query --data-urlencode 'query=count(fabtel:probe_port_culprit{device=~\"rxa|rxb\"}) or count(fabtel:probe_path_bad{device=~\"rxa|rxb\"})' | jq '.data.result | length') == 0 ]]"
# fabteld's conditions at one snapshot: rxa1 path_loss, rxa none.  rxa's
# verdict is its probes' loss over probe_window_s against 2 %: a guest
# starved by TCG under the qpfill's retransmissions can be late with a few
# replies, so it is given 15 s to be clean, and what it saw is printed.
own_view_ok() {
	local s
	s=$(curl -sf http://127.0.0.1:$PA/api/v1/snapshot) &&
	[[ $(jq -r '.ports[] | select(.device=="rxa1") | .conditions | index("path_loss") != null' <<<"$s") == true &&
	   $(jq -r '.ports[] | select(.device=="rxa") | .conditions | index("path_loss") == null' <<<"$s") == true ]]
}
own_view() {
	wait_for 15 own_view_ok && return 0
	curl -sf http://127.0.0.1:$PA/api/v1/snapshot |
		jq -c '.ports[] | select(.device | test("^rxa")) | {device, conditions}'
	curl -sf http://127.0.0.1:$PA/api/v1/probes | jq -c '.ports[] | {device, peers}'
	return 1
}
ktap_check "fabteld's own view: rxa1 has path_loss, rxa not" own_view
ktap_check "fabteld --once probes on a prints the matrix with rxa1's pair in TROUBLE" \
	bash -c "\"$FABLAB\" run a -- \"$FABTELD -b off --set host_name=fablab-a2 --set probe_peer=10.77.0.2:9465 --set probe_window_s=5 --listen 127.0.0.1:9466 --once probes\" |
		grep -E '^rxa1/1 +fablab-b/rxb1/1 .*TROUBLE$'"
ktap_check "job 8800 on rxa1: degraded, reason path_loss citing fablab-b/rxb1/1 as the evidence" \
	wait_for 15 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/jobs | jq -r '.jobs[] | select(.job_id == \"8800\") |
		\"\\(.verdict) \" + ([.reasons[] | select(.reason == \"path_loss\") | .detail] | join(\";\"))') == 'degraded '*'fablab-b/rxb1/1'* ]]"
ktap_check "fabtop --once (from this host) marks the pair rxa1 -> fablab-b/rxb1/1, not rxa's" \
	bash -c "o=\$($REPO/build/fabtop --once -w 160 -u http://127.0.0.1:$PA); grep -Eq '^ +fablab-b/rxb1/1 .*<< path or peer\$' <<<\"\$o\" &&
		grep -Eq '^ +fablab-b/rxb/1 ' <<<\"\$o\" && ! grep -Eq '^ +fablab-b/rxb/1 .*<<' <<<\"\$o\""
T="tmux -L probes -f /dev/null"
lab a "$T kill-server 2>/dev/null; TERM=xterm-256color $T new-session -d -c /tmp -x 160 -y 40 '$REPO/build/fabtop -d 1'; sleep 3; $T send-keys P" >/dev/null
ktap_check "P in fabtop shows the probe matrix with the pair in trouble" \
	wait_for 10 bash -c "\"$FABLAB\" run a -- \"$T capture-pane -p\" | grep -Eq '^ +fablab-b/rxb1/1 .*<< path or peer'"
lab a "$T send-keys Escape" >/dev/null
ktap_check "... and Esc goes back to the panes" \
	wait_for 10 bash -c "\"$FABLAB\" run a -- \"$T capture-pane -p\" | grep -q '^NIC '"
lab a "$T kill-server" >/dev/null
lab a "tc qdisc del dev eth1 root" >/dev/null

# ---- a peer that goes away ages out -------------------------------------------------------
stop_fabteld b
ktap_check "b's fabteld gone: a's pairs time out, then age out after probe_peer_ttl_s (15 s)" \
	wait_for 40 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq '[.ports[].peers[]] | length') == 0 ]]"
ktap_check "... and their series are gone from /metrics" \
	bash -c "! curl -sf http://127.0.0.1:$PA/metrics | grep -q '^fabtel_probe_sent_total'"
stop_fabteld a

# ---- HTTPS and basic auth on both hosts -------------------------------------------------
# Each fabteld serves over HTTPS with basic auth (one certificate naming
# both hosts' fabric addresses and 127.0.0.1, the port the host forwards),
# and reads its peer's document with the CA and a user of its own: probes
# flow, and loss under netem is measured as over plain HTTP.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$SUITE_DIR/key.pem" -out "$SUITE_DIR/cert.pem" -days 2 \
	-subj /CN=fablab -addext subjectAltName=IP:10.77.0.1,IP:10.77.0.2,IP:127.0.0.1 >/dev/null 2>&1
chmod 600 "$SUITE_DIR/key.pem"
chmod 644 "$SUITE_DIR/cert.pem"
printf 'probe pass\n' >"$SUITE_DIR/pw"
chmod 600 "$SUITE_DIR/pw"
# the user's hash in a config file: fabteld refuses one in its arguments
echo "basic_auth_user = $(htpasswd -nbB -C 10 prober 'probe pass')" >"$SUITE_DIR/auth.conf"
TLS="--config=$SUITE_DIR/auth.conf --set tls_cert_file=$SUITE_DIR/cert.pem --set tls_key_file=$SUITE_DIR/key.pem \
	--set probe_tls_ca_file=$SUITE_DIR/cert.pem --set probe_auth_user=prober --set probe_auth_password_file=$SUITE_DIR/pw"
start_fabteld a 10.77.0.2 "$TLS"
start_fabteld b 10.77.0.1 "$TLS"
sapi() { curl -sf --max-time 5 --cacert "$SUITE_DIR/cert.pem" -u 'prober:probe pass' "https://127.0.0.1:$1$2"; }
spair() { sapi "$1" /api/v1/probes | jq -r ".ports[] | select(.device == \"$2\") | .peers[] | select(.device | test(\"^rx[ab]$\")) | .$3"; }
ktap_check "with HTTPS and basic auth on both: plain HTTP refused, each prober fetched its peer's document and probes flow" \
	wait_for 40 bash -c "$(declare -f sapi spair); SUITE_DIR=$SUITE_DIR
		! curl -sf --max-time 5 http://127.0.0.1:$PA/metrics >/dev/null &&
		[[ \$(curl -s --max-time 5 --cacert $SUITE_DIR/cert.pem -o /dev/null -w '%{http_code}' https://127.0.0.1:$PA/metrics) == 401 ]] &&
		(( \$(spair $PA rxa replies) >= 20 && \$(spair $PB rxb replies) >= 20 ))"
# (b was not up yet at a's first fetch: a connect error then is no failure)
ktap_check "... each source's document fresh (taken within probe_refresh_s + 2 s) and its last fetch without error" \
	bash -c "$(declare -f sapi); SUITE_DIR=$SUITE_DIR
		for p in $PA $PB; do [[ \$(sapi \$p /api/v1/probes | jq -r '.sources[0] | (.error == null and .age_s <= 5)') == true ]] || exit 1; done"
"$FABLAB" impair a --roce loss 5% >/dev/null
sleep 1
d0=$(netem_dropped); ta0=$(spair "$PA" rxa timeouts); tb0=$(spair "$PB" rxb timeouts)
sleep 20
lab a "tc qdisc change dev eth0 parent 1:3 handle 30: netem loss 0%" >/dev/null
sleep 1
d1=$(netem_dropped); ta1=$(spair "$PA" rxa timeouts); tb1=$(spair "$PB" rxb timeouts)
lab a "tc qdisc del dev eth0 root" >/dev/null
lost=$(((ta1 - ta0) + (tb1 - tb0)))
tol=$(( (d1 - d0) / 10 > 3 ? (d1 - d0) / 10 : 3 ))
ktap_info "HTTPS: netem dropped $((d1 - d0)); timeouts a->b $((ta1 - ta0)), b->a $((tb1 - tb0))"
ktap_check "... netem 5% on a's RoCE frames: the two pairs' timeouts add up to netem's drops, +-$tol, as over HTTP" \
	bash -c "(( $lost >= $((d1 - d0 - tol)) && $lost <= $((d1 - d0 + tol)) && $d1 - $d0 > 0 ))"
stop_fabteld a
stop_fabteld b
ktap_eq "every fabteld this suite stopped was gone within 10 s of SIGTERM" "$slow_stops" 0

ktap_end
