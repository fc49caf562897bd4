/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabtel_schema.h - fabtel's one counter schema: the vendor-neutral RoCE
 * counters and each vendor's map from its driver's hw_counters names
 * (Linux 6.1 names), written once.  fabtel.ko (kmod/fabtel/fabtel_counters.c)
 * builds its tables from these lists, and so does userspace
 * (userspace/collector/schema.c) for hosts without fabtel.ko.
 * Documentation/counters.rst explains every entry;
 * selftests/host/test_schema.sh fails when the three disagree.
 *
 * Plain C, no includes: both the kernel and C11 userspace include it.
 * A normalized counter a vendor has no source for is absent, never zero.
 */
#ifndef FABTEL_SCHEMA_H
#define FABTEL_SCHEMA_H

/*
 * The normalized counters, in the order of their sysfs files, snapshot
 * lines and metrics: X(ID, name, width, unit, error).  width: bits of the
 * value fabtel.ko exports (it extends 32-bit driver counters); unit: what
 * one count is; error: a rise between two samples is an error-burst event.
 */
#define FABTEL_COUNTERS(X)						\
	X(OUT_OF_SEQUENCE,	"out_of_sequence",	64, "packets",	1) \
	X(NAK_SEQ_ERR_RCVD,	"nak_seq_err_rcvd",	64, "packets",	1) \
	X(IMPLIED_NAK_SEQ_ERR,	"implied_nak_seq_err",	64, "events",	1) \
	X(LOCAL_ACK_TIMEOUT,	"local_ack_timeout",	64, "events",	1) \
	X(RETRY_EXCEEDED,	"retry_exceeded",	64, "events",	1) \
	X(RNR_NAK_RCVD,		"rnr_nak_rcvd",		64, "packets",	1) \
	X(RNR_NAK_SENT,		"rnr_nak_sent",		64, "packets",	1) \
	X(RNR_RETRY_EXCEEDED,	"rnr_retry_exceeded",	64, "events",	1) \
	X(DUPLICATE_REQUEST,	"duplicate_request",	64, "packets",	0) \
	X(OUT_OF_BUFFER,	"out_of_buffer",	64, "packets",	0) \
	X(CNP_SENT,		"cnp_sent",		64, "packets",	0) \
	X(CNP_HANDLED,		"cnp_handled",		64, "packets",	0) \
	X(CNP_IGNORED,		"cnp_ignored",		64, "packets",	0) \
	X(ECN_MARKED_RX,	"ecn_marked_rx",	64, "packets",	0) \
	X(ICRC_ERR,		"icrc_err",		64, "packets",	0) \
	X(REQ_CQE_ERR,		"req_cqe_err",		64, "events",	1) \
	X(RESP_CQE_ERR,		"resp_cqe_err",		64, "events",	1) \
	X(LINK_DOWNED,		"link_downed",		64, "events",	0) \
	X(RX_PACKETS,		"rx_packets",		64, "packets",	0) \
	X(TX_PACKETS,		"tx_packets",		64, "packets",	0) \
	X(RX_BYTES,		"rx_bytes",		64, "bytes",	0) \
	X(TX_BYTES,		"tx_bytes",		64, "bytes",	0)

#define FABTEL_SCHEMA_ENUM(id, name, width, unit, error) FABTEL_##id,
enum fabtel_counter {
	FABTEL_COUNTERS(FABTEL_SCHEMA_ENUM)
	FABTEL_NR_COUNTERS
};
#undef FABTEL_SCHEMA_ENUM

/*
 * The vendor maps: X(ID, driver hw_counters name, width of the driver's
 * counter in bits).  One list per vendor; FABTEL_VENDORS names them.
 */

/*
 * mlx5 (drivers/infiniband/hw/mlx5/counters.c).  link_downed and packet or
 * byte totals live in the IB port counters (MADs), not in hw_counters: absent.
 * rnr_nak_retry_err counts RNR NAKs received (retry limit not exceeded).
 * Its Q counters are 32-bit firmware values: they wrap.
 */
#define FABTEL_MAP_MLX5(X)						\
	X(OUT_OF_SEQUENCE,	"out_of_sequence",		32)	\
	X(NAK_SEQ_ERR_RCVD,	"packet_seq_err",		32)	\
	X(IMPLIED_NAK_SEQ_ERR,	"implied_nak_seq_err",		32)	\
	X(LOCAL_ACK_TIMEOUT,	"local_ack_timeout_err",	32)	\
	X(RNR_NAK_RCVD,		"rnr_nak_retry_err",		32)	\
	X(DUPLICATE_REQUEST,	"duplicate_request",		32)	\
	X(OUT_OF_BUFFER,	"out_of_buffer",		32)	\
	X(CNP_SENT,		"np_cnp_sent",			64)	\
	X(CNP_HANDLED,		"rp_cnp_handled",		64)	\
	X(CNP_IGNORED,		"rp_cnp_ignored",		64)	\
	X(ECN_MARKED_RX,	"np_ecn_marked_roce_packets",	64)	\
	X(ICRC_ERR,		"rx_icrc_encapsulated",		64)	\
	X(REQ_CQE_ERR,		"req_cqe_error",		32)	\
	X(RESP_CQE_ERR,		"resp_cqe_error",		32)

/* mlx5's 32-bit Q counters, mapped or not (fabtel.ko extends them all). */
#define FABTEL_WRAP32_MLX5(X)						\
	X("rx_write_requests") X("rx_read_requests") X("rx_atomic_requests") \
	X("out_of_buffer") X("out_of_sequence") X("duplicate_request")	\
	X("rnr_nak_retry_err") X("packet_seq_err") X("implied_nak_seq_err") \
	X("local_ack_timeout_err") X("resp_local_length_error")		\
	X("resp_cqe_error") X("req_cqe_error")				\
	X("req_remote_invalid_request") X("req_remote_access_errors")	\
	X("resp_remote_access_errors") X("resp_cqe_flush_error")	\
	X("req_cqe_flush_error") X("roce_adp_retrans")			\
	X("roce_adp_retrans_to") X("roce_slow_restart")			\
	X("roce_slow_restart_cnps") X("roce_slow_restart_trans")

/*
 * bnxt_re (drivers/infiniband/hw/bnxt_re/hw_counters.c).  to_retransmits are
 * retransmissions caused by the ACK timer: the local ACK timeout.  No CNP or
 * ECN counters in 6.1.
 */
#define FABTEL_MAP_BNXT_RE(X)						\
	X(OUT_OF_SEQUENCE,	"oos_drop_count",		64)	\
	X(NAK_SEQ_ERR_RCVD,	"seq_err_naks_rcvd",		64)	\
	X(LOCAL_ACK_TIMEOUT,	"to_retransmits",		64)	\
	X(RETRY_EXCEEDED,	"max_retry_exceeded",		64)	\
	X(RNR_NAK_RCVD,		"rnr_naks_rcvd",		64)	\
	X(DUPLICATE_REQUEST,	"dup_req",			64)	\
	X(OUT_OF_BUFFER,	"rx_out_of_buffer",		64)	\
	X(RX_PACKETS,		"rx_pkts",			64)	\
	X(TX_PACKETS,		"tx_pkts",			64)	\
	X(RX_BYTES,		"rx_bytes",			64)	\
	X(TX_BYTES,		"tx_bytes",			64)

/*
 * irdma gen2 (drivers/infiniband/hw/irdma/verbs.c): congestion counters and
 * RoCEv2 UDP packet totals only; its transport error counters are newer than
 * 6.1.  irdma accumulates its 32-bit hardware counters itself.
 */
#define FABTEL_MAP_IRDMA(X)						\
	X(CNP_SENT,		"cnpSent",			64)	\
	X(CNP_HANDLED,		"cnpHandled",			64)	\
	X(CNP_IGNORED,		"cnpIgnored",			64)	\
	X(ECN_MARKED_RX,	"RxECNMrkd",			64)	\
	X(RX_PACKETS,		"RxUDP",			64)	\
	X(TX_PACKETS,		"TxUDP",			64)

/*
 * rxe (drivers/infiniband/sw/rxe/rxe_hw_counters.c).  out_of_seq_request
 * counts once per out-of-sequence episode (later out-of-order packets of the
 * same episode are dropped silently), not once per packet.  rxe has no ACK
 * timeout counter: completer_retry_err counts retries after NAK-sequence
 * errors as well as after timeouts, so it is not mapped; the BPF side
 * (bpf/rxe) sees the real timeouts.
 */
#define FABTEL_MAP_RXE(X)						\
	X(OUT_OF_SEQUENCE,	"out_of_seq_request",		64)	\
	X(NAK_SEQ_ERR_RCVD,	"rcvd_seq_err",			64)	\
	X(RETRY_EXCEEDED,	"retry_exceeded_err",		64)	\
	X(RNR_NAK_RCVD,		"rcvd_rnr_err",			64)	\
	X(RNR_NAK_SENT,		"send_rnr_err",			64)	\
	X(RNR_RETRY_EXCEEDED,	"retry_rnr_exceeded_err",	64)	\
	X(DUPLICATE_REQUEST,	"duplicate_request",		64)	\
	X(LINK_DOWNED,		"link_downed",			64)	\
	X(RX_PACKETS,		"rcvd_pkts",			64)	\
	X(TX_PACKETS,		"sent_pkts",			64)

/*
 * The IB port counters (the PMA's PortCounters and PortCountersExtended)
 * that ib_core shows in /sys/class/infiniband/<dev>/ports/<n>/counters/
 * for devices with process_mad (mlx5; not rxe, bnxt_re or irdma in 6.1):
 * X(ID, file, metric name, width in bits as the PMA keeps it, bytes per
 * count (0: a count of events or packets), error).  The error counters are
 * 4 to 16 bits wide and saturate (stop at their maximum, never wrap); the
 * data counters count 4-octet words.  Documentation/counters.rst.
 */
#define FABTEL_PMA_COUNTERS(X)						\
	X(SYMBOL_ERROR,		"symbol_error",		"symbol_error",		16, 0, 1) \
	X(LINK_ERROR_RECOVERY,	"link_error_recovery",	"link_error_recovery",	8,  0, 1) \
	X(LINK_DOWNED,		"link_downed",		"link_downed",		8,  0, 1) \
	X(RCV_ERRORS,		"port_rcv_errors",	"rcv_errors",		16, 0, 1) \
	X(RCV_REMOTE_PHYS_ERRORS, "port_rcv_remote_physical_errors", "rcv_remote_physical_errors", 16, 0, 1) \
	X(RCV_SWITCH_RELAY_ERRORS, "port_rcv_switch_relay_errors", "rcv_switch_relay_errors", 16, 0, 1) \
	X(XMIT_DISCARDS,	"port_xmit_discards",	"xmit_discards",	16, 0, 1) \
	X(XMIT_CONSTRAINT_ERRORS, "port_xmit_constraint_errors", "xmit_constraint_errors", 8, 0, 1) \
	X(RCV_CONSTRAINT_ERRORS, "port_rcv_constraint_errors", "rcv_constraint_errors", 8, 0, 1) \
	X(LOCAL_LINK_INTEGRITY_ERRORS, "local_link_integrity_errors", "local_link_integrity_errors", 4, 0, 1) \
	X(EXCESSIVE_BUFFER_OVERRUN_ERRORS, "excessive_buffer_overrun_errors", "excessive_buffer_overrun_errors", 4, 0, 1) \
	X(VL15_DROPPED,		"VL15_dropped",		"vl15_dropped",		16, 0, 1) \
	X(XMIT_WAIT,		"port_xmit_wait",	"xmit_wait",		32, 0, 0) \
	X(XMIT_DATA,		"port_xmit_data",	"xmit_bytes",		64, 4, 0) \
	X(RCV_DATA,		"port_rcv_data",	"rcv_bytes",		64, 4, 0) \
	X(XMIT_PACKETS,		"port_xmit_packets",	"xmit_packets",		64, 0, 0) \
	X(RCV_PACKETS,		"port_rcv_packets",	"rcv_packets",		64, 0, 0)

#define FABTEL_PMA_ENUM(id, file, metric, width, scale, error) FABTEL_PMA_##id,
enum fabtel_pma {
	FABTEL_PMA_COUNTERS(FABTEL_PMA_ENUM)
	FABTEL_NR_PMA
};
#undef FABTEL_PMA_ENUM

/*
 * The vendors: X(vendor, the driver's name, its map).  The kernel pairs
 * each with its enum rdma_driver_id (RDMA_DRIVER_<VENDOR>).
 */
#define FABTEL_VENDORS(X)						\
	X(MLX5,		"mlx5",		FABTEL_MAP_MLX5)		\
	X(BNXT_RE,	"bnxt_re",	FABTEL_MAP_BNXT_RE)		\
	X(IRDMA,	"irdma",	FABTEL_MAP_IRDMA)		\
	X(RXE,		"rxe",		FABTEL_MAP_RXE)

#endif /* FABTEL_SCHEMA_H */
