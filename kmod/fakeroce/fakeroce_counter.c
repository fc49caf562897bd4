// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - QP counter sets, the driver side of `rdma statistic qp`.
 *
 * As mlx5_ib's q-counters: ib_core makes an rdma_counter (in auto mode when
 * a QP goes RESET->INIT, or on `rdma statistic qp bind`) and asks the
 * driver to bind QPs to it; the driver gives the counter an id of its own,
 * one of counter_limit sets (debugfs; when none is free the bind fails with
 * -ENOSPC, as a NIC out of q-counters, and in auto mode the QP silently
 * stays on the port's default set).  Each set keeps the values of the
 * personality's hw_counters, in the port's order, for the QPs bound to it:
 * an error a QP makes (debugfs qp_errors) goes to its set if it has one,
 * else to the port's default values, which get_hw_stats reports.  ib_core
 * shows the port as default + running sets + sets freed ("history"), so a
 * bound QP's error is counted once, in both its counter and the port.
 *
 * Locking: the sets (fdev->counter_sets) and qp->counter are written under
 * fdev->lock, so a debugfs writer that sees a QP bound sees its set alive:
 * ib_core frees a counter only after the last QP was unbound from it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <net/ipv6.h>
#include <rdma/rdma_counter.h>

#include "fakeroce.h"
#include "fakeroce_knob.h"

/* One set: the values of the personality's counters, in the port's order. */
struct fakeroce_counter_set {
	u64 values[FAKEROCE_MAX_COUNTERS];
};

/* counter_limit, counters_in_use, qp_errors, qp_peer */
#define FAKEROCE_NUM_COUNTER_KNOBS	4

/* "QPN NAME DELTA" fits, with a bnxt_re name and a 20-digit DELTA. */
#define FAKEROCE_QP_ERRORS_BUF	128

static struct fakeroce_dev *fakeroce_from_counter(struct rdma_counter *c)
{
	return fakeroce_from_ib(c->device);
}

/* ---- ib_device ops ------------------------------------------------------- */

/* The same descs and count as the port's: ib_core adds them index by index. */
static struct rdma_hw_stats *
fakeroce_counter_alloc_stats(struct rdma_counter *counter)
{
	const struct fakeroce_personality *pers =
		fakeroce_from_counter(counter)->pers;

	return rdma_alloc_hw_stats_struct(pers->descs, pers->num_counters,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/* A free set for @counter: its id in [1, counter_limit], or -ENOSPC. */
static int fakeroce_counter_set_alloc(struct fakeroce_dev *fdev,
				      struct rdma_counter *counter)
{
	struct fakeroce_counter_set *set;
	unsigned int limit;
	u32 id;
	int err;

	spin_lock(&fdev->lock);
	limit = fdev->counter_limit;
	spin_unlock(&fdev->lock);
	if (!limit)
		return -ENOSPC;

	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	/* No QP points at the id yet: no writer can look for it. */
	err = xa_alloc(&fdev->counter_sets, &id, set, XA_LIMIT(1, limit),
		       GFP_KERNEL);
	if (err) {
		kfree(set);
		return err == -EBUSY ? -ENOSPC : err;
	}
	spin_lock(&fdev->lock);
	fdev->nr_counter_sets++;
	spin_unlock(&fdev->lock);
	counter->id = id;
	return 0;
}

/* Under counter->lock; ib_core has checked that @qp has no counter. */
static int fakeroce_counter_bind_qp(struct rdma_counter *counter,
				    struct ib_qp *qp)
{
	struct fakeroce_dev *fdev = fakeroce_from_counter(counter);
	int err;

	if (!counter->id) {
		err = fakeroce_counter_set_alloc(fdev, counter);
		if (err)
			return err;
	}
	spin_lock(&fdev->lock);
	WRITE_ONCE(qp->counter, counter);
	spin_unlock(&fdev->lock);
	return 0;
}

/* The QP goes back to the port's default set. */
static int fakeroce_counter_unbind_qp(struct ib_qp *qp)
{
	struct fakeroce_dev *fdev = fakeroce_from_ib(qp->device);

	spin_lock(&fdev->lock);
	WRITE_ONCE(qp->counter, NULL);
	spin_unlock(&fdev->lock);
	return 0;
}

/* After its last QP was unbound and its values went to ib_core's history. */
static int fakeroce_counter_dealloc(struct rdma_counter *counter)
{
	struct fakeroce_dev *fdev = fakeroce_from_counter(counter);
	struct fakeroce_counter_set *set;

	if (!counter->id)
		return 0;
	spin_lock(&fdev->lock);
	set = xa_erase(&fdev->counter_sets, counter->id);
	if (set)
		fdev->nr_counter_sets--;
	spin_unlock(&fdev->lock);
	kfree(set);
	return 0;
}

/* Under counter->lock: the set's values, as a QUERY_Q_COUNTER would. */
static int fakeroce_counter_update_stats(struct rdma_counter *counter)
{
	struct fakeroce_dev *fdev = fakeroce_from_counter(counter);
	struct rdma_hw_stats *stats = counter->stats;
	unsigned int n = min_t(unsigned int, stats->num_counters,
			       fdev->pers->num_counters);
	struct fakeroce_counter_set *set;

	/* a firmware command on mlx5: a refusal leaves ib_core the last values */
	if (fakeroce_fw_call(fdev, FAKEROCE_FW_Q_COUNTER))
		return -EIO;
	spin_lock(&fdev->lock);
	set = xa_load(&fdev->counter_sets, counter->id);
	if (set)
		memcpy(stats->value, set->values, n * sizeof(stats->value[0]));
	else
		memset(stats->value, 0, n * sizeof(stats->value[0]));
	spin_unlock(&fdev->lock);
	return 0;
}

/* Same signatures in 6.1 and 6.12. */
const struct ib_device_ops fakeroce_counter_ops = {
	.counter_alloc_stats = fakeroce_counter_alloc_stats,
	.counter_bind_qp = fakeroce_counter_bind_qp,
	.counter_dealloc = fakeroce_counter_dealloc,
	.counter_unbind_qp = fakeroce_counter_unbind_qp,
	.counter_update_stats = fakeroce_counter_update_stats,
};

/* ---- errors of one QP ---------------------------------------------------- */

/*
 * @delta more of counter @idx for @qp: in its counter's set if it is bound
 * to one, else in the port's default values; wrapping at the counter's
 * width.  The caller keeps @qp alive (the QP list lock).
 */
void fakeroce_counter_qp_add(struct fakeroce_dev *fdev, struct ib_qp *qp,
			     unsigned int idx, u64 delta)
{
	struct fakeroce_counter_set *set = NULL;
	struct rdma_counter *counter;
	u64 *val;

	spin_lock(&fdev->lock);
	counter = qp->counter;
	if (counter)
		set = xa_load(&fdev->counter_sets, counter->id);
	val = set ? &set->values[idx] : &fdev->values[idx];
	*val = (*val + delta) & fakeroce_counter_mask(fdev, idx);
	spin_unlock(&fdev->lock);
}

void fakeroce_counters_init(struct fakeroce_dev *fdev)
{
	xa_init_flags(&fdev->counter_sets, XA_FLAGS_ALLOC1);
	fdev->counter_limit = FAKEROCE_COUNTER_LIMIT;
	fdev->nr_counter_sets = 0;
}

/* After the QPs are destroyed: ib_core has released every counter. */
void fakeroce_counters_destroy(struct fakeroce_dev *fdev)
{
	WARN_ON(!xa_empty(&fdev->counter_sets));
	xa_destroy(&fdev->counter_sets);
}

/* ---- debugfs: counter_limit, counters_in_use, qp_errors ------------------ */

static ssize_t fakeroce_in_use_read(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	struct fakeroce_dev *fdev = knob->fdev;
	unsigned int n;

	spin_lock(&fdev->lock);
	n = fdev->nr_counter_sets;
	spin_unlock(&fdev->lock);
	return fakeroce_knob_emit(ubuf, count, ppos, n);
}

static const struct file_operations fakeroce_in_use_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_in_use_read,
	.llseek = default_llseek,
};

/* The index of the personality's counter called @name, or -EINVAL. */
static int fakeroce_counter_index(struct fakeroce_dev *fdev, const char *name)
{
	const struct fakeroce_personality *pers = fdev->pers;
	unsigned int i;

	for (i = 0; i < pers->num_counters; i++)
		if (!strcmp(pers->descs[i].name, name))
			return i;
	return -EINVAL;
}

/* s cut into exactly n words (spaces or tabs between), or -EINVAL */
static int fakeroce_words(char *s, char **word, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!s)
			return -EINVAL;
		s = skip_spaces(s);
		word[i] = strsep(&s, " \t");
		if (!*word[i])
			return -EINVAL;
	}
	return s && *skip_spaces(s) ? -EINVAL : 0;
}

/* "QPN NAME DELTA": three words, decimal QPN and DELTA, nothing more. */
static int fakeroce_qp_errors_parse(struct fakeroce_dev *fdev, char *s,
				    u32 *qpn, int *idx, u64 *delta)
{
	char *word[3];
	int err;

	if (fakeroce_words(s, word, ARRAY_SIZE(word)))
		return -EINVAL;
	err = kstrtou32(word[0], 10, qpn);
	if (err)
		return -EINVAL;
	*idx = fakeroce_counter_index(fdev, word[1]);
	if (*idx < 0)
		return -EINVAL;
	return kstrtou64(word[2], 10, delta) ? -EINVAL : 0;
}

static ssize_t fakeroce_qp_errors_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_QP_ERRORS_BUF];
	u64 delta;
	u32 qpn;
	char *s;
	int idx, err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = fakeroce_qp_errors_parse(knob->fdev, s, &qpn, &idx, &delta);
	if (err)
		return err;
	err = fakeroce_qp_errors_add(knob->fdev, qpn, idx, delta);
	if (err)
		return err;
	return fakeroce_knob_done(count, ppos);
}

/* Write-only: a read fails with EINVAL. */
static const struct file_operations fakeroce_qp_errors_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = fakeroce_qp_errors_write,
	.llseek = default_llseek,
};

/*
 * "QPN ADDR": a decimal QPN and the peer's IPv4 (its IPv4-mapped GID, as
 * RoCEv2 has it) or IPv6 address, nothing more.
 */
static int fakeroce_qp_peer_parse(char *s, u32 *qpn, union ib_gid *gid)
{
	char *word[2];
	__be32 v4;

	if (fakeroce_words(s, word, ARRAY_SIZE(word)) || kstrtou32(word[0], 10, qpn))
		return -EINVAL;
	if (in4_pton(word[1], -1, (u8 *)&v4, '\0', NULL)) {
		ipv6_addr_set_v4mapped(v4, (struct in6_addr *)gid->raw);
		return 0;
	}
	return in6_pton(word[1], -1, gid->raw, '\0', NULL) ? 0 : -EINVAL;
}

static ssize_t fakeroce_qp_peer_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_QP_ERRORS_BUF];
	union ib_gid gid;
	u32 qpn;
	char *s;
	int err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = fakeroce_qp_peer_parse(s, &qpn, &gid);
	if (err)
		return err;
	err = fakeroce_qp_peer_set(knob->fdev, qpn, &gid);
	if (err)
		return err;
	return fakeroce_knob_done(count, ppos);
}

/* Write-only, as qp_errors. */
static const struct file_operations fakeroce_qp_peer_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = fakeroce_qp_peer_write,
	.llseek = default_llseek,
};

/* How many knobs fakeroce_counter_debugfs_add() takes from the pool. */
unsigned int fakeroce_counter_debugfs_knobs(struct fakeroce_dev *fdev)
{
	return fdev->pers->qp_counters ? FAKEROCE_NUM_COUNTER_KNOBS : 2;
}

/* qp_errors and qp_peer for every personality; the sets' knobs where there are sets. */
void fakeroce_counter_debugfs_add(struct fakeroce_dev *fdev)
{
	struct dentry *dir = fdev->debugfs_dir;

	fakeroce_knob_file(fdev, dir, "qp_errors", 0200, NULL, 0,
			   &fakeroce_qp_errors_fops);
	fakeroce_knob_file(fdev, dir, "qp_peer", 0200, NULL, 0,
			   &fakeroce_qp_peer_fops);
	if (!fdev->pers->qp_counters)
		return;
	fakeroce_knob_uint_max(fdev, dir, "counter_limit", &fdev->counter_limit,
			       FAKEROCE_MAX_COUNTER_LIMIT);
	fakeroce_knob_file(fdev, dir, "counters_in_use", 0400, NULL, 0,
			   &fakeroce_in_use_fops);
}
