#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_fabteld.sh - fabteld on both rxe guests, scraped by a real Prometheus
# on this host through the forwarded ports.
#
#  - fabteld loads BPF as root, then runs as nobody with only CAP_NET_ADMIN;
#    its live /metrics passes `promtool check metrics`;
#  - job 4242 (fabtel-traffic in cgroup job_4242, a Slurm-like name) under
#    netem loss is degraded, reason out_of_sequence on rxa port 1; its
#    nak_seq_rcvd events equal rxa's rcvd_seq_err delta; job 5151 (an idle
#    QP in cgroup job_5151) stays healthy;
#  - a 2 s flap makes 4242 failing, reason link_flap on rxa/1 (culprit),
#    5151 healthy (the flap is a notice there: it moved no traffic);
#  - Prometheus: the recording rules give the per-job series, FabtelLinkFlap
#    fires within one evaluation interval of the first scrape showing the flap;
#  - job 4242's /api/v1/jobs/4242/trace is a valid Chrome trace with sorted
#    timestamps: the flap a 2 s link-down span, the netem NAKs and the flap
#    job-signal instants, a Gb/s counter track;
#  - when job 4242's QP ends, fabteld deletes its entries from the rxe and
#    wire maps (bpftool shows them before, not after); a live QP keeps its;
#  - the link layer (fabtel.ko, fakeroce) is lab_fabteld_link.sh's;
#  - as a plain user it runs without BPF and says so; bad config names the line.
. "$(dirname "$0")/lib.sh"

TRAFFIC=$REPO/build/fabtel-traffic
PROM_PORT=${PROM_PORT:-19090}
suite_begin

ktap_begin 38

# the fabtelds and Prometheus stop at exit (lib.sh, suite_cleanup); then this
cleanup() {
	"$FABLAB" impair a clear >/dev/null 2>&1
	for h in a b; do
		lab "$h" 'pkill fabtel-traffic; pkill ib_write_bw' >/dev/null 2>&1
	done
}
suite_on_exit cleanup

PA=$("$FABLAB" port a)
PB=$("$FABLAB" port b)

# ---- fabteld on both guests ---------------------------------------------------
# from plain sysfs, with nothing a suite before left behind (the lab's own
# reset, scripts/lab/guest-state: fabtel.ko unloaded, no fabteld), once a
# suite before has no QP left in rxe's 50 s destroy (lib.sh, rdma_quiet)
rdma_quiet a; rdma_quiet b
for h in a b; do lab "$h" "bash $REPO/scripts/lab/guest-state reset" >/dev/null 2>&1; done
for h in a b; do
	fabteld_start "$h" fabteld --listen 0.0.0.0:9465 --set window_s=10 --set hold_s=120 --set roce_tos=106
done
ktap_check "fabteld is ready (/-/ready) on a and b through the forwarded ports" \
	fabteld_ready 30 "$PA" "$PB"
ids=$(lab a 'awk "/^(Uid|CapEff)/ { print \$2 }" /proc/$(cat /tmp/fabteld.pid)/status | xargs')
ktap_eq "after loading BPF it runs as nobody with only CAP_NET_ADMIN" "$ids" \
	"$(id -u nobody) 0000000000001000"
ktap_eq "sources on a: bpf rxe/qp/flap/wire, sysfs, rdma netlink up" \
	"$(for s in bpf_rxe bpf_qp bpf_flap bpf_wire sysfs rdma_netlink; do metric "$PA" "fabtel_source_up{source=\"$s\"}"; done | xargs)" \
	"1 1 1 1 1 1"
out=$(api "$PA" /metrics | promtool check metrics 2>&1; echo "rc=$?")
ktap_info "$out"
ktap_eq "promtool check metrics on a's live scrape: no errors, no warnings" "$out" "rc=0"
ktap_eq "rxe has no IB port counters (no ports/1/counters/): no fabtel_port_ib_ series, not zeros" \
	"$(lab a 'test -e /sys/class/infiniband/rxa/ports/1/counters && echo has || echo none') $(api "$PA" /metrics | grep -c '^fabtel_port_ib_')" \
	"none 0"
rate=$(lab_read a /sys/class/infiniband/rxa/ports/1/rate)
nds=$(lab a 'cat /sys/class/net/eth0/speed 2>/dev/null || echo unknown')
ktap_info "rxa/1 rate: $rate; eth0 speed: $nds"
ktap_eq "speed: rxa/1's rate file as bytes/s and lanes; eth0's speed as bytes/s, absent when virtio says unknown ($nds)" \
	"$(metric "$PA" 'fabtel_port_speed_bytes{device="rxa",port="1",netdev="eth0"}') $(metric "$PA" 'fabtel_port_lanes{device="rxa",port="1",netdev="eth0"}') $(metric "$PA" 'fabtel_port_netdev_speed_bytes{device="rxa",port="1",netdev="eth0"}')" \
	"$(awk '{ printf "%.0f %d", $1 * 125000000, $3 + 0 }' <<<"${rate/(/}") $( ((nds > 0)) 2>/dev/null && echo $((nds * 125000)))"
ktap_eq "fabtel_port_link_downed_total = rxa's own hw_counters/link_downed" \
	"$(metric "$PA" 'fabtel_port_link_downed_total{device="rxa",port="1",netdev="eth0"}')" \
	"$(lab_read a /sys/class/infiniband/rxa/ports/1/hw_counters/link_downed)"

# ---- Prometheus on this host ----------------------------------------------------
suite_prom "$PROM_PORT" "127.0.0.1:$PA" "127.0.0.1:$PB"
ktap_check "Prometheus is up and scrapes both guests" \
	wait_for 60 bash -c "[[ \$(curl -sf 'http://127.0.0.1:$PROM_PORT/api/v1/query?query=count(up==1)' | jq -r '.data.result[0].value[1]') == 2 ]]"

# ---- two jobs --------------------------------------------------------------------
# netem as a's root qdisc before the traffic: the loss below and its clear
# change it in place (a qdisc swap under traffic fails 6.12 rxe's QP: fablab)
"$FABLAB" impair a delay 0ms
# a server takes one client at a time: one per job on b, in the job's cgroup
lab b "$TRAFFIC --server --forever --cgroup /sys/fs/cgroup/job_4242 >/tmp/srv.log 2>&1 &
	$TRAFFIC --server --forever --port 18601 --cgroup /sys/fs/cgroup/job_5151 >/tmp/srv2.log 2>&1 &
	for i in \$(seq 100); do rdma res show cm_id | grep -q ':18601' && exit 0; sleep 0.2; done; exit 1"
# job 5151: one 64-byte WRITE at the start, then an idle QP on rxa/1
lab a "$TRAFFIC 10.77.0.2 --port 18601 --rate 0.005 --duration 150 --size 64 --timeout 16 \
	--cgroup /sys/fs/cgroup/job_5151 >/tmp/idle.log 2>&1 &"
idle_start=$SECONDS
seq0=$(lab_read a /sys/class/infiniband/rxa/ports/1/hw_counters/rcvd_seq_err)
lab a "$TRAFFIC 10.77.0.2 --duration 90 --timeout 16 --size 65536 --cgroup /sys/fs/cgroup/job_4242 \
	>/tmp/cli.log 2>&1 &"
ktap_check "both jobs are seen on a: 4242 (slurm) and 5151" \
	wait_for 30 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/jobs | jq -r '[.jobs[] | \"\(.job_id)/\(.kind)\"] | sort | join(\" \")') == '4242/slurm 5151/slurm' ]]"
# its user: the owner of its process, as ps (procps) reads it
owner=$(lab a "ps -o user= -p \$(head -1 /sys/fs/cgroup/job_4242/cgroup.procs)" | tr -d ' ')
ktap_eq "job 4242's user is its process's owner (ps: $owner); fabtel_job_info has it and hpc_job 4242" \
	"$(job "$PA" 4242 .user) $(metric "$PA" "fabtel_job_info{job_id=\"4242\",kind=\"slurm\",user=\"$owner\",hpc_job=\"4242\"}")" \
	"$owner 1"
ktap_eq "job 4242 uses rxa port 1 (eth0), shared with 5151" \
	"$(job "$PA" 4242 '.ports[] | "\(.device) \(.port) \(.netdev) \(.shared)"')" "rxa 1 eth0 true"

# plain sysfs: the netdev's byte totals, from /proc/net/dev while it lists at
# most 2 netdevs a port + 4 (netdev_bytes.c; counted every 10 samples), are
# eth0's statistics files read before and after the sample, traffic on it
nd_bytes() { lab a 'S=/sys/class/net/eth0/statistics; echo $(cat $S/rx_bytes $S/tx_bytes)'; }
nets=$(lab a 'tail -n +3 /proc/net/dev | wc -l')
wait_for 20 bash -c "(( \$(curl -sf http://127.0.0.1:$PA/metrics | awk '\$1 == \"fabtel_samples_total\" { print \$2 }') >= 12 ))"
read -r r0 t0 <<<"$(nd_bytes)"
sleep 2.5	# a sample after the first read
snap=$(api "$PA" /api/v1/snapshot)
read -r r1 t1 <<<"$(nd_bytes)"
got=$(jq -r '.ports[] | select(.device == "rxa") | "\(.netdev_stats.rx_bytes) \(.netdev_stats.tx_bytes)"' <<<"$snap")
ktap_info "eth0 rx $r0..$r1 tx $t0..$t1; fabteld: $got; the guest lists $nets netdevs for $(jq '.ports | length' <<<"$snap") port(s)"
ktap_check "plain sysfs: rxa's netdev bytes (from /proc/net/dev, $nets netdevs) within eth0's statistics files read around the sample" \
	bash -c '(($7 <= 2 * $(jq ".ports | length" <<<"$1") + 4)) && read -r r t <<<"$2" &&
		(($3 <= r && r <= $4 && $5 <= t && t <= $6))' _ "$snap" "$got" "$r0" "$r1" "$t0" "$t1" "${nets:-99}"

# PCIe: rxa's function is eth0's device's parent (virtio0's); QEMU's pc
# machine gives it no PCI Express capability, so no link files either
fn=$(lab a 'basename "$(readlink -f /sys/class/net/eth0/device/..)"')
express="$(lab a "lspci -s $fn | grep -c 'Ethernet controller' || true") $(lab a "lspci -vv -s $fn | grep -c 'Express' || true")"
pcie=$(jq -r '.pcie[] | select(.device == "rxa") | "\(.pci) \(.note)"' <<<"$snap")
ktap_eq "PCIe: rxa's function $fn, an Ethernet controller with no Express capability (lspci), and fabteld reads no link for it, said" \
	"$express $pcie" "1 0 null no PCIe function (virtual, or conventional PCI)"

"$FABLAB" impair a delay 1ms reorder 25% 50% loss 2%
ktap_check "under netem loss, job 4242 becomes degraded" \
	wait_for 60 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/jobs | jq -r '.jobs[] | select(.job_id == \"4242\") | .verdict') == degraded ]]"
"$FABLAB" impair a clear
ktap_eq "... reason out_of_sequence on rxa port 1, the culprit" \
	"$(job "$PA" 4242 '.culprit | "\(.reason) \(.device) \(.port) \(.severity)"')" \
	"out_of_sequence rxa 1 degraded"
ktap_eq "job 5151 (idle QP on the same port) stays healthy" "$(job "$PA" 5151 .verdict)" healthy
sleep 3
seq1=$(lab_read a /sys/class/infiniband/rxa/ports/1/hw_counters/rcvd_seq_err)
ktap_eq "job 4242's nak_seq_rcvd events = rxa's rcvd_seq_err delta" \
	"$(metric "$PA" 'fabtel_job_qp_events_total{job_id="4242",device="rxa",port="1",kind="nak_seq_rcvd"}')" \
	"$((seq1 - seq0))"

# job 4242's QP, from RDMA netlink (the client's pid from its cgroup)
qps_of() { # JOB: "local-QPN remote-QPN" of its QP on a
	lab a "p=\$(head -1 /sys/fs/cgroup/job_$1/cgroup.procs)
		rdma res show qp -j | jq -r --argjson p \"\$p\" '.[] | select(.pid == \$p) | \"\\(.lqpn) \\(.rqpn)\"' | head -1"
}
entries() { # MAP JQ-FILTER-ON-KEY: how many entries of that a map on a has
	lab a "bpftool map dump name $1 -j | jq '[.[] | .formatted.key | select($2)] | length'"
}
wire_entries() { # LQPN RQPN: wire_qps entries of that QP (ingress: ours; egress: the peer's)
	entries wire_qps "(.dir == 0 and .qpn == $1) or (.dir == 1 and .qpn == $2)"
}
read -r qp4242 rqp4242 <<<"$(qps_of 4242)"
ktap_info "job 4242's QP on rxa: ${qp4242:-none}, its peer's ${rqp4242:-none}"
ktap_check "rxe_qp_counts and wire_qps (both ways) hold entries of job 4242's live QP" \
	bash -c '(($1 > 0 && $2 == 2))' _ "$(entries rxe_qp_counts ".qpn == ${qp4242:-0}")" \
	"$(wire_entries "${qp4242:-0}" "${rqp4242:-0}")"
ktap_eq "wire_known (bpftool) lists job 4242's QP both ways: fabteld told the wire program which QPs exist" \
	"$(entries wire_known "(.dir == 0 and .qpn == ${qp4242:-0}) or (.dir == 1 and .qpn == ${rqp4242:-0})")" 2
ktap_eq "no real frame refused per QP: fabtel_wire_qp_refused_total map_full, unknown_qp" \
	"$(metric "$PA" 'fabtel_wire_qp_refused_total{reason="map_full"}') $(metric "$PA" 'fabtel_wire_qp_refused_total{reason="unknown_qp"}')" \
	"0 0"

# ---- a 2 s flap ---------------------------------------------------------------------
# 5151's one WRITE must be older than window_s (10 s) for it to count as idle
while ((SECONDS - idle_start < 12)); do sleep 1; done
f0=$(metric "$PA" 'fabtel_link_flaps_total{device="rxa",port="1",netdev="eth0"}')
"$FABLAB" flap a --down-ms 2000 >/dev/null
ktap_check "after a 2 s flap, job 4242 is failing, its culprit a link flap" \
	wait_for 30 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/jobs | jq -r '.jobs[] | select(.job_id == \"4242\") | \"\\(.verdict) \\(.culprit.reason)\"') == 'failing link_flap' ]]"
ktap_eq "... culprit link_flap on rxa port 1" \
	"$(job "$PA" 4242 '.culprit | "\(.reason) \(.device) \(.port)"')" "link_flap rxa 1"
ktap_eq "job 5151 stays healthy; the flap is a notice there" \
	"$(job "$PA" 5151 '"\(.verdict) \([.reasons[] | "\(.reason)/\(.severity)"] | join(","))"')" \
	"healthy link_flap/notice"
ktap_eq "fabtel_link_flaps_total on a moved by 1" \
	"$(metric "$PA" 'fabtel_link_flaps_total{device="rxa",port="1",netdev="eth0"}')" "$((f0 + 1))"

# ---- the job's timeline as a Chrome trace ------------------------------------------------
api "$PA" /api/v1/jobs/4242/trace >"$SUITE_DIR/trace.json"
shape=$(trace_shape_errors "$SUITE_DIR/trace.json")
ktap_eq "trace: valid Chrome trace events (ph, name, pid, ts; X dur; i scope; C numeric args)" \
	"$shape" 0
ktap_eq "trace: timestamps never go back" \
	"$(jq '[.traceEvents[] | select(.ph != "M") | .ts] | . == sort' "$SUITE_DIR/trace.json")" true
span=$(jq -r '[.traceEvents[] | select(.ph == "X" and .name == "link down" and .args.device == "rxa" and .args.port == 1)] | last | .dur' "$SUITE_DIR/trace.json")
ktap_info "trace: the 2 s flap is a 'link down' span of ${span} us on rxa/1"
ktap_check "trace: the flap is a link-down span on rxa/1 of 2 s (1.5..3 s)" \
	awk -v d="$span" 'BEGIN { exit !(d >= 1500000 && d <= 3000000) }'
ktap_eq "trace: netem's out-of-sequence/NAK events and the flap are job-signal instants" \
	"$(jq -r '[.traceEvents[] | select(.ph == "i" and .cat == "job_signal") | .name] | unique |
		(index("nak_seq_rcvd") != null and index("link_flap") != null)' "$SUITE_DIR/trace.json")" true
ktap_check "trace: an 'rxa/1 Gb/s' counter track with traffic on it" \
	jq -e '[.traceEvents[] | select(.ph == "C" and .name == "rxa/1 Gb/s") | .args.tx_gbps] | max > 0' \
	"$SUITE_DIR/trace.json"
ktap_eq "trace of an unknown job, and a bad trace path: 404" \
	"$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PA/api/v1/jobs/nope/trace") $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PA/api/v1/jobs/4242/tracex")" \
	"404 404"

# ---- what Prometheus made of it -----------------------------------------------------------
ktap_check "FabtelLinkFlap fires for rxa on a" \
	wait_for 30 bash -c "curl -sf http://127.0.0.1:$PROM_PORT/api/v1/alerts | jq -e '.data.alerts[] | select(.labels.alertname == \"FabtelLinkFlap\" and .labels.instance == \"127.0.0.1:$PA\" and .labels.device == \"rxa\" and .state == \"firing\")'"
active=$(curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/alerts" |
	jq -r ".data.alerts[] | select(.labels.alertname == \"FabtelLinkFlap\" and .labels.instance == \"127.0.0.1:$PA\") | .activeAt" |
	head -1)
first=$(curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/query" \
	--data-urlencode "query=fabtel_link_flaps_total{instance=\"127.0.0.1:$PA\",device=\"rxa\"}[3m]" |
	jq -r --arg f "$f0" '.data.result[0].values | map(select((.[1] | tonumber) > ($f | tonumber))) | .[0][0]')
lag=$(jq -n --arg a "$active" --arg f "$first" '($a | sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601) + ($a | capture("(?<s>\\.[0-9]+)Z$").s // "0" | tonumber) - ($f | tonumber)')
ktap_info "first scrape with the flap at $first, alert active at $active: lag ${lag}s (evaluation_interval 1s)"
ktap_check "... active within one evaluation interval (1 s, +0.5 s jitter) of that scrape" \
	awk -v l="$lag" 'BEGIN { exit !(l != "" && l >= -0.5 && l <= 1.5) }'
ktap_eq "recording rules: job_id:fabtel_verdict:max{job_id=4242} = 2, on 2 hosts" \
	"$(prom 'job_id:fabtel_verdict:max{job_id="4242"}') $(prom 'job_id:fabtel_hosts:count{job_id="4242"}')" "2 2"

# ---- BPF map entries of QPs that are gone -----------------------------------------------------
# rxe and wire count per QP number and never see a QP end: fabteld deletes
# what RDMA netlink no longer lists (after two samples), nothing else
pr0=$(metric "$PA" 'fabtel_bpf_stale_entries_removed_total{map="rxe_qp_counts"}')
lab a 'pkill -f "^[^ ]*fabtel-traffic .*cgroup/job_4242"; for i in $(seq 50); do
	pgrep -f "^[^ ]*fabtel-traffic .*cgroup/job_4242" >/dev/null || exit 0; sleep 0.2; done; exit 1'
qp_entries_gone() { # LQPN RQPN: no entry of that QP left in rxe_qp_counts or wire_qps
	(($(entries rxe_qp_counts ".qpn == $1") == 0 && $(wire_entries "$1" "$2") == 0))
}
ktap_check "job 4242's QP gone: its rxe_qp_counts and wire_qps entries go within 10 s" \
	wait_for 10 qp_entries_gone "${qp4242:-0}" "${rqp4242:-0}"
ktap_check "... counted in fabtel_bpf_stale_entries_removed_total{map=\"rxe_qp_counts\"}" \
	bash -c '(($2 > $1))' _ "${pr0:-0}" "$(metric "$PA" 'fabtel_bpf_stale_entries_removed_total{map="rxe_qp_counts"}')"
read -r qp5151 rqp5151 <<<"$(qps_of 5151)"
ktap_info "job 5151's QP on rxa: ${qp5151:-none}, its peer's ${rqp5151:-none}"
ktap_check "job 5151's live idle QP keeps its wire_qps entries (both ways)" \
	bash -c '(($1 == 2))' _ "$(wire_entries "${qp5151:-0}" "${rqp5151:-0}")"

# ---- as a plain user; bad config ------------------------------------------------------------
out=$(lab a "setpriv --reuid nobody --regid nogroup --clear-groups $FABTELD --once metrics 2>&1 | grep 'fabtel_source_up'; echo rc=\$?")
ktap_info "$out"
ktap_check "as nobody: no BPF (source down), sysfs and RDMA netlink still up" \
	bash -c 'grep -q "source=\"bpf_rxe\"} 0" <<<"$1" && grep -q "source=\"sysfs\"} 1" <<<"$1" &&
		grep -q "source=\"rdma_netlink\"} 1" <<<"$1"' _ "$out"
printf 'listen = 127.0.0.1:9466\n# fine so far\nwindow_s = soon\n' >"$SUITE_DIR/bad.conf"
out=$(lab a "$FABTELD --config $SUITE_DIR/bad.conf --check-config 2>&1; echo rc=\$?")
ktap_eq "garbage config: error names file and line 3, exit 2" "$out" \
	"fabteld: $SUITE_DIR/bad.conf:3: window_s wants a whole number 1..86400, not 'soon'
rc=2"

ktap_end
