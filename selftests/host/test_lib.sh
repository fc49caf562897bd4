#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_lib.sh - the test harness tests itself: lib.sh's exit codes and
# deadlines, and run.sh's counting over fixture tests that pass, fail, skip,
# crash mid-plan, print no KTAP, or exit non-zero with only "ok" lines.
. "$(dirname "$0")/../lib.sh"

ktap_begin 10

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
