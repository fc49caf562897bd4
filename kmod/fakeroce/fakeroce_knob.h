/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fakeroce - typed debugfs knobs: one file per value of a device's state,
 * read as decimal text, written whole and either applied or refused with
 * -EINVAL, leaving the state unchanged (fakeroce_knob.c).
 */
#ifndef _FAKEROCE_KNOB_H
#define _FAKEROCE_KNOB_H

#include <linux/fs.h>
#include <linux/types.h>

struct dentry;
struct fakeroce_dev;

/* A setter that takes the device lock itself: counter, PMA, FEC totals. */
typedef void (*fakeroce_knob_set_fn)(struct fakeroce_dev *fdev,
				     unsigned int idx, u64 val, bool add);

/* A debugfs file's private data: what it reads and writes. */
struct fakeroce_knob {
	struct fakeroce_dev *fdev;
	void *val;		/* the field, of the file's type */
	u8 width;		/* a number: the field's size, 1, 2, 4 or 8 */
	unsigned int limit;	/* unsigned int: the largest value, 0 any */
	unsigned int idx;	/* the index @set or the file takes */
	fakeroce_knob_set_fn set;	/* u64: a setter of its own, or NULL */
	const u8 *allowed;	/* u8: the values taken, 0-ended; NULL any */
	u8 max;			/* u8 array: the largest element */
	bool (*valid)(const u8 *a);	/* u8 array: the whole, or NULL */
};

/* The pool the knobs of one device come from, freed with the device. */
int fakeroce_knobs_alloc(struct fakeroce_dev *fdev, unsigned int n);
void fakeroce_knobs_free(struct fakeroce_dev *fdev);

/* A file of @fops on the next knob of the pool; NULL when it is used up. */
struct fakeroce_knob *fakeroce_knob_file(struct fakeroce_dev *fdev,
					 struct dentry *dir, const char *name,
					 umode_t mode, void *val,
					 unsigned int idx,
					 const struct file_operations *fops);

/* "N" sets, "+N" adds to a u64 under the device lock. */
void fakeroce_knob_u64(struct fakeroce_dev *fdev, struct dentry *dir,
		       const char *name, u64 *val);
/* "N" or "+N", applied by @set(fdev, idx, N, add); read from @val. */
void fakeroce_knob_u64_set(struct fakeroce_dev *fdev, struct dentry *dir,
			   const char *name, u64 *val, unsigned int idx,
			   fakeroce_knob_set_fn set);
/* "N", one of @allowed (0-ended), or any u8 when @allowed is NULL. */
void fakeroce_knob_u8(struct fakeroce_dev *fdev, struct dentry *dir,
		      const char *name, u8 *val, const u8 *allowed);
/* "N", a raw u16 word. */
void fakeroce_knob_u16(struct fakeroce_dev *fdev, struct dentry *dir,
		       const char *name, u16 *val);
/* "N", an unsigned int. */
void fakeroce_knob_uint(struct fakeroce_dev *fdev, struct dentry *dir,
			const char *name, unsigned int *val);
/* "N", an unsigned int no larger than @limit. */
void fakeroce_knob_uint_max(struct fakeroce_dev *fdev, struct dentry *dir,
			    const char *name, unsigned int *val,
			    unsigned int limit);
/* One u8 per priority, blank-separated, each <= @max, and @valid if any. */
void fakeroce_knob_u8_array(struct fakeroce_dev *fdev, struct dentry *dir,
			    const char *name, u8 *val, u8 max,
			    bool (*valid)(const u8 *a));

/* For file operations of their own: the text written, and the answers. */
char *fakeroce_knob_input(char *buf, size_t size, const char __user *ubuf,
			  size_t count, loff_t *ppos);
int fakeroce_knob_parse(char *s, u64 *val, bool *add);
int fakeroce_knob_input_u64(const char __user *ubuf, size_t count,
			    loff_t *ppos, u64 *val, bool *add);
ssize_t fakeroce_knob_emit(char __user *ubuf, size_t count, loff_t *ppos,
			   u64 val);
ssize_t fakeroce_knob_done(size_t count, loff_t *ppos);

#define FAKEROCE_KNOB_BUF	64

#endif /* _FAKEROCE_KNOB_H */
