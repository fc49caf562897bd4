#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_fabteld_restart.sh - fabteld across the things that happen to it on a
# production host (issue [2/8] items 3, 6, 10), on guest a with a job moving
# traffic on rxa/1 and a real Prometheus on this host scraping every second:
#  - fabtel.ko unloaded and loaded again under fabteld (its port source goes
#    to plain sysfs, whose flap count includes the down at device setup, and
#    back): no link_flap event, Prometheus sees no flap increase and no
#    counter reset, and the job's verdict never leaves healthy;
#  - fabteld killed with SIGKILL three times and started again: `tc filter
#    show` lists one wire filter each way on eth0, not four;
#  - a 2 s flap makes the job failing; fabteld restarted (SIGTERM, start):
#    the flap is back in its event log, restored, with the time fabtel.ko
#    recorded, and the job is failing again, not healthy.
. "$(dirname "$0")/lib.sh"

TRAFFIC=$REPO/build/fabtel-traffic
PROM_PORT=${PROM_PORT:-19091}
suite_begin

ktap_begin 12

# fabteld and Prometheus stop at exit (lib.sh, suite_cleanup); then, by
# pid, the client on a and the server on b; then fabtel.ko
cleanup() {
	stop_pids a restart-cli
	stop_pids b restart-srv
	lab a 'rmmod fabtel' >/dev/null 2>&1
}
suite_on_exit cleanup

PA=$("$FABLAB" port a)
verdict() { api "$PA" /api/v1/jobs | jq -r '.jobs[] | select(.job_id == "4242") | .verdict'; }
verdict_is() { [[ $(verdict) == "$1" ]]; }	# VERDICT (for wait_for)
fabteld_up() { # fabteld on a (its pid in /tmp/restart-fabteld.pid), once it samples
	fabteld_start a restart-fabteld --listen 0.0.0.0:9465 --set window_s=10 --set hold_s=120
	fabteld_ready 30 "$PA"
}
flaps() { metric "$PA" 'fabtel_link_flaps_total{device="rxa",port="1",netdev="eth0"}'; }

lab a "rmmod fabtel 2>/dev/null; insmod $REPO/kmod/fabtel.ko $KO_FAST"
fabteld_up
ktap_eq "fabteld on a, its ports from fabtel.ko" \
	"$(metric "$PA" 'fabtel_source_up{source="fabtel_ko"}')" 1

suite_prom "$PROM_PORT" "127.0.0.1:$PA"
wait_for 60 bash -c "[[ \$(curl -sf 'http://127.0.0.1:$PROM_PORT/api/v1/query?query=up' | jq -r '.data.result[0].value[1]') == 1 ]]"

lab b "$TRAFFIC --server --forever --cgroup /sys/fs/cgroup/job_4242 >/tmp/srv.log 2>&1 &
	echo \$! >/tmp/restart-srv.pid
	for i in \$(seq 100); do rdma res show cm_id | grep -q ':18600' && exit 0; sleep 0.2; done; exit 1"
# a light job: module load and unload stall a TCG guest's CPUs long enough
# for rxe to time out ACKs of WRITEs in flight, real ACK timeouts (rxe counts
# them) that would make a busy job degraded whatever fabteld does
lab a "$TRAFFIC 10.77.0.2 --duration 400 --rate 2 --timeout 16 --size 4096 \
	--cgroup /sys/fs/cgroup/job_4242 >/tmp/cli.log 2>&1 & echo \$! >/tmp/restart-cli.pid"
ktap_check "job 4242 seen, healthy, on rxa/1" wait_for 30 verdict_is healthy

# ---- fabtel.ko unloaded and loaded under fabteld ------------------------------------
sleep 3
seq0=$(api "$PA" /api/v1/events | jq -r .next_seq)
f0=$(flaps)
# what the job's verdict and reasons were, every 0.3 s, while the module goes and comes
( while :; do
	api "$PA" /api/v1/jobs | jq -c '.jobs[] | select(.job_id == "4242") | [.verdict, .reasons]'
	sleep 0.3
done ) >"$SUITE_DIR/verdicts" 2>/dev/null &
vpid=$!
lab a 'rmmod fabtel'
wait_for 10 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/metrics | awk '\$1 == \"fabtel_source_up{source=\\\"sysfs\\\"}\" { print \$2 }') == 1 ]]"
sleep 3
lab a "insmod $REPO/kmod/fabtel.ko $KO_FAST"
wait_for 10 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/metrics | awk '\$1 == \"fabtel_source_up{source=\\\"fabtel_ko\\\"}\" { print \$2 }') == 1 ]]"
sleep 4	# Prometheus scrapes a few times after the switch back
kill "$vpid"
ktap_info "verdicts other than healthy meanwhile: $(grep -v '^\["healthy"' "$SUITE_DIR/verdicts" | sort | uniq -c)"
ktap_eq "fabtel.ko out and in: no link_flap event, the flap count as before ($f0)" \
	"$(api "$PA" "/api/v1/events?since=$((seq0 - 1))" | jq -r '[.events[] | select(.kind == "link_flap")] | length') $(flaps)" \
	"0 $f0"
ktap_eq "Prometheus: increase and resets of fabtel_link_flaps_total over the last 30 s both 0" \
	"$(prom 'sum(increase(fabtel_link_flaps_total{device="rxa"}[30s]))') $(prom 'sum(resets(fabtel_link_flaps_total{device="rxa"}[30s]))')" \
	"0 0"
ktap_eq "Prometheus: job 4242's verdict never left healthy (max over 30 s); no link_flap reason in between" \
	"$(prom 'max_over_time(fabtel_job_verdict{job_id="4242"}[30s])') $(grep -c link_flap "$SUITE_DIR/verdicts")" "0 0"
ktap_eq "... and FabtelLinkFlap is not firing" \
	"$(prom 'count(ALERTS{alertname="FabtelLinkFlap"})')" ""

# ---- SIGKILL three times ----------------------------------------------------------
for i in 1 2 3; do
	lab a 'kill -9 $(cat /tmp/restart-fabteld.pid)'
	sleep 0.5
	fabteld_up
done
wire() { # DIR: fabteld's wire filters on eth0 that way (tc's own listing)
	lab a "tc filter show dev eth0 $1 | grep -c 'wire_$1'"
}
ktap_eq "three SIGKILLs, a fourth start: tc lists one wire filter each way on eth0" \
	"$(wire ingress) $(wire egress)" "1 1"
lab a 'kill -TERM $(cat /tmp/restart-fabteld.pid)'
sleep 2
ktap_eq "then SIGTERM: none left" "$(wire ingress) $(wire egress)" "0 0"
fabteld_up

# ---- a flap, then a restart ---------------------------------------------------------
"$FABLAB" flap a --down-ms 2000 >/dev/null
ktap_check "a 2 s flap: job 4242 failing" wait_for 20 verdict_is failing
hist=$(lab a 'tail -1 /sys/kernel/fabtel/rxa/ports/1/link/history')
lab a 'kill -TERM $(cat /tmp/restart-fabteld.pid)'
sleep 2
fabteld_up
ev=$(api "$PA" /api/v1/events)
ktap_info "fabtel.ko's last transition: $hist"
ktap_eq "restarted: the flap is in the new log, restored, at fabtel.ko's time (s)" \
	"$(jq -r '[.events[] | select(.kind == "link_flap" and .restored)] | last | "\(.device)/\(.port) \(.time | floor)"' <<<"$ev")" \
	"rxa/1 $(awk '{ print int($2 / 1e9) }' <<<"$hist")"
ktap_check "... and job 4242 is failing again (was healthy after a restart before)" \
	wait_for 20 verdict_is failing
ktap_eq "... reason link_flap on rxa/1" \
	"$(api "$PA" /api/v1/jobs | jq -r '.jobs[] | select(.job_id == "4242") | .culprit | "\(.reason) \(.device) \(.port)"')" \
	"link_flap rxa 1"
ktap_end
