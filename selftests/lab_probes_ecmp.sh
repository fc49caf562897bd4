#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_probes_ecmp.sh - the prober's flows (Documentation/probes.rst "Flows
# and ECMP") between the two guests (Soft-RoCE), probe_flows = 8:
#
#  - on rxe each flow is a UD QP of its own (flow_mode qp): the 8 QP numbers
#    a's /api/v1/probes gives are UD QPs of fabteld in RDMA netlink;
#  - each QP's UDP source port, computed with rxe's rule (rxe_qp.c: 0xc000 +
#    hash_32(qpn, 14)), is checked on the wire: a tc flower filter per port
#    on a's eth0 egress counts the RoCE frames of that port, every one of
#    the 8 counts frames and a last filter (any other port) counts none;
#  - a's RoCE frames whose source port is in a range that holds some flows
#    and not flow 0 (which also carries a's replies) are dropped (fablab
#    impair --sport, netem loss 100%): a's pair to b shows exactly those
#    flows losing (flows_losing, flow_loss, fabtel_probe_flows{state=
#    "losing"}), and the port's path_loss evidence says "N of 8 flows";
#  - all of a's RoCE frames dropped: 8 of 8;
#  - probe_flow_mode = label (mlx5's way) runs on rxe too: 8 flows answered
#    from one QP, and on the wire all from its one port (rxe takes no port
#    from a UD flow label, as its source says).
. "$(dirname "$0")/lib.sh"

K=8
suite_begin

ktap_begin 11

# the fabtelds stop at exit (lib.sh, suite_cleanup); then a's tc qdiscs go,
# and the next suite starts with no QP left over
cleanup() {
	for h in a b; do
		lab $h "tc qdisc del dev eth0 clsact; tc qdisc del dev eth0 root" >/dev/null 2>&1
	done
	rdma_quiet a; rdma_quiet b
}
suite_on_exit cleanup

PA=$("$FABLAB" port a)
PB=$("$FABLAB" port b)
prober_start() { # HOST PEER-IP [SETTINGS...]: the prober's fabteld, as ecmp-fabteld
	local h=$1 peer=$2
	shift 2
	fabteld_start "$h" ecmp-fabteld -b off --listen 0.0.0.0:9465 \
		--set "host_name=fablab-$h" --set "probe_peer=$peer:9465" --set probe_rate=20 \
		--set probe_flows=$K --set probe_rtt_us=300000 --set probe_refresh_s=3 \
		--set probe_peer_ttl_s=15 "$@"
}
probes() { api "$1" /api/v1/probes | jq -r "$2"; }	# HOST-PORT JQ
apair() { probes "$PA" ".ports[] | select(.device == \"rxa\") | .peers[0].$1 // empty"; }
# rxe's UDP source port of a QP: RXE_ROCE_V2_SPORT + (hash_32(qpn, 14) & 0x3fff)
sport_of() { echo $((0xc000 + (((($1 * 0x61C88647) & 0xffffffff) >> 18) & 0x3fff))); }

prober_start a 10.77.0.2
prober_start b 10.77.0.1
ktap_check "a's pair to fablab-b/rxb has $K flows, each answered" \
	wait_for 40 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq -r '.ports[] | select(.device == \"rxa\") | .peers[0] |
		\"\\(.host) \\(.flows) \\([.flow_loss[] | select(. != null)] | length)\"') == 'fablab-b $K $K' ]]"

# ---- each flow its own UD QP, its own UDP source port ---------------------------------
mode=$(probes "$PA" '.ports[] | select(.device == "rxa") | .flow_mode')
mapfile -t qpns < <(probes "$PA" '.ports[] | select(.device == "rxa") | .flow_qpns[]')
ktap_info "rxa: flow_mode $mode, flow QPs ${qpns[*]}"
qps_ok() {
	[[ $mode == qp && $(printf '%s\n' "${qpns[@]}" | sort -u | wc -l) == "$K" ]] || return 1
	for q in "${qpns[@]}"; do
		lab a "rdma res show qp link rxa/1 lqpn $q | grep -q 'type UD.*comm fabteld'" || return 1
	done
}
ktap_check "rxa (driver rxe) has flow_mode qp and $K distinct flow QPs, each a UD QP of fabteld (rdma res show qp)" qps_ok

sports=()
for q in "${qpns[@]}"; do sports+=("$(sport_of "$q")"); done
ktap_info "rxa's flows' UDP source ports (rxe's rule): ${sports[*]}"
# every frame a sends to UDP 4791 counted by its source port: one filter a flow, one for the rest
filters="tc qdisc add dev eth0 clsact"
for i in "${!sports[@]}"; do
	filters+=" && tc filter add dev eth0 egress prio $((i + 1)) protocol ip flower ip_proto udp dst_port 4791 src_port ${sports[$i]} action pass"
done
filters+=" && tc filter add dev eth0 egress prio 99 protocol ip flower ip_proto udp dst_port 4791 action pass"
lab a "tc qdisc del dev eth0 clsact 2>/dev/null; $filters" >/dev/null
# prio -> packets
counts() { lab a "tc -s -j filter show dev eth0 egress" |
	jq -r '.[] | select(.options.actions) | "\(.pref) \(.options.actions[0].stats.packets)"'; }
pkts() { awk -v p="$2" '$1 == p { print $2 }' <<<"$1"; }	# COUNTS PRIO
counted() {
	local c i
	c=$(counts) || return 1
	for i in "${!sports[@]}"; do
		(($(pkts "$c" $((i + 1))) >= 3)) || return 1
	done
}
wait_for 20 counted
c=$(counts)
ktap_info "frames per filter (prio: packets): $(tr '\n' ' ' <<<"$c")"
wire_ok() {
	local i
	for i in "${!sports[@]}"; do
		(($(pkts "$c" $((i + 1))) >= 3)) || return 1
	done
	[[ $(pkts "$c" 99) == 0 ]]
}
ktap_check "on the wire: each flow's computed port carries a's frames, no frame leaves from another port" wire_ok
lab a "tc qdisc del dev eth0 clsact" >/dev/null

# ---- some flows dropped: a path ---------------------------------------------------------
# a contiguous range of the sorted ports that holds 3 flows and not flow 0's
mapfile -t sorted < <(printf '%s\n' "${sports[@]}" | sort -n)
for j in "${!sorted[@]}"; do [[ ${sorted[$j]} == "${sports[0]}" ]] && break; done
if ((j >= 3)); then lo=${sorted[0]} hi=${sorted[2]}; else lo=${sorted[$((j + 1))]} hi=${sorted[$((j + 3))]}; fi
want=()
for i in "${!sports[@]}"; do ((sports[i] >= lo && sports[i] <= hi)) && want+=("$i"); done
n=${#want[@]}
ktap_info "dropping a's RoCE frames from ports $lo-$hi: flows ${want[*]} ($n of $K)"
"$FABLAB" impair a --sport "$lo-$hi" loss 100% >/dev/null
# Once the window (10 s) has forgotten the probes before the drop: those
# flows lose every probe, the others none (under 2 %: TCG can be late).
split() { probes "$PA" '.ports[] | select(.device == "rxa") | .peers[0] |
	"\(.flows_losing) " + ([.flow_loss | to_entries[] | select(.value != null and .value >= 0.9) | .key | tostring] | join(" ")) +
	" / " + ([.flow_loss | to_entries[] | select(.value == null or (.value >= 0.02 and .value < 0.9)) | .key | tostring] | join(" "))'; }
split_ok() { [[ $(split) == "$n ${want[*]} / " ]]; }
ktap_check "a's pair shows exactly flows ${want[*]} losing (all their probes in the window), the others none: flows_losing $n" \
	wait_for 40 split_ok
ktap_info "a's pair: flows_losing $(apair flows_losing), flow_loss $(apair 'flow_loss | tostring'), loss $(apair loss)"
ktap_check "/metrics: fabtel_probe_flows{state=\"losing\"} $n and {state=\"total\"} $K on the pair" \
	bash -c "m=\$(curl -sf http://127.0.0.1:$PA/metrics | grep '^fabtel_probe_flows{host=\"fablab-a\",device=\"rxa\"');
		grep -q 'state=\"losing\"} $n\$' <<<\"\$m\" && grep -q 'state=\"total\"} $K\$' <<<\"\$m\""
evidence() { api "$PA" /api/v1/snapshot | jq -r '.ports[] | select(.device == "rxa") | .path_loss_evidence // empty'; }
ktap_check "rxa's path_loss evidence: $n of $K flows to fablab-b/rxb/1" \
	wait_for 10 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/snapshot | jq -r '.ports[] | select(.device == \"rxa\") | .path_loss_evidence // empty') == *'$n of $K flows to fablab-b/rxb/1 lose'* ]]"
ktap_info "evidence: $(evidence)"

# ---- every flow dropped: the peer or this port ------------------------------------------
"$FABLAB" impair a --roce loss 100% >/dev/null
ktap_check "all of a's RoCE frames dropped: flows_losing $K" \
	wait_for 30 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq -r '.ports[] | select(.device == \"rxa\") | .peers[0].flows_losing') == $K ]]"
ktap_check "rxa's path_loss evidence: $K of $K flows" \
	wait_for 10 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/snapshot | jq -r '.ports[] | select(.device == \"rxa\") | .path_loss_evidence // empty') == *'$K of $K flows to fablab-b/rxb/1 lose'* ]]"
ktap_info "evidence: $(evidence)"
ktap_check "fabtop --once marks the pair with $K/$K flows" \
	bash -c "$REPO/build/fabtop --once -w 160 -u http://127.0.0.1:$PA | grep -Eq 'fablab-b/rxb/1 .* $K/$K flows'"
"$FABLAB" impair a clear >/dev/null

# ---- label mode (mlx5's) on rxe: its code path, not its ports ---------------------------
# rxe takes no UDP port from a UD address handle's flow label, so here the
# 8 flows share flow 0's QP and port; what runs is the handle per (GID,
# label) and the pair's cycle over them.
fabteld_stop a ecmp-fabteld >/dev/null
prober_start a 10.77.0.2 --set probe_flow_mode=label
ktap_check "probe_flow_mode = label: a's pair has $K flows on one QP, each answered" \
	wait_for 40 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/probes | jq -r '.ports[] | select(.device == \"rxa\") |
		\"\\(.flow_mode) \\(.flow_qpns | unique | length) \\(.peers[0].flows) \\([.peers[0].flow_loss[] | select(. == 0)] | length)\"') == 'label 1 $K $K' ]]"
# what the kernel's source says (rxe_qp.c, rxe_net.c: a QP's port is fixed
# when it is made), on the wire: every RoCE frame from the QP's one port
q0=$(probes "$PA" '.ports[] | select(.device == "rxa") | .qpn')
p0=$(sport_of "$q0")
lab a "tc qdisc add dev eth0 clsact &&
	tc filter add dev eth0 egress prio 1 protocol ip flower ip_proto udp dst_port 4791 src_port $p0 action pass &&
	tc filter add dev eth0 egress prio 99 protocol ip flower ip_proto udp dst_port 4791 action pass" >/dev/null
one_port() { local c; c=$(counts) && (($(pkts "$c" 1) >= 3 * K)) && [[ $(pkts "$c" 99) == 0 ]]; }
wait_for 20 one_port
ktap_info "label mode, frames per filter (prio: packets): $(counts | tr '\n' ' ')"
ktap_check "rxe takes no UDP port from a UD handle's flow label: all $K flows leave from QP $q0's port $p0" one_port
lab a "tc qdisc del dev eth0 clsact" >/dev/null

ktap_end
