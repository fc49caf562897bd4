#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh - the long fuzz run (make fuzz): each libFuzzer target in
# build/fuzz for FUZZ_SECONDS (default 300) from its committed corpus, in a
# work directory; then the inputs that add coverage are merged back into
# userspace/fuzz/corpus/<target> (commit them).  Findings go to
# build/fuzz/crashes; the run exits 1 if there is any.
#   FUZZ_SECONDS=600 FUZZ_TARGETS="fuzz_http" make fuzz
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
B=$REPO/build/fuzz
SECONDS_EACH=${FUZZ_SECONDS:-300}
read -r -a TARGETS <<<"${FUZZ_TARGETS:-fuzz_config fuzz_snapshot fuzz_sysfs_port fuzz_rdmanl fuzz_http fuzz_api_json}"
ulimit -n 8192
mkdir -p "$B/crashes"
found=0

for t in "${TARGETS[@]}"; do
	[[ -x $B/$t ]] || { echo "fuzz: $B/$t not built (make)" >&2; exit 1; }
	c=$REPO/userspace/fuzz/corpus/${t#fuzz_}
	w=$B/work-${t#fuzz_}
	mkdir -p "$w" "$c"
	echo "fuzz: $t for ${SECONDS_EACH} s"
	(cd "$B" && "./$t" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$B/crashes/$t-" "$w" "$c") >"$B/$t.log" 2>&1
	rc=$?
	grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" \
		"$B/$t.log" | sed 's/^/  /'
	if ((rc)); then
		found=1
		echo "  FINDING (rc $rc): see $B/$t.log and $B/crashes/"
		grep -E -m5 "ERROR|SUMMARY" "$B/$t.log" | sed 's/^/  /'
	fi
	before=$(find "$c" -type f | wc -l)
	(cd "$B" && "./$t" -merge=1 "$c" "$w") >"$B/$t.merge.log" 2>&1
	echo "  corpus: $before -> $(find "$c" -type f | wc -l) inputs ($c)"
done
exit "$found"
