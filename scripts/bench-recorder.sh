# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-recorder.sh - make bench's "recorder" stage, sourced by
# scripts/bench.sh (it uses the lab helpers there: lab, lab_up, QB, QREPO).
#
# The flight recorder's memory (Documentation/recorder.rst, "Memory") with
# 64 fakeroce mlx5 ports in guest a, as the kernel counts it: SUnreclaim +
# VmallocUsed of /proc/meminfo (SLUB counts its large kmallocs, fabtel.ko's
# rings and records, as unreclaimable slab; MemFree is no measure: freed
# pages wait on the per-CPU lists).  Before fabtel.ko, loaded (the rings and
# all else a port costs it), once each port holds 4 records (carrier drops,
# record_after_ms=0), after rmmod, and after a second load-record-rmmod
# round (a leak grows across rounds; what slab caches keep does not).  The
# lab kernels have no kmemleak.  Fails when a record costs over 40 KiB (31
# KiB, 32 with the page allocator's rounding) or the second round leaves
# over 256 KiB more than the first.

REC_PORTS=64

# SUnreclaim + VmallocUsed of guest a, KiB, caches dropped
rec_kmem() {
	lab a -- 'sync; echo 3 >/proc/sys/vm/drop_caches; sleep 0.5
		awk "/^SUnreclaim:/ { s = \$2 } /^VmallocUsed:/ { v = \$2 } END { print s + v }" /proc/meminfo'
}

# fabtel.ko loaded, then every port's carrier dropped 4 times (a record each)
rec_load() {
	lab a -- "insmod $QREPO/kmod/fabtel.ko sample_ms=100 record_after_ms=0" || return 1
	sleep 3
}
rec_records() {
	lab a -- "for r in 1 2 3 4; do
			for i in \$(seq 0 $((REC_PORTS - 1))); do echo 0 >/sys/kernel/debug/fakeroce/\$i/carrier; done
			sleep 0.3
			for i in \$(seq 0 $((REC_PORTS - 1))); do echo 1 >/sys/kernel/debug/fakeroce/\$i/carrier; done
			sleep 0.3
		done; sleep 1"
}

recorder_stage() {
	local m0 m1 m2 m3 m4 seqs
	lab_up
	lab a -- "rmmod fabtel fakeroce 2>/dev/null; insmod $QREPO/kmod/fakeroce.ko &&
		for i in \$(seq 0 $((REC_PORTS - 1))); do echo \"\$i mlx5\" >/sys/kernel/fakeroce/new_device &&
			ip link set fre\$i up || exit 1; done" ||
		{ echo "bench: $REC_PORTS fakeroce ports could not be made" >&2; return 1; }
	sleep 2
	m0=$(rec_kmem)
	rec_load || return 1
	m1=$(rec_kmem)
	rec_records || return 1
	seqs=$(lab a -- 'cat /sys/kernel/fabtel/fakeroce*/ports/1/recorder/seq | sort -n | uniq -c | xargs')
	m2=$(rec_kmem)
	lab a -- 'rmmod fabtel' || return 1
	m3=$(rec_kmem)
	{ rec_load && rec_records && lab a -- 'rmmod fabtel'; } || return 1
	m4=$(rec_kmem)
	lab a -- "for i in \$(seq 0 $((REC_PORTS - 1))); do echo \$i >/sys/kernel/fakeroce/del_device; done
		rmmod fakeroce" >/dev/null 2>&1
	awk -v p="$REC_PORTS" -v m0="$m0" -v m1="$m1" -v m2="$m2" -v m3="$m3" -v m4="$m4" -v seqs="$seqs" 'BEGIN {
		base = (m1 - m0) / p; rec = (m2 - m1) / p / 4
		printf "bench: recorder: %d fakeroce mlx5 ports, SUnreclaim+VmallocUsed (KiB) %d before, %d loaded, %d with 4 records kept each (count seq: %s), %d after rmmod, %d after a second round\n",
			p, m0, m1, m2, seqs, m3, m4
		printf "  fabtel.ko per port: %.1f KiB loaded (the 24 KiB ring, 32 allocated, and the rest), %.1f KiB a record; rmmod leaves %d KiB (slab caches), a second round %d KiB more\n",
			base, rec, m3 - m0, m4 - m3
		printf "recorder kib_per_port_loaded %.1f\nrecorder kib_per_record %.1f\nrecorder kib_second_round %d\n",
			base, rec, m4 - m3 > "/dev/stderr"
		if (rec > 40 || m4 - m3 > 256) { print "  OVER: a record over 40 KiB, or a second round left over 256 KiB more"; exit 1 }
	}' 2>>"$OUT/results" | tee "$OUT/recorder.txt"
	return "${PIPESTATUS[0]}"
}
