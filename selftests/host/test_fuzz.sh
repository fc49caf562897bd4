#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fuzz.sh - the libFuzzer targets (userspace/fuzz, clang, ASan+UBSan):
# each replays its committed corpus, then fuzzes for FUZZ_SECONDS (default
# 4) from it.  A crash, a sanitizer report, a failed check in a harness, a
# leak or a 10 s hang fails the case; the input is kept in build/fuzz/crashes.
# `make fuzz` is the long run (scripts/fuzz.sh).
. "$(dirname "$0")/../lib.sh"

TARGETS=(fuzz_config fuzz_snapshot fuzz_sysfs_port fuzz_rdmanl fuzz_http fuzz_api_json fuzz_ddm fuzz_probe)
SECONDS_EACH=${FUZZ_SECONDS:-4}
B=$REPO/build/fuzz
CORPUS=$REPO/userspace/fuzz/corpus

ktap_begin $((${#TARGETS[@]} * 2))
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ulimit -n 8192		# fuzz_http: unfinished requests linger in the server
mkdir -p "$B/crashes"

for t in "${TARGETS[@]}"; do
	c=$CORPUS/${t#fuzz_}
	if [[ ! -x $B/$t ]]; then
		ktap_fail "$t: corpus replays clean" "$B/$t not built (make)"
		ktap_fail "$t: ${SECONDS_EACH} s of fuzzing" "$B/$t not built (make)"
		continue
	fi
	n=$(find "$c" -type f | wc -l)
	# each committed input once
	(cd "$TMP" && "$B/$t" -runs=0 -artifact_prefix="$B/crashes/$t-" "$c") \
		>"$TMP/$t.replay" 2>&1
	rc=$?
	if ((rc == 0 && n > 0)); then
		ktap_pass "$t: corpus replays clean ($n inputs)"
	else
		ktap_fail "$t: corpus replays clean ($n inputs)" "$(tail -30 "$TMP/$t.replay")"
	fi
	mkdir -p "$TMP/$t"
	(cd "$TMP" && "$B/$t" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$B/crashes/$t-" "$TMP/$t" "$c") \
		>"$TMP/$t.log" 2>&1
	rc=$?
	execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$TMP/$t.log")
	if ((rc == 0 && ${execs:-0} > 100)); then
		ktap_pass "$t: ${SECONDS_EACH} s of fuzzing, ${execs} inputs, no finding"
	else
		ktap_fail "$t: ${SECONDS_EACH} s of fuzzing (${execs:-0} inputs, rc $rc)" \
			"$(grep -E -A20 'ERROR|SUMMARY|deadly|Test unit written' "$TMP/$t.log" | head -60)"
	fi
done
ktap_end
