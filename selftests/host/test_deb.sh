#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_deb.sh - the Debian packages (make deb, Documentation/packaging.rst)
# in a throwaway Debian 12 root (debootstrap, minbase) that has nothing but
# what apt pulls in for them:
#
#  - make deb builds fabtel and fabtel-dkms; lintian finds no error;
#  - fabtel installs with only its runtime dependencies; the packaged
#    fabteld's --once metrics over the plain-sysfs fixture is the golden
#    output (test_golden.sh's); its unit is enabled (not started: no
#    systemd runs there), its config a conffile;
#  - an upgrade keeps an edited config and the enablement; remove keeps the
#    config; purge removes it and the enablement (Debian policy 10.7.3);
#  - fabtel-dkms installs, DKMS builds fabtel.ko for the pinned lab kernel
#    (its headers installed in the root) with that kernel's vermagic; the
#    module is loaded at boot after ib_core; purge leaves no DKMS entry,
#    source or module.
# Needs root and the Debian mirror this host's apt uses.
. "$(dirname "$0")/../lib.sh"

H=$REPO/selftests/host
VERSION=$(sed -n 's/^VERSION := //p' "$REPO/Makefile")
KV1=$(sed -n 1p "$REPO/scripts/lab-kver")
DEBS=$REPO/build/deb
L=$REPO/build/deb-test		# the logs, the root, the upgrade
R=$L/root
MIRROR=${FABTEL_DEB_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' \
	/etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

((EUID == 0)) || ktap_skip_all "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null && command -v dpkg-buildpackage >/dev/null ||
	ktap_skip_all "debootstrap or dpkg-dev missing (scripts/deps.sh)"

ktap_begin 14
mkdir -p "$L"

in_root() { chroot "$R" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
cleanup() {
	mountpoint -q "$R/proc" && umount "$R/proc"
	mountpoint -q "$R/proc" || rm -rf --one-file-system "$R"
}
trap cleanup EXIT

# ---- build -------------------------------------------------------------------------
make -s -C "$REPO" deb >"$L/make-deb.log" 2>&1
rc=$?
ktap_info "$(grep -v 'root privileges' "$L/make-deb.log" | tail -5)"
ktap_eq "make deb: exit 0 (lintian --fail-on error included)" "$rc" 0
deb=$DEBS/fabtel_${VERSION}_amd64.deb
dkms=$DEBS/fabtel-dkms_${VERSION}_all.deb
tags=$(lintian "$DEBS/fabtel_${VERSION}_amd64.changes" 2>/dev/null)
ktap_info "lintian (errors and warnings): ${tags:-none}"
ktap_eq "lintian: no error, no warning" "$(grep -c '^[EW]:' <<<"$tags")" 0

# ---- a fresh Debian 12 root --------------------------------------------------------
rm -rf --one-file-system "$R"
debootstrap --variant=minbase bookworm "$R" "$MIRROR" >"$L/debootstrap.log" 2>&1
rc=$?
ktap_eq "debootstrap a minimal Debian 12 root from $MIRROR" "$rc" 0
((rc == 0)) || { ktap_info "$(tail -3 "$L/debootstrap.log")"; ktap_end; }
mount -t proc proc "$R/proc"
# Debian's switch for "no daemon starts here" (no systemd runs in a chroot)
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod 0755 "$R/usr/sbin/policy-rc.d"
# this host's suites (bookworm-updates and -security: the pinned kernel's
# headers may be there only)
rm -f "$R/etc/apt/sources.list"
cp /etc/apt/sources.list.d/*.sources "$R/etc/apt/sources.list.d/" 2>/dev/null
[[ -e /etc/apt/sources.list ]] && cp /etc/apt/sources.list "$R/etc/apt/"
in_root apt-get update -q >"$L/apt-update.log" 2>&1
cp "$deb" "$dkms" "$R/tmp/"
cp -a "$H/fixtures/sysfs" "$R/tmp/fx"

# ---- fabtel: install ---------------------------------------------------------------
in_root apt-get install -y -q --no-install-recommends "/tmp/${deb##*/}" >"$L/install.log" 2>&1
ktap_eq "apt installs fabtel and its runtime dependencies only: exit 0" "$?" 0
ktap_info "pulled in: $(sed -n 's/^Setting up \([^ :]*\).*/\1/p' "$L/install.log" | xargs)"

golden() { sed -f "$H/golden/volatile.sed" -f <(root_rules /tmp/fx); }
out=$(in_root fabteld --set sysfs_root=/tmp/fx --set proc_root=/tmp/fx --set bpf=off \
	--once metrics 2>"$L/fabteld.err" | golden)
ktap_check "the packaged fabteld --once metrics over the sysfs fixture is golden/sysfs-metrics.txt" \
	diff <(echo "$out") "$H/golden/sysfs-metrics.txt"
ktap_eq "fabteld --version" "$(in_root fabteld --version)" "fabteld $VERSION"

want="/etc/fabtel/fabteld.conf
/lib/systemd/system/fabteld.service
/usr/bin/fabtel-trace
/usr/bin/fabtel-traffic
/usr/bin/fabtop
/usr/lib/fabtel/actions/k8s-node-condition
/usr/lib/fabtel/actions/slurm-node
/usr/sbin/fabteld
/usr/share/doc/fabtel/runbooks.rst
/usr/share/fabtel/grafana/fabtel-cluster.json
/usr/share/fabtel/grafana/fabtel.json
/usr/share/fabtel/prometheus/rules.yml
/usr/share/man/man1/fabtel-traffic.1.gz
/usr/share/man/man1/fabtop.1.gz
/usr/share/man/man4/fabtel.4.gz
/usr/share/man/man8/fabtel-trace.8.gz
/usr/share/man/man8/fabteld.8.gz"
wants=$R/etc/systemd/system/multi-user.target.wants/fabteld.service
ktap_check "its files in place, unmodified (dpkg --verify), the config a conffile (0640), the unit enabled" \
	bash -c '[[ $(grep -xFf <(echo "$1") <(chroot "$2" dpkg -L fabtel) | sort) == "$1" ]] &&
		[[ -z $(chroot "$2" dpkg --verify fabtel) ]] &&
		grep -qx /etc/fabtel/fabteld.conf "$2/var/lib/dpkg/info/fabtel.conffiles" &&
		[[ $(stat -c %a "$2/etc/fabtel/fabteld.conf") == 640 ]] &&
		[[ $(readlink "$3") == /lib/systemd/system/fabteld.service ]]' _ "$want" "$R" "$wants"
ktap_check "the rules' runbook_url points at the packaged runbooks" \
	grep -qF 'file:///usr/share/doc/fabtel/runbooks.rst{{ end }}#' "$R/usr/share/fabtel/prometheus/rules.yml"

# ---- upgrade, remove, purge ----------------------------------------------------------
echo "# edited by the operator" >>"$R/etc/fabtel/fabteld.conf"
up=$L/up
rm -rf "$up" && mkdir -p "$up" && dpkg-deb -R "$deb" "$up/x" &&
	sed -i "s/^Version: .*/Version: $VERSION+up1/" "$up/x/DEBIAN/control" &&
	dpkg-deb -b "$up/x" "$R/tmp/up.deb" >/dev/null
in_root dpkg -i /tmp/up.deb >"$L/upgrade.log" 2>&1
rc=$?
ktap_check "upgrade to $VERSION+up1: exit 0, the edited config kept, the unit still enabled" \
	bash -c '[[ $1 == 0 && $(chroot "$2" dpkg-query -W -f="\${Version}" fabtel) == "$3+up1" ]] &&
		grep -q "edited by the operator" "$2/etc/fabtel/fabteld.conf" && [[ -L $4 ]]' \
	_ "$rc" "$R" "$VERSION" "$wants"
rm -rf "$up"

in_root dpkg -r fabtel >"$L/remove.log" 2>&1
ktap_check "remove: the binaries and the unit go, the config stays (state rc)" \
	bash -c '[[ ! -e $1/usr/sbin/fabteld && ! -e $1/lib/systemd/system/fabteld.service &&
		-e $1/etc/fabtel/fabteld.conf &&
		$(chroot "$1" dpkg-query -W -f="\${db:Status-Abbrev}" fabtel) == "rc " ]]' _ "$R"
in_root dpkg -P fabtel >>"$L/remove.log" 2>&1
ktap_check "purge: the config and the unit's enablement go too, dpkg forgets the package" \
	bash -c '[[ ! -e $1/etc/fabtel && ! -e $2 ]] && ! chroot "$1" dpkg-query -W fabtel 2>/dev/null' \
	_ "$R" "$wants"

# ---- fabtel-dkms -------------------------------------------------------------------------
in_root apt-get install -y -q --no-install-recommends "/tmp/${dkms##*/}" "linux-headers-$KV1" \
	>"$L/dkms.log" 2>&1
rc=$?
ktap_info "$(grep -E 'Building|Done|skipped|Error' "$L/dkms.log" | head -5)"
ko=$R/lib/modules/$KV1/updates/dkms/fabtel.ko
ktap_check "fabtel-dkms with $KV1's headers: exit 0, dkms status installed, fabtel.ko for $KV1" \
	bash -c '[[ $1 == 0 ]] && chroot "$2" dkms status fabtel | grep -q "$3/$4, $5, .*: installed" &&
		[[ $(modinfo -F vermagic "$6" | cut -d" " -f1) == "$5" ]]' \
	_ "$rc" "$R" fabtel "$VERSION" "$KV1" "$ko"
ktap_check "loaded at boot after ib_core (modules-load.d, modprobe.d softdep)" \
	bash -c 'diff <(grep -v "^#" "$1/usr/lib/modules-load.d/fabtel.conf") <(printf "ib_core\nfabtel\n") &&
		grep -qx "softdep fabtel pre: ib_core" "$1/lib/modprobe.d/fabtel.conf"' _ "$R"
in_root dpkg -P fabtel-dkms >"$L/dkms-purge.log" 2>&1
rc=$?
ktap_check "purge fabtel-dkms: no DKMS entry, source, module or boot-load file left" \
	bash -c '[[ $1 == 0 && -z $(chroot "$2" dkms status fabtel) && ! -e $2/usr/src/fabtel-$3 &&
		! -e $4 && ! -e $2/usr/lib/modules-load.d/fabtel.conf ]]' _ "$rc" "$R" "$VERSION" "$ko"

ktap_end
