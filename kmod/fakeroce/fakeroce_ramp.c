// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - counters that rise at a steady rate, as a link's FEC corrected
 * blocks and symbol errors climb before it fails (fabtel.ko's flight
 * recorder is tested with them).
 *
 * debugfs <ID>/ramp, written "GROUP/NAME RATE": GROUP fec or pma, NAME one
 * of that group's counters (fec/corrected_blocks, pma/symbol_error, ...),
 * RATE counts a second, 0 to stop it; "off" stops them all.  A work item
 * every 100 ms adds to each counter what its rate owes since it began, so
 * a reader sees the total climb in steps of 100 ms.  Read, the file lists
 * each ramp as "GROUP/NAME RATE BEGAN_NS ADDED" (BEGAN_NS: CLOCK_BOOTTIME).
 * At most FAKEROCE_NR_RAMPS at once; -EINVAL for anything else, -ENOSPC
 * past them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "fakeroce.h"
#include "fakeroce_knob.h"

#define FAKEROCE_RAMP_MS	100

static u64 *fakeroce_ramp_counter(struct fakeroce_dev *fdev, const struct fakeroce_ramp *r)
{
	return r->group == FAKEROCE_RAMP_FEC ? &fdev->fec[r->idx] : &fdev->pma[r->idx];
}

static void fakeroce_ramp_work(struct work_struct *work)
{
	struct fakeroce_dev *fdev = container_of(to_delayed_work(work), struct fakeroce_dev,
						 ramp_work);
	bool any = false;
	unsigned int i;
	u64 now, owed;

	spin_lock(&fdev->lock);
	now = ktime_get_boottime_ns();	/* after the lock: no ramp began later */
	for (i = 0; i < FAKEROCE_NR_RAMPS; i++) {
		struct fakeroce_ramp *r = &fdev->ramp[i];

		if (!r->group)
			continue;
		any = true;
		if (now <= r->began_ns)
			continue;
		owed = mul_u64_u32_div(now - r->began_ns, r->rate, NSEC_PER_SEC);
		*fakeroce_ramp_counter(fdev, r) += owed - r->added;
		r->added = owed;
	}
	spin_unlock(&fdev->lock);
	if (any)
		schedule_delayed_work(&fdev->ramp_work, msecs_to_jiffies(FAKEROCE_RAMP_MS));
}

/* "GROUP/NAME": the group and the counter's index, or -EINVAL */
static int fakeroce_ramp_parse(const char *s, u8 *group, u8 *idx)
{
	const char *(*name)(unsigned int idx);
	const char *n;
	unsigned int i;

	if (!strncmp(s, "fec/", 4)) {
		*group = FAKEROCE_RAMP_FEC;
		name = fakeroce_fec_name;
	} else if (!strncmp(s, "pma/", 4)) {
		*group = FAKEROCE_RAMP_PMA;
		name = fakeroce_pma_name;
	} else {
		return -EINVAL;
	}
	for (i = 0; (n = name(i)); i++)
		if (!strcmp(n, s + 4)) {
			*idx = i;
			return 0;
		}
	return -EINVAL;
}

/* one ramp set (rate 0: stopped); under the lock */
static int fakeroce_ramp_set(struct fakeroce_dev *fdev, u8 group, u8 idx, u32 rate)
{
	struct fakeroce_ramp *r, *free = NULL;
	unsigned int i;

	for (i = 0; i < FAKEROCE_NR_RAMPS; i++) {
		r = &fdev->ramp[i];
		if (r->group == group && r->idx == idx)
			break;
		if (!r->group && !free)
			free = r;
	}
	r = i < FAKEROCE_NR_RAMPS ? r : free;
	if (!r)
		return rate ? -ENOSPC : 0;
	memset(r, 0, sizeof(*r));
	if (!rate)
		return 0;
	r->group = group;
	r->idx = idx;
	r->rate = rate;
	r->began_ns = ktime_get_boottime_ns();
	return 0;
}

static ssize_t fakeroce_ramp_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct fakeroce_dev *fdev = ((struct seq_file *)file->private_data)->private;
	char buf[FAKEROCE_KNOB_BUF], *s, *rate;
	u8 group, idx;
	u32 r;
	int err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	if (!strcmp(s, "off")) {
		spin_lock(&fdev->lock);
		memset(fdev->ramp, 0, sizeof(fdev->ramp));
		spin_unlock(&fdev->lock);
		return fakeroce_knob_done(count, ppos);
	}
	rate = strchr(s, ' ');
	if (!rate)
		return -EINVAL;
	*rate++ = '\0';
	if (fakeroce_ramp_parse(s, &group, &idx) || kstrtou32(rate, 10, &r))
		return -EINVAL;
	spin_lock(&fdev->lock);
	err = fakeroce_ramp_set(fdev, group, idx, r);
	spin_unlock(&fdev->lock);
	if (err)
		return err;
	if (r)
		mod_delayed_work(system_wq, &fdev->ramp_work, 0);
	return fakeroce_knob_done(count, ppos);
}

static int fakeroce_ramp_show(struct seq_file *m, void *v)
{
	struct fakeroce_dev *fdev = m->private;
	struct fakeroce_ramp rs[FAKEROCE_NR_RAMPS];
	unsigned int i;

	spin_lock(&fdev->lock);
	memcpy(rs, fdev->ramp, sizeof(rs));
	spin_unlock(&fdev->lock);
	for (i = 0; i < FAKEROCE_NR_RAMPS; i++)
		if (rs[i].group)
			seq_printf(m, "%s/%s %u %llu %llu\n",
				   rs[i].group == FAKEROCE_RAMP_FEC ? "fec" : "pma",
				   rs[i].group == FAKEROCE_RAMP_FEC ? fakeroce_fec_name(rs[i].idx) :
				   fakeroce_pma_name(rs[i].idx), rs[i].rate, rs[i].began_ns,
				   rs[i].added);
	return 0;
}

static int fakeroce_ramp_open(struct inode *inode, struct file *file)
{
	struct fakeroce_knob *knob = inode->i_private;

	return single_open(file, fakeroce_ramp_show, knob->fdev);
}

static const struct file_operations fakeroce_ramp_fops = {
	.owner = THIS_MODULE,
	.open = fakeroce_ramp_open,
	.read = seq_read,
	.write = fakeroce_ramp_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void fakeroce_ramp_init(struct fakeroce_dev *fdev)
{
	INIT_DELAYED_WORK(&fdev->ramp_work, fakeroce_ramp_work);
}

void fakeroce_ramp_debugfs_add(struct fakeroce_dev *fdev)
{
	fakeroce_knob_file(fdev, fdev->debugfs_dir, "ramp", 0600, NULL, 0, &fakeroce_ramp_fops);
}

/* After the knobs are gone: the ramps stopped, the work done. */
void fakeroce_ramp_stop(struct fakeroce_dev *fdev)
{
	spin_lock(&fdev->lock);
	memset(fdev->ramp, 0, sizeof(fdev->ramp));
	spin_unlock(&fdev->lock);
	cancel_delayed_work_sync(&fdev->ramp_work);
}
