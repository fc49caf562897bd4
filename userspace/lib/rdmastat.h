/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdmastat.h - RDMA statistics over netlink (NETLINK_RDMA, client NLDEV,
 * RDMA_NLDEV_CMD_STAT_GET/SET/DEL): what `rdma statistic` reads and sets.
 *
 *   a port's hw_counters in one message   (rdma statistic show link D/P)
 *   a port's QP counter mode               (rdma statistic qp mode)
 *   auto mode on or off                    (rdma statistic qp set link D/P auto ...)
 *   the counter sets of a device and the QPNs bound to each
 *                                          (rdma statistic qp show)
 *   a manual bind and unbind               (rdma statistic qp bind / unbind)
 *
 * Requests carry only the attributes the 6.1 kernel's strict parser
 * accepts, with exact sizes.  STAT_SET and STAT_DEL need CAP_NET_ADMIN
 * (-EPERM without).  One socket per caller (struct rdmastat), opened on
 * the first call and kept; closed again after any failure that could leave
 * a reply half read.
 */
#ifndef FABTEL_RDMASTAT_H
#define FABTEL_RDMASTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDMASTAT_NAME_LEN	64
#define RDMASTAT_MAX_ENTRIES	96	/* hw_counters of one port or counter (bnxt_re: 67) */
#define RDMASTAT_MAX_QPNS	256	/* QPNs kept per counter; more are counted in qpns_over */
#define RDMASTAT_MSG_LEN	160	/* the kernel's extack message */

/* enum rdma_nl_counter_mode / rdma_nl_counter_mask (uapi rdma_netlink.h) */
#define RDMASTAT_MODE_NONE	0
#define RDMASTAT_MODE_AUTO	1
#define RDMASTAT_MODE_MANUAL	2
#define RDMASTAT_MASK_QP_TYPE	1
#define RDMASTAT_MASK_PID	2

struct rdmastat {
	int fd;				/* -1: not open */
	uint32_t seq;
	/* the last error's extack message from the kernel, "" none */
	char msg[RDMASTAT_MSG_LEN];
	uint64_t requests;		/* requests sent (each may be firmware work) */
};

struct rdmastat_entry {
	char name[RDMASTAT_NAME_LEN];
	uint64_t value;
};

/* One port's hw_counters (rdma statistic show link D/P). */
struct rdmastat_port {
	uint32_t dev_index, port;
	char dev_name[RDMASTAT_NAME_LEN];
	unsigned int nr;
	unsigned int over;		/* entries past RDMASTAT_MAX_ENTRIES, not kept */
	struct rdmastat_entry e[RDMASTAT_MAX_ENTRIES];
};

/* One counter set (an entry of rdma statistic qp show). */
struct rdmastat_counter {
	uint32_t dev_index;
	char dev_name[RDMASTAT_NAME_LEN];
	uint32_t port;
	uint32_t id;			/* cntn */
	uint32_t mode;			/* RDMASTAT_MODE_AUTO or _MANUAL */
	bool has_pid, has_type;
	uint32_t pid;			/* auto by PID: the process it counts for */
	uint8_t qp_type;		/* auto by type */
	unsigned int nr_qpns, qpns_over;
	uint32_t qpns[RDMASTAT_MAX_QPNS];
	unsigned int nr, over;
	struct rdmastat_entry e[RDMASTAT_MAX_ENTRIES];
};

void rdmastat_init(struct rdmastat *s);
void rdmastat_close(struct rdmastat *s);

/*
 * A port's hw_counters in one STAT_GET: 0 and *out filled (disabled
 * optional counters are not in it), or negative errno.  The kernel answers
 * -EINVAL both where the driver has no port statistics and for a device
 * index or port it does not have (6.1 and 6.12 alike).
 */
int rdmastat_port_get(struct rdmastat *s, uint32_t dev_index, uint32_t port,
		      struct rdmastat_port *out);

/* A port's QP counter mode and auto mask (0 unless auto): 0 or negative errno. */
int rdmastat_mode_get(struct rdmastat *s, uint32_t dev_index, uint32_t port,
		      uint32_t *mode, uint32_t *mask);

/*
 * Auto mode: mask RDMASTAT_MASK_* on, or 0 for off.  0, or negative errno:
 * -EOPNOTSUPP the driver has no counters, -EBUSY counters are bound (the
 * kernel's message in s->msg), -EPERM no CAP_NET_ADMIN.
 */
int rdmastat_auto_set(struct rdmastat *s, uint32_t dev_index, uint32_t port, uint32_t mask);

/*
 * cb for each counter set of the device (all its ports): 0, cb's own
 * non-zero return, or negative errno.  Each counter's values are fresh:
 * the kernel queries the NIC for each (one firmware command per counter
 * on mlx5).
 */
int rdmastat_counters(struct rdmastat *s, uint32_t dev_index,
		      int (*cb)(const struct rdmastat_counter *c, void *ctx), void *ctx);

/*
 * Manual bind of QP qpn into counter cntn (0: a new counter, its id in
 * *out_cntn): 0 or negative errno (-EINVAL: the port is in auto mode or
 * the QP is bound already; -ENOMEM: the driver has no counter ops or
 * none is left).
 */
int rdmastat_bind(struct rdmastat *s, uint32_t dev_index, uint32_t port, uint32_t qpn,
		  uint32_t cntn, uint32_t *out_cntn);
/* Manual unbind: 0 or negative errno. */
int rdmastat_unbind(struct rdmastat *s, uint32_t dev_index, uint32_t port, uint32_t cntn,
		    uint32_t qpn);

/*
 * cb for each RDMA device of the socket's network namespace, its index and
 * name (one RDMA_NLDEV_CMD_GET dump): 0, cb's own non-zero return, or
 * negative errno.
 */
int rdmastat_devices(struct rdmastat *s,
		     int (*cb)(uint32_t dev_index, const char *name, void *ctx), void *ctx);

/*
 * The parsers under them, for tests and fuzzers: one received buffer of
 * replies with sequence seq.  1 at the end (NLMSG_DONE, or the ACK of a
 * request), 0 if more is to come, negative errno for an error message or
 * a malformed buffer.  A reply and its ACK come in two receives: what a
 * buffer holds is added to *out (zeroed by the caller first), and *mode
 * and *mask are set only by the attributes present.
 */
int rdmastat_parse_port(const void *buf, size_t len, uint32_t seq, struct rdmastat_port *out);
int rdmastat_parse_mode(const void *buf, size_t len, uint32_t seq, uint32_t *mode,
			uint32_t *mask);
int rdmastat_parse_counters(const void *buf, size_t len, uint32_t seq,
			    int (*cb)(const struct rdmastat_counter *c, void *ctx), void *ctx);

#endif /* FABTEL_RDMASTAT_H */
