// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the sysfs surface: /sys/kernel/fabtel/<ibdev>/ports/<n>/.
 *
 * One value per file, with the documented exceptions (history, events,
 * snapshot, ets/prio_tc) listed in Documentation/ABI/testing/
 * sysfs-kernel-fabtel.  A value not known yet (no sample so far) or not kept
 * (the driver disabled the counter) reads as -ENODATA, never as a zero; a
 * counter the vendor lacks has no file at all.  Every file is read-only.
 *
 * sysfs hands a show() one page, and a read() returns at most one page, so
 * the multi-line files are bounded: if a list ever outgrows the page, its
 * oldest lines are left out and a "# N omitted" line says so, and snapshot
 * ends with "end" only when it is complete.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "fabtel.h"

struct fabtel_ctr_attr {
	struct kobj_attribute ka;
	int idx;
};

static struct fabtel_port *kobj_to_port(struct kobject *kobj)
{
	return container_of(kobj, struct fabtel_port, kobj);
}

/* For files in the counters/ and pfc/ child directories. */
static struct fabtel_port *child_to_port(struct kobject *kobj)
{
	return kobj_to_port(kobj->parent);
}

static const char *fabtel_port_state_name(enum ib_port_state s)
{
	static const char * const names[] = {
		[IB_PORT_NOP] = "NOP", [IB_PORT_DOWN] = "DOWN",
		[IB_PORT_INIT] = "INIT", [IB_PORT_ARMED] = "ARMED",
		[IB_PORT_ACTIVE] = "ACTIVE",
		[IB_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
	};

	if ((unsigned int)s >= ARRAY_SIZE(names))
		return "UNKNOWN";
	return names[s];
}

/* ---- counters/ and counters/raw/ ---------------------------------------- */

static ssize_t fabtel_norm_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct fabtel_ctr_attr *a = container_of(attr, struct fabtel_ctr_attr, ka);
	struct fabtel_port *p = child_to_port(kobj);
	ssize_t ret = -ENODATA;

	spin_lock(&p->lock);
	if (p->sampled && !test_bit(p->src[a->idx], p->disabled))
		ret = sysfs_emit(buf, "%llu\n", p->norm[a->idx]);
	spin_unlock(&p->lock);
	return ret;
}

static ssize_t fabtel_raw_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct fabtel_ctr_attr *a = container_of(attr, struct fabtel_ctr_attr, ka);
	struct fabtel_port *p = child_to_port(kobj);
	ssize_t ret = -ENODATA;

	spin_lock(&p->lock);
	if (p->sampled && !test_bit(a->idx, p->disabled))
		ret = sysfs_emit(buf, "%llu\n", p->raw[a->idx]);
	spin_unlock(&p->lock);
	return ret;
}

static void fabtel_ctr_attr_set(struct fabtel_ctr_attr *a, const char *name,
				int idx, bool raw)
{
	sysfs_attr_init(&a->ka.attr);
	a->ka.attr.name = name;
	a->ka.attr.mode = 0444;
	a->ka.show = raw ? fabtel_raw_show : fabtel_norm_show;
	a->idx = idx;
}

/* counters/ holds the normalized counters the vendor has; raw/ all of the driver's. */
static int fabtel_counters_sysfs_add(struct fabtel_port *p)
{
	unsigned int nraw = p->stats ? p->stats->num_counters : 0;
	unsigned int i, nnorm = 0, k = 0;
	struct attribute **norm, **raw;
	struct fabtel_ctr_attr *a;
	int err;

	for (i = 0; i < FABTEL_NR_COUNTERS; i++)
		nnorm += p->src[i] >= 0;
	a = kcalloc(nnorm + nraw, sizeof(*a), GFP_KERNEL);
	norm = kcalloc(nnorm + nraw + 2, sizeof(*norm), GFP_KERNEL);
	if (!a || !norm) {
		kfree(a);
		kfree(norm);
		return -ENOMEM;
	}
	p->attr_mem = a;
	p->attr_ptrs = norm;
	raw = norm + nnorm + 1;		/* both lists NULL-terminated */

	for (i = 0; i < FABTEL_NR_COUNTERS; i++) {
		if (p->src[i] < 0)
			continue;
		fabtel_ctr_attr_set(&a[k], fabtel_counter_names[i], i, false);
		norm[k] = &a[k].ka.attr;
		k++;
	}
	for (i = 0; i < nraw; i++) {
		fabtel_ctr_attr_set(&a[nnorm + i], p->stats->descs[i].name, i, true);
		raw[i] = &a[nnorm + i].ka.attr;
	}
	p->norm_group.attrs = norm;
	p->raw_group.name = "raw";
	p->raw_group.attrs = raw;

	p->counters_kobj = kobject_create_and_add("counters", &p->kobj);
	if (!p->counters_kobj)
		return -ENOMEM;
	err = sysfs_create_group(p->counters_kobj, &p->norm_group);
	if (err)
		return err;
	return sysfs_create_group(p->counters_kobj, &p->raw_group);
}

/* ---- link/ -------------------------------------------------------------- */

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	enum ib_port_state s;

	spin_lock(&p->lock);
	s = p->ib_state;
	spin_unlock(&p->lock);
	return sysfs_emit(buf, "%s\n", fabtel_port_state_name(s));
}

/* carrier and the carrier counts, live from the netdev */
static ssize_t fabtel_ndev_show(struct kobject *kobj, char *buf, int what)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	struct net_device *ndev = fabtel_port_netdev_get(p);
	ssize_t ret;

	if (!ndev)
		return -ENODEV;
	if (what == 0)
		ret = sysfs_emit(buf, "%d\n", netif_carrier_ok(ndev) ? 1 : 0);
	else if (what == 1)
		ret = sysfs_emit(buf, "%u\n", atomic_read(&ndev->carrier_up_count));
	else
		ret = sysfs_emit(buf, "%u\n", atomic_read(&ndev->carrier_down_count));
	dev_put(ndev);
	return ret;
}

static ssize_t carrier_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return fabtel_ndev_show(kobj, buf, 0);
}

static ssize_t carrier_up_count_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return fabtel_ndev_show(kobj, buf, 1);
}

static ssize_t carrier_down_count_show(struct kobject *kobj,
				       struct kobj_attribute *attr, char *buf)
{
	return fabtel_ndev_show(kobj, buf, 2);
}

static ssize_t flaps_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	u64 v;

	spin_lock(&p->lock);
	v = p->flaps;
	spin_unlock(&p->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

/* Emit the newest lines of a ring that fit in the page, oldest first. */
#define FABTEL_LINE_MAX	96

static int fabtel_ring_first(unsigned int len, int used)
{
	int room = (PAGE_SIZE - used - 40) / FABTEL_LINE_MAX;

	return len > room ? len - room : 0;
}

static ssize_t history_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	const struct fabtel_link_entry *e;
	unsigned int i, first;
	int n = 0;

	spin_lock(&p->lock);
	first = fabtel_ring_first(p->hist_len, 0);
	if (first)
		n += sysfs_emit_at(buf, n, "# %u omitted\n", first);
	for (i = first; i < p->hist_len; i++) {
		e = &p->history[(p->hist_head + i) % FABTEL_HISTORY_LEN];
		n += sysfs_emit_at(buf, n, "%llu %llu %s %s ", e->boot_ns,
				   e->real_ns, e->up ? "up" : "down",
				   fabtel_link_source_name(e->source));
		if (e->down_ns >= 0)
			n += sysfs_emit_at(buf, n, "%lld\n", e->down_ns);
		else
			n += sysfs_emit_at(buf, n, "-\n");
	}
	spin_unlock(&p->lock);
	return n;
}

static struct kobj_attribute fabtel_attr_state = __ATTR_RO(state);
static struct kobj_attribute fabtel_attr_carrier = __ATTR_RO(carrier);
static struct kobj_attribute fabtel_attr_carrier_up_count =
	__ATTR_RO(carrier_up_count);
static struct kobj_attribute fabtel_attr_carrier_down_count =
	__ATTR_RO(carrier_down_count);
static struct kobj_attribute fabtel_attr_flaps = __ATTR_RO(flaps);
static struct kobj_attribute fabtel_attr_history = __ATTR_RO(history);

static struct attribute *fabtel_link_attrs[] = {
	&fabtel_attr_state.attr,
	&fabtel_attr_carrier.attr,
	&fabtel_attr_carrier_up_count.attr,
	&fabtel_attr_carrier_down_count.attr,
	&fabtel_attr_flaps.attr,
	&fabtel_attr_history.attr,
	NULL,
};

static const struct attribute_group fabtel_link_group = {
	.name = "link",
	.attrs = fabtel_link_attrs,
};

/* ---- events, sampler state ---------------------------------------------- */

static ssize_t events_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	const struct fabtel_event *e;
	unsigned int i, first;
	int n = 0;

	spin_lock(&p->lock);
	first = fabtel_ring_first(p->ev_len, 0);
	if (first)
		n += sysfs_emit_at(buf, n, "# %u omitted\n", first);
	for (i = first; i < p->ev_len; i++) {
		e = &p->events[(p->ev_head + i) % FABTEL_EVENTS_LEN];
		n += sysfs_emit_at(buf, n, "%llu %llu %s %llu\n", e->seq,
				   e->boot_ns, fabtel_counter_names[e->ctr],
				   e->delta);
	}
	spin_unlock(&p->lock);
	return n;
}

#define FABTEL_PORT_U64_ATTR(_name, _field)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	struct fabtel_port *p = kobj_to_port(kobj);			\
	u64 v;								\
									\
	spin_lock(&p->lock);						\
	v = p->_field;							\
	spin_unlock(&p->lock);						\
	return sysfs_emit(buf, "%llu\n", v);				\
}									\
static struct kobj_attribute fabtel_attr_##_name = __ATTR_RO(_name)

FABTEL_PORT_U64_ATTR(events_dropped, ev_dropped);
FABTEL_PORT_U64_ATTR(events_seq, ev_seq);
FABTEL_PORT_U64_ATTR(samples, samples);
FABTEL_PORT_U64_ATTR(sample_errors, sample_errors);

static ssize_t netdev_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	ssize_t ret = -ENODEV;

	spin_lock(&p->lock);
	if (p->ndev)
		ret = sysfs_emit(buf, "%s\n", p->ndev_name);
	spin_unlock(&p->lock);
	return ret;
}

static struct kobj_attribute fabtel_attr_events = __ATTR_RO(events);
static struct kobj_attribute fabtel_attr_netdev = __ATTR_RO(netdev);

/* ---- pfc/ and ets/ ------------------------------------------------------ */

/* Eight small numbers, space separated, and a newline. */
static int fabtel_emit_u8s(char *buf, int at, const u8 *v)
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

static const struct attribute_group *fabtel_prio_groups[] = {
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

static struct attribute *fabtel_pfc_attrs[] = {
	&fabtel_attr_pfc_status.attr,
	&fabtel_attr_enabled_mask.attr,
	&fabtel_attr_cap.attr,
	&fabtel_attr_dcbx_mode.attr,
	&fabtel_attr_busy_skips.attr,
	NULL,
};

static umode_t fabtel_pfc_visible(struct kobject *kobj, struct attribute *attr,
				  int n)
{
	if (attr == &fabtel_attr_pfc_status.attr)
		return attr->mode;
	return child_to_port(kobj)->dcb.pfc_supported ? attr->mode : 0;
}

static const struct attribute_group fabtel_pfc_group = {
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

static const struct attribute_group fabtel_ets_group = {
	.name = "ets",
	.attrs = fabtel_ets_attrs,
	.is_visible = fabtel_ets_visible,
};

/* ---- snapshot ----------------------------------------------------------- */

/*
 * Every value of the port in one read (format in the ABI document).  "-"
 * stands for a value not known yet; a counter the vendor lacks has no line.
 */
static int fabtel_snapshot_counters(struct fabtel_port *p, char *buf, int n)
{
	unsigned int i;

	n += sysfs_emit_at(buf, n, "samples %llu\nsample_errors %llu\n",
			   p->samples, p->sample_errors);
	if (p->sampled)
		n += sysfs_emit_at(buf, n, "sample_ns %llu\n", p->last_sample_ns);
	else
		n += sysfs_emit_at(buf, n, "sample_ns -\n");
	for (i = 0; i < FABTEL_NR_COUNTERS; i++) {
		if (p->src[i] < 0)
			continue;
		if (p->sampled && !test_bit(p->src[i], p->disabled))
			n += sysfs_emit_at(buf, n, "counter %s %llu\n",
					   fabtel_counter_names[i], p->norm[i]);
		else
			n += sysfs_emit_at(buf, n, "counter %s -\n",
					   fabtel_counter_names[i]);
	}
	return n;
}

static int fabtel_snapshot_link(struct fabtel_port *p, struct net_device *ndev,
				char *buf, int n)
{
	n += sysfs_emit_at(buf, n, "link_state %s\n",
			   fabtel_port_state_name(p->ib_state));
	if (ndev)
		n += sysfs_emit_at(buf, n,
				   "link_carrier %d\nlink_carrier_up_count %u\nlink_carrier_down_count %u\n",
				   netif_carrier_ok(ndev) ? 1 : 0,
				   atomic_read(&ndev->carrier_up_count),
				   atomic_read(&ndev->carrier_down_count));
	else
		n += sysfs_emit_at(buf, n,
				   "link_carrier -\nlink_carrier_up_count -\nlink_carrier_down_count -\n");
	return n + sysfs_emit_at(buf, n,
				 "link_flaps %llu\nlink_transitions %u\nevents_seq %llu\nevents_dropped %llu\n",
				 p->flaps, p->hist_len, p->ev_seq, p->ev_dropped);
}

static int fabtel_snapshot_dcb(struct fabtel_port *p, char *buf, int n)
{
	const struct fabtel_dcb *d = &p->dcb;
	const struct fabtel_prio *pr;
	unsigned int i;

	n += sysfs_emit_at(buf, n, "pfc %s\n",
			   d->pfc_supported ? "supported" : "unsupported");
	if (d->pfc_supported || d->ets_supported)
		n += sysfs_emit_at(buf, n, "dcb_busy_skips %llu\n", d->busy_skips);
	if (d->pfc_supported && d->sampled) {
		n += sysfs_emit_at(buf, n, "pfc_cap %u\npfc_enabled_mask 0x%02x\ndcbx_mode 0x%02x\n",
				   d->pfc_cap, d->pfc_en, d->dcbx);
		for (i = 0; i < FABTEL_NR_PRIO; i++) {
			pr = &d->prio[i];
			n += sysfs_emit_at(buf, n, "pfc_prio %u %u %llu %llu %u %llu %llu\n",
					   i, !!(d->pfc_en & BIT(i)),
					   pr->pause_tx, pr->pause_rx, pr->storm,
					   pr->storm_events, pr->storm_last_ns);
		}
	}
	n += sysfs_emit_at(buf, n, "ets %s\n",
			   d->ets_supported ? "supported" : "unsupported");
	if (d->ets_supported && d->sampled) {
		n += sysfs_emit_at(buf, n, "ets_prio_tc ");
		n += fabtel_emit_u8s(buf, n, d->prio_tc);
		n += sysfs_emit_at(buf, n, "ets_tc_bw ");
		n += fabtel_emit_u8s(buf, n, d->tc_bw);
		n += sysfs_emit_at(buf, n, "ets_tc_tsa ");
		n += fabtel_emit_u8s(buf, n, d->tc_tsa);
	}
	return n;
}

static int fabtel_snapshot_raw(struct fabtel_port *p, char *buf, int n)
{
	unsigned int i;

	for (i = 0; p->stats && i < p->stats->num_counters; i++) {
		if (p->sampled && !test_bit(i, p->disabled))
			n += sysfs_emit_at(buf, n, "raw %s %llu\n",
					   p->stats->descs[i].name, p->raw[i]);
		else
			n += sysfs_emit_at(buf, n, "raw %s -\n",
					   p->stats->descs[i].name);
	}
	return n;
}

static ssize_t snapshot_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	struct net_device *ndev = fabtel_port_netdev_get(p);
	int n;

	spin_lock(&p->lock);
	n = sysfs_emit(buf, "fabtel-snapshot %d\ndevice %s\nport %u\ndriver %s\nnetdev %s\n",
		       FABTEL_SCHEMA_VERSION, dev_name(&p->fdev->ibdev->dev),
		       p->num, p->fdev->vendor->name,
		       ndev ? p->ndev_name : "-");
	n = fabtel_snapshot_counters(p, buf, n);
	n = fabtel_snapshot_link(p, ndev, buf, n);
	n = fabtel_snapshot_dcb(p, buf, n);
	n = fabtel_snapshot_raw(p, buf, n);
	spin_unlock(&p->lock);
	if (ndev)
		dev_put(ndev);

	/* sysfs_emit_at stops at the page's end: never end on a cut line */
	if (n >= PAGE_SIZE - 5) {
		n = min_t(int, n, PAGE_SIZE - 11);	/* room for "truncated" */
		while (n > 0 && buf[n - 1] != '\n')
			n--;
		return n + sysfs_emit_at(buf, n, "truncated\n");
	}
	return n + sysfs_emit_at(buf, n, "end\n");
}

static struct kobj_attribute fabtel_attr_snapshot = __ATTR_RO(snapshot);

static struct attribute *fabtel_port_attrs[] = {
	&fabtel_attr_snapshot.attr,
	&fabtel_attr_events.attr,
	&fabtel_attr_events_dropped.attr,
	&fabtel_attr_events_seq.attr,
	&fabtel_attr_samples.attr,
	&fabtel_attr_sample_errors.attr,
	&fabtel_attr_netdev.attr,
	NULL,
};

static const struct attribute_group fabtel_port_group = {
	.attrs = fabtel_port_attrs,
};

static const struct attribute_group *fabtel_port_groups[] = {
	&fabtel_port_group,
	&fabtel_link_group,
	&fabtel_ets_group,
	NULL,
};

static void fabtel_port_release(struct kobject *kobj)
{
	struct fabtel_port *p = kobj_to_port(kobj);

	kfree(p->attr_ptrs);
	kfree(p->attr_mem);
	kfree(p);
}

const struct kobj_type fabtel_port_ktype = {
	.release = fabtel_port_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = fabtel_port_groups,
};

/* counters/ and pfc/ under an already added port kobject */
int fabtel_sysfs_port_add(struct fabtel_port *p)
{
	int err;

	err = fabtel_counters_sysfs_add(p);
	if (err)
		return err;
	p->pfc_kobj = kobject_create_and_add("pfc", &p->kobj);
	if (!p->pfc_kobj)
		return -ENOMEM;
	err = sysfs_create_group(p->pfc_kobj, &fabtel_pfc_group);
	if (err)
		return err;
	if (p->dcb.pfc_supported)
		err = sysfs_create_groups(p->pfc_kobj, fabtel_prio_groups);
	return err;
}

/* Undo fabtel_sysfs_port_add, also a partial one; waits out readers. */
void fabtel_sysfs_port_del(struct fabtel_port *p)
{
	if (p->pfc_kobj) {
		kobject_del(p->pfc_kobj);
		kobject_put(p->pfc_kobj);
		p->pfc_kobj = NULL;
	}
	if (p->counters_kobj) {
		kobject_del(p->counters_kobj);
		kobject_put(p->counters_kobj);
		p->counters_kobj = NULL;
	}
}
