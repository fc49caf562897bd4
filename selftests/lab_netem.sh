#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_netem.sh - netem loss + reorder on a's egress during ib_write_bw makes
# rxe's error counters move: the responder (b) sees out-of-sequence requests
# and NAKs them, the requester (a) receives those NAKs (rcvd_seq_err) and
# retries (completer_retry_err).  netem's own drop counter shows the loss was
# real.
. "$(dirname "$0")/lib.sh"

ktap_begin 6

cleanup() { "$FABLAB" impair a clear >/dev/null 2>&1; }
trap cleanup EXIT

ctr() { rxe_counter "$1" "$2"; }
seq0=$(ctr a rcvd_seq_err)
retry0=$(ctr a completer_retry_err)
oos0=$(ctr b out_of_seq_request)

"$FABLAB" impair a delay 1ms reorder 25% 50% loss 1%
ktap_check "netem installed on a's eth0" \
	lab a 'tc qdisc show dev eth0 | grep -q "netem.*loss 1%"'

write_bw "-D 4" >/dev/null

dropped=$(lab a "tc -s qdisc show dev eth0 | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -1")
ktap_ge "netem dropped packets" "${dropped:-0}" 1
ktap_ge "b (responder) out_of_seq_request moved" $(($(ctr b out_of_seq_request) - oos0)) 1
ktap_ge "a (requester) rcvd_seq_err moved" $(($(ctr a rcvd_seq_err) - seq0)) 1
ktap_ge "a (requester) completer_retry_err moved" $(($(ctr a completer_retry_err) - retry0)) 1

"$FABLAB" impair a clear
ktap_check "impair clear leaves no impairment (a netem root with no loss, delay or reorder)" \
	bash -c '! "$FABLAB" run a -- tc qdisc show dev eth0 | grep -qE "loss|delay|reorder"'

ktap_end
