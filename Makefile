# SPDX-License-Identifier: GPL-2.0
#
# fabtel - top-level build.
#
#   make            kernel modules (kmod/), BPF objects + skeletons, the
#                   runtime tools and man pages (make tests: what make check adds)
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
#                   (refuses a fabtel.ko built for another kernel than
#                   TARGET_KVER, default this host's)
#   make deb        Debian packages fabtel and fabtel-dkms in build/deb
#                   (debian/, Documentation/packaging.rst), lintian-checked
#   make dkms-install  fabtel.ko's source to DKMS, built and installed for
#                   every kernel with headers (DKMS_KVERS), loaded at boot
#                   (modules-load.d); make dkms-uninstall
#   make clean
#
# KDIR: kernel build tree for kmod/.  Default: the running kernel's, if it has
# one, else the lab kernel's headers (LAB_KVER, pinned in scripts/lab-kver).

VERSION := 0.1.0
export VERSION

LAB_KVER ?= $(shell head -n1 scripts/lab-kver)
# the second kernel line the lab and DKMS are proven on (Documentation/kernels.rst)
LAB_KVER2 ?= $(shell sed -n 2p scripts/lab-kver)
KDIR ?= $(if $(wildcard /lib/modules/$(shell uname -r)/build),\
	/lib/modules/$(shell uname -r)/build,/lib/modules/$(LAB_KVER)/build)
O := $(CURDIR)/build
export LAB_KVER O

all: kmod bpf userspace man

# man pages, from the .rst (rst2man, python3-docutils): NAME.SECTION
MANPAGES := fabteld.8 fabtop.1 fabtel-trace.8 fabtel-traffic.1 fabtel.4
man: $(MANPAGES:%=$(O)/man/%)

define man_recipe
	@command -v rst2man >/dev/null || { echo "rst2man missing:" \
		"apt-get install python3-docutils (or run scripts/deps.sh)" >&2; exit 1; }
	@mkdir -p $(O)/man
	rst2man --halt=warning $< >$@.raw
	sed '/^\.TH /s/^\.TH \("[^"]*"\).*/.TH \1 "$(subst .,,$(suffix $@))" "" "fabtel $(VERSION)" "fabtel"/' $@.raw >$@.tmp
	rm $@.raw
	mv $@.tmp $@
endef
$(O)/man/fabteld.8: Documentation/fabteld.rst ; $(man_recipe)
$(O)/man/fabtop.1: Documentation/fabtop.rst ; $(man_recipe)
$(O)/man/fabtel-trace.8: Documentation/man/fabtel-trace.rst ; $(man_recipe)
$(O)/man/fabtel-traffic.1: Documentation/man/fabtel-traffic.rst ; $(man_recipe)
$(O)/man/fabtel.4: Documentation/man/fabtel.rst ; $(man_recipe)

kmod:
	@test -d "$(KDIR)" || { echo "no kernel build tree at '$(KDIR)':" \
		"apt-get install linux-headers-amd64 (or run scripts/deps.sh)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# fabtel.ko and fakeroce.ko for the second pinned kernel (LAB_KVER2), from the
# same source, in $(O)/kmod-$(LAB_KVER2)/kmod (make check runs suites on it)
KMOD2 := $(O)/kmod-$(LAB_KVER2)
kmod2:
	@test -d /lib/modules/$(LAB_KVER2)/build || { echo "no headers for $(LAB_KVER2):" \
		"apt-get install linux-headers-$(LAB_KVER2) (or run scripts/deps.sh)" >&2; exit 1; }
	@mkdir -p $(KMOD2)/kmod/fabtel $(KMOD2)/kmod/fakeroce $(KMOD2)/include
	@rm -f $(KMOD2)/kmod/*.[ch]	# the sources are in the modules' directories
	@cp -u Kbuild $(KMOD2)/ && cp -u kmod/Kbuild $(KMOD2)/kmod/ && \
		cp -u kmod/fabtel/*.[ch] $(KMOD2)/kmod/fabtel/ && \
		cp -u kmod/fakeroce/*.[ch] $(KMOD2)/kmod/fakeroce/ && cp -u include/*.h $(KMOD2)/include/
	$(MAKE) -C /lib/modules/$(LAB_KVER2)/build M=$(KMOD2) modules

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules 2>&1 | tee $(O)/sparse.log
	@! grep -E '(warning|error):' $(O)/sparse.log

bpf:
	$(MAKE) -C bpf

userspace: bpf
	$(MAKE) -C userspace

# what make check and make bench need beyond the runtime tools: ASan builds,
# cmocka tests, fuzzers, the BPF parser's tests, the lab's helpers
tests: all
	$(MAKE) -C bpf tests
	$(MAKE) -C userspace tests

deps:
	@scripts/deps.sh

# (the build in parallel, one job per core: NPROC)
NPROC ?= $(shell nproc 2>/dev/null || echo 2)
check: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all tests kmod2
	@mkdir -p $(O)
	@selftests/run.sh

# benchmarks (not tests): Documentation/performance.rst
bench: deps
	@$(MAKE) --no-print-directory all tests
	@scripts/bench.sh $(ARGS)

# ~12 minutes of lab traffic and faults; fabteld's memory, fds and BPF maps
# must stay flat, fabtel.ko must unload clean (SOAK_SECONDS=600)
soak: deps
	@$(MAKE) --no-print-directory all tests
	@scripts/soak.sh

# 1,000 + 1,000 device rounds under readers and a rmmod/insmod loop (~35 min);
# 40 + 16 are part of make check (selftests/lab_fabtel_stress.sh)
stress: deps
	@$(MAKE) --no-print-directory all tests
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
ACTIONDIR := $(MODDIR)/actions
ACTIONS := slurm-node k8s-node-condition
UNITDIR := $(PREFIX)/lib/systemd/system
SHAREDIR := $(PREFIX)/share/fabtel
DOCDIR := $(PREFIX)/share/doc/fabtel
CONFDIR := /etc/fabtel
MANDIR := $(PREFIX)/share/man
INSTALLED := $(SBINDIR)/fabteld $(BINDIR)/fabtop $(BINDIR)/fabtel-trace \
	$(BINDIR)/fabtel-traffic $(MODDIR)/fabtel.ko $(UNITDIR)/fabteld.service \
	$(SHAREDIR)/prometheus/rules.yml $(SHAREDIR)/grafana/fabtel.json \
	$(SHAREDIR)/grafana/fabtel-cluster.json \
	$(addprefix $(ACTIONDIR)/,$(ACTIONS)) \
	$(foreach m,$(MANPAGES),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(m))

# fakeroce.ko (a test device) and the lab are not installed.  The config
# file is installed only when there is none: an edited one is kept.  It may
# hold password hashes: 0640, root's (fabteld reads it as root, at start).
# ---- a kernel other than the lab's: DKMS, and the check make install makes ----
# TARGET_KVER: the kernel make install installs fabtel.ko for (this host's)
TARGET_KVER ?= $(shell uname -r)
DKMS_SRC := /usr/src/fabtel-$(VERSION)
# dkms-install builds for each kernel with headers, unless DKMS_KVERS names them
DKMS_KVERS ?= $(notdir $(patsubst %/build,%,$(wildcard /lib/modules/*/build)))

# refuse a fabtel.ko built for another kernel than the target (it would not load)
check-kver:
	@built=$$(modinfo -F vermagic kmod/fabtel.ko 2>/dev/null | cut -d' ' -f1); \
	if [ "$$built" != "$(TARGET_KVER)" ]; then \
		echo "make install: kmod/fabtel.ko is built for kernel '$$built', not for '$(TARGET_KVER)'." >&2; \
		echo "  Get that kernel's headers (apt-get install linux-headers-$(TARGET_KVER)) and" >&2; \
		echo "  run make KDIR=/lib/modules/$(TARGET_KVER)/build, or make dkms-install;" >&2; \
		echo "  TARGET_KVER=$$built installs it for the kernel it was built for." >&2; \
		exit 1; \
	fi

# fabtel.ko's source as DKMS takes it, and its boot-time load files: what
# make dkms-install installs and the fabtel-dkms package holds (make deb);
# LOADDIR/PROBEDIR: /etc's for make, /usr/lib's and /lib's for the package
LOADDIR ?= /etc/modules-load.d
PROBEDIR ?= /etc/modprobe.d
dkms-src:
	rm -rf $(DESTDIR)$(DKMS_SRC)
	install -d $(DESTDIR)$(DKMS_SRC)/kmod/fabtel $(DESTDIR)$(DKMS_SRC)/include \
		$(DESTDIR)$(LOADDIR) $(DESTDIR)$(PROBEDIR)
	install -m 0644 Kbuild $(DESTDIR)$(DKMS_SRC)/
	install -m 0644 kmod/Kbuild $(DESTDIR)$(DKMS_SRC)/kmod/
	install -m 0644 kmod/fabtel/*.c kmod/fabtel/*.h $(DESTDIR)$(DKMS_SRC)/kmod/fabtel/
	install -m 0644 include/*.h $(DESTDIR)$(DKMS_SRC)/include/
	sed 's/#MODULE_VERSION#/$(VERSION)/' deploy/dkms/dkms.conf >$(DESTDIR)$(DKMS_SRC)/dkms.conf
	chmod 0644 $(DESTDIR)$(DKMS_SRC)/dkms.conf
	install -m 0644 deploy/modules-load.d/fabtel.conf $(DESTDIR)$(LOADDIR)/fabtel.conf
	install -m 0644 deploy/modprobe.d/fabtel.conf $(DESTDIR)$(PROBEDIR)/fabtel.conf

dkms-install:
	@command -v dkms >/dev/null || { echo "make dkms-install: dkms not found (apt-get install dkms)" >&2; exit 1; }
	@[ -n "$(DKMS_KVERS)" ] || { echo "make dkms-install: no kernel headers under /lib/modules/*/build (apt-get install linux-headers-amd64)" >&2; exit 1; }
	-dkms remove fabtel/$(VERSION) --all >/dev/null 2>&1
	$(MAKE) --no-print-directory dkms-src DESTDIR=
	dkms add fabtel/$(VERSION)
	set -e; for k in $(DKMS_KVERS); do dkms build fabtel/$(VERSION) -k $$k && \
		dkms install fabtel/$(VERSION) -k $$k --force; done

dkms-uninstall:
	-dkms remove fabtel/$(VERSION) --all
	rm -rf $(DKMS_SRC)
	rm -f $(LOADDIR)/fabtel.conf $(PROBEDIR)/fabtel.conf


# the runtime set (no module): make install's, and the fabtel package's
define install_runtime
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(SHAREDIR)/prometheus \
		$(DESTDIR)$(SHAREDIR)/grafana $(DESTDIR)$(DOCDIR) $(DESTDIR)$(CONFDIR) \
		$(DESTDIR)$(ACTIONDIR)
	install -m 0755 $(O)/fabteld $(DESTDIR)$(SBINDIR)/fabteld
	install -m 0755 $(addprefix deploy/actions/,$(ACTIONS)) $(DESTDIR)$(ACTIONDIR)/
	install -m 0755 $(O)/fabtop $(O)/fabtel-trace $(O)/fabtel-traffic $(DESTDIR)$(BINDIR)/
	sed 's|@SBINDIR@|$(SBINDIR)|; s|@DOCDIR@|$(DOCDIR)|' deploy/systemd/fabteld.service \
		>$(DESTDIR)$(UNITDIR)/fabteld.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/fabteld.service
	sed 's|file:///usr/local/share/doc/fabtel/|file://$(DOCDIR)/|' deploy/prometheus/rules.yml \
		>$(DESTDIR)$(SHAREDIR)/prometheus/rules.yml
	chmod 0644 $(DESTDIR)$(SHAREDIR)/prometheus/rules.yml
	install -m 0644 deploy/grafana/fabtel.json deploy/grafana/fabtel-cluster.json \
		$(DESTDIR)$(SHAREDIR)/grafana/
	install -m 0644 README Documentation/*.rst $(DESTDIR)$(DOCDIR)/
	test -e $(DESTDIR)$(CONFDIR)/fabteld.conf || \
		install -m 0640 deploy/fabteld.conf $(DESTDIR)$(CONFDIR)/fabteld.conf
	for m in $(MANPAGES); do s=$${m##*.}; \
		install -d $(DESTDIR)$(MANDIR)/man$$s && \
		install -m 0644 $(O)/man/$$m $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; done
endef

install: all check-kver
	$(install_runtime)
	install -d $(DESTDIR)$(MODDIR)
	install -m 0644 kmod/fabtel.ko $(DESTDIR)$(MODDIR)/fabtel.ko

# everything but the module: what the fabtel package holds (make deb)
install-runtime: bpf userspace man
	$(install_runtime)

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rm -rf $(DESTDIR)$(DOCDIR)
	-rmdir $(DESTDIR)$(ACTIONDIR) $(DESTDIR)$(MODDIR) $(DESTDIR)$(SHAREDIR)/prometheus \
		$(foreach s,1 4 8,$(DESTDIR)$(MANDIR)/man$(s)) $(DESTDIR)$(MANDIR) \
		$(DESTDIR)$(SHAREDIR)/grafana $(DESTDIR)$(SHAREDIR) 2>/dev/null
	@test ! -e $(DESTDIR)$(CONFDIR)/fabteld.conf || \
		echo "kept $(DESTDIR)$(CONFDIR)/fabteld.conf (yours to remove)"

# ---- Debian packages: fabtel and fabtel-dkms (debian/, Documentation/packaging.rst)
# built from a copy of the tree in $(O)/deb, where the .debs land; lintian
# must find no error
DEB_DIR := $(O)/deb
deb:
	@command -v dpkg-buildpackage >/dev/null && command -v dh_dkms >/dev/null || { \
		echo "make deb: needs dpkg-dev, debhelper and dh-dkms (scripts/deps.sh build)" >&2; exit 1; }
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/fabtel-$(VERSION)
	tar -C $(CURDIR) --exclude=./build --exclude=./.git --exclude=./.lab --exclude='*.o' --exclude='*.ko' \
		--exclude='*.mod*' --exclude='.*.cmd' --exclude=Module.symvers --exclude=modules.order \
		-cf - . | tar -C $(DEB_DIR)/fabtel-$(VERSION) -xf -
	cd $(DEB_DIR)/fabtel-$(VERSION) && dpkg-buildpackage -b -us -uc >$(DEB_DIR)/build.log 2>&1 || \
		{ tail -30 $(DEB_DIR)/build.log >&2; exit 1; }
	lintian --fail-on error \
		$(DEB_DIR)/fabtel_$(VERSION)_amd64.changes
	@ls $(DEB_DIR)/*.deb

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(O)

.PHONY: all tests man kmod sparse bpf userspace deps check demo bench soak stress fuzz install uninstall clean \
	check-kver dkms-src dkms-install dkms-uninstall kmod2 install-runtime deb
