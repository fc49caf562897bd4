#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fabteld_sources.sh - fabteld's two port sources read from file trees
# laid out like /sys (sysfs_root): a fabtel.ko snapshot in the format
# kmod/fabtel/fabtel_sysfs.c writes (Documentation/ABI/testing/sysfs-kernel-fabtel),
# and plain /sys/class/infiniband + /sys/class/net as on a host without
# fabtel.ko.  The lab test (lab_fabteld.sh) covers the real rxe sysfs.
. "$(dirname "$0")/../lib.sh"

FABTELD=$REPO/build/asan/fabteld
[[ -x $FABTELD ]] || ktap_skip_all "build/asan/fabteld not built (make)"

ktap_begin 45
TMP=$(mktemp -d)
chmod 755 "$TMP"	# fabteld started as root reads it as nobody
trap 'kill $pid 2>/dev/null; rm -rf "$TMP"' EXIT
pid=

# ---- a fabtel.ko tree ----
K=$TMP/ko/sys/kernel/fabtel/mlx5_0/ports/1
mkdir -p "$K"
cat >"$K/snapshot" <<'SNAP'
fabtel-snapshot 1
device mlx5_0
port 1
driver mlx5
netdev ens1f0np0
samples 40
sample_errors 0
sample_ns 123456789
counter out_of_sequence 4294967301
counter nak_seq_err_rcvd 17
counter local_ack_timeout -
counter future_counter 9
link_state ACTIVE
link_carrier 1
link_carrier_up_count 3
link_carrier_down_count 2
link_flaps 2
link_transitions 4
events_seq 5
events_dropped 0
pfc supported
pfc_cap 8
pfc_enabled_mask 0x08
dcbx_mode 0x04
pfc_prio 3 1 1200 34 1 2 99
some_new_key with values
ets unsupported
raw out_of_sequence 4294967301
end
SNAP
m=$("$FABTELD" --bpf off --set sysfs_root="$TMP/ko" --once metrics 2>&1)
val() { awk -v s="$1" '$1 == s { print $2 }' <<<"$m"; }
L='device="mlx5_0",port="1",netdev="ens1f0np0"'
ktap_eq "fabtel.ko snapshot: source up" "$(val 'fabtel_source_up{source="fabtel_ko"}')" 1
ktap_eq "counters as written, 64-bit (out_of_sequence, nak_seq_err_rcvd)" \
	"$(val "fabtel_port_out_of_sequence_total{$L}") $(val "fabtel_port_nak_seq_err_rcvd_total{$L}")" \
	"4294967301 17"
ktap_eq "'-' (not sampled) and unknown names: no series, no zero" \
	"$(grep -c 'local_ack_timeout\|future_counter' <<<"$m")" 0
ktap_eq "link, flaps, PFC priority 3 (enabled, pause tx/rx, storm, storms)" \
	"$(val "fabtel_port_up{$L}") $(val "fabtel_link_flaps_total{$L}") $(val "fabtel_pfc_enabled{$L,priority=\"3\"}") $(val "fabtel_pfc_pause_tx_total{$L,priority=\"3\"}") $(val "fabtel_pfc_pause_rx_total{$L,priority=\"3\"}") $(val "fabtel_pfc_storm{$L,priority=\"3\"}") $(val "fabtel_pfc_storms_total{$L,priority=\"3\"}")" \
	"1 2 1 1200 34 1 2"
ktap_eq "sysfs on standby (not listed) while fabtel.ko is there" \
	"$(grep -c '^fabtel_source_[a-z]*{source="sysfs"' <<<"$m")" 0

# ---- a restart: the flaps and bursts fabtel.ko kept, read back at start ----
now=$(date +%s)
boot=$(awk '{ printf "%.0f", $1 * 1e9 }' /proc/uptime)	# CLOCK_BOOTTIME
mkdir -p "$K/link"
{
	echo "1000 $(((now - 200) * 1000000000)) down carrier -"
	echo "2000 $(((now - 199) * 1000000000)) up carrier 1000000000"
	echo "3000 $(((now - 100) * 1000000000)) down coalesced -"
	echo "3000 $(((now - 100) * 1000000000)) up coalesced -"
	echo "4000 $(((now - 50) * 1000000000)) down ib_event -"
	echo "5000 $(((now - 40) * 1000000000)) up ib_event 10000000000"
} >"$K/link/history"
echo "5 $((boot - 10000000000)) out_of_sequence 7" >"$K/events"
PORT=$(free_port)
"$FABTELD" --bpf off --set sysfs_root="$TMP/ko" --listen "127.0.0.1:$PORT" 2>>"$TMP/err" &
pid=$!
wait_for 20 curl -sf "http://127.0.0.1:$PORT/healthz"
ev=$(curl -sf "http://127.0.0.1:$PORT/api/v1/events")
ktap_eq "restart: the two flaps of link/history (not the ib_event pair) as restored link_flap events, at their times" \
	"$(jq -r '[.events[] | select(.kind == "link_flap") | "\(.restored)@\(.time | floor)"] | join(" ")' <<<"$ev")" \
	"true@$((now - 199)) true@$((now - 100))"
t=$(jq -r '.events[] | select(.kind == "error_burst") | "\(.restored) \(.counter) \(.time | floor)"' <<<"$ev")
ktap_check "... the burst of events as a restored error_burst naming its counter, 10 s ago by the boot clock ($t)" \
	bash -c 'n=$2; set -- $1; [[ $1 == true && $2 == out_of_sequence ]] && (($3 >= n - 12 && $3 <= n - 8))' _ "$t" "$now"
ktap_eq "... in time order, no live flap logged, and the flap count is the snapshot's" \
	"$(jq -r '[.events[] | select(.restored or .kind == "link_flap") | .kind] | join(" ")' <<<"$ev") $(curl -sf "http://127.0.0.1:$PORT/metrics" | awk '$1 ~ /^fabtel_link_flaps_total/ { print $2 }')" \
	"link_flap link_flap error_burst 2"
kill "$pid"
wait "$pid"
pid=

printf 'fabtel-snapshot 2\ndevice x\nend\n' >"$K/snapshot"
out=$("$FABTELD" --bpf off --set sysfs_root="$TMP/ko" --once snapshot 2>&1)
ktap_eq "an unknown snapshot version: fabtel_ko unavailable, says why" \
	"$(jq -r '.sources.fabtel_ko | "\(.state): \(.why)"' <<<"$out")" \
	"unavailable: $K/snapshot: not a version 1 snapshot"

# ---- a read that fails: fabtel.ko's "source" lines, fabteld's own back-off ----
KF=$TMP/kofail/sys/kernel/fabtel/mlx5_0/ports/1
mkdir -p "$KF"
cat >"$KF/snapshot" <<'SNAP'
fabtel-snapshot 1
device mlx5_0
port 1
driver mlx5
netdev ens1f0np0
counter out_of_sequence 42
pma extended
pma_counter symbol_error 5
source hw_counters ok 0 0 0
source pma unavailable -5 7 64000
source dcb unsupported 0 0 0
source phy ok 0 2 0 a_field_of_tomorrow
source gpu unavailable -5 1 1000
source module ok x 0 0
end
SNAP
m=$("$FABTELD" --bpf off --set sysfs_root="$TMP/kofail" --once metrics 2>&1)
L='device="mlx5_0",port="1",netdev="ens1f0np0"'
sv() { val "fabtel_port_source_$1{$L,source=\"$2\",reader=\"$3\"}"; }
ktap_eq "fabtel.ko's 'source pma unavailable -5 7 64000': up 0, errno 5, failures 7; hw_counters up 1" \
	"$(sv up pma fabtel.ko) $(sv errno pma fabtel.ko) $(sv failures_total pma fabtel.ko) $(sv up hw_counters fabtel.ko) $(sv failures_total phy fabtel.ko)" \
	"0 5 7 1 2"
ktap_eq "... the unavailable read's values absent (not its last ones), the others' there; no errno while ok" \
	"$(grep -c '^fabtel_port_ib_' <<<"$m") $(val "fabtel_port_out_of_sequence_total{$L}") $(grep -c '^fabtel_port_source_errno{.*source="hw_counters"' <<<"$m")" \
	"0 42 0"
ktap_eq "... unsupported (dcb), unknown (gpu) and malformed (module) lines: no series" \
	"$(grep -c '^fabtel_port_source_[a-z_]*{.*source="\(dcb\|gpu\|module\)"' <<<"$m")" 0
ktap_eq "... /api/v1/snapshot: the port's sources" \
	"$("$FABTELD" --bpf off --set sysfs_root="$TMP/kofail" --once snapshot 2>&1 | jq -r '[.ports[0].sources[] | "\(.name)/\(.reader)/\(.state)/\(.errno)/\(.failures)/\(.retry_s)"] | join(" ")')" \
	"hw_counters/fabtel.ko/ok/0/0/0 pma/fabtel.ko/unavailable/5/7/64 dcb/fabtel.ko/unsupported/0/0/0 phy/fabtel.ko/ok/0/2/0"

# plain sysfs: a hw_counters file whose read fails (a directory: EISDIR, as
# a driver's get_hw_stats failing gives EIO)
F=$TMP/fail/sys
FP=$F/class/infiniband/mlx5_0/ports/1
mkdir -p "$FP/hw_counters/out_of_sequence" "$FP/gid_attrs/ndevs" "$F/class/net/ens1f0np0"
echo Ethernet >"$FP/link_layer"
echo '4: ACTIVE' >"$FP/state"
echo ens1f0np0 >"$FP/gid_attrs/ndevs/0"
echo 9 >"$FP/hw_counters/packet_seq_err"
echo 1 >"$F/class/net/ens1f0np0/carrier"
m=$("$FABTELD" --bpf off --set sysfs_root="$TMP/fail" --once metrics 2>&1)
ktap_eq "plain sysfs, a hw_counters read failing: fabteld's up 0, errno 21 (EISDIR), failures 1; no counter of the port" \
	"$(sv up hw_counters fabteld) $(sv errno hw_counters fabteld) $(sv failures_total hw_counters fabteld) $(grep -c "^fabtel_port_[a-z_]*_total{$L}" <<<"$m")" \
	"0 21 1 0"
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
"$FABTELD" --bpf off --set sysfs_root="$TMP/fail" --interval-ms 250 \
	--listen "127.0.0.1:$PORT" 2>"$TMP/err" &
pid=$!
wait_for 20 curl -sf "$URL/healthz"
hw() { curl -sf "$URL/api/v1/snapshot" | jq -r '"\(.samples) " + ([.ports[0].sources[] | select(.name == "hw_counters") | "\(.state) \(.failures) \(.retry_s)"] | join(""))'; }
wait_for 20 eval '(( $(hw | cut -d" " -f1) >= 14 ))'
read -r n st fails retry < <(hw)
ktap_check "... backs off: $fails failed reads in $n passes of 250 ms (1 s, 2 s, ...: at most 4), retry_s $retry" \
	awk -v n="$n" -v f="$fails" -v s="$st" 'BEGIN { exit !(n >= 14 && f >= 2 && f <= 4 && s == "unavailable") }'
rmdir "$FP/hw_counters/out_of_sequence"
echo 77 >"$FP/hw_counters/out_of_sequence"
ktap_check "... the read answers again: at its next try the counter is back, up 1" \
	wait_for 10 eval '[[ $(curl -sf "$URL/metrics" | awk -v s="fabtel_port_out_of_sequence_total{$L}" '"'"'$1 == s { print $2 }'"'"') == 77 && $(hw | cut -d" " -f2) == ok ]]'
kill "$pid"
wait "$pid"
pid=

# ---- plain sysfs (no fabtel.ko) ----
S=$TMP/plain/sys
P=$S/class/infiniband/bnxt_re0/ports/1
mkdir -p "$P/hw_counters" "$P/gid_attrs/ndevs" "$S/class/net/ens2np0" \
	"$S/class/infiniband/mlx4_ib0/ports/1"
echo Ethernet >"$P/link_layer"
echo '4: ACTIVE' >"$P/state"
echo ens2np0 >"$P/gid_attrs/ndevs/0"
echo 77 >"$P/hw_counters/oos_drop_count"
echo 5 >"$P/hw_counters/to_retransmits"
echo 3 >"$P/hw_counters/some_vendor_thing"
echo 1 >"$S/class/net/ens2np0/carrier"
echo 4 >"$S/class/net/ens2np0/carrier_down_count"
echo InfiniBand >"$S/class/infiniband/mlx4_ib0/ports/1/link_layer"
m=$("$FABTELD" --bpf off --set sysfs_root="$TMP/plain" --once metrics 2>&1)
L='device="bnxt_re0",port="1",netdev="ens2np0"'
ktap_eq "plain sysfs: bnxt_re names mapped (oos_drop_count, to_retransmits), carrier, flaps" \
	"$(val 'fabtel_source_up{source="sysfs"}') $(val "fabtel_port_out_of_sequence_total{$L}") $(val "fabtel_port_local_ack_timeout_total{$L}") $(val "fabtel_port_carrier{$L}") $(val "fabtel_link_flaps_total{$L}")" \
	"1 77 5 1 4"
# fabtel.ko missing is a failure unless fabtel_ko = off; switched-off BPF
# programs are absent by design, never failed
st() { val "fabtel_source_state{source=\"$1\",state=\"$2\"}"; }
ktap_eq "source states: fabtel_ko failed (not loaded), bpf_rxe absent (bpf = off), sysfs up" \
	"$(st fabtel_ko failed) $(st bpf_rxe absent) $(st bpf_rxe failed) $(st sysfs up)" "1 1 0 1"
m2=$("$FABTELD" --bpf off --set sysfs_root="$TMP/plain" --set fabtel_ko=off --once metrics 2>&1)
ktap_eq "... with fabtel_ko = off: fabtel_ko absent, not failed" \
	"$(awk '$1 ~ /^fabtel_source_state\{source="fabtel_ko",state="(failed|absent)"\}$/ { printf "%s ", $2 }' <<<"$m2")" "0 1 "
ktap_eq "an InfiniBand port is not RoCE: not listed" "$(grep -c mlx4_ib0 <<<"$m")" 0
ktap_eq "bnxt_re has no IB port counters (no counters/): no fabtel_port_ib_ series, no zero" \
	"$(grep -c '^fabtel_port_ib_.*bnxt_re0' <<<"$m")" 0

# an mlx5 port's IB port (PMA) counters, as ib_core shows them
M=$TMP/pma/sys/class/infiniband/mlx5_0/ports/1
mkdir -p "$M/counters" "$M/hw_counters" "$M/gid_attrs/ndevs" "$TMP/pma/sys/class/net/ens1f0np0"
echo Ethernet >"$M/link_layer"
echo '4: ACTIVE' >"$M/state"
echo ens1f0np0 >"$M/gid_attrs/ndevs/0"
echo 1 >"$TMP/pma/sys/class/net/ens1f0np0/carrier"
echo 0 >"$TMP/pma/sys/class/net/ens1f0np0/carrier_down_count"
echo 3 >"$M/hw_counters/out_of_sequence"
echo 12 >"$M/counters/symbol_error"
echo 65535 >"$M/counters/port_rcv_errors"	# saturated
echo 2 >"$M/counters/link_downed"
echo 1000 >"$M/counters/port_xmit_data"	# 4-octet words
echo 250 >"$M/counters/port_rcv_data"
echo 77 >"$M/counters/port_xmit_wait"
echo '400 Gb/sec (4X NDR)' >"$M/rate"
echo 400000 >"$TMP/pma/sys/class/net/ens1f0np0/speed"
m=$("$FABTELD" --bpf off --set sysfs_root="$TMP/pma" --once metrics 2>&1)
L='device="mlx5_0",port="1",netdev="ens1f0np0"'
ktap_eq "mlx5 IB port counters: symbol_error, rcv_errors (saturated), link_downed, xmit_wait, data x4 as bytes" \
	"$(for n in symbol_error rcv_errors link_downed xmit_wait xmit_bytes rcv_bytes; do val "fabtel_port_ib_${n}_total{$L}"; done | xargs)" \
	"12 65535 2 77 4000 1000"
ktap_eq "speed: rate 400 Gb/s as bytes/s, 4 lanes, the most seen, not degraded, the netdev's 400000 Mb/s" \
	"$(for n in speed_bytes lanes speed_max_seen_bytes link_degraded netdev_speed_bytes; do val "fabtel_port_${n}{$L}"; done | xargs)" \
	"50000000000 4 50000000000 0 50000000000"
ktap_eq "... where speed and rate are unknown (bnxt_re0's tree has neither): no series" \
	"$("$FABTELD" --bpf off --set sysfs_root="$TMP/plain" --once metrics 2>&1 | grep -c '^fabtel_port_\(speed\|lanes\|netdev_speed\|link_degraded\)')" 0
ktap_eq "... and the counters the driver lacks are absent (VL15_dropped, port_xmit_packets)" \
	"$(grep -c 'fabtel_port_ib_vl15_dropped_total\|fabtel_port_ib_xmit_packets_total' <<<"$m")" 0

# ---- the daemon on the plain tree: rates, the event log, a slow source ----
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
"$FABTELD" --bpf off --set sysfs_root="$TMP/plain" --interval-ms 500 \
	--listen "127.0.0.1:$PORT" 2>"$TMP/err" &
pid=$!
snap() { curl -sf --max-time 5 "$URL/api/v1/snapshot"; }
samples() { snap | jq -r .samples; }
# wait for the sample counter to move on by n
next_samples() {
	local want=$(($(samples) + $1))
	wait_for 10 eval '(( $(samples) >= want ))'
}
ktap_check "fabteld on the plain tree serves" wait_for 20 curl -sf "$URL/healthz"
next_samples 2
# process_* against the kernel's own view of the daemon (/proc/PID)
pm=$(curl -sf "$URL/metrics")
pv() { awk -v s="$1" '$1 == s { print $2 }' <<<"$pm"; }
read -r st_start st_vsize st_rss < <(awk '{ sub(/.*\) /, ""); print $20, $21, $22 }' "/proc/$pid/stat")
btime=$(awk '$1 == "btime" { print $2 }' /proc/stat)
want_start=$(awk -v b="$btime" -v s="$st_start" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", b + s / t }')
ktap_eq "process_start_time_seconds = btime + /proc/PID/stat starttime" \
	"$(awk -v v="$(pv process_start_time_seconds)" 'BEGIN { printf "%.2f", v }')" "$want_start"
ktap_eq "process_max_fds = the daemon's RLIMIT_NOFILE (/proc/PID/limits)" \
	"$(pv process_max_fds)" "$(awk '/^Max open files/ { print $4 }' "/proc/$pid/limits")"
fds=$(ls "/proc/$pid/fd" | wc -l)
ktap_check "process_open_fds $(pv process_open_fds) within 2 of /proc/PID/fd ($fds; the scrape's socket comes and goes)" \
	awk -v a="$(pv process_open_fds)" -v b="$fds" 'BEGIN { d = a - b; exit !(a > 0 && d <= 2 && d >= -2) }'
rss_kb=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
ktap_check "process_resident_memory_bytes $(pv process_resident_memory_bytes) within 10% of VmRSS ${rss_kb} kB" \
	awk -v a="$(pv process_resident_memory_bytes)" -v b="$((rss_kb * 1024))" 'BEGIN { exit !(a > 0.9 * b && a < 1.1 * b) }'
cpu_ticks=$(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat")
ktap_check "process_cpu_seconds_total $(pv process_cpu_seconds_total) >= /proc/PID/stat utime+stime before it ($cpu_ticks ticks)" \
	awk -v a="$(pv process_cpu_seconds_total)" -v b="$cpu_ticks" -v t="$(getconf CLK_TCK)" 'BEGIN { exit !((a > 0 || b == 0) && a + 0.011 >= b / t) }' 
ktap_eq "rates of unchanged counters are a measured 0, not missing" \
	"$(snap | jq -r '.ports[0].rates | "\(.out_of_sequence) \(.local_ack_timeout)"')" "0 0"

# A known delta: the rate is the delta over the time between the port's
# readings in the pass that saw it and the pass before.  Snapshots are
# polled until the new value shows, keeping the one before; each reading
# is made within its pass, so that time is the two passes' sample_time
# difference give or take their durations (sample_seconds): a pass slowed
# after its port walk (a loaded machine) moves its sample_time, not its
# reading.  Tried again (one more 1000) when the poll missed a pass.
# All from fabteld's JSON.
rate_after_1000() {
	local v=$1 end=$((SECONDS + 10)) s1 s2
	s2=$(snap)
	echo "$((v + 1000))" >"$P/hw_counters/oos_drop_count"
	while ((SECONDS < end)); do
		s1=$s2
		s2=$(snap)
		[[ $(jq -r .ports[0].counters.out_of_sequence <<<"$s2") == $((v + 1000)) ]] && break
		sleep 0.1
	done
	jq -rn --argjson a "$s1" --argjson b "$s2" \
		'[$b.samples - $a.samples, $b.sample_time - $a.sample_time, $a.sample_seconds,
		  $b.sample_seconds, $b.ports[0].rates.out_of_sequence] | @tsv'
}
for v in 77 1077 2077; do
	read -r passes dt d1 d2 rate < <(rate_after_1000 "$v")
	((passes == 1)) && break
	ktap_info "the poll missed a pass ($passes passes apart): again"
done
ktap_info "1000 events; passes $dt s apart, they took $d1 s and $d2 s; fabteld says $rate/s"
ktap_check "rate = 1000 / the time between the readings (within the passes' durations, 5%)" \
	awk -v n="$passes" -v r="$rate" -v dt="$dt" -v d1="$d1" -v d2="$d2" \
	'BEGIN { lo = 1000 / (dt + d1); hi = 1000 / (dt - d2); exit !(n == 1 && dt > d2 && r > lo * 0.95 && r < hi * 1.05) }'

# the event log: a carrier drop, then a flap (carrier_down_count up by one)
echo 0 >"$S/class/net/ens2np0/carrier"
wait_for 10 eval '[[ $(curl -sf "$URL/api/v1/events" | jq -r "[.events[].kind] | index(\"link_down\")") != null ]]'
echo 1 >"$S/class/net/ens2np0/carrier"
echo 5 >"$S/class/net/ens2np0/carrier_down_count"
wait_for 10 eval '[[ $(curl -sf "$URL/api/v1/events" | jq -r "[.events[].kind] | index(\"link_flap\")") != null ]]'
ev=$(curl -sf "$URL/api/v1/events")
ktap_eq "events: link_down, link_up, link_flap on bnxt_re0/1, seq 1..3" \
	"$(jq -r '[.events[] | "\(.seq):\(.kind):\(.device)/\(.port)"] | join(" ")' <<<"$ev")" \
	"1:link_down:bnxt_re0/1 2:link_up:bnxt_re0/1 3:link_flap:bnxt_re0/1"
ktap_eq "events?since=2 gives only seq 3; next_seq 4" \
	"$(curl -sf "$URL/api/v1/events?since=2" | jq -r '"\([.events[].seq] | join(",")) \(.next_seq)"')" "3 4"
ktap_eq "events?since=abc and since=-1: 400" \
	"$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/events?since=abc") $(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/events?since=-1")" \
	"400 400"

# Long polls: events?since=N&wait=S answers when an event after N is logged
# (here: at the next 500 ms sample that sees the carrier drop), or after S s.
t0=$(date +%s.%N)
curl -sf --max-time 10 "$URL/api/v1/events?since=3&wait=8" >"$TMP/lp" &
lp=$!
sleep 1
echo 0 >"$S/class/net/ens2np0/carrier"
t1=$(date +%s.%N)
wait $lp
t2=$(date +%s.%N)
ktap_info "long poll: carrier dropped $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s in, answered $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", b - a }') s after the drop"
ktap_check "a parked events?since=3&wait=8 answers with seq 4 link_down within 2 s of the drop" \
	awk -v a="$t1" -v b="$t2" -v ev="$(jq -r '[.events[] | "\(.seq):\(.kind)"] | join(" ")' "$TMP/lp")" \
	'BEGIN { exit !(ev == "4:link_down" && b - a < 2) }'
echo 1 >"$S/class/net/ens2np0/carrier"
wait_for 10 eval '[[ $(curl -sf "$URL/api/v1/events?since=4" | jq -r ".events[0].kind") == link_up ]]'
t0=$(date +%s.%N)
out=$(curl -sf --max-time 10 "$URL/api/v1/events?since=5&wait=2" | jq -r '"\(.events | length) \(.next_seq)"')
t1=$(date +%s.%N)
ktap_check "with nothing new it answers after the wait (2 s): no events, next_seq 6" \
	awk -v a="$t0" -v b="$t1" -v o="$out" 'BEGIN { exit !(o == "0 6" && b - a >= 1.9 && b - a < 4) }'
t0=$(date +%s.%N)
out=$(curl -sf --max-time 10 "$URL/api/v1/events?since=1000&wait=5" | jq -r '"\(.events | length) \(.next_seq)"')
t1=$(date +%s.%N)
ktap_check "since past next_seq (another fabteld's numbers) answers at once with next_seq" \
	awk -v a="$t0" -v b="$t1" -v o="$out" 'BEGIN { exit !(o == "0 6" && b - a < 1) }'
ktap_eq "wait=31, wait=x, wait=-1: 400" \
	"$(for w in 31 x -1; do curl -s -o /dev/null -w '%{http_code} ' "$URL/api/v1/events?wait=$w"; done)" \
	"400 400 400 "
ls1=$(curl -sf "$URL/api/v1/events" | jq -r .log_started)
ktap_check "log_started is fabteld's start time (set, before its first sample)" \
	awk -v l="$ls1" -v s="$(snap | jq -r .sample_time)" 'BEGIN { exit !(l > 1e9 && l <= s) }'

# A source that blocks (a FIFO nobody writes: open() waits): the collector
# is stuck, scrapes are served from memory without waiting, /healthz says
# stale, and collection resumes once the source answers.
before=$(samples)
rm "$P/hw_counters/to_retransmits"
mkfifo "$P/hw_counters/to_retransmits"
sleep 1.5
t0=$(date +%s.%N)
code=$(curl -s -o "$TMP/m" -w '%{http_code}' --max-time 3 "$URL/metrics")
t1=$(date +%s.%N)
ktap_info "/metrics while the collector is blocked: $code in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') s"
ktap_check "scrape answers (200, <1 s) while a source blocks" \
	awk -v c="$code" -v a="$t0" -v b="$t1" 'BEGIN { exit !(c == 200 && b - a < 1) }'
stuck=$(samples)
ktap_check "/healthz 503 once the last sample is stale" \
	wait_for 10 eval '[[ $(curl -s -o /dev/null -w "%{http_code}" "$URL/healthz") == 503 ]]'
ktap_info "samples: $before before, $stuck while blocked"
# a plain file in its place, then release the reader blocked on the FIFO
mv "$P/hw_counters/to_retransmits" "$TMP/fifo"
echo 6 >"$P/hw_counters/to_retransmits"
echo 6 >"$TMP/fifo"
ktap_check "the source answers: sampling resumes, /healthz 200" \
	wait_for 10 curl -sf "$URL/healthz"
# SIGTERM with a long poll parked: fabteld answers it and exits
curl -s --max-time 20 "$URL/api/v1/events?since=$(curl -sf "$URL/api/v1/events" | jq -r '.next_seq - 1')&wait=30" >/dev/null &
lp=$!
sleep 1
kill $pid
wait $pid
ktap_eq "fabteld exits 0 on SIGTERM (a long poll parked), no sanitizer report" "$? $(grep -c 'Sanitizer' "$TMP/err")" "0 0"
wait $lp
ktap_end
