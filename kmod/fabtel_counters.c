// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the normalized counter schema, the per-vendor maps from driver
 * hardware-counter names (Linux 6.1) to it, and the counter sampler.
 *
 * A normalized counter a vendor has no source for is absent (no sysfs file),
 * never a fake zero.  The exact meaning of every mapping is documented in
 * Documentation/counters.rst; the subtle ones are noted here too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/build_bug.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fabtel.h"

const char * const fabtel_counter_names[FABTEL_NR_COUNTERS] = {
	[FABTEL_OUT_OF_SEQUENCE]	= "out_of_sequence",
	[FABTEL_NAK_SEQ_ERR_RCVD]	= "nak_seq_err_rcvd",
	[FABTEL_IMPLIED_NAK_SEQ_ERR]	= "implied_nak_seq_err",
	[FABTEL_LOCAL_ACK_TIMEOUT]	= "local_ack_timeout",
	[FABTEL_RETRY_EXCEEDED]		= "retry_exceeded",
	[FABTEL_RNR_NAK_RCVD]		= "rnr_nak_rcvd",
	[FABTEL_RNR_NAK_SENT]		= "rnr_nak_sent",
	[FABTEL_RNR_RETRY_EXCEEDED]	= "rnr_retry_exceeded",
	[FABTEL_DUPLICATE_REQUEST]	= "duplicate_request",
	[FABTEL_OUT_OF_BUFFER]		= "out_of_buffer",
	[FABTEL_CNP_SENT]		= "cnp_sent",
	[FABTEL_CNP_HANDLED]		= "cnp_handled",
	[FABTEL_CNP_IGNORED]		= "cnp_ignored",
	[FABTEL_ECN_MARKED_RX]		= "ecn_marked_rx",
	[FABTEL_ICRC_ERR]		= "icrc_err",
	[FABTEL_REQ_CQE_ERR]		= "req_cqe_err",
	[FABTEL_RESP_CQE_ERR]		= "resp_cqe_err",
	[FABTEL_LINK_DOWNED]		= "link_downed",
	[FABTEL_RX_PACKETS]		= "rx_packets",
	[FABTEL_TX_PACKETS]		= "tx_packets",
	[FABTEL_RX_BYTES]		= "rx_bytes",
	[FABTEL_TX_BYTES]		= "tx_bytes",
};

/* Counters whose rise between two samples is an error-burst event. */
static const bool fabtel_counter_is_error[FABTEL_NR_COUNTERS] = {
	[FABTEL_OUT_OF_SEQUENCE]	= true,
	[FABTEL_NAK_SEQ_ERR_RCVD]	= true,
	[FABTEL_IMPLIED_NAK_SEQ_ERR]	= true,
	[FABTEL_LOCAL_ACK_TIMEOUT]	= true,
	[FABTEL_RETRY_EXCEEDED]		= true,
	[FABTEL_RNR_NAK_RCVD]		= true,
	[FABTEL_RNR_NAK_SENT]		= true,
	[FABTEL_RNR_RETRY_EXCEEDED]	= true,
	[FABTEL_REQ_CQE_ERR]		= true,
	[FABTEL_RESP_CQE_ERR]		= true,
};

/*
 * mlx5 (drivers/infiniband/hw/mlx5/counters.c).  link_downed and packet or
 * byte totals live in the IB port counters (MADs), not in hw_counters: absent.
 * rnr_nak_retry_err counts RNR NAKs received (retry limit not exceeded).
 */
static const struct fabtel_map_entry fabtel_map_mlx5[] = {
	{ FABTEL_OUT_OF_SEQUENCE,	"out_of_sequence" },
	{ FABTEL_NAK_SEQ_ERR_RCVD,	"packet_seq_err" },
	{ FABTEL_IMPLIED_NAK_SEQ_ERR,	"implied_nak_seq_err" },
	{ FABTEL_LOCAL_ACK_TIMEOUT,	"local_ack_timeout_err" },
	{ FABTEL_RNR_NAK_RCVD,		"rnr_nak_retry_err" },
	{ FABTEL_DUPLICATE_REQUEST,	"duplicate_request" },
	{ FABTEL_OUT_OF_BUFFER,		"out_of_buffer" },
	{ FABTEL_CNP_SENT,		"np_cnp_sent" },
	{ FABTEL_CNP_HANDLED,		"rp_cnp_handled" },
	{ FABTEL_CNP_IGNORED,		"rp_cnp_ignored" },
	{ FABTEL_ECN_MARKED_RX,		"np_ecn_marked_roce_packets" },
	{ FABTEL_ICRC_ERR,		"rx_icrc_encapsulated" },
	{ FABTEL_REQ_CQE_ERR,		"req_cqe_error" },
	{ FABTEL_RESP_CQE_ERR,		"resp_cqe_error" },
};

/* mlx5 Q counters are 32-bit firmware values, read as they are: they wrap. */
static const char * const fabtel_wrap32_mlx5[] = {
	"rx_write_requests", "rx_read_requests", "rx_atomic_requests",
	"out_of_buffer", "out_of_sequence", "duplicate_request",
	"rnr_nak_retry_err", "packet_seq_err", "implied_nak_seq_err",
	"local_ack_timeout_err", "resp_local_length_error", "resp_cqe_error",
	"req_cqe_error", "req_remote_invalid_request",
	"req_remote_access_errors", "resp_remote_access_errors",
	"resp_cqe_flush_error", "req_cqe_flush_error", "roce_adp_retrans",
	"roce_adp_retrans_to", "roce_slow_restart", "roce_slow_restart_cnps",
	"roce_slow_restart_trans",
};

/*
 * bnxt_re (drivers/infiniband/hw/bnxt_re/hw_counters.c).  to_retransmits are
 * retransmissions caused by the ACK timer: the local ACK timeout.  No CNP or
 * ECN counters in 6.1.
 */
static const struct fabtel_map_entry fabtel_map_bnxt_re[] = {
	{ FABTEL_OUT_OF_SEQUENCE,	"oos_drop_count" },
	{ FABTEL_NAK_SEQ_ERR_RCVD,	"seq_err_naks_rcvd" },
	{ FABTEL_LOCAL_ACK_TIMEOUT,	"to_retransmits" },
	{ FABTEL_RETRY_EXCEEDED,	"max_retry_exceeded" },
	{ FABTEL_RNR_NAK_RCVD,		"rnr_naks_rcvd" },
	{ FABTEL_DUPLICATE_REQUEST,	"dup_req" },
	{ FABTEL_OUT_OF_BUFFER,		"rx_out_of_buffer" },
	{ FABTEL_RX_PACKETS,		"rx_pkts" },
	{ FABTEL_TX_PACKETS,		"tx_pkts" },
	{ FABTEL_RX_BYTES,		"rx_bytes" },
	{ FABTEL_TX_BYTES,		"tx_bytes" },
};

/*
 * irdma gen2 (drivers/infiniband/hw/irdma/verbs.c): congestion counters and
 * RoCEv2 UDP packet totals only; its transport error counters are newer than
 * 6.1.  irdma accumulates its 32-bit hardware counters itself.
 */
static const struct fabtel_map_entry fabtel_map_irdma[] = {
	{ FABTEL_CNP_SENT,		"cnpSent" },
	{ FABTEL_CNP_HANDLED,		"cnpHandled" },
	{ FABTEL_CNP_IGNORED,		"cnpIgnored" },
	{ FABTEL_ECN_MARKED_RX,		"RxECNMrkd" },
	{ FABTEL_RX_PACKETS,		"RxUDP" },
	{ FABTEL_TX_PACKETS,		"TxUDP" },
};

/*
 * rxe (drivers/infiniband/sw/rxe/rxe_hw_counters.c).  out_of_seq_request
 * counts once per out-of-sequence episode (later out-of-order packets of the
 * same episode are dropped silently), not once per packet.  rxe has no ACK
 * timeout counter: completer_retry_err counts retries after NAK-sequence
 * errors as well as after timeouts, so it is not mapped; the BPF side
 * (bpf/rxe) sees the real timeouts.
 */
static const struct fabtel_map_entry fabtel_map_rxe[] = {
	{ FABTEL_OUT_OF_SEQUENCE,	"out_of_seq_request" },
	{ FABTEL_NAK_SEQ_ERR_RCVD,	"rcvd_seq_err" },
	{ FABTEL_RETRY_EXCEEDED,	"retry_exceeded_err" },
	{ FABTEL_RNR_NAK_RCVD,		"rcvd_rnr_err" },
	{ FABTEL_RNR_NAK_SENT,		"send_rnr_err" },
	{ FABTEL_RNR_RETRY_EXCEEDED,	"retry_rnr_exceeded_err" },
	{ FABTEL_DUPLICATE_REQUEST,	"duplicate_request" },
	{ FABTEL_LINK_DOWNED,		"link_downed" },
	{ FABTEL_RX_PACKETS,		"rcvd_pkts" },
	{ FABTEL_TX_PACKETS,		"sent_pkts" },
};

#define FABTEL_VENDOR(_name, _id, _map, _wrap, _nwrap) {		\
	.name = _name, .driver_id = _id,				\
	.map = _map, .map_len = ARRAY_SIZE(_map),			\
	.wrap32 = _wrap, .wrap32_len = _nwrap,				\
}

static const struct fabtel_vendor fabtel_vendors[] = {
	FABTEL_VENDOR("mlx5", RDMA_DRIVER_MLX5, fabtel_map_mlx5,
		      fabtel_wrap32_mlx5, ARRAY_SIZE(fabtel_wrap32_mlx5)),
	FABTEL_VENDOR("bnxt_re", RDMA_DRIVER_BNXT_RE, fabtel_map_bnxt_re,
		      NULL, 0),
	FABTEL_VENDOR("irdma", RDMA_DRIVER_IRDMA, fabtel_map_irdma, NULL, 0),
	FABTEL_VENDOR("rxe", RDMA_DRIVER_RXE, fabtel_map_rxe, NULL, 0),
};

/* Devices of other drivers still get raw counters, but no normalized ones. */
static const struct fabtel_vendor fabtel_vendor_unknown = {
	.name = "unknown",
	.driver_id = RDMA_DRIVER_UNKNOWN,
};

const struct fabtel_vendor *fabtel_vendor_find(enum rdma_driver_id id)
{
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(fabtel_counter_names) != FABTEL_NR_COUNTERS);
	BUILD_BUG_ON(ARRAY_SIZE(fabtel_counter_is_error) != FABTEL_NR_COUNTERS);

	for (i = 0; i < ARRAY_SIZE(fabtel_vendors); i++)
		if (fabtel_vendors[i].driver_id == id)
			return &fabtel_vendors[i];
	return &fabtel_vendor_unknown;
}

static int fabtel_stat_index(const struct rdma_hw_stats *stats, const char *name)
{
	int i;

	for (i = 0; i < stats->num_counters; i++)
		if (stats->descs[i].name && !strcmp(stats->descs[i].name, name))
			return i;
	return -1;
}

/* Map the driver's counters; allocate what the sampler needs. */
int fabtel_counters_init(struct fabtel_port *p)
{
	const struct fabtel_vendor *v = p->fdev->vendor;
	struct ib_device *ibdev = p->fdev->ibdev;
	unsigned int i, n;
	int idx;

	for (i = 0; i < FABTEL_NR_COUNTERS; i++)
		p->src[i] = -1;
	if (!ibdev->ops.alloc_hw_port_stats || !ibdev->ops.get_hw_stats)
		return 0;	/* a device without counters: all absent */

	p->stats = ibdev->ops.alloc_hw_port_stats(ibdev, p->num);
	if (!p->stats)
		return -ENOMEM;
	n = p->stats->num_counters;
	p->raw = kcalloc(n, sizeof(*p->raw), GFP_KERNEL);
	p->ext = kcalloc(n, sizeof(*p->ext), GFP_KERNEL);
	p->last32 = kcalloc(n, sizeof(*p->last32), GFP_KERNEL);
	p->is_wrap32 = bitmap_zalloc(n, GFP_KERNEL);
	p->disabled = bitmap_zalloc(n, GFP_KERNEL);
	if (!p->raw || !p->ext || !p->last32 || !p->is_wrap32 || !p->disabled) {
		fabtel_counters_exit(p);
		return -ENOMEM;
	}

	for (i = 0; i < v->map_len; i++) {
		idx = fabtel_stat_index(p->stats, v->map[i].src);
		if (idx >= 0)
			p->src[v->map[i].ctr] = idx;
	}
	for (i = 0; i < v->wrap32_len; i++) {
		idx = fabtel_stat_index(p->stats, v->wrap32[i]);
		if (idx >= 0)
			__set_bit(idx, p->is_wrap32);
	}
	return 0;
}

void fabtel_counters_exit(struct fabtel_port *p)
{
	bitmap_free(p->disabled);
	bitmap_free(p->is_wrap32);
	kfree(p->last32);
	kfree(p->ext);
	kfree(p->raw);
	if (p->stats)
		rdma_free_hw_stats_struct(p->stats);
	p->is_wrap32 = p->disabled = NULL;
	p->last32 = NULL;
	p->ext = p->raw = NULL;
	p->stats = NULL;
}

/* Append an error-burst event; the oldest is dropped (and counted) if full. */
static void fabtel_event_add(struct fabtel_port *p, enum fabtel_counter ctr,
			     u64 delta, u64 now)
{
	struct fabtel_event *e;

	if (p->ev_len == FABTEL_EVENTS_LEN) {
		p->ev_head = (p->ev_head + 1) % FABTEL_EVENTS_LEN;
		p->ev_len--;
		p->ev_dropped++;
	}
	e = &p->events[(p->ev_head + p->ev_len) % FABTEL_EVENTS_LEN];
	p->ev_len++;
	e->seq = ++p->ev_seq;
	e->boot_ns = now;
	e->ctr = ctr;
	e->delta = delta;
}

/*
 * Fold a fresh copy of the driver values into the port (p->lock held).
 * vals[n] holds the driver's is_disabled bitmap: a disabled counter keeps
 * no value (its files say so) and feeds no event.
 */
static void fabtel_counters_update(struct fabtel_port *p, const u64 *vals,
				   const unsigned long *off, unsigned int n,
				   u64 now)
{
	unsigned int i;
	u64 v;

	bitmap_copy(p->disabled, off, n);
	for (i = 0; i < n; i++) {
		p->raw[i] = vals[i];
		if (!test_bit(i, p->is_wrap32)) {
			p->ext[i] = vals[i];
			continue;
		}
		if (!p->sampled)
			p->ext[i] = (u32)vals[i];
		else
			p->ext[i] += (u32)((u32)vals[i] - p->last32[i]);
		p->last32[i] = (u32)vals[i];
	}

	for (i = 0; i < FABTEL_NR_COUNTERS; i++) {
		if (p->src[i] < 0 || test_bit(p->src[i], p->disabled))
			continue;
		v = p->ext[p->src[i]];
		if (p->sampled && fabtel_counter_is_error[i] && v > p->norm[i])
			fabtel_event_add(p, i, v - p->norm[i], now);
		p->norm[i] = v;
	}
	p->sampled = true;
	p->samples++;
	p->last_sample_ns = now;
}

/*
 * One get_hw_stats call for the whole port (index = num_counters asks the
 * driver for every counter).  Process context: drivers may sleep here.  On
 * an error the sample is skipped and counted; the old values stay.
 */
void fabtel_counters_sample(struct fabtel_port *p)
{
	struct ib_device *ibdev = p->fdev->ibdev;
	struct rdma_hw_stats *stats = p->stats;
	unsigned long *off;
	unsigned int i, n;
	u64 *vals;
	int ret;

	if (!stats)
		return;
	n = stats->num_counters;
	vals = kmalloc_array(n, sizeof(*vals), GFP_KERNEL);
	off = bitmap_zalloc(n, GFP_KERNEL);
	if (!vals || !off)
		goto err_free;

	mutex_lock(&stats->lock);
	ret = ibdev->ops.get_hw_stats(ibdev, stats, p->num, n);
	if (ret >= 0) {
		for (i = 0; i < n; i++)
			vals[i] = stats->value[i];
		bitmap_copy(off, stats->is_disabled, n);
	}
	mutex_unlock(&stats->lock);
	if (ret < 0) {
		pr_debug("%s/%u: get_hw_stats: %d\n", dev_name(&ibdev->dev),
			 p->num, ret);
		goto err_free;
	}

	spin_lock(&p->lock);
	fabtel_counters_update(p, vals, off, n, fabtel_now_boot());
	spin_unlock(&p->lock);
	bitmap_free(off);
	kfree(vals);
	return;

err_free:
	bitmap_free(off);
	kfree(vals);

	spin_lock(&p->lock);
	p->sample_errors++;
	spin_unlock(&p->lock);
}
