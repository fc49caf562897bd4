# SPDX-License-Identifier: GPL-2.0
#
# fabtel - top-level build.
#
#   make            kernel modules (kmod/), BPF objects + skeletons, userspace
#   make check      install what is missing, build, run host tests and the lab
#                   selftests; ends with "N passed, N failed, N skipped"
#   make demo       install what is missing, build, boot the lab, show rxe live
#   make sparse     the kernel modules through sparse (also: make C=1)
#   make clean
#
# KDIR: kernel build tree for kmod/.  Default: the running kernel's, if it has
# one, else the lab kernel's headers (LAB_KVER, pinned in scripts/lab-kver).

VERSION := 0.1.0
export VERSION

LAB_KVER ?= $(shell cat scripts/lab-kver)
KDIR ?= $(if $(wildcard /lib/modules/$(shell uname -r)/build),\
	/lib/modules/$(shell uname -r)/build,/lib/modules/$(LAB_KVER)/build)
O := $(CURDIR)/build
export LAB_KVER O

all: kmod bpf userspace

kmod:
	@test -d "$(KDIR)" || { echo "no kernel build tree at '$(KDIR)':" \
		"apt-get install linux-headers-amd64 (or run scripts/deps.sh)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules 2>&1 | tee $(O)/sparse.log
	@! grep -E '(warning|error):' $(O)/sparse.log

bpf:
	$(MAKE) -C bpf

userspace: bpf
	$(MAKE) -C userspace

deps:
	@scripts/deps.sh

check: deps
	@$(MAKE) --no-print-directory all
	@mkdir -p $(O)
	@selftests/run.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh $(ARGS)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(O)

.PHONY: all kmod sparse bpf userspace deps check demo clean
