# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - helpers for fabtel's selftests (sourced, bash).
#
# KTAP/TAP output:
#	ktap_begin 3
#	ktap_check "rxa is ACTIVE" test "$state" = ACTIVE
#	ktap_eq "carrier_changes rose by 2" "$delta" 2
#	ktap_skip "no DCB ops" "virtio-net has none"
#	ktap_end			# exits 0, 1 (a failure) or 4 (all skipped)
#
# Waiting: never a bare sleep; poll a condition until a deadline:
#	wait_for 10 lab_test a -e /sys/kernel/fabtel || ktap_fail ...

ksft_pass=0
ksft_fail=1
ksft_skip=4

SELFTESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=${REPO:-$(cd "$SELFTESTS_DIR/.." && pwd)}
FABLAB=${FABLAB:-$REPO/scripts/fablab}
# the kernel modules the lab tests load: kmod/ (the lab kernel's build), or
# the second kernel's build when run.sh runs the suites on it
KMOD=${FABTEL_KMOD:-$REPO/kmod}
# Suites about behaviour run fabtel.ko at the sub-second cadence, an explicit
# choice whose firmware cost Documentation/performance.rst states; the
# budget suite (lab_fabtel_budget.sh) runs the defaults.
KO_FAST="sample_ms=100 slow_ms=100"
export REPO FABLAB

_ktap_plan=0
_ktap_n=0
_ktap_failed=0
_ktap_skipped=0

ktap_begin() { # planned-count
	_ktap_plan=$1
	_ktap_n=0
	_ktap_failed=0
	_ktap_skipped=0
	echo "TAP version 13"
	echo "1..$1"
}

# Diagnostics go in KTAP comment lines.
ktap_info() { local l; while IFS= read -r l; do echo "# $l"; done <<<"$*"; }

ktap_pass() { # description
	_ktap_n=$((_ktap_n + 1))
	echo "ok $_ktap_n $1"
}

ktap_fail() { # description [reason]
	_ktap_n=$((_ktap_n + 1))
	_ktap_failed=$((_ktap_failed + 1))
	[[ -n ${2:-} ]] && ktap_info "$2"
	echo "not ok $_ktap_n $1"
}

ktap_skip() { # description reason
	_ktap_n=$((_ktap_n + 1))
	_ktap_skipped=$((_ktap_skipped + 1))
	echo "ok $_ktap_n $1 # SKIP $2"
}

# ktap_check DESC CMD...: pass if CMD succeeds; its output becomes diagnostics
# on failure.
ktap_check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ktap_pass "$desc"
	else
		ktap_fail "$desc" "command failed ($?): $* ${out:+
$out}"
	fi
}

# ktap_eq DESC GOT WANT
ktap_eq() {
	if [[ $2 == "$3" ]]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "got '$2', want '$3'"
	fi
}

# ktap_ge DESC GOT MIN (integers)
ktap_ge() {
	if [[ $2 =~ ^-?[0-9]+$ ]] && (($2 >= $3)); then
		ktap_pass "$1"
	else
		ktap_fail "$1" "got '$2', want >= $3"
	fi
}

ktap_end() {
	if ((_ktap_n != _ktap_plan)); then
		ktap_info "planned $_ktap_plan tests, ran $_ktap_n"
		exit $ksft_fail
	fi
	((_ktap_failed)) && exit $ksft_fail
	((_ktap_n && _ktap_skipped == _ktap_n)) && exit $ksft_skip
	exit $ksft_pass
}

# The whole test cannot run here (a truly missing capability): say why.
ktap_skip_all() { # reason
	echo "TAP version 13"
	echo "1..0 # SKIP $1"
	exit $ksft_skip
}

# wait_for SECONDS CMD...: run CMD every WAIT_INTERVAL (0.2 s) until it
# succeeds (return 0) or SECONDS pass (return 1).
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	while :; do
		"$@" >/dev/null 2>&1 && return 0
		((SECONDS >= deadline)) && return 1
		sleep "${WAIT_INTERVAL:-0.2}"
	done
}

# free_port: a TCP port on 127.0.0.1 for a test daemon, picked by fablab's
# rule (below the ephemeral range, no TCP socket of any state on it).
free_port() { "$FABLAB" free-port; }

# kernel_trouble [MARK]: the kernel log's trouble lines (scripts/
# kernel-trouble.re, the list fablab trouble uses), from the line holding
# MARK on if given, less fakeroce's imitations (scripts/lab/kernel-log).
# Run in a guest.
kernel_trouble() {
	if [[ -n ${1:-} ]]; then
		"$REPO/scripts/lab/kernel-log" | sed -n "/$1/,\$p"
	else
		"$REPO/scripts/lab/kernel-log"
	fi | grep -E -f "$REPO/scripts/kernel-trouble.re"
}

# ---- the lab (host-side tests) ----------------------------------------------

# lab HOST CMD...: run a shell command line in a guest (fablab run).
lab() {
	local h=$1
	shift
	"$FABLAB" run "$h" -- "$@"
}

# lab_read HOST FILE...: the contents of files in a guest, one per line.
lab_read() {
	local h=$1
	shift
	lab "$h" cat "$@"
}

# lab_test HOST TEST-ARGS...: `test` in a guest, for wait_for.
lab_test() {
	local h=$1
	shift
	lab "$h" test "$@"
}

# ---- a Prometheus of the test's own, on this host ----------------------------

# prom_start DIR PORT TARGET...: Prometheus with the project's rules
# (deploy/prometheus/rules.yml), scraping and evaluating every second (every
# PROM_INTERVAL seconds when set), its data in DIR, listening on
# 127.0.0.1:PORT; sets PROM_PID and PROM_PORT.
prom_start() {
	local dir=$1 port=$2 t targets=""
	shift 2
	for t in "$@"; do targets+="${targets:+, }'$t'"; done
	cat >"$dir/prometheus.yml" <<YML
global:
  scrape_interval: ${PROM_INTERVAL:-1}s
  evaluation_interval: ${PROM_INTERVAL:-1}s
rule_files:
  - $REPO/deploy/prometheus/rules.yml
scrape_configs:
  - job_name: fabtel
    static_configs:
      - targets: [$targets]
YML
	prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
		--web.listen-address="127.0.0.1:$port" >"$dir/log" 2>&1 &
	PROM_PID=$!
	PROM_PORT=$port
}

# prom QUERY: the first value PromQL gives on the test's Prometheus, or nothing.
prom() {
	curl -sf --max-time 5 "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1" |
		jq -r '.data.result[0].value[1] // empty'
}

# fabtel-trace in a guest (build/fabtel-trace, seen there at the same path).
TRACE=$REPO/build/fabtel-trace

# trace_start HOST NAME ARGS: fabtel-trace in the background, JSON to
# /tmp/NAME.json, its pid in /tmp/NAME.pid; returns once it has attached.
trace_start() {
	lab "$1" "rm -f /tmp/$2.*; $TRACE --json $3 >/tmp/$2.json 2>/tmp/$2.err & echo \$! >/tmp/$2.pid
		for i in \$(seq 150); do grep -q ready /tmp/$2.err && exit 0; sleep 0.2; done; cat /tmp/$2.err; exit 1"
}
trace_stop() { # HOST NAME: SIGINT to the one trace_start started, wait for its summary (the drops line)
	lab "$1" "kill -INT \$(cat /tmp/$2.pid); for i in \$(seq 100); do grep -q '\"type\":\"drops\"' /tmp/$2.json && rm -f /tmp/$2.pid && exit 0; sleep 0.2; done; exit 1"
}
# stop_pids HOST NAME...: whatever of /tmp/NAME.pid still runs on HOST (a
# suite's clean-up: only what it started, by the pid it recorded)
stop_pids() {
	local h=$1
	shift
	lab "$h" "for n in $*; do [ -s /tmp/\$n.pid ] && kill \$(cat /tmp/\$n.pid); rm -f /tmp/\$n.pid; done" >/dev/null 2>&1
}

# rxe_counter HOST NAME: one rxe hw_counter of HOST's Soft-RoCE device.
rxe_counter() {
	lab_read "$1" "/sys/class/infiniband/rx$1/ports/1/hw_counters/$2"
}

# write_bw "PERFTEST ARGS" [WRAP]: ib_write_bw from a (rxa) to b (rxb): the
# server on b, then the client on a once the server listens; prints the
# client's output, returns its status.  WRAP is put before the client's
# command line (e.g. to move it into a cgroup first).
write_bw() {
	local args=$1 wrap=${2:-} srv rc

	lab b "ib_write_bw -d rxb -x 1 $args >/tmp/wbw-srv.log 2>&1" &
	srv=$!
	if ! wait_for 20 lab b 'ss -ltn | grep -q ":18515 "'; then
		kill "$srv" 2>/dev/null
		echo "write_bw: the server on b never listened" >&2
		return 1
	fi
	lab a "${wrap}ib_write_bw -d rxa -x 1 $args 10.77.0.2" 2>&1
	rc=$?
	wait "$srv"
	return "$rc"
}

# trace_shape_errors FILE: how many events of a Chrome trace JSON lack what
# the format requires (ph, name, pid; ts but for metadata; X: dur >= 0 and
# tid; i: scope; C: numeric args; M: args.name).  0 when all are well.
trace_shape_errors() {
	jq -r '
	def num: type == "number";
	[.traceEvents[] | select(
		(.ph | IN("M", "X", "i", "C") | not) or (.name | type) != "string" or (.pid | num | not) or
		(.ph != "M" and (.ts | num | not)) or
		(.ph == "X" and ((.dur | num | not) or .dur < 0 or (.tid | num | not))) or
		(.ph == "i" and (.s | IN("t", "p", "g") | not)) or
		(.ph == "C" and ((.args | type) != "object" or ([.args[] | num] | all | not))) or
		(.ph == "M" and (.args.name | type) != "string"))] | length' "$1"
}

# fabteld through a forwarded port (lab_fabteld*.sh)
api() { curl -sf --max-time 5 "http://127.0.0.1:$1$2"; }	# HOST-PORT PATH
job() { # HOST-PORT JOB JQ: a job's field from /api/v1/jobs
	api "$1" /api/v1/jobs | jq -r --arg j "$2" ".jobs[] | select(.job_id == \$j) | $3"
}
metric() { # HOST-PORT SERIES: its value in /metrics
	api "$1" /metrics | awk -v s="$2" '$1 == s { print $2 }'
}

# ---- a lab suite's prelude: its folder, its fabtelds, its clean-up ------------
#
# A suite that runs on this host and drives the guests begins with
# suite_begin (not one run inside a guest: build/ is read-only there);
# whatever it starts is undone at exit by one EXIT trap, suite_cleanup:
#	suite_begin			# SUITE_DIR, FABTELD, the trap
#	cleanup() { lab a 'rmmod fabtel' >/dev/null 2>&1; }
#	suite_on_exit cleanup		# the suite's own undoing
#	fabteld_start a NAME --listen 0.0.0.0:9465 --set window_s=10
#	ktap_check "fabteld is ready" fabteld_ready 30 "$PA"
#	suite_prom "$PROM_PORT" "127.0.0.1:$PA"

_suite_undo=()
_suite_fabtelds=" "

# suite_begin: SUITE_DIR, the suite's own folder under build/ (the guests see
# it at the same path: files the suite hands them go there; removed at
# exit); FABTELD, unless the caller set it: build/fabteld copied into
# SUITE_DIR, so a rebuild during the run changes no fabteld a suite starts
# (the copy keeps the name: its comm is "fabteld"); suite_cleanup as
# the EXIT trap.
suite_begin() {
	mkdir -p "$REPO/build"
	SUITE_DIR=$(mktemp -d "$REPO/build/suite.XXXXXX") || exit $ksft_fail
	chmod 755 "$SUITE_DIR"	# fabteld drops to nobody
	trap suite_cleanup EXIT
	suite_on_exit rm -rf "$SUITE_DIR"
	if [[ -z ${FABTELD:-} ]]; then
		FABTELD=$SUITE_DIR/fabteld
		cp "$REPO/build/fabteld" "$FABTELD"
	fi
}

# suite_on_exit CMD [ARG...]: suite_cleanup runs CMD ARGs at exit, its
# output discarded.
suite_on_exit() {
	local c
	printf -v c '%q ' "$@"
	_suite_undo+=("$c")
}

# suite_cleanup: the EXIT trap of suite_begin: what suite_on_exit, fabteld_start
# and suite_prom registered, the last first (so Prometheus and the fabtelds
# stop before the suite's own undoing, and SUITE_DIR goes last).
suite_cleanup() {
	local i
	for ((i = ${#_suite_undo[@]} - 1; i >= 0; i--)); do
		eval "${_suite_undo[i]}" >/dev/null 2>&1
	done
}

# fabteld_start HOST NAME ARG...: $FABTELD in guest HOST in the background,
# the ARGs on its command line as they are (options, --set settings: the
# guest's shell reads them), its output appended to /tmp/NAME.log, its pid in
# /tmp/NAME.pid; fabteld_stop stops it at exit (once however often started).
fabteld_start() {
	local h=$1 n=$2 rc
	shift 2
	lab "$h" "$FABTELD $* >>/tmp/$n.log 2>&1 & echo \$! >/tmp/$n.pid" >/dev/null
	rc=$?
	if [[ $_suite_fabtelds != *" $h:$n "* ]]; then
		_suite_fabtelds+="$h:$n "
		suite_on_exit fabteld_stop "$h" "$n"
	fi
	return "$rc"
}

# fabteld_stop HOST NAME: the fabteld fabteld_start started as NAME on HOST,
# gone (its port free): SIGTERM, then up to 10 s until there is no such
# process or a zombie whose threads have all exited (State Z, Threads 1: its
# files released; reaping it is the guest's PID 1's business, which can take
# seconds under TCG).  Prints how long that took; past 10 s, its state and
# kernel stacks, then SIGKILL and status 1.  Nothing to do without
# /tmp/NAME.pid.
fabteld_stop() {
	lab "$1" "[[ -f /tmp/$2.pid ]] || exit 0; p=\$(cat /tmp/$2.pid); kill \$p
		exited() { ! kill -0 \$p 2>/dev/null ||
			[[ \$(grep -E '^(State|Threads)' /proc/\$p/status 2>/dev/null | awk '{ printf \"%s\", \$2 }') == Z1 ]]; }
		for i in \$(seq 100); do exited && break; sleep 0.1; done
		rm -f /tmp/$2.pid
		if exited; then echo \"stop: fabteld \$p gone within \$((i / 10)).\$((i % 10)) s\"; exit 0; fi
		echo \"fabteld \$p still there 10 s after SIGTERM:\"
		grep -E '^(State|Threads)' /proc/\$p/status; cat /proc/\$p/task/*/stack 2>/dev/null | head -20
		kill -9 \$p; exit 1"
}

# fabteld_ready SECONDS HOST-PORT...: wait until the fabteld behind each
# forwarded port answers /-/ready (it samples); 1 if one did not in time.
fabteld_ready() {
	local s=$1
	shift
	wait_for "$s" _fabteld_all_ready "$@"
}
_fabteld_all_ready() {
	local p
	for p in "$@"; do api "$p" /-/ready >/dev/null || return 1; done
}

# suite_prom PORT TARGET...: prom_start with its data in SUITE_DIR/prom,
# stopped at exit (prom_stop).
suite_prom() {
	mkdir -p "$SUITE_DIR/prom"
	prom_start "$SUITE_DIR/prom" "$@"
	suite_on_exit prom_stop "$PROM_PID"
}
prom_stop() { kill "$1" 2>/dev/null && wait "$1" 2>/dev/null; }	# PID

# rdma_quiet HOST [SECONDS]: wait (default 70 s) until no ib_write_bw or
# fabtel-traffic is left on HOST and RDMA netlink lists no QP.  A process
# killed mid-transfer can leave an rxe QP whose destroy waits 50 s (rxe_pool.c
# __rxe_cleanup, 6.1) and stalls the next suite's traffic meanwhile: a suite
# that kills its traffic leaves the lab only once that is over.
rdma_quiet() {
	wait_for "${2:-70}" lab "$1" '! pgrep -x "ib_write_bw|fabtel-traffic" >/dev/null &&
		[[ -z $(rdma res show qp 2>/dev/null | grep -v "comm \[") ]]'
}

# root_rules ROOT: sed commands writing ROOT as <root> in fabteld's output,
# in JSON ("\/" for "/") and in plain text (the golden outputs' fixture path)
root_rules() { # root
	local plain=${1//|/\\|} json
	json=${plain//\//\\\\/}
	printf 's|%s|<root>|g\ns|%s|<root>|g\n' "$json" "$plain"
}

