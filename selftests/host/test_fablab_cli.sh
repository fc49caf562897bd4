#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_fablab_cli.sh - fablab's errors, without a running lab: each bad
# invocation fails with a message that says what to do; a guest that cannot
# boot in time is reported with its serial log and leaves nothing behind.
. "$(dirname "$0")/../lib.sh"

ktap_begin 14

tmp=$(mktemp -d)
export FABLAB_DIR=$tmp/lab
trap '"$FABLAB" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# expect_err DESC PATTERN CMD...: CMD fails and its stderr matches PATTERN
expect_err() {
	local desc=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	if ((rc != 0)) && [[ $out == *$pat* ]]; then
		ktap_pass "$desc"
	else
		ktap_fail "$desc" "rc=$rc stderr: $out"
	fi
}

expect_err "run without a lab says it is not up" "not up" "$FABLAB" run a -- true
expect_err "run without HOST" "missing HOST" "$FABLAB" run
expect_err "run without --" "expected --" "$FABLAB" run a true
expect_err "unknown host" "unknown host 'z'" "$FABLAB" run z -- true
expect_err "flap --count must be a number" "whole numbers" "$FABLAB" flap a --count x
expect_err "up --hosts 4" "must be 1, 2 or 3" "$FABLAB" up --hosts 4
expect_err "unknown command prints usage" "usage: fablab" "$FABLAB" frobnicate
expect_err "impair --sport wants a range" "--sport wants LO-HI" "$FABLAB" impair a --sport 49152 loss 100%
expect_err "impair --sport range upside down" "1 <= LO <= HI <= 65535" "$FABLAB" impair a --sport 60000-50000 loss 100%
expect_err "a missing kernel names the package" "apt-get install linux-image-9.9.9" \
	env FABLAB_KVER=9.9.9 "$FABLAB" up

# PATH with every tool but QEMU
mkdir -p "$tmp/bin"
for f in /usr/local/bin/* /usr/bin/* /bin/* /usr/sbin/* /sbin/*; do
	[[ ${f##*/} == qemu-system-x86_64 || -e $tmp/bin/${f##*/} ]] ||
		ln -s "$f" "$tmp/bin/${f##*/}"
done
expect_err "missing QEMU names the package" "apt-get install qemu-system-x86" \
	env PATH="$tmp/bin" "$FABLAB" up

# A boot deadline too short for any guest: the serial log tail is shown and
# the QEMU that was started is stopped.
out=$(FABLAB_BOOT_TIMEOUT=1 "$FABLAB" up --hosts 1 2>&1)
rc=$?
if ((rc != 0)) && [[ $out == *"did not come up in 1s"* && $out == *"console.log"* ]]; then
	ktap_pass "a boot timeout reports the serial console tail"
else
	ktap_fail "a boot timeout reports the serial console tail" "rc=$rc: $out"
fi
left=$(pgrep -f "fablab-a,debug-threads=on -pidfile $FABLAB_DIR/" | wc -l)
socks=$(find "$FABLAB_DIR" -type s | wc -l)
ktap_eq "after a failed up: no QEMU, no socket left" "$left/$socks" "0/0"

# free-port: below the ephemeral range, and nothing on it (ss, all states)
read -r eph _ </proc/sys/net/ipv4/ip_local_port_range
p=$("$FABLAB" free-port)
if [[ $p =~ ^[0-9]+$ ]] && ((p >= 1024 && p < eph)) && [[ -z $(ss -Htan "sport = :$p") ]]; then
	ktap_pass "free-port gives $p: below the ephemeral range ($eph), no socket on it"
else
	ktap_fail "free-port gives a port below the ephemeral range with no socket" "'$p', ephemeral from $eph"
fi

ktap_end
