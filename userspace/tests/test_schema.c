// SPDX-License-Identifier: GPL-2.0
/*
 * test_schema - userspace's view of the counter schema (schema.h): names
 * and lookups, per-vendor and flat maps, and the flat map against the
 * table fabteld's plain-sysfs source had before the schema was shared
 * (the pairs below are that table: no mapping may have changed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "schema.h"

static void names_round_trip(void **state)
{
	int c;

	(void)state;
	for (c = 0; c < FABTEL_NR_COUNTERS; c++) {
		assert_int_equal(schema_ctr_find(schema_ctr_name(c)), c);
		assert_int_equal(schema_ctr_width(c), 64);
		assert_true(!strcmp(schema_ctr_unit(c), "packets") ||
			    !strcmp(schema_ctr_unit(c), "bytes") ||
			    !strcmp(schema_ctr_unit(c), "events"));
	}
	assert_int_equal(schema_ctr_find("no_such"), -1);
	assert_string_equal(schema_ctr_name(FABTEL_NR_COUNTERS), "unknown");
	assert_string_equal(schema_ctr_unit(FABTEL_RX_BYTES), "bytes");
	assert_true(schema_ctr_is_error(FABTEL_RETRY_EXCEEDED));
	assert_false(schema_ctr_is_error(FABTEL_RX_BYTES));
}

/* Each driver counter name means one normalized counter, whatever the vendor. */
static void flat_map_is_unambiguous(void **state)
{
	const char *hw, *hw2;
	unsigned int v, i, v2, i2, w;
	int c, c2;

	(void)state;
	for (v = 0; v < schema_vendor_count(); v++)
		for (i = 0; (c = schema_vendor_entry(v, i, &hw, &w)) >= 0; i++) {
			assert_true(w == 32 || w == 64);
			assert_int_equal(schema_hw_find(schema_vendor_name(v), hw), c);
			assert_int_equal(schema_hw_find(NULL, hw), c);
			for (v2 = 0; v2 < schema_vendor_count(); v2++)
				for (i2 = 0; (c2 = schema_vendor_entry(v2, i2, &hw2, &w)) >= 0;
				     i2++)
					if (!strcmp(hw, hw2))
						assert_int_equal(c, c2);
		}
	/* a driver's own map only: rxe has no "packet_seq_err" */
	assert_int_equal(schema_hw_find("rxe", "packet_seq_err"), -1);
	assert_int_equal(schema_hw_find("mlx5", "packet_seq_err"), FABTEL_NAK_SEQ_ERR_RCVD);
	assert_int_equal(schema_hw_find(NULL, "lifespan"), -1);
	assert_int_equal(schema_vendor_entry(schema_vendor_count(), 0, &hw, &w), -1);
}

static void mlx5_q_counters_are_32_bit(void **state)
{
	static const char *const wrap32[] = {
#define NAME(_hw) _hw,
		FABTEL_WRAP32_MLX5(NAME)
#undef NAME
	};
	const char *hw;
	unsigned int v, i, k, w;
	bool listed;

	(void)state;
	for (v = 0; v < schema_vendor_count(); v++) {
		for (i = 0; schema_vendor_entry(v, i, &hw, &w) >= 0; i++) {
			listed = false;
			for (k = 0; k < sizeof(wrap32) / sizeof(wrap32[0]); k++)
				listed |= !strcmp(hw, wrap32[k]);
			if (strcmp(schema_vendor_name(v), "mlx5"))
				assert_int_equal(w, 64);
			else
				assert_int_equal(w, listed ? 32 : 64);
		}
	}
}

static const struct {
	const char *hw;
	enum fabtel_counter c;
} before[] = {
	{ "out_of_seq_request", FABTEL_OUT_OF_SEQUENCE }, { "rcvd_seq_err", FABTEL_NAK_SEQ_ERR_RCVD },
	{ "retry_exceeded_err", FABTEL_RETRY_EXCEEDED }, { "rcvd_rnr_err", FABTEL_RNR_NAK_RCVD },
	{ "send_rnr_err", FABTEL_RNR_NAK_SENT },
	{ "retry_rnr_exceeded_err", FABTEL_RNR_RETRY_EXCEEDED },
	{ "duplicate_request", FABTEL_DUPLICATE_REQUEST }, { "link_downed", FABTEL_LINK_DOWNED },
	{ "rcvd_pkts", FABTEL_RX_PACKETS }, { "sent_pkts", FABTEL_TX_PACKETS },
	{ "out_of_sequence", FABTEL_OUT_OF_SEQUENCE }, { "packet_seq_err", FABTEL_NAK_SEQ_ERR_RCVD },
	{ "implied_nak_seq_err", FABTEL_IMPLIED_NAK_SEQ_ERR },
	{ "local_ack_timeout_err", FABTEL_LOCAL_ACK_TIMEOUT },
	{ "rnr_nak_retry_err", FABTEL_RNR_NAK_RCVD }, { "out_of_buffer", FABTEL_OUT_OF_BUFFER },
	{ "np_cnp_sent", FABTEL_CNP_SENT }, { "rp_cnp_handled", FABTEL_CNP_HANDLED },
	{ "rp_cnp_ignored", FABTEL_CNP_IGNORED },
	{ "np_ecn_marked_roce_packets", FABTEL_ECN_MARKED_RX },
	{ "rx_icrc_encapsulated", FABTEL_ICRC_ERR }, { "req_cqe_error", FABTEL_REQ_CQE_ERR },
	{ "resp_cqe_error", FABTEL_RESP_CQE_ERR },
	{ "oos_drop_count", FABTEL_OUT_OF_SEQUENCE }, { "seq_err_naks_rcvd", FABTEL_NAK_SEQ_ERR_RCVD },
	{ "to_retransmits", FABTEL_LOCAL_ACK_TIMEOUT }, { "max_retry_exceeded", FABTEL_RETRY_EXCEEDED },
	{ "rnr_naks_rcvd", FABTEL_RNR_NAK_RCVD }, { "dup_req", FABTEL_DUPLICATE_REQUEST },
	{ "rx_out_of_buffer", FABTEL_OUT_OF_BUFFER }, { "rx_pkts", FABTEL_RX_PACKETS },
	{ "tx_pkts", FABTEL_TX_PACKETS }, { "rx_bytes", FABTEL_RX_BYTES },
	{ "tx_bytes", FABTEL_TX_BYTES },
	{ "cnpSent", FABTEL_CNP_SENT }, { "cnpHandled", FABTEL_CNP_HANDLED },
	{ "cnpIgnored", FABTEL_CNP_IGNORED }, { "RxECNMrkd", FABTEL_ECN_MARKED_RX },
	{ "RxUDP", FABTEL_RX_PACKETS }, { "TxUDP", FABTEL_TX_PACKETS },
};

/* The flat map is the old plain-sysfs table: the same pairs, no more. */
static void flat_map_is_the_old_table(void **state)
{
	const char *hw;
	unsigned int v, i, k, w, entries = 0;
	bool known;

	(void)state;
	for (k = 0; k < sizeof(before) / sizeof(before[0]); k++)
		assert_int_equal(schema_hw_find(NULL, before[k].hw), before[k].c);
	for (v = 0; v < schema_vendor_count(); v++)
		for (i = 0; schema_vendor_entry(v, i, &hw, &w) >= 0; i++, entries++) {
			for (known = false, k = 0; k < sizeof(before) / sizeof(before[0]); k++)
				known |= !strcmp(hw, before[k].hw);
			assert_true(known);
		}
	/* duplicate_request is both mlx5's and rxe's */
	assert_int_equal(entries, sizeof(before) / sizeof(before[0]) + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_round_trip),
		cmocka_unit_test(flat_map_is_unambiguous),
		cmocka_unit_test(mlx5_q_counters_are_32_bit),
		cmocka_unit_test(flat_map_is_the_old_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
