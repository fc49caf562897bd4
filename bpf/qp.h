/* SPDX-License-Identifier: GPL-2.0 */
/* qp.h - QP ownership map and events of qp.bpf.c. */
#ifndef FABTEL_QP_H
#define FABTEL_QP_H

#define QP_COMM_LEN 16

struct qp_key {
	__u32 dev_index;	/* ib_device index */
	__u32 qpn;
};

struct qp_info {
	__u64 created_ns;	/* CLOCK_BOOTTIME */
	__u64 cgroup_id;	/* cgroup v2 id of the creator (the job) */
	__u32 tgid;
	__u32 dest_qpn;
	__u8 state;		/* enum ib_qp_state: 0 RESET .. 3 RTS, 6 ERR */
	__u8 timeout;		/* local ACK timeout exponent */
	__u8 retry_cnt;
	__u8 rnr_retry;
	__u8 has_dgid;		/* dgid is set: the QP was given an AV */
	__u8 pad[3];
	__u8 dgid[16];		/* the peer's GID from the QP's AV (RoCE: its IP) */
	char comm[QP_COMM_LEN];
};

enum qp_event_kind {
	QP_CREATED = 1,
	QP_MODIFIED,
	QP_ERROR,		/* modified to ERR, or a fatal QP event */
	QP_DESTROYED,
};

struct qp_event {
	__u64 ns;
	__u32 kind;		/* enum qp_event_kind */
	__u32 pad;
	struct qp_key key;
	struct qp_info info;
};

#endif /* FABTEL_QP_H */
