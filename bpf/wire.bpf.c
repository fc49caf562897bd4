// SPDX-License-Identifier: GPL-2.0
/*
 * wire.bpf.c - TC classifier that recognises RoCEv2 frames (untagged IPv4,
 * UDP destination port 4791, a whole 12-byte BTH).  A first version: it only
 * counts; it never drops or alters a frame (always TC_ACT_OK).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "wire.h"

#define ETH_P_IP	0x0800
#define TC_ACT_OK	0
#define BTH_LEN		12

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, WIRE_NR_STATS);
	__type(key, __u32);
	__type(value, __u64);
} wire_stats SEC(".maps");

static __always_inline void count(__u32 stat)
{
	__u64 *v = bpf_map_lookup_elem(&wire_stats, &stat);

	if (v)
		*v += 1;
}

SEC("tc")
int wire_classify(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct udphdr *udp;
	__u32 ihl;

	if ((void *)(eth + 1) > end)
		goto truncated;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		goto other;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		goto truncated;
	if (ip->protocol != IPPROTO_UDP)
		goto other;
	ihl = ip->ihl * 4;
	if (ihl < sizeof(*ip))
		goto other;
	udp = (void *)ip + ihl;
	if ((void *)(udp + 1) > end)
		goto truncated;
	if (udp->dest != bpf_htons(FABTEL_ROCEV2_PORT))
		goto other;
	if ((void *)(udp + 1) + BTH_LEN > end)
		goto truncated;
	count(WIRE_ROCEV2);
	return TC_ACT_OK;
other:
	count(WIRE_OTHER);
	return TC_ACT_OK;
truncated:
	count(WIRE_TRUNCATED);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
