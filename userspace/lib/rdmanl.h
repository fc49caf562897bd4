/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdmanl.h - the QPs the kernel knows, from RDMA netlink (what
 * `rdma res show qp` reads): RDMA_NLDEV_CMD_GET for the devices, then
 * RDMA_NLDEV_CMD_RES_QP_GET per device.
 */
#ifndef FABTEL_RDMANL_H
#define FABTEL_RDMANL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDMANL_NAME_LEN 64

struct rdmanl_qp {
	uint32_t dev_index;
	char dev_name[RDMANL_NAME_LEN];	/* "" if the kernel did not say */
	uint32_t port;		/* 0: not bound to a port yet (RESET) */
	uint8_t type;		/* enum ib_qp_type: 2 = RC */
	uint32_t qpn;
	uint32_t pid;		/* 0: a kernel QP (no owning process) */
	uint32_t rqpn;		/* 0: not connected */
	uint8_t state;		/* enum ib_qp_state */
	bool has_state;
};

/*
 * Calls cb for every QP of every RDMA device over the NETLINK_RDMA socket
 * *fd, opened when it is -1 and left open for the next call (a sampler's);
 * closed again (-1) on any failure.  Negative errno on failure.
 */
int rdmanl_for_each_qp(int *fd, int (*cb)(const struct rdmanl_qp *qp, void *ctx), void *ctx);

/*
 * The parser under it, for tests and fuzzers: one received buffer of a
 * RDMA_NLDEV_CMD_RES_QP_GET dump of device dev_index (named dev_name);
 * cb for each QP entry of the messages with sequence seq.  1 at the dump's
 * end (NLMSG_DONE), 0 if more is to come, negative errno for an error
 * message or a cb's own non-zero return.
 */
int rdmanl_parse_qps(const void *buf, size_t len, uint32_t seq, uint32_t dev_index,
		     const char *dev_name, int (*cb)(const struct rdmanl_qp *qp, void *ctx),
		     void *ctx);

#endif /* FABTEL_RDMANL_H */
