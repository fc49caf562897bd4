#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fablab: guest=a
#
# lab_kmod.sh - fabtel.ko, built on the host against the lab kernel's headers,
# loads in the lab kernel, creates /sys/kernel/fabtel and unloads cleanly.
# Runs inside guest a.
. "$(dirname "$0")/lib.sh"

KO=$KMOD/fabtel.ko

ktap_begin 6

[[ -f $KO ]] || { ktap_fail "fabtel.ko was built" "$KO missing"; ktap_end; }
ktap_eq "vermagic matches the lab kernel" \
	"$(modinfo -F vermagic "$KO" | awk '{print $1}')" "$(uname -r)"
rmmod fabtel 2>/dev/null
ktap_check "insmod fabtel.ko" insmod "$KO"
ktap_check "lsmod lists fabtel" bash -c 'lsmod | grep -q "^fabtel "'
ktap_eq "/sys/kernel/fabtel/version" "$(cat /sys/kernel/fabtel/version 2>&1)" 1
ktap_check "rmmod fabtel" rmmod fabtel
ktap_check "/sys/kernel/fabtel is gone" test ! -e /sys/kernel/fabtel

ktap_end
