#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_sparse.sh - kmod/ through sparse (kbuild C=2: every file, whether or
# not it needs rebuilding) and the compiler: no warning, no error.
. "$(dirname "$0")/../lib.sh"

command -v sparse >/dev/null || ktap_skip_all "sparse not installed (scripts/deps.sh installs it)"
ktap_begin 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make -s -C "$REPO" sparse >"$log" 2>&1
rc=$?
ktap_eq "make sparse exits 0" "$rc" 0
warn=$(grep -E '(warning|error):' "$log")
ktap_eq "no sparse or compiler warning in kmod/" "$warn" ""
ktap_end
