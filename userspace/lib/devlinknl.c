// SPDX-License-Identifier: GPL-2.0
/*
 * devlinknl.c - devlink netlink through libmnl (devlinknl.h).  The
 * reporters come from one DEVLINK_CMD_HEALTH_REPORTER_GET dump, which the
 * kernel answers for every devlink instance and every port (6.1 and 6.12
 * alike) without CAP_NET_ADMIN.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "devlinknl.h"

/* enum devlink_health_reporter_state (include/net/devlink.h): not in the uapi */
#define REPORTER_STATE_ERROR	1

struct devlinknl {
	struct mnl_socket *nl;
	unsigned int portid, seq;
	uint16_t family;
	uint64_t requests;
	_Alignas(8) char buf[32768];	/* one request, then its replies */
};

static int talk(struct devlinknl *d, struct nlmsghdr *nlh, mnl_cb_t cb, void *ctx)
{
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	d->requests++;
	if (mnl_socket_sendto(d->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(d->nl, d->buf, sizeof(d->buf));
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(d->buf, (size_t)n, seq, d->portid, cb, ctx);
	} while (ret > 0);
	return ret < 0 ? -errno : 0;
}

static struct nlmsghdr *msg(struct devlinknl *d, uint16_t type, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(d->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++d->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = DEVLINK_GENL_VERSION;
	return nlh;
}

static int family_attr(const struct nlattr *a, void *ctx)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U16) >= 0)
		*(uint16_t *)ctx = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *ctx)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr, ctx);
}

int devlinknl_open(struct devlinknl **out)
{
	struct nlmsghdr *nlh;
	struct devlinknl *d;
	int err;

	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->seq = (unsigned int)time(NULL);
	d->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!d->nl || mnl_socket_bind(d->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto err_free;
	}
	d->portid = mnl_socket_get_portid(d->nl);
	nlh = msg(d, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, DEVLINK_GENL_NAME);
	err = talk(d, nlh, family_cb, &d->family);
	if (!err && !d->family)
		err = -ENOENT;
	if (err)
		goto err_free;
	*out = d;
	return 0;

err_free:
	if (d->nl)
		mnl_socket_close(d->nl);
	free(d);
	return err;
}

void devlinknl_close(struct devlinknl *d)
{
	if (!d)
		return;
	mnl_socket_close(d->nl);
	free(d);
}

uint64_t devlinknl_requests(const struct devlinknl *d)
{
	return d ? d->requests : 0;
}

/* a string attribute into dst (cut to its size); -EINVAL if not a string */
static int put_str(const struct nlattr *a, char *dst, size_t len)
{
	const char *s;
	size_t n;

	if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return -EINVAL;
	s = mnl_attr_get_str(a);
	n = strnlen(s, len - 1);
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

static int reporter_attr(const struct nlattr *a, void *ctx)
{
	struct devlinknl_reporter *r = ctx;

	switch (mnl_attr_get_type(a)) {
	case DEVLINK_ATTR_HEALTH_REPORTER_NAME:
		return put_str(a, r->name, sizeof(r->name)) ? MNL_CB_ERROR : MNL_CB_OK;
	case DEVLINK_ATTR_HEALTH_REPORTER_STATE:
		if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
			return MNL_CB_ERROR;
		r->error = mnl_attr_get_u8(a) == REPORTER_STATE_ERROR;
		break;
	case DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT:
	case DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT:
	case DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD:
		if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
			return MNL_CB_ERROR;
		if (mnl_attr_get_type(a) == DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT)
			r->errors = mnl_attr_get_u64(a);
		else if (mnl_attr_get_type(a) == DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT)
			r->recovers = mnl_attr_get_u64(a);
		else
			r->graceful_ms = mnl_attr_get_u64(a);
		break;
	case DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER:
		if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
			return MNL_CB_ERROR;
		r->has_auto_recover = true;
		r->auto_recover = mnl_attr_get_u8(a);
		break;
	}
	return MNL_CB_OK;
}

static int top_attr(const struct nlattr *a, void *ctx)
{
	struct devlinknl_reporter *r = ctx;

	switch (mnl_attr_get_type(a)) {
	case DEVLINK_ATTR_BUS_NAME:
		return put_str(a, r->bus, sizeof(r->bus)) ? MNL_CB_ERROR : MNL_CB_OK;
	case DEVLINK_ATTR_DEV_NAME:
		return put_str(a, r->dev, sizeof(r->dev)) ? MNL_CB_ERROR : MNL_CB_OK;
	case DEVLINK_ATTR_PORT_INDEX:
		if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		r->has_port = true;
		r->port = mnl_attr_get_u32(a);
		break;
	case DEVLINK_ATTR_HEALTH_REPORTER:
		if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
			return MNL_CB_ERROR;
		return mnl_attr_parse_nested(a, reporter_attr, r);
	}
	return MNL_CB_OK;
}

int devlinknl_parse_reporter(const void *buf, size_t len, struct devlinknl_reporter *out)
{
	const struct nlmsghdr *nlh = buf;

	memset(out, 0, sizeof(*out));
	if (len < sizeof(*nlh) || !mnl_nlmsg_ok(nlh, (int)len) ||
	    nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(struct genlmsghdr))
		return -EINVAL;
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), top_attr, out) != MNL_CB_OK)
		return -EINVAL;
	return out->name[0] && out->bus[0] && out->dev[0] ? 0 : -EINVAL;
}

struct walk {
	int (*cb)(const struct devlinknl_reporter *r, void *ctx);
	void *ctx;
	int ret;
};

static int reporter_cb(const struct nlmsghdr *nlh, void *ctx)
{
	struct walk *w = ctx;
	struct devlinknl_reporter r;

	/* the dump is read to its end either way: the socket stays in step */
	if (w->ret || devlinknl_parse_reporter(nlh, nlh->nlmsg_len, &r))
		return MNL_CB_OK;	/* not one we can read: the others still count */
	w->ret = w->cb(&r, w->ctx);
	return MNL_CB_OK;
}

int devlinknl_reporters(struct devlinknl *d,
			int (*cb)(const struct devlinknl_reporter *r, void *ctx), void *ctx)
{
	struct walk w = { cb, ctx, 0 };
	struct nlmsghdr *nlh = msg(d, d->family, DEVLINK_CMD_HEALTH_REPORTER_GET, NLM_F_DUMP);
	int err = talk(d, nlh, reporter_cb, &w);

	return w.ret ? w.ret : err;
}
