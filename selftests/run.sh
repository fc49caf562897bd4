#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - fabtel's test runner.
#
# Host phase: the programs in HOST_PROGS (selftests/Makefile) run on this
# machine: unit tests (cmocka, TAP), BPF_PROG_TEST_RUN tests, script tests.
# Lab phase: boots the lab once (scripts/fablab up), runs every TEST_PROGS
# test, then checks the guests' kernel logs and tears the lab down.  A test
# whose header has a line "# fablab: guest=HOST" runs inside that guest;
# the others run here and drive the guests themselves.
#
# Output is KTAP: each test's own output nested (indented two spaces) under
# one "ok N name" / "not ok N name" line.  The last line counts the leaf
# cases of all tests: "N passed, N failed, N skipped".  Exit 1 on a failure.
#
# usage: run.sh [--host-only | --lab-only] [--keep-lab] [--timeout S] [TEST...]
set -uo pipefail

SELFTESTS_DIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$SELFTESTS_DIR/.." && pwd)
FABLAB=$REPO/scripts/fablab
OUT=${SELFTESTS_OUT:-$REPO/build/selftests}
export REPO FABLAB

phase_host=1
phase_lab=1
keep_lab=0
test_timeout=600
only=()

while (($#)); do
	case $1 in
	--host-only) phase_lab=0 ;;
	--lab-only) phase_host=0 ;;
	--keep-lab) keep_lab=1 ;;
	--timeout) test_timeout=$2; shift ;;
	-h | --help) sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) only+=("$1") ;;
	esac
	shift
done

# Test lists live in the kselftest-style Makefile.
list() { make -s --no-print-directory -C "$SELFTESTS_DIR" "print-$1"; }

selected() { # name
	((${#only[@]} == 0)) && return 0
	local t
	for t in "${only[@]}"; do
		[[ $t == "$1" || $t == "$(basename "$1")" ]] && return 0
	done
	return 1
}

n_test=0
n_pass=0
n_fail=0
n_skip=0
lab_up=0

# count_leaves LOG RC: add the log's top-level results to the totals and
# return 0 if the test as a whole passed (or skipped), 1 if it failed.
count_leaves() {
	local log=$1 rc=$2 plan=-1 ran=0 p=0 f=0 s=0 line
	while IFS= read -r line; do
		case $line in
		"1..0 # SKIP"* | "1..0 # skip"*) plan=0; s=$((s + 1)) ;;
		1..[0-9]*) plan=${line#1..}; plan=${plan%% *} ;;
		"not ok "*) ran=$((ran + 1)); f=$((f + 1)) ;;
		"ok "*"# SKIP"* | "ok "*"# skip"*) ran=$((ran + 1)); s=$((s + 1)) ;;
		"ok "*) ran=$((ran + 1)); p=$((p + 1)) ;;
		esac
	done <"$log"
	if ((plan > ran)); then
		echo "  # planned $plan cases, $ran reported: $((plan - ran)) counted as failed"
		f=$((f + plan - ran))
	fi
	if ((ran == 0 && s == 0)); then
		# no KTAP at all: the exit code is the only result
		case $rc in
		0) p=1 ;;
		4) s=1 ;;
		*) f=1 ;;
		esac
	elif ((rc != 0 && rc != 4 && f == 0)); then
		echo "  # exited $rc although no case failed: counted as a failure"
		f=1
	fi
	n_pass=$((n_pass + p))
	n_fail=$((n_fail + f))
	n_skip=$((n_skip + s))
	((f == 0))
}

# run_bounded LOG CMD...: CMD in a session of its own, its output in LOG;
# past test_timeout the log gets what was still running (the command a
# test hung in), then the session is killed: status 124.
run_bounded() {
	local log=$1 pid w rc limit=${suite_timeout:-$test_timeout}
	shift
	rm -f "$log.timedout"
	setsid "$@" >"$log" 2>&1 </dev/null &
	pid=$!
	# The watchdog: its TERM handler set before its sleep starts (a TERM
	# that comes first ends it before any sleep is left behind), and no
	# hold on the caller's output (a sleep outliving it would keep a
	# command substitution around run.sh waiting: test_lib.sh hung so).
	{
		sl=
		trap '[[ -n $sl ]] && kill "$sl" 2>/dev/null; exit 0' TERM
		sleep "$limit" &
		sl=$!
		wait "$sl"
		trap - TERM
		: >"$log.timedout"
		{
			echo "# TIMEOUT after ${limit}s; still running:"
			ps -o pid=,etimes=,args= -s "$pid" | sed 's/^/#   /'
		} >>"$log"
		kill -TERM -- "-$pid" 2>/dev/null
		sleep 10
		kill -KILL -- "-$pid" 2>/dev/null
	} </dev/null >/dev/null 2>&1 &
	w=$!
	wait "$pid"
	rc=$?
	if [[ -e $log.timedout ]]; then
		wait "$w"	# its KILL of what outlived the TERM
		rm -f "$log.timedout"
		return 124
	fi
	kill -TERM "$w" 2>/dev/null
	wait "$w" 2>/dev/null
	return "$rc"
}

# run_one NAME CMD...: run a test, nest its KTAP, print its result line.
run_one() {
	local name=$1 log rc t0=$SECONDS
	shift
	n_test=$((n_test + 1))
	log=$OUT/$(echo "$name" | tr '/' '_').log
	run_bounded "$log" "$@"
	rc=$?
	sed 's/^/  /' "$log"
	echo "  # $name took $((SECONDS - t0)) s"
	if count_leaves "$log" "$rc"; then
		if ((rc == 4)); then
			echo "ok $n_test $name # SKIP"
		else
			echo "ok $n_test $name"
		fi
	else
		echo "not ok $n_test $name # exit=$rc, log: $log"
	fi
}

guest_of() { sed -n 's/^# fablab: guest=\([abc]\)$/\1/p' "$1" | head -1; }
# a suite that needs three hosts says so: "# fablab: hosts=3"
hosts_of() { grep -q '^# fablab: hosts=3$' "$1" && echo 3 || echo 2; }
# a suite longer than test_timeout says so in a header line "# timeout: S"
timeout_of() { sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$1" | head -1; }

# Lines of a guest's kernel log that mean a kernel bug.
guest_trouble() { # host: its kernel log's trouble lines, or why it could not be read
	local out
	out=$("$FABLAB" trouble "$1" 2>&1) || echo "${out:-fablab trouble $1 failed}"
}

cleanup() {
	[[ -n ${bystander_pid:-} ]] && kill "$bystander_pid" 2>/dev/null
	if ((lab_up && !keep_lab)); then
		FABLAB_QUIET=1 "$FABLAB" down
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$OUT"
echo "KTAP version 1"

# A host's own monitoring must outlive the run: the node_exporter and
# Prometheus processes running now (the host's services, if any), and one
# node_exporter this run starts as a stand-in for such a service, must all
# still run, with the same pids, at the end.  A test that stops what it
# did not start (pkill by name, systemctl) fails this check.
bystanders=()
bystander_pid=
bystanders_start() {
	local p port
	# (off for run.sh's own tests, which run it nested: FABTEL_BYSTANDERS=0)
	[[ ${FABTEL_BYSTANDERS:-1} == 0 ]] && return 0
	# (comm is cut at 15 characters: prometheus-node-exporter shows as
	# prometheus-node)
	for p in $(pgrep -x prometheus; pgrep -x prometheus-node; pgrep -x node_exporter); do
		# a zombie is already gone (an earlier run's stand-in, not reaped yet)
		[[ $(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1) == Z ]] && continue
		bystanders+=("$p:$(cat "/proc/$p/comm" 2>/dev/null)")
	done
	command -v prometheus-node-exporter >/dev/null || return 0
	port=$("$FABLAB" free-port) || return 0
	setsid prometheus-node-exporter --web.listen-address="127.0.0.1:$port" \
		--collector.disable-defaults --collector.loadavg \
		>"$OUT/bystander-node-exporter.log" 2>&1 &
	bystander_pid=$!
	bystanders+=("$bystander_pid:stand-in prometheus-node-exporter")
}
bystanders_check() {
	local b gone=()
	((${#bystanders[@]})) || return 0
	n_test=$((n_test + 1))
	for b in "${bystanders[@]}"; do
		# alive, and not a zombie (the stand-in is this shell's child)
		[[ $(sed 's/.*) //' "/proc/${b%%:*}/stat" 2>/dev/null | cut -d' ' -f1) =~ ^[RSDI]$ ]] ||
			gone+=("$b")
	done
	if ((${#gone[@]} == 0)); then
		echo "ok $n_test host-monitoring-left-running # ${#bystanders[@]} process(es): ${bystanders[*]}"
		n_pass=$((n_pass + 1))
	else
		echo "  # stopped during the run: ${gone[*]}"
		echo "not ok $n_test host-monitoring-left-running"
		n_fail=$((n_fail + 1))
	fi
	[[ -n $bystander_pid ]] && kill "$bystander_pid" 2>/dev/null
	bystander_pid=
}
bystanders_start

# The first lab boots while the host tests run (its guests are up before
# the unit tests are done); lab_phase waits for it.
kv1=${FABLAB_KVER:-$(sed -n 1p "$REPO/scripts/lab-kver")}
selected_of() { # LIST: the selected tests of test-progs or test-progs-kv2
	local t
	for t in $(list "$1"); do selected "$t" && echo "$t"; done
}
mapfile -t lab_tests < <(selected_of test-progs)
# the suites of three hosts run in a lab of their own, after the others
lab3_tests=()
for t in "${!lab_tests[@]}"; do
	[[ $(hosts_of "$SELFTESTS_DIR/${lab_tests[t]}") == 3 ]] || continue
	lab3_tests+=("${lab_tests[t]}")
	unset "lab_tests[t]"
done
lab_tests=("${lab_tests[@]}")
preboot_pid=
if ((phase_host && phase_lab && ${#lab_tests[@]})); then
	"$FABLAB" down >/dev/null 2>&1
	lab_up=1
	FABLAB_KVER=$kv1 "$FABLAB" up >"$OUT/fablab-up.log" 2>&1 &
	preboot_pid=$!
fi

if ((phase_host)); then
	echo "# host phase"
	for t in $(list host-progs); do
		selected "$t" || continue
		case $t in
		*.sh) run_one "host/$(basename "$t")" bash "$REPO/$t" ;;
		*) run_one "host/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$REPO/$t" ;;
		esac
	done
fi

# The suites share one booted lab.  Each guest's state (scripts/lab/
# guest-state: fabtel/fakeroce loaded, RDMA and net devices, addresses,
# qdiscs, the processes suites start, BPF pins) is taken after boot; after
# each suite a guest whose state moved is reset, and one that the reset
# cannot bring back fails a case NAME/lab-reset-HOST.
declare -A lab_base=()
guest_state() { "$FABLAB" run "$1" -- "bash $REPO/scripts/lab/guest-state ${2:-print}" 2>&1; }
LAB_HOSTS=2			# the hosts of the lab phase under way
lab_guests() { local all=(a b c); echo "${all[@]:0:LAB_HOSTS}"; }
lab_settle() { # NAME (a suite's)
	local h now pids=()
	for h in $(lab_guests); do
		guest_state "$h" >"$OUT/state-$h" &
		pids+=($!)
	done
	wait "${pids[@]}"	# (not every child: the bystander never ends)
	for h in $(lab_guests); do
		now=$(<"$OUT/state-$h")
		[[ $now == "${lab_base[$h]}" ]] && continue
		diff <(echo "${lab_base[$h]}") <(echo "$now") | sed -n "s|^> |  # lab $h moved after $1: |p"
		guest_state "$h" reset >/dev/null
		now=$(guest_state "$h")
		[[ $now == "${lab_base[$h]}" ]] && continue
		n_test=$((n_test + 1))
		n_fail=$((n_fail + 1))
		diff <(echo "${lab_base[$h]}") <(echo "$now") | sed 's/^/  # /'
		echo "not ok $n_test $1/lab-reset-$h"
	done
}

# lab_phase NAME KVER KMOD TEST...: boot the lab on KVER, run each TEST with
# the kernel modules of KMOD (the host-driven ones through FABTEL_KMOD, the
# guest-side ones with it set in the guest), names NAME/TEST; then the guests'
# kernel logs must be clean.
lab_phase() {
	local name=$1 kver=$2 kmod=$3 t g trouble rc
	shift 3
	if [[ -n $preboot_pid && $kver == "$kv1" ]]; then
		wait "$preboot_pid"
		rc=$?
		preboot_pid=
	else
		"$FABLAB" down >/dev/null 2>&1
		lab_up=0
		FABLAB_KVER=$kver "$FABLAB" up --hosts "$LAB_HOSTS" >"$OUT/fablab-up.log" 2>&1
		rc=$?
	fi
	if ((rc != 0)); then
		lab_up=0
		sed 's/^/  # /' "$OUT/fablab-up.log"
		for t in "$@"; do
			n_test=$((n_test + 1))
			n_fail=$((n_fail + 1))
			echo "not ok $n_test $name/$t # the lab did not come up"
		done
		return
	fi
	lab_up=1
	sed 's/^/# /' "$OUT/fablab-up.log"
	for g in $(lab_guests); do lab_base[$g]=$(guest_state "$g"); done
	for t in "$@"; do
		g=$(guest_of "$SELFTESTS_DIR/$t")
		suite_timeout=$(timeout_of "$SELFTESTS_DIR/$t")
		if [[ -n $g ]]; then
			run_one "$name/$t" "$FABLAB" run "$g" -- \
				"FABTEL_KMOD=$kmod bash $SELFTESTS_DIR/$t"
		else
			run_one "$name/$t" env FABTEL_KMOD="$kmod" bash "$SELFTESTS_DIR/$t"
		fi
		suite_timeout=
		lab_settle "$name/$t"
	done
	# Whatever the tests did, the guest kernels must not have complained.
	n_test=$((n_test + 1))
	trouble=$(for h in $(lab_guests); do guest_trouble "$h" | sed "s/^/$h: /"; done)
	if [[ -z $trouble ]]; then
		echo "ok $n_test $name/guest-kernel-logs-clean"
		n_pass=$((n_pass + 1))
	else
		echo "$trouble" | sed 's/^/  # /'
		# the whole logs, for the context of each line (the lab goes down next)
		for h in $(lab_guests); do
			"$FABLAB" run "$h" -- dmesg >"$OUT/${name//\//_}-dmesg-$h.log" 2>&1
		done
		echo "  # whole kernel logs: $OUT/${name//\//_}-dmesg-{$(lab_guests | tr ' ' ,)}.log"
		echo "not ok $n_test $name/guest-kernel-logs-clean"
		n_fail=$((n_fail + 1))
	fi
}

# lab_bpf.sh records the BPF objects each kernel's phase ran: the same bytes
bpf_objects_same() {
	local recs=("$OUT"/bpf-objects-*.sha256)

	((${#recs[@]} == 2)) && [[ -f ${recs[0]} ]] || return 0
	n_test=$((n_test + 1))
	if cmp -s "${recs[0]}" "${recs[1]}"; then
		echo "ok $n_test bpf-objects-identical-on-both-kernels"
		sed 's/^/  # /' "${recs[0]}"
		n_pass=$((n_pass + 1))
	else
		diff "${recs[0]}" "${recs[1]}" | sed 's/^/  # /'
		echo "not ok $n_test bpf-objects-identical-on-both-kernels"
		n_fail=$((n_fail + 1))
	fi
}

if ((phase_lab)); then
	rm -f "$OUT"/bpf-objects-*.sha256
	if ((${#lab_tests[@]})); then
		# FABLAB_KVER picks another kernel for the whole run (its kmod2 build)
		kmod1=$REPO/kmod
		[[ $kv1 == "$(sed -n 1p "$REPO/scripts/lab-kver")" ]] || kmod1=$REPO/build/kmod-$kv1/kmod
		echo "# lab phase: booting the lab (fablab up, $kv1)"
		lab_phase lab "$kv1" "$kmod1" "${lab_tests[@]}"
	fi
	# the suites of three hosts: their own lab, on the first kernel only
	if ((${#lab3_tests[@]})); then
		kmod1=$REPO/kmod
		[[ $kv1 == "$(sed -n 1p "$REPO/scripts/lab-kver")" ]] || kmod1=$REPO/build/kmod-$kv1/kmod
		echo "# lab phase of three hosts: booting the lab (fablab up --hosts 3, $kv1)"
		[[ -n $preboot_pid ]] && wait "$preboot_pid"
		preboot_pid=
		LAB_HOSTS=3
		lab_phase lab3 "$kv1" "$kmod1" "${lab3_tests[@]}"
		LAB_HOSTS=2
	fi
	# the kernel-side suites again on the second kernel line (not when
	# FABLAB_KVER chose one kernel for the run)
	kv2=$(sed -n 2p "$REPO/scripts/lab-kver")
	[[ -n ${FABLAB_KVER:-} ]] && kv2=
	mapfile -t lab_tests < <(selected_of test-progs-kv2)
	if [[ -n $kv2 ]] && ((${#lab_tests[@]})); then
		echo "# lab phase on $kv2: booting the lab (FABLAB_KVER=$kv2)"
		lab_phase "lab-$kv2" "$kv2" "$REPO/build/kmod-$kv2/kmod" "${lab_tests[@]}"
	fi
	bpf_objects_same
fi

bystanders_check
echo "$n_pass passed, $n_fail failed, $n_skip skipped"
((n_fail == 0))
