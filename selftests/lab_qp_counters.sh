#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_qp_counters.sh - per-job evidence from the NIC's own counter sets
# (Documentation/qp_counters.rst), on guest a with fakeroce0 (mlx5: it has
# mlx5_ib's counter ops) and jobs whose processes make QPs on it (ib_core
# owns each QP to its process, as uverbs QPs).  Faults are fakeroce's
# qp_errors: a QP's errors counted as the NIC does, into its counter set if
# it has one, else into the port's default set.  The independent readers
# are iproute2's `rdma statistic` and ib_core's hw_counters files.
#  - qp_counters = off: errors on job A's QPs degrade A and B alike (port
#    evidence: what inference can say);
#  - auto: fabteld turns auto mode by PID on, jobs C and D each get a set;
#    errors on C's QPs degrade C with evidence qp_counter, D stays healthy;
#    the sets' values are `rdma statistic qp show`'s; fabteld's exit leaves
#    the port's mode as it found it;
#  - an operator's manual set: read and used, never unbound;
#  - counter_limit 2 and 5 jobs: 2 sets, the other jobs on port evidence,
#    said so; only the jobs with QPs in no set are blamed for errors there;
#  - port_stats = netlink: the port's counters equal the hw_counters files;
#  - peer: QPs connected (fakeroce's qp_peer: INIT->RTR with an AV, through
#    the call uverbs makes) towards guest b and towards an address no host
#    has; fabteld binds each job's QPs into one set per peer; errors on QPs
#    towards b name b only; its exit unbinds them all; qp_counters_sets
#    caps the sets it makes;
#  - driver messages: mlx5-shaped kernel log lines (fakeroce's kmsg) counted
#    per device as dmesg holds them, the job's evidence; a TX timeout then a
#    soft lockup in mlx5_core: driver_wedged, cleared by Link up; a flood
#    of 100,000 lines costs no memory; a restart counts no old line.
. "$(dirname "$0")/lib.sh"

suite_begin
ktap_begin 45

DBG=/sys/kernel/debug/fakeroce/0
PA=$("$FABLAB" port a)
JOBS="8101 8102 8103 8104 8105 8106 8107 8108 8109 8110 8111 8112"

cleanup() {
	jobs_end
	lab a "rmmod fakeroce; for j in $JOBS; do rmdir /sys/fs/cgroup/job_\$j; done" >/dev/null 2>&1
}
suite_on_exit cleanup

ktap_check "fakeroce0 (mlx5) on guest a" \
	lab a "rmmod fabtel fakeroce 2>/dev/null; modprobe ib_core; insmod $KMOD/fakeroce.ko &&
		echo '0 mlx5' >/sys/kernel/fakeroce/new_device && ip link set fre0 up"

# job ID's process makes N more QPs (fakeroce's qps holds the device's total)
job_qps() { # ID TOTAL (its pid in /tmp/qpc-job-ID.pid, for jobs_end)
	lab a "mkdir -p /sys/fs/cgroup/job_$1; bash -c 'echo \$\$ >/sys/fs/cgroup/job_$1/cgroup.procs &&
		echo $2 >$DBG/qps && exec sleep $1' >/dev/null 2>&1 & p=\$!; echo \$p >/tmp/qpc-job-$1.pid
		for i in \$(seq 50); do [[ \$(cat /proc/\$p/comm 2>/dev/null) == sleep ]] && exit 0; sleep 0.1; done
		exit 1"
}
jobs_end() { # every job's process gone (by the pids job_qps kept), its QPs destroyed
	lab a "echo 0 >$DBG/qps; for f in /tmp/qpc-job-*.pid; do [[ -f \$f ]] || continue
		kill \$(cat \$f); rm -f \$f; done; sleep 0.3" >/dev/null 2>&1
}
qpns_of() { # ID: the QPNs of job ID's process, as rdma res show qp lists them
	lab a "p=\$(head -1 /sys/fs/cgroup/job_$1/cgroup.procs); rdma res show qp -j |
		jq -r --argjson p \"\$p\" '[.[] | select(.pid == \$p and .ifname == \"fakeroce0\") | .lqpn] | sort | .[]'"
}
inject() { # QPN NAME DELTA
	lab a "echo '$1 $2 $3' >$DBG/qp_errors"
}
verdicts() { # "ID:verdict/evidence ..." of the jobs given
	local j out=""
	for j in "$@"; do
		out+="$j:$(job "$PA" "$j" '"\(.verdict)/\([.reasons[] | select(.reason == "out_of_sequence") | .evidence] | join(","))"') "
	done
	echo "${out% }"
}
verdicts_are() { local v; v=$(verdicts "${@:2}"); [[ $v == "$1" ]]; }	# WANT ID...
qp_mode() { lab a "rdma statistic qp mode link fakeroce0/1"; }
start() { # SETTINGS...: fabteld on a, plain sysfs, 0.5 s passes, a 20 s window
	fabteld_start a qpc --listen 0.0.0.0:9465 --set fabtel_ko=off --set bpf=off \
		--set interval_ms=500 --set window_s=20 --set oos_events=5 --set qp_counters_s=1 "$@"
	fabteld_ready 30 "$PA"
}

# ---- off: inference blames every job on the port --------------------------------------
job_qps 8101 4
job_qps 8102 8
start --set qp_counters=off
n_jobs() { [[ $(api "$PA" /api/v1/jobs | jq '.jobs | length') == "$1" ]]; }
wait_for 15 n_jobs 2
q=$(qpns_of 8101 | head -1)
inject "$q" out_of_sequence 40
ktap_check "qp_counters = off: 40 out_of_sequence on job 8101's QP $q degrade 8101 and 8102 alike, port evidence" \
	wait_for 15 verdicts_are "8101:degraded/port 8102:degraded/port" 8101 8102
ktap_info "verdicts: $(verdicts 8101 8102)"
# port_stats = auto: the port's hw_counters in one RDMA netlink message; every
# counter of the mlx5 map (schema name=driver name) against its file
MLX5_MAP="out_of_sequence=out_of_sequence nak_seq_err_rcvd=packet_seq_err
	implied_nak_seq_err=implied_nak_seq_err local_ack_timeout=local_ack_timeout_err
	rnr_nak_rcvd=rnr_nak_retry_err duplicate_request=duplicate_request out_of_buffer=out_of_buffer
	cnp_sent=np_cnp_sent cnp_handled=rp_cnp_handled cnp_ignored=rp_cnp_ignored
	ecn_marked_rx=np_ecn_marked_roce_packets icrc_err=rx_icrc_encapsulated
	req_cqe_err=req_cqe_error resp_cqe_err=resp_cqe_error"
lab a "i=0; for n in $(sed 's/[^ ]*=//g' <<<"$MLX5_MAP" | xargs); do i=\$((i + 1));
	echo \$((i * 1000 + 7)) >$DBG/counters/\$n; done"
fab_port() { # schema name=value of fakeroce0/1 in fabteld's snapshot, the map's order
	local pair
	for pair in $MLX5_MAP; do
		echo -n "${pair%%=*}=$(api "$PA" /api/v1/snapshot | jq -r ".ports[] | select(.device == \"fakeroce0\") | .counters.${pair%%=*}") "
	done
}
file_port() { # the same from ib_core's hw_counters files
	local pair
	for pair in $MLX5_MAP; do
		echo -n "${pair%%=*}=$(lab a "cat /sys/class/infiniband/fakeroce0/ports/1/hw_counters/${pair#*=}") "
	done
}
netlink_read() { [[ $(metric "$PA" 'fabtel_port_source_up{device="fakeroce0",port="1",netdev="fre0",source="hw_counters_netlink",reader="fabteld"}') == 1 ]]; }
same_as_files() { netlink_read && [[ $(fab_port) == "$(file_port)" ]]; }
ktap_check "port_stats = auto, no counter set: fakeroce0/1 read over RDMA netlink, its 14 mapped counters = the hw_counters files" \
	wait_for 15 same_as_files
ktap_info "fabteld: $(fab_port)"
fabteld_stop a qpc >/dev/null
jobs_end

# ---- auto: fabteld turns auto mode on, each job's QPs in their own set ---------------
mode_off() { [[ $(qp_mode) == *"auto off"* ]]; }
ktap_check "fakeroce0/1 starts with no counter mode (rdma statistic qp mode: auto off)" mode_off
start --set qp_counters=auto
mode_auto() { [[ $(qp_mode) == *"auto pid on"* ]]; }
port_qpc() { # FIELD...: fakeroce0's qp_counters fields in fabteld's snapshot
	local f q=""
	for f in "$@"; do q+="\(.qp_counters.$f) "; done
	api "$PA" /api/v1/snapshot | jq -r ".ports[] | select(.device == \"fakeroce0\") | \"${q% }\""
}
auto_by_fabteld() { mode_auto && [[ $(port_qpc set_by) == fabteld ]]; }
ktap_check "qp_counters = auto: fabteld turned auto mode by PID on (rdma statistic qp mode), set_by fabteld" \
	wait_for 15 auto_by_fabteld
job_qps 8103 4
job_qps 8104 8
sets_of() { lab a "rdma statistic qp show link fakeroce0/1 -j"; }
n_sets() { sets_of | jq 'length'; }
ktap_eq "auto: each job's process got a set (rdma statistic qp show lists 2)" "$(n_sets)" 2
ktap_info "$(sets_of)"
wait_for 15 n_jobs 2
q=$(qpns_of 8103 | tail -1)
oos0=$(lab a "cat /sys/class/infiniband/fakeroce0/ports/1/hw_counters/out_of_sequence")
inject "$q" out_of_sequence 30
ktap_check "errors on job 8103's QP $q: 8103 degraded with evidence qp_counter, 8104 healthy" \
	wait_for 15 verdicts_are "8103:degraded/qp_counter 8104:healthy/" 8103 8104
ktap_info "verdicts: $(verdicts 8103 8104)"
trace_evidence() { # job 8103's trace: its out_of_sequence signals' evidence
	api "$PA" /api/v1/jobs/8103/trace | jq -r '[.traceEvents[] | select(.cat == "job_signal" and
		.name == "out_of_sequence") | .args.evidence] | unique | join(",")'
}
fabtop_evidence() { # fabtop's job row for 8103: its worst reason's evidence
	"$REPO/build/fabtop" --once --json --url "http://127.0.0.1:$PA" 2>/dev/null |
		jq -r '.rows.jobs[] | select(.job_id == "8103") | .worst_reason.evidence'
}
# the sets' families (fabtel_port_fec_corrected_bits_total has a unit lint
# of its own, older than this suite)
lint=$(api "$PA" /metrics | grep -E '^(# (HELP|TYPE) )?fabtel_qp_set' |
	promtool check metrics 2>&1; echo "rc=$?")
ktap_eq "promtool check metrics of the counter-set families, with sets: clean" "$lint" "rc=0"
ktap_eq "the trace export's and fabtop's job row say qp_counter too" \
	"$(trace_evidence) $(fabtop_evidence)" "qp_counter qp_counter"
# fabteld's set values against rdma statistic qp show, by counter id
fab_sets() {
	api "$PA" /api/v1/snapshot | jq -r '[.qp_counter_sets[] | select(.device == "fakeroce0") |
		"\(.cntn):\(.job_id):\(.counters.out_of_sequence)"] | sort | join(" ")'
}
rdma_sets() {
	local pid3 pid4
	pid3=$(lab a 'head -1 /sys/fs/cgroup/job_8103/cgroup.procs')
	pid4=$(lab a 'head -1 /sys/fs/cgroup/job_8104/cgroup.procs')
	sets_of | jq -r --argjson a "$pid3" --argjson b "$pid4" '[.[] |
		"\(.cntn):\(if .pid == $a then "8103" elif .pid == $b then "8104" else "?" end):\(.out_of_sequence)"] |
		sort | join(" ")'
}
sets_same() { [[ $(fab_sets) == "$(rdma_sets)" && $(fab_sets) == *":8103:30"* ]]; }
ktap_check "fabteld's sets (cntn:job:out_of_sequence) = rdma statistic qp show's" wait_for 10 sets_same
ktap_info "fabteld: $(fab_sets); rdma: $(rdma_sets)"
port_oos() { lab a "cat /sys/class/infiniband/fakeroce0/ports/1/hw_counters/out_of_sequence"; }
ktap_eq "the port's out_of_sequence (hw_counters) counts the set's 30 too: $oos0 + 30" "$(port_oos)" $((oos0 + 30))
netlink_absent() { [[ -z $(metric "$PA" 'fabtel_port_source_up{device="fakeroce0",port="1",netdev="fre0",source="hw_counters_netlink",reader="fabteld"}') ]]; }
files_now() { netlink_absent && [[ $(fab_port) == "$(file_port)" ]]; }
ktap_check "port_stats = auto, a port with counter sets: read from the files (no hw_counters_netlink read), still = the files" \
	wait_for 15 files_now
# what the sets cost the NIC: ib_core queries every set for each hw_counters
# value of the port (fakeroce's q_counter commands); netlink's STAT_GET asks
# all 29 each pass (2 sets x 29 x 2 passes a second), the files' tiers fewer
qcmd() { lab a "awk '\$1 == \"q_counter\" { print \$2 }' $DBG/fw/commands"; }
q0=$(qcmd); r0=$(metric "$PA" fabtel_qp_set_requests_total); t0=$SECONDS
sleep 5
q1=$(qcmd); r1=$(metric "$PA" fabtel_qp_set_requests_total); dt=$((SECONDS - t0))
ktap_check "firmware cost with 2 sets: $((q1 - q0)) q_counter commands in $dt s, under half of netlink's $((2 * 29 * 2 * dt))" \
	test $((q1 - q0)) -ge 2 -a $((2 * (q1 - q0))) -lt $((2 * 29 * 2 * dt))
ktap_info "fabtel_qp_set_requests_total rose by $((r1 - r0)) (device list, modes, dumps)"
fabteld_stop a qpc >/dev/null
ktap_check "fabteld's exit: auto mode off again (manual while its sets live on)" mode_off
ktap_info "$(qp_mode)"
jobs_end
no_sets() { mode_off && [[ -z $(lab a 'rdma statistic qp show link fakeroce0/1') ]]; }
ktap_check "... and no set once their QPs are gone: as found" no_sets

# ---- an operator's own set: read, never unbound ---------------------------------------------
job_qps 8105 2
q=$(qpns_of 8105 | head -1)
ktap_check "operator: rdma statistic qp bind link fakeroce0/1 lqpn $q" \
	lab a "rdma statistic qp bind link fakeroce0/1 lqpn $q"
cntn=$(sets_of | jq -r '.[0].cntn')
start --set qp_counters=auto
manual_other() { [[ $(port_qpc mode set_by) == "manual other" ]]; }
ktap_check "auto leaves a port in manual mode alone: set_by other, mode manual" wait_for 15 manual_other
inject "$q" out_of_sequence 25
ktap_check "errors on the bound QP: job 8105 degraded with evidence qp_counter (the operator's set $cntn)" \
	wait_for 15 verdicts_are "8105:degraded/qp_counter" 8105
fabteld_stop a qpc >/dev/null
still_bound() { [[ $(sets_of | jq -c ".[] | select(.cntn == $cntn)") == *"$q"* ]]; }
ktap_check "fabteld gone: the operator's set $cntn still holds QP $q" still_bound
ktap_info "$(sets_of)"
lab a "rdma statistic qp unbind link fakeroce0/1 cntn $cntn lqpn $q" >/dev/null
jobs_end

# ---- exhaustion: 2 sets for 5 jobs --------------------------------------------------------
lab a "echo 2 >$DBG/counter_limit"
start --set qp_counters=auto
wait_for 15 mode_auto
n=0
for j in 8106 8107 8108 8109 8110; do n=$((n + 2)); job_qps $j $n; done
ktap_eq "counter_limit 2, 5 jobs: rdma statistic qp show lists 2 sets" "$(n_sets)" 2
exhausted() {
	[[ $(port_qpc sets unbound_qps) == "2 6" &&
		$(metric "$PA" 'fabtel_qp_set_unbound_qps{device="fakeroce0",port="1"}') == 6 ]]
}
ktap_check "fabteld: 2 sets, 6 QPs in none (fabtel_qp_set_unbound_qps)" wait_for 15 exhausted
ktap_info "sets, unbound: $(port_qpc sets unbound_qps)"
wait_for 15 n_jobs 5
q=$(qpns_of 8110 | head -1)
inject "$q" out_of_sequence 20
three_two() {
	local v
	v=$(verdicts 8106 8107 8108 8109 8110)
	[[ $(grep -o 'degraded/port' <<<"$v" | wc -l) == 3 && $(grep -o 'healthy/' <<<"$v" | wc -l) == 2 ]]
}
ktap_check "errors on job 8110's QP (in no set): the 3 jobs without a set degraded on port evidence, the 2 with one healthy" \
	wait_for 15 three_two
ktap_info "verdicts: $(verdicts 8106 8107 8108 8109 8110)"
ktap_check "... its reason says why: its QPs are in no counter set" \
	grep -q 'in no counter set' <<<"$(job "$PA" 8110 '.reasons[] | select(.reason == "out_of_sequence") | .detail')"
fabteld_stop a qpc >/dev/null
jobs_end

# ---- peer: one set per (job, peer); errors name the peer they come from ------------------
lab a "echo 16 >$DBG/counter_limit"
B=10.77.0.2 C=10.77.0.3		# guest b, and an address no guest has
start --set qp_counters=peer --set bpf=on
job_qps 8111 4
job_qps 8112 6
mapfile -t QA < <(qpns_of 8111)
mapfile -t QB < <(qpns_of 8112)
declare -A WANT			# QPN -> job/peer, as qp_peer is given them
plan() { # JOB ADDR QPN...
	local j=$1 a=$2 q
	shift 2
	for q in "$@"; do WANT[$q]="$j/$a"; done
}
plan 8111 $B "${QA[0]}" "${QA[1]}"
plan 8111 $C "${QA[2]}" "${QA[3]}"
plan 8112 $B "${QB[@]}"
connect() { # each QP of the plan to RTR towards its peer
	local q
	for q in "${!WANT[@]}"; do
		lab a "echo '$q ${WANT[$q]#*/}' >$DBG/qp_peer" || return 1
	done
}
ktap_check "qp_peer: job 8111's QPs ${QA[*]} to RTR, two towards $B (guest b), two towards $C; job 8112's ${QB[*]} towards $B" \
	connect
# rdma's sets, each as the job/peer its QPs were given (all its QPs alike) and fabteld's
rdma_peer_sets() {
	local cntn qps q want
	sets_of | jq -r '.[] | "\(.cntn) \([.lqpn[]?] | join(","))"' | while read -r cntn qps; do
		want=""
		for q in ${qps//,/ }; do
			[[ -z $want || $want == "${WANT[$q]}" ]] && want=${WANT[$q]} || want="mixed"
		done
		echo "$cntn:$want"
	done | sort | xargs
}
fab_peer_sets() {
	api "$PA" /api/v1/snapshot | jq -r '[.qp_counter_sets[] | select(.device == "fakeroce0") |
		"\(.cntn):\(.job_id)/\(.peer)"] | sort | join(" ")'
}
three_sets() {
	local r
	r=$(rdma_peer_sets)
	[[ $(wc -w <<<"$r") == 3 && $r != *mixed* && $r != *":/"* && $r == "$(fab_peer_sets)" ]]
}
ktap_check "fabteld bound them into 3 manual sets, one per (job, peer): rdma statistic qp show's QPs = fabteld's job/peer" \
	wait_for 20 three_sets
ktap_info "rdma: $(rdma_peer_sets); fabteld: $(fab_peer_sets); $(qp_mode)"
wait_for 15 n_jobs 2
inject "${QA[0]}" out_of_sequence 30
oos_detail() { job "$PA" 8111 '.reasons[] | select(.reason == "out_of_sequence") | .detail'; }
names_b() {
	verdicts_are "8111:degraded/qp_counter 8112:healthy/" 8111 8112 &&
		[[ $(oos_detail) == "towards $B" ]]
}
ktap_check "30 out_of_sequence on QP ${QA[0]} (towards b): 8111 degraded, qp_counter, \"towards $B\" (not $C); 8112 (its set towards b did not rise) healthy" \
	wait_for 15 names_b
ktap_info "verdicts: $(verdicts 8111 8112); detail: $(oos_detail)"
fab_oos() { api "$PA" /api/v1/snapshot | jq -r '[.qp_counter_sets[] | "\(.cntn):\(.counters.out_of_sequence)"] | sort | join(" ")'; }
rdma_oos() { sets_of | jq -r '[.[] | "\(.cntn):\(.out_of_sequence)"] | sort | join(" ")'; }
same_oos() { [[ $(fab_oos) == "$(rdma_oos)" && $(fab_oos) == *":30"* ]]; }
ktap_check "the sets' out_of_sequence (cntn:value): fabteld's = rdma statistic qp show's" wait_for 10 same_oos
ktap_info "fabteld: $(fab_oos); rdma: $(rdma_oos)"
fabteld_stop a qpc >/dev/null
ktap_check "fabteld's exit unbound every QP it bound: no set left, mode none (auto off)" no_sets
ktap_info "$(qp_mode); sets: $(lab a 'rdma statistic qp show link fakeroce0/1')"
# the budget: 2 sets of fabteld's own per port, 3 (job, peer) pairs; a new
# fabteld's BPF program sees the peers at the next INIT->RTR only
start --set qp_counters=peer --set bpf=on --set qp_counters_sets=2
connect
capped() {
	[[ $(n_sets) == 2 && $(port_qpc note) == "2 QPs with a peer in no set (qp_counters_sets reached; 2 of 2 sets ours)" ]]
}
ktap_check "qp_counters_sets = 2: rdma statistic qp show lists 2 sets; the port's note says 2 QPs wait, and why" \
	wait_for 20 capped
ktap_info "note: $(port_qpc note)"
# devlink: fakeroce0's instance platform/fakeroce.0, its fw reporter put in
# error through debugfs; fabteld reads the reporters every sample (0.5 s)
fw_metric() { metric "$PA" 'fabtel_devlink_reporter_healthy{device="fakeroce0",devlink="platform/fakeroce.0",reporter="fw",devlink_port=""}'; }
fw_devlink() { lab a "devlink health show platform/fakeroce.0 reporter fw -j" | jq -r '.health[][] | "\(.state) \(.error)"'; }
nic_reason() { job "$PA" 8111 '.reasons[] | select(.reason == "nic_firmware") | "\(.severity): \(.detail)"'; }
fw_failing() { # the failing reason (the error counted is a degraded one beside it)
	[[ $(fw_metric) == 0 ]] &&
		grep -qx "failing: devlink platform/fakeroce.0: fw in error (1 errors)" <<<"$(nic_reason)"
}
ktap_eq "devlink: fw healthy before (fabtel_devlink_reporter_healthy 1; devlink health show: healthy 0)" \
	"$(fw_metric) $(fw_devlink)" "1 healthy 0"
tw=$(lab a "date +%s.%N; echo error >$DBG/health/fw")	# the guest's clock, as fabteld's
ktap_check "fw put in error: fabteld says healthy 0 and job 8111 fails, reason nic_firmware naming the reporter" \
	wait_for 10 fw_failing
at=$(job "$PA" 8111 '.reasons[] | select(.reason == "nic_firmware" and .severity == "failing") | .at')
lag=$(awk -v a="$at" -v w="$tw" 'BEGIN { printf "%d", (a - w) * 1000 }')
ktap_check "... first seen $lag ms after the write (the reason's at): within 2 passes of 500 ms" \
	test "$lag" -ge 0 -a "$lag" -le 1000
ktap_info "devlink health show: $(fw_devlink); reason: $(nic_reason)"
lab a "echo clear >$DBG/health/fw"
fw_cleared() { [[ $(fw_metric) == 1 && $(nic_reason) == degraded:* && $(nic_reason) != *failing* ]]; }
ktap_check "cleared: healthy 1 again (devlink: $(fw_devlink)); the error it counted keeps nic_firmware degraded for window_s" \
	wait_for 10 fw_cleared

# ---- driver messages: the kernel log's lines in mlx5's shapes ------------------------------
# fakeroce logs them as the kernel's own records with fakeroce.0's
# dictionary (debugfs kmsg; a record userspace writes is not the kernel's);
# the text is mlx5_core's, prefix included.  The independent reader: dmesg.
M5="mlx5_core fakeroce.0"
kmsg() { lab a "printf '%s\n' $(printf '%q ' "$@") >$DBG/kmsg"; }	# LINE...: one write
dm() { # PATTERN: fakeroce0's fabtel_driver_messages_total of it, 0 absent
	local v
	v=$(api "$PA" /metrics | awk -v p="pattern=\"$1\"" '$1 ~ /^fabtel_driver_messages_total\{device="fakeroce0",/ && index($1, p) { print $2 }')
	echo "${v:-0}"
}
kern_lines() { lab a "dmesg --facility kern | grep -c -F -- '$1'"; }	# TEXT
lab a "echo $(printf '%q' "<3>$M5: poll_health:801:(pid 0): device's health compromised - reached miss count") >/dev/kmsg"
kmsg "3 $M5: poll_health:801:(pid 0): device's health compromised - reached miss count" \
	"4*3 $M5: wait_func:1186:(pid 4711): MODIFY_CQ(0x403) timeout. Will cause a leak of a command resource" \
	"6 $M5 fre0: Link down"
counted() { [[ "$(dm mlx5_health_miss) $(dm mlx5_cmd_timeout) $(dm mlx5_link_down)" == "1 3 1" ]]; }
ktap_check "mlx5 lines (1 health miss, 3 command timeouts, 1 link down) counted on fakeroce0, as dmesg's kernel facility holds them; the same line from userspace not" \
	wait_for 10 counted
ktap_info "fabteld: $(dm mlx5_health_miss) $(dm mlx5_cmd_timeout) $(dm mlx5_link_down); dmesg (kern): $(kern_lines 'health compromised') $(kern_lines 'MODIFY_CQ(0x403) timeout') $(kern_lines "$M5 fre0: Link down"); ignored: $(metric "$PA" fabtel_kmsg_ignored_total)"
ktap_eq "... dmesg --facility kern: the same 1 and 3" \
	"$(kern_lines 'health compromised') $(kern_lines 'MODIFY_CQ(0x403) timeout')" "1 3"
dm_reason() { job "$PA" 8111 '.reasons[] | select(.reason == "driver_messages") | "\(.severity) \(.device) \(.count)"'; }
dm_four() { [[ $(dm_reason) == "degraded fakeroce0 4" ]]; }
ktap_check "job 8111 (QPs on fakeroce0): reason driver_messages, degraded, device fakeroce0, the 4 error lines (link down is none)" \
	wait_for 10 dm_four
wedged_metric() { metric "$PA" 'fabtel_driver_wedged{device="fakeroce0"}'; }
wedged_reason() { job "$PA" 8111 '.reasons[] | select(.reason == "driver_wedged") | "\(.severity): \(.detail)"'; }
is_wedged() {
	[[ $(wedged_metric) == 1 &&
		$(wedged_reason) == "failing: netdev_watchdog, then soft_lockup 0 s later with mlx5_core on the stack" ]]
}
ktap_eq "not wedged yet (fabtel_driver_wedged 0)" "$(wedged_metric)" 0
tw=$(lab a "date +%s.%N")
kmsg "2 $M5 fre0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 5376 ms" \
	"3 $M5 fre0: TX timeout detected" \
	"0 watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [kworker/0:2:1234]" \
	"4 Modules linked in: mlx5_ib mlx5_core fakeroce" "4 Call Trace:" "4  <TASK>" \
	"4  mlx5e_tx_timeout_work+0x5c/0x110 [mlx5_core]" "4  process_one_work+0x1c7/0x380" "4  </TASK>"
ktap_check "TX timeout, then a soft lockup with mlx5_core on its stack: fabtel_driver_wedged 1, job 8111 failing with driver_wedged naming the shape" \
	wait_for 10 is_wedged
at=$(job "$PA" 8111 '.reasons[] | select(.reason == "driver_wedged") | .at')
lag=$(awk -v a="$at" -v w="$tw" 'BEGIN { printf "%d", (a - w) * 1000 }')
ktap_check "... the reason's at (when fabteld read the lockup) $lag ms after the write: within 2 passes of 500 ms" \
	test "$lag" -ge 0 -a "$lag" -le 1000
ktap_info "reason: $(wedged_reason)"
ev=$(api "$PA" '/api/v1/events?since=0' | jq -r '[.events[] | select(.kind == "driver_wedged") | "\(.device) \(.pattern) \(.jobs | join(","))"] | last')
ktap_eq "the event log has it: driver_wedged, fakeroce0, pattern soft_lockup, job 8111 among the jobs on the device" \
	"$(cut -d' ' -f1,2 <<<"$ev") $(grep -o 8111 <<<"$ev")" "fakeroce0 soft_lockup 8111"
ktap_info "event: $ev"
kmsg "6 $M5 fre0: Link up"
unwedged() { [[ $(wedged_metric) == 0 && -z $(wedged_reason) ]]; }
ktap_check "mlx5's Link up: not wedged (fabtel_driver_wedged 0, no driver_wedged reason)" wait_for 10 unwedged
fabteld_stop a qpc >/dev/null
jobs_end

# a flood: 100,000 lines; the console quiet, so that the guest prints none
start
pid=$(lab a "cat /tmp/qpc.pid")
usage() { lab a "awk '{ print \$14 + \$15 }' /proc/$pid/stat; awk '/^VmRSS/ { print \$2 }' /proc/$pid/status" | xargs; }
base() { echo "$(dm mlx5_cmd_timeout) $(metric "$PA" fabtel_kmsg_lost_total) $(metric "$PA" fabtel_kmsg_records_total) $(metric "$PA" 'fabtel_collector_cpu_seconds_total{source="kmsg"}')"; }
read -r c0 l0 r0 k0 <<<"$(base)"
read -r cpu0 rss0 <<<"$(usage)"
t0=$SECONDS
lab a "dmesg -n 1"
suite_on_exit lab a "dmesg -n 4"
kmsg "4*100000 $M5: wait_func:1186:(pid 4711): MODIFY_CQ(0x403) timeout. Will cause a leak of a command resource"
settled() { read -r c l r k <<<"$(base)"; ((c - c0 + l - l0 >= 100000)); }
wait_for 60 settled
read -r c l r k <<<"$(base)"
read -r cpu1 rss1 <<<"$(usage)"
ktap_check "100,000 lines: each counted or counted as lost (overwritten in the ring before read): $((c - c0)) + $((l - l0)); none made up" \
	test $((c - c0 + l - l0)) -ge 100000 -a $((c - c0)) -le 100000
ktap_info "flood: $((r - r0)) records read, $((l - l0)) lost, $((SECONDS - t0)) s; the kmsg source's CPU $(awk -v a="$k0" -v b="$k" 'BEGIN { printf "%.0f", (b - a) * 1000 }') ms, fabteld's in all $(((cpu1 - cpu0) * 10)) ms (TCG guest)"
# memory: a second flood, from the first's end (its pages, the rows, the
# events and the pages /metrics takes are all touched by then)
read -r c1 l1 r1 k1 <<<"$(base)"
kmsg "4*100000 $M5: wait_func:1186:(pid 4711): MODIFY_CQ(0x403) timeout. Will cause a leak of a command resource"
settled2() { read -r c l r k <<<"$(base)"; ((c - c1 + l - l1 >= 100000)); }
wait_for 60 settled2
read -r cpu2 rss2 <<<"$(usage)"
# no allocation per line: 200,000 lines may move fabteld's resident memory
# by a step (a page of the HTTP thread, malloc's arenas), not by a leak's
# bytes per line (2.6 at 512 KiB)
ktap_check "... two floods of 100,000: fabteld's resident memory $rss0 -> $rss1 -> $rss2 KiB, under 512 KiB more (no memory per line)" \
	test "$rss2" -le $((rss0 + 512))
lab a "dmesg -n 4"
fabteld_stop a qpc >/dev/null
start
ktap_eq "restarted: the log's old lines are not counted again (mlx5_cmd_timeout 0)" "$(dm mlx5_cmd_timeout)" 0
kmsg "4 $M5: wait_func:1186:(pid 4711): MODIFY_CQ(0x403) timeout. Will cause a leak of a command resource"
one_new() { [[ $(dm mlx5_cmd_timeout) == 1 ]]; }
ktap_check "... and a new one is, once" wait_for 10 one_new
fabteld_stop a qpc >/dev/null

ktap_end
