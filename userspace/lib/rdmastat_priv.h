/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdmastat_priv.h - what rdmastat.c's requests and rdmastat_parse.c's
 * replies share: the message walk and the counters' walk with the
 * extended ack's message.
 */
#ifndef FABTEL_RDMASTAT_PRIV_H
#define FABTEL_RDMASTAT_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "rdmastat.h"

/* nlmsg_type of an NLDEV command */
#define RDMASTAT_TYPE(cmd)	((uint16_t)RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, (cmd)))

/* one reply message of the expected type: 0 go on, non-zero stop with it */
typedef int (*rdmastat_msg_fn)(const struct nlmsghdr *nh, void *ctx);

/*
 * fn for each message of type and sequence seq in one received buffer
 * (others skipped).  1 at NLMSG_DONE or an ACK; 0 if more is to come;
 * negative errno for an error message (its extended ack's message into
 * msg, RDMASTAT_MSG_LEN bytes, unless NULL) or a malformed buffer; fn's
 * own non-zero return.
 */
int rdmastat_parse(const void *buf, size_t len, uint32_t seq, uint16_t type,
		   rdmastat_msg_fn fn, void *ctx, char *msg);

/* the messages of a reply, as rdmastat_parse's fn */
struct rdmastat_mode_reply {
	uint32_t *mode, *mask;
};

struct rdmastat_dev_walk {
	int (*cb)(uint32_t dev_index, const char *name, void *ctx);
	void *ctx;
	int ret;
};

int rdmastat_port_msg(const struct nlmsghdr *nh, void *ctx);	/* struct rdmastat_port */
int rdmastat_mode_msg(const struct nlmsghdr *nh, void *ctx);	/* struct rdmastat_mode_reply */
int rdmastat_bind_msg(const struct nlmsghdr *nh, void *ctx);	/* uint32_t: STAT_COUNTER_ID */
int rdmastat_dev_msg(const struct nlmsghdr *nh, void *ctx);	/* struct rdmastat_dev_walk */

/* rdmastat_parse_counters with msg, and cb's non-zero return in *cb_ret (else 0) */
int rdmastat_walk_counters(const void *buf, size_t len, uint32_t seq,
			   int (*cb)(const struct rdmastat_counter *c, void *ctx), void *ctx,
			   char *msg, int *cb_ret);

#endif /* FABTEL_RDMASTAT_PRIV_H */
