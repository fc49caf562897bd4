// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - the ib_device side: personalities, counter tables, port query
 * and the hw_counters ops.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/string.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "fakeroce.h"

#define FAKEROCE_GID_TBL_LEN	32

static const u8 fakeroce_width32 = 32;
static const u8 fakeroce_width64 = 64;

#define FAKEROCE_CNT32(_name) { .name = _name, .priv = &fakeroce_width32 }
#define FAKEROCE_CNT64(_name) { .name = _name, .priv = &fakeroce_width64 }

/*
 * mlx5_ib (drivers/infiniband/hw/mlx5/counters.c): the Q counters first
 * (32-bit in hardware: they wrap at 2^32), then the congestion counters and
 * the extended PPCNT counter (64-bit).
 */
static const struct rdma_stat_desc fakeroce_mlx5_descs[] = {
	FAKEROCE_CNT32("rx_write_requests"),
	FAKEROCE_CNT32("rx_read_requests"),
	FAKEROCE_CNT32("rx_atomic_requests"),
	FAKEROCE_CNT32("out_of_buffer"),
	FAKEROCE_CNT32("out_of_sequence"),
	FAKEROCE_CNT32("duplicate_request"),
	FAKEROCE_CNT32("rnr_nak_retry_err"),
	FAKEROCE_CNT32("packet_seq_err"),
	FAKEROCE_CNT32("implied_nak_seq_err"),
	FAKEROCE_CNT32("local_ack_timeout_err"),
	FAKEROCE_CNT32("resp_local_length_error"),
	FAKEROCE_CNT32("resp_cqe_error"),
	FAKEROCE_CNT32("req_cqe_error"),
	FAKEROCE_CNT32("req_remote_invalid_request"),
	FAKEROCE_CNT32("req_remote_access_errors"),
	FAKEROCE_CNT32("resp_remote_access_errors"),
	FAKEROCE_CNT32("resp_cqe_flush_error"),
	FAKEROCE_CNT32("req_cqe_flush_error"),
	FAKEROCE_CNT32("roce_adp_retrans"),
	FAKEROCE_CNT32("roce_adp_retrans_to"),
	FAKEROCE_CNT32("roce_slow_restart"),
	FAKEROCE_CNT32("roce_slow_restart_cnps"),
	FAKEROCE_CNT32("roce_slow_restart_trans"),
	FAKEROCE_CNT64("rp_cnp_ignored"),
	FAKEROCE_CNT64("rp_cnp_handled"),
	FAKEROCE_CNT64("np_ecn_marked_roce_packets"),
	FAKEROCE_CNT64("np_cnp_sent"),
	FAKEROCE_CNT64("rx_icrc_encapsulated"),
};

/* bnxt_re (drivers/infiniband/hw/bnxt_re/hw_counters.c), all 64-bit. */
static const struct rdma_stat_desc fakeroce_bnxt_re_descs[] = {
	FAKEROCE_CNT64("active_pds"),
	FAKEROCE_CNT64("active_ahs"),
	FAKEROCE_CNT64("active_qps"),
	FAKEROCE_CNT64("active_srqs"),
	FAKEROCE_CNT64("active_cqs"),
	FAKEROCE_CNT64("active_mrs"),
	FAKEROCE_CNT64("active_mws"),
	FAKEROCE_CNT64("rx_pkts"),
	FAKEROCE_CNT64("rx_bytes"),
	FAKEROCE_CNT64("tx_pkts"),
	FAKEROCE_CNT64("tx_bytes"),
	FAKEROCE_CNT64("recoverable_errors"),
	FAKEROCE_CNT64("rx_roce_errors"),
	FAKEROCE_CNT64("rx_roce_discards"),
	FAKEROCE_CNT64("to_retransmits"),
	FAKEROCE_CNT64("seq_err_naks_rcvd"),
	FAKEROCE_CNT64("max_retry_exceeded"),
	FAKEROCE_CNT64("rnr_naks_rcvd"),
	FAKEROCE_CNT64("missing_resp"),
	FAKEROCE_CNT64("unrecoverable_err"),
	FAKEROCE_CNT64("bad_resp_err"),
	FAKEROCE_CNT64("local_qp_op_err"),
	FAKEROCE_CNT64("local_protection_err"),
	FAKEROCE_CNT64("mem_mgmt_op_err"),
	FAKEROCE_CNT64("remote_invalid_req_err"),
	FAKEROCE_CNT64("remote_access_err"),
	FAKEROCE_CNT64("remote_op_err"),
	FAKEROCE_CNT64("dup_req"),
	FAKEROCE_CNT64("res_exceed_max"),
	FAKEROCE_CNT64("res_length_mismatch"),
	FAKEROCE_CNT64("res_exceeds_wqe"),
	FAKEROCE_CNT64("res_opcode_err"),
	FAKEROCE_CNT64("res_rx_invalid_rkey"),
	FAKEROCE_CNT64("res_rx_domain_err"),
	FAKEROCE_CNT64("res_rx_no_perm"),
	FAKEROCE_CNT64("res_rx_range_err"),
	FAKEROCE_CNT64("res_tx_invalid_rkey"),
	FAKEROCE_CNT64("res_tx_domain_err"),
	FAKEROCE_CNT64("res_tx_no_perm"),
	FAKEROCE_CNT64("res_tx_range_err"),
	FAKEROCE_CNT64("res_irrq_oflow"),
	FAKEROCE_CNT64("res_unsup_opcode"),
	FAKEROCE_CNT64("res_unaligned_atomic"),
	FAKEROCE_CNT64("res_rem_inv_err"),
	FAKEROCE_CNT64("res_mem_err"),
	FAKEROCE_CNT64("res_srq_err"),
	FAKEROCE_CNT64("res_cmp_err"),
	FAKEROCE_CNT64("res_invalid_dup_rkey"),
	FAKEROCE_CNT64("res_wqe_format_err"),
	FAKEROCE_CNT64("res_cq_load_err"),
	FAKEROCE_CNT64("res_srq_load_err"),
	FAKEROCE_CNT64("res_tx_pci_err"),
	FAKEROCE_CNT64("res_rx_pci_err"),
	FAKEROCE_CNT64("oos_drop_count"),
	FAKEROCE_CNT64("tx_atomic_req"),
	FAKEROCE_CNT64("tx_read_req"),
	FAKEROCE_CNT64("tx_read_resp"),
	FAKEROCE_CNT64("tx_write_req"),
	FAKEROCE_CNT64("tx_send_req"),
	FAKEROCE_CNT64("rx_atomic_req"),
	FAKEROCE_CNT64("rx_read_req"),
	FAKEROCE_CNT64("rx_read_resp"),
	FAKEROCE_CNT64("rx_write_req"),
	FAKEROCE_CNT64("rx_send_req"),
	FAKEROCE_CNT64("rx_roce_good_pkts"),
	FAKEROCE_CNT64("rx_roce_good_bytes"),
	FAKEROCE_CNT64("rx_out_of_buffer"),
};

/*
 * irdma (drivers/infiniband/hw/irdma/verbs.c), in the driver's index order:
 * the "32-bit" group, then the 64-bit group.  irdma accumulates the 32-bit
 * hardware registers into 64-bit values, so all are 64-bit here.
 */
static const struct rdma_stat_desc fakeroce_irdma_descs[] = {
	FAKEROCE_CNT64("ip4InDiscards"),
	FAKEROCE_CNT64("ip4InTruncatedPkts"),
	FAKEROCE_CNT64("ip4OutNoRoutes"),
	FAKEROCE_CNT64("ip6InDiscards"),
	FAKEROCE_CNT64("ip6InTruncatedPkts"),
	FAKEROCE_CNT64("ip6OutNoRoutes"),
	FAKEROCE_CNT64("tcpRetransSegs"),
	FAKEROCE_CNT64("tcpInOptErrors"),
	FAKEROCE_CNT64("tcpInProtoErrors"),
	FAKEROCE_CNT64("rxVlanErrors"),
	FAKEROCE_CNT64("cnpHandled"),
	FAKEROCE_CNT64("cnpIgnored"),
	FAKEROCE_CNT64("cnpSent"),
	FAKEROCE_CNT64("ip4InOctets"),
	FAKEROCE_CNT64("ip4InPkts"),
	FAKEROCE_CNT64("ip4InReasmRqd"),
	FAKEROCE_CNT64("ip4InMcastPkts"),
	FAKEROCE_CNT64("ip4OutOctets"),
	FAKEROCE_CNT64("ip4OutPkts"),
	FAKEROCE_CNT64("ip4OutSegRqd"),
	FAKEROCE_CNT64("ip4OutMcastPkts"),
	FAKEROCE_CNT64("ip6InOctets"),
	FAKEROCE_CNT64("ip6InPkts"),
	FAKEROCE_CNT64("ip6InReasmRqd"),
	FAKEROCE_CNT64("ip6InMcastPkts"),
	FAKEROCE_CNT64("ip6OutOctets"),
	FAKEROCE_CNT64("ip6OutPkts"),
	FAKEROCE_CNT64("ip6OutSegRqd"),
	FAKEROCE_CNT64("ip6OutMcastPkts"),
	FAKEROCE_CNT64("tcpInSegs"),
	FAKEROCE_CNT64("tcpOutSegs"),
	FAKEROCE_CNT64("iwInRdmaReads"),
	FAKEROCE_CNT64("iwInRdmaSends"),
	FAKEROCE_CNT64("iwInRdmaWrites"),
	FAKEROCE_CNT64("iwOutRdmaReads"),
	FAKEROCE_CNT64("iwOutRdmaSends"),
	FAKEROCE_CNT64("iwOutRdmaWrites"),
	FAKEROCE_CNT64("iwRdmaBnd"),
	FAKEROCE_CNT64("iwRdmaInv"),
	FAKEROCE_CNT64("ip4InMcastOctets"),
	FAKEROCE_CNT64("ip4OutMcastOctets"),
	FAKEROCE_CNT64("ip6InMcastOctets"),
	FAKEROCE_CNT64("ip6OutMcastOctets"),
	FAKEROCE_CNT64("RxUDP"),
	FAKEROCE_CNT64("TxUDP"),
	FAKEROCE_CNT64("RxECNMrkd"),
};

static_assert(ARRAY_SIZE(fakeroce_mlx5_descs) <= FAKEROCE_MAX_COUNTERS);
static_assert(ARRAY_SIZE(fakeroce_bnxt_re_descs) <= FAKEROCE_MAX_COUNTERS);
static_assert(ARRAY_SIZE(fakeroce_irdma_descs) <= FAKEROCE_MAX_COUNTERS);

static const struct fakeroce_personality fakeroce_personalities[] = {
	{
		.name = "mlx5",
		.eth_stats = FAKEROCE_STATS_MLX5E,
		.pma = true,
		.fec_stats = true,
		.qp_counters = true,
		.driver_id = RDMA_DRIVER_MLX5,
		.vendor_id = 0x02c9,		/* Mellanox */
		.vendor_part_id = 0x101d,	/* ConnectX-6 Dx */
		.descs = fakeroce_mlx5_descs,
		.num_counters = ARRAY_SIZE(fakeroce_mlx5_descs),
		.ident = &fakeroce_mlx5_ident,
	},
	{
		.name = "bnxt_re",
		.eth_stats = FAKEROCE_STATS_BNXT,
		.fec_stats = true,
		.driver_id = RDMA_DRIVER_BNXT_RE,
		.vendor_id = 0x14e4,		/* Broadcom */
		.vendor_part_id = 0x1750,	/* BCM57508 */
		.descs = fakeroce_bnxt_re_descs,
		.num_counters = ARRAY_SIZE(fakeroce_bnxt_re_descs),
		.ident = &fakeroce_bnxt_re_ident,
	},
	{
		.name = "irdma",
		.eth_stats = FAKEROCE_STATS_ICE,
		.driver_id = RDMA_DRIVER_IRDMA,
		.vendor_id = 0x8086,		/* Intel */
		.vendor_part_id = 0x1592,	/* E810-C */
		.descs = fakeroce_irdma_descs,
		.num_counters = ARRAY_SIZE(fakeroce_irdma_descs),
	},
};

const struct fakeroce_personality *fakeroce_personality_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fakeroce_personalities); i++)
		if (!strcmp(fakeroce_personalities[i].name, name))
			return &fakeroce_personalities[i];
	return NULL;
}

/* ---- counters ------------------------------------------------------------ */

static unsigned int fakeroce_counter_width(const struct fakeroce_dev *fdev,
					   unsigned int idx)
{
	return *(const u8 *)fdev->pers->descs[idx].priv;
}

/* The bits a counter keeps: a 32-bit one wraps at 2^32. */
u64 fakeroce_counter_mask(const struct fakeroce_dev *fdev, unsigned int idx)
{
	return fakeroce_counter_width(fdev, idx) == 32 ? U32_MAX : U64_MAX;
}

/* Set (or add to) a counter; a 32-bit counter wraps like the hardware's. */
void fakeroce_counter_set(struct fakeroce_dev *fdev, unsigned int idx,
			  u64 val, bool add)
{
	spin_lock(&fdev->lock);
	if (add)
		val += fdev->values[idx];
	fdev->values[idx] = val & fakeroce_counter_mask(fdev, idx);
	spin_unlock(&fdev->lock);
}

static struct rdma_hw_stats *
fakeroce_alloc_hw_port_stats(struct ib_device *ibdev, u32 port_num)
{
	const struct fakeroce_personality *pers = fakeroce_from_ib(ibdev)->pers;

	return rdma_alloc_hw_stats_struct(pers->descs, pers->num_counters,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int fakeroce_get_hw_stats(struct ib_device *ibdev,
				 struct rdma_hw_stats *stats, u32 port_num,
				 int index)
{
	struct fakeroce_dev *fdev = fakeroce_from_ib(ibdev);
	unsigned int n = min_t(unsigned int, stats->num_counters,
			       fdev->pers->num_counters);

	if (fakeroce_fw_call(fdev, FAKEROCE_FW_HW_STATS))
		return -EIO;
	spin_lock(&fdev->lock);
	memcpy(stats->value, fdev->values, n * sizeof(stats->value[0]));
	spin_unlock(&fdev->lock);
	return n;
}

/* ---- device and port ----------------------------------------------------- */

static int fakeroce_query_device(struct ib_device *ibdev,
				 struct ib_device_attr *attr,
				 struct ib_udata *uhw)
{
	struct fakeroce_dev *fdev = fakeroce_from_ib(ibdev);

	if (uhw->inlen || uhw->outlen)
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 1;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = fdev->pers->vendor_id;
	attr->vendor_part_id = fdev->pers->vendor_part_id;
	attr->max_pkeys = 1;
	return 0;
}

static u8 fakeroce_ib_width(unsigned int lanes)
{
	switch (lanes) {
	case 1:
		return IB_WIDTH_1X;
	case 2:
		return IB_WIDTH_2X;
	case 8:
		return IB_WIDTH_8X;
	default:
		return IB_WIDTH_4X;
	}
}

/* A lane's speed in IB terms: EDR 25, HDR 50, NDR 100 Gb/s */
static u16 fakeroce_ib_speed(unsigned int lane_gbps)
{
	switch (lane_gbps) {
	case 100:
		return IB_SPEED_NDR;
	case 50:
		return IB_SPEED_HDR;
	default:
		return IB_SPEED_EDR;
	}
}

static int fakeroce_query_port(struct ib_device *ibdev, u32 port_num,
			       struct ib_port_attr *attr)
{
	struct fakeroce_dev *fdev = fakeroce_from_ib(ibdev);
	bool up = fakeroce_netdev_link_up(fdev);

	/* ib_core zeroed *attr. */
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_1024;
	attr->gid_tbl_len = FAKEROCE_GID_TBL_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = 0x80000000;
	attr->pkey_tbl_len = 1;
	/* EDR, HDR or NDR lanes, as the netdev's ethtool reports them */
	attr->active_speed = fakeroce_ib_speed(fakeroce_lane_gbps(fdev));
	attr->active_width = fakeroce_ib_width(fakeroce_lanes(fdev));
	return 0;
}

static int fakeroce_query_pkey(struct ib_device *ibdev, u32 port_num,
			       u16 index, u16 *pkey)
{
	if (index > 0)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int fakeroce_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				       struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	/* ib_query_port() looks at core_cap_flags: set them first. */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	err = ib_query_port(ibdev, port_num, &attr);
	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer fakeroce_get_link_layer(struct ib_device *ibdev,
						    u32 port_num)
{
	return IB_LINK_LAYER_ETHERNET;
}

static void fakeroce_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	snprintf(str, IB_FW_VERSION_NAME_MAX, "fakeroce-%s",
		 fakeroce_from_ib(ibdev)->pers->name);
}

/*
 * No kernel verbs (alloc_pd, post_send, ...; the QP ops of fakeroce_qp.c are
 * not enough): ib_core then clears kverbs_provider and the verbs clients
 * (mad, cm, ipoib) skip the device.
 * driver_id and device_group are set per personality in fakeroce_ib_alloc().
 */
static const struct ib_device_ops fakeroce_ib_ops = {
	.owner = THIS_MODULE,
	.alloc_hw_port_stats = fakeroce_alloc_hw_port_stats,
	.get_dev_fw_str = fakeroce_get_dev_fw_str,
	.get_hw_stats = fakeroce_get_hw_stats,
	.get_link_layer = fakeroce_get_link_layer,
	.get_port_immutable = fakeroce_get_port_immutable,
	.query_device = fakeroce_query_device,
	.query_pkey = fakeroce_query_pkey,
	.query_port = fakeroce_query_port,
};

/* mlx5_ib's PMA: ib_core then makes ports/<n>/counters/ from its answers. */
static const struct ib_device_ops fakeroce_pma_ops = {
	.process_mad = fakeroce_process_mad,
};

struct fakeroce_dev *fakeroce_ib_alloc(unsigned int id,
				       const struct fakeroce_personality *pers)
{
	struct fakeroce_dev *fdev;

	fdev = ib_alloc_device(fakeroce_dev, ibdev);
	if (!fdev)
		return NULL;

	fdev->id = id;
	fdev->pers = pers;
	spin_lock_init(&fdev->lock);
	fakeroce_ramp_init(fdev);
	fdev->lanes = 4;
	fdev->lane_gbps = 25;
	fakeroce_dcb_init(&fdev->dcb);
	fakeroce_optics_init(&fdev->optics);
	fakeroce_qps_init(fdev);
	fakeroce_counters_init(fdev);

	fdev->ibdev.node_type = RDMA_NODE_IB_CA;
	fdev->ibdev.phys_port_cnt = 1;
	fdev->ibdev.num_comp_vectors = 1;
	snprintf(fdev->ibdev.node_desc, sizeof(fdev->ibdev.node_desc),
		 "fakeroce %s", pers->name);

	ib_set_device_ops(&fdev->ibdev, &fakeroce_ib_ops);
	ib_set_device_ops(&fdev->ibdev, &fakeroce_qp_ops);
	if (pers->pma)
		ib_set_device_ops(&fdev->ibdev, &fakeroce_pma_ops);
	if (pers->qp_counters)
		ib_set_device_ops(&fdev->ibdev, &fakeroce_counter_ops);
	/* The device's own copy of the ops: the table stays shared. */
	fdev->ibdev.ops.driver_id = pers->driver_id;
	fdev->ibdev.ops.device_group = pers->ident;
	return fdev;
}

/* The netdev must exist: its MAC makes the node GUID. */
int fakeroce_ib_register(struct fakeroce_dev *fdev)
{
	struct ib_device *ibdev = &fdev->ibdev;
	char name[IB_DEVICE_NAME_MAX];
	int err;

	addrconf_addr_eui48((u8 *)&ibdev->node_guid, fdev->netdev->dev_addr);

	err = ib_device_set_netdev(ibdev, fdev->netdev, FAKEROCE_PORT);
	if (err)
		return err;

	snprintf(name, sizeof(name), "fakeroce%u", fdev->id);
	err = ib_register_device(ibdev, name, NULL);
	if (err)
		goto err_clear_netdev;

	spin_lock(&fdev->lock);
	fdev->port_active = fakeroce_netdev_link_up(fdev);
	fdev->ib_live = true;
	spin_unlock(&fdev->lock);
	return 0;

err_clear_netdev:
	/* Drop the netdev reference now: the netdev goes before the ibdev. */
	ib_device_set_netdev(ibdev, NULL, FAKEROCE_PORT);
	return err;
}

void fakeroce_ib_unregister(struct fakeroce_dev *fdev)
{
	/* No more port events from here on. */
	spin_lock(&fdev->lock);
	fdev->ib_live = false;
	spin_unlock(&fdev->lock);

	ib_unregister_device(&fdev->ibdev);
	/*
	 * ib_core flushes the queued events when it unregisters the device,
	 * but someone else may have done that first (bnxt_re's module exit
	 * calls ib_unregister_driver(RDMA_DRIVER_BNXT_RE)): make sure no
	 * event work still points at this device before it is freed.
	 */
	flush_workqueue(ib_wq);
}

/*
 * Tell ib_core the port went ACTIVE or DOWN, once per change, as mlx5_ib,
 * bnxt_re and rxe do from their netdev notifiers.  Called on the netdev's
 * NETDEV_UP, NETDEV_DOWN and NETDEV_CHANGE (linkwatch coalesces fast
 * carrier flaps into one NETDEV_CHANGE, so such flaps make no IB event).
 */
void fakeroce_ib_port_update(struct fakeroce_dev *fdev)
{
	struct ib_event ev = {};
	bool up;

	spin_lock(&fdev->lock);
	if (!fdev->ib_live)
		goto out_unlock;
	up = fakeroce_netdev_link_up(fdev);
	if (up == fdev->port_active)
		goto out_unlock;
	fdev->port_active = up;

	ev.device = &fdev->ibdev;
	ev.element.port_num = FAKEROCE_PORT;
	ev.event = up ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
	ib_dispatch_event(&ev);	/* GFP_ATOMIC, queues work */
	ibdev_info(&fdev->ibdev, "port %u %s\n", FAKEROCE_PORT,
		   up ? "ACTIVE" : "DOWN");
out_unlock:
	spin_unlock(&fdev->lock);
}
