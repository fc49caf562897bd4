// SPDX-License-Identifier: GPL-2.0
/*
 * test_rdmastat - RDMA statistics over netlink (lib/rdmastat.h) against
 * replies laid out as the kernel's nldev sends them (include/uapi/rdma/
 * rdma_netlink.h): a port's hw_counters, the counter mode, a dump of
 * counter sets with their QPNs, an empty dump, errors with the extended
 * ack's message, and buffers cut or bent anywhere.  The requests go out on
 * one end of a datagram socket pair whose other end holds the replies, so
 * what each request carries is checked to the byte.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "nlmsgs.h"
#include "rdmastat.h"

#define SEQ		100
#define T_GET		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET)
#define T_SET		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_SET)
#define T_DEL		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_DEL)

static void dev_handle(struct nlmsgs *d)
{
	nlm_u32(d, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nlm_str(d, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
}

/* the reply to rdma statistic show link mlx5_0/1 */
static void port_reply(struct nlmsgs *d)
{
	nlm_begin(d, T_GET, 0, SEQ);
	dev_handle(d);
	nlm_u32(d, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_u32(d, 101, 7);		/* a newer kernel's attribute */
	nlm_nest(d, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	nlm_hw_entry(d, "out_of_sequence", 5, false);
	nlm_hw_entry(d, "np_cnp_sent", 1ULL << 40, true);
	nlm_hw_entry(d, "rp_cnp_handled", 0, false);
	nlm_nest_end(d);
	nlm_end(d);
}

/* ---- the socket pair: rdmastat's end, and the kernel's ------------------- */

static void pair(struct rdmastat *s)
{
	rdmastat_init(s);
	nlm_pair(&s->fd);
	s->seq = SEQ - 1;
}

static void unpair(struct rdmastat *s)
{
	rdmastat_close(s);
	nlm_unpair();
}

/* ---- a port's hw_counters --------------------------------------------------- */

static void port_stats(void **state)
{
	static struct nlmsgs d;
	static struct rdmastat_port p;
	struct rdmastat s;
	struct nlm_req r;

	(void)state;
	nlm_reset(&d);
	port_reply(&d);
	nlm_ack(&d, SEQ, 0, NULL, true);
	pair(&s);
	nlm_send(&d);
	assert_int_equal(rdmastat_port_get(&s, 3, 1, &p), 0);
	assert_int_equal(s.requests, 1);
	assert_true(s.fd >= 0);		/* read to its end: kept */
	nlm_take_request(&r, SEQ);
	assert_int_equal(r.nh.nlmsg_type, T_GET);
	assert_int_equal(r.nh.nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	assert_int_equal(r.n, 2);	/* no STAT_RES: the port's totals */
	nlm_check_u32(&r, 0, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nlm_check_u32(&r, 1, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	unpair(&s);

	assert_int_equal(p.dev_index, 3);
	assert_string_equal(p.dev_name, "mlx5_0");
	assert_int_equal(p.port, 1);
	assert_int_equal(p.nr, 3);
	assert_int_equal(p.over, 0);
	assert_string_equal(p.e[0].name, "out_of_sequence");
	assert_int_equal(p.e[0].value, 5);
	assert_string_equal(p.e[1].name, "np_cnp_sent");
	assert_true(p.e[1].value == 1ULL << 40);
	assert_int_equal(p.e[2].value, 0);

	/* the parser alone: the reply then its ACK, in one buffer or two */
	memset(&p, 0, sizeof(p));
	assert_int_equal(rdmastat_parse_port(d.buf, d.len, SEQ, &p), 1);
	assert_int_equal(p.nr, 3);
	memset(&p, 0, sizeof(p));
	assert_int_equal(rdmastat_parse_port(d.buf, d.len, SEQ + 1, &p), 0);	/* not ours */
	assert_int_equal(p.nr, 0);
}

/* more entries than kept: counted, not written past the table */
static void port_stats_over(void **state)
{
	static struct nlmsgs d;
	static struct rdmastat_port p;
	char name[16];
	unsigned int i;

	(void)state;
	nlm_reset(&d);
	memset(&p, 0, sizeof(p));
	nlm_begin(&d, T_GET, 0, SEQ);
	nlm_nest(&d, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	for (i = 0; i < RDMASTAT_MAX_ENTRIES + 4; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		nlm_hw_entry(&d, name, i, false);
	}
	nlm_nest_end(&d);
	nlm_end(&d);
	assert_int_equal(rdmastat_parse_port(d.buf, d.len, SEQ, &p), 0);
	assert_int_equal(p.nr, RDMASTAT_MAX_ENTRIES);
	assert_int_equal(p.over, 4);
}

/* ---- the counter mode ------------------------------------------------------ */

static void mode_reply(struct nlmsgs *d, uint32_t mode, bool with_mask)
{
	nlm_begin(d, T_GET, 0, SEQ);
	dev_handle(d);
	nlm_u32(d, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_u32(d, RDMA_NLDEV_ATTR_STAT_MODE, mode);
	if (with_mask)
		nlm_u32(d, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, RDMASTAT_MASK_PID);
	nlm_end(d);
	nlm_ack(d, SEQ, 0, NULL, true);
}

static void mode_auto_and_none(void **state)
{
	static struct nlmsgs d;
	struct rdmastat s;
	uint32_t mode, mask;
	struct nlm_req r;

	(void)state;
	nlm_reset(&d);
	mode_reply(&d, RDMASTAT_MODE_AUTO, true);
	pair(&s);
	nlm_send(&d);
	assert_int_equal(rdmastat_mode_get(&s, 3, 1, &mode, &mask), 0);
	assert_int_equal(mode, RDMASTAT_MODE_AUTO);
	assert_int_equal(mask, RDMASTAT_MASK_PID);
	nlm_take_request(&r, SEQ);
	assert_int_equal(r.nh.nlmsg_type, T_GET);
	assert_int_equal(r.nh.nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	assert_int_equal(r.n, 4);
	nlm_check_u32(&r, 0, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nlm_check_u32(&r, 1, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_check_u32(&r, 2, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	nlm_check_u32(&r, 3, RDMA_NLDEV_ATTR_STAT_MODE, 0);

	/* none: no mask in the reply, 0 given */
	nlm_reset(&d);
	mode_reply(&d, RDMASTAT_MODE_NONE, false);
	nlm_send(&d);
	s.seq = SEQ - 1;
	assert_int_equal(rdmastat_mode_get(&s, 3, 1, &mode, &mask), 0);
	assert_int_equal(mode, RDMASTAT_MODE_NONE);
	assert_int_equal(mask, 0);
	nlm_take_request(&r, SEQ);

	/* a reply without the mode is none of the kernel's */
	nlm_reset(&d);
	nlm_begin(&d, T_GET, 0, SEQ);
	dev_handle(&d);
	nlm_end(&d);
	nlm_ack(&d, SEQ, 0, NULL, true);
	nlm_send(&d);
	s.seq = SEQ - 1;
	assert_int_equal(rdmastat_mode_get(&s, 3, 1, &mode, &mask), -EPROTO);
	unpair(&s);
}

/* ---- counter sets ------------------------------------------------------------ */

struct seen {
	struct rdmastat_counter c[4];
	int n, stop_at;
};

static int on_counter(const struct rdmastat_counter *c, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 4)
		s->c[s->n] = *c;
	s->n++;
	return s->n == s->stop_at ? -ECANCELED : 0;
}

static void qps(struct nlmsgs *d, const uint32_t *qpn, unsigned int n)
{
	unsigned int i;

	nlm_nest(d, RDMA_NLDEV_ATTR_RES_QP);
	for (i = 0; i < n; i++) {
		nlm_nest(d, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
		nlm_u32(d, RDMA_NLDEV_ATTR_RES_LQPN, qpn[i]);
		nlm_nest_end(d);
	}
	nlm_nest_end(d);
}

/* one dump message: an auto counter by PID with two QPs, a manual one with one */
static void counters_msg(struct nlmsgs *d)
{
	static const uint32_t two[] = { 17, 18 }, one[] = { 40 };
	uint8_t type = 2;

	nlm_begin(d, T_GET, NLM_F_MULTI, SEQ);
	dev_handle(d);
	nlm_nest(d, RDMA_NLDEV_ATTR_STAT_COUNTER);
	nlm_nest(d, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
	nlm_u32(d, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_u32(d, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 1);
	nlm_u32(d, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_AUTO);
	nlm_u32(d, RDMA_NLDEV_ATTR_RES_PID, 4242);
	qps(d, two, 2);
	nlm_nest(d, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	nlm_hw_entry(d, "rx_write_requests", 900, false);
	nlm_hw_entry(d, "out_of_sequence", 2, false);
	nlm_nest_end(d);
	nlm_nest_end(d);
	nlm_nest(d, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
	nlm_u32(d, RDMA_NLDEV_ATTR_PORT_INDEX, 2);
	nlm_u32(d, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 7);
	nlm_u32(d, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_AUTO);
	nlm_attr(d, RDMA_NLDEV_ATTR_RES_TYPE, &type, 1);
	qps(d, one, 1);
	nlm_nest(d, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	nlm_nest_end(d);
	nlm_nest_end(d);
	nlm_nest_end(d);
	nlm_end(d);
}

static void counter_dump(void **state)
{
	static struct nlmsgs d;
	static struct seen seen;
	struct rdmastat s;
	struct nlm_req r;

	(void)state;
	nlm_reset(&d);
	memset(&seen, 0, sizeof(seen));
	counters_msg(&d);
	nlm_done(&d, SEQ, 0);
	pair(&s);
	nlm_send(&d);
	assert_int_equal(rdmastat_counters(&s, 3, on_counter, &seen), 0);
	assert_true(s.fd >= 0);
	nlm_take_request(&r, SEQ);
	assert_int_equal(r.nh.nlmsg_type, T_GET);
	assert_int_equal(r.nh.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	assert_int_equal(r.n, 2);
	nlm_check_u32(&r, 0, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nlm_check_u32(&r, 1, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);

	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.c[0].dev_index, 3);
	assert_string_equal(seen.c[0].dev_name, "mlx5_0");
	assert_int_equal(seen.c[0].port, 1);
	assert_int_equal(seen.c[0].id, 1);
	assert_int_equal(seen.c[0].mode, RDMASTAT_MODE_AUTO);
	assert_true(seen.c[0].has_pid);
	assert_false(seen.c[0].has_type);
	assert_int_equal(seen.c[0].pid, 4242);
	assert_int_equal(seen.c[0].nr_qpns, 2);
	assert_int_equal(seen.c[0].qpns[0], 17);
	assert_int_equal(seen.c[0].qpns[1], 18);
	assert_int_equal(seen.c[0].nr, 2);
	assert_string_equal(seen.c[0].e[0].name, "rx_write_requests");
	assert_int_equal(seen.c[0].e[0].value, 900);
	/* nothing of the first one left in the second */
	assert_string_equal(seen.c[1].dev_name, "mlx5_0");
	assert_int_equal(seen.c[1].port, 2);
	assert_int_equal(seen.c[1].id, 7);
	assert_false(seen.c[1].has_pid);
	assert_true(seen.c[1].has_type);
	assert_int_equal(seen.c[1].qp_type, 2);
	assert_int_equal(seen.c[1].nr_qpns, 1);
	assert_int_equal(seen.c[1].qpns[0], 40);
	assert_int_equal(seen.c[1].nr, 0);

	/* a callback that stops the dump: its return, the socket closed */
	memset(&seen, 0, sizeof(seen));
	seen.stop_at = 1;
	nlm_send(&d);
	s.seq = SEQ - 1;
	assert_int_equal(rdmastat_counters(&s, 3, on_counter, &seen), -ECANCELED);
	assert_int_equal(seen.n, 1);
	assert_int_equal(s.fd, -1);
	unpair(&s);
}

static void empty_dump(void **state)
{
	static struct nlmsgs d;
	static struct seen seen;
	struct rdmastat s;

	(void)state;
	nlm_reset(&d);
	memset(&seen, 0, sizeof(seen));
	nlm_done(&d, SEQ, 0);
	pair(&s);
	nlm_send(&d);
	assert_int_equal(rdmastat_counters(&s, 3, on_counter, &seen), 0);
	assert_int_equal(seen.n, 0);
	unpair(&s);
	assert_int_equal(rdmastat_parse_counters(d.buf, d.len, SEQ, on_counter, &seen), 1);
	/* a dump the kernel failed: its error in NLMSG_DONE */
	nlm_reset(&d);
	nlm_done(&d, SEQ, -EINVAL);
	assert_int_equal(rdmastat_parse_counters(d.buf, d.len, SEQ, on_counter, &seen), -EINVAL);
	assert_int_equal(seen.n, 0);
}

/* ---- errors, SET and DEL ----------------------------------------------------- */

static void error_with_extack(void **state)
{
	static struct nlmsgs d;
	struct rdmastat s;
	struct nlm_req r;

	(void)state;
	nlm_reset(&d);
	nlm_ack(&d, SEQ, -EBUSY, "Some counters are bound", true);
	pair(&s);
	nlm_send(&d);
	assert_int_equal(rdmastat_auto_set(&s, 3, 1, RDMASTAT_MASK_PID), -EBUSY);
	assert_string_equal(s.msg, "Some counters are bound");
	assert_true(s.fd >= 0);		/* the error ended the exchange */
	nlm_take_request(&r, SEQ);
	assert_int_equal(r.nh.nlmsg_type, T_SET);
	assert_int_equal(r.nh.nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	assert_int_equal(r.n, 5);
	nlm_check_u32(&r, 0, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nlm_check_u32(&r, 1, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_check_u32(&r, 2, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	nlm_check_u32(&r, 3, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_AUTO);
	nlm_check_u32(&r, 4, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, RDMASTAT_MASK_PID);

	/* an error that echoes the request before its message; then no message */
	nlm_reset(&d);
	nlm_ack(&d, SEQ, -EPERM, "no", false);
	nlm_ack(&d, SEQ, -EINVAL, NULL, false);
	nlm_send(&d);
	s.seq = SEQ - 1;
	assert_int_equal(rdmastat_unbind(&s, 3, 1, 7, 40), -EPERM);
	assert_string_equal(s.msg, "no");
	nlm_take_request(&r, SEQ);
	s.seq = SEQ - 1;
	assert_int_equal(rdmastat_auto_set(&s, 3, 1, 0), -EINVAL);
	assert_string_equal(s.msg, "");
	unpair(&s);
}

static void bind_and_unbind(void **state)
{
	static struct nlmsgs d;
	struct rdmastat s;
	uint32_t cntn = 0;
	struct nlm_req r;

	(void)state;
	nlm_reset(&d);
	nlm_begin(&d, T_SET, 0, SEQ);
	dev_handle(&d);
	nlm_u32(&d, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_u32(&d, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 12);
	nlm_u32(&d, RDMA_NLDEV_ATTR_RES_LQPN, 40);
	nlm_end(&d);
	nlm_ack(&d, SEQ, 0, NULL, true);
	pair(&s);
	nlm_send(&d);
	assert_int_equal(rdmastat_bind(&s, 3, 1, 40, 0, &cntn), 0);
	assert_int_equal(cntn, 12);
	nlm_take_request(&r, SEQ);
	assert_int_equal(r.nh.nlmsg_type, T_SET);
	assert_int_equal(r.n, 5);	/* no COUNTER_ID: a new counter */
	nlm_check_u32(&r, 3, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_MANUAL);
	nlm_check_u32(&r, 4, RDMA_NLDEV_ATTR_RES_LQPN, 40);

	s.seq = SEQ - 1;
	nlm_send(&d);
	assert_int_equal(rdmastat_bind(&s, 3, 1, 41, 12, &cntn), 0);
	nlm_take_request(&r, SEQ);
	assert_int_equal(r.n, 6);
	nlm_check_u32(&r, 5, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 12);

	s.seq = SEQ - 1;
	nlm_send(&d);	/* a STAT_DEL is answered with a STAT_SET */
	assert_int_equal(rdmastat_unbind(&s, 3, 1, 12, 40), 0);
	nlm_take_request(&r, SEQ);
	assert_int_equal(r.nh.nlmsg_type, T_DEL);
	assert_int_equal(r.nh.nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	assert_int_equal(r.n, 6);
	nlm_check_u32(&r, 0, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nlm_check_u32(&r, 1, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_check_u32(&r, 2, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	nlm_check_u32(&r, 3, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_MANUAL);
	nlm_check_u32(&r, 4, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 12);
	nlm_check_u32(&r, 5, RDMA_NLDEV_ATTR_RES_LQPN, 40);
	assert_int_equal(s.requests, 3);
	unpair(&s);
}

static int on_dev(uint32_t index, const char *name, void *ctx)
{
	int *n = ctx;

	assert_int_equal(index, 3);
	assert_string_equal(name, "mlx5_0");
	(*n)++;
	return 0;
}

static void devices(void **state)
{
	static struct nlmsgs d;
	struct rdmastat s;
	struct nlm_req r;
	int n = 0;

	(void)state;
	nlm_reset(&d);
	nlm_begin(&d, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET), NLM_F_MULTI, SEQ);
	dev_handle(&d);
	nlm_u32(&d, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_end(&d);
	nlm_done(&d, SEQ, 0);
	pair(&s);
	nlm_send(&d);
	assert_int_equal(rdmastat_devices(&s, on_dev, &n), 0);
	assert_int_equal(n, 1);
	nlm_take_request(&r, SEQ);
	assert_int_equal(r.nh.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	assert_int_equal(r.n, 0);
	unpair(&s);
}

/* ---- cut and bent --------------------------------------------------------------- */

/* cut anywhere, a reply never reads past its end (ASan) nor invents an entry */
static void truncated(void **state)
{
	static struct nlmsgs d;
	static struct rdmastat_port p;
	static struct seen seen;
	size_t cut;

	(void)state;
	nlm_reset(&d);
	port_reply(&d);
	for (cut = 0; cut < d.len; cut++) {
		memset(&p, 0, sizeof(p));
		assert_true(rdmastat_parse_port(d.buf, cut, SEQ, &p) <= 0);
		assert_true(p.nr <= 3);
	}
	nlm_reset(&d);
	counters_msg(&d);
	for (cut = 0; cut < d.len; cut++) {
		memset(&seen, 0, sizeof(seen));
		assert_true(rdmastat_parse_counters(d.buf, cut, SEQ, on_counter, &seen) <= 0);
		assert_true(seen.n <= 2);
	}
}

static void malformed(void **state)
{
	static struct nlmsgs d;
	static struct rdmastat_port p;
	struct nlattr *a;
	uint16_t one = 1;
	uint32_t mode = 9, mask = 9;

	(void)state;
	/* a message longer than the buffer */
	nlm_reset(&d);
	port_reply(&d);
	((struct nlmsghdr *)d.buf)->nlmsg_len = 1u << 30;
	assert_int_equal(rdmastat_parse_port(d.buf, d.len, SEQ, &p), -EPROTO);
	/* an attribute longer than its message: it and what follows skipped */
	nlm_reset(&d);
	memset(&p, 0, sizeof(p));
	port_reply(&d);
	a = (struct nlattr *)nlm_at(&d, NLMSG_HDRLEN);
	a->nla_len = 0xfff0;
	assert_int_equal(rdmastat_parse_port(d.buf, d.len, SEQ, &p), 0);
	assert_int_equal(p.nr, 0);
	/* short numbers are absent, not read past */
	nlm_reset(&d);
	nlm_begin(&d, T_GET, 0, SEQ);
	nlm_attr(&d, RDMA_NLDEV_ATTR_STAT_MODE, &one, sizeof(one));
	nlm_attr(&d, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, "", 0);
	nlm_end(&d);
	assert_int_equal(rdmastat_parse_mode(d.buf, d.len, SEQ, &mode, &mask), 0);
	assert_int_equal(mode, 9);
	assert_int_equal(mask, 9);
	/* an entry without its value, or its name, is none */
	nlm_reset(&d);
	memset(&p, 0, sizeof(p));
	nlm_begin(&d, T_GET, 0, SEQ);
	nlm_nest(&d, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	nlm_nest(&d, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	nlm_str(&d, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "x");
	nlm_attr(&d, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, &one, sizeof(one));
	nlm_nest_end(&d);
	nlm_nest(&d, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	nlm_attr(&d, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "unterminated", 12);
	nlm_nest_end(&d);
	nlm_nest_end(&d);
	nlm_end(&d);
	assert_int_equal(rdmastat_parse_port(d.buf, d.len, SEQ, &p), 0);
	assert_int_equal(p.nr, 0);
	/* an error too short to hold its error; one out of range */
	nlm_reset(&d);
	nlm_begin(&d, NLMSG_ERROR, 0, SEQ);
	nlm_end(&d);
	assert_int_equal(rdmastat_parse_port(d.buf, d.len, SEQ, &p), -EPROTO);
	nlm_reset(&d);
	nlm_ack(&d, SEQ, 5, NULL, true);
	assert_int_equal(rdmastat_parse_port(d.buf, d.len, SEQ, &p), -EPROTO);
	/* trailing bytes short of a header */
	nlm_reset(&d);
	nlm_ack(&d, SEQ, 0, NULL, true);
	assert_int_equal(rdmastat_parse_port(d.buf, d.len + 8, SEQ + 1, &p), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(port_stats),
		cmocka_unit_test(port_stats_over),
		cmocka_unit_test(mode_auto_and_none),
		cmocka_unit_test(counter_dump),
		cmocka_unit_test(empty_dump),
		cmocka_unit_test(error_with_extack),
		cmocka_unit_test(bind_and_unbind),
		cmocka_unit_test(devices),
		cmocka_unit_test(truncated),
		cmocka_unit_test(malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
