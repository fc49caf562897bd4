// SPDX-License-Identifier: GPL-2.0
/*
 * tcfilters.c - counting the filters of a clsact hook (tcfilters.h).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "tcfilters.h"

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	unsigned int *n = data;

	if (nlh->nlmsg_type == RTM_NEWTFILTER)
		(*n)++;
	return MNL_CB_OK;
}

/* Send the dump request and count its answers; 0 or -errno. */
static int dump_count(struct mnl_socket *nl, int ifindex, uint32_t parent, unsigned int *n)
{
	_Alignas(8) char buf[8192];
	unsigned int seq = (unsigned int)time(NULL), portid = mnl_socket_get_portid(nl);
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *t;
	ssize_t len;
	int ret;

	nlh->nlmsg_type = RTM_GETTFILTER;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = ifindex;
	t->tcm_parent = parent;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		len = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (len < 0)
			return -errno;
		ret = mnl_cb_run(buf, (size_t)len, seq, portid, count_cb, n);
		if (ret < 0)
			return errno ? -errno : -EIO;
		if (ret == MNL_CB_STOP)
			return 0;
	}
}

int tc_filters_count(int ifindex, bool egress)
{
	uint32_t parent = TC_H_MAKE(TC_H_CLSACT, egress ? TC_H_MIN_EGRESS : TC_H_MIN_INGRESS);
	struct mnl_socket *nl;
	unsigned int n = 0;
	int err;

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		mnl_socket_close(nl);
		return err;
	}
	err = dump_count(nl, ifindex, parent, &n);
	mnl_socket_close(nl);
	return err ? err : (int)n;
}
