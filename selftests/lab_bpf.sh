#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_bpf.sh - fabtel's tracing BPF programs (fabtel-trace) in the lab.
#  - flap: flaps of 20 ms, 200 ms and 2 s: one carrier_down and one
#    carrier_up event each, compared with the netdev's carrier counters and
#    with a bpftrace kprobe count of netif_carrier_on/off run alongside;
#  - rxe: under netem loss/reorder during ib_write_bw, NAK-sequence NAKs sent
#    equal the responder's rxe out_of_seq_request delta and NAKs received
#    equal the requester's rcvd_seq_err delta;
#  - qp: ib_write_bw started in cgroup job_42: its QP maps to its pid, comm
#    and that cgroup's id (the cgroup directory's inode); gone after exit;
#  - a QP created before fabtel-trace started is seeded from RDMA netlink,
#    compared with `rdma res show qp`;
#  - without rdma_rxe, flap and qp still run and rxe says unavailable once.
# It records the SHA-256 of the BPF objects it ran (run.sh compares the
# records of the two kernels' lab phases).
. "$(dirname "$0")/lib.sh"

HW=/sys/class/infiniband

ktap_begin 19

cleanup() {
	"$FABLAB" impair a clear >/dev/null 2>&1
	stop_pids a flap rxa norxe bt bw2
	stop_pids b rxb bwsrv
	lab a 'rdma link show rxa/1 >/dev/null 2>&1 || { modprobe rdma_rxe; rdma link add rxa type rxe netdev eth0; }' >/dev/null 2>&1
}
trap cleanup EXIT

# The objects this run loads, recorded per guest kernel: run.sh checks that
# the record of each kernel's lab phase is the same (one build, CO-RE).
kver=$(lab a 'uname -r')
(cd "$REPO/build" && sha256sum bpf/*.bpf.o fabtel-trace fabteld) \
	>"${SELFTESTS_OUT:-$REPO/build/selftests}/bpf-objects-$kver.sha256"

jcount() { # HOST FILE JQ-FILTER: number of matching JSON lines
	lab "$1" "jq -c 'select($3)' $2 | wc -l"
}

# ---- flap ------------------------------------------------------------------
ktap_check "fabtel-trace -p flap attaches" trace_start a flap "-p flap"
# bpftrace prints 'Attaching 2 probes...' before it attaches them:
# attached is when bpftool lists both kprobes for its pid.  Its counts are
# printed each second and read while it runs: its exit, which prints them
# too, took over 30 s after SIGINT under TCG at times (CI 2026-11-27:
# nothing printed, still running).
lab a "bpftrace -e 'kprobe:netif_carrier_on /((struct net_device *)arg0)->name == \"eth0\"/ { @on++ }
	kprobe:netif_carrier_off /((struct net_device *)arg0)->name == \"eth0\"/ { @off++ }
	interval:s:1 { print(@on); print(@off); }' >/tmp/bt.out 2>&1 & echo \$! >/tmp/bt.pid
	p=\$!
	for i in \$(seq 300); do
		(( \$(bpftool perf list 2>/dev/null | grep -c \"^pid \$p .*kprobe .*func netif_carrier_o\") == 2 )) && exit 0
		sleep 0.2
	done; exit 1" || ktap_info "bpftrace's two kprobes not attached within 60 s (bpftool perf list): $(lab a 'bpftool perf list; tail -3 /tmp/bt.out')"
N=/sys/class/net/eth0
c0=$(lab a "echo \$(cat $N/carrier_up_count $N/carrier_down_count)")
# QEMU delivers a very short off/on pair to the guest only if the guest
# reads the link state in between; under load a 20 ms one sometimes never
# reaches it (no carrier change at all).  Flap again until the carrier
# counters show it, at most 4 tries; the checks below stay exact.
up_count() { lab_read a $N/carrier_up_count; }
for ms in 20 200 2000; do
	for try in 1 2 3 4; do
		u=$(up_count)
		"$FABLAB" flap a --down-ms $ms >/dev/null 2>&1
		wait_for 5 lab a "(( \$(cat $N/carrier_up_count) > $u ))" && break
		ktap_info "the $ms ms flap did not reach the guest (try $try)"
	done
done
wait_for 20 lab a "(( \$(jq -c 'select(.kind == \"carrier_up\")' /tmp/flap.json | wc -l) >= 3 ))"
trace_stop a flap
sleep 2	# a print of bpftrace's counts after the last flap
bt=$(lab a "echo \$(sed -n 's/^@on: //p' /tmp/bt.out | tail -1) \$(sed -n 's/^@off: //p' /tmp/bt.out | tail -1)" | xargs)
lab a 'kill -INT $(cat /tmp/bt.pid)'
c1=$(lab a "echo \$(cat $N/carrier_up_count $N/carrier_down_count)")
read -r up0 dn0 <<<"$c0"
read -r up1 dn1 <<<"$c1"
downs=$(jcount a /tmp/flap.json '.kind == "carrier_down" and .ifname == "eth0"')
ups=$(jcount a /tmp/flap.json '.kind == "carrier_up" and .ifname == "eth0"')
ktap_eq "flaps of 20/200/2000 ms: 3 carrier_down + 3 carrier_up events, as the carrier counters moved" \
	"$downs/$ups" "$((dn1 - dn0))/$((up1 - up0))"
ktap_eq "... and that is 3/3" "$downs/$ups" "3/3"
noop=$(lab a "jq -r 'select(.type == \"drops\") | .carrier_noop_calls' /tmp/flap.json")
[[ -n $bt ]] || ktap_info "bpftrace's output: $(lab a 'tail -5 /tmp/bt.out; kill -0 $(cat /tmp/bt.pid) 2>/dev/null && echo running || echo exited')"
ktap_eq "bpftrace counted as many netif_carrier_on/off calls (events + no-op calls)" \
	"$bt" "$((ups + noop)) $((downs))"
durs=$(lab a "jq -r 'select(.ifname == \"eth0\") | \"\\(.kind) \\(.ns)\"' /tmp/flap.json" |
	awk '$1 == "carrier_down" { d = $2 } $1 == "carrier_up" { printf "%d ", ($2 - d) / 1e6 }')
ktap_info "measured down times (ms): $durs"
# Guest scheduling under TCG blurs a 20 ms window (9-16 ms seen under load):
# the short flap must only read as short; the others within 0.5x..3x.
ktap_check "down times: 20 ms flap under 200 ms; 200 ms and 2 s within 0.5x..3x" \
	awk -v s="$durs" 'BEGIN { n = split(s, d, " ");
		if (n != 3 || d[1] < 0 || d[1] > 200) exit 1;
		if (d[2] < 100 || d[2] > 600 || d[3] < 1000 || d[3] > 6000) exit 1 }'

# ---- rxe + qp ----------------------------------------------------------------
ctr() { lab_read "$1" "$HW/rx$1/ports/1/hw_counters/$2"; }
oos0=$(ctr b out_of_seq_request)
seq0=$(ctr a rcvd_seq_err)
trace_start a rxa "-p qp,rxe" >/dev/null
trace_start b rxb "-p rxe" >/dev/null
"$FABLAB" impair a delay 1ms reorder 25% 50% loss 1%
cg=$(lab a 'mkdir -p /sys/fs/cgroup/job_42 && stat -c %i /sys/fs/cgroup/job_42')
# the client records its pid and joins job_42 before it becomes ib_write_bw
write_bw "-D 4" "sh -c 'echo \$\$ >/tmp/bw.pid; echo \$\$ >/sys/fs/cgroup/job_42/cgroup.procs; exec \"\$0\" \"\$@\"' " >/dev/null
"$FABLAB" impair a clear
trace_stop a rxa
trace_stop b rxb
sent=$(lab b "jq -s 'map(select(.type == \"rxe_qp\") | .nak_seq_sent) | add' /tmp/rxb.json")
rcvd=$(lab a "jq -s 'map(select(.type == \"rxe_qp\") | .nak_seq_rcvd) | add' /tmp/rxa.json")
oos=$(($(ctr b out_of_seq_request) - oos0))
seq=$(($(ctr a rcvd_seq_err) - seq0))
ktap_info "NAK-seq sent $sent / b out_of_seq_request +$oos; received $rcvd / a rcvd_seq_err +$seq"
ktap_ge "netem made rxe NAK" "$oos" 1
ktap_eq "rxe: NAK-seq NAKs sent = responder's out_of_seq_request delta" "$sent" "$oos"
ktap_eq "rxe: NAK-seq NAKs received = requester's rcvd_seq_err delta" "$rcvd" "$seq"
pid=$(lab_read a /tmp/bw.pid)
created=$(lab a "jq -c 'select(.kind == \"qp_created\" and .comm == \"ib_write_bw\") | [.tgid, .cgroup_id]' /tmp/rxa.json | head -1")
ktap_eq "qp: ib_write_bw's QP -> its pid and the cgroup id of job_42" "$created" "[$pid,$cg]"
qpn=$(lab a "jq -r 'select(.kind == \"qp_created\" and .comm == \"ib_write_bw\") | .qpn' /tmp/rxa.json | head -1")
ktap_eq "qp: ib_write_bw's QP given its peer at INIT->RTR: b's address, the one the client was told (10.77.0.2)" \
	"$(lab a "jq -r 'select(.kind == \"qp_modified\" and .qpn == ${qpn:-0} and .peer != null) | .peer' /tmp/rxa.json | sort -u | xargs")" \
	10.77.0.2
ktap_eq "qp: destroyed when ib_write_bw exited" \
	"$(jcount a /tmp/rxa.json ".kind == \"qp_destroyed\" and .qpn == ${qpn:-0}")" 1
ktap_eq "qp: no longer in the map at exit" \
	"$(jcount a /tmp/rxa.json ".type == \"qp\" and .qpn == ${qpn:-0}")" 0

# ---- QPs that existed before fabtel-trace started ----------------------------
# -D 300: alive until killed below, however long fabtel-trace takes to load
# under TCG (with -D 20 a slow machine once saw the QP gone before the seed)
lab b 'sh -c "echo \$\$ >/tmp/bwsrv.pid; exec ib_write_bw -d rxb -x 1 -D 300" >/dev/null 2>&1' &
srv=$!
wait_for 20 lab b 'ss -ltn | grep -q ":18515 "'
cg=$(lab a 'mkdir -p /sys/fs/cgroup/job_43 && stat -c %i /sys/fs/cgroup/job_43')
lab a 'sh -c "echo \$\$ >/tmp/bw2.pid; echo \$\$ >/sys/fs/cgroup/job_43/cgroup.procs;
	exec ib_write_bw -d rxa -x 1 -D 300 10.77.0.2" >/dev/null 2>&1 &
	for i in $(seq 100); do rdma res show qp | grep -q ib_write_bw && exit 0; sleep 0.2; done; exit 1'
pid=$(lab_read a /tmp/bw2.pid)
rdmaqpn=$(lab a "rdma res show qp | awk '/ib_write_bw/ && /state RTS/ { for (i = 1; i < NF; i++) if (\$i == \"lqpn\") print \$(i + 1) }' | head -1")
seed=$(lab a "$TRACE -p qp -d 2 --json 2>/tmp/seed.err | jq -c 'select((.type == \"qp\" or .kind == \"qp_destroyed\") and .comm == \"ib_write_bw\") | [.qpn, .tgid, .cgroup_id, .created_ns]' | head -1")
ktap_info "rdma res show qp: lqpn $rdmaqpn; fabtel-trace table: $seed; $(lab a 'grep seeded /tmp/seed.err')"
ktap_info "after the seed, ib_write_bw $pid: $(lab a "kill -0 $pid 2>/dev/null && echo running || echo gone")"
ktap_eq "qp: a QP made before start is seeded: rdma's QPN, the pid, job_43's cgroup id, created_ns 0 (unknown)" \
	"$seed" "[$rdmaqpn,$pid,$cg,0]"
stop_pids a bw2
stop_pids b bwsrv
wait "$srv"
# its QPs are destroyed as it exits: removing the device under that
# teardown is a race of its own (rxe 6.1 can then wait 50 s for the QP's
# references and WARN), not what this suite tests; b's half, killed as
# well, must be gone too or the next suite's first traffic stalls (lib.sh)
rdma_quiet a; rdma_quiet b

# ---- without rdma_rxe ----------------------------------------------------------
lab a 'rdma link delete rxa && rmmod rdma_rxe'
out=$(lab a "$TRACE -i eth0 -d 2 2>&1 >/dev/null; echo rc=\$?")
ktap_info "$out"
ktap_eq "no rdma_rxe: exit 0, rxe unavailable said once" \
	"$(grep -c 'rxe: unavailable: rdma_rxe not loaded' <<<"$out") $(grep -o 'rc=[0-9]*' <<<"$out")" "1 rc=0"
ktap_check "no rdma_rxe: flap, qp and wire (on eth0) still attached" \
	bash -c 'grep -q "flap: attached" <<<"$1" && grep -q "qp: attached" <<<"$1" &&
		grep -q "wire: attached to eth0" <<<"$1"' _ "$out"
# ... and they run: a flap and a ping while they are loaded
pk() { lab a "echo \$(( \$(cat $N/statistics/rx_packets) + \$(cat $N/statistics/tx_packets) )) \$(cat $N/carrier_up_count $N/carrier_down_count)"; }
read -r p0 up0 dn0 <<<"$(pk)"
trace_start a norxe "-p flap,qp,rxe,wire -i eth0" >/dev/null
"$FABLAB" flap a --down-ms 300 >/dev/null 2>&1
wait_for 10 lab a "(( \$(cat $N/carrier_up_count) > $up0 ))"
wait_for 20 lab a 'busybox ping -c 1 -W 1 10.77.0.2' >/dev/null
ktap_check "no rdma_rxe: 5 pings over eth0 answered" lab a 'busybox ping -c 5 -i 0.2 -W 2 10.77.0.2'
trace_stop a norxe
# virtio-net (napi_tx=0, fablab) counts a sent packet in tx_packets when it
# frees its buffer, at the next send: one more ping, after the trace, so
# that the last frames the wire program saw go out are counted (CI at
# 3a8b800: wire 17 frames, eth0 16 packets)
lab a 'busybox ping -c 1 -W 1 10.77.0.2' >/dev/null
read -r p1 up1 dn1 <<<"$(pk)"
flaps=$(jcount a /tmp/norxe.json '.prog == "flap" and .ifname == "eth0"')
ktap_eq "no rdma_rxe: flap reports the flap's 2 transitions, as the carrier counters moved" \
	"$flaps" "$((up1 - up0 + dn1 - dn0))"
read -r frames roce <<<"$(lab a "jq -r 'select(.type == \"wire\") | \"\\(.frames) \\(.rocev2)\"' /tmp/norxe.json")"
ktap_info "wire saw $frames frames, $roce RoCEv2; eth0 counted $((p1 - p0)) packets"
ktap_check "no rdma_rxe: wire saw the 10 ping frames, no more than eth0 counted, none of them RoCEv2" \
	test "${frames:-0}" -ge 10 -a "${frames:-0}" -le "$((p1 - p0))" -a "${roce:-x}" = 0
lab a 'modprobe rdma_rxe && rdma link add rxa type rxe netdev eth0'
ktap_check "rxa restored" wait_for 20 lab a 'rdma link show rxa/1 | grep -q ACTIVE'
rdma_quiet a; rdma_quiet b	# the next suite's traffic must not stall (lib.sh)

ktap_end
