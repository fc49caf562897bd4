// SPDX-License-Identifier: GPL-2.0
/*
 * rdmastat_parse.c - the replies to RDMA netlink statistics requests
 * (rdmastat.h): one received buffer at a time, every length checked
 * against what holds it, unknown attributes skipped (newer kernels add
 * some), a short attribute taken as absent.  The extended ack's message of
 * an error is copied out (rdmastat_priv.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "rdmastat.h"
#include "rdmastat_priv.h"

/* ---- attributes ----------------------------------------------------------- */

static bool attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_get_payload_len(a) < sizeof(*v))
		return false;
	*v = mnl_attr_get_u32(a);
	return true;
}

static bool attr_u64(const struct nlattr *a, uint64_t *v)
{
	if (mnl_attr_get_payload_len(a) < sizeof(*v))
		return false;
	*v = mnl_attr_get_u64(a);	/* memcpy: a u64 may sit at 4 bytes */
	return true;
}

/* a string attribute into dst, cut at its NUL or its end */
static void attr_str(const struct nlattr *a, char *dst, size_t size)
{
	const char *p = mnl_attr_get_payload(a);
	size_t n = strnlen(p, mnl_attr_get_payload_len(a));

	snprintf(dst, size, "%.*s", (int)n, p);
}

/* ENTRY{NAME, VALUE}: one named value, appended while there is room */
struct entries {
	struct rdmastat_entry *e;
	unsigned int *nr, *over;
	struct rdmastat_entry cur;
	bool named, valued;
};

static int entry_field(const struct nlattr *a, void *ctx)
{
	struct entries *l = ctx;

	switch (mnl_attr_get_type(a)) {
	case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME:
		attr_str(a, l->cur.name, sizeof(l->cur.name));
		l->named = l->cur.name[0] != '\0';
		break;
	case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE:
		l->valued = attr_u64(a, &l->cur.value);
		break;
	}
	return MNL_CB_OK;
}

static int entry(const struct nlattr *a, void *ctx)
{
	struct entries *l = ctx;

	if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
		return MNL_CB_OK;
	memset(&l->cur, 0, sizeof(l->cur));
	l->named = l->valued = false;
	mnl_attr_parse_nested(a, entry_field, l);
	if (!l->named || !l->valued)
		return MNL_CB_OK;	/* half an entry: none */
	if (*l->nr < RDMASTAT_MAX_ENTRIES)
		l->e[(*l->nr)++] = l->cur;
	else
		(*l->over)++;
	return MNL_CB_OK;
}

/* STAT_HWCOUNTERS{ENTRY...} appended to e[*nr] */
static void hwcounters(const struct nlattr *a, struct rdmastat_entry *e, unsigned int *nr,
		       unsigned int *over)
{
	struct entries l = { .e = e, .nr = nr, .over = over };

	mnl_attr_parse_nested(a, entry, &l);
}

/* ---- messages --------------------------------------------------------------- */

/* the extended ack's NLMSGERR_ATTR_MSG into msg */
static int extack_attr(const struct nlattr *a, void *ctx)
{
	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
		attr_str(a, ctx, RDMASTAT_MSG_LEN);
	return MNL_CB_OK;
}

/* the attributes from off (of the message's payload) on, if any fit */
static void extack(const struct nlmsghdr *nh, size_t off, char *msg)
{
	size_t plen = nh->nlmsg_len - NLMSG_HDRLEN;

	off = NLMSG_ALIGN(off);
	if (!msg || !(nh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= plen)
		return;
	mnl_attr_parse(nh, (unsigned int)off, extack_attr, msg);
}

/* NLMSG_ERROR: 1 an ACK, else the negative errno (its message into msg) */
static int error_msg(const struct nlmsghdr *nh, char *msg)
{
	const struct nlmsgerr *e = NLMSG_DATA(nh);
	size_t off = sizeof(*e);

	if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return -EPROTO;
	if (e->error > 0 || e->error < -4095)
		return -EPROTO;
	if (!e->error)
		return 1;
	/* the request echoed unless capped, then the attributes */
	if (!(nh->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	extack(nh, off, msg);
	return e->error;
}

/* NLMSG_DONE: 1, or the dump's error it carries */
static int done_msg(const struct nlmsghdr *nh, char *msg)
{
	int err = 0;

	if (nh->nlmsg_len >= NLMSG_LENGTH(sizeof(err)))
		memcpy(&err, NLMSG_DATA(nh), sizeof(err));
	if (err >= 0)
		return 1;
	extack(nh, sizeof(err), msg);
	return err < -4095 ? -EPROTO : err;
}

int rdmastat_parse(const void *buf, size_t len, uint32_t seq, uint16_t type,
		   rdmastat_msg_fn fn, void *ctx, char *msg)
{
	const char *p = buf;
	const struct nlmsghdr *nh;
	size_t step;
	int ret;

	while (len >= NLMSG_HDRLEN) {
		nh = (const struct nlmsghdr *)p;
		if (nh->nlmsg_len < NLMSG_HDRLEN || nh->nlmsg_len > len)
			return -EPROTO;
		if (nh->nlmsg_seq != seq) {
			/* another request's: not ours */
		} else if (nh->nlmsg_type == NLMSG_DONE) {
			return done_msg(nh, msg);
		} else if (nh->nlmsg_type == NLMSG_ERROR) {
			return error_msg(nh, msg);
		} else if (nh->nlmsg_type == type) {
			ret = fn(nh, ctx);
			if (ret)
				return ret;
		}
		/* not NLMSG_NEXT: an unpadded last message would wrap len */
		step = NLMSG_ALIGN(nh->nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return len && len < NLMSG_HDRLEN ? -EPROTO : 0;
}

/* ---- a port's hw_counters --------------------------------------------------- */

static int port_attr(const struct nlattr *a, void *ctx)
{
	struct rdmastat_port *out = ctx;

	switch (mnl_attr_get_type(a)) {
	case RDMA_NLDEV_ATTR_DEV_INDEX:
		attr_u32(a, &out->dev_index);
		break;
	case RDMA_NLDEV_ATTR_DEV_NAME:
		attr_str(a, out->dev_name, sizeof(out->dev_name));
		break;
	case RDMA_NLDEV_ATTR_PORT_INDEX:
		attr_u32(a, &out->port);
		break;
	case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
		hwcounters(a, out->e, &out->nr, &out->over);
		break;
	}
	return MNL_CB_OK;
}

int rdmastat_port_msg(const struct nlmsghdr *nh, void *ctx)
{
	mnl_attr_parse(nh, 0, port_attr, ctx);
	return 0;
}

int rdmastat_parse_port(const void *buf, size_t len, uint32_t seq, struct rdmastat_port *out)
{
	return rdmastat_parse(buf, len, seq, RDMASTAT_TYPE(RDMA_NLDEV_CMD_STAT_GET), rdmastat_port_msg, out,
			      NULL);
}

/* ---- a port's counter mode ---------------------------------------------------- */

static int mode_attr(const struct nlattr *a, void *ctx)
{
	struct rdmastat_mode_reply *r = ctx;

	if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_STAT_MODE)
		attr_u32(a, r->mode);
	else if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK)
		attr_u32(a, r->mask);
	return MNL_CB_OK;
}

int rdmastat_mode_msg(const struct nlmsghdr *nh, void *ctx)
{
	mnl_attr_parse(nh, 0, mode_attr, ctx);
	return 0;
}

int rdmastat_parse_mode(const void *buf, size_t len, uint32_t seq, uint32_t *mode,
			uint32_t *mask)
{
	struct rdmastat_mode_reply r = { mode, mask };

	return rdmastat_parse(buf, len, seq, RDMASTAT_TYPE(RDMA_NLDEV_CMD_STAT_GET), rdmastat_mode_msg, &r,
			      NULL);
}

/* ---- a bind's reply, the devices -------------------------------------------- */

static int bind_attr(const struct nlattr *a, void *ctx)
{
	if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_STAT_COUNTER_ID)
		attr_u32(a, ctx);
	return MNL_CB_OK;
}

int rdmastat_bind_msg(const struct nlmsghdr *nh, void *ctx)
{
	mnl_attr_parse(nh, 0, bind_attr, ctx);
	return 0;
}

struct dev_reply {
	uint32_t index;
	char name[RDMASTAT_NAME_LEN];
	bool has_index;
};

static int dev_attr(const struct nlattr *a, void *ctx)
{
	struct dev_reply *d = ctx;

	if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_DEV_INDEX)
		d->has_index = attr_u32(a, &d->index);
	else if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_DEV_NAME)
		attr_str(a, d->name, sizeof(d->name));
	return MNL_CB_OK;
}

int rdmastat_dev_msg(const struct nlmsghdr *nh, void *ctx)
{
	struct rdmastat_dev_walk *w = ctx;
	struct dev_reply d = { .has_index = false };

	mnl_attr_parse(nh, 0, dev_attr, &d);
	if (!d.has_index || !d.name[0])
		return 0;
	w->ret = w->cb(d.index, d.name, w->ctx);
	return w->ret;
}

/* ---- a dump of counter sets ------------------------------------------------- */

struct counters_walk {
	struct rdmastat_counter c;	/* the entry being read; the message's device */
	int (*cb)(const struct rdmastat_counter *c, void *ctx);
	void *ctx;
	int ret;			/* cb's non-zero return: the walk stops */
};

static int qp_field(const struct nlattr *a, void *ctx)
{
	struct rdmastat_counter *c = ctx;
	uint32_t qpn;

	if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_RES_LQPN || !attr_u32(a, &qpn))
		return MNL_CB_OK;
	if (c->nr_qpns < RDMASTAT_MAX_QPNS)
		c->qpns[c->nr_qpns++] = qpn;
	else
		c->qpns_over++;
	return MNL_CB_OK;
}

static int qp_entry(const struct nlattr *a, void *ctx)
{
	if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_RES_QP_ENTRY)
		mnl_attr_parse_nested(a, qp_field, ctx);
	return MNL_CB_OK;
}

static int counter_field(const struct nlattr *a, void *ctx)
{
	struct rdmastat_counter *c = ctx;

	switch (mnl_attr_get_type(a)) {
	case RDMA_NLDEV_ATTR_PORT_INDEX:
		attr_u32(a, &c->port);
		break;
	case RDMA_NLDEV_ATTR_STAT_COUNTER_ID:
		attr_u32(a, &c->id);
		break;
	case RDMA_NLDEV_ATTR_STAT_MODE:
		attr_u32(a, &c->mode);
		break;
	case RDMA_NLDEV_ATTR_RES_TYPE:
		if (mnl_attr_get_payload_len(a) >= 1) {
			c->qp_type = mnl_attr_get_u8(a);
			c->has_type = true;
		}
		break;
	case RDMA_NLDEV_ATTR_RES_PID:
		c->has_pid = attr_u32(a, &c->pid);
		break;
	case RDMA_NLDEV_ATTR_RES_KERN_NAME:	/* a kernel consumer's: pid 0 */
		c->pid = 0;
		c->has_pid = true;
		break;
	case RDMA_NLDEV_ATTR_RES_QP:
		mnl_attr_parse_nested(a, qp_entry, c);
		break;
	case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
		hwcounters(a, c->e, &c->nr, &c->over);
		break;
	}
	return MNL_CB_OK;
}

static int counter_entry(const struct nlattr *a, void *ctx)
{
	struct counters_walk *w = ctx;
	struct rdmastat_counter *c = &w->c;
	uint32_t dev = c->dev_index;
	char name[RDMASTAT_NAME_LEN];

	if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY)
		return MNL_CB_OK;
	memcpy(name, c->dev_name, sizeof(name));
	memset(c, 0, sizeof(*c));
	c->dev_index = dev;
	memcpy(c->dev_name, name, sizeof(name));
	mnl_attr_parse_nested(a, counter_field, c);
	w->ret = w->cb(c, w->ctx);
	return w->ret ? MNL_CB_STOP : MNL_CB_OK;
}

static int counters_attr(const struct nlattr *a, void *ctx)
{
	struct counters_walk *w = ctx;

	switch (mnl_attr_get_type(a)) {
	case RDMA_NLDEV_ATTR_DEV_INDEX:
		attr_u32(a, &w->c.dev_index);
		break;
	case RDMA_NLDEV_ATTR_DEV_NAME:
		attr_str(a, w->c.dev_name, sizeof(w->c.dev_name));
		break;
	case RDMA_NLDEV_ATTR_STAT_COUNTER:
		mnl_attr_parse_nested(a, counter_entry, w);
		return w->ret ? MNL_CB_STOP : MNL_CB_OK;
	}
	return MNL_CB_OK;
}

static int counters_msg(const struct nlmsghdr *nh, void *ctx)
{
	struct counters_walk *w = ctx;

	w->c.dev_index = 0;	/* each message names its device first */
	w->c.dev_name[0] = '\0';
	mnl_attr_parse(nh, 0, counters_attr, w);
	return w->ret;
}

int rdmastat_walk_counters(const void *buf, size_t len, uint32_t seq,
			   int (*cb)(const struct rdmastat_counter *c, void *ctx), void *ctx,
			   char *msg, int *cb_ret)
{
	struct counters_walk w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.cb = cb;
	w.ctx = ctx;
	ret = rdmastat_parse(buf, len, seq, RDMASTAT_TYPE(RDMA_NLDEV_CMD_STAT_GET), counters_msg,
			     &w, msg);
	*cb_ret = w.ret;
	return ret;
}

int rdmastat_parse_counters(const void *buf, size_t len, uint32_t seq,
			    int (*cb)(const struct rdmastat_counter *c, void *ctx), void *ctx)
{
	int cb_ret;

	return rdmastat_walk_counters(buf, len, seq, cb, ctx, NULL, &cb_ret);
}
