// SPDX-License-Identifier: GPL-2.0
/*
 * dcbnl.c - DCB IEEE state over rtnetlink through libmnl (dcbnl.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>

#include "dcbnl.h"

struct dcbnl {
	struct mnl_socket *nl;
	unsigned int portid, seq;
	_Alignas(8) char buf[16384];
};

int dcbnl_open(struct dcbnl **out)
{
	struct dcbnl *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->seq = (unsigned int)time(NULL);
	d->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!d->nl || mnl_socket_bind(d->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		if (d->nl)
			mnl_socket_close(d->nl);
		free(d);
		return err;
	}
	d->portid = mnl_socket_get_portid(d->nl);
	*out = d;
	return 0;
}

void dcbnl_close(struct dcbnl *d)
{
	if (!d)
		return;
	mnl_socket_close(d->nl);
	free(d);
}

static int app_attr(const struct nlattr *a, void *ctx)
{
	struct dcbnl_cfg *c = ctx;
	struct dcb_app app;

	if (mnl_attr_get_type(a) != DCB_ATTR_IEEE_APP ||
	    mnl_attr_get_payload_len(a) < sizeof(app))
		return MNL_CB_OK;
	if (c->nr_app == DCBNL_MAX_APP) {
		c->app_truncated = true;
		return MNL_CB_OK;
	}
	memcpy(&app, mnl_attr_get_payload(a), sizeof(app));
	c->app[c->nr_app++] = (struct dcbnl_app){ app.selector, app.priority, app.protocol };
	return MNL_CB_OK;
}

static int ieee_attr(const struct nlattr *a, void *ctx)
{
	struct dcbnl_cfg *c = ctx;
	struct ieee_pfc pfc;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE_PFC:
		if (mnl_attr_get_payload_len(a) < sizeof(pfc))
			break;
		memcpy(&pfc, mnl_attr_get_payload(a), sizeof(pfc));
		c->have_pfc = true;
		c->pfc_cap = pfc.pfc_cap;
		c->pfc_en = pfc.pfc_en;
		break;
	case DCB_ATTR_IEEE_APP_TABLE:
		return mnl_attr_parse_nested(a, app_attr, c);
	}
	return MNL_CB_OK;
}

static int top_attr(const struct nlattr *a, void *ctx)
{
	if (mnl_attr_get_type(a) == DCB_ATTR_IEEE)
		return mnl_attr_parse_nested(a, ieee_attr, ctx);
	return MNL_CB_OK;
}

static int reply_cb(const struct nlmsghdr *nlh, void *ctx)
{
	return mnl_attr_parse(nlh, sizeof(struct dcbmsg), top_attr, ctx);
}

int dcbnl_get(struct dcbnl *d, const char *ifname, struct dcbnl_cfg *out)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(d->buf);
	struct dcbmsg *dm;
	unsigned int seq;
	ssize_t n;
	int ret;

	memset(out, 0, sizeof(*out));
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq = ++d->seq;
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->dcb_family = AF_UNSPEC;
	dm->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	if (mnl_socket_sendto(d->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	/* one reply (RTM_GETDCB) or an error message; no ack asked */
	n = mnl_socket_recvfrom(d->nl, d->buf, sizeof(d->buf));
	if (n < 0)
		return -errno;
	ret = mnl_cb_run(d->buf, (size_t)n, seq, d->portid, reply_cb, out);
	return ret < 0 ? -errno : 0;
}
