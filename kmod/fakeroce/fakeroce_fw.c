// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - what a reader asks of the NIC's firmware.
 *
 * On a ConnectX-class NIC each PerfMgmt MAD, hw_counters query, module
 * EEPROM page, ethtool statistics dump, FEC statistics, link settings and
 * DCB query is (at least) one command on the firmware's command interface,
 * the same interface the driver needs to create QPs.  fakeroce counts every
 * such driver call per device, per kind, in debugfs fw/commands, and can
 * fail the next N calls of each kind (fw/fail_next_<kind>, a large N fails
 * them persistently) as a restricted or unhealthy firmware does.
 * Documentation/fakeroce.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "fakeroce.h"

static const char * const fakeroce_fw_names[FAKEROCE_FW_NR] = {
	[FAKEROCE_FW_MAD] = "mad",
	[FAKEROCE_FW_HW_STATS] = "hw_stats",
	[FAKEROCE_FW_ETHTOOL_STATS] = "ethtool_stats",
	[FAKEROCE_FW_FEC_STATS] = "fec_stats",
	[FAKEROCE_FW_FECPARAM] = "fecparam",
	[FAKEROCE_FW_KSETTINGS] = "link_ksettings",
	[FAKEROCE_FW_MODULE_EEPROM] = "module_eeprom",
	[FAKEROCE_FW_DCB] = "dcb",
	[FAKEROCE_FW_Q_COUNTER] = "q_counter",
};

/*
 * One driver call of @kind: counted; true when the fail_next_<kind> knob
 * says this one fails (also counted, as failed).
 */
bool fakeroce_fw_call(struct fakeroce_dev *fdev, enum fakeroce_fw_kind kind)
{
	struct fakeroce_fw *fw = &fdev->fw;
	bool fail;

	atomic64_inc(&fw->calls[kind]);
	spin_lock(&fdev->lock);
	fail = fw->fail_next[kind] > 0;
	if (fail)
		fw->fail_next[kind]--;
	spin_unlock(&fdev->lock);
	if (fail) {
		atomic64_inc(&fw->failed[kind]);
		/* as mlx5_core logs each command its firmware fails */
		pr_info("%s: %s: command failed (fault injected)\n",
			dev_name(&fdev->ibdev.dev), fakeroce_fw_names[kind]);
	}
	return fail;
}

/* fw/commands: "KIND CALLS FAILED", one line per kind. */
static int fakeroce_fw_commands_show(struct seq_file *s, void *unused)
{
	struct fakeroce_dev *fdev = s->private;
	unsigned int k;

	for (k = 0; k < FAKEROCE_FW_NR; k++)
		seq_printf(s, "%s %lld %lld\n", fakeroce_fw_names[k],
			   (long long)atomic64_read(&fdev->fw.calls[k]),
			   (long long)atomic64_read(&fdev->fw.failed[k]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fakeroce_fw_commands);

/* fw/fail_next_<kind>: the file's private data. */
struct fakeroce_fw_knob {
	struct fakeroce_dev *fdev;
	enum fakeroce_fw_kind kind;
};

static ssize_t fakeroce_fw_fail_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct fakeroce_fw_knob *knob = file->private_data;
	struct fakeroce_dev *fdev = knob->fdev;
	char buf[16];
	unsigned int v;
	int len;

	spin_lock(&fdev->lock);
	v = fdev->fw.fail_next[knob->kind];
	spin_unlock(&fdev->lock);
	len = scnprintf(buf, sizeof(buf), "%u\n", v);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t fakeroce_fw_fail_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct fakeroce_fw_knob *knob = file->private_data;
	struct fakeroce_dev *fdev = knob->fdev;
	unsigned int v;
	int err;

	if (*ppos != 0)
		return -EINVAL;
	err = kstrtouint_from_user(ubuf, count, 10, &v);
	if (err)
		return -EINVAL;
	spin_lock(&fdev->lock);
	fdev->fw.fail_next[knob->kind] = v;
	spin_unlock(&fdev->lock);
	*ppos += count;
	return count;
}

static const struct file_operations fakeroce_fw_fail_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_fw_fail_read,
	.write = fakeroce_fw_fail_write,
	.llseek = default_llseek,
};

/* The kinds with a fail_next_ knob of their own here (mad and hw_stats
 * keep theirs at the device's top level). */
static const enum fakeroce_fw_kind fakeroce_fw_knob_kinds[] = {
	FAKEROCE_FW_ETHTOOL_STATS, FAKEROCE_FW_FEC_STATS, FAKEROCE_FW_FECPARAM,
	FAKEROCE_FW_KSETTINGS, FAKEROCE_FW_MODULE_EEPROM, FAKEROCE_FW_DCB,
	FAKEROCE_FW_Q_COUNTER,
};

int fakeroce_fw_debugfs_add(struct fakeroce_dev *fdev)
{
	struct fakeroce_fw_knob *knobs;
	struct dentry *dir;
	char name[40];
	unsigned int i;

	knobs = kcalloc(ARRAY_SIZE(fakeroce_fw_knob_kinds), sizeof(*knobs),
			GFP_KERNEL);
	if (!knobs)
		return -ENOMEM;
	fdev->fw.knobs = knobs;
	dir = debugfs_create_dir("fw", fdev->debugfs_dir);
	debugfs_create_file("commands", 0400, dir, fdev,
			    &fakeroce_fw_commands_fops);
	for (i = 0; i < ARRAY_SIZE(fakeroce_fw_knob_kinds); i++) {
		knobs[i].fdev = fdev;
		knobs[i].kind = fakeroce_fw_knob_kinds[i];
		snprintf(name, sizeof(name), "fail_next_%s",
			 fakeroce_fw_names[knobs[i].kind]);
		debugfs_create_file(name, 0600, dir, &knobs[i],
				    &fakeroce_fw_fail_fops);
	}
	return 0;
}

/* After debugfs_remove_recursive() of the device's directory. */
void fakeroce_fw_debugfs_del(struct fakeroce_dev *fdev)
{
	kfree(fdev->fw.knobs);
	fdev->fw.knobs = NULL;
}
