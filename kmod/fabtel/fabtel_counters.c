// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the counter sampler, and its tables built from the one counter
 * schema (include/fabtel_schema.h: the normalized counters, the per-vendor
 * maps from driver hardware-counter names, Linux 6.1, to them).
 *
 * A normalized counter a vendor has no source for is absent (no sysfs file),
 * never a fake zero.  The exact meaning of every mapping is documented in
 * Documentation/counters.rst; the subtle ones are noted in the schema.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/build_bug.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fabtel.h"

#define FABTEL_CTR_NAME(_id, _name, _width, _unit, _error)	[FABTEL_##_id] = _name,
const char * const fabtel_counter_names[FABTEL_NR_COUNTERS] = {
	FABTEL_COUNTERS(FABTEL_CTR_NAME)
};

/* Counters whose rise between two samples is an error-burst event. */
#define FABTEL_CTR_ERROR(_id, _name, _width, _unit, _error)	[FABTEL_##_id] = _error,
static const bool fabtel_counter_is_error[FABTEL_NR_COUNTERS] = {
	FABTEL_COUNTERS(FABTEL_CTR_ERROR)
};

/* The vendor maps and mlx5's 32-bit counters, from the schema. */
#define FABTEL_MAP_ENTRY(_id, _hw, _width)	{ FABTEL_##_id, _hw },
#define FABTEL_MAP_TABLE(_v, _drv, _map)				\
	static const struct fabtel_map_entry fabtel_map_##_v[] = {	\
		_map(FABTEL_MAP_ENTRY)					\
	};
FABTEL_VENDORS(FABTEL_MAP_TABLE)

#define FABTEL_WRAP32_NAME(_hw)	_hw,
static const char * const fabtel_wrap32_mlx5[] = {
	FABTEL_WRAP32_MLX5(FABTEL_WRAP32_NAME)
};

#define FABTEL_VENDOR(_v, _drv, _map) {				\
	.name = _drv, .driver_id = RDMA_DRIVER_##_v,			\
	.map = fabtel_map_##_v,						\
	.map_len = ARRAY_SIZE(fabtel_map_##_v),				\
},

static const struct fabtel_vendor fabtel_vendors[] = {
	FABTEL_VENDORS(FABTEL_VENDOR)
};

/* the vendors whose hw_counters hold 32-bit values: mlx5 */
static void fabtel_vendor_wrap32(const struct fabtel_vendor *v,
				 const char * const **names, unsigned int *n)
{
	*names = NULL;
	*n = 0;
	if (v->driver_id == RDMA_DRIVER_MLX5) {
		*names = fabtel_wrap32_mlx5;
		*n = ARRAY_SIZE(fabtel_wrap32_mlx5);
	}
}

/* Devices of other drivers still get raw counters, but no normalized ones. */
static const struct fabtel_vendor fabtel_vendor_unknown = {
	.name = "unknown",
	.driver_id = RDMA_DRIVER_UNKNOWN,
};

const struct fabtel_vendor *fabtel_vendor_find(enum rdma_driver_id id)
{
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(fabtel_counter_names) != FABTEL_NR_COUNTERS);
	BUILD_BUG_ON(ARRAY_SIZE(fabtel_counter_is_error) != FABTEL_NR_COUNTERS);

	for (i = 0; i < ARRAY_SIZE(fabtel_vendors); i++)
		if (fabtel_vendors[i].driver_id == id)
			return &fabtel_vendors[i];
	return &fabtel_vendor_unknown;
}

static int fabtel_stat_index(const struct rdma_hw_stats *stats, const char *name)
{
	int i;

	for (i = 0; i < stats->num_counters; i++)
		if (stats->descs[i].name && !strcmp(stats->descs[i].name, name))
			return i;
	return -1;
}

/* Map the driver's counters; allocate what the sampler needs. */
int fabtel_counters_init(struct fabtel_port *p)
{
	const struct fabtel_vendor *v = p->fdev->vendor;
	struct ib_device *ibdev = p->fdev->ibdev;
	const char * const *wrap32;
	unsigned int i, n, nwrap32;
	int idx;

	for (i = 0; i < FABTEL_NR_COUNTERS; i++)
		p->src[i] = -1;
	if (!ibdev->ops.alloc_hw_port_stats || !ibdev->ops.get_hw_stats)
		return 0;	/* a device without counters: all absent */

	p->stats = ibdev->ops.alloc_hw_port_stats(ibdev, p->num);
	if (!p->stats)
		return -ENOMEM;
	n = p->stats->num_counters;
	p->raw = kcalloc(n, sizeof(*p->raw), GFP_KERNEL);
	p->ext = kcalloc(n, sizeof(*p->ext), GFP_KERNEL);
	p->last32 = kcalloc(n, sizeof(*p->last32), GFP_KERNEL);
	p->is_wrap32 = bitmap_zalloc(n, GFP_KERNEL);
	p->disabled = bitmap_zalloc(n, GFP_KERNEL);
	if (!p->raw || !p->ext || !p->last32 || !p->is_wrap32 || !p->disabled) {
		fabtel_counters_exit(p);
		return -ENOMEM;
	}

	for (i = 0; i < v->map_len; i++) {
		idx = fabtel_stat_index(p->stats, v->map[i].src);
		if (idx >= 0)
			p->src[v->map[i].ctr] = idx;
	}
	fabtel_vendor_wrap32(v, &wrap32, &nwrap32);
	for (i = 0; i < nwrap32; i++) {
		idx = fabtel_stat_index(p->stats, wrap32[i]);
		if (idx >= 0)
			__set_bit(idx, p->is_wrap32);
	}
	return 0;
}

void fabtel_counters_exit(struct fabtel_port *p)
{
	bitmap_free(p->disabled);
	bitmap_free(p->is_wrap32);
	kfree(p->last32);
	kfree(p->ext);
	kfree(p->raw);
	if (p->stats)
		rdma_free_hw_stats_struct(p->stats);
	p->is_wrap32 = p->disabled = NULL;
	p->last32 = NULL;
	p->ext = p->raw = NULL;
	p->stats = NULL;
}

/* Append an error-burst event; the oldest is dropped (and counted) if full. */
static void fabtel_event_add(struct fabtel_port *p, enum fabtel_counter ctr,
			     u64 delta, u64 now)
{
	struct fabtel_event *e;

	if (p->ev_len == FABTEL_EVENTS_LEN) {
		p->ev_head = (p->ev_head + 1) % FABTEL_EVENTS_LEN;
		p->ev_len--;
		p->ev_dropped++;
	}
	e = &p->events[(p->ev_head + p->ev_len) % FABTEL_EVENTS_LEN];
	p->ev_len++;
	e->seq = ++p->ev_seq;
	e->boot_ns = now;
	e->ctr = ctr;
	e->delta = delta;
}

/*
 * A 32-bit counter that went down: a wrap if the modular difference is a
 * rise any NIC could make in the time since the last sample, else a reset
 * (firmware or driver reset: the counter counts again from 0).  The limit,
 * 2^31 events a second, is over three times a 400G port's packet rate in
 * minimum-size frames; reading a reset as a wrap would add up to 2^32
 * events at once.
 */
#define FABTEL_WRAP_MAX_PER_S	(1ULL << 31)

static bool fabtel_counter_was_reset(u32 diff, u64 elapsed_ns)
{
	return div64_u64((u64)diff * NSEC_PER_SEC, max_t(u64, elapsed_ns, 1)) >
	       FABTEL_WRAP_MAX_PER_S;
}

/*
 * Fold a fresh copy of the driver values into the port (p->lock held).
 * vals[n] holds the driver's is_disabled bitmap: a disabled counter keeps
 * no value (its files say so) and feeds no event.
 */
static void fabtel_counters_update(struct fabtel_port *p, const u64 *vals,
				   const unsigned long *off, unsigned int n,
				   u64 now)
{
	unsigned int i;
	u32 cur, diff;
	u64 v;

	bitmap_copy(p->disabled, off, n);
	for (i = 0; i < n; i++) {
		p->raw[i] = vals[i];
		if (!test_bit(i, p->is_wrap32)) {
			p->ext[i] = vals[i];
			continue;
		}
		cur = (u32)vals[i];
		diff = cur - p->last32[i];
		if (!p->sampled)
			p->ext[i] = cur;
		else if (cur < p->last32[i] &&
			 fabtel_counter_was_reset(diff, now - p->last_sample_ns))
			p->ext[i] += cur;	/* reset: cur events since */
		else
			p->ext[i] += diff;	/* a rise, or a wrap */
		p->last32[i] = cur;
	}

	for (i = 0; i < FABTEL_NR_COUNTERS; i++) {
		if (p->src[i] < 0 || test_bit(p->src[i], p->disabled))
			continue;
		v = p->ext[p->src[i]];
		if (p->sampled && fabtel_counter_is_error[i] && v > p->norm[i])
			fabtel_event_add(p, i, v - p->norm[i], now);
		p->norm[i] = v;
	}
	p->sampled = true;
	p->samples++;
	p->last_sample_ns = now;
}

/*
 * One get_hw_stats call for the whole port (index = num_counters asks the
 * driver for every counter).  Process context: drivers may sleep here.  On
 * an error the sample is skipped and counted, the old values stay, and the
 * next read waits for the back-off (fabtel_backoff.c).
 */
void fabtel_counters_sample(struct fabtel_port *p)
{
	struct ib_device *ibdev = p->fdev->ibdev;
	struct rdma_hw_stats *stats = p->stats;
	u64 now = ktime_get_ns();
	unsigned long *off;
	unsigned int i, n;
	u64 *vals;
	int ret;

	if (!stats || !fabtel_rd_due(p, FABTEL_RD_HW_COUNTERS, now))
		return;
	n = stats->num_counters;
	vals = kmalloc_array(n, sizeof(*vals), GFP_KERNEL);
	off = bitmap_zalloc(n, GFP_KERNEL);
	ret = -ENOMEM;
	if (!vals || !off)
		goto err_free;

	mutex_lock(&stats->lock);
	ret = ibdev->ops.get_hw_stats(ibdev, stats, p->num, n);
	if (ret >= 0) {
		for (i = 0; i < n; i++)
			vals[i] = stats->value[i];
		bitmap_copy(off, stats->is_disabled, n);
	}
	mutex_unlock(&stats->lock);
	if (ret < 0) {
		pr_debug("%s/%u: get_hw_stats: %d\n", dev_name(&ibdev->dev),
			 p->num, ret);
		goto err_free;
	}

	spin_lock(&p->lock);
	fabtel_counters_update(p, vals, off, n, fabtel_now_boot());
	spin_unlock(&p->lock);
	bitmap_free(off);
	kfree(vals);
	fabtel_rd_done(p, FABTEL_RD_HW_COUNTERS, 0, now, 0);
	return;

err_free:
	bitmap_free(off);
	kfree(vals);

	spin_lock(&p->lock);
	p->sample_errors++;
	spin_unlock(&p->lock);
	fabtel_rd_done(p, FABTEL_RD_HW_COUNTERS, ret, now, 0);
}
