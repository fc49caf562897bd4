// SPDX-License-Identifier: GPL-2.0
/*
 * ethnl.c - ethtool netlink through libmnl (ethnl.h).  Requests are sent
 * one at a time and answered before the next: a handle keeps its own
 * sequence number and the kernel's port id to match the replies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "ethnl.h"

struct ethnl {
	struct mnl_socket *nl;
	unsigned int portid, seq;
	uint16_t family;
	_Alignas(8) char buf[16384];	/* one request, then its replies */
};

/* Send the message in e->buf, run cb over the replies until the ack. */
static int ethnl_talk(struct ethnl *e, struct nlmsghdr *nlh, mnl_cb_t cb, void *ctx)
{
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	if (mnl_socket_sendto(e->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(e->nl, e->buf, sizeof(e->buf));
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(e->buf, (size_t)n, seq, e->portid, cb, ctx);
	} while (ret > 0);	/* MNL_CB_OK: more to read; STOP (0): the ack */
	return ret < 0 ? -errno : 0;
}

static struct nlmsghdr *ethnl_msg(struct ethnl *e, uint16_t type, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(e->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++e->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
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

int ethnl_open(struct ethnl **out)
{
	struct nlmsghdr *nlh;
	struct ethnl *e;
	int err;

	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->seq = (unsigned int)time(NULL);
	e->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!e->nl || mnl_socket_bind(e->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto err_free;
	}
	e->portid = mnl_socket_get_portid(e->nl);
	nlh = ethnl_msg(e, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	err = ethnl_talk(e, nlh, family_cb, &e->family);
	if (!err && !e->family)
		err = -ENOENT;
	if (err)
		goto err_free;
	*out = e;
	return 0;

err_free:
	if (e->nl)
		mnl_socket_close(e->nl);
	free(e);
	return err;
}

void ethnl_close(struct ethnl *e)
{
	if (!e)
		return;
	mnl_socket_close(e->nl);
	free(e);
}

/* a request header nest: the netdev by name, and flags (ETHTOOL_FLAG_*) */
static struct nlmsghdr *ethnl_get(struct ethnl *e, uint8_t cmd, uint16_t hdr_attr,
				  const char *ifname, uint32_t flags)
{
	struct nlmsghdr *nlh = ethnl_msg(e, e->family, cmd, ETHTOOL_GENL_VERSION);
	struct nlattr *nest = mnl_attr_nest_start(nlh, hdr_attr);

	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	if (flags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

/* an array of u64, total first then lanes; empty when not reported */
static int fec_stat_attr(const struct nlattr *a, void *ctx)
{
	static const uint16_t types[ETHNL_FEC_NR] = {
		ETHTOOL_A_FEC_STAT_CORRECTED, ETHTOOL_A_FEC_STAT_UNCORR,
		ETHTOOL_A_FEC_STAT_CORR_BITS,
	};
	struct ethnl_fec *f = ctx;
	unsigned int i;

	for (i = 0; i < ETHNL_FEC_NR; i++) {
		if (mnl_attr_get_type(a) != types[i] ||
		    mnl_attr_get_payload_len(a) < sizeof(uint64_t))
			continue;
		memcpy(&f->stat[i], mnl_attr_get_payload(a), sizeof(uint64_t));
		f->have[i] = true;
	}
	return MNL_CB_OK;
}

static int fec_attr(const struct nlattr *a, void *ctx)
{
	struct ethnl_fec *f = ctx;

	if (mnl_attr_get_type(a) == ETHTOOL_A_FEC_ACTIVE &&
	    mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
		f->active = mnl_attr_get_u32(a);
	else if (mnl_attr_get_type(a) == ETHTOOL_A_FEC_STATS)
		return mnl_attr_parse_nested(a, fec_stat_attr, f);
	return MNL_CB_OK;
}

static int fec_cb(const struct nlmsghdr *nlh, void *ctx)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), fec_attr, ctx);
}

int ethnl_fec_get(struct ethnl *e, const char *ifname, struct ethnl_fec *out)
{
	struct nlmsghdr *nlh;

	memset(out, 0, sizeof(*out));
	nlh = ethnl_get(e, ETHTOOL_MSG_FEC_GET, ETHTOOL_A_FEC_HEADER, ifname, ETHTOOL_FLAG_STATS);
	return ethnl_talk(e, nlh, fec_cb, out);
}

struct module_reply {
	uint8_t *buf;
	uint32_t len, got;
};

static int module_attr(const struct nlattr *a, void *ctx)
{
	struct module_reply *m = ctx;
	uint32_t n;

	if (mnl_attr_get_type(a) != ETHTOOL_A_MODULE_EEPROM_DATA)
		return MNL_CB_OK;
	n = mnl_attr_get_payload_len(a);
	if (n > m->len)
		n = m->len;
	memcpy(m->buf, mnl_attr_get_payload(a), n);
	m->got = n;
	return MNL_CB_OK;
}

static int module_cb(const struct nlmsghdr *nlh, void *ctx)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), module_attr, ctx);
}

int ethnl_module_read(struct ethnl *e, const char *ifname, uint8_t page, uint32_t offset,
		      uint8_t *buf, uint32_t len)
{
	struct module_reply m = { .buf = buf, .len = len };
	struct nlmsghdr *nlh;
	int err;

	nlh = ethnl_get(e, ETHTOOL_MSG_MODULE_EEPROM_GET, ETHTOOL_A_MODULE_EEPROM_HEADER, ifname, 0);
	mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_OFFSET, offset);
	mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_LENGTH, len);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_PAGE, page);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_BANK, 0);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, 0x50);
	err = ethnl_talk(e, nlh, module_cb, &m);
	return err ? err : (int)m.got;
}

/*
 * Link modes, as verbose bitsets (names, not bit numbers: the kernel's names
 * start with the mode's speed in Mb/s, "400000baseCR4/Full").  One bit of a
 * bitset: its name's speed, and whether its VALUE flag is set.
 */
struct lm_bit {
	uint32_t mbps;
	bool value;
};

static int lm_bit_attr(const struct nlattr *a, void *ctx)
{
	struct lm_bit *b = ctx;
	const char *name;
	char *end;
	unsigned long v;

	if (mnl_attr_get_type(a) == ETHTOOL_A_BITSET_BIT_VALUE) {
		b->value = true;
	} else if (mnl_attr_get_type(a) == ETHTOOL_A_BITSET_BIT_NAME &&
		   mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0) {
		name = mnl_attr_get_str(a);
		v = strtoul(name, &end, 10);
		if (end != name && !strncmp(end, "base", 4) && v <= UINT32_MAX)
			b->mbps = (uint32_t)v;
	}
	return MNL_CB_OK;
}

struct lm_set {
	uint32_t *listed, *valued;	/* the fastest mode listed, with VALUE */
};

static int lm_bits_attr(const struct nlattr *a, void *ctx)
{
	struct lm_set *s = ctx;
	struct lm_bit b = { 0 };

	if (mnl_attr_get_type(a) != ETHTOOL_A_BITSET_BITS_BIT ||
	    mnl_attr_parse_nested(a, lm_bit_attr, &b) < 0)
		return MNL_CB_OK;
	if (b.mbps > *s->listed)
		*s->listed = b.mbps;
	if (s->valued && b.value && b.mbps > *s->valued)
		*s->valued = b.mbps;
	return MNL_CB_OK;
}

static int lm_bitset_attr(const struct nlattr *a, void *ctx)
{
	if (mnl_attr_get_type(a) == ETHTOOL_A_BITSET_BITS)
		return mnl_attr_parse_nested(a, lm_bits_attr, ctx);
	return MNL_CB_OK;
}

static int linkmodes_attr(const struct nlattr *a, void *ctx)
{
	struct ethnl_linkmodes *l = ctx;
	/* ours: mask supported, value advertised; the peer's: value only */
	struct lm_set ours = { &l->supported_mbps, &l->advertised_mbps };
	struct lm_set peer = { &l->peer_mbps, NULL };

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_LINKMODES_OURS:
		return mnl_attr_parse_nested(a, lm_bitset_attr, &ours);
	case ETHTOOL_A_LINKMODES_PEER:
		return mnl_attr_parse_nested(a, lm_bitset_attr, &peer);
	case ETHTOOL_A_LINKMODES_AUTONEG:
		if (mnl_attr_validate(a, MNL_TYPE_U8) >= 0)
			l->autoneg = mnl_attr_get_u8(a) == AUTONEG_ENABLE;
		break;
	}
	return MNL_CB_OK;
}

static int linkmodes_cb(const struct nlmsghdr *nlh, void *ctx)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), linkmodes_attr, ctx);
}

int ethnl_linkmodes_get(struct ethnl *e, const char *ifname, struct ethnl_linkmodes *out)
{
	struct nlmsghdr *nlh;

	memset(out, 0, sizeof(*out));
	nlh = ethnl_get(e, ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_A_LINKMODES_HEADER, ifname, 0);
	return ethnl_talk(e, nlh, linkmodes_cb, out);
}
