// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - the performance management agent (PMA) of the port, as
 * mlx5_ib answers it on a RoCE port: ClassPortInfo (extended width),
 * PortCounters and PortCountersExtended, through process_mad.  ib_core's
 * sysfs (ports/<n>/counters/) and fabtel.ko ask it; there is no MAD QP,
 * so nothing on the wire does.
 *
 * The counters are kept as 64-bit totals set from debugfs; each MAD
 * reports them at the width the PMA gives them, saturated at its maximum
 * as IB counters do (they stop, never wrap).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>

#include "fakeroce.h"

static const char * const fakeroce_pma_names[FAKEROCE_NR_PMA] = {
	[FAKEROCE_PMA_SYMBOL_ERROR] = "symbol_error",
	[FAKEROCE_PMA_LINK_ERROR_RECOVERY] = "link_error_recovery",
	[FAKEROCE_PMA_LINK_DOWNED] = "link_downed",
	[FAKEROCE_PMA_RCV_ERRORS] = "port_rcv_errors",
	[FAKEROCE_PMA_RCV_REMPHYS_ERRORS] = "port_rcv_remote_physical_errors",
	[FAKEROCE_PMA_RCV_SWITCH_RELAY_ERRORS] = "port_rcv_switch_relay_errors",
	[FAKEROCE_PMA_XMIT_DISCARDS] = "port_xmit_discards",
	[FAKEROCE_PMA_XMIT_CONSTRAINT_ERRORS] = "port_xmit_constraint_errors",
	[FAKEROCE_PMA_RCV_CONSTRAINT_ERRORS] = "port_rcv_constraint_errors",
	[FAKEROCE_PMA_LOCAL_LINK_INTEGRITY_ERRORS] = "local_link_integrity_errors",
	[FAKEROCE_PMA_EXCESSIVE_BUFFER_OVERRUN_ERRORS] = "excessive_buffer_overrun_errors",
	[FAKEROCE_PMA_VL15_DROPPED] = "VL15_dropped",
	[FAKEROCE_PMA_XMIT_WAIT] = "port_xmit_wait",
	[FAKEROCE_PMA_XMIT_DATA] = "port_xmit_data",
	[FAKEROCE_PMA_RCV_DATA] = "port_rcv_data",
	[FAKEROCE_PMA_XMIT_PACKETS] = "port_xmit_packets",
	[FAKEROCE_PMA_RCV_PACKETS] = "port_rcv_packets",
	[FAKEROCE_PMA_UNICAST_XMIT_PACKETS] = "unicast_xmit_packets",
	[FAKEROCE_PMA_UNICAST_RCV_PACKETS] = "unicast_rcv_packets",
	[FAKEROCE_PMA_MULTICAST_XMIT_PACKETS] = "multicast_xmit_packets",
	[FAKEROCE_PMA_MULTICAST_RCV_PACKETS] = "multicast_rcv_packets",
};

const char *fakeroce_pma_name(unsigned int idx)
{
	return idx < FAKEROCE_NR_PMA ? fakeroce_pma_names[idx] : NULL;
}

void fakeroce_pma_set(struct fakeroce_dev *fdev, unsigned int idx, u64 val,
		      bool add)
{
	spin_lock(&fdev->lock);
	fdev->pma[idx] = add ? fdev->pma[idx] + val : val;
	spin_unlock(&fdev->lock);
}

/* A counter of @bits bits as the PMA shows it: stopped at its maximum. */
static u64 fakeroce_pma_sat(const u64 *pma, unsigned int idx,
			    unsigned int bits)
{
	return min_t(u64, pma[idx], bits == 64 ? U64_MAX : BIT_ULL(bits) - 1);
}

static void fakeroce_pma_counters(const u64 *v, struct ib_pma_portcounters *pc)
{
	pc->port_select = FAKEROCE_PORT;
	pc->symbol_error_counter =
		cpu_to_be16(fakeroce_pma_sat(v, FAKEROCE_PMA_SYMBOL_ERROR, 16));
	pc->link_error_recovery_counter =
		fakeroce_pma_sat(v, FAKEROCE_PMA_LINK_ERROR_RECOVERY, 8);
	pc->link_downed_counter = fakeroce_pma_sat(v, FAKEROCE_PMA_LINK_DOWNED, 8);
	pc->port_rcv_errors =
		cpu_to_be16(fakeroce_pma_sat(v, FAKEROCE_PMA_RCV_ERRORS, 16));
	pc->port_rcv_remphys_errors =
		cpu_to_be16(fakeroce_pma_sat(v, FAKEROCE_PMA_RCV_REMPHYS_ERRORS, 16));
	pc->port_rcv_switch_relay_errors =
		cpu_to_be16(fakeroce_pma_sat(v, FAKEROCE_PMA_RCV_SWITCH_RELAY_ERRORS, 16));
	pc->port_xmit_discards =
		cpu_to_be16(fakeroce_pma_sat(v, FAKEROCE_PMA_XMIT_DISCARDS, 16));
	pc->port_xmit_constraint_errors =
		fakeroce_pma_sat(v, FAKEROCE_PMA_XMIT_CONSTRAINT_ERRORS, 8);
	pc->port_rcv_constraint_errors =
		fakeroce_pma_sat(v, FAKEROCE_PMA_RCV_CONSTRAINT_ERRORS, 8);
	pc->link_overrun_errors =
		fakeroce_pma_sat(v, FAKEROCE_PMA_LOCAL_LINK_INTEGRITY_ERRORS, 4) << 4 |
		fakeroce_pma_sat(v, FAKEROCE_PMA_EXCESSIVE_BUFFER_OVERRUN_ERRORS, 4);
	pc->vl15_dropped = cpu_to_be16(fakeroce_pma_sat(v, FAKEROCE_PMA_VL15_DROPPED, 16));
	pc->port_xmit_data = cpu_to_be32(fakeroce_pma_sat(v, FAKEROCE_PMA_XMIT_DATA, 32));
	pc->port_rcv_data = cpu_to_be32(fakeroce_pma_sat(v, FAKEROCE_PMA_RCV_DATA, 32));
	pc->port_xmit_packets =
		cpu_to_be32(fakeroce_pma_sat(v, FAKEROCE_PMA_XMIT_PACKETS, 32));
	pc->port_rcv_packets =
		cpu_to_be32(fakeroce_pma_sat(v, FAKEROCE_PMA_RCV_PACKETS, 32));
	pc->port_xmit_wait = cpu_to_be32(fakeroce_pma_sat(v, FAKEROCE_PMA_XMIT_WAIT, 32));
}

static void fakeroce_pma_counters_ext(const u64 *v,
				      struct ib_pma_portcounters_ext *pc)
{
	pc->port_select = FAKEROCE_PORT;
	pc->port_xmit_data = cpu_to_be64(v[FAKEROCE_PMA_XMIT_DATA]);
	pc->port_rcv_data = cpu_to_be64(v[FAKEROCE_PMA_RCV_DATA]);
	pc->port_xmit_packets = cpu_to_be64(v[FAKEROCE_PMA_XMIT_PACKETS]);
	pc->port_rcv_packets = cpu_to_be64(v[FAKEROCE_PMA_RCV_PACKETS]);
	pc->port_unicast_xmit_packets =
		cpu_to_be64(v[FAKEROCE_PMA_UNICAST_XMIT_PACKETS]);
	pc->port_unicast_rcv_packets =
		cpu_to_be64(v[FAKEROCE_PMA_UNICAST_RCV_PACKETS]);
	pc->port_multicast_xmit_packets =
		cpu_to_be64(v[FAKEROCE_PMA_MULTICAST_XMIT_PACKETS]);
	pc->port_multicast_rcv_packets =
		cpu_to_be64(v[FAKEROCE_PMA_MULTICAST_RCV_PACKETS]);
}

/*
 * Only a PerfMgmt Get of the three attributes is answered; anything else,
 * and a MAD the fail_next_mad knob fails, is refused as mlx5_ib refuses
 * what its firmware rejects.
 */
int fakeroce_process_mad(struct ib_device *ibdev, int mad_flags, u32 port_num,
			 const struct ib_wc *in_wc, const struct ib_grh *in_grh,
			 const struct ib_mad *in, struct ib_mad *out,
			 size_t *out_mad_size, u16 *out_mad_pkey_index)
{
	struct fakeroce_dev *fdev = fakeroce_from_ib(ibdev);
	struct ib_pma_mad *pma = (struct ib_pma_mad *)out;
	struct ib_class_port_info *cpi;
	u64 v[FAKEROCE_NR_PMA];

	if (port_num != FAKEROCE_PORT || *out_mad_size < sizeof(*out) ||
	    in->mad_hdr.mgmt_class != IB_MGMT_CLASS_PERF_MGMT ||
	    in->mad_hdr.method != IB_MGMT_METHOD_GET)
		return IB_MAD_RESULT_FAILURE;

	if (fakeroce_fw_call(fdev, FAKEROCE_FW_MAD))
		return IB_MAD_RESULT_FAILURE;
	spin_lock(&fdev->lock);
	memcpy(v, fdev->pma, sizeof(v));
	spin_unlock(&fdev->lock);

	memset(out, 0, sizeof(*out));
	out->mad_hdr = in->mad_hdr;
	out->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	switch (in->mad_hdr.attr_id) {
	case IB_PMA_CLASS_PORT_INFO:
		cpi = (struct ib_class_port_info *)pma->data;
		cpi->base_version = 1;
		cpi->class_version = 1;
		cpi->capability_mask = IB_PMA_CLASS_CAP_EXT_WIDTH;
		break;
	case IB_PMA_PORT_COUNTERS:
		fakeroce_pma_counters(v, (struct ib_pma_portcounters *)pma->data);
		break;
	case IB_PMA_PORT_COUNTERS_EXT:
		fakeroce_pma_counters_ext(v, (struct ib_pma_portcounters_ext *)pma->data);
		break;
	default:
		return IB_MAD_RESULT_FAILURE;
	}
	*out_mad_size = sizeof(*out);
	return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}
