#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install everything fabtel's build, lab and tests need (Debian 12).
# It installs packages and nothing else: it starts no service (the packages'
# own are kept from starting) and stops nothing.
#
# Idempotent: packages already installed are not touched, and apt-get is only
# called when something is missing.  `deps.sh --check` lists what is missing
# and exits 1 if anything is, without installing.
set -euo pipefail

# The lab kernels are pinned (scripts/lab-kver): the first is the lab's, whose
# vmlinux.h and checked kernel facts the project uses; the second, Debian 12's
# 6.12 line, is what DKMS and the second-kernel checks build for.
LAB_KVER=${LAB_KVER:-$(sed -n 1p "$(dirname "$0")/lab-kver")}
LAB_KVER2=${LAB_KVER2:-$(sed -n 2p "$(dirname "$0")/lab-kver")}

PKGS=(
	# build
	make gcc clang llvm libc6-dev pkg-config libelf-dev zlib1g-dev
	libbpf-dev bpftool sparse xz-utils
	# the lab kernel and the lab
	"linux-image-$LAB_KVER" "linux-headers-$LAB_KVER"
	"linux-image-$LAB_KVER2" "linux-headers-$LAB_KVER2" dkms
	qemu-system-x86 busybox-static kmod socat iproute2 procps cpio util-linux gzip
	# RDMA userspace
	rdma-core ibverbs-utils rdmacm-utils perftest infiniband-diags
	libibverbs-dev librdmacm-dev
	# userspace libraries
	libmicrohttpd-dev libmnl-dev libncurses-dev libjson-c-dev libcmocka-dev libcurl4-openssl-dev
	libclang-rt-14-dev
	# tests and tools
	bpftrace prometheus prometheus-node-exporter tmux jq curl strace perl ethtool
	apache2-utils openssl python3-docutils man-db
)
# node and npm (the Kubernetes manifests' schema check): Debian's, unless
# the host has them already (NodeSource's nodejs carries its own npm and
# conflicts with Debian's npm package)
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	PKGS+=(nodejs npm)
fi

missing=()
for p in "${PKGS[@]}"; do
	[[ $p == \#* ]] && continue
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[[ $st == ii* ]] || missing+=("$p")
done

if [[ ${1:-} == --check ]]; then
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
