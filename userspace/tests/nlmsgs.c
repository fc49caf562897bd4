// SPDX-License-Identifier: GPL-2.0
/*
 * nlmsgs.c - netlink replies made by hand for the tests (nlmsgs.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <unistd.h>
#include <sys/socket.h>
#include <cmocka.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "nlmsgs.h"

static int kernel_end = -1;

void nlm_reset(struct nlmsgs *d)
{
	memset(d, 0, sizeof(*d));
}

char *nlm_at(struct nlmsgs *d, size_t off)
{
	return (char *)d->buf + off;
}

void nlm_begin(struct nlmsgs *d, uint16_t type, uint16_t flags, uint32_t seq)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)nlm_at(d, d->len);

	memset(nh, 0, sizeof(*nh));
	nh->nlmsg_type = type;
	nh->nlmsg_flags = flags;
	nh->nlmsg_seq = seq;
	d->msg = d->len;
	d->len += NLMSG_HDRLEN;
}

void nlm_end(struct nlmsgs *d)
{
	((struct nlmsghdr *)nlm_at(d, d->msg))->nlmsg_len = (uint32_t)(d->len - d->msg);
	d->len = NLMSG_ALIGN(d->len);
}

void nlm_bytes(struct nlmsgs *d, const void *v, size_t n)
{
	memcpy(nlm_at(d, d->len), v, n);
	d->len += n;
}

void nlm_attr(struct nlmsgs *d, uint16_t type, const void *v, size_t n)
{
	struct nlattr *a = (struct nlattr *)nlm_at(d, d->len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n);
	memcpy(nlm_at(d, d->len + NLA_HDRLEN), v, n);
	memset(nlm_at(d, d->len + NLA_HDRLEN + n), 0, NLA_ALIGN(n) - n);
	d->len += NLA_ALIGN(a->nla_len);
}

void nlm_u32(struct nlmsgs *d, uint16_t type, uint32_t v)
{
	nlm_attr(d, type, &v, sizeof(v));
}

void nlm_u64(struct nlmsgs *d, uint16_t type, uint64_t v)
{
	nlm_attr(d, type, &v, sizeof(v));
}

void nlm_str(struct nlmsgs *d, uint16_t type, const char *s)
{
	nlm_attr(d, type, s, strlen(s) + 1);
}

void nlm_nest(struct nlmsgs *d, uint16_t type)
{
	struct nlattr *a = (struct nlattr *)nlm_at(d, d->len);

	a->nla_type = type | NLA_F_NESTED;
	d->nest[d->depth++] = d->len;
	d->len += NLA_HDRLEN;
}

void nlm_nest_end(struct nlmsgs *d)
{
	size_t off = d->nest[--d->depth];

	((struct nlattr *)nlm_at(d, off))->nla_len = (uint16_t)(d->len - off);
}

void nlm_hw_entry(struct nlmsgs *d, const char *name, uint64_t v, bool pad)
{
	nlm_nest(d, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	nlm_str(d, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	if (pad)
		nlm_attr(d, RDMA_NLDEV_ATTR_PAD, "", 0);
	nlm_u64(d, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, v);
	nlm_nest_end(d);
}

void nlm_ack(struct nlmsgs *d, uint32_t seq, int error, const char *text, bool capped)
{
	struct nlmsgerr e = { .error = error };
	uint16_t flags = capped ? NLM_F_CAPPED : 0;
	uint32_t echo[3] = { 7, 8, 9 };	/* the request's attributes, echoed */

	e.msg.nlmsg_len = NLMSG_HDRLEN + (capped ? 0 : sizeof(echo));
	e.msg.nlmsg_seq = seq;
	nlm_begin(d, NLMSG_ERROR, text ? flags | NLM_F_ACK_TLVS : flags, seq);
	nlm_bytes(d, &e, sizeof(e));
	if (!capped)
		nlm_bytes(d, echo, sizeof(echo));
	if (text)
		nlm_str(d, NLMSGERR_ATTR_MSG, text);
	nlm_end(d);
}

void nlm_done(struct nlmsgs *d, uint32_t seq, int error)
{
	nlm_begin(d, NLMSG_DONE, NLM_F_MULTI, seq);
	nlm_bytes(d, &error, sizeof(error));
	nlm_end(d);
}

void nlm_pair(int *ours)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv), 0);
	*ours = sv[0];
	kernel_end = sv[1];
}

int nlm_kernel_end(void)
{
	return kernel_end;
}

void nlm_unpair(void)
{
	close(kernel_end);
	kernel_end = -1;
}

void nlm_send(struct nlmsgs *d)
{
	size_t off = 0, n;

	while (off < d->len) {
		n = ((const struct nlmsghdr *)nlm_at(d, off))->nlmsg_len;
		assert_int_equal(send(kernel_end, nlm_at(d, off), n, 0), (ssize_t)n);
		off += NLMSG_ALIGN(n);
	}
}

void nlm_take_request(struct nlm_req *r, uint32_t seq)
{
	uint32_t buf[64];
	ssize_t n = recv(kernel_end, buf, sizeof(buf), MSG_DONTWAIT);
	size_t off = NLMSG_HDRLEN;
	const struct nlattr *a;

	assert_true(n >= NLMSG_HDRLEN);
	memcpy(&r->nh, buf, sizeof(r->nh));
	assert_int_equal(r->nh.nlmsg_len, n);
	assert_int_equal(r->nh.nlmsg_seq, seq);
	for (r->n = 0; off < (size_t)n && r->n < 12; r->n++) {
		a = (const struct nlattr *)((const char *)buf + off);
		r->type[r->n] = a->nla_type;
		r->len[r->n] = a->nla_len;
		memcpy(&r->v[r->n], (const char *)a + NLA_HDRLEN, sizeof(uint32_t));
		off += NLA_ALIGN(a->nla_len);
	}
	assert_int_equal(off, n);
}

void nlm_check_u32(const struct nlm_req *r, unsigned int i, uint16_t type, uint32_t v)
{
	assert_true(i < r->n);
	assert_int_equal(r->type[i], type);
	assert_int_equal(r->len[i], NLA_HDRLEN + 4);
	assert_int_equal(r->v[i], v);
}
