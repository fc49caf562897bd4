# SPDX-License-Identifier: GPL-2.0
#
# fabtel - top-level build.
#
#   make            kernel modules (kmod/), BPF objects + skeletons, userspace
#   make check      install what is missing, build, run host tests and the lab
#                   selftests; ends with "N passed, N failed, N skipped"
#   make demo       install what is missing, build, boot the lab, show rxe live
#   make bench      fabteld vs node_exporter scrape cost, the wire parser's
#                   ns per packet (Documentation/performance.rst)
#   make soak       lab traffic and faults for SOAK_SECONDS (600): fabteld's
#                   RSS, fds and BPF maps flat, fabtel.ko unloads clean
#   make fuzz       the libFuzzer targets, FUZZ_SECONDS (300) each; new
#                   coverage merged into userspace/fuzz/corpus
#   make sparse     the kernel modules through sparse (also: make C=1)
#   make install    binaries, fabtel.ko, the systemd unit, config, rules
#                   (PREFIX=/usr/local, DESTDIR for staging); make uninstall
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

# benchmarks (not tests): Documentation/performance.rst
bench: deps
	@$(MAKE) --no-print-directory all
	@scripts/bench.sh $(ARGS)

# ~12 minutes of lab traffic and faults; fabteld's memory, fds and BPF maps
# must stay flat, fabtel.ko must unload clean (SOAK_SECONDS=600)
soak: deps
	@$(MAKE) --no-print-directory all
	@scripts/soak.sh

# 1,000 + 1,000 device rounds under readers and a rmmod/insmod loop (~35 min);
# 200 + 40 are part of make check (selftests/lab_fabtel_stress.sh)
stress: deps
	@$(MAKE) --no-print-directory all
	@scripts/stress.sh

# the long fuzz run; a short one is part of make check (test_fuzz.sh)
fuzz:
	@$(MAKE) --no-print-directory -C userspace fuzz
	@scripts/fuzz.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh $(ARGS)

# ---- install ----------------------------------------------------------------
PREFIX ?= /usr/local
BINDIR := $(PREFIX)/bin
SBINDIR := $(PREFIX)/sbin
MODDIR := $(PREFIX)/lib/fabtel
UNITDIR := $(PREFIX)/lib/systemd/system
SHAREDIR := $(PREFIX)/share/fabtel
DOCDIR := $(PREFIX)/share/doc/fabtel
CONFDIR := /etc/fabtel
INSTALLED := $(SBINDIR)/fabteld $(BINDIR)/fabtop $(BINDIR)/fabtel-trace \
	$(BINDIR)/fabtel-traffic $(MODDIR)/fabtel.ko $(UNITDIR)/fabteld.service \
	$(SHAREDIR)/prometheus/rules.yml $(SHAREDIR)/grafana/fabtel.json

# fakeroce.ko (a test device) and the lab are not installed.  The config
# file is installed only when there is none: an edited one is kept.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MODDIR) \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(SHAREDIR)/prometheus \
		$(DESTDIR)$(SHAREDIR)/grafana $(DESTDIR)$(DOCDIR) $(DESTDIR)$(CONFDIR)
	install -m 0755 $(O)/fabteld $(DESTDIR)$(SBINDIR)/fabteld
	install -m 0755 $(O)/fabtop $(O)/fabtel-trace $(O)/fabtel-traffic $(DESTDIR)$(BINDIR)/
	install -m 0644 kmod/fabtel.ko $(DESTDIR)$(MODDIR)/fabtel.ko
	sed 's|@SBINDIR@|$(SBINDIR)|' deploy/systemd/fabteld.service \
		>$(DESTDIR)$(UNITDIR)/fabteld.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/fabteld.service
	install -m 0644 deploy/prometheus/rules.yml $(DESTDIR)$(SHAREDIR)/prometheus/
	install -m 0644 deploy/grafana/fabtel.json $(DESTDIR)$(SHAREDIR)/grafana/
	install -m 0644 README Documentation/*.rst $(DESTDIR)$(DOCDIR)/
	test -e $(DESTDIR)$(CONFDIR)/fabteld.conf || \
		install -m 0644 deploy/fabteld.conf $(DESTDIR)$(CONFDIR)/fabteld.conf

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rm -rf $(DESTDIR)$(DOCDIR)
	-rmdir $(DESTDIR)$(MODDIR) $(DESTDIR)$(SHAREDIR)/prometheus \
		$(DESTDIR)$(SHAREDIR)/grafana $(DESTDIR)$(SHAREDIR) 2>/dev/null
	@test ! -e $(DESTDIR)$(CONFDIR)/fabteld.conf || \
		echo "kept $(DESTDIR)$(CONFDIR)/fabteld.conf (yours to remove)"

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(O)

.PHONY: all kmod sparse bpf userspace deps check demo bench soak stress fuzz install uninstall clean
