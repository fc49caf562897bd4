// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the sysfs files of DCB: pfc/ (status, enabled_mask, cap,
 * dcbx_mode, busy_skips, prio<N>/) and ets/ under each port, as
 * fabtel_sysfs.c lays the port out (Documentation/ABI/testing/
 * sysfs-kernel-fabtel).  Values come from the DCB sampler (fabtel_dcb.c),
 * read under the port's lock; not sampled yet reads as -ENODATA.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "fabtel.h"

/* Eight small numbers, space separated, and a newline. */
int fabtel_emit_u8s(char *buf, int at, const u8 *v)
{
	int n = 0, i;

	for (i = 0; i < FABTEL_NR_PRIO; i++)
		n += sysfs_emit_at(buf, at + n, i ? " %u" : "%u", v[i]);
	return n + sysfs_emit_at(buf, at + n, "\n");
}

enum { FABTEL_PRIO_ENABLED, FABTEL_PRIO_PAUSE_TX, FABTEL_PRIO_PAUSE_RX,
	FABTEL_PRIO_STORM, FABTEL_PRIO_STORM_EVENTS, FABTEL_PRIO_STORM_LAST_NS };

struct fabtel_prio_attr {
	struct kobj_attribute ka;
	u8 prio;
	u8 field;
};

static ssize_t fabtel_prio_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct fabtel_prio_attr *a = container_of(attr, struct fabtel_prio_attr, ka);
	struct fabtel_port *p = child_to_port(kobj);
	const struct fabtel_prio *pr = &p->dcb.prio[a->prio];
	u64 v = 0;

	spin_lock(&p->lock);
	if (!p->dcb.sampled) {
		spin_unlock(&p->lock);
		return -ENODATA;
	}
	switch (a->field) {
	case FABTEL_PRIO_ENABLED:
		v = !!(p->dcb.pfc_en & BIT(a->prio));
		break;
	case FABTEL_PRIO_PAUSE_TX:
		v = pr->pause_tx;
		break;
	case FABTEL_PRIO_PAUSE_RX:
		v = pr->pause_rx;
		break;
	case FABTEL_PRIO_STORM:
		v = pr->storm;
		break;
	case FABTEL_PRIO_STORM_EVENTS:
		v = pr->storm_events;
		break;
	case FABTEL_PRIO_STORM_LAST_NS:
		v = pr->storm_last_ns;
		break;
	}
	spin_unlock(&p->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

#define FABTEL_PRIO_ATTR(_n, _name, _field)				\
static struct fabtel_prio_attr fabtel_prio##_n##_##_name = {		\
	.ka = __ATTR(_name, 0444, fabtel_prio_show, NULL),		\
	.prio = _n, .field = _field,					\
}

#define FABTEL_PRIO_GROUP(_n)						\
FABTEL_PRIO_ATTR(_n, enabled, FABTEL_PRIO_ENABLED);			\
FABTEL_PRIO_ATTR(_n, pause_tx, FABTEL_PRIO_PAUSE_TX);			\
FABTEL_PRIO_ATTR(_n, pause_rx, FABTEL_PRIO_PAUSE_RX);			\
FABTEL_PRIO_ATTR(_n, storm, FABTEL_PRIO_STORM);				\
FABTEL_PRIO_ATTR(_n, storm_events, FABTEL_PRIO_STORM_EVENTS);		\
FABTEL_PRIO_ATTR(_n, storm_last_ns, FABTEL_PRIO_STORM_LAST_NS);		\
static struct attribute *fabtel_prio##_n##_attrs[] = {			\
	&fabtel_prio##_n##_enabled.ka.attr,				\
	&fabtel_prio##_n##_pause_tx.ka.attr,				\
	&fabtel_prio##_n##_pause_rx.ka.attr,				\
	&fabtel_prio##_n##_storm.ka.attr,				\
	&fabtel_prio##_n##_storm_events.ka.attr,			\
	&fabtel_prio##_n##_storm_last_ns.ka.attr,			\
	NULL,								\
};									\
static const struct attribute_group fabtel_prio##_n##_group = {		\
	.name = "prio" #_n,						\
	.attrs = fabtel_prio##_n##_attrs,				\
}

FABTEL_PRIO_GROUP(0);
FABTEL_PRIO_GROUP(1);
FABTEL_PRIO_GROUP(2);
FABTEL_PRIO_GROUP(3);
FABTEL_PRIO_GROUP(4);
FABTEL_PRIO_GROUP(5);
FABTEL_PRIO_GROUP(6);
FABTEL_PRIO_GROUP(7);

const struct attribute_group *fabtel_prio_groups[] = {
	&fabtel_prio0_group, &fabtel_prio1_group, &fabtel_prio2_group,
	&fabtel_prio3_group, &fabtel_prio4_group, &fabtel_prio5_group,
	&fabtel_prio6_group, &fabtel_prio7_group, NULL,
};

/* pfc/status and ets/status: "supported" or "unsupported" (no DCB ops) */
static ssize_t fabtel_status_emit(char *buf, bool supported)
{
	return sysfs_emit(buf, "%s\n", supported ? "supported" : "unsupported");
}

static ssize_t pfc_status_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return fabtel_status_emit(buf, child_to_port(kobj)->dcb.pfc_supported);
}

/* pfc/{enabled_mask,cap,dcbx_mode}: which = 0, 1, 2 */
static ssize_t fabtel_pfc_show(struct kobject *kobj, char *buf, int which)
{
	struct fabtel_port *p = child_to_port(kobj);
	ssize_t ret = -ENODATA;
	u8 v;

	spin_lock(&p->lock);
	if (p->dcb.sampled) {
		v = which == 0 ? p->dcb.pfc_en :
		    which == 1 ? p->dcb.pfc_cap : p->dcb.dcbx;
		ret = which == 1 ? sysfs_emit(buf, "%u\n", v) :
				   sysfs_emit(buf, "0x%02x\n", v);
	}
	spin_unlock(&p->lock);
	return ret;
}

/* "DSCP:PRIO" for each entry of the APP table, blank-separated, then "\n" */
int fabtel_dscp_emit(const struct fabtel_dcb *d, char *buf, int n)
{
	unsigned int dscp, prio;
	bool first = true;

	for (dscp = 0; dscp < ARRAY_SIZE(d->dscp_prio); dscp++) {
		for (prio = 0; prio < FABTEL_NR_PRIO; prio++) {
			if (!(d->dscp_prio[dscp] & BIT(prio)))
				continue;
			n += sysfs_emit_at(buf, n, "%s%u:%u", first ? "" : " ", dscp, prio);
			first = false;
		}
	}
	return n + sysfs_emit_at(buf, n, "\n");
}

/* pfc/dscp_map: the documented exception, the APP table's DSCP entries */
static ssize_t dscp_map_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct fabtel_port *p = child_to_port(kobj);
	ssize_t ret = -ENODATA;

	spin_lock(&p->lock);
	if (p->dcb.dscp_read)
		ret = fabtel_dscp_emit(&p->dcb, buf, 0);
	spin_unlock(&p->lock);
	return ret;
}

static ssize_t enabled_mask_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return fabtel_pfc_show(kobj, buf, 0);
}

static ssize_t cap_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return fabtel_pfc_show(kobj, buf, 1);
}

static ssize_t dcbx_mode_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return fabtel_pfc_show(kobj, buf, 2);
}

/* pfc/busy_skips: DCB reads skipped because RTNL was busy (never waited for) */
static ssize_t busy_skips_show(struct kobject *kobj, struct kobj_attribute *attr,
			       char *buf)
{
	struct fabtel_port *p = child_to_port(kobj);
	u64 v;

	spin_lock(&p->lock);
	v = p->dcb.busy_skips;
	spin_unlock(&p->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

static struct kobj_attribute fabtel_attr_pfc_status =
	__ATTR(status, 0444, pfc_status_show, NULL);
static struct kobj_attribute fabtel_attr_enabled_mask = __ATTR_RO(enabled_mask);
static struct kobj_attribute fabtel_attr_cap = __ATTR_RO(cap);
static struct kobj_attribute fabtel_attr_dcbx_mode = __ATTR_RO(dcbx_mode);
static struct kobj_attribute fabtel_attr_busy_skips = __ATTR_RO(busy_skips);
static struct kobj_attribute fabtel_attr_dscp_map = __ATTR_RO(dscp_map);

static struct attribute *fabtel_pfc_attrs[] = {
	&fabtel_attr_pfc_status.attr,
	&fabtel_attr_enabled_mask.attr,
	&fabtel_attr_cap.attr,
	&fabtel_attr_dcbx_mode.attr,
	&fabtel_attr_busy_skips.attr,
	&fabtel_attr_dscp_map.attr,
	NULL,
};

static umode_t fabtel_pfc_visible(struct kobject *kobj, struct attribute *attr,
				  int n)
{
	if (attr == &fabtel_attr_pfc_status.attr)
		return attr->mode;
	return child_to_port(kobj)->dcb.pfc_supported ? attr->mode : 0;
}

const struct attribute_group fabtel_pfc_group = {
	.attrs = fabtel_pfc_attrs,
	.is_visible = fabtel_pfc_visible,
};

enum { FABTEL_TC_BW, FABTEL_TC_TSA };

struct fabtel_tc_attr {
	struct kobj_attribute ka;
	u8 tc;
	u8 field;
};

static ssize_t fabtel_tc_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	struct fabtel_tc_attr *a = container_of(attr, struct fabtel_tc_attr, ka);
	struct fabtel_port *p = kobj_to_port(kobj);
	ssize_t ret = -ENODATA;

	spin_lock(&p->lock);
	if (p->dcb.sampled)
		ret = sysfs_emit(buf, "%u\n", a->field == FABTEL_TC_BW ?
				 p->dcb.tc_bw[a->tc] : p->dcb.tc_tsa[a->tc]);
	spin_unlock(&p->lock);
	return ret;
}

#define FABTEL_TC_ATTRS(_n)						\
static struct fabtel_tc_attr fabtel_tc##_n##_bw = {			\
	.ka = __ATTR(tc##_n##_bw, 0444, fabtel_tc_show, NULL),		\
	.tc = _n, .field = FABTEL_TC_BW,				\
};									\
static struct fabtel_tc_attr fabtel_tc##_n##_tsa = {			\
	.ka = __ATTR(tc##_n##_tsa, 0444, fabtel_tc_show, NULL),		\
	.tc = _n, .field = FABTEL_TC_TSA,				\
}

FABTEL_TC_ATTRS(0);
FABTEL_TC_ATTRS(1);
FABTEL_TC_ATTRS(2);
FABTEL_TC_ATTRS(3);
FABTEL_TC_ATTRS(4);
FABTEL_TC_ATTRS(5);
FABTEL_TC_ATTRS(6);
FABTEL_TC_ATTRS(7);

static ssize_t ets_status_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return fabtel_status_emit(buf, kobj_to_port(kobj)->dcb.ets_supported);
}

/* ets/prio_tc: the documented exception, 8 values (priority 0..7) */
static ssize_t prio_tc_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	ssize_t ret = -ENODATA;

	spin_lock(&p->lock);
	if (p->dcb.sampled)
		ret = fabtel_emit_u8s(buf, 0, p->dcb.prio_tc);
	spin_unlock(&p->lock);
	return ret;
}

static struct kobj_attribute fabtel_attr_ets_status =
	__ATTR(status, 0444, ets_status_show, NULL);
static struct kobj_attribute fabtel_attr_prio_tc = __ATTR_RO(prio_tc);

#define FABTEL_TC_PTRS(_n) &fabtel_tc##_n##_bw.ka.attr, &fabtel_tc##_n##_tsa.ka.attr

static struct attribute *fabtel_ets_attrs[] = {
	&fabtel_attr_ets_status.attr,
	&fabtel_attr_prio_tc.attr,
	FABTEL_TC_PTRS(0), FABTEL_TC_PTRS(1), FABTEL_TC_PTRS(2),
	FABTEL_TC_PTRS(3), FABTEL_TC_PTRS(4), FABTEL_TC_PTRS(5),
	FABTEL_TC_PTRS(6), FABTEL_TC_PTRS(7),
	NULL,
};

static umode_t fabtel_ets_visible(struct kobject *kobj, struct attribute *attr,
				  int n)
{
	if (attr == &fabtel_attr_ets_status.attr)
		return attr->mode;
	return kobj_to_port(kobj)->dcb.ets_supported ? attr->mode : 0;
}

const struct attribute_group fabtel_ets_group = {
	.name = "ets",
	.attrs = fabtel_ets_attrs,
	.is_visible = fabtel_ets_visible,
};
