#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_fabteld_link.sh - fabteld on guest a with fabtel.ko and a fakeroce
# mlx5 port (the link layer Soft-RoCE cannot show), scraped by a real
# Prometheus on this host:
#
#  - fabtel.ko loaded under a running fabteld: it switches to the module's
#    snapshots (sysfs on standby), rxa's counters equal the module's; a
#    fakeroce mlx5 port appears (event port_added); a PFC pause storm on it
#    shows as fabtel_pfc_storm, as events, as a pause rate matching the
#    module's counter, and fires FabtelPauseStorm; pause durations and PHY
#    errors equal ethtool -S;
#  - a job (job_7070) holding 4 fakeroce QPs (rdma res show qp) gets
#    link_degraded (400G -> 200G; the link modes = ethtool's lists),
#    link_errors (FEC = ethtool --show-fec), optics (= ethtool -m, from
#    fabtel.ko's module pages) and misconfigured (= iproute2 dcb, fabtel.ko's
#    dscp_map) as degraded reasons on fakeroce0/1 (an offloading NIC: never
#    "idle"), each in fabtop's ISSUES too, and each alert fires;
#  - the IB port counters equal ib_core's counters/ files in both source
#    modes; rdma_cm's configfs ToS is used without roce_tos; unloading the
#    modules brings sysfs back.
. "$(dirname "$0")/lib.sh"

PROM_PORT=${PROM_PORT:-19090}
suite_begin

ktap_begin 50

# fabteld and Prometheus stop at exit (lib.sh, suite_cleanup); then job
# 7070's process (by its pid), the fakeroce device, the modules
cleanup() {
	stop_pids a link-job
	lab a "echo 0 >/sys/kernel/fakeroce/del_device; rmmod fabtel fakeroce" >/dev/null 2>&1
}
suite_on_exit cleanup

PA=$("$FABLAB" port a)

# ---- fabteld on a, from plain sysfs; Prometheus on this host -------------------------
lab a 'rmmod fabtel fakeroce' >/dev/null 2>&1
fabteld_start a link-fabteld --listen 0.0.0.0:9465 --set window_s=10 --set hold_s=120 --set roce_tos=106
ktap_check "fabteld is ready (/-/ready) on a through the forwarded port" \
	fabteld_ready 30 "$PA"
suite_prom "$PROM_PORT" "127.0.0.1:$PA"
ktap_check "Prometheus is up and scrapes a" \
	wait_for 60 bash -c "[[ \$(curl -sf 'http://127.0.0.1:$PROM_PORT/api/v1/query?query=count(up==1)' | jq -r '.data.result[0].value[1]') == 1 ]]"

# ---- fabtel.ko and a fakeroce port under the running fabteld (a) ----------------------
FT=/sys/kernel/fabtel
D=/sys/kernel/debug/fakeroce/0/dcb
FR_IB=/sys/class/infiniband/fakeroce0/ports/1
L='device="fakeroce0",port="1",netdev="fre0"'
events() { api "$PA" /api/v1/events | jq -r "$1"; }
lab a "modprobe ib_core && insmod $REPO/kmod/fabtel.ko $KO_FAST && insmod $REPO/kmod/fakeroce.ko &&
	echo 100 >/sys/module/fabtel/parameters/storm_ms && echo 1000 >/sys/module/fabtel/parameters/module_ms &&
	echo '0 mlx5' >/sys/kernel/fakeroce/new_device && echo 100 >/sys/kernel/debug/fakeroce/0/lane_gbps &&
	ip link set fre0 up" >/dev/null
ktap_check "fabtel.ko loaded: fabteld reads its snapshots, sysfs on standby" \
	wait_for 15 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/snapshot | jq -r '.sources | \"\\(.fabtel_ko.state) \\(.sysfs.state)\"') == 'up standby' ]]"
# fabteld samples each second, fabtel.ko each sample_ms, and traffic may
# still move the packet counters: fabteld's value must lie between the
# module's value read before fabteld's last sample and the one read after.
ko_counters() {
	lab a "awk '\$1 == \"counter\" && \$3 != \"-\" { print \$2, \$3 }' $FT/rxa/ports/1/snapshot" | sort
}
same_as_ko() {
	local before after have
	before=$(ko_counters)
	sleep 1.5
	have=$(api "$PA" /api/v1/snapshot |
		jq -r '.ports[] | select(.device == "rxa") | .counters | to_entries[] | "\(.key) \(.value)"' | sort)
	after=$(ko_counters)
	[[ -n $before ]] && join <(echo "$before") <(echo "$have") | join - <(echo "$after") |
		awk -v n="$(wc -l <<<"$before")" -v m="$(wc -l <<<"$have")" \
		'$2 <= $3 && $3 <= $4 { ok++ } END { exit !(ok == n && ok == m) }'
}
ktap_check "rxa: every counter fabteld shows is fabtel.ko's (between its values around fabteld's sample)" \
	wait_for 20 same_as_ko
ktap_check "the fakeroce port appears, with an event port_added" \
	wait_for 15 bash -c "curl -sf http://127.0.0.1:$PA/api/v1/events | jq -e '.events[] | select(.kind == \"port_added\" and .device == \"fakeroce0\")'"
lab a "echo 8 >$D/pfc_en" >/dev/null
ktap_check "PFC on priority 3 (fakeroce DCB) shows as fabtel_pfc_enabled" \
	wait_for 15 bash -c "curl -sf http://127.0.0.1:$PA/metrics | grep -qx 'fabtel_pfc_enabled{$L,priority=\"3\"} 1'"
storms0=$(lab_read a $FT/fakeroce0/ports/1/pfc/prio3/storm_events)
lab a "echo 5000 >$D/prio3_requests_rate" >/dev/null
ktap_check "a pause storm on priority 3: fabtel_pfc_storm = 1" \
	wait_for 15 bash -c "curl -sf http://127.0.0.1:$PA/metrics | grep -qx 'fabtel_pfc_storm{$L,priority=\"3\"} 1'"
# the pause rate fabteld shows against the module's counter over 3 s
p0=$(lab_read a $FT/fakeroce0/ports/1/pfc/prio3/pause_tx); t0=$(date +%s.%N)
sleep 3
p1=$(lab_read a $FT/fakeroce0/ports/1/pfc/prio3/pause_tx); t1=$(date +%s.%N)
shown=$(api "$PA" /api/v1/snapshot | jq -r '.ports[] | select(.device == "fakeroce0") | .pfc[] | select(.priority == 3) | .pause_tx_rate')
ktap_info "pause_tx: fabtel.ko moved $((p1 - p0)) in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s; fabteld shows $shown/s"
ktap_check "fabteld's pause_tx rate within 25% of the module's counter delta" \
	awk -v r="$shown" -v d="$((p1 - p0))" -v a="$t0" -v b="$t1" \
	'BEGIN { e = d / (b - a); exit !(e > 0 && r > e * 0.75 && r < e * 1.25) }'
ktap_check "FabtelPauseStorm fires for fakeroce0 priority 3 on a" \
	wait_for 30 bash -c "curl -sf http://127.0.0.1:$PROM_PORT/api/v1/alerts | jq -e '.data.alerts[] | select(.labels.alertname == \"FabtelPauseStorm\" and .labels.instance == \"127.0.0.1:$PA\" and .labels.device == \"fakeroce0\" and .labels.priority == \"3\" and .state == \"firing\")'"
lab a "echo 0 >$D/prio3_requests_rate" >/dev/null
ktap_check "pausing stops: fabtel_pfc_storm = 0" \
	wait_for 15 bash -c "curl -sf http://127.0.0.1:$PA/metrics | grep -qx 'fabtel_pfc_storm{$L,priority=\"3\"} 0'"
ktap_eq "events: pause_storm then pause_storm_end on fakeroce0 priority 3" \
	"$(events '[.events[] | select(.device == "fakeroce0" and (.kind | startswith("pause_storm"))) | "\(.kind)/\(.priority)"] | join(" ")')" \
	"pause_storm/3 pause_storm_end/3"
ktap_eq "fabtel_pfc_storms_total moved as fabtel.ko's storm_events did" \
	"$(metric "$PA" "fabtel_pfc_storms_total{$L,priority=\"3\"}")" \
	"$(lab_read a $FT/fakeroce0/ports/1/pfc/prio3/storm_events)"
ktap_info "storm_events $storms0 -> $(lab_read a $FT/fakeroce0/ports/1/pfc/prio3/storm_events)"

# Driver statistics (ethtool -S through the mlx5e names of the vendor map):
# pause durations and the PHY's symbol errors; the independent reader is
# ethtool -S itself, and its tx_prio3_pause must equal the DCB count.
lab a "echo 2100000 >$D/prio3_tx_pause_us; echo 350000 >$D/prio3_rx_pause_us; echo 12 >/sys/kernel/debug/fakeroce/0/phy/symbol_errors" >/dev/null
es_metrics() {
	echo "$(metric "$PA" "fabtel_pfc_pause_tx_duration_seconds_total{$L,priority=\"3\"}")" \
		"$(metric "$PA" "fabtel_pfc_pause_rx_duration_seconds_total{$L,priority=\"3\"}")" \
		"$(metric "$PA" "fabtel_port_phy_symbol_errors_total{$L}")" \
		"$(metric "$PA" "fabtel_pfc_pause_tx_total{$L,priority=\"3\"}")"
}
es_ethtool() { # the same from ethtool -S, durations from microseconds
	lab a "ethtool -S fre0" | awk '
		$1 == "tx_prio3_pause_duration:" { t = $2 / 1e6 } $1 == "rx_prio3_pause_duration:" { r = $2 / 1e6 }
		$1 == "rx_symbol_err_phy:" { s = $2 } $1 == "tx_prio3_pause:" { f = $2 }
		END { printf "%g %g %d %d", t, r, s, f }'
}
es_same() { [[ $(es_metrics) == "$(es_ethtool)" ]]; }
ktap_check "ethtool -S (mlx5e names): pause durations of priority 3, rx_symbol_err_phy, tx_prio3_pause = fabteld's (the last also DCB's)" \
	wait_for 15 es_same
ktap_info "fabteld: $(es_metrics); ethtool -S: $(es_ethtool)"
ktap_eq "rxa (virtio-net: its driver statistics are none the map knows): no pause duration or PHY series" \
	"$(curl -sf "http://127.0.0.1:$PA/metrics" | grep -c '^fabtel_\(pfc_pause_.x_duration\|port_phy_\).*device="rxa"')" 0


# A job on fakeroce0: a process in job_7070's cgroup has fakeroce make 4 QPs
# (ib_core owns them to it, as uverbs QPs).  fakeroce offloads RoCE as a real
# NIC does: no frame for BPF to see, so the job's use of the port is unknown,
# never "idle", and the port's troubles below degrade it.
lab a "mkdir -p /sys/fs/cgroup/job_7070 || exit 1; bash -c 'echo \$\$ >/sys/fs/cgroup/job_7070/cgroup.procs &&
	echo 4 >/sys/kernel/debug/fakeroce/0/qps && exec sleep 7070' >/dev/null 2>&1 & echo \$! >/tmp/link-job.pid"
job7070() { # "qps device/port" of job 7070 as fabteld and as rdma res show qp see it
	echo "$(job "$PA" 7070 '"\(.qps) \([.ports[] | "\(.device)/\(.port)"] | join(","))"')" \
		"$(lab a "rdma res show qp -j" | jq -r --argjson p "$(lab a 'head -1 /sys/fs/cgroup/job_7070/cgroup.procs')" \
			'[.[] | select(.pid == $p)] | "\(length) \([.[] | "\(.ifname)/\(.port)"] | unique | join(","))"')"
}
job7070_same() { local s; s=$(job7070); [[ $s == "4 fakeroce0/1 4 fakeroce0/1" ]]; }
ktap_check "job 7070 seen on a: its 4 QPs on fakeroce0 port 1 = rdma res show qp" wait_for 15 job7070_same
ktap_info "fabteld, rdma: $(job7070)"
job_has() { # REASON: job 7070 degraded, with REASON (degraded) on fakeroce0 port 1
	[[ $(job "$PA" 7070 "\"\(.verdict) \" + ([.reasons[] | select(.reason == \"$1\" and .device == \"fakeroce0\" and .port == 1) | .severity] | join(\",\"))") == "degraded degraded" ]]
}
fabtop_sees() { # fabtop --once --json on this host: fakeroce0/1's issues, job 7070's worst reason
	"$REPO/build/fabtop" --once --json --url "http://127.0.0.1:$PA" 2>/dev/null | jq -r '
		"\([.rows.nics[] | select(.device == "fakeroce0") | .issues | join(",")] | join(" "))" +
		" \([.rows.jobs[] | select(.job_id == "7070") | "\(.worst_reason.reason)@\(.worst_reason.device)"] | join(" "))"'
}
# ISSUE REASON: fakeroce0's issues include ISSUE, job 7070's worst reason is REASON
fabtop_shows() {
	local s
	s=$(fabtop_sees)
	[[ ",${s%% *}," == *",$1,"* && ${s#* } == "$2" ]]
}
# the job's reason, and the port's condition in fabtop's NICs pane (ISSUES)
job_and_fabtop() { job_has "$1" && [[ " $(fabtop_sees | cut -d" " -f1 | tr , " ") " == *" $1 "* ]]; }

# a speed renegotiation: fakeroce0's 4 lanes of 100 Gb/s (400G) down to 2 (200G)
lab a "echo 2 >/sys/kernel/debug/fakeroce/0/lanes"
degraded_is() { [[ $(metric "$PA" "fabtel_port_link_degraded{$L}") == "$1" ]]; }
ktap_check "2 lanes: fabtel_port_link_degraded 1 for fakeroce0" wait_for 15 degraded_is 1
ind=$(lab a "cat $FR_IB/rate; ethtool fre0 | awk '/Speed:/ { print \$2 }'")
ktap_info "independent readers: $(tr '\n' ' ' <<<"$ind")"
speeds() { for n in speed_bytes lanes speed_max_seen_bytes netdev_speed_bytes; do metric "$PA" "fabtel_port_$n{$L}"; done | xargs; }
speeds_want=$(awk 'NR == 1 { printf "%.0f %d ", $1 * 125000000, $3 + 0 } NR == 2 { printf "50000000000 %.0f", $1 * 125000 }' <<<"${ind//(/}")
# the netdev's speed is read apart from the IB port's rate: it may follow a sample later
speeds_are() { [[ $(speeds) == "$speeds_want" ]]; }
wait_for 10 speeds_are
ktap_eq "... speed, lanes, the most seen, netdev speed = ports/1/rate and ethtool's Speed (200 Gb/s, 2X NDR; 400 Gb/s before)" \
	"$(speeds)" "$speeds_want"
ktap_eq "fabtel.ko's snapshot link_speed_mbps = ethtool's Speed (200G)" \
	"$(lab_read a $FT/fakeroce0/ports/1/snapshot | awk '$1 == "link_speed_mbps" { print $2 }')" \
	"$(awk 'NR == 2 { print $1 + 0 }' <<<"$ind")"
ktap_check "job 7070: verdict degraded, reason link_degraded on fakeroce0 port 1; fabtop shows the port's issue" \
	wait_for 15 job_and_fabtop link_degraded
lm_metrics() { # the fastest supported, advertised and partner's modes, bytes/s
	for n in supported advertised peer; do metric "$PA" "fabtel_port_netdev_mode_max_bytes{$L,set=\"$n\"}"; done | xargs
}
lm_ethtool() { # the same from ethtool's three lists of link modes
	lab a "ethtool fre0" | awk '
		/^\t[A-Za-z].*:/ { s = $0; sub(/^\t/, "", s); sub(/:.*/, "", s) }
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+base/ && $i + 0 > m[s]) m[s] = $i + 0 }
		END { printf "%.0f %.0f %.0f", m["Supported link modes"] * 125000,
			m["Advertised link modes"] * 125000, m["Link partner advertised link modes"] * 125000 }'
}
ktap_eq "fastest modes supported, advertised, the partner's = ethtool's lists (400G each)" \
	"$(lm_metrics)" "$(lm_ethtool)"
ktap_check "FabtelLinkDegraded fires for fakeroce0 on a" \
	wait_for 30 bash -c "curl -sf http://127.0.0.1:$PROM_PORT/api/v1/alerts | jq -e '.data.alerts[] | select(.labels.alertname == \"FabtelLinkDegraded\" and .labels.device == \"fakeroce0\" and .state == \"firing\")'"
lab a "echo 4 >/sys/kernel/debug/fakeroce/0/lanes"
ktap_check "back at 4 lanes: link_degraded 0" wait_for 15 degraded_is 0

# FEC statistics through ethtool netlink; the independent reader is
# ethtool itself.  virtio-net (eth0) has no FEC ops: no series for rxa.
FEC=/sys/kernel/debug/fakeroce/0/fec
lab a "echo 987654 >$FEC/corrected_blocks; echo 31 >$FEC/uncorrectable_blocks; echo 123456789 >$FEC/corrected_bits" >/dev/null
fec_metrics() {
	echo "$(metric "$PA" "fabtel_port_fec_mode{$L,mode=\"rs\"}")" \
		"$(for n in corrected_blocks uncorrectable_blocks corrected_bits; do metric "$PA" "fabtel_port_fec_${n}_total{$L}"; done | xargs)"
}
fec_ethtool() {
	lab a "ethtool --json -I --show-fec fre0" |
		jq -r '.[0] | "\(if .active == ["RS"] then 1 else 0 end) \(.statistics.corrected_blocks.total) \(.statistics.uncorrectable_blocks.total) \(.statistics.corrected_bits.total)"'
}
fec_same() { [[ $(fec_metrics) == "$(fec_ethtool)" ]]; }
ktap_check "FEC (fabtel.ko mode: from its snapshot): fabtel_port_fec_mode{mode=rs} and the three statistics = ethtool --show-fec -I" \
	wait_for 15 fec_same
ktap_info "fabteld: $(fec_metrics); ethtool: $(fec_ethtool)"
ktap_check "job 7070: reason link_errors on fakeroce0 port 1 (31 blocks lost; window_s 10); in fabtop too" \
	wait_for 10 job_and_fabtop link_errors
ktap_eq "rxa (virtio-net, no FEC ops: ethtool --show-fec fails there): no fabtel_port_fec_* series" \
	"$(lab a "ethtool --show-fec eth0 >/dev/null 2>&1 && echo has-fec"; curl -sf "http://127.0.0.1:$PA/metrics" | grep -c '^fabtel_port_fec.*device="rxa"')" "0"
alert_value() { # the value of FabtelLinkErrors for fakeroce0, or nothing
	curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/alerts" |
		jq -r '.data.alerts[] | select(.labels.alertname == "FabtelLinkErrors" and .labels.device == "fakeroce0" and .state == "firing") | .value'
}
alert_at_least() { [[ -n $(alert_value) ]] && awk -v v="$(alert_value)" -v m="$1" 'BEGIN { exit !(v + 0 >= m) }'; }
ktap_check "FabtelLinkErrors fires for fakeroce0 on 31 FEC-uncorrectable blocks alone" \
	wait_for 30 alert_at_least 31

# Optics: fakeroce0's QSFP28 (SFF-8636), lane 2 down to 0.03 mW, under the
# module's own low-warning threshold (0.05 mW).  Independent reader:
# ethtool -m, decoding the same EEPROM pages.  fabteld reads modules every
# module_s (10) seconds.
MOD=/sys/kernel/debug/fakeroce/0/module
lab a "echo 300 >$MOD/lane2_rx_power" >/dev/null
mod_metrics() { # rx power of lane 2, its low-warning flag and threshold, optics_trouble
	echo "$(metric "$PA" "fabtel_port_module_rx_power_watts{$L,lane=\"2\"}")" \
		"$(metric "$PA" "fabtel_port_module_lane_flag{$L,quantity=\"rx_power\",level=\"low_warning\",lane=\"2\"}")" \
		"$(metric "$PA" "fabtel_port_module_threshold{$L,quantity=\"rx_power\",level=\"low_warning\"}")" \
		"$(metric "$PA" "fabtel_port_optics_trouble{$L}")"
}
mod_ethtool() { # the same from ethtool -m: mW made W, On/Off made 1/0
	lab a "ethtool -m fre0" | awk -F' : ' '
		/optical power ?\(Channel 2\)/ { split($2, a, " "); p = a[1] / 1000 }
		/rx power low warning +\(Chan(nel)? 2\)/ { f = ($2 ~ /On/) }
		/rx power low warning threshold/ { split($2, a, " "); t = a[1] / 1000 }
		/Rcvr signal avg optical power ?\(Channel 2\)/ { split($2, a, " "); p = a[1] / 1000 }
		END { printf "%.6g %d %.6g\n", p, f, t }'
}
mod_same() {
	local have want
	have=$(mod_metrics)
	want=$(mod_ethtool)
	awk -v h="$have" -v w="$want" 'BEGIN { split(h, a, " "); split(w, b, " ")
		exit !(a[1] != "" && a[1] - b[1] < 1e-9 && b[1] - a[1] < 1e-9 && a[2] == b[2] &&
			a[3] - b[3] < 1e-9 && b[3] - a[3] < 1e-9 && a[2] == 1 && a[4] == 1) }'
}
ktap_check "SFF-8636: lane 2 rx power, its low-warning flag and threshold = ethtool -m; optics_trouble 1" \
	wait_for 25 mod_same
ktap_info "fabteld: $(mod_metrics); ethtool -m: $(mod_ethtool)"
ktap_check "job 7070: reason optics on fakeroce0 port 1; in fabtop too" wait_for 15 job_and_fabtop optics
ko_lane2() { # lane 2 rx power bytes (lower page 36, 37) in fabtel.ko's module file, and who read them
	echo "$(lab a "awk '\$1 == \"page\" && \$2 == \"lower\" { print substr(\$3, 73, 4) }' $FT/fakeroce0/ports/1/module")" \
		"$(api "$PA" /api/v1/snapshot | jq -r '.ports[] | select(.device == "fakeroce0") | .module.read_by')"
}
eth_lane2() { # the same two bytes as ethtool -m dumps them
	echo "$(lab a "ethtool -m fre0 offset 36 length 2" | awk '/^0x0024/ { print $2 $3 }')" fabtel_ko
}
ktap_check "fabtel.ko's ports/1/module: lane 2 rx power bytes = ethtool -m's; fabteld decoded fabtel.ko's pages (read_by)" \
	bash -c '[[ $1 == "$2" ]]' _ "$(ko_lane2)" "$(eth_lane2)"
ktap_info "fabtel.ko: $(ko_lane2); ethtool -m: $(eth_lane2)"
ktap_check "FabtelOptics fires for fakeroce0" \
	wait_for 30 bash -c "curl -sf http://127.0.0.1:$PROM_PORT/api/v1/alerts | jq -e '.data.alerts[] | select(.labels.alertname == \"FabtelOptics\" and .labels.device == \"fakeroce0\" and .state == \"firing\")'"
# the same module as CMIS (a QSFP-DD, 8 lanes): flags read raw, as ethtool
# 6.1 prints CMIS lane flags on the wrong channels
lab a "echo 24 >$MOD/identifier; echo 250 >$MOD/lane7_rx_power" >/dev/null
cmis_metrics() {
	echo "$(metric "$PA" "fabtel_port_module_info{$L,kind=\"cmis\",identifier=\"0x18\"}")" \
		"$(for l in 1 2 3 4 5 6 7 8; do metric "$PA" "fabtel_port_module_lane_flag{$L,quantity=\"rx_power\",level=\"low_warning\",lane=\"$l\"}"; done | tac | tr -d '\n')" \
		"$(metric "$PA" "fabtel_port_module_rx_power_watts{$L,lane=\"7\"}")"
}
bits8() { local v=$((16#$1)) i s=; for ((i = 7; i >= 0; i--)); do s+=$(((v >> i) & 1)); done; echo "$s"; }
cmis_ethtool() { # info 1, page 11h byte 152 as 8 bits (lane 8 first), lane 7's power in W
	local raw
	raw=$(lab a "ethtool -m fre0 page 0x11 offset 152 length 1" | awk '/^0x0098/ { print $2 }')
	echo "1 $(bits8 "$raw")" \
		"$(lab a "ethtool -m fre0" | awk -F' : ' '/Rcvr signal avg optical power \(Channel 7\)/ { split($2, a, " "); printf "%.6g", a[1] / 1000 }')"
}
cmis_same() { # info and flags alike, the power within 1e-12 W
	awk -v h="$(cmis_metrics)" -v w="$(cmis_ethtool)" 'BEGIN { split(h, a, " "); split(w, b, " ")
		exit !(a[1] == b[1] && a[2] == b[2] && a[3] != "" && a[3] - b[3] < 1e-12 && b[3] - a[3] < 1e-12) }'
}
ktap_check "CMIS: module_info kind cmis 0x18; lane flags = page 11h byte 152 (lanes 2, 7); lane 7 power = ethtool -m" \
	wait_for 25 cmis_same
ktap_info "fabteld: $(cmis_metrics); ethtool: $(cmis_ethtool)"
lab a "echo 3 >$MOD/identifier" >/dev/null
unknown_kind() {
	[[ $(metric "$PA" "fabtel_port_module_info{$L,kind=\"unknown\",identifier=\"0x03\"}") == 1 &&
		-z $(curl -sf "http://127.0.0.1:$PA/metrics" | grep '^fabtel_port_module_rx_power.*fakeroce0') ]]
}
ktap_check "an identifier not SFF-8636 nor CMIS (0x03, SFP): kind unknown, no values, no trouble made up" \
	wait_for 25 unknown_kind
lab a "echo 0 >$MOD/identifier" >/dev/null
no_module() { [[ $(api "$PA" /api/v1/snapshot | jq -r '.ports[] | select(.device == "fakeroce0") | .module.error') == "no module plugged in" ]]; }
ktap_check "module pulled (ethtool: ENODEV): no module series, /api/v1/snapshot says why" \
	wait_for 25 no_module
ktap_eq "rxa (virtio-net): module error 'the driver has no module interface', no module series" \
	"$(api "$PA" /api/v1/snapshot | jq -r '.ports[] | select(.device == "rxa") | .module.error') $(curl -sf "http://127.0.0.1:$PA/metrics" | grep -c '^fabtel_port_module.*device="rxa"')" \
	"the driver has no module interface 0"
lab a "echo 17 >$MOD/identifier; echo 8000 >$MOD/lane2_rx_power; echo 8000 >$MOD/lane7_rx_power" >/dev/null

# RoCE config: ToS 106 (fabteld's roce_tos) is DSCP 26.  With the DCB APP
# table mapping DSCP 26 to priority 3, where PFC is on, all is well; mapped
# to 5, RoCE lands on a priority without PFC.  Independent reader: iproute2's
# dcb (app and pfc tables of fre0).
cfg_info() { curl -sf "http://127.0.0.1:$PA/metrics" | grep "^fabtel_port_config_info{$L"; }
cfg_label() { cfg_info | sed -n "s/.*[{,]$1=\"\([^\"]*\)\".*/\1/p"; }
cfg_dcb() { # "pfc=3 dscp_map=26:3" as iproute2's dcb shows fre0
	lab a "dcb pfc show dev fre0 prio-pfc; dcb -N app show dev fre0 dscp-prio" | awk '
		/prio-pfc/ { for (i = 2; i <= NF; i++) { split($i, a, ":"); if (a[2] == "on") p = p (p ? "," : "") a[1] } }
		/dscp-prio/ { for (i = 2; i <= NF; i++) m = m (m ? "," : "") $i }
		END { printf "pfc=%s dscp_map=%s", p, m }'
}
cfg_is() { # PRIORITY MISCONFIGURED
	[[ "pfc=$(cfg_label pfc) dscp_map=$(cfg_label dscp_map)" == "$(cfg_dcb)" &&
		$(cfg_label tos_priority) == "$1" && $(cfg_label roce_tos) == 106 &&
		$(metric "$PA" "fabtel_port_misconfigured{$L}") == "$2" ]]
}
lab a "dcb app add dev fre0 dscp-prio 26:3" >/dev/null
ktap_check "DSCP 26 -> priority 3, PFC on 3: config_info (pfc, dscp_map) = iproute2 dcb; ToS 106 on 3; misconfigured 0" \
	wait_for 25 cfg_is 3 0
ktap_info "$(cfg_info); dcb: $(cfg_dcb)"
lab a "dcb app replace dev fre0 dscp-prio 26:5" >/dev/null
ktap_check "DSCP 26 -> priority 5 (no PFC): ToS 106 on 5, fabtel_port_misconfigured 1" \
	wait_for 25 cfg_is 5 1
ktap_check "job 7070: reason misconfigured on fakeroce0 port 1" wait_for 15 job_has misconfigured
ko_dscp() { lab a "cat $FT/fakeroce0/ports/1/pfc/dscp_map $FT/fakeroce0/ports/1/pfc/prio5/enabled" | xargs; }
dcb_dscp() { # the same from iproute2's dcb: the APP table's DSCP entries, PFC on priority 5 (1/0)
	lab a "dcb -N app show dev fre0 dscp-prio; dcb pfc show dev fre0 prio-pfc" |
		awk '/dscp-prio/ { m = $2 } /prio-pfc/ { for (i = 2; i <= NF; i++) if ($i ~ /^5:/) p = ($i == "5:on") }
			END { print m, p }'
}
ktap_check "fabtel.ko's sysfs: pfc/dscp_map 26:5 and pfc/prio5/enabled 0 = iproute2 dcb's app and pfc tables" \
	wait_for 5 bash -c '[[ $1 == "26:5 0" && $1 == "$2" ]]' _ "$(ko_dscp)" "$(dcb_dscp)"
ktap_info "fabtel.ko: $(ko_dscp); dcb: $(dcb_dscp)"
# (beside it, recent_fault when an earlier step's fault is within recent_fault_s)
ktap_check "fabtop --once --json: fakeroce0's issues include 'misconfigured', job 7070's worst reason misconfigured@fakeroce0" \
	wait_for 15 fabtop_shows misconfigured misconfigured@fakeroce0
ktap_info "fabtop: $(fabtop_sees)"
ktap_check "FabtelMisconfigured fires for fakeroce0" \
	wait_for 30 bash -c "curl -sf http://127.0.0.1:$PROM_PORT/api/v1/alerts | jq -e '.data.alerts[] | select(.labels.alertname == \"FabtelMisconfigured\" and .labels.device == \"fakeroce0\" and .state == \"firing\")'"
ktap_eq "rxa (virtio-net, no DCB): config_info pfc and trust 'unknown', no misconfigured series" \
	"$(curl -sf "http://127.0.0.1:$PA/metrics" | grep '^fabtel_port_config_info{device="rxa"' | grep -c 'pfc="unknown",trust="unknown"') $(curl -sf "http://127.0.0.1:$PA/metrics" | grep -c '^fabtel_port_misconfigured{device="rxa"')" \
	"1 0"
# RoCE v2 GIDs: config_info's roce_v2_gids against rxa's GID table itself
# (gid_attrs/types counted by the shell).  fabteld reads the table up to
# 16 entries past its highest used one (every 60th reading all of it): an
# address added on eth0 takes the lowest free entries and is counted
# within module_s (10 s).
rxa_v2() { lab a "cat /sys/class/infiniband/rxa/ports/1/gid_attrs/types/* 2>/dev/null | grep -c 'RoCE v2'"; }
fab_v2() { curl -sf "http://127.0.0.1:$PA/metrics" |
	sed -n 's/^fabtel_port_config_info{device="rxa".*roce_v2_gids="\([0-9]*\)".*/\1/p'; }
v2_is() { [[ $(rxa_v2) == "$1" && $(fab_v2) == "$1" ]]; }
v2_n=$(rxa_v2)
ktap_check "rxa: config_info roce_v2_gids = the 'RoCE v2' entries of its GID table ($v2_n)" \
	wait_for 25 v2_is "$v2_n"
lab a "ip addr add 10.99.0.1/24 dev eth0" >/dev/null
ktap_check "an address added on eth0: one RoCE v2 GID more in the table and in config_info within module_s" \
	wait_for 30 v2_is $((v2_n + 1))
ktap_info "GID table: $(rxa_v2) RoCE v2; fabteld: $(fab_v2)"
lab a "ip addr del 10.99.0.1/24 dev eth0" >/dev/null
lab a "dcb app del dev fre0 dscp-prio 26:5" >/dev/null
# Without roce_tos in fabteld's config the ToS is rdma_cm's default, from
# configfs when an operator created the device's directory (fabteld never
# does).  rxa is a kernel verbs provider, so rdma_cm knows it (fakeroce
# is not: cma skips it).  A one-shot fabteld, so the daemon's roce_tos stays.
cm_tos() {
	lab a "modprobe configfs; mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
		modprobe rdma_cm; mkdir -p /sys/kernel/config/rdma_cm/rxa &&
		echo 98 >/sys/kernel/config/rdma_cm/rxa/ports/1/default_roce_tos &&
		echo \$(cat /sys/kernel/config/rdma_cm/rxa/ports/1/default_roce_tos) \$($FABTELD --bpf off --once metrics 2>/dev/null |
			grep '^fabtel_port_config_info{device=\"rxa\"' | sed -n 's/.*roce_tos=\"\([^\"]*\)\",tos_source=\"\([^\"]*\)\".*/\1 \2/p')
		echo 0 >/sys/kernel/config/rdma_cm/rxa/ports/1/default_roce_tos; rmdir /sys/kernel/config/rdma_cm/rxa"
}
ktap_eq "rdma_cm configfs default_roce_tos 98 on rxa: config_info roce_tos 98, tos_source rdma_cm (fabteld without roce_tos)" \
	"$(cm_tos)" "98 98 rdma_cm"

# IB port counters: symbol errors on fakeroce0's PMA.  Independent readers:
# ib_core's counters/ files (each its own MAD, decoded by ib_core).
PMA=/sys/kernel/debug/fakeroce/0/pma
lab a "echo 3000000000 >$PMA/port_rcv_data; echo 40 >$PMA/port_rcv_errors; echo +120 >$PMA/symbol_error" >/dev/null
pma_metrics() { # the fabteld values of symbol_error, rcv_errors, rcv_bytes
	for n in symbol_error rcv_errors rcv_bytes; do metric "$PA" "fabtel_port_ib_${n}_total{$L}"; done | xargs
}
pma_files() { lab a "cd $FR_IB/counters && echo \$(cat symbol_error port_rcv_errors) \$((\$(cat port_rcv_data) * 4))"; }
pma_same() { [[ $(pma_metrics) == "$(pma_files)" ]]; }
ktap_check "fabtel.ko mode: IB port counters in /metrics = ib_core's counters/ files (rcv_data words as bytes)" \
	wait_for 15 pma_same
ktap_info "fabteld: $(pma_metrics); counters/: $(pma_files)"
ktap_check "FabtelLinkErrors counts the PMA's 160 link errors on top (value >= 191)" \
	wait_for 30 alert_at_least 191
ktap_info "FabtelLinkErrors value: $(alert_value)"
lab a "rmmod fabtel" >/dev/null
sysfs_pma_same() { [[ $(api "$PA" /api/v1/snapshot | jq -r .sources.sysfs.state) == up ]] && pma_same; }
ktap_check "plain-sysfs mode (fabtel.ko unloaded): the same values, from counters/ itself" \
	wait_for 15 sysfs_pma_same
ktap_check "... FEC there from ethtool netlink (fabteld's own query) = ethtool" wait_for 15 fec_same
lab a "echo +7 >$PMA/symbol_error" >/dev/null
# plain sysfs reads counters/ (a MAD a file) every pma_s seconds (10)
ktap_check "... and a rise there shows (+7) within pma_s (10 s)" wait_for 25 pma_same
lab a 'kill $(cat /tmp/link-job.pid)' >/dev/null
lab a "echo 0 >/sys/kernel/fakeroce/del_device; rmmod fakeroce" >/dev/null
ktap_check "modules unloaded: sysfs source back up, fabtel_ko unavailable, fakeroce0 removed" \
	wait_for 15 bash -c "[[ \$(curl -sf http://127.0.0.1:$PA/api/v1/snapshot | jq -r '\"\\(.sources.fabtel_ko.state) \\(.sources.sysfs.state) \\([.ports[].device] | sort | join(\",\"))\"') == 'unavailable up rxa' ]] &&
		curl -sf http://127.0.0.1:$PA/api/v1/events | jq -e '.events[] | select(.kind == \"port_removed\" and .device == \"fakeroce0\")' >/dev/null"

