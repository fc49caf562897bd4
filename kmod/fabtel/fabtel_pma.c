// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the IB port counters of a port, from the device's performance
 * management agent (PMA): the PerfMgmt Get MADs ib_core's sysfs sends for
 * ports/<n>/counters/, sent straight to the driver's process_mad, two per
 * sample (PortCounters, and PortCountersExtended when ClassPortInfo offers
 * the extended width) instead of one per counter file.
 *
 * A device without process_mad (rxe, bnxt_re and irdma in 6.1) has no PMA:
 * the snapshot says "pma unsupported" and lists no counter.  The values are
 * the PMA's own: error counters stop at their maximum (4 to 16 bits), the
 * data counters count 4-octet words.  Documentation/counters.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>

#include "fabtel.h"

#define FABTEL_PMA_FILE(_id, _file, _metric, _width, _scale, _error) \
	[FABTEL_PMA_##_id] = _file,
static const char * const fabtel_pma_files[FABTEL_NR_PMA] = {
	FABTEL_PMA_COUNTERS(FABTEL_PMA_FILE)
};

/* One PerfMgmt Get of @attr; 0 and the answer in pma->out, or -EIO. */
static int fabtel_pma_get(struct fabtel_port *p, struct fabtel_pma_state *pma,
			  __be16 attr)
{
	struct ib_device *ibdev = p->fdev->ibdev;
	size_t out_size = sizeof(pma->out);
	u16 pkey_index = 0;
	int ret;

	memset(&pma->in, 0, sizeof(pma->in));
	pma->in.mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	pma->in.mad_hdr.mgmt_class = IB_MGMT_CLASS_PERF_MGMT;
	pma->in.mad_hdr.class_version = 1;
	pma->in.mad_hdr.method = IB_MGMT_METHOD_GET;
	pma->in.mad_hdr.attr_id = attr;
	if (attr != IB_PMA_CLASS_PORT_INFO)
		pma->in.data[41] = p->num;	/* PortSelect */

	ret = ibdev->ops.process_mad(ibdev, IB_MAD_IGNORE_MKEY, p->num, NULL,
				     NULL, &pma->in, &pma->out, &out_size,
				     &pkey_index);
	if ((ret & (IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY)) !=
	    (IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY) ||
	    pma->out.mad_hdr.status)
		return -EIO;
	return 0;
}

static const void *fabtel_pma_data(struct fabtel_pma_state *pma)
{
	return ((struct ib_pma_mad *)&pma->out)->data;
}

/* PortCounters: the error counters, xmit_wait, the 32-bit totals. */
static void fabtel_pma_decode(const struct ib_pma_portcounters *pc, u64 *v)
{
	v[FABTEL_PMA_SYMBOL_ERROR] = be16_to_cpu(pc->symbol_error_counter);
	v[FABTEL_PMA_LINK_ERROR_RECOVERY] = pc->link_error_recovery_counter;
	v[FABTEL_PMA_LINK_DOWNED] = pc->link_downed_counter;
	v[FABTEL_PMA_RCV_ERRORS] = be16_to_cpu(pc->port_rcv_errors);
	v[FABTEL_PMA_RCV_REMOTE_PHYS_ERRORS] =
		be16_to_cpu(pc->port_rcv_remphys_errors);
	v[FABTEL_PMA_RCV_SWITCH_RELAY_ERRORS] =
		be16_to_cpu(pc->port_rcv_switch_relay_errors);
	v[FABTEL_PMA_XMIT_DISCARDS] = be16_to_cpu(pc->port_xmit_discards);
	v[FABTEL_PMA_XMIT_CONSTRAINT_ERRORS] = pc->port_xmit_constraint_errors;
	v[FABTEL_PMA_RCV_CONSTRAINT_ERRORS] = pc->port_rcv_constraint_errors;
	v[FABTEL_PMA_LOCAL_LINK_INTEGRITY_ERRORS] = pc->link_overrun_errors >> 4;
	v[FABTEL_PMA_EXCESSIVE_BUFFER_OVERRUN_ERRORS] =
		pc->link_overrun_errors & 0xf;
	v[FABTEL_PMA_VL15_DROPPED] = be16_to_cpu(pc->vl15_dropped);
	v[FABTEL_PMA_XMIT_WAIT] = be32_to_cpu(pc->port_xmit_wait);
	v[FABTEL_PMA_XMIT_DATA] = be32_to_cpu(pc->port_xmit_data);
	v[FABTEL_PMA_RCV_DATA] = be32_to_cpu(pc->port_rcv_data);
	v[FABTEL_PMA_XMIT_PACKETS] = be32_to_cpu(pc->port_xmit_packets);
	v[FABTEL_PMA_RCV_PACKETS] = be32_to_cpu(pc->port_rcv_packets);
}

/* PortCountersExtended: the same totals, 64 bits wide. */
static void fabtel_pma_decode_ext(const struct ib_pma_portcounters_ext *pc,
				  u64 *v)
{
	v[FABTEL_PMA_XMIT_DATA] = be64_to_cpu(pc->port_xmit_data);
	v[FABTEL_PMA_RCV_DATA] = be64_to_cpu(pc->port_rcv_data);
	v[FABTEL_PMA_XMIT_PACKETS] = be64_to_cpu(pc->port_xmit_packets);
	v[FABTEL_PMA_RCV_PACKETS] = be64_to_cpu(pc->port_rcv_packets);
}

/*
 * At port creation: a PMA only where the driver has process_mad and it
 * answers ClassPortInfo (as ib_core decides whether to make counters/).
 */
int fabtel_pma_init(struct fabtel_port *p)
{
	const struct ib_class_port_info *cpi;
	struct fabtel_pma_state *pma;

	if (!p->fdev->ibdev->ops.process_mad)
		return 0;
	pma = kzalloc(sizeof(*pma), GFP_KERNEL);
	if (!pma)
		return -ENOMEM;
	if (fabtel_pma_get(p, pma, IB_PMA_CLASS_PORT_INFO)) {
		kfree(pma);
		return 0;
	}
	cpi = fabtel_pma_data(pma);
	pma->ext = !!(cpi->capability_mask & (IB_PMA_CLASS_CAP_EXT_WIDTH |
					      IB_PMA_CLASS_CAP_EXT_WIDTH_NOIETF));
	p->pma = pma;
	return 0;
}

void fabtel_pma_exit(struct fabtel_port *p)
{
	kfree(p->pma);
	p->pma = NULL;
}

/*
 * Sampler, every slow_ms: both MADs or nothing; a failed sample leaves "-",
 * counts, and backs off.
 */
void fabtel_pma_sample(struct fabtel_port *p)
{
	struct fabtel_pma_state *pma = p->pma;
	u64 v[FABTEL_NR_PMA], now = ktime_get_ns();
	int err;

	if (!pma || !fabtel_rd_due(p, FABTEL_RD_PMA, now))
		return;
	err = fabtel_pma_get(p, pma, IB_PMA_PORT_COUNTERS);
	if (!err)
		fabtel_pma_decode(fabtel_pma_data(pma), v);
	if (!err && pma->ext) {
		err = fabtel_pma_get(p, pma, IB_PMA_PORT_COUNTERS_EXT);
		if (!err)
			fabtel_pma_decode_ext(fabtel_pma_data(pma), v);
	}

	spin_lock(&p->lock);
	pma->valid = !err;
	if (err)
		pma->errors++;
	else
		memcpy(pma->val, v, sizeof(v));
	spin_unlock(&p->lock);
	fabtel_rd_done(p, FABTEL_RD_PMA, err, now, fabtel_slow_ms_get());
}

/* Snapshot lines (under p->lock): "pma", "pma_errors", "pma_counter"s. */
int fabtel_pma_snapshot(struct fabtel_port *p, char *buf, int n)
{
	const struct fabtel_pma_state *pma = p->pma;
	unsigned int i;

	if (!pma)
		return n + sysfs_emit_at(buf, n, "pma unsupported\n");
	n += sysfs_emit_at(buf, n, "pma %s\npma_errors %llu\n",
			   pma->ext ? "extended" : "supported", pma->errors);
	for (i = 0; i < FABTEL_NR_PMA; i++) {
		if (pma->valid)
			n += sysfs_emit_at(buf, n, "pma_counter %s %llu\n",
					   fabtel_pma_files[i], pma->val[i]);
		else
			n += sysfs_emit_at(buf, n, "pma_counter %s -\n",
					   fabtel_pma_files[i]);
	}
	return n;
}
