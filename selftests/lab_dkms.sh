#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lab_dkms.sh - fabtel.ko through DKMS for both pinned kernels
# (scripts/lab-kver), loaded at boot as a systemd host loads it:
#
#  - make dkms-install builds and installs it for 6.1 and 6.12 (dkms status),
#    each module with its kernel's vermagic (modinfo);
#  - in a guest booted on each kernel after the install, systemd's
#    own systemd-modules-load reads /etc/modules-load.d/fabtel.conf and loads
#    ib_core and fabtel from updates/dkms, nobody running insmod; fabteld
#    there reports the fabtel_ko source up; its kernel log is clean;
#  - make dkms-uninstall leaves nothing: no DKMS entry, no source, no
#    module, no modules-load.d or modprobe.d file.
# The guests see this host's / read-only, so what DKMS installs here is what
# they boot with; the suite removes it all at exit.
. "$(dirname "$0")/lib.sh"

KV1=$(sed -n 1p "$REPO/scripts/lab-kver")
KV2=$(sed -n 2p "$REPO/scripts/lab-kver")
# dkms makes a signing key at its first build: if this suite made it, it goes too
[[ -e /var/lib/dkms/mok.key ]] && mok_was=1 || mok_was=0
L2=$REPO/build/lab-dkms		# the booted-after-install guests' lab folder
suite_begin			# FABTELD, for those guests

ktap_begin 12

cleanup() {
	FABLAB_DIR=$L2 "$FABLAB" down >/dev/null 2>&1
	rm -rf "$L2"
	make -s -C "$REPO" dkms-uninstall >/dev/null 2>&1
	((mok_was)) || rm -f /var/lib/dkms/mok.key /var/lib/dkms/mok.pub
}
suite_on_exit cleanup

# ---- DKMS on this host, for both kernels ---------------------------------------------
make -s -C "$REPO" dkms-install DKMS_KVERS="$KV1 $KV2" >"$REPO/build/dkms-install.log" 2>&1
ktap_eq "make dkms-install for $KV1 and $KV2: exit 0" "$?" 0
ktap_check "dkms status: fabtel installed for both kernels" \
	bash -c "s=\$(dkms status fabtel 2>/dev/null); grep -q '$KV1, .*: installed' <<<\"\$s\" && grep -q '$KV2, .*: installed' <<<\"\$s\""
for k in "$KV1" "$KV2"; do
	f=$(ls /lib/modules/"$k"/updates/dkms/fabtel.ko* 2>/dev/null | head -1)
	ktap_eq "$k's fabtel.ko carries its vermagic" "$(modinfo -F vermagic "$f" 2>/dev/null | cut -d' ' -f1)" "$k"
done

# ---- loaded at boot by systemd-modules-load, as a systemd host does ------------------
# A guest of each kernel booted after the install (its own lab folder, one
# guest), as a host reboots into its kernel.
k2() { FABLAB_DIR=$L2 "$FABLAB" run a -- "$@"; }
for k in "$KV1" "$KV2"; do
	mkdir -p "$L2"
	FABLAB_DIR=$L2 FABLAB_KVER=$k "$FABLAB" up --hosts 1 >"$L2.log" 2>&1
	ktap_eq "a guest boots on $k, after the install" "$?:$(k2 uname -r)" "0:$k"
	ktap_check "$k: systemd-modules-load loads DKMS's fabtel.ko (nobody runs insmod); fabteld: fabtel_ko up" \
		k2 "/lib/systemd/systemd-modules-load && [[ \$(modinfo -F filename fabtel) == */updates/dkms/fabtel.ko* ]] &&
			grep -q '^fabtel ' /proc/modules &&
			[[ \$($FABTELD -b off --once snapshot | jq -r .sources.fabtel_ko.state) == up ]]"
	ktap_check "$k: fabtel.ko found rxa's port and unloads; the kernel log is clean" \
		k2 "dmesg | grep -q 'fabtel: rxa: 1 RoCE port' && rmmod fabtel && ! dmesg | grep -E -f $REPO/scripts/kernel-trouble.re"
	FABLAB_DIR=$L2 "$FABLAB" down >/dev/null 2>&1
done

# ---- and gone again ---------------------------------------------------------------------
make -s -C "$REPO" dkms-uninstall >/dev/null 2>&1
ktap_eq "make dkms-uninstall: exit 0" "$?" 0
ktap_check "nothing left: no DKMS entry, source, module, modules-load.d or modprobe.d file" \
	bash -c "[[ -z \$(dkms status fabtel 2>/dev/null) ]] && ! ls -d /usr/src/fabtel-* /lib/modules/*/updates/dkms/fabtel.ko* \
		/etc/modules-load.d/fabtel.conf /etc/modprobe.d/fabtel.conf 2>/dev/null | grep -q ."

ktap_end
