#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_demo.sh - `make demo ARGS=--headless`, in the suite's lab
# (scripts/demo.sh --headless --reuse-lab): the verdicts it prints match the
# faults it injected, and the faulted job's trace holds each of them.
#
#  - job 1002 (an idle QP) stays healthy; job 1001 (ib_write_bw rounds) is
#    failing with a link_flap reason on rxa port 1;
#  - the pause storm is reported on fakeroce0 priority 3;
#  - trace-1001.json is a valid Chrome trace, timestamps sorted, with the
#    300 ms and the 2 s flap as link-down spans of about those lengths,
#    the storm as a span on fakeroce0, and the loss burst's NAK or
#    out-of-sequence events as job-signal instants.
. "$(dirname "$0")/lib.sh"

OUT=$REPO/build/demo-test
ktap_begin 9
rm -rf "$OUT"

"$REPO/scripts/demo.sh" --headless --reuse-lab --out "$OUT" >"$REPO/build/demo-test.log" 2>&1
rc=$?
ktap_info "$(cat "$OUT/summary.txt" 2>/dev/null || tail -20 "$REPO/build/demo-test.log")"
ktap_eq "make demo ARGS=--headless (reusing the lab): exit 0, a summary" \
	"$rc $(jq -r '.jobs | length > 0' "$OUT/summary.json" 2>/dev/null)" "0 true"
S=$OUT/summary.json
ktap_eq "job 1002 (an idle QP on the flapped port) stays healthy" \
	"$(jq -r '.jobs[] | select(.host == "a" and .job_id == "1002") | .verdict' "$S")" healthy
ktap_eq "job 1001 is failing" \
	"$(jq -r '.jobs[] | select(.host == "a" and .job_id == "1001") | .verdict' "$S")" failing
ktap_eq "... with a link_flap reason naming rxa port 1" \
	"$(jq -r '[.jobs[] | select(.host == "a" and .job_id == "1001") | .reasons[] |
		select(.reason == "link_flap") | "\(.device)/\(.port)"] | unique | join(" ")' "$S")" "rxa/1"
ktap_eq "the pause storm is reported on fakeroce0 port 1, priority 3" \
	"$(jq -r '[.storms[] | "\(.device)/\(.port)/\(.priority)"] | join(" ")' "$S")" "fakeroce0/1/3"

T=$OUT/trace-1001.json
ktap_eq "trace-1001.json: a valid Chrome trace, timestamps sorted" \
	"$(trace_shape_errors "$T") $(jq '[.traceEvents[] | select(.ph != "M") | .ts] | . == sort' "$T")" \
	"0 true"
spans=$(jq -r '[.traceEvents[] | select(.ph == "X" and .name == "link down" and .args.device == "rxa") | .dur] | join(" ")' "$T")
ktap_info "link-down spans on rxa (us): $spans"
ktap_check "trace: the 300 ms and the 2 s flaps as link-down spans (0.1-1 s, 1.5-3 s)" \
	bash -c 'set -- $1; (($# == 2 && $1 >= 100000 && $1 <= 1000000 && $2 >= 1500000 && $2 <= 3000000))' _ "$spans"
ktap_eq "trace: the storm as a pause-storm span on fakeroce0 priority 3, in the host process" \
	"$(jq -r '[.traceEvents[] | select(.ph == "X" and .name == "pause storm") | "\(.args.device)/\(.args.priority)/\(.pid)"] | join(" ")' "$T")" \
	"fakeroce0/3/2"
ktap_eq "trace: the loss burst's NAK / out-of-sequence events as job-signal instants" \
	"$(jq -r '[.traceEvents[] | select(.ph == "i" and .cat == "job_signal") | .name] |
		any(. == "nak_seq_rcvd" or . == "out_of_sequence")' "$T")" true
rdma_quiet a; rdma_quiet b	# the next suite's traffic must not stall (lib.sh)
ktap_end
