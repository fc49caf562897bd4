#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_install.sh - `make install` and `make uninstall` into a DESTDIR with
# a PREFIX: every file where Documentation/fabteld.rst (DEPLOYING) says, the
# systemd unit valid for systemd-analyze with the binary's path filled in
# and its sandbox rated 5.0 or better by systemd-analyze security,
# the installed fabteld accepting the installed config, an edited config
# kept on reinstall and uninstall, nothing else left behind.
. "$(dirname "$0")/../lib.sh"

[[ -x $REPO/build/fabteld && -e $REPO/kmod/fabtel.ko ]] ||
	ktap_skip_all "not built (make)"

ktap_begin 12
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
mk0() { make -s -C "$REPO" DESTDIR="$D" PREFIX=/opt/ft "$@" >"$D.log" 2>&1; }
# fabtel.ko is built for the lab's kernel (this host's has no modules)
BUILT=$(modinfo -F vermagic "$REPO/kmod/fabtel.ko" | cut -d' ' -f1)
mk() { mk0 TARGET_KVER="$BUILT" "$@"; }

# a module for another kernel than the target: refused, with how to get it
mk0 install TARGET_KVER=0.0.0-other
ktap_check "make install for kernel 0.0.0-other fails, names both kernels and the headers package, installs nothing" \
	bash -c "[[ $? != 0 ]] && grep -q \"built for kernel '$BUILT', not for '0.0.0-other'\" \"$D.log\" &&
		grep -q 'apt-get install linux-headers-0.0.0-other' \"$D.log\" && [[ -z \$(find \"$D\" -type f) ]]"
mk install
ktap_eq "make install: exit 0" "$?" 0
want="etc/fabtel/fabteld.conf
opt/ft/bin/fabtel-trace
opt/ft/bin/fabtel-traffic
opt/ft/bin/fabtop
opt/ft/lib/fabtel/actions/k8s-node-condition
opt/ft/lib/fabtel/actions/slurm-node
opt/ft/lib/fabtel/fabtel.ko
opt/ft/lib/systemd/system/fabteld.service
opt/ft/sbin/fabteld
opt/ft/share/fabtel/grafana/fabtel-cluster.json
opt/ft/share/fabtel/grafana/fabtel.json
opt/ft/share/fabtel/prometheus/rules.yml
opt/ft/share/man/man1/fabtel-traffic.1
opt/ft/share/man/man1/fabtop.1
opt/ft/share/man/man4/fabtel.4
opt/ft/share/man/man8/fabtel-trace.8
opt/ft/share/man/man8/fabteld.8"
ktap_eq "binaries, module, unit, config, rules, dashboard, man pages in place" \
	"$(cd "$D" && find . -type f -not -path './opt/ft/share/doc/*' | sed 's|^\./||' | sort)" "$want"
ktap_eq "the config (password hashes) is 0640, the actions 0755" \
	"$(stat -c %a "$D/etc/fabtel/fabteld.conf") $(stat -c %a "$D"/opt/ft/lib/fabtel/actions/* | sort -u)" "640 755"
ktap_eq "the unit runs the installed fabteld with the installed config" \
	"$(grep '^ExecStart=' "$D/opt/ft/lib/systemd/system/fabteld.service")" \
	"ExecStart=/opt/ft/sbin/fabteld --config /etc/fabtel/fabteld.conf"
# systemd-analyze checks the paths it names: point them into DESTDIR
sed "s|/opt/ft/sbin/fabteld --config /etc|$D/opt/ft/sbin/fabteld --config $D/etc|" \
	"$D/opt/ft/lib/systemd/system/fabteld.service" >"$D/fabteld.service"
if command -v systemd-analyze >/dev/null; then
	# man:fabteld(8) is looked up: in the installed man pages
	out=$(MANPATH="$D/opt/ft/share/man" systemd-analyze verify "$D/fabteld.service" 2>&1)
	ktap_eq "systemd-analyze verify: no complaint" "$out" ""
else
	ktap_skip "systemd-analyze verify" "no systemd-analyze on this host"
fi
# man pages: man-db's own parser finds each one's name line
if command -v lexgrog >/dev/null; then
	ktap_eq "man pages: lexgrog reads NAME - description from all five" \
		"$(lexgrog "$D"/opt/ft/share/man/man?/* 2>&1 | grep -c ': "fab[a-z-]* - .')" 5
else
	ktap_skip "man pages parse" "no lexgrog (man-db) on this host"
fi
# the sandbox: systemd's own rating, offline (no running systemd needed)
if command -v systemd-analyze >/dev/null; then
	score=$(systemd-analyze security --offline=yes "$D/fabteld.service" 2>&1 |
		sed -n 's/.*Overall exposure level for fabteld.service: \([0-9.]*\).*/\1/p')
	ktap_info "systemd-analyze security: exposure ${score:-unreadable}"
	ktap_check "systemd-analyze security rates the unit 5.0 or better (was 8.9 EXPOSED)" \
		awk -v s="$score" 'BEGIN { exit !(s != "" && s + 0 <= 5.0) }'
else
	ktap_skip "systemd-analyze security" "no systemd-analyze on this host"
fi
# reload used to send SIGTERM and leave the service dead (Restart=on-failure)
ktap_eq "no ExecReload: a new configuration takes a restart" \
	"$(grep -c '^ExecReload' "$D/fabteld.service")" 0
out=$("$D/opt/ft/sbin/fabteld" --config "$D/etc/fabtel/fabteld.conf" --check-config 2>&1)
ktap_eq "installed fabteld --check-config on the installed config: exit 0, OK" \
	"$?:${out%% (*}" "0:fabteld: settings OK"

echo 'window_s = 30' >>"$D/etc/fabtel/fabteld.conf"
mk install
mk uninstall
ktap_eq "uninstall: only the (edited) config is left" \
	"$(cd "$D" && find . -type f -not -name 'fabteld.service' | sed 's|^\./||')" "etc/fabtel/fabteld.conf"
ktap_eq "... still edited" "$(tail -1 "$D/etc/fabtel/fabteld.conf")" "window_s = 30"
rm -f "$D.log"
ktap_end
