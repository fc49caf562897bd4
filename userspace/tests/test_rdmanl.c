// SPDX-License-Identifier: GPL-2.0
/*
 * test_rdmanl - the RDMA netlink QP dump parser (lib/rdmanl.h) over dump
 * buffers laid out as the kernel's nldev sends them (RES_QP nesting
 * RES_QP_ENTRY nesting the QP's attributes; include/uapi/rdma/
 * rdma_netlink.h): fields, other sequences, errors, short attributes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "rdmanl.h"

struct dump {
	uint32_t buf[1024];	/* aligned as recv's buffer */
	size_t len;
	size_t msg, nest[4];	/* offsets of the open message and nests */
	int depth;
};

static char *at(struct dump *d, size_t off)
{
	return (char *)d->buf + off;
}

static void msg_begin(struct dump *d, uint32_t seq, uint16_t type)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)at(d, d->len);

	memset(nh, 0, sizeof(*nh));
	nh->nlmsg_type = type;
	nh->nlmsg_seq = seq;
	d->msg = d->len;
	d->len += NLMSG_HDRLEN;
}

static void msg_end(struct dump *d)
{
	((struct nlmsghdr *)at(d, d->msg))->nlmsg_len = (uint32_t)(d->len - d->msg);
	d->len = NLMSG_ALIGN(d->len);
}

static void attr(struct dump *d, uint16_t type, const void *v, size_t n)
{
	struct nlattr *a = (struct nlattr *)at(d, d->len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n);
	memcpy(at(d, d->len + NLA_HDRLEN), v, n);
	d->len += NLA_ALIGN(a->nla_len);
}

static void u32_attr(struct dump *d, uint16_t type, uint32_t v)
{
	attr(d, type, &v, sizeof(v));
}

static void u8_attr(struct dump *d, uint16_t type, uint8_t v)
{
	attr(d, type, &v, sizeof(v));
}

static void nest_begin(struct dump *d, uint16_t type)
{
	struct nlattr *a = (struct nlattr *)at(d, d->len);

	a->nla_type = type | NLA_F_NESTED;
	d->nest[d->depth++] = d->len;
	d->len += NLA_HDRLEN;
}

static void nest_end(struct dump *d)
{
	size_t off = d->nest[--d->depth];

	((struct nlattr *)at(d, off))->nla_len = (uint16_t)(d->len - off);
}

static void qp_entry(struct dump *d, uint32_t qpn, uint32_t port, uint32_t rqpn, uint32_t pid,
		     uint8_t state)
{
	nest_begin(d, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	u32_attr(d, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	u32_attr(d, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
	if (rqpn)
		u32_attr(d, RDMA_NLDEV_ATTR_RES_RQPN, rqpn);
	u8_attr(d, RDMA_NLDEV_ATTR_RES_TYPE, 2);	/* RC */
	u8_attr(d, RDMA_NLDEV_ATTR_RES_STATE, state);
	if (pid)
		u32_attr(d, RDMA_NLDEV_ATTR_RES_PID, pid);
	nest_end(d);
}

/* one message: the device's index and name, then RES_QP with the entries */
static void qp_msg(struct dump *d, uint32_t seq, int nqps)
{
	int i;

	msg_begin(d, seq, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_QP_GET));
	u32_attr(d, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	attr(d, RDMA_NLDEV_ATTR_DEV_NAME, "rxa", 4);
	nest_begin(d, RDMA_NLDEV_ATTR_RES_QP);
	for (i = 0; i < nqps; i++)
		qp_entry(d, 17 + (uint32_t)i, 1, i ? 0 : 18, i ? 0 : 4242, 3 /* RTS */);
	nest_end(d);
	msg_end(d);
}

static void done_msg(struct dump *d, uint32_t seq)
{
	msg_begin(d, seq, NLMSG_DONE);
	u32_attr(d, 0, 0);
	msg_end(d);
}

struct seen {
	struct rdmanl_qp qp[8];
	int n;
};

static int on_qp(const struct rdmanl_qp *qp, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 8)
		s->qp[s->n] = *qp;
	s->n++;
	return 0;
}

static void two_qps_then_done(void **state)
{
	static struct dump d;
	struct seen s = { .n = 0 };

	(void)state;
	memset(&d, 0, sizeof(d));
	qp_msg(&d, 5, 2);
	done_msg(&d, 5);
	assert_int_equal(rdmanl_parse_qps(d.buf, d.len, 5, 3, "rxa", on_qp, &s), 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.qp[0].qpn, 17);
	assert_int_equal(s.qp[0].port, 1);
	assert_int_equal(s.qp[0].rqpn, 18);
	assert_int_equal(s.qp[0].pid, 4242);
	assert_int_equal(s.qp[0].type, 2);
	assert_true(s.qp[0].has_state);
	assert_int_equal(s.qp[0].state, 3);
	assert_int_equal(s.qp[0].dev_index, 3);
	assert_string_equal(s.qp[0].dev_name, "rxa");
	/* a kernel QP: no PID, no peer; nothing of the first one left over */
	assert_int_equal(s.qp[1].qpn, 18);
	assert_int_equal(s.qp[1].pid, 0);
	assert_int_equal(s.qp[1].rqpn, 0);
}

static void more_to_come_and_other_sequences(void **state)
{
	static struct dump d;
	struct seen s = { .n = 0 };

	(void)state;
	memset(&d, 0, sizeof(d));
	qp_msg(&d, 9, 3);	/* another request's answer */
	qp_msg(&d, 5, 1);
	assert_int_equal(rdmanl_parse_qps(d.buf, d.len, 5, 3, "rxa", on_qp, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.qp[0].qpn, 17);
}

static void error_message(void **state)
{
	static struct dump d;
	struct seen s = { .n = 0 };
	struct nlmsgerr e = { .error = -95 };	/* EOPNOTSUPP */

	(void)state;
	memset(&d, 0, sizeof(d));
	msg_begin(&d, 5, NLMSG_ERROR);
	memcpy(at(&d, d.len), &e, sizeof(e));
	d.len += sizeof(e);
	msg_end(&d);
	assert_int_equal(rdmanl_parse_qps(d.buf, d.len, 5, 3, "rxa", on_qp, &s), -95);
	assert_int_equal(s.n, 0);
	/* an error message too short to hold its error */
	d.len = 0;
	msg_begin(&d, 5, NLMSG_ERROR);
	msg_end(&d);
	assert_true(rdmanl_parse_qps(d.buf, d.len, 5, 3, "rxa", on_qp, &s) < 0);
}

/* cut anywhere, a dump never reads past its end (ASan) nor invents a QP */
static void cut_short_everywhere(void **state)
{
	static struct dump d;
	struct seen s;
	size_t cut;

	(void)state;
	memset(&d, 0, sizeof(d));
	qp_msg(&d, 5, 2);
	for (cut = 0; cut < d.len; cut++) {
		s.n = 0;
		assert_true(rdmanl_parse_qps(d.buf, cut, 5, 3, "rxa", on_qp, &s) <= 1);
		assert_true(s.n <= 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_qps_then_done),
		cmocka_unit_test(more_to_come_and_other_sequences),
		cmocka_unit_test(error_message),
		cmocka_unit_test(cut_short_everywhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
