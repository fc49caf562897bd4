// SPDX-License-Identifier: GPL-2.0
/*
 * rdmanl.c - read QPs over RDMA netlink (NETLINK_RDMA, client NLDEV).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "rdmanl.h"

#define RDMANL_MAX_DEVS	256
#define RDMANL_BUF	(64 * 1024)

struct rdmanl_req {
	struct nlmsghdr nh;
	char attrs[16];
};

/* Send a dump request for cmd, with a device index attribute if dev >= 0. */
static int rdmanl_send(int fd, int cmd, long dev, uint32_t seq)
{
	struct rdmanl_req req;
	struct nlattr *a = (struct nlattr *)req.attrs;

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(0);
	req.nh.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = seq;
	if (dev >= 0) {
		uint32_t idx = dev;

		a->nla_type = RDMA_NLDEV_ATTR_DEV_INDEX;
		a->nla_len = NLA_HDRLEN + sizeof(idx);
		memcpy((char *)a + NLA_HDRLEN, &idx, sizeof(idx));
		req.nh.nlmsg_len += NLA_ALIGN(a->nla_len);
	}
	return send(fd, &req, req.nh.nlmsg_len, 0) < 0 ? -errno : 0;
}

typedef int (*rdmanl_attr_fn)(const struct nlattr *a, void *ctx);

/* Call fn for each attribute in [p, p + len). */
static int rdmanl_attrs(const void *p, int len, rdmanl_attr_fn fn, void *ctx)
{
	const struct nlattr *a = p;
	int ret;

	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len) {
		ret = fn(a, ctx);
		if (ret)
			return ret;
		len -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
	return 0;
}

static uint32_t nla_u32(const struct nlattr *a)
{
	uint32_t v = 0;

	if (a->nla_len >= NLA_HDRLEN + sizeof(v))
		memcpy(&v, (const char *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

static const void *nla_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static int nla_dlen(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

/*
 * One received buffer of a dump: fn for the attributes of every message
 * with sequence seq.  1 at the dump's end, 0 if more is to come, negative
 * errno for an error message or fn's own.
 */
static int rdmanl_parse(const void *buf, size_t len, uint32_t seq, rdmanl_attr_fn fn, void *ctx)
{
	const char *p = buf;
	const struct nlmsghdr *nh;
	size_t step;
	int ret;

	/*
	 * Not NLMSG_NEXT: it subtracts the aligned length of a last message
	 * that is not padded to 4 bytes from what is left, which wraps.
	 */
	while (len >= NLMSG_HDRLEN) {
		nh = (const struct nlmsghdr *)p;
		if (nh->nlmsg_len < NLMSG_HDRLEN || nh->nlmsg_len > len)
			return -EPROTO;
		if (nh->nlmsg_seq == seq) {
			if (nh->nlmsg_type == NLMSG_DONE)
				return 1;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nh);

				if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					return -EPROTO;
				/* an ACK ends the dump; an error is negative */
				return e->error < 0 ? e->error : e->error ? -EPROTO : 1;
			}
			ret = rdmanl_attrs(NLMSG_DATA(nh), (int)(nh->nlmsg_len - NLMSG_HDRLEN), fn,
					   ctx);
			if (ret)
				return ret;
		}
		step = NLMSG_ALIGN(nh->nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

/* Receive a whole dump, calling fn for the attributes of every message. */
static int rdmanl_recv(int fd, uint32_t seq, rdmanl_attr_fn fn, void *ctx)
{
	char *buf = malloc(RDMANL_BUF);
	int len, ret = 0;

	if (!buf)
		return -ENOMEM;
	while (!ret) {
		len = recv(fd, buf, RDMANL_BUF, 0);
		if (len < 0) {
			ret = -errno;
			break;
		}
		ret = rdmanl_parse(buf, (size_t)len, seq, fn, ctx);
	}
	free(buf);
	return ret < 0 ? ret : 0;
}

struct rdmanl_devs {
	uint32_t idx[RDMANL_MAX_DEVS];
	char name[RDMANL_MAX_DEVS][RDMANL_NAME_LEN];
	int n;
};

static int rdmanl_dev_attr(const struct nlattr *a, void *ctx)
{
	struct rdmanl_devs *d = ctx;

	/* DEV_INDEX comes first in each device's message, then DEV_NAME */
	if ((a->nla_type & NLA_TYPE_MASK) == RDMA_NLDEV_ATTR_DEV_INDEX &&
	    d->n < RDMANL_MAX_DEVS) {
		d->name[d->n][0] = '\0';
		d->idx[d->n++] = nla_u32(a);
	} else if ((a->nla_type & NLA_TYPE_MASK) == RDMA_NLDEV_ATTR_DEV_NAME && d->n > 0 &&
		   nla_dlen(a) > 0) {
		snprintf(d->name[d->n - 1], RDMANL_NAME_LEN, "%.*s", nla_dlen(a),
			 (const char *)nla_data(a));
	}
	return 0;
}

struct rdmanl_walk {
	struct rdmanl_qp qp;
	int (*cb)(const struct rdmanl_qp *, void *);
	void *ctx;
};

static int rdmanl_qp_field(const struct nlattr *a, void *ctx)
{
	struct rdmanl_qp *qp = ctx;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case RDMA_NLDEV_ATTR_RES_LQPN:
		qp->qpn = nla_u32(a);
		break;
	case RDMA_NLDEV_ATTR_PORT_INDEX:
		qp->port = nla_u32(a);
		break;
	case RDMA_NLDEV_ATTR_RES_TYPE:
		if (nla_dlen(a) >= 1)
			qp->type = *(const uint8_t *)nla_data(a);
		break;
	case RDMA_NLDEV_ATTR_RES_RQPN:
		qp->rqpn = nla_u32(a);
		break;
	case RDMA_NLDEV_ATTR_RES_PID:
		qp->pid = nla_u32(a);
		break;
	case RDMA_NLDEV_ATTR_RES_STATE:
		if (nla_dlen(a) >= 1) {
			qp->state = *(const uint8_t *)nla_data(a);
			qp->has_state = true;
		}
		break;
	}
	return 0;
}

static int rdmanl_qp_entry(const struct nlattr *a, void *ctx)
{
	struct rdmanl_walk *w = ctx;
	uint32_t dev = w->qp.dev_index;
	char name[RDMANL_NAME_LEN];

	if ((a->nla_type & NLA_TYPE_MASK) != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
		return 0;
	memcpy(name, w->qp.dev_name, sizeof(name));
	memset(&w->qp, 0, sizeof(w->qp));
	w->qp.dev_index = dev;
	memcpy(w->qp.dev_name, name, sizeof(name));
	rdmanl_attrs(nla_data(a), nla_dlen(a), rdmanl_qp_field, &w->qp);
	return w->cb(&w->qp, w->ctx);
}

static int rdmanl_qp_top(const struct nlattr *a, void *ctx)
{
	if ((a->nla_type & NLA_TYPE_MASK) != RDMA_NLDEV_ATTR_RES_QP)
		return 0;
	return rdmanl_attrs(nla_data(a), nla_dlen(a), rdmanl_qp_entry, ctx);
}

int rdmanl_parse_qps(const void *buf, size_t len, uint32_t seq, uint32_t dev_index,
		     const char *dev_name, int (*cb)(const struct rdmanl_qp *qp, void *ctx),
		     void *ctx)
{
	struct rdmanl_walk w = { .cb = cb, .ctx = ctx };

	w.qp.dev_index = dev_index;
	snprintf(w.qp.dev_name, sizeof(w.qp.dev_name), "%s", dev_name);
	return rdmanl_parse(buf, len, seq, rdmanl_qp_top, &w);
}

int rdmanl_for_each_qp(int *fd, int (*cb)(const struct rdmanl_qp *qp, void *ctx), void *ctx)
{
	static uint32_t seq;
	struct rdmanl_devs devs = { .n = 0 };
	struct rdmanl_walk w = { .cb = cb, .ctx = ctx };
	int i, ret;

	if (!seq)
		seq = (uint32_t)getpid() << 8;
	if (*fd < 0) {
		*fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
		if (*fd < 0)
			return -errno;
	}
	ret = rdmanl_send(*fd, RDMA_NLDEV_CMD_GET, -1, ++seq);
	if (!ret)
		ret = rdmanl_recv(*fd, seq, rdmanl_dev_attr, &devs);
	for (i = 0; !ret && i < devs.n; i++) {
		w.qp.dev_index = devs.idx[i];
		memcpy(w.qp.dev_name, devs.name[i], sizeof(w.qp.dev_name));
		ret = rdmanl_send(*fd, RDMA_NLDEV_CMD_RES_QP_GET, devs.idx[i], ++seq);
		if (!ret)
			ret = rdmanl_recv(*fd, seq, rdmanl_qp_top, &w);
	}
	if (ret) {	/* what is left of a dump would confuse the next one */
		close(*fd);
		*fd = -1;
	}
	return ret;
}
