// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - test knobs in /sys/kernel/debug/fakeroce/<ID>/.
 *
 * One file per value of the device, each of a type of fakeroce_knob.c
 * (totals, a u8 from a set, raw words, one u8 per priority); the knobs that
 * act on more than a value have their file operations here: carrier and
 * flap_coalesced (the netdev's carrier), qps (control-plane QPs), and the
 * PFC requests and their rate (a count that rises with time).  The QP
 * counter sets' knobs are in fakeroce_counter.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>

#include "fakeroce.h"
#include "fakeroce_knob.h"

/*
 * The knobs of a device besides its counters: carrier, flap_coalesced,
 * fail_next_get_hw_stats, lanes, lane_gbps, qps; dcb/: 3 u8, 5 per
 * priority, 3 ETS arrays; fec/; phy/; module/: identifier, temperature,
 * vcc, then 3 per lane.
 */
#define FAKEROCE_NUM_OPTICS_KNOBS	(3 + 3 * FAKEROCE_OPTICS_LANES)
#define FAKEROCE_NUM_KNOBS	(6 + 3 + 5 * FAKEROCE_NUM_PRIO + 3 + \
				 FAKEROCE_NR_FEC + FAKEROCE_NR_PHY_ERR + \
				 FAKEROCE_NUM_OPTICS_KNOBS)
#define FAKEROCE_NUM_PMA_KNOBS (FAKEROCE_NR_PMA + 1)

static struct dentry *fakeroce_debugfs_root;

/* ---- carrier, flap_coalesced: the netdev's carrier ----------------------- */

/* The text written, taken whole: an unsigned int no larger than @max. */
static int fakeroce_input_uint(const char __user *ubuf, size_t count,
			       loff_t *ppos, unsigned int max, unsigned int *n)
{
	char buf[FAKEROCE_KNOB_BUF];
	char *s;
	int err;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = kstrtouint(s, 10, n);
	if (err)
		return err;
	return *n > max ? -EINVAL : 0;
}

static ssize_t fakeroce_carrier_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;

	return fakeroce_knob_emit(ubuf, count, ppos,
				  netif_carrier_ok(knob->fdev->netdev));
}

/* "0" or "1": carrier off or on, outside the device lock. */
static ssize_t fakeroce_carrier_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	unsigned int on;
	int err;

	err = fakeroce_input_uint(ubuf, count, ppos, 1, &on);
	if (err)
		return err;
	fakeroce_netdev_set_carrier(knob->fdev, on);
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_carrier_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_carrier_read,
	.write = fakeroce_carrier_write,
	.llseek = default_llseek,
};

/* Write-only (reads 0): N carrier off/on pairs at once. */
static ssize_t fakeroce_flap_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	return fakeroce_knob_emit(ubuf, count, ppos, 0);
}

static ssize_t fakeroce_flap_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	unsigned int n;
	int err;

	err = fakeroce_input_uint(ubuf, count, ppos, FAKEROCE_MAX_FLAPS, &n);
	if (err)
		return err;
	fakeroce_netdev_flap(knob->fdev, n);
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_flap_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_flap_read,
	.write = fakeroce_flap_write,
	.llseek = default_llseek,
};

/* ---- qps: the control-plane QPs the device holds ------------------------- */

static ssize_t fakeroce_qps_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;

	return fakeroce_knob_emit(ubuf, count, ppos,
				  fakeroce_qps_count(knob->fdev));
}

static ssize_t fakeroce_qps_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	bool add;
	u64 n;
	int err;

	err = fakeroce_knob_input_u64(ubuf, count, ppos, &n, &add);
	if (err)
		return err;
	if (add || n > FAKEROCE_MAX_QPS)
		return -EINVAL;
	err = fakeroce_qps_set(knob->fdev, n);
	if (err)
		return err;
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_qps_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_qps_read,
	.write = fakeroce_qps_write,
	.llseek = default_llseek,
};

/* ---- dcb/prio<N>_requests and _requests_rate ----------------------------- */

static ssize_t fakeroce_requests_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	struct fakeroce_dev *fdev = knob->fdev;
	u64 val;

	spin_lock(&fdev->lock);
	val = fakeroce_dcb_requests(&fdev->dcb, knob->idx);
	spin_unlock(&fdev->lock);
	return fakeroce_knob_emit(ubuf, count, ppos, val);
}

/* "N" sets, "+N" adds to the count as it is now; the rate goes on. */
static ssize_t fakeroce_requests_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	struct fakeroce_dev *fdev = knob->fdev;
	bool add;
	u64 val;
	int err;

	err = fakeroce_knob_input_u64(ubuf, count, ppos, &val, &add);
	if (err)
		return err;
	spin_lock(&fdev->lock);
	fakeroce_dcb_set_requests(&fdev->dcb, knob->idx, val, add);
	spin_unlock(&fdev->lock);
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_requests_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_requests_read,
	.write = fakeroce_requests_write,
	.llseek = default_llseek,
};

static ssize_t fakeroce_rate_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	struct fakeroce_dev *fdev = knob->fdev;
	u64 val;

	spin_lock(&fdev->lock);
	val = fdev->dcb.req_rate[knob->idx];
	spin_unlock(&fdev->lock);
	return fakeroce_knob_emit(ubuf, count, ppos, val);
}

/* "N" pause frames per second from now on; 0 freezes the count. */
static ssize_t fakeroce_rate_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	struct fakeroce_dev *fdev = knob->fdev;
	bool add;
	u64 val;
	int err;

	err = fakeroce_knob_input_u64(ubuf, count, ppos, &val, &add);
	if (err)
		return err;
	if (add)
		return -EINVAL;
	spin_lock(&fdev->lock);
	fakeroce_dcb_set_rate(&fdev->dcb, knob->idx, val);
	spin_unlock(&fdev->lock);
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_rate_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_rate_read,
	.write = fakeroce_rate_write,
	.llseek = default_llseek,
};

/* ---- per-device tree ----------------------------------------------------- */

/* prio<N>_{requests,indications,requests_rate,rx_pause_us,tx_pause_us} */
static void fakeroce_debugfs_add_prio(struct fakeroce_dev *fdev,
				      struct dentry *dir, unsigned int p)
{
	struct fakeroce_dcb *dcb = &fdev->dcb;
	char name[32];

	snprintf(name, sizeof(name), "prio%u_requests", p);
	fakeroce_knob_file(fdev, dir, name, 0600, NULL, p,
			   &fakeroce_requests_fops);
	snprintf(name, sizeof(name), "prio%u_indications", p);
	fakeroce_knob_u64(fdev, dir, name, &dcb->indications[p]);
	snprintf(name, sizeof(name), "prio%u_requests_rate", p);
	fakeroce_knob_file(fdev, dir, name, 0600, NULL, p, &fakeroce_rate_fops);
	snprintf(name, sizeof(name), "prio%u_rx_pause_us", p);
	fakeroce_knob_u64(fdev, dir, name, &dcb->pause_us[FAKEROCE_RX][p]);
	snprintf(name, sizeof(name), "prio%u_tx_pause_us", p);
	fakeroce_knob_u64(fdev, dir, name, &dcb->pause_us[FAKEROCE_TX][p]);
}

static void fakeroce_debugfs_add_dcb(struct fakeroce_dev *fdev)
{
	struct dentry *dir = debugfs_create_dir("dcb", fdev->debugfs_dir);
	struct fakeroce_dcb *dcb = &fdev->dcb;
	unsigned int p;

	fakeroce_knob_u8(fdev, dir, "pfc_cap", &dcb->pfc_cap, NULL);
	fakeroce_knob_u8(fdev, dir, "pfc_en", &dcb->pfc_en, NULL);
	fakeroce_knob_u8(fdev, dir, "dcbx", &dcb->dcbx, NULL);
	for (p = 0; p < FAKEROCE_NUM_PRIO; p++)
		fakeroce_debugfs_add_prio(fdev, dir, p);
	fakeroce_knob_u8_array(fdev, dir, "prio_tc", dcb->prio_tc,
			       FAKEROCE_NUM_PRIO - 1, NULL);
	fakeroce_knob_u8_array(fdev, dir, "tc_bw", dcb->tc_bw, 100,
			       fakeroce_dcb_tc_bw_valid);
	fakeroce_knob_u8_array(fdev, dir, "tc_tsa", dcb->tc_tsa, U8_MAX,
			       fakeroce_dcb_tc_tsa_valid);
}

/* pma/<counter> and fail_next_mad, for a personality with a PMA. */
static void fakeroce_debugfs_add_pma(struct fakeroce_dev *fdev)
{
	struct dentry *dir;
	unsigned int i;

	fakeroce_knob_uint(fdev, fdev->debugfs_dir, "fail_next_mad",
			   &fdev->fw.fail_next[FAKEROCE_FW_MAD]);
	dir = debugfs_create_dir("pma", fdev->debugfs_dir);
	for (i = 0; i < FAKEROCE_NR_PMA; i++)
		fakeroce_knob_u64_set(fdev, dir, fakeroce_pma_name(i),
				      &fdev->pma[i], i, fakeroce_pma_set);
}

/* module/: the plugged module's identifier and monitors, raw units */
static void fakeroce_debugfs_add_optics(struct fakeroce_dev *fdev)
{
	struct dentry *dir = debugfs_create_dir("module", fdev->debugfs_dir);
	struct fakeroce_optics *m = &fdev->optics;
	char name[32];
	unsigned int i;

	fakeroce_knob_u8(fdev, dir, "identifier", &m->id, NULL);
	/* the temperature is an s16, written and read as its raw word */
	fakeroce_knob_u16(fdev, dir, "temperature", (u16 *)&m->temp);
	fakeroce_knob_u16(fdev, dir, "vcc", &m->vcc);
	for (i = 0; i < FAKEROCE_OPTICS_LANES; i++) {
		snprintf(name, sizeof(name), "lane%u_rx_power", i + 1);
		fakeroce_knob_u16(fdev, dir, name, &m->rx_power[i]);
		snprintf(name, sizeof(name), "lane%u_tx_power", i + 1);
		fakeroce_knob_u16(fdev, dir, name, &m->tx_power[i]);
		snprintf(name, sizeof(name), "lane%u_bias", i + 1);
		fakeroce_knob_u16(fdev, dir, name, &m->bias[i]);
	}
}

/* counters/<name>: the personality's hw_counters, "N" or "+N" */
static void fakeroce_debugfs_add_counters(struct fakeroce_dev *fdev)
{
	struct dentry *dir = debugfs_create_dir("counters", fdev->debugfs_dir);
	const struct fakeroce_personality *pers = fdev->pers;
	unsigned int i;

	for (i = 0; i < pers->num_counters; i++)
		fakeroce_knob_u64_set(fdev, dir, pers->descs[i].name,
				      &fdev->values[i], i,
				      fakeroce_counter_set);
}

/* fec/ and phy/: the standard FEC statistics and the PHY error totals */
static void fakeroce_debugfs_add_phy(struct fakeroce_dev *fdev)
{
	static const char *const phy_names[FAKEROCE_NR_PHY_ERR] = {
		"symbol_errors", "crc_errors", "discards",
	};
	struct dentry *dir;
	unsigned int i;

	dir = debugfs_create_dir("fec", fdev->debugfs_dir);
	for (i = 0; i < FAKEROCE_NR_FEC; i++)
		fakeroce_knob_u64_set(fdev, dir, fakeroce_fec_name(i),
				      &fdev->fec[i], i, fakeroce_fec_set);
	dir = debugfs_create_dir("phy", fdev->debugfs_dir);
	for (i = 0; i < FAKEROCE_NR_PHY_ERR; i++)
		fakeroce_knob_u64(fdev, dir, phy_names[i], &fdev->phy_err[i]);
}

int fakeroce_debugfs_add(struct fakeroce_dev *fdev)
{
	static const u8 lanes[] = { 1, 2, 4, 8, 0 };
	static const u8 lane_gbps[] = { 25, 50, 100, 0 };
	unsigned int n = fdev->pers->num_counters + FAKEROCE_NUM_KNOBS;
	struct dentry *dir;
	char name[8];
	int err;

	if (fdev->pers->pma)
		n += FAKEROCE_NUM_PMA_KNOBS;
	n += fakeroce_counter_debugfs_knobs(fdev) + FAKEROCE_NR_HEALTH + 2;	/* + kmsg, ramp */
	err = fakeroce_knobs_alloc(fdev, n);
	if (err)
		return err;

	snprintf(name, sizeof(name), "%u", fdev->id);
	dir = debugfs_create_dir(name, fakeroce_debugfs_root);
	fdev->debugfs_dir = dir;

	fakeroce_debugfs_add_counters(fdev);
	fakeroce_knob_file(fdev, dir, "carrier", 0600, NULL, 0,
			   &fakeroce_carrier_fops);
	fakeroce_knob_file(fdev, dir, "flap_coalesced", 0200, NULL, 0,
			   &fakeroce_flap_fops);
	fakeroce_knob_uint(fdev, dir, "fail_next_get_hw_stats",
			   &fdev->fw.fail_next[FAKEROCE_FW_HW_STATS]);
	fakeroce_knob_u8(fdev, dir, "lanes", &fdev->lanes, lanes);
	fakeroce_knob_u8(fdev, dir, "lane_gbps", &fdev->lane_gbps, lane_gbps);
	fakeroce_knob_file(fdev, dir, "qps", 0600, NULL, 0, &fakeroce_qps_fops);
	fakeroce_counter_debugfs_add(fdev);
	fakeroce_devlink_debugfs_add(fdev);
	fakeroce_kmsg_debugfs_add(fdev);
	fakeroce_ramp_debugfs_add(fdev);
	fakeroce_debugfs_add_dcb(fdev);
	fakeroce_debugfs_add_phy(fdev);
	fakeroce_debugfs_add_optics(fdev);
	if (fdev->pers->pma)
		fakeroce_debugfs_add_pma(fdev);

	WARN_ON(fdev->nr_knobs != n);
	return fakeroce_fw_debugfs_add(fdev);
}

/* Waits for knob reads and writes in progress; none start afterwards. */
void fakeroce_debugfs_del(struct fakeroce_dev *fdev)
{
	debugfs_remove_recursive(fdev->debugfs_dir);
	fdev->debugfs_dir = NULL;
	fakeroce_ramp_stop(fdev);
	fakeroce_fw_debugfs_del(fdev);
	fakeroce_knobs_free(fdev);
}

int fakeroce_debugfs_init(void)
{
	fakeroce_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	return 0;
}

void fakeroce_debugfs_exit(void)
{
	debugfs_remove_recursive(fakeroce_debugfs_root);
}
