#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_cluster.sh - one job across three hosts, seen through Prometheus
# (Documentation/cluster.rst): guests a, b and c on one switch (fablab up
# --hosts 3), a fabteld on each probing the other two, a real Prometheus on
# this host scraping the three with deploy/prometheus/rules.yml, and a
# Slurm-like job 4242 (cgroup job_4242 on every host) with RC QPs between
# each two of them (qpfill: a-b, b-c, c-a).
#
#  - before any fault: the cluster view (fabtop --prometheus) lists job 4242
#    on 3 hosts with no culprit, and Prometheus itself agrees;
#  - netem loss 30 % on c's RoCE frames: once the fabtelds export the four
#    pairs through c as in trouble (their own /metrics), the cluster view
#    names fablab-c rxc port 1 as the culprit within two scrape intervals
#    (and fabtop's one refresh), as Prometheus's own fabtel:job_port_culprit
#    does; a and b have no evidence (healthy, or affected where their own
#    fabteld sees the job suffer); the probe matrix holds exactly the
#    four pairs through c, none between a and b;
#  - the same in fabtop's console under tmux: the job's row names the
#    culprit, Enter shows its page with the three hosts, q quits;
#  - loss cleared: the culprit goes within 40 s.
#
# fablab: hosts=3
# timeout: 600
. "$(dirname "$0")/lib.sh"

PROM_PORT=$(free_port)
SCRAPE_S=2
FABTOP=$REPO/build/fabtop
LABQ=${FABLAB_DIR:-$REPO/.lab}	# the lab folder, shared by the guests at the same path
QF=$REPO/build/bench/qpfill
suite_begin
ktap_begin 13

cleanup() {
	tmux -L cluster-$$ kill-server
	for h in a b c; do
		lab $h "kill \$(cat /tmp/cluster-qf-*.pid); rm -f /tmp/cluster-qf-*.pid; rmdir /sys/fs/cgroup/job_4242
			tc qdisc del dev eth0 root" >/dev/null 2>&1
	done
	rm -f "$LABQ"/cqf-*.json*
	# the next suite starts with no QP left over (an rxe QP's teardown can take 50 s)
	rdma_quiet a; rdma_quiet b; rdma_quiet c
}
suite_on_exit cleanup

declare -A PORT=([a]=$("$FABLAB" port a) [b]=$("$FABLAB" port b) [c]=$("$FABLAB" port c))
declare -A IP=([a]=10.77.0.1 [b]=10.77.0.2 [c]=10.77.0.3)
# The lab's RTT under TCG is milliseconds, tens at times: path_latency from 300 ms.
for h in a b c; do
	peers=""
	for p in a b c; do [[ $p == "$h" ]] || peers+=" --set probe_peer=${IP[$p]}:9465"; done
	fabteld_start "$h" cluster-fabteld -b off --listen 0.0.0.0:9465 --set "host_name=fablab-$h" \
		$peers --set probe_rate=20 --set probe_rtt_us=300000 --set probe_refresh_s=3
done
ktap_check "fabteld on a, b and c is ready" fabteld_ready 60 "${PORT[a]}" "${PORT[b]}" "${PORT[c]}"
peers_of() { # HOST: its rx port's peers, host/device, sorted
	api "${PORT[$1]}" /api/v1/probes |
		jq -r "[.ports[] | select(.device == \"rx$1\") | .peers[] | \"\\(.host)/\\(.device)\"] | sort | join(\" \")"
}
all_peers() {
	[[ $(peers_of a) == "fablab-b/rxb fablab-c/rxc" && $(peers_of b) == "fablab-a/rxa fablab-c/rxc" &&
	   $(peers_of c) == "fablab-a/rxa fablab-b/rxb" ]]
}
ktap_check "each prober probes the other two hosts' ports" wait_for 40 all_peers
ktap_info "peers: a: $(peers_of a); b: $(peers_of b); c: $(peers_of c)"

# job 4242: RC QPs between each two hosts, each host's in cgroup job_4242
qf() { # HOST PEER: HOST's side of the pair HOST-PEER, 2 QPs
	local n=$1$2
	[[ $1 > $2 ]] && n=$2$1
	lab "$1" "mkdir -p /sys/fs/cgroup/job_4242; sh -c 'echo \$\$ >/sys/fs/cgroup/job_4242/cgroup.procs;
		exec $QF --dev rx$1 --hold 400 --me $LABQ/cqf-$n-$1.json --peer $LABQ/cqf-$n-$2.json 2' >/tmp/cluster-qf-$2.log 2>&1 &
		echo \$! >/tmp/cluster-qf-$2.pid" >/dev/null
}
qf a b; qf b a; qf b c; qf c b; qf c a; qf a c
PROM_INTERVAL=$SCRAPE_S suite_prom "$PROM_PORT" "127.0.0.1:${PORT[a]}" "127.0.0.1:${PORT[b]}" "127.0.0.1:${PORT[c]}"
PURL=http://127.0.0.1:$PROM_PORT
pq() { # QUERY JQ: Prometheus's own answer, through jq
	curl -sf --max-time 5 "$PURL/api/v1/query" --data-urlencode "query=$1" | jq -r "$2"
}
job_hosts() { [[ $(pq 'count(fabtel:job_host{job_id="4242"})' '.data.result[0].value[1]') == 3 ]]; }
ktap_check "Prometheus scrapes a, b and c, and sees job 4242 on all three (fabtel:job_host)" \
	wait_for 90 job_hosts

# fabtop's cluster view, one frame as JSON
view() { "$FABTOP" --prometheus "$PURL" --once --json "$@" 2>>"$SUITE_DIR/fabtop.err"; }
culprit_of() { # JSON: the job's culprits as host/device/port, sorted
	jq -r '[.jobs[] | select(.job_id == "4242") | .culprits[] | "\(.host)/\(.device)/\(.port)"] | sort | join(" ")'
}
no_fault() {
	local v
	v=$(view) &&
	[[ $(jq -r '.jobs[] | select(.job_id == "4242") | "\(.hosts) \(.culprits | length)"' <<<"$v") == "3 0" &&
	   $(pq 'count(fabtel:job_port_culprit{job_id="4242"}) or vector(0)' '.data.result[0].value[1]') == 0 ]]
}
ktap_check "no fault yet: the cluster view lists job 4242 on 3 hosts, no culprit; Prometheus has none either" \
	wait_for 20 no_fault

# ---- loss on c's link --------------------------------------------------------
# The four pairs through c, as each fabteld exports them (fabtel_probe_pair_trouble
# over 0 for any kind of trouble): the independent readers of when the fault
# was there to see.
through_c() {
	local n=0 h p
	for h in a b c; do
		for p in a b c; do
			[[ $h == "$p" || ($h != c && $p != c) ]] && continue
			api "${PORT[$h]}" /metrics | grep -E "^fabtel_probe_pair_trouble\{host=\"fablab-$h\",device=\"rx$h\",[^}]*peer_host=\"fablab-$p\"" |
				awk '$2 > 0 { f = 1 } END { exit !f }' && n=$((n + 1))
		done
	done
	echo "$n"
}
"$FABLAB" impair c --roce loss 30% >/dev/null
t_imp=$(date +%s.%N)
t0=
for i in $(seq 120); do
	[[ $(through_c) == 4 ]] && { t0=$(date +%s.%N); break; }
	sleep 0.5
done
ktap_check "the fabtelds export the four pairs through c in trouble (within 60 s of the loss)" test -n "$t0"
t1=
if [[ -n $t0 ]]; then
	for i in $(seq 60); do
		v=$(view) && [[ $(culprit_of <<<"$v") == "fablab-c/rxc/1" ]] && { t1=$(date +%s.%N); break; }
		sleep 0.5
	done
fi
lag=$(awk -v a="${t0:-0}" -v b="${t1:-0}" 'BEGIN { printf "%.1f", b - a }')
ktap_info "loss set $(awk -v a="$t_imp" -v b="${t0:-0}" 'BEGIN { printf "%.1f", b - a }') s before the fabtelds showed all four pairs; the cluster view named the culprit $lag s after that (scrape and rule interval ${SCRAPE_S} s)"
# two scrape intervals, plus fabtop's own refresh and this loop's 0.5 s
in_time() { [[ -n $t1 ]] && awk -v l="$lag" -v s=$SCRAPE_S 'BEGIN { exit !(l <= 2 * s + 1.5) }'; }
ktap_check "the cluster view names fablab-c rxc/1 as job 4242's culprit within two scrape intervals (+1.5 s)" in_time
v=$(view --job 4242)
ktap_eq "Prometheus's own fabtel:job_port_culprit for job 4242 is c's instance, rxc port 1" \
	"$(pq 'fabtel:job_port_culprit{job_id="4242"}' '[.data.result[].metric | "\(.instance)/\(.device)/\(.port)"] | join(" ")')" \
	"127.0.0.1:${PORT[c]}/rxc/1"
# a and b: no evidence against them; their own fabtelds may rate the job
# degraded (their pairs to c lose): "affected", else "healthy"
hosts_seen=$(jq -r '[.job.hosts[] | "\(.host):\(.evidence):\(.role)"] | sort | join(" ")' <<<"$v")
hosts_ok() {
	[[ $hosts_seen =~ ^fablab-a:0:(healthy|affected)\ fablab-b:0:(healthy|affected)\ fablab-c:[0-9]+:culprit$ ]]
}
ktap_check "the job's page: 3 hosts; a and b with no evidence (healthy or affected), c the culprit ($hosts_seen)" hosts_ok
ktap_eq "the probe matrix: exactly the four pairs through c lose, none between a and b" \
	"$(jq -r '[.job.pairs[] | "\(.host)>\(.peer_host)"] | sort | join(" ")' <<<"$v")" \
	"fablab-a>fablab-c fablab-b>fablab-c fablab-c>fablab-a fablab-c>fablab-b"
ktap_info "job page: $(jq -c '{hosts: [.job.hosts[] | {host, verdict, evidence, culprit}], pairs: (.job.pairs | length), queries: .queries, query_ms: .query_ms}' <<<"$v" 2>&1 | head -c 600)"

# ---- the console, under tmux ------------------------------------------------------
TM="tmux -L cluster-$$"
$TM new-session -d -x 160 -y 40 "$FABTOP --prometheus $PURL -d 1"
screen() { $TM capture-pane -p -t 0; }
row_names_c() { screen | grep -E '^ *4242 ' | grep -q 'fablab-c rxc/1'; }
ktap_check "fabtop's cluster view in tmux: job 4242's row names fablab-c rxc/1" wait_for 20 row_names_c
$TM send-keys -t 0 Enter
page_hosts() { local s; s=$(screen); grep -q fablab-a <<<"$s" && grep -q fablab-b <<<"$s" && grep -q fablab-c <<<"$s"; }
ktap_check "Enter: the job's page lists fablab-a, fablab-b and fablab-c" wait_for 10 page_hosts
ktap_info "$(screen | sed -n '1,16p')"
$TM send-keys -t 0 q
$TM send-keys -t 0 q
gone() { ! $TM has-session -t 0 2>/dev/null; }
ktap_check "q quits it" wait_for 5 gone

# ---- the loss gone ----------------------------------------------------------------
"$FABLAB" impair c clear >/dev/null
no_culprit() { local v; v=$(view) && [[ -z $(culprit_of <<<"$v") ]]; }
ktap_check "loss cleared: no culprit for job 4242 within 40 s" wait_for 40 no_culprit
[[ -s $SUITE_DIR/fabtop.err ]] && ktap_info "fabtop said: $(sort -u "$SUITE_DIR/fabtop.err" | head -5)"
ktap_end
