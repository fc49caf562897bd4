// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - kernel log lines in a real driver's shapes, for the readers
 * of /dev/kmsg (fabteld's driver messages).
 *
 * A record userspace writes to /dev/kmsg gets a user facility, and a reader
 * that trusts only the kernel's own records (facility 0) drops it.  So the
 * lines come from here: each line written to debugfs <ID>/kmsg is
 *
 *   LEVEL[*COUNT] TEXT
 *
 * LEVEL 0-7 (KERN_EMERG .. KERN_DEBUG), COUNT copies (default 1, at most
 * 1000000), TEXT as the kernel log is to show it.  Each copy is one record
 * with the platform device fakeroce.<ID>'s dictionary (SUBSYSTEM=platform,
 * DEVICE=+platform:fakeroce.<ID>), as dev_printk gives it, but with no
 * prefix of its own: the text carries the driver's prefix it imitates
 * ("mlx5_core fakeroce.0: ...").  The lab's kernel-trouble check leaves
 * records of that dictionary out (scripts/lab/kernel-log).  A malformed
 * line refuses the whole write with -EINVAL before anything is logged;
 * each write stands alone, whatever the file offset.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/platform_device.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fakeroce.h"
#include "fakeroce_knob.h"

#define FAKEROCE_KMSG_BUF	4096
#define FAKEROCE_KMSG_MAX_COUNT	1000000

/* "LEVEL[*COUNT] TEXT" of one line: its text, or an ERR_PTR */
static char *fakeroce_kmsg_line(char *line, int *level, unsigned int *count)
{
	char *text = strchr(line, ' ');
	char *star;

	if (!text || text == line)
		return ERR_PTR(-EINVAL);
	*text++ = '\0';
	star = strchr(line, '*');
	*count = 1;
	if (star) {
		*star++ = '\0';
		if (kstrtouint(star, 10, count) || !*count || *count > FAKEROCE_KMSG_MAX_COUNT)
			return ERR_PTR(-EINVAL);
	}
	if (kstrtoint(line, 10, level) || *level < 0 || *level > 7 || !*text)
		return ERR_PTR(-EINVAL);
	for (star = text; *star; star++)	/* printk would take KERN_SOH as a level */
		if ((unsigned char)*star < 0x20)
			return ERR_PTR(-EINVAL);
	return text;
}

/* each line of @buf (consumed) logged, or only checked when !@emit */
static int fakeroce_kmsg_lines(struct fakeroce_dev *fdev, char *buf, bool emit)
{
	char *next = buf, *line, *text;
	unsigned int count, i;
	int level;

	while ((line = strsep(&next, "\n"))) {
		if (!*line)
			continue;
		text = fakeroce_kmsg_line(line, &level, &count);
		if (IS_ERR(text))
			return PTR_ERR(text);
		for (i = 0; emit && i < count; i++) {
			if (fatal_signal_pending(current))
				return -EINTR;
			dev_printk_emit(level, &fdev->pdev->dev, "%s\n", text);
			cond_resched();
		}
	}
	return 0;
}

static ssize_t fakeroce_kmsg_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char *buf, *check;
	int err;

	/* each write stands alone (bash writes a line at a time): no offset */
	if (count == 0 || count >= FAKEROCE_KMSG_BUF)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (strlen(buf) != count) {	/* a NUL inside: the text would be cut */
		kfree(buf);
		return -EINVAL;
	}
	check = kstrdup(buf, GFP_KERNEL);
	err = check ? fakeroce_kmsg_lines(knob->fdev, check, false) : -ENOMEM;
	if (!err)
		fakeroce_kmsg_lines(knob->fdev, buf, true);
	kfree(check);
	kfree(buf);
	return err ? err : fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_kmsg_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = fakeroce_kmsg_write,
	.llseek = default_llseek,
};

void fakeroce_kmsg_debugfs_add(struct fakeroce_dev *fdev)
{
	fakeroce_knob_file(fdev, fdev->debugfs_dir, "kmsg", 0200, NULL, 0, &fakeroce_kmsg_fops);
}
