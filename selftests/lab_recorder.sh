#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_recorder.sh - fabtel.ko's flight records through fabteld
# (Documentation/recorder.rst), on guest a with fakeroce0 (mlx5) under
# fabtel.ko at 100 ms samples and a job with QPs on it:
#  - a clean port: no link_degrading;
#  - FEC corrected blocks and bits and PMA symbol errors climb (fakeroce's
#    debugfs ramp) for 3 s, then the carrier drops for 300 ms:
#    link_degrading is the job's reason before the drop; the record fabteld
#    serves equals the kernel's record file (scripts/lab/record-dump), its
#    climb is at the rates written; the link's events link to it;
#  - record_dir holds it once, owned by fabteld's user; a restarted fabteld
#    serves it again, once; link_degrading clears once the climb stops;
#  - bad record paths get 400/404;
#  - recent_fault: the flap leaves fakeroce0 recent_fault (metrics, fabtop);
#    an ack from another host without auth is refused (403), one from the
#    host clears it at once; a restarted fabteld has it again (from
#    fabtel.ko's link history); with recent_fault_s 5, a flap's
#    recent_fault ends by itself;
#  - actions: deploy/actions/slurm-node against a stub scontrol on PATH
#    (selftests/tools/scontrol-stub, which records its arguments): ten flaps
#    in a row are one drain, the resume comes after the hold; a job name
#    full of shell metacharacters reaches scontrol as one argument and runs
#    nothing; the audit log has each run; a dry run runs nothing.
. "$(dirname "$0")/lib.sh"

suite_begin
ktap_begin 28

DBG=/sys/kernel/debug/fakeroce/0
FT=/sys/kernel/fabtel/fakeroce0/ports/1
RD=/tmp/fabtel-records
PA=$("$FABLAB" port a)
JOB=8201
AD=/tmp/fabtel-act

T="tmux -L fabtop-rec -f /dev/null"
cleanup() {
	lab a "$T kill-server" >/dev/null 2>&1
	lab a "echo off >$DBG/ramp; echo 0 >$DBG/qps; [[ -f /tmp/rec-job.pid ]] && kill \$(cat /tmp/rec-job.pid)
		rm -f /tmp/rec-job.pid; sleep 0.3; rmmod fabtel fakeroce; rmdir /sys/fs/cgroup/job_$JOB
		rm -rf $RD $AD" >/dev/null 2>&1
}
suite_on_exit cleanup

ktap_check "fakeroce0 (mlx5) on guest a, fabtel.ko at 100 ms samples, FEC and PMA every 500 ms" \
	lab a "rmmod fabtel fakeroce 2>/dev/null; modprobe ib_core; insmod $KMOD/fakeroce.ko &&
		echo '0 mlx5' >/sys/kernel/fakeroce/new_device && ip link set fre0 up &&
		insmod $KMOD/fabtel.ko sample_ms=100 slow_ms=500 record_after_ms=1000"
# job 8201's process holds 4 QPs on fakeroce0
lab a "mkdir -p /sys/fs/cgroup/job_$JOB; bash -c 'echo \$\$ >/sys/fs/cgroup/job_$JOB/cgroup.procs &&
	echo 4 >$DBG/qps && exec sleep 3600' >/dev/null 2>&1 & echo \$! >/tmp/rec-job.pid"
start() { # [SETTINGS...]
	fabteld_start a rec --listen 0.0.0.0:9465 --set bpf=off --set interval_ms=500 \
		--set window_s=20 --set record_dir=$RD "$@"
	fabteld_ready 30 "$PA"
}
start --set recent_fault_s=600
job_seen() { [[ -n $(job "$PA" $JOB .verdict) ]]; }
wait_for 15 job_seen
degrading() { metric "$PA" 'fabtel_port_link_degrading{device="fakeroce0",port="1",netdev="fre0"}'; }
sleep 4	# a trend of the whole window
ktap_eq "a clean port: link_degrading 0, job $JOB healthy, no record" \
	"$(degrading) $(job "$PA" $JOB .verdict) $(api "$PA" /api/v1/records | jq '.records | length')" \
	"0 healthy 0"

# ---- the climb, then the drop ----------------------------------------------------------
# 300000 corrected bits a second are 3000 ppb of 100 Gb/s (degrading_fec_ppb
# 1000); 100 symbol errors a second (degrading_symbols 10)
lab a "echo 'fec/corrected_blocks 100000' >$DBG/ramp; echo 'fec/corrected_bits 300000' >$DBG/ramp
	echo 'pma/symbol_error 100' >$DBG/ramp"
t0=$SECONDS
t_raise="" last="" seen=""
while ((SECONDS - t0 < 3)); do
	r=$(job "$PA" $JOB '[.reasons[] | select(.reason == "link_degrading") | .detail] | first // empty')
	[[ -n $r && -z $t_raise ]] && t_raise=$((SECONDS - t0))
	[[ -n $r ]] && last=$r && seen+="$r|"
	sleep 0.1
done
lab a "echo 0 >$DBG/carrier; sleep 0.3; echo 1 >$DBG/carrier; cat $DBG/ramp >/tmp/rec-ramps; echo off >$DBG/ramp"
speed=$(lab a "cat /sys/class/net/fre0/speed")
ktap_check "link_degrading raised within the 3 s climb, before the drop (first at ~${t_raise:-never} s), for FEC and for symbol errors; last: $last (fre0's speed $speed)" \
	bash -c 'grep -q "FEC corrected bits [0-9.e+]* ppb of $2 Mb/s" <<<"$1" && grep -q "symbol errors [0-9.e+]*/s" <<<"$1"' _ "$seen" "$speed"
rec_listed() { [[ $(api "$PA" /api/v1/records | jq '[.records[] | select(.device == "fakeroce0" and .seq == 1)] | length') == 1 ]]; }
ktap_check "fabteld read record 1 of fakeroce0/1 (recorder_seq rose)" wait_for 15 rec_listed
api "$PA" /api/v1/records/fakeroce0/1/1 >"$SUITE_DIR/rec.json"
lab a "$REPO/scripts/lab/record-dump $FT/recorder/record0" >"$SUITE_DIR/rec-ko.txt"
# the kernel's file and fabteld's JSON: header and every FEC and PMA rise
ko_sums=$(awk '$1 == "s" { if (int($4 / 16) % 2) f += $5; if (int($4 / 32) % 2) y += $7; n++ }
	END { print n, f, y }' "$SUITE_DIR/rec-ko.txt")
api_sums=$(jq -r '[.samples, ([.signals.fec_corrected // [] | .[] | select(. != null)] | add // 0),
	([.signals.symbol_error // [] | .[] | select(. != null)] | add // 0)] | map(tostring) | join(" ")' "$SUITE_DIR/rec.json")
ktap_eq "record 1 as fabteld serves it = the kernel's record file (samples, FEC corrected, symbol errors summed)" \
	"$api_sums" "$ko_sums"
ktap_info "kernel: $(sed -n 's/^h //p' "$SUITE_DIR/rec-ko.txt")"
# the climb's rate from fabteld's record: reads after the first rise, up to the trigger
rate() { # SIGNAL
	jq -r --arg s "$1" '[range(0; .samples) as $i | {t: .t_ms[$i], v: .signals[$s][$i]}
		| select(.v != null and .t <= 0)] as $r
		| ([$r | to_entries[] | select(.value.v > 0) | .key] | first) as $k
		| $r[$k:] as $w | if ($w | length) < 2 then "none" else
		((([$w[1:][] | .v] | add) / (($w[-1].t - $w[0].t) / 1000)) | round | tostring) end' "$SUITE_DIR/rec.json"
}
fec=$(rate fec_corrected) sym=$(rate symbol_error)
ktap_check "the climb in fabteld's record: FEC corrected $fec/s (100000 written), symbol errors $sym/s (100 written), each within 15 %" \
	awk -v a="$fec" -v b="$sym" 'BEGIN { exit !(a >= 85000 && a <= 115000 && b >= 85 && b <= 115) }'
ktap_eq "its trigger carrier, the carrier down at the trigger's sample and up again" \
	"$(jq -r '"\(.trigger) \(.carrier[.trigger_index]) \(.carrier[.trigger_index - 1]) \(.carrier[-1])"' "$SUITE_DIR/rec.json")" \
	"carrier 0 1 1"
ev_link() { api "$PA" /api/v1/events | jq -r '[.events[] | select(.device == "fakeroce0" and
	(.kind == "link_down" or .kind == "link_flap")) | "\(.kind)=\(.record // "none")"] | join(" ")'; }
evs=$(ev_link)
url=$(api "$PA" /api/v1/records | jq -r '.records[] | select(.device == "fakeroce0" and .seq == 1) | .url')
unlinked=$(tr ' ' '\n' <<<"$evs" | sed 's/^[a-z_]*=//' | grep -cvxF "$url")
ktap_check "the drop's events link to it ($url): $evs" \
	test -n "$evs" -a "$unlinked" = 0 -a "${url%%\?at=*}" = /api/v1/records/fakeroce0/1/1

trace_sums() { # the job's trace: the record's span, its FEC track summed, its carrier track's lowest
	api "$PA" /api/v1/jobs/$JOB/trace | jq -r '[([.traceEvents[] | select(.ph == "X" and .name == "flight record 1")] | length),
		([.traceEvents[] | select(.ph == "C" and .name == "fakeroce0/1 record fec_corrected") | .args.fec_corrected] | add),
		([.traceEvents[] | select(.ph == "C" and .name == "fakeroce0/1 record carrier") | .args.carrier] | min)] | map(tostring) | join(" ")'
}
ktap_eq "job $JOB's trace export: the record's span, its FEC corrected counter track summing as the kernel's file, its carrier track down to 0" \
	"$(trace_sums)" "1 $(cut -d' ' -f2 <<<"$ko_sums") 0"

# fabtop in tmux on a: Tab to Events, the link_flap row (filtered), r opens its record
lab a "TERM=xterm-256color $T new-session -d -c /tmp -x 200 -y 50 '$REPO/build/fabtop -d 1'" >/dev/null
cap() { lab a "$T capture-pane -p"; }
cap_has() { cap | grep -qE "$1"; }
wait_for 20 cap_has 'link_flap .*\[record 1\]'
ktap_check "fabtop: the NICs pane shows fakeroce0/1 recent (the flap is over, its port marked)" \
	cap_has '^fakeroce0/1 .*recent'
rf() { metric "$PA" 'fabtel_port_recent_fault{device="fakeroce0",port="1",netdev="fre0"}'; }
lastf=$(api "$PA" /metrics | awk '$1 ~ /^fabtel_port_last_fault_timestamp_seconds\{device="fakeroce0"/ { print $1 }' | sed 's/.*fault="\([a-z_]*\)".*/\1/')
ktap_eq "the flap left fakeroce0/1 recent_fault 1 (last fault: $lastf)" \
	"$(rf) $([[ $lastf == link_flap || $lastf == link_down ]] && echo known)" "1 known"
ack_code() { curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$PA/api/v1/ack?device=fakeroce0&port=1"; }
ktap_eq "POST /api/v1/ack from the host through the lab's port forward (not loopback, no auth): 403, still recent" \
	"$(ack_code) $(rf)" "403 1"
# fabtop on a is on loopback: a on the NICs pane's first row (fakeroce0/1)
lab a "$T send-keys Home a" >/dev/null
wait_for 10 cap_has 'fakeroce0/1 acknowledged: 1 recent fault cleared'
ktap_check "fabtop: a on fakeroce0/1 acknowledged it (its notice says 1 cleared): recent_fault 0" \
	test "$(rf)" = 0
lab a "$T send-keys Tab Tab; sleep 0.5; $T send-keys / l i n k _ f l a p Enter; sleep 0.5; $T send-keys r" >/dev/null
wait_for 10 cap_has '^Flight record 1 of fakeroce0/1'
screen=$(cap)
ktap_info "$(grep -E '^(Flight|  carrier|  fec_corrected|  symbol_error|  trigger)' <<<"$screen" | cut -c1-150 | tr '\n' '|')"
ktap_check "fabtop: r on the link_flap event opens record 1: its carrier row goes down, FEC corrected and symbol errors plotted, the trigger marked" \
	bash -c 'grep -qE "^Flight record 1 of fakeroce0/1: carrier at" <<<"$1" &&
		grep -qE "^  carrier +up/down  =+_+=+" <<<"$1" &&
		grep -qE "^  fec_corrected +[0-9]+  .*#" <<<"$1" &&
		grep -qE "^  symbol_error +[0-9]+  .*#" <<<"$1" && grep -qE "^  trigger +\^?.*\^" <<<"$1"' _ "$screen"
lab a "$T send-keys Escape q" >/dev/null

# ---- recent_fault, acknowledged from the guest with curl -----------------------------
acked=$(lab a "curl -s -X POST 'http://127.0.0.1:9465/api/v1/ack?device=fakeroce0'")
ktap_eq "curl on a (loopback): POST /api/v1/ack?device=fakeroce0 answers $acked (fabtop cleared it), acked_by localhost, still 0" \
	"$(jq -r .cleared <<<"$acked") $(rf) $(api "$PA" /api/v1/snapshot | jq -r '.ports[] | select(.device == "fakeroce0") | .recent_fault.acked_by')" \
	"0 0 localhost"

# ---- record_dir, and a restart ----------------------------------------------------------
files=$(lab a "cd $RD && for f in *.ftr; do echo \"\$f \$(stat -c %U \$f)\"; done")
ktap_check "record_dir holds it once, owned by fabteld's user (nobody): $files" \
	grep -qxE "fakeroce0-1-[0-9]+-1\.ftr nobody" <<<"$files"
fabteld_stop a rec >/dev/null
start
ktap_eq "restarted: the record served again once (loaded from record_dir, fabtel.ko's copy not added twice), one file" \
	"$(api "$PA" /api/v1/records | jq -r '"\([.records[] | select(.device == "fakeroce0")] | length) \(.loaded)"') $(lab a "ls $RD | grep -c 'ftr$'")" \
	"1 1 1"
rf_back() { [[ $(rf) == 1 ]]; }
wait_for 10 rf_back
ktap_eq "restarted: fakeroce0/1 is recent_fault again, its flap read back from fabtel.ko's link history (the ack before is not kept)" \
	"$(rf) $(api "$PA" /api/v1/snapshot | jq -r '.ports[] | select(.device == "fakeroce0") | .recent_fault.fault')" \
	"1 link_flap"
ktap_eq "... the same record: FEC corrected summed as before" \
	"$(api "$PA" /api/v1/records/fakeroce0/1/1 | jq -r '[.signals.fec_corrected[] | select(. != null)] | add')" \
	"$(cut -d' ' -f2 <<<"$ko_sums")"
clear() { [[ $(degrading) == 0 ]]; }
ktap_check "link_degrading 0 again once the climb stopped (still for twice its last step)" wait_for 15 clear

# with recent_fault_s 5, a 300 ms flap's recent_fault ends by itself
fabteld_stop a rec >/dev/null
start --set recent_fault_s=5
lab a "echo 0 >$DBG/carrier; sleep 0.3; echo 1 >$DBG/carrier"
recent() { [[ $(rf) == 1 ]]; }
wait_for 10 recent
t_up=$SECONDS
back() { [[ $(rf) == 0 ]]; }
wait_for 20 back
ktap_check "recent_fault_s 5: a flap's recent_fault came and ended by itself after $((SECONDS - t_up)) s (4-8 s at 0.5 s passes)" \
	test $((SECONDS - t_up)) -ge 3 -a $((SECONDS - t_up)) -le 9

# ---- bad input ----------------------------------------------------------------------------
code() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PA$1"; }
ktap_eq "bad record paths: unknown seq 404, no port 400, port 0 400, seq -1 400, at=abc 400, at of none 404" \
	"$(code /api/v1/records/fakeroce0/1/99) $(code /api/v1/records/fakeroce0) $(code /api/v1/records/fakeroce0/0/1) $(code /api/v1/records/fakeroce0/1/-1) $(code '/api/v1/records/fakeroce0/1/1?at=abc') $(code '/api/v1/records/fakeroce0/1/1?at=5')" \
	"404 400 400 400 400 404"

# ---- actions: the Slurm example, a stub scontrol on PATH --------------------------------
fabteld_stop a rec >/dev/null
# a job name runs nothing: no '/' in a job name, so the file it would make comes from PWN
EVIL='x;$(touch${IFS}$PWN)`touch${IFS}$PWN`&'
lab a "rm -rf $AD; mkdir -p $AD/bin && cp $REPO/selftests/tools/scontrol-stub $AD/bin/scontrol &&
	chmod 777 $AD" >/dev/null
cat >"$SUITE_DIR/act.conf" <<EOF
job = $EVIL=*job_$JOB
action_node_failing = $REPO/deploy/actions/slurm-node
action_node_healthy = $REPO/deploy/actions/slurm-node
action_log = $AD/audit.log
recent_fault_s = 5
hold_s = 5
action_rate_s = 2
EOF
calls() { lab a "cat $AD/calls 2>/dev/null"; }
act_start() { # SETTINGS...
	FABTELD="env PATH=$AD/bin:/usr/sbin:/usr/bin:/sbin:/bin PWN=$AD/pwned $FABTELD" fabteld_start a act \
		--config="$SUITE_DIR/act.conf" --listen 0.0.0.0:9465 --set bpf=off \
		--set interval_ms=500 --set window_s=20 --set record_dir=$RD "$@"
	fabteld_ready 30 "$PA"
}
act_start
ktap_info "$(lab a "head -3 /tmp/act.log")"
sleep 2	# a few samples: the node healthy (its resume at start waits 60 s, so none)
lab a "for i in \$(seq 10); do echo 0 >$DBG/carrier; sleep 0.3; echo 1 >$DBG/carrier; sleep 0.5; done" >/dev/null
t_last=$SECONDS
resumed() { calls | grep -qx 'state=resume'; }
wait_for 30 resumed
t_res=$((SECONDS - t_last))
sleep 2
c=$(calls)
ktap_info "scontrol calls: $(tr '\n' ' ' <<<"$c" | sed 's/ end call / | /g')"
ktap_eq "10 flaps in a row: scontrol drained fakeroce's node once, resumed it once, in that order" \
	"$(grep -xE 'state=(drain|resume)' <<<"$c" | tr '\n' ' ')" "state=drain state=resume "
ktap_check "the resume came after the hold (recent_fault_s, hold_s 5) ran out: $t_res s after the last flap (4-15 s at 0.5 s passes)" \
	test "$t_res" -ge 4 -a "$t_res" -le 15
reason=$(grep -m1 '^reason=' <<<"$c")
ktap_info "$reason"
# shellcheck disable=SC2016
ktap_check "the drain's reason names the fault and port, and job '$EVIL' arrives as one argument, verbatim" \
	bash -c 're="^reason=fabtel: link_(flap|down) on fakeroce0/1 \\(fre0\\) at [0-9T:-]+Z; jobs: (.*)\$"
		[[ $1 =~ $re ]] && [[ ${BASH_REMATCH[2]} == "$2" ]]' _ "$reason" "$EVIL"
ktap_eq "... and ran nothing: no $AD/pwned" "$(lab a "test -e $AD/pwned && echo there || echo absent")" "absent"
audit=$(lab a "cat $AD/audit.log")
ktap_eq "the audit log: the node failing, then healthy again, each ran and exited 0" \
	"$(jq -r '"\(.event) \(.outcome) \(.exit)"' <<<"$audit" | tr '\n' ' ')" \
	"failing ran 0 healthy ran 0 "
fabteld_stop a act >/dev/null
ndrain=$(grep -cx 'state=drain' <<<"$c")
act_start --set action_dry_run=1
lab a "echo 0 >$DBG/carrier; sleep 0.3; echo 1 >$DBG/carrier" >/dev/null
dry() { lab a "tail -1 $AD/audit.log" | jq -e 'select(.event == "failing" and .outcome == "dry_run")' >/dev/null; }
wait_for 15 dry
ktap_eq "action_dry_run 1: a flap is audited as a dry run of slurm-node, scontrol not called again" \
	"$(lab a "tail -1 $AD/audit.log" | jq -r '"\(.event) \(.outcome) \(.command[0])"') $(calls | grep -cx 'state=drain')" \
	"failing dry_run $REPO/deploy/actions/slurm-node $ndrain"

ktap_end
