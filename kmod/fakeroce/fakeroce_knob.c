// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - typed debugfs knobs.
 *
 * Each file stands for one value of a device and has the file operations
 * of its type: a u64 total ("N" sets, "+N" adds), a u8 from a set of
 * values, a raw u16 word, an unsigned int, or one u8 per priority.  Values
 * are read as decimal text under the device lock; a write is taken whole
 * (at offset 0, shorter than FAKEROCE_KNOB_BUF, blanks around it ignored),
 * checked, then applied under the lock, or refused with -EINVAL (or the
 * parser's error) and nothing changes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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

struct fakeroce_knob *fakeroce_knob_file(struct fakeroce_dev *fdev,
					 struct dentry *dir, const char *name,
					 umode_t mode, void *val,
					 unsigned int idx,
					 const struct file_operations *fops)
{
	struct fakeroce_knob *knob;

	if (WARN_ON(fdev->nr_knobs == fdev->max_knobs))
		return NULL;
	knob = &fdev->knobs[fdev->nr_knobs++];
	knob->fdev = fdev;
	knob->val = val;
	knob->idx = idx;
	debugfs_create_file(name, mode, dir, knob, fops);
	return knob;
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

/* "N" only: a number no larger than @max. */
static int fakeroce_knob_parse_set(char *s, u64 *val, u64 max)
{
	bool add;
	int err;

	err = fakeroce_knob_parse(s, val, &add);
	if (err)
		return err;
	return add || *val > max ? -EINVAL : 0;
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

/* ---- u64: totals --------------------------------------------------------- */

static ssize_t fakeroce_u64_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	u64 val;

	spin_lock(&knob->fdev->lock);
	val = *(u64 *)knob->val;
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_emit(ubuf, count, ppos, val);
}

static ssize_t fakeroce_u64_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_KNOB_BUF];
	u64 val, *field = knob->val;
	bool add;
	char *s;
	int err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = fakeroce_knob_parse(s, &val, &add);
	if (err)
		return err;
	if (knob->set) {
		knob->set(knob->fdev, knob->idx, val, add);
	} else {
		spin_lock(&knob->fdev->lock);
		*field = add ? *field + val : val;
		spin_unlock(&knob->fdev->lock);
	}
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_u64_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_u64_read,
	.write = fakeroce_u64_write,
	.llseek = default_llseek,
};

void fakeroce_knob_u64(struct fakeroce_dev *fdev, struct dentry *dir,
		       const char *name, u64 *val)
{
	fakeroce_knob_file(fdev, dir, name, 0600, val, 0, &fakeroce_u64_fops);
}

void fakeroce_knob_u64_set(struct fakeroce_dev *fdev, struct dentry *dir,
			   const char *name, u64 *val, unsigned int idx,
			   fakeroce_knob_set_fn set)
{
	struct fakeroce_knob *knob;

	knob = fakeroce_knob_file(fdev, dir, name, 0600, val, idx,
				  &fakeroce_u64_fops);
	if (knob)
		knob->set = set;
}

/* ---- u8: a value from a set ---------------------------------------------- */

static bool fakeroce_u8_allowed(const u8 *allowed, u64 val)
{
	if (!allowed)
		return true;
	for (; *allowed; allowed++)
		if (*allowed == val)
			return true;
	return false;
}

static ssize_t fakeroce_u8_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	u8 val;

	spin_lock(&knob->fdev->lock);
	val = *(u8 *)knob->val;
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_emit(ubuf, count, ppos, val);
}

static ssize_t fakeroce_u8_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_KNOB_BUF];
	char *s;
	u64 val;
	int err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = fakeroce_knob_parse_set(s, &val, U8_MAX);
	if (err)
		return err;
	if (!fakeroce_u8_allowed(knob->allowed, val))
		return -EINVAL;
	spin_lock(&knob->fdev->lock);
	*(u8 *)knob->val = val;
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_u8_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_u8_read,
	.write = fakeroce_u8_write,
	.llseek = default_llseek,
};

void fakeroce_knob_u8(struct fakeroce_dev *fdev, struct dentry *dir,
		      const char *name, u8 *val, const u8 *allowed)
{
	struct fakeroce_knob *knob;

	knob = fakeroce_knob_file(fdev, dir, name, 0600, val, 0,
				  &fakeroce_u8_fops);
	if (knob)
		knob->allowed = allowed;
}

/* ---- u16: a raw word ----------------------------------------------------- */

static ssize_t fakeroce_u16_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	u16 val;

	spin_lock(&knob->fdev->lock);
	val = *(u16 *)knob->val;
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_emit(ubuf, count, ppos, val);
}

static ssize_t fakeroce_u16_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_KNOB_BUF];
	char *s;
	u64 val;
	int err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = fakeroce_knob_parse_set(s, &val, U16_MAX);
	if (err)
		return err;
	spin_lock(&knob->fdev->lock);
	*(u16 *)knob->val = val;
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_u16_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_u16_read,
	.write = fakeroce_u16_write,
	.llseek = default_llseek,
};

void fakeroce_knob_u16(struct fakeroce_dev *fdev, struct dentry *dir,
		       const char *name, u16 *val)
{
	fakeroce_knob_file(fdev, dir, name, 0600, val, 0, &fakeroce_u16_fops);
}

/* ---- unsigned int -------------------------------------------------------- */

static ssize_t fakeroce_uint_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	unsigned int val;

	spin_lock(&knob->fdev->lock);
	val = *(unsigned int *)knob->val;
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_emit(ubuf, count, ppos, val);
}

static ssize_t fakeroce_uint_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_KNOB_BUF];
	char *s;
	u64 val;
	int err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = fakeroce_knob_parse_set(s, &val, UINT_MAX);
	if (err)
		return err;
	spin_lock(&knob->fdev->lock);
	*(unsigned int *)knob->val = val;
	spin_unlock(&knob->fdev->lock);
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_uint_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_uint_read,
	.write = fakeroce_uint_write,
	.llseek = default_llseek,
};

void fakeroce_knob_uint(struct fakeroce_dev *fdev, struct dentry *dir,
			const char *name, unsigned int *val)
{
	fakeroce_knob_file(fdev, dir, name, 0600, val, 0, &fakeroce_uint_fops);
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
	struct fakeroce_knob *knob;

	knob = fakeroce_knob_file(fdev, dir, name, 0600, val, 0,
				  &fakeroce_u8_array_fops);
	if (knob) {
		knob->max = max;
		knob->valid = valid;
	}
}
