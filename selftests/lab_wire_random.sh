#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fablab: guest=a
#
# lab_wire_random.sh - the million-frame run of the wire parser
# (bpf/tests/test_wire_random.c) on the lab's kernel, 6.1: its verifier
# loads the object and its BPF_PROG_TEST_RUN runs 1,000,000 random and
# mutated frames (the host phase runs the same binary on the host's
# kernel).  About 40 s under TCG.  Runs inside guest a.
. "$(dirname "$0")/lib.sh"

exec "$REPO/build/bpf/test_wire_random"
