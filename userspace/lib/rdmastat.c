// SPDX-License-Identifier: GPL-2.0
/*
 * rdmastat.c - RDMA statistics over netlink (rdmastat.h): the requests,
 * built with libmnl, and their exchange on one NETLINK_RDMA socket.
 *
 * Each request carries only the attributes the kernel reads for it, u32s
 * of 4 bytes, no nest: the 6.1 kernel parses STAT_GET, and both 6.1 and
 * 6.12 parse STAT_SET and STAT_DEL, strictly (an attribute it does not
 * know, or of a wrong size, is -EINVAL).  The replies are read to their
 * end: the ACK every doit request asks for, or NLMSG_DONE of a dump; an
 * error message ends the exchange too, with the kernel's extended ack
 * message in s->msg.  Any other failure (the socket's, a malformed reply,
 * a dump's callback that stopped it) closes the socket, as what is left
 * unread would answer the next request.  The replies' parsers are in
 * rdmastat_parse.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "rdmastat.h"
#include "rdmastat_priv.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define RDMASTAT_BUF	(64 * 1024)	/* a dump's message is at most 32 KiB */
#define RDMASTAT_WAIT_S	5		/* the kernel answers at once; a bound all the same */
#define RDMASTAT_REQ	128		/* the longest request: 7 u32 attributes */

void rdmastat_init(struct rdmastat *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->seq = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);
}

void rdmastat_close(struct rdmastat *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

static int rdmastat_open(struct rdmastat *s)
{
	struct timeval tv = { .tv_sec = RDMASTAT_WAIT_S };
	int one = 1;

	if (s->fd >= 0)
		return 0;
	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (s->fd < 0)
		return -errno;
	/* the kernel's reason with an error; no echo of the request in it */
	setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(s->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(s->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return 0;
}

/* a request of cmd in buf: its header, no attribute yet */
static struct nlmsghdr *req_start(void *buf, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nh = mnl_nlmsg_put_header(buf);

	nh->nlmsg_type = RDMASTAT_TYPE(cmd);
	nh->nlmsg_flags = NLM_F_REQUEST | flags;
	return nh;
}

/* a doit request's first attributes: the device, the port, the QP resource */
static struct nlmsghdr *req_port(void *buf, uint8_t cmd, uint32_t dev_index, uint32_t port,
				 bool qp_res)
{
	struct nlmsghdr *nh = req_start(buf, cmd, NLM_F_ACK);

	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (qp_res)
		mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	return nh;
}

/* what one exchange parses: rdmastat_parse's fn, or the counters' walk */
struct exchange {
	rdmastat_msg_fn fn;
	uint16_t type;
	void *ctx;
	int (*counter_cb)(const struct rdmastat_counter *c, void *ctx);
	int cb_ret;
};

static int parse_one(struct rdmastat *s, const void *buf, size_t len, struct exchange *x)
{
	if (x->counter_cb)
		return rdmastat_walk_counters(buf, len, s->seq, x->counter_cb, x->ctx, s->msg,
					      &x->cb_ret);
	return rdmastat_parse(buf, len, s->seq, x->type, x->fn, x->ctx, s->msg);
}

/* receive until the reply's end; true if it ended (ACK, DONE, or the kernel's error) */
static int receive(struct rdmastat *s, struct exchange *x, bool *ended)
{
	char *buf = malloc(RDMASTAT_BUF);
	ssize_t n;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (!ret) {
		/* MSG_TRUNC: the datagram's whole length, so a cut one is seen */
		n = recv(s->fd, buf, RDMASTAT_BUF, MSG_TRUNC);
		if (n < 0) {
			ret = errno == EAGAIN ? -ETIMEDOUT : -errno;
			break;
		}
		if (n > RDMASTAT_BUF) {
			ret = -EMSGSIZE;
			break;
		}
		ret = parse_one(s, buf, (size_t)n, x);
		*ended = ret == 1 || (ret < 0 && !x->cb_ret && ret != -EPROTO);
	}
	free(buf);
	return ret;
}

/* send the request nh, read its reply: 0, the callback's stop, or negative errno */
static int exchange(struct rdmastat *s, struct nlmsghdr *nh, struct exchange *x)
{
	bool ended = false;
	int ret;

	s->msg[0] = '\0';
	x->cb_ret = 0;
	ret = rdmastat_open(s);
	if (ret)
		return ret;
	nh->nlmsg_seq = ++s->seq;
	s->requests++;
	if (send(s->fd, nh, nh->nlmsg_len, 0) < 0)
		ret = -errno;
	else
		ret = receive(s, x, &ended);
	if (!ended)
		rdmastat_close(s);
	if (x->cb_ret)
		return x->cb_ret;
	return ret < 0 ? ret : 0;
}

int rdmastat_port_get(struct rdmastat *s, uint32_t dev_index, uint32_t port,
		      struct rdmastat_port *out)
{
	_Alignas(4) char buf[RDMASTAT_REQ];
	struct exchange x = { .fn = rdmastat_port_msg, .ctx = out,
			      .type = RDMASTAT_TYPE(RDMA_NLDEV_CMD_STAT_GET) };

	memset(out, 0, sizeof(*out));
	return exchange(s, req_port(buf, RDMA_NLDEV_CMD_STAT_GET, dev_index, port, false), &x);
}

int rdmastat_mode_get(struct rdmastat *s, uint32_t dev_index, uint32_t port,
		      uint32_t *mode, uint32_t *mask)
{
	_Alignas(4) char buf[RDMASTAT_REQ];
	struct rdmastat_mode_reply r = { mode, mask };
	struct exchange x = { .fn = rdmastat_mode_msg, .ctx = &r,
			      .type = RDMASTAT_TYPE(RDMA_NLDEV_CMD_STAT_GET) };
	struct nlmsghdr *nh = req_port(buf, RDMA_NLDEV_CMD_STAT_GET, dev_index, port, true);
	int ret;

	/* STAT_MODE present asks for the mode (its value is not read) */
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_NONE);
	*mode = UINT32_MAX;
	*mask = 0;
	ret = exchange(s, nh, &x);
	if (!ret && *mode == UINT32_MAX)
		ret = -EPROTO;		/* a reply without the mode */
	return ret;
}

int rdmastat_auto_set(struct rdmastat *s, uint32_t dev_index, uint32_t port, uint32_t mask)
{
	_Alignas(4) char buf[RDMASTAT_REQ];
	uint32_t ignored = 0;
	struct exchange x = { .fn = rdmastat_bind_msg, .ctx = &ignored,
			      .type = RDMASTAT_TYPE(RDMA_NLDEV_CMD_STAT_SET) };
	struct nlmsghdr *nh = req_port(buf, RDMA_NLDEV_CMD_STAT_SET, dev_index, port, true);

	/* AUTO also turns it off: the mask 0 */
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_AUTO);
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, mask);
	return exchange(s, nh, &x);
}

int rdmastat_counters(struct rdmastat *s, uint32_t dev_index,
		      int (*cb)(const struct rdmastat_counter *c, void *ctx), void *ctx)
{
	_Alignas(4) char buf[RDMASTAT_REQ];
	struct exchange x = { .counter_cb = cb, .ctx = ctx };
	struct nlmsghdr *nh = req_start(buf, RDMA_NLDEV_CMD_STAT_GET, NLM_F_DUMP);

	/* the kernel dumps one device's (DEV_INDEX required), every port's */
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	return exchange(s, nh, &x);
}

int rdmastat_bind(struct rdmastat *s, uint32_t dev_index, uint32_t port, uint32_t qpn,
		  uint32_t cntn, uint32_t *out_cntn)
{
	_Alignas(4) char buf[RDMASTAT_REQ];
	uint32_t id = 0;
	struct exchange x = { .fn = rdmastat_bind_msg, .ctx = &id,
			      .type = RDMASTAT_TYPE(RDMA_NLDEV_CMD_STAT_SET) };
	struct nlmsghdr *nh = req_port(buf, RDMA_NLDEV_CMD_STAT_SET, dev_index, port, true);
	int ret;

	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_MANUAL);
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
	if (cntn)	/* else the kernel makes a new counter */
		mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
	ret = exchange(s, nh, &x);
	if (!ret && out_cntn)
		*out_cntn = id ? id : cntn;
	return ret;
}

int rdmastat_unbind(struct rdmastat *s, uint32_t dev_index, uint32_t port, uint32_t cntn,
		    uint32_t qpn)
{
	_Alignas(4) char buf[RDMASTAT_REQ];
	uint32_t ignored = 0;
	/* the kernel answers a STAT_DEL with a STAT_SET message */
	struct exchange x = { .fn = rdmastat_bind_msg, .ctx = &ignored,
			      .type = RDMASTAT_TYPE(RDMA_NLDEV_CMD_STAT_SET) };
	struct nlmsghdr *nh = req_port(buf, RDMA_NLDEV_CMD_STAT_DEL, dev_index, port, true);

	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_MODE, RDMASTAT_MODE_MANUAL);
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
	mnl_attr_put_u32(nh, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
	return exchange(s, nh, &x);
}

int rdmastat_devices(struct rdmastat *s,
		     int (*cb)(uint32_t dev_index, const char *name, void *ctx), void *ctx)
{
	_Alignas(4) char buf[RDMASTAT_REQ];
	struct rdmastat_dev_walk w = { .cb = cb, .ctx = ctx };
	struct exchange x = { .fn = rdmastat_dev_msg, .ctx = &w,
			      .type = RDMASTAT_TYPE(RDMA_NLDEV_CMD_GET) };
	int ret;

	ret = exchange(s, req_start(buf, RDMA_NLDEV_CMD_GET, NLM_F_DUMP), &x);
	if (w.ret) {		/* cb stopped the dump: the rest unread */
		rdmastat_close(s);
		return w.ret;
	}
	return ret;
}
