#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install what fabtel needs (Debian 12), by set:
#
#   deps.sh [--check] [runtime|build|all]
#
#   runtime  what the installed tools need to run (the fabtel package's
#            dependencies): libbpf, libmicrohttpd, json-c, ncurses, libcurl,
#            verbs and rdma_cm, the verbs providers
#   build    runtime + compilers, -dev packages, headers of both pinned
#            kernels, DKMS, man page and Debian package tools (make, make deb)
#   all      build + the lab and the tests (QEMU, the guests' kernel
#            images, perftest, bpftrace, Prometheus, ...): make check, make
#            demo, make bench (the default)
#
# It installs packages and nothing else: it starts no service (the packages'
# own are kept from starting) and stops nothing.
#
# Idempotent: packages already installed are not touched, and apt-get is only
# called when something is missing.  --check lists what is missing and exits
# 1 if anything is, without installing.
set -euo pipefail

# The lab kernels are pinned (scripts/lab-kver): the first is the lab's, whose
# vmlinux.h and checked kernel facts the project uses; the second, Debian 12's
# 6.12 line, is what DKMS and the second-kernel checks build for.
LAB_KVER=${LAB_KVER:-$(sed -n 1p "$(dirname "$0")/lab-kver")}
LAB_KVER2=${LAB_KVER2:-$(sed -n 2p "$(dirname "$0")/lab-kver")}

check=0
[[ ${1:-} == --check ]] && { check=1; shift; }
set_=${1:-all}

RUNTIME=(
	libbpf1 libelf1 libmicrohttpd12 libjson-c5 libmnl0 libncursesw6 libcurl3-gnutls
	libibverbs1 librdmacm1 ibverbs-providers libcrypt1 libssh2-1
)
BUILD=(
	make gcc clang llvm libc6-dev pkg-config libelf-dev zlib1g-dev
	libbpf-dev bpftool sparse xz-utils
	"linux-headers-$LAB_KVER" "linux-headers-$LAB_KVER2" dkms
	libibverbs-dev librdmacm-dev
	libmicrohttpd-dev libmnl-dev libncurses-dev libjson-c-dev libcurl4-gnutls-dev
	libssh2-1-dev
	python3-docutils
	# make deb
	debhelper dh-dkms dpkg-dev fakeroot lintian
)
LAB=(
	# the lab kernels' images and the lab
	"linux-image-$LAB_KVER" "linux-image-$LAB_KVER2"
	qemu-system-x86 busybox-static kmod socat iproute2 procps cpio util-linux gzip
	# the three-host lab's switch (fablab up --hosts 3)
	vde2
	# RDMA userspace
	rdma-core ibverbs-utils rdmacm-utils perftest infiniband-diags
	# the tests' libraries and tools
	libcmocka-dev libclang-rt-14-dev
	bpftrace prometheus prometheus-node-exporter prometheus-alertmanager tmux jq curl strace perl
	ethtool pciutils
	apache2-utils openssl man-db debootstrap
)
case $set_ in
runtime) PKGS=("${RUNTIME[@]}") ;;
build) PKGS=("${RUNTIME[@]}" "${BUILD[@]}") ;;
all) PKGS=("${RUNTIME[@]}" "${BUILD[@]}" "${LAB[@]}") ;;
*)
	echo "usage: deps.sh [--check] [runtime|build|all]" >&2
	exit 2
	;;
esac
# node and npm (the Kubernetes manifests' schema check): Debian's, unless
# the host has them already (NodeSource's nodejs carries its own npm and
# conflicts with Debian's npm package)
if [[ $set_ == all ]] && { ! command -v node >/dev/null || ! command -v npm >/dev/null; }; then
	PKGS+=(nodejs npm)
fi

missing=()
for p in "${PKGS[@]}"; do
	[[ $p == \#* ]] && continue
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[[ $st == ii* ]] || missing+=("$p")
done

if ((check)); then
	if ((${#missing[@]})); then
		echo "missing: ${missing[*]}"
		exit 1
	fi
	exit 0
fi

if ((${#missing[@]} == 0)); then
	echo "deps: all ${#PKGS[@]} packages present"
	exit 0
fi

if ((EUID != 0)); then
	echo "deps: need root to install: ${missing[*]}" >&2
	exit 1
fi

echo "deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Debian starts a daemon when its package is installed; the lab and the
# benchmarks run their own Prometheus and node_exporter, on their own ports.
# While apt runs, a policy-rc.d (Debian's own switch, honoured by
# invoke-rc.d and deb-systemd-invoke) keeps the new ones from starting.
# Nothing that already runs is stopped or reconfigured; a policy-rc.d the
# host has is left alone.
policy=/usr/sbin/policy-rc.d
if [[ ! -e $policy ]]; then
	printf '#!/bin/sh\n# fabtel deps.sh: no service starts while it installs\nexit 101\n' >"$policy"
	chmod 0755 "$policy"
	trap 'rm -f "$policy"' EXIT
fi
apt-get update -qq
# --no-install-recommends keeps the lab lean
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
