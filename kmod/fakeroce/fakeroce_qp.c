// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - QPs with no data path, for the control plane only.
 *
 * Writing N to debugfs <ID>/qps makes the device hold N RC QPs.  Those it
 * adds are made by ib_core (ib_create_qp_user(), the call uverbs makes) in
 * the writer's context, so ib_core's resource tracking owns each to the
 * writing process exactly as it does a QP a program opened: RDMA netlink
 * (`rdma res show qp`) lists it with that pid, on port 1, in state RTS, and
 * fabteld files it under the process's job.  The QPs never move a packet.
 * A smaller N destroys the newest ones; del_device destroys the rest before
 * the device leaves ib_core (which would otherwise warn of leaked objects).
 * Each new QP is moved RESET->INIT on port 1 through ib_modify_qp(), the
 * one transition at which ib_core binds a QP to a counter in auto mode
 * (`rdma statistic qp set ... auto`), still in the writer's context.
 * Writing "QPN ADDR" to qp_peer moves a QP to RTR towards ADDR, the way a
 * program connects one (fakeroce_qp_peer_set()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "fakeroce.h"

/* QPNs 0 and 1 are the special QPs; RDMA netlink's QPNs are 24 bits. */
#define FAKEROCE_QPN_MIN	0x100
#define FAKEROCE_QPN_MAX	0xffffff

struct fakeroce_qp {
	struct ib_qp ibqp;		/* first: ib_core allocates and frees it */
	struct list_head node;		/* in fdev->qps, newest last */
};

static int fakeroce_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			      struct ib_udata *udata)
{
	struct fakeroce_dev *fdev = fakeroce_from_ib(ibqp->device);
	int qpn;

	if (init->qp_type != IB_QPT_RC || init->port_num != FAKEROCE_PORT)
		return -EOPNOTSUPP;
	qpn = ida_alloc_range(&fdev->qpn_ida, FAKEROCE_QPN_MIN,
			      FAKEROCE_QPN_MAX, GFP_KERNEL);
	if (qpn < 0)
		return qpn;
	ibqp->qp_num = qpn;
	return 0;
}

static int fakeroce_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct fakeroce_dev *fdev = fakeroce_from_ib(ibqp->device);

	ida_free(&fdev->qpn_ida, ibqp->qp_num);
	return 0;
}

/* What RDMA netlink asks of each QP it lists. */
static int fakeroce_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			     int mask, struct ib_qp_init_attr *init)
{
	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	attr->qp_state = IB_QPS_RTS;
	attr->cur_qp_state = IB_QPS_RTS;
	attr->path_mtu = IB_MTU_1024;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->port_num = FAKEROCE_PORT;
	init->qp_type = ibqp->qp_type;
	init->port_num = FAKEROCE_PORT;
	return 0;
}

/* what fakeroce_qp_peer_set() gives: a connected QP's INIT->RTR */
#define FAKEROCE_RTR_MASK	(IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | \
				 IB_QP_DEST_QPN | IB_QP_RQ_PSN | \
				 IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)

/*
 * RESET->INIT with a port (ib_core has bound the QP to a counter in auto
 * mode just before) and the RTR of qp_peer are all a QP here ever does.
 * Anything else is not supported.
 */
static int fakeroce_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			      int mask, struct ib_udata *udata)
{
	if (mask == FAKEROCE_RTR_MASK && attr->qp_state == IB_QPS_RTR)
		return 0;
	if (mask & ~(IB_QP_STATE | IB_QP_PORT | IB_QP_PKEY_INDEX))
		return -EOPNOTSUPP;
	if (!(mask & IB_QP_STATE) || attr->qp_state != IB_QPS_INIT)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PORT) && attr->port_num != FAKEROCE_PORT)
		return -EINVAL;
	return 0;
}

static int fakeroce_qp_add(struct fakeroce_dev *fdev)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.port_num = FAKEROCE_PORT,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
	};
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = FAKEROCE_PORT,
	};
	struct ib_udata udata = {};	/* a user QP: owned by current */
	struct ib_qp *qp;
	int err;

	qp = ib_create_qp_user(&fdev->ibdev, &fdev->pd, &init, &udata,
			       NULL, NULL);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	atomic_inc(&fdev->pd.usecnt);	/* ib_destroy_qp_user() drops it */
	list_add_tail(&container_of(qp, struct fakeroce_qp, ibqp)->node,
		      &fdev->qps);
	fdev->nr_qps++;
	/* A failed auto bind is silent: the QP stays on the default set. */
	err = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PORT);
	WARN_ON_ONCE(err);	/* fakeroce_modify_qp() takes it */
	return 0;
}

static void fakeroce_qp_del_newest(struct fakeroce_dev *fdev)
{
	struct ib_udata udata = {};
	struct fakeroce_qp *fq;
	int err;

	fq = list_last_entry(&fdev->qps, struct fakeroce_qp, node);
	list_del(&fq->node);
	fdev->nr_qps--;
	err = ib_destroy_qp_user(&fq->ibqp, &udata);
	WARN_ON_ONCE(err);	/* nothing else holds our QPs */
}

/* Add or destroy QPs until the device holds n; -errno if adding failed. */
int fakeroce_qps_set(struct fakeroce_dev *fdev, unsigned int n)
{
	int err = 0;

	if (n > FAKEROCE_MAX_QPS)
		return -EINVAL;
	mutex_lock(&fdev->qp_lock);
	while (!err && fdev->nr_qps < n)
		err = fakeroce_qp_add(fdev);
	while (fdev->nr_qps > n)
		fakeroce_qp_del_newest(fdev);
	mutex_unlock(&fdev->qp_lock);
	return err;
}

/* @delta more of counter @idx for QP @qpn (debugfs qp_errors), or -EINVAL */
int fakeroce_qp_errors_add(struct fakeroce_dev *fdev, u32 qpn,
			   unsigned int idx, u64 delta)
{
	struct fakeroce_qp *fq;
	int err = -EINVAL;

	mutex_lock(&fdev->qp_lock);
	list_for_each_entry(fq, &fdev->qps, node) {
		if (fq->ibqp.qp_num != qpn)
			continue;
		fakeroce_counter_qp_add(fdev, &fq->ibqp, idx, delta);
		err = 0;
		break;
	}
	mutex_unlock(&fdev->qp_lock);
	return err;
}

/*
 * QP @qpn to RTR towards @dgid (debugfs qp_peer), as a program's INIT->RTR
 * is made: through ib_modify_qp_with_udata(), the call uverbs makes, so
 * whatever watches that call sees the peer.  No udata: ib_core then takes
 * the AV as resolved and looks up no neighbour.  The AV's source is GID
 * index 0, the netdev's default GID.  -EINVAL for a QPN not ours.
 */
int fakeroce_qp_peer_set(struct fakeroce_dev *fdev, u32 qpn, const union ib_gid *dgid)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTR,
		.path_mtu = IB_MTU_1024,
		.dest_qp_num = FAKEROCE_QPN_MIN,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
	};
	union ib_gid gid = *dgid;
	struct fakeroce_qp *fq;
	int err = -EINVAL;

	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, FAKEROCE_PORT);
	rdma_ah_set_grh(&attr.ah_attr, &gid, 0, 0, 64, 0);
	mutex_lock(&fdev->qp_lock);
	list_for_each_entry(fq, &fdev->qps, node) {
		if (fq->ibqp.qp_num != qpn)
			continue;
		err = ib_modify_qp_with_udata(&fq->ibqp, &attr, FAKEROCE_RTR_MASK, NULL);
		break;
	}
	mutex_unlock(&fdev->qp_lock);
	return err;
}

unsigned int fakeroce_qps_count(struct fakeroce_dev *fdev)
{
	unsigned int n;

	mutex_lock(&fdev->qp_lock);
	n = fdev->nr_qps;
	mutex_unlock(&fdev->qp_lock);
	return n;
}

void fakeroce_qps_init(struct fakeroce_dev *fdev)
{
	mutex_init(&fdev->qp_lock);
	INIT_LIST_HEAD(&fdev->qps);
	ida_init(&fdev->qpn_ida);
	fdev->pd.device = &fdev->ibdev;
	atomic_set(&fdev->pd.usecnt, 0);
}

/* After the knobs are gone (no writer left), before ib_core unregisters. */
void fakeroce_qps_destroy(struct fakeroce_dev *fdev)
{
	fakeroce_qps_set(fdev, 0);
	ida_destroy(&fdev->qpn_ida);
	mutex_destroy(&fdev->qp_lock);
}

/*
 * Not a kernel verbs provider still (no alloc_pd, post_send, ...): ib_core
 * keeps kverbs_provider clear and the mad, cm and ipoib clients skip it.
 */
const struct ib_device_ops fakeroce_qp_ops = {
	.create_qp = fakeroce_create_qp,
	.destroy_qp = fakeroce_destroy_qp,
	.modify_qp = fakeroce_modify_qp,
	.query_qp = fakeroce_query_qp,
	INIT_RDMA_OBJ_SIZE(ib_qp, fakeroce_qp, ibqp),
};
