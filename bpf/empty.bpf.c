// SPDX-License-Identifier: GPL-2.0
/*
 * empty.bpf.c - a TC classifier that does nothing: the baseline make bench
 * measures the wire program against (the cost of BPF_PROG_TEST_RUN itself).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "empty.h"

SEC("tc")
int empty_tc(struct __sk_buff *skb)
{
	return 0;	/* TC_ACT_OK */
}

char LICENSE[] SEC("license") = "GPL";
