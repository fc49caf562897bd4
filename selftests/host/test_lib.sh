#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_lib.sh - the test harness tests itself: lib.sh's exit codes and
# deadlines, and run.sh's counting over fixture tests that pass, fail, skip,
# crash mid-plan, print no KTAP, or exit non-zero with only "ok" lines.
. "$(dirname "$0")/../lib.sh"

ktap_begin 16

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- lib.sh ------------------------------------------------------------------
( ktap_begin 2 >/dev/null; ktap_pass x >/dev/null; ktap_fail y >/dev/null; ktap_end )
ktap_eq "ktap_end exits 1 after a failure" $? 1
( ktap_begin 2 >/dev/null; ktap_pass x >/dev/null; ktap_pass y >/dev/null; ktap_end )
ktap_eq "ktap_end exits 0 when every case passed" $? 0
( ktap_begin 2 >/dev/null; ktap_skip x r >/dev/null; ktap_skip y r >/dev/null; ktap_end )
ktap_eq "ktap_end exits 4 when every case skipped" $? 4
( ktap_begin 3 >/dev/null; ktap_pass x >/dev/null; ktap_end >/dev/null )
ktap_eq "ktap_end exits 1 when fewer cases ran than planned" $? 1

start=$SECONDS
wait_for 1 false
rc=$?
ktap_eq "wait_for gives up at its deadline" "$rc/$((SECONDS - start <= 3))" "1/1"

( sleep 0.5; touch "$tmp/flag" ) &
wait_for 10 test -e "$tmp/flag"
rc=$?
ktap_eq "wait_for returns once the condition holds" "$rc/$((SECONDS - start <= 5))" "0/1"

# ---- lib.sh: a lab suite's prelude (lab stubbed: the commands it is given) ----
mkdir -p "$tmp/repo/build"
printf '#!/bin/sh\n' >"$tmp/repo/build/fabteld"
out=$(
	REPO=$tmp/repo
	unset FABTELD
	lab() { echo "$1: ${2%%$'\n'*}" >>"$tmp/lab.log"; }	# HOST CMD: its first line
	note() { echo "$1" >>"$tmp/order"; }
	suite_begin
	echo "dir=${SUITE_DIR#"$tmp/repo/build/"} $(stat -c %a "$SUITE_DIR") fabteld=${FABTELD#"$SUITE_DIR/"}"
	cmp -s "$FABTELD" "$tmp/repo/build/fabteld" && echo copied
	suite_on_exit note "registered first"
	fabteld_start a one --set 'x=1 2'
	fabteld_start a one --set x=3
	fabteld_start b two
	suite_on_exit echo "loud"
	suite_on_exit note "registered last"
	exit 0
)
ktap_info "$out"
ktap_check "suite_begin: SUITE_DIR under build/ (mode 755), build/fabteld copied there as FABTELD" \
	grep -Eqx 'dir=suite\.[A-Za-z0-9]{6} 755 fabteld=fabteld' <<<"${out%%$'\n'*}"
ktap_check "... the copy has build/fabteld's bytes; SUITE_DIR is gone at exit" \
	bash -c '[[ $1 == *copied* ]] && ! ls -d "$2"/build/suite.* 2>/dev/null' _ "$out" "$tmp/repo"
ktap_eq "suite_cleanup: what was registered, the last first, its output discarded" \
	"$(cat "$tmp/order") $([[ $out == *loud* ]] && echo loud)" "registered last
registered first "
ktap_eq "fabteld_start: each start in its guest, pid and log by name; fabteld_stop at exit once a name, the last first" \
	"$(sed "s|$tmp/repo/build/suite\.[A-Za-z0-9]*|S|" "$tmp/lab.log")" \
	"a: S/fabteld --set x=1 2 >>/tmp/one.log 2>&1 & echo \$! >/tmp/one.pid
a: S/fabteld --set x=3 >>/tmp/one.log 2>&1 & echo \$! >/tmp/one.pid
b: S/fabteld  >>/tmp/two.log 2>&1 & echo \$! >/tmp/two.pid
b: [[ -f /tmp/two.pid ]] || exit 0; p=\$(cat /tmp/two.pid); kill \$p
a: [[ -f /tmp/one.pid ]] || exit 0; p=\$(cat /tmp/one.pid); kill \$p"
( REPO=$tmp/repo FABTELD=/opt/fabteld; suite_begin; echo "$FABTELD $(ls "$SUITE_DIR")" >"$tmp/set" )
ktap_eq "suite_begin keeps a FABTELD the caller set, copies nothing" "$(cat "$tmp/set")" "/opt/fabteld "
start=$SECONDS
fabteld_ready 1 "$(free_port)"
ktap_eq "fabteld_ready gives up at its deadline when nothing answers" "$?/$((SECONDS - start <= 8))" "1/1"

# ---- run.sh over fixtures -------------------------------------------------------
mkdir -p "$tmp/selftests/fx"
cp "$SELFTESTS_DIR/run.sh" "$SELFTESTS_DIR/lib.sh" "$tmp/selftests/"
fx() { # name body
	printf '#!/bin/bash\n%s\n' "$2" >"$tmp/selftests/fx/$1.sh"
}
fx pass 'printf "TAP version 13\n1..2\nok 1 a\nok 2 b\n"'
fx fail 'printf "TAP version 13\n1..2\nok 1 a\n# reason: 3 != 4\nnot ok 2 b\n"; exit 1'
fx skip 'printf "TAP version 13\n1..0 # SKIP no such hardware\n"; exit 4'
fx crash 'printf "TAP version 13\n1..3\nok 1 a\n"; exit 1'
fx silent 'exit 0'
fx liar 'printf "TAP version 13\n1..1\nok 1 a\n"; exit 2'
cat >"$tmp/selftests/Makefile" <<'MK'
print-host-progs:
	@echo selftests/fx/pass.sh selftests/fx/fail.sh selftests/fx/skip.sh selftests/fx/crash.sh selftests/fx/silent.sh selftests/fx/liar.sh
print-test-progs:
	@echo
MK
out=$(FABTEL_BYSTANDERS=0 SELFTESTS_OUT=$tmp/out "$tmp/selftests/run.sh" --host-only 2>&1)
rc=$?
ktap_info "$(echo "$out" | grep -E '^(ok|not ok)')"
# pass 2 + fail 1 + crash 1 + silent 1 + liar 1 passed;
# fail 1 + crash 2 missing + liar 1 failed; skip 1 skipped
ktap_eq "run.sh counts leaf cases" "$(echo "$out" | tail -1)" "6 passed, 4 failed, 1 skipped"
ktap_eq "run.sh exits 1 when a case failed" "$rc" 1
ktap_check "run.sh shows the failing case's reason nested" \
	grep -qx '  # reason: 3 != 4' <<<"$out"

cat >"$tmp/selftests/Makefile" <<'MK'
print-host-progs:
	@echo selftests/fx/pass.sh selftests/fx/skip.sh
print-test-progs:
	@echo
MK
out=$(FABTEL_BYSTANDERS=0 SELFTESTS_OUT=$tmp/out "$tmp/selftests/run.sh" --host-only 2>&1)
ktap_eq "run.sh exits 0 with passes and a skip" "$?/$(echo "$out" | tail -1)" \
	"0/2 passed, 0 failed, 1 skipped"

ktap_end
