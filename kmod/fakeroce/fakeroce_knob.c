// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - typed debugfs knobs.
 *
 * Each file stands for one value of a device and has the file operations
 * of its type: a number (a u64 total where "N" sets and "+N" adds, a u8
 * from a set of values, a raw u16 word, an unsigned int) or one u8 per
 * priority.  Values are read as decimal text under the device lock; a write
 * is taken whole (at offset 0, shorter than FAKEROCE_KNOB_BUF, blanks
 * around it ignored), checked, then applied under the lock, or refused with
 * -EINVAL (or the parser's error) and nothing changes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "fakeroce.h"
#include "fakeroce_knob.h"

/* ---- the pool ------------------------------------------------------------ */

int fakeroce_knobs_alloc(struct fakeroce_dev *fdev, unsigned int n)
{
	fdev->knobs = kcalloc(n, sizeof(*fdev->knobs), GFP_KERNEL);
	if (!fdev->knobs)
		return -ENOMEM;
	fdev->nr_knobs = 0;
	fdev->max_knobs = n;
	return 0;
}

/* After debugfs_remove_recursive(): no file uses a knob any more. */
void fakeroce_knobs_free(struct fakeroce_dev *fdev)
{
	kfree(fdev->knobs);
	fdev->knobs = NULL;
	fdev->nr_knobs = 0;
	fdev->max_knobs = 0;
}

/* The next knob of the pool, a copy of @tmpl, whole before its file is. */
static struct fakeroce_knob *
fakeroce_knob_add(struct fakeroce_dev *fdev, struct dentry *dir,
		  const char *name, umode_t mode,
		  const struct fakeroce_knob *tmpl,
		  const struct file_operations *fops)
{
	struct fakeroce_knob *knob;

	if (WARN_ON(fdev->nr_knobs == fdev->max_knobs))
		return NULL;
	knob = &fdev->knobs[fdev->nr_knobs++];
	*knob = *tmpl;
	knob->fdev = fdev;
	debugfs_create_file(name, mode, dir, knob, fops);
	return knob;
}

struct fakeroce_knob *fakeroce_knob_file(struct fakeroce_dev *fdev,
					 struct dentry *dir, const char *name,
					 umode_t mode, void *val,
					 unsigned int idx,
					 const struct file_operations *fops)
{
	const struct fakeroce_knob tmpl = {
		.val = val,
		.idx = idx,
	};

	return fakeroce_knob_add(fdev, dir, name, mode, &tmpl, fops);
}

/* ---- text in and out ----------------------------------------------------- */

/* The text written, blanks trimmed, in @buf; or an ERR_PTR(). */
char *fakeroce_knob_input(char *buf, size_t size, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	if (*ppos != 0 || count == 0 || count >= size)
		return ERR_PTR(-EINVAL);
	if (copy_from_user(buf, ubuf, count))
		return ERR_PTR(-EFAULT);
	buf[count] = '\0';
	return strim(buf);
}

/* "N" sets, "+N" adds; N decimal u64. */
int fakeroce_knob_parse(char *s, u64 *val, bool *add)
{
	*add = *s == '+';
	if (*add)
		s++;
	if (!isdigit(*s))
		return -EINVAL;
	return kstrtou64(s, 10, val);
}

/* The text written, taken whole and parsed as "N" or "+N". */
int fakeroce_knob_input_u64(const char __user *ubuf, size_t count,
			    loff_t *ppos, u64 *val, bool *add)
{
	char buf[FAKEROCE_KNOB_BUF];
	char *s;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	return fakeroce_knob_parse(s, val, add);
}

ssize_t fakeroce_knob_emit(char __user *ubuf, size_t count, loff_t *ppos,
			   u64 val)
{
	char buf[FAKEROCE_KNOB_BUF];
	int len;

	len = scnprintf(buf, sizeof(buf), "%llu\n", val);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* A write taken whole. */
ssize_t fakeroce_knob_done(size_t count, loff_t *ppos)
{
	*ppos += count;
	return count;
}

/* ---- numbers: u64, u8, u16, unsigned int --------------------------------- */

/* The field, of knob->width bytes, under the device lock. */
static u64 fakeroce_num_load(const struct fakeroce_knob *knob)
{
	switch (knob->width) {
	case sizeof(u8):
		return *(u8 *)knob->val;
	case sizeof(u16):
		return *(u16 *)knob->val;
	case sizeof(unsigned int):
		return *(unsigned int *)knob->val;
	default:
		return *(u64 *)knob->val;
	}
}

/* @val, which the field holds, into it, under the device lock. */
static void fakeroce_num_store(struct fakeroce_knob *knob, u64 val)
{
	switch (knob->width) {
	case sizeof(u8):
		*(u8 *)knob->val = val;
		break;
	case sizeof(u16):
		*(u16 *)knob->val = val;
		break;
	case sizeof(unsigned int):
		*(unsigned int *)knob->val = val;
		break;
	default:
		*(u64 *)knob->val = val;
		break;
	}
}

static bool fakeroce_u8_allowed(const u8 *allowed, u64 val)
{
	if (!allowed)
		return true;
	for (; *allowed; allowed++)
		if (*allowed == val)
			return true;
	return false;
}

/*
 * Narrower than a u64: "N" only, that the field holds, one allowed and no
 * more than the limit.
 */
static bool fakeroce_num_valid(const struct fakeroce_knob *knob, u64 val,
			       bool add)
{
	if (knob->width == sizeof(u64))
		return true;
	return !add && val <= BIT_ULL(knob->width * BITS_PER_BYTE) - 1 &&
	       fakeroce_u8_allowed(knob->allowed, val) &&
	       (!knob->limit || val <= knob->limit);
}

static ssize_t fakeroce_num_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	u64 val;

	spin_lock(&knob->fdev->lock);
	val = fakeroce_num_load(knob);
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_emit(ubuf, count, ppos, val);
}

static ssize_t fakeroce_num_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	bool add;
	u64 val;
	int err;

	err = fakeroce_knob_input_u64(ubuf, count, ppos, &val, &add);
	if (err)
		return err;
	if (!fakeroce_num_valid(knob, val, add))
		return -EINVAL;
	if (knob->set) {
		knob->set(knob->fdev, knob->idx, val, add);
	} else {
		spin_lock(&knob->fdev->lock);
		if (add)
			val += fakeroce_num_load(knob);
		fakeroce_num_store(knob, val);
		spin_unlock(&knob->fdev->lock);
	}
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_num_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_num_read,
	.write = fakeroce_num_write,
	.llseek = default_llseek,
};

void fakeroce_knob_u64(struct fakeroce_dev *fdev, struct dentry *dir,
		       const char *name, u64 *val)
{
	fakeroce_knob_u64_set(fdev, dir, name, val, 0, NULL);
}

void fakeroce_knob_u64_set(struct fakeroce_dev *fdev, struct dentry *dir,
			   const char *name, u64 *val, unsigned int idx,
			   fakeroce_knob_set_fn set)
{
	const struct fakeroce_knob tmpl = {
		.val = val,
		.width = sizeof(*val),
		.idx = idx,
		.set = set,
	};

	fakeroce_knob_add(fdev, dir, name, 0600, &tmpl, &fakeroce_num_fops);
}

void fakeroce_knob_u8(struct fakeroce_dev *fdev, struct dentry *dir,
		      const char *name, u8 *val, const u8 *allowed)
{
	const struct fakeroce_knob tmpl = {
		.val = val,
		.width = sizeof(*val),
		.allowed = allowed,
	};

	fakeroce_knob_add(fdev, dir, name, 0600, &tmpl, &fakeroce_num_fops);
}

void fakeroce_knob_u16(struct fakeroce_dev *fdev, struct dentry *dir,
		       const char *name, u16 *val)
{
	const struct fakeroce_knob tmpl = {
		.val = val,
		.width = sizeof(*val),
	};

	fakeroce_knob_add(fdev, dir, name, 0600, &tmpl, &fakeroce_num_fops);
}

void fakeroce_knob_uint(struct fakeroce_dev *fdev, struct dentry *dir,
			const char *name, unsigned int *val)
{
	fakeroce_knob_uint_max(fdev, dir, name, val, 0);
}

void fakeroce_knob_uint_max(struct fakeroce_dev *fdev, struct dentry *dir,
			    const char *name, unsigned int *val,
			    unsigned int limit)
{
	const struct fakeroce_knob tmpl = {
		.val = val,
		.width = sizeof(*val),
		.limit = limit,
	};

	fakeroce_knob_add(fdev, dir, name, 0600, &tmpl, &fakeroce_num_fops);
}

/* ---- one u8 per priority ------------------------------------------------- */

/* Exactly FAKEROCE_NUM_PRIO numbers, each <= max, separated by blanks. */
static int fakeroce_parse_u8_array(char *s, u8 *out, u8 max)
{
	unsigned int n = 0;
	char *tok;
	int err;

	while ((tok = strsep(&s, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (n == FAKEROCE_NUM_PRIO)
			return -EINVAL;
		err = kstrtou8(tok, 10, &out[n]);
		if (err)
			return err;
		if (out[n] > max)
			return -EINVAL;
		n++;
	}
	return n == FAKEROCE_NUM_PRIO ? 0 : -EINVAL;
}

static ssize_t fakeroce_u8_array_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_KNOB_BUF];
	u8 a[FAKEROCE_NUM_PRIO];
	int len;

	spin_lock(&knob->fdev->lock);
	memcpy(a, knob->val, sizeof(a));
	spin_unlock(&knob->fdev->lock);
	len = scnprintf(buf, sizeof(buf), "%u %u %u %u %u %u %u %u\n",
			a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t fakeroce_u8_array_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_KNOB_BUF];
	u8 a[FAKEROCE_NUM_PRIO];
	char *s;
	int err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = fakeroce_parse_u8_array(s, a, knob->max);
	if (err)
		return err;
	if (knob->valid && !knob->valid(a))
		return -EINVAL;
	spin_lock(&knob->fdev->lock);
	memcpy(knob->val, a, sizeof(a));
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_u8_array_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_u8_array_read,
	.write = fakeroce_u8_array_write,
	.llseek = default_llseek,
};

void fakeroce_knob_u8_array(struct fakeroce_dev *fdev, struct dentry *dir,
			    const char *name, u8 *val, u8 max,
			    bool (*valid)(const u8 *a))
{
	const struct fakeroce_knob tmpl = {
		.val = val,
		.max = max,
		.valid = valid,
	};

	fakeroce_knob_add(fdev, dir, name, 0600, &tmpl,
			  &fakeroce_u8_array_fops);
}
