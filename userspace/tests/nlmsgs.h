/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nlmsgs.h - netlink replies made by hand, laid out as the kernel sends
 * them, for the tests of RDMA netlink statistics (test_rdmastat,
 * test_sysfs_nlstat; nlmsgs.c): messages, attributes, nests, ACKs and
 * errors with an extended ack's message, a dump's end; and the kernel's
 * end of a datagram socket pair that sends them, one message a datagram.
 */
#ifndef FABTEL_TEST_NLMSGS_H
#define FABTEL_TEST_NLMSGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

struct nlmsgs {
	uint32_t buf[2048];	/* aligned as recv's buffer */
	size_t len;
	size_t msg, nest[4];	/* offsets of the open message and nests */
	int depth;
};

void nlm_reset(struct nlmsgs *d);
char *nlm_at(struct nlmsgs *d, size_t off);
void nlm_begin(struct nlmsgs *d, uint16_t type, uint16_t flags, uint32_t seq);
void nlm_end(struct nlmsgs *d);
/* raw bytes into the open message (no attribute header) */
void nlm_bytes(struct nlmsgs *d, const void *v, size_t n);
void nlm_attr(struct nlmsgs *d, uint16_t type, const void *v, size_t n);
void nlm_u32(struct nlmsgs *d, uint16_t type, uint32_t v);
void nlm_u64(struct nlmsgs *d, uint16_t type, uint64_t v);
void nlm_str(struct nlmsgs *d, uint16_t type, const char *s);
void nlm_nest(struct nlmsgs *d, uint16_t type);
void nlm_nest_end(struct nlmsgs *d);
/* STAT_HWCOUNTER_ENTRY{NAME, [PAD], VALUE}, as rdma_nl_stat_hwcounter_entry puts it */
void nlm_hw_entry(struct nlmsgs *d, const char *name, uint64_t v, bool pad);
/*
 * NLMSG_ERROR: error 0 an ACK; text the extended ack's message (NULL none);
 * capped: the request's header only, else 12 bytes of its attributes too.
 */
void nlm_ack(struct nlmsgs *d, uint32_t seq, int error, const char *text, bool capped);
/* NLMSG_DONE of a dump, with the dump's error (0 none) */
void nlm_done(struct nlmsgs *d, uint32_t seq, int error);

/* a datagram socket pair: *ours for the code under test, the kernel's end kept */
void nlm_pair(int *ours);
int nlm_kernel_end(void);
void nlm_unpair(void);
/* d's messages sent from the kernel's end, one a datagram (d kept: sent again at will) */
void nlm_send(struct nlmsgs *d);

/* a request the kernel's end received: its header, its attributes in order */
struct nlm_req {
	struct nlmsghdr nh;
	unsigned int n;
	uint16_t type[12], len[12];
	uint32_t v[12];		/* each one's first 4 bytes */
};

/* the next request (of sequence seq), whole: no byte past its attributes */
void nlm_take_request(struct nlm_req *r, uint32_t seq);
/* its attribute i is a u32 of type with value v: 8 bytes, no flag bits */
void nlm_check_u32(const struct nlm_req *r, unsigned int i, uint16_t type, uint32_t v);

#endif /* FABTEL_TEST_NLMSGS_H */
