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

/*
 * link/history, a binary attribute so that all FABTEL_HISTORY_LEN lines fit
 * (a page holds ~42): rendered whole at each read, then the part asked for.
 */
#define FABTEL_HISTORY_LINE	(2 * 20 + 5 + 10 + 21 + IFNAMSIZ + 6)
#define FABTEL_HISTORY_BUF	(FABTEL_HISTORY_LEN * FABTEL_HISTORY_LINE)

static int fabtel_history_render(struct fabtel_port *p, char *buf)
{
	const struct fabtel_link_entry *e;
	unsigned int i;
	int n = 0;

	spin_lock(&p->lock);
	for (i = 0; i < p->hist_len; i++) {
		e = &p->history[(p->hist_head + i) % FABTEL_HISTORY_LEN];
		n += scnprintf(buf + n, FABTEL_HISTORY_BUF - n, "%llu %llu %s %s ",
			       e->boot_ns, e->real_ns, e->up ? "up" : "down",
			       fabtel_link_source_name(e->source));
		if (e->down_ns >= 0)
			n += scnprintf(buf + n, FABTEL_HISTORY_BUF - n, "%lld",
				       e->down_ns);
		else
			n += scnprintf(buf + n, FABTEL_HISTORY_BUF - n, "-");
		if (e->source == FABTEL_SRC_SLAVE)
			n += scnprintf(buf + n, FABTEL_HISTORY_BUF - n, " %s",
				       e->slave);
		n += scnprintf(buf + n, FABTEL_HISTORY_BUF - n, "\n");
	}
	spin_unlock(&p->lock);
	return n;
}

static ssize_t history_read(struct file *file, struct kobject *kobj,
			    struct bin_attribute *attr, char *out, loff_t off,
			    size_t count)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	ssize_t ret;
	char *buf;
	int n;

	buf = kmalloc(FABTEL_HISTORY_BUF, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = fabtel_history_render(p, buf);
	ret = memory_read_from_buffer(out, count, &off, buf, n);
	kfree(buf);
	return ret;
}

static BIN_ATTR_RO(history, 0);

static struct kobj_attribute fabtel_attr_state = __ATTR_RO(state);
static struct kobj_attribute fabtel_attr_carrier = __ATTR_RO(carrier);
static struct kobj_attribute fabtel_attr_carrier_up_count =
	__ATTR_RO(carrier_up_count);
static struct kobj_attribute fabtel_attr_carrier_down_count =
	__ATTR_RO(carrier_down_count);
static struct kobj_attribute fabtel_attr_flaps = __ATTR_RO(flaps);

static struct attribute *fabtel_link_attrs[] = {
	&fabtel_attr_state.attr,
	&fabtel_attr_carrier.attr,
	&fabtel_attr_carrier_up_count.attr,
	&fabtel_attr_carrier_down_count.attr,
	&fabtel_attr_flaps.attr,
	NULL,
};

static struct bin_attribute *fabtel_link_bin_attrs[] = {
	&bin_attr_history,
	NULL,
};

static const struct attribute_group fabtel_link_group = {
	.name = "link",
	.attrs = fabtel_link_attrs,
	.bin_attrs = fabtel_link_bin_attrs,
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
		if (d->dscp_read) {
			n += sysfs_emit_at(buf, n, "dscp_prio ");
			n = fabtel_dscp_emit(d, buf, n);
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

/*
 * The netdev's byte counters at read time, as its statistics/ files give
 * them (net-sysfs.c: alive, then dev_get_stats, which must not sleep).
 */
static bool fabtel_snapshot_ndev_bytes(struct net_device *ndev, u64 *rx, u64 *tx)
{
	struct rtnl_link_stats64 st;
	bool alive;

	if (!ndev)
		return false;
	rcu_read_lock();
	alive = READ_ONCE(ndev->reg_state) <= NETREG_REGISTERED;
	if (alive) {
		dev_get_stats(ndev, &st);
		*rx = st.rx_bytes;
		*tx = st.tx_bytes;
	}
	rcu_read_unlock();
	return alive;
}

static ssize_t snapshot_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct fabtel_port *p = kobj_to_port(kobj);
	struct net_device *ndev = fabtel_port_netdev_get(p);
	bool bytes;
	u64 rx, tx;
	int n;

	bytes = fabtel_snapshot_ndev_bytes(ndev, &rx, &tx);
	spin_lock(&p->lock);
	n = sysfs_emit(buf, "fabtel-snapshot %d\ndevice %s\nport %u\ndriver %s\n",
		       FABTEL_SCHEMA_VERSION, dev_name(&p->fdev->ibdev->dev),
		       p->num, p->fdev->vendor->name);
	if (ndev)
		n += sysfs_emit_at(buf, n, "netdev %s\nnetdev_ifindex %d\n",
				   p->ndev_name, ndev->ifindex);
	else
		n += sysfs_emit_at(buf, n, "netdev -\nnetdev_ifindex -\n");
	if (bytes)
		n += sysfs_emit_at(buf, n, "netdev_rx_bytes %llu\nnetdev_tx_bytes %llu\n",
				   rx, tx);
	else
		n += sysfs_emit_at(buf, n, "netdev_rx_bytes -\nnetdev_tx_bytes -\n");
	n = fabtel_snapshot_counters(p, buf, n);
	n = fabtel_snapshot_link(p, ndev, buf, n);
	n = fabtel_rec_snapshot(p, buf, n);
	n = fabtel_snapshot_dcb(p, buf, n);
	n = fabtel_pma_snapshot(p, buf, n);
	n = fabtel_phy_snapshot(p, buf, n);
	n = fabtel_rd_snapshot(p, buf, n);
	n = fabtel_lag_snapshot(p, buf, n);
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
	&fabtel_attr_optics.attr,
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

	fabtel_optics_free(p);
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
