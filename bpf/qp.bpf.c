// SPDX-License-Identifier: GPL-2.0
/*
 * qp.bpf.c - which process and cgroup (the job) owns each user QP.
 *
 * fexit/ib_create_qp_user runs in the creating process: its tgid, comm and
 * cgroup id go into an LRU map keyed by (device index, QPN).  Successful
 * ib_modify_qp_with_udata calls update state, destination QPN, the peer's
 * GID (the address vector's, given at INIT->RTR), timeout and retry counts; ib_destroy_qp_user removes the entry.  A QP moved to ERR,
 * or hit by a fatal QP event through ib_uverbs, is reported.  QPs created
 * before the program loaded are seeded by the loader from RDMA netlink.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "qp.h"

#define MAX_ERRNO 4095

/* enum ib_qp_attr_mask (include/rdma/ib_verbs.h): no BTF, a stable ABI */
#define IB_QP_STATE		(1 << 0)
#define IB_QP_AV		(1 << 7)
#define IB_QP_TIMEOUT		(1 << 9)
#define IB_QP_RETRY_CNT		(1 << 10)
#define IB_QP_RNR_RETRY		(1 << 11)
#define IB_QP_DEST_QPN		(1 << 20)

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, struct qp_key);
	__type(value, struct qp_info);
} qp_owners SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} qp_events SEC(".maps");

__u64 qp_drops;

static __always_inline void qp_emit(__u32 kind, const struct qp_key *key,
				    const struct qp_info *info)
{
	struct qp_event *e = bpf_ringbuf_reserve(&qp_events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&qp_drops, 1);
		return;
	}
	e->ns = bpf_ktime_get_boot_ns();
	e->kind = kind;
	e->pad = 0;
	e->key = *key;
	e->info = *info;
	bpf_ringbuf_submit(e, 0);
}

static __always_inline struct qp_key qp_key_of(struct ib_qp *qp)
{
	struct qp_key key = {
		.dev_index = BPF_CORE_READ(qp, device, index),
		.qpn = BPF_CORE_READ(qp, qp_num),
	};
	return key;
}

SEC("fexit/ib_create_qp_user")
int BPF_PROG(qp_create, struct ib_device *dev, struct ib_pd *pd,
	     struct ib_qp_init_attr *attr, struct ib_udata *udata,
	     struct ib_uqp_object *uobj, const char *caller, struct ib_qp *qp)
{
	struct qp_info info = {};
	struct qp_key key;

	if (!qp || (unsigned long)qp >= (unsigned long)-MAX_ERRNO)
		return 0;
	key = qp_key_of(qp);
	info.created_ns = bpf_ktime_get_boot_ns();
	info.cgroup_id = bpf_get_current_cgroup_id();
	info.tgid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(info.comm, sizeof(info.comm));
	bpf_map_update_elem(&qp_owners, &key, &info, BPF_ANY);
	qp_emit(QP_CREATED, &key, &info);
	return 0;
}

SEC("fexit/ib_modify_qp_with_udata")
int BPF_PROG(qp_modify, struct ib_qp *qp, struct ib_qp_attr *attr,
	     int mask, struct ib_udata *udata, int ret)
{
	struct qp_key key = qp_key_of(qp);
	struct qp_info *info;
	__u8 old;

	if (ret)
		return 0;
	info = bpf_map_lookup_elem(&qp_owners, &key);
	if (!info)
		return 0;
	old = info->state;
	if (mask & IB_QP_STATE)
		info->state = BPF_CORE_READ(attr, qp_state);
	if (mask & IB_QP_DEST_QPN)
		info->dest_qpn = BPF_CORE_READ(attr, dest_qp_num);
	if ((mask & IB_QP_AV) &&
	    !bpf_core_read(info->dgid, sizeof(info->dgid), &attr->ah_attr.grh.dgid))
		info->has_dgid = 1;
	if (mask & IB_QP_TIMEOUT)
		info->timeout = BPF_CORE_READ(attr, timeout);
	if (mask & IB_QP_RETRY_CNT)
		info->retry_cnt = BPF_CORE_READ(attr, retry_cnt);
	if (mask & IB_QP_RNR_RETRY)
		info->rnr_retry = BPF_CORE_READ(attr, rnr_retry);
	if (info->state == IB_QPS_ERR && old != IB_QPS_ERR)
		qp_emit(QP_ERROR, &key, info);
	else
		qp_emit(QP_MODIFIED, &key, info);
	return 0;
}

SEC("fentry/ib_destroy_qp_user")
int BPF_PROG(qp_destroy, struct ib_qp *qp, struct ib_udata *udata)
{
	struct qp_key key = qp_key_of(qp);
	struct qp_info *info, gone = {};

	info = bpf_map_lookup_elem(&qp_owners, &key);
	if (info)
		gone = *info;
	bpf_map_delete_elem(&qp_owners, &key);
	qp_emit(QP_DESTROYED, &key, &gone);
	return 0;
}

/* ib_uverbs' async event handler: fatal QP events raised by the driver. */
SEC("fentry/ib_uverbs_qp_event_handler")
int BPF_PROG(qp_async_event, struct ib_event *ev, void *context)
{
	enum ib_event_type t = BPF_CORE_READ(ev, event);
	struct qp_info *info;
	struct qp_key key;

	if (t != IB_EVENT_QP_FATAL && t != IB_EVENT_QP_REQ_ERR &&
	    t != IB_EVENT_QP_ACCESS_ERR)
		return 0;
	key = qp_key_of(BPF_CORE_READ(ev, element.qp));
	info = bpf_map_lookup_elem(&qp_owners, &key);
	if (!info)
		return 0;
	info->state = IB_QPS_ERR;
	qp_emit(QP_ERROR, &key, info);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
