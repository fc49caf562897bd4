#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_sparse.sh - kmod/ through sparse (kbuild C=2: every file, whether or
# not it needs rebuilding) and the compiler: no warning, no error; for the
# lab kernel (make sparse) and for the second pinned kernel (the same source
# in build/kmod-KVER2, make kmod2 first).
. "$(dirname "$0")/../lib.sh"

command -v sparse >/dev/null || ktap_skip_all "sparse not installed (scripts/deps.sh installs it)"
KV2=$(sed -n 2p "$REPO/scripts/lab-kver")
ktap_begin 4
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make -s -C "$REPO" sparse >"$log" 2>&1
rc=$?
ktap_eq "make sparse exits 0" "$rc" 0
warn=$(grep -E '(warning|error):' "$log")
ktap_eq "no sparse or compiler warning in kmod/" "$warn" ""
make -s -C "$REPO" kmod2 >"$log" 2>&1 &&
	make -s -C "/lib/modules/$KV2/build" M="$REPO/build/kmod-$KV2" C=2 modules >"$log" 2>&1
rc=$?
ktap_eq "$KV2: the same source through sparse, exit 0" "$rc" 0
warn=$(grep -E '(warning|error):' "$log")
ktap_eq "$KV2: no sparse or compiler warning" "$warn" ""
ktap_end
