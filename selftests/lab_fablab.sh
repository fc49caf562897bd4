#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_fablab.sh - the lab tool itself, against a running lab: exit codes and
# streams of `run`, its timeout, the forwarded port (an HTTP server in each
# guest answered from the host), refusals and errors.
. "$(dirname "$0")/lib.sh"

ktap_begin 14

lab a 'exit 7'
ktap_eq "run returns the command's exit status" "$?" 7

out=$(lab b 'echo to-out; echo to-err >&2' 2>/dev/null)
err=$(lab b 'echo to-out; echo to-err >&2' 2>&1 >/dev/null)
ktap_eq "run keeps stdout and stderr apart" "$out|$err" "to-out|to-err"

ktap_eq "run executes in the named guest" "$(lab b hostname)" "fablab-b"

start=$SECONDS
"$FABLAB" run --timeout 2 a -- 'sleep 30'
rc=$?
ktap_eq "run --timeout 2 ends a 30 s command with 124" "$rc" 124
left=$(lab a 'pgrep -fc "^sleep 30$"')
ktap_eq "the timed-out command is gone from the guest" "${left:-0}" 0

for h in a b; do
	port=$("$FABLAB" port "$h")
	lab "$h" "mkdir -p /tmp/www && echo fabtel-\$(hostname) >/tmp/www/index.html &&
		busybox httpd -p 9465 -h /tmp/www"
	wait_for 10 curl -sf -m 2 "http://127.0.0.1:$port/index.html"
	body=$(curl -sS -m 5 "http://127.0.0.1:$port/index.html" 2>&1)
	lab "$h" 'pkill -f "busybox httpd -p 9465"'
	ktap_eq "host 127.0.0.1:$port reaches guest $h's port 9465" "$body" "fabtel-fablab-$h"
done

msg=$("$FABLAB" up 2>&1)
rc=$?
if ((rc != 0)) && [[ $msg == *"already up"* ]]; then
	ktap_pass "up refuses while the lab is up"
else
	ktap_fail "up refuses while the lab is up" "rc=$rc: $msg"
fi

msg=$("$FABLAB" impair a bogus 1% 2>&1)
rc=$?
if ((rc != 0)) && [[ $msg == *"not a netem parameter"* ]]; then
	ktap_pass "impair rejects an unknown netem parameter"
else
	ktap_fail "impair rejects an unknown netem parameter" "rc=$rc: $msg"
fi

ktap_check "status reports both guests up" \
	bash -c '"$FABLAB" status | grep -q "^a: up" && "$FABLAB" status | grep -q "^b: up"'

# Host ports come from below the ephemeral range, where no client
# connection can be holding them.
read -r eph _ </proc/sys/net/ipv4/ip_local_port_range
ports="$(sed -n 's/^\(link_port\|fwd_[ab]\)=//p' "${FABLAB_DIR:-$REPO/.lab}/lab.env" | sort -n | xargs)"
max=$(tr ' ' '\n' <<<"$ports" | sort -n | tail -1)
if [[ $(wc -w <<<"$ports") == 3 && ${max:-$eph} -lt $eph ]]; then
	ktap_pass "the lab's host ports ($ports) are below the ephemeral range ($eph)"
else
	ktap_fail "the lab's host ports are below the ephemeral range" "ports '$ports', ephemeral from $eph"
fi

# A port taken between fablab's pick and QEMU's bind: a second, one-guest
# lab is handed a link port something already listens on.
held=$(free_port)
socat "TCP-LISTEN:$held,bind=127.0.0.1,reuseaddr,fork" /dev/null &
spid=$!
wait_for 5 bash -c "ss -Hltn 'sport = :$held' | grep -q ."
lab2=$(mktemp -d)
msg=$(FABLAB_DIR=$lab2 FABLAB_LINK_PORT=$held "$FABLAB" up --hosts 1 2>&1)
rc=$?
got=$(sed -n 's/^link_port=//p' "$lab2/lab.env" 2>/dev/null)
up=$(FABLAB_DIR=$lab2 "$FABLAB" status 2>/dev/null | grep -c "^a: up pid=.* ready=yes")
# fablab trouble on that spare guest: clean after boot, then a planted
# warning is found (the suite's guests must stay clean)
t0=$(FABLAB_DIR=$lab2 "$FABLAB" trouble a 2>&1; echo "rc=$?")
FABLAB_DIR=$lab2 "$FABLAB" run a -- 'echo "<4>fablab-selftest: WARNING: planted line" >/dev/kmsg'
t1=$(FABLAB_DIR=$lab2 "$FABLAB" trouble a 2>&1; echo "rc=$?")
FABLAB_DIR=$lab2 "$FABLAB" down >/dev/null 2>&1
t2=$(FABLAB_DIR=$lab2 "$FABLAB" trouble a 2>/dev/null; echo "rc=$?")
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
rm -rf "$lab2"
ktap_eq "trouble: a freshly booted guest's kernel log is clean" "$t0" "rc=0"
if [[ $t1 == *"fablab-selftest: WARNING: planted line"*"rc=1" && $t2 == rc=255 ]]; then
	ktap_pass "trouble: a planted WARNING is found (rc 1), a guest that is down is rc 255"
else
	ktap_fail "trouble: a planted WARNING is found, a guest that is down is rc 255" "$t1 / $t2"
fi
if ((rc == 0 && up == 1)) && [[ $msg == *"a port was taken"* && -n $got && $got != "$held" ]]; then
	ktap_pass "up with the link port taken ($held) starts the guest again on $got"
else
	ktap_fail "up with the link port taken starts the guest again" \
		"rc=$rc up=$up link_port=$got held=$held: $msg"
fi

ktap_end
