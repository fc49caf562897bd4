#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_kconfig.sh - the lab kernel has every option selftests/config lists
# (checked against /boot/config-<lab kernel>).
. "$(dirname "$0")/../lib.sh"

kver=$(head -n1 "$REPO/scripts/lab-kver")
[[ -f /boot/config-$kver ]] || { ktap_begin 1; ktap_fail "the lab kernel $kver is installed" "no /boot/config-$kver"; ktap_end; }
mapfile -t want < <(grep '^CONFIG_' "$SELFTESTS_DIR/config")
ktap_begin ${#want[@]}
for opt in "${want[@]}"; do
	if grep -qx "$opt" "/boot/config-$kver"; then
		ktap_pass "$kver: $opt"
	else
		ktap_fail "$kver: $opt" "$(grep "^${opt%%=*}=" "/boot/config-$kver" || echo "${opt%%=*} not set")"
	fi
done
ktap_end
