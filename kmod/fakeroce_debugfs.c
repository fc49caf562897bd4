// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - test knobs in /sys/kernel/debug/fakeroce/<ID>/.
 *
 * Every file is a "knob": a kind and an index (counter, priority) on one
 * device.  Values are read as decimal text; writes are parsed whole and
 * either applied or refused with -EINVAL, leaving the state unchanged.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "fakeroce.h"

#define FAKEROCE_KNOB_BUF	64

enum fakeroce_knob_kind {
	FAKEROCE_KNOB_COUNTER,
	FAKEROCE_KNOB_CARRIER,
	FAKEROCE_KNOB_FLAP,
	FAKEROCE_KNOB_FAIL_NEXT,
	FAKEROCE_KNOB_PMA,
	FAKEROCE_KNOB_FAIL_NEXT_MAD,
	FAKEROCE_KNOB_FEC,
	FAKEROCE_KNOB_MODULE,
	FAKEROCE_KNOB_LANES,
	FAKEROCE_KNOB_LANE_GBPS,
	FAKEROCE_KNOB_QPS,
	FAKEROCE_KNOB_PFC_CAP,
	FAKEROCE_KNOB_PFC_EN,
	FAKEROCE_KNOB_DCBX,
	FAKEROCE_KNOB_REQUESTS,
	FAKEROCE_KNOB_INDICATIONS,
	FAKEROCE_KNOB_REQ_RATE,
	FAKEROCE_KNOB_PAUSE_US,
	FAKEROCE_KNOB_PHY_ERR,
	FAKEROCE_KNOB_PRIO_TC,
	FAKEROCE_KNOB_TC_BW,
	FAKEROCE_KNOB_TC_TSA,
};

struct fakeroce_knob {
	struct fakeroce_dev *fdev;
	enum fakeroce_knob_kind kind;
	unsigned int idx;
};

/* Knobs per device besides the counters: 6 + 3 u8 + 5 x 8 per prio + 3 ETS, */
/* FEC, PHY errors */
/* module/: identifier, temperature, vcc, then 3 per lane */
#define FAKEROCE_NUM_MODULE_KNOBS (3 + 3 * FAKEROCE_MODULE_LANES)
#define FAKEROCE_NUM_KNOBS (6 + 3 + 5 * FAKEROCE_NUM_PRIO + 3 + FAKEROCE_NR_FEC + \
			    FAKEROCE_NR_PHY_ERR + FAKEROCE_NUM_MODULE_KNOBS)
/* With a PMA: one knob per PMA counter and fail_next_mad. */
#define FAKEROCE_NUM_PMA_KNOBS (FAKEROCE_NR_PMA + 1)

static struct dentry *fakeroce_debugfs_root;

/* ---- parsing ------------------------------------------------------------- */

/* "N" sets, "+N" adds; N decimal u64. */
static int fakeroce_parse_u64_op(char *s, u64 *val, bool *add)
{
	*add = *s == '+';
	if (*add)
		s++;
	if (!isdigit(*s))
		return -EINVAL;
	return kstrtou64(s, 10, val);
}

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

static int fakeroce_print_u8_array(char *buf, size_t size, const u8 *a)
{
	return scnprintf(buf, size, "%u %u %u %u %u %u %u %u\n",
			 a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}

/* ---- show ---------------------------------------------------------------- */

/* The module field a module/ knob stands for (index in its knob list). */
static u16 *fakeroce_module_field(struct fakeroce_module *m, unsigned int i)
{
	static u16 dummy;
	unsigned int lane = (i - 3) / 3;

	switch (i) {
	case 0:
		return &dummy;		/* the identifier is a u8: handled apart */
	case 1:
		return (u16 *)&m->temp;
	case 2:
		return &m->vcc;
	}
	switch ((i - 3) % 3) {
	case 0:
		return &m->rx_power[lane];
	case 1:
		return &m->tx_power[lane];
	default:
		return &m->bias[lane];
	}
}

static int fakeroce_knob_show(struct fakeroce_knob *knob, char *buf,
			      size_t size)
{
	struct fakeroce_dev *fdev = knob->fdev;
	struct fakeroce_dcb *dcb = &fdev->dcb;
	unsigned int i = knob->idx;
	u64 val = 0;
	int len = 0;

	spin_lock(&fdev->lock);
	switch (knob->kind) {
	case FAKEROCE_KNOB_COUNTER:
		val = fdev->values[i];
		break;
	case FAKEROCE_KNOB_CARRIER:
		val = netif_carrier_ok(fdev->netdev);
		break;
	case FAKEROCE_KNOB_FLAP:
		break;
	case FAKEROCE_KNOB_FAIL_NEXT:
		val = fdev->fw.fail_next[FAKEROCE_FW_HW_STATS];
		break;
	case FAKEROCE_KNOB_PMA:
		val = fdev->pma[i];
		break;
	case FAKEROCE_KNOB_FAIL_NEXT_MAD:
		val = fdev->fw.fail_next[FAKEROCE_FW_MAD];
		break;
	case FAKEROCE_KNOB_FEC:
		val = fdev->fec[i];
		break;
	case FAKEROCE_KNOB_MODULE:
		val = i ? *fakeroce_module_field(&fdev->module, i) : fdev->module.id;
		break;
	case FAKEROCE_KNOB_LANES:
		val = fdev->lanes;
		break;
	case FAKEROCE_KNOB_LANE_GBPS:
		val = fdev->lane_gbps;
		break;
	case FAKEROCE_KNOB_QPS:
		break;	/* under qp_lock: below */
	case FAKEROCE_KNOB_PFC_CAP:
		val = dcb->pfc_cap;
		break;
	case FAKEROCE_KNOB_PFC_EN:
		val = dcb->pfc_en;
		break;
	case FAKEROCE_KNOB_DCBX:
		val = dcb->dcbx;
		break;
	case FAKEROCE_KNOB_REQUESTS:
		val = fakeroce_dcb_requests(dcb, i);
		break;
	case FAKEROCE_KNOB_INDICATIONS:
		val = dcb->indications[i];
		break;
	case FAKEROCE_KNOB_REQ_RATE:
		val = dcb->req_rate[i];
		break;
	case FAKEROCE_KNOB_PAUSE_US:
		val = dcb->pause_us[i / FAKEROCE_NUM_PRIO][i % FAKEROCE_NUM_PRIO];
		break;
	case FAKEROCE_KNOB_PHY_ERR:
		val = fdev->phy_err[i];
		break;
	case FAKEROCE_KNOB_PRIO_TC:
		len = fakeroce_print_u8_array(buf, size, dcb->prio_tc);
		break;
	case FAKEROCE_KNOB_TC_BW:
		len = fakeroce_print_u8_array(buf, size, dcb->tc_bw);
		break;
	case FAKEROCE_KNOB_TC_TSA:
		len = fakeroce_print_u8_array(buf, size, dcb->tc_tsa);
		break;
	}
	spin_unlock(&fdev->lock);

	if (!len)
		len = scnprintf(buf, size, "%llu\n", knob->kind == FAKEROCE_KNOB_QPS ?
				(u64)fakeroce_qps_count(fdev) : val);
	return len;
}

/* ---- store --------------------------------------------------------------- */

/* Knobs that act on the netdev, outside the device lock. */
static int fakeroce_knob_store_link(struct fakeroce_knob *knob, char *s)
{
	struct fakeroce_dev *fdev = knob->fdev;
	unsigned int n;
	int err;

	err = kstrtouint(s, 10, &n);
	if (err)
		return err;

	if (knob->kind == FAKEROCE_KNOB_CARRIER) {
		if (n > 1)
			return -EINVAL;
		fakeroce_netdev_set_carrier(fdev, n);
		return 0;
	}
	if (n > FAKEROCE_MAX_FLAPS)
		return -EINVAL;
	fakeroce_netdev_flap(fdev, n);
	return 0;
}

/* The 8-number ETS knobs: parsed and checked before taking the lock. */
static int fakeroce_knob_store_ets(struct fakeroce_knob *knob, char *s)
{
	struct fakeroce_dev *fdev = knob->fdev;
	u8 a[FAKEROCE_NUM_PRIO];
	u8 *dst;
	int err;

	switch (knob->kind) {
	case FAKEROCE_KNOB_PRIO_TC:
		err = fakeroce_parse_u8_array(s, a, FAKEROCE_NUM_PRIO - 1);
		dst = fdev->dcb.prio_tc;
		break;
	case FAKEROCE_KNOB_TC_BW:
		err = fakeroce_parse_u8_array(s, a, 100);
		if (!err && !fakeroce_dcb_tc_bw_valid(a))
			err = -EINVAL;
		dst = fdev->dcb.tc_bw;
		break;
	default:
		err = fakeroce_parse_u8_array(s, a, U8_MAX);
		if (!err && !fakeroce_dcb_tc_tsa_valid(a))
			err = -EINVAL;
		dst = fdev->dcb.tc_tsa;
		break;
	}
	if (err)
		return err;

	spin_lock(&fdev->lock);
	memcpy(dst, a, sizeof(a));
	spin_unlock(&fdev->lock);
	return 0;
}

/* Single-number knobs on the device state, under the device lock. */
static int fakeroce_knob_store_value(struct fakeroce_knob *knob, char *s)
{
	struct fakeroce_dev *fdev = knob->fdev;
	struct fakeroce_dcb *dcb = &fdev->dcb;
	unsigned int i = knob->idx;
	bool add;
	u64 val;
	int err;

	err = fakeroce_parse_u64_op(s, &val, &add);
	if (err)
		return err;
	if (knob->kind == FAKEROCE_KNOB_COUNTER) {
		fakeroce_counter_set(fdev, i, val, add);
		return 0;
	}
	if (knob->kind == FAKEROCE_KNOB_PMA) {
		fakeroce_pma_set(fdev, i, val, add);
		return 0;
	}
	if (knob->kind == FAKEROCE_KNOB_FEC) {
		fakeroce_fec_set(fdev, i, val, add);
		return 0;
	}
	if (knob->kind == FAKEROCE_KNOB_PAUSE_US || knob->kind == FAKEROCE_KNOB_PHY_ERR) {
		u64 *f = knob->kind == FAKEROCE_KNOB_PHY_ERR ? &fdev->phy_err[i] :
			 &dcb->pause_us[i / FAKEROCE_NUM_PRIO][i % FAKEROCE_NUM_PRIO];

		spin_lock(&fdev->lock);
		*f = add ? *f + val : val;
		spin_unlock(&fdev->lock);
		return 0;
	}
	if (knob->kind == FAKEROCE_KNOB_MODULE) {
		/* raw module units: a u8 identifier, u16 words (temperature s16) */
		if (add || val > (i ? U16_MAX : U8_MAX))
			return -EINVAL;
		spin_lock(&fdev->lock);
		if (i)
			*fakeroce_module_field(&fdev->module, i) = val;
		else
			fdev->module.id = val;
		spin_unlock(&fdev->lock);
		return 0;
	}
	/* Only counters and the per-priority PFC counts take "+N". */
	if (add && knob->kind != FAKEROCE_KNOB_REQUESTS &&
	    knob->kind != FAKEROCE_KNOB_INDICATIONS)
		return -EINVAL;
	if (val > U8_MAX && (knob->kind == FAKEROCE_KNOB_PFC_CAP ||
			     knob->kind == FAKEROCE_KNOB_PFC_EN ||
			     knob->kind == FAKEROCE_KNOB_DCBX))
		return -EINVAL;
	if (val > UINT_MAX && (knob->kind == FAKEROCE_KNOB_FAIL_NEXT ||
			       knob->kind == FAKEROCE_KNOB_FAIL_NEXT_MAD))
		return -EINVAL;
	if (knob->kind == FAKEROCE_KNOB_LANES && val != 1 && val != 2 && val != 4 && val != 8)
		return -EINVAL;
	if (knob->kind == FAKEROCE_KNOB_LANE_GBPS && val != 25 && val != 50 && val != 100)
		return -EINVAL;
	if (knob->kind == FAKEROCE_KNOB_QPS)
		return val > FAKEROCE_MAX_QPS ? -EINVAL : fakeroce_qps_set(fdev, val);

	spin_lock(&fdev->lock);
	switch (knob->kind) {
	case FAKEROCE_KNOB_FAIL_NEXT:
		fdev->fw.fail_next[FAKEROCE_FW_HW_STATS] = val;
		break;
	case FAKEROCE_KNOB_FAIL_NEXT_MAD:
		fdev->fw.fail_next[FAKEROCE_FW_MAD] = val;
		break;
	case FAKEROCE_KNOB_LANES:
		fdev->lanes = val;
		break;
	case FAKEROCE_KNOB_LANE_GBPS:
		fdev->lane_gbps = val;
		break;
	case FAKEROCE_KNOB_PFC_CAP:
		dcb->pfc_cap = val;
		break;
	case FAKEROCE_KNOB_PFC_EN:
		dcb->pfc_en = val;
		break;
	case FAKEROCE_KNOB_DCBX:
		dcb->dcbx = val;
		break;
	case FAKEROCE_KNOB_REQUESTS:
		fakeroce_dcb_set_requests(dcb, i, val, add);
		break;
	case FAKEROCE_KNOB_INDICATIONS:
		dcb->indications[i] = add ? dcb->indications[i] + val : val;
		break;
	case FAKEROCE_KNOB_REQ_RATE:
		fakeroce_dcb_set_rate(dcb, i, val);
		break;
	default:
		break;
	}
	spin_unlock(&fdev->lock);
	return 0;
}

static int fakeroce_knob_store(struct fakeroce_knob *knob, char *s)
{
	switch (knob->kind) {
	case FAKEROCE_KNOB_CARRIER:
	case FAKEROCE_KNOB_FLAP:
		return fakeroce_knob_store_link(knob, s);
	case FAKEROCE_KNOB_PRIO_TC:
	case FAKEROCE_KNOB_TC_BW:
	case FAKEROCE_KNOB_TC_TSA:
		return fakeroce_knob_store_ets(knob, s);
	default:
		return fakeroce_knob_store_value(knob, s);
	}
}

/* ---- file ops ------------------------------------------------------------ */

static ssize_t fakeroce_knob_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_KNOB_BUF];
	int len;

	len = fakeroce_knob_show(knob, buf, sizeof(buf));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t fakeroce_knob_write(struct file *file,
				   const char __user *ubuf, size_t count,
				   loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	char buf[FAKEROCE_KNOB_BUF];
	int err;

	if (*ppos != 0 || count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	err = fakeroce_knob_store(knob, strim(buf));
	if (err)
		return err;
	*ppos += count;
	return count;
}

static const struct file_operations fakeroce_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fakeroce_knob_read,
	.write = fakeroce_knob_write,
	.llseek = default_llseek,
};

/* ---- per-device tree ----------------------------------------------------- */

/* Takes the next free knob of fdev->knobs and makes its file. */
static void fakeroce_knob_file(struct fakeroce_dev *fdev, unsigned int *used,
			       struct dentry *dir, const char *name,
			       umode_t mode, enum fakeroce_knob_kind kind,
			       unsigned int idx)
{
	struct fakeroce_knob *knob = &fdev->knobs[(*used)++];

	knob->fdev = fdev;
	knob->kind = kind;
	knob->idx = idx;
	debugfs_create_file(name, mode, dir, knob, &fakeroce_knob_fops);
}

static void fakeroce_debugfs_add_dcb(struct fakeroce_dev *fdev,
				     unsigned int *used)
{
	static const struct {
		const char *suffix;
		enum fakeroce_knob_kind kind;
	} per_prio[] = {
		{ "requests", FAKEROCE_KNOB_REQUESTS },
		{ "indications", FAKEROCE_KNOB_INDICATIONS },
		{ "requests_rate", FAKEROCE_KNOB_REQ_RATE },
		{ "rx_pause_us", FAKEROCE_KNOB_PAUSE_US },
		{ "tx_pause_us", FAKEROCE_KNOB_PAUSE_US },
	};
	struct dentry *dir = debugfs_create_dir("dcb", fdev->debugfs_dir);
	char name[32];
	unsigned int p, k;

	fakeroce_knob_file(fdev, used, dir, "pfc_cap", 0600,
			   FAKEROCE_KNOB_PFC_CAP, 0);
	fakeroce_knob_file(fdev, used, dir, "pfc_en", 0600,
			   FAKEROCE_KNOB_PFC_EN, 0);
	fakeroce_knob_file(fdev, used, dir, "dcbx", 0600,
			   FAKEROCE_KNOB_DCBX, 0);
	for (p = 0; p < FAKEROCE_NUM_PRIO; p++) {
		for (k = 0; k < ARRAY_SIZE(per_prio); k++) {
			snprintf(name, sizeof(name), "prio%u_%s", p,
				 per_prio[k].suffix);
			/* rx_pause_us: 0..7, tx_pause_us: 8..15 */
			fakeroce_knob_file(fdev, used, dir, name, 0600, per_prio[k].kind,
					   p + (k == 4 ? FAKEROCE_NUM_PRIO : 0));
		}
	}
	fakeroce_knob_file(fdev, used, dir, "prio_tc", 0600,
			   FAKEROCE_KNOB_PRIO_TC, 0);
	fakeroce_knob_file(fdev, used, dir, "tc_bw", 0600,
			   FAKEROCE_KNOB_TC_BW, 0);
	fakeroce_knob_file(fdev, used, dir, "tc_tsa", 0600,
			   FAKEROCE_KNOB_TC_TSA, 0);
}

/* pma/<counter> and fail_next_mad, for a personality with a PMA. */
static void fakeroce_debugfs_add_pma(struct fakeroce_dev *fdev,
				     unsigned int *used)
{
	struct dentry *dir;
	unsigned int i;

	fakeroce_knob_file(fdev, used, fdev->debugfs_dir, "fail_next_mad", 0600,
			   FAKEROCE_KNOB_FAIL_NEXT_MAD, 0);
	dir = debugfs_create_dir("pma", fdev->debugfs_dir);
	for (i = 0; i < FAKEROCE_NR_PMA; i++)
		fakeroce_knob_file(fdev, used, dir, fakeroce_pma_name(i), 0600,
				   FAKEROCE_KNOB_PMA, i);
}

/* module/: the plugged module's identifier and monitors, raw units */
static void fakeroce_debugfs_add_module(struct fakeroce_dev *fdev,
					unsigned int *used)
{
	static const char *const q[] = { "rx_power", "tx_power", "bias" };
	struct dentry *dir = debugfs_create_dir("module", fdev->debugfs_dir);
	char name[32];
	unsigned int i;

	fakeroce_knob_file(fdev, used, dir, "identifier", 0600,
			   FAKEROCE_KNOB_MODULE, 0);
	fakeroce_knob_file(fdev, used, dir, "temperature", 0600,
			   FAKEROCE_KNOB_MODULE, 1);
	fakeroce_knob_file(fdev, used, dir, "vcc", 0600, FAKEROCE_KNOB_MODULE, 2);
	for (i = 0; i < 3 * FAKEROCE_MODULE_LANES; i++) {
		snprintf(name, sizeof(name), "lane%u_%s", i / 3 + 1, q[i % 3]);
		fakeroce_knob_file(fdev, used, dir, name, 0600,
				   FAKEROCE_KNOB_MODULE, 3 + i);
	}
}

int fakeroce_debugfs_add(struct fakeroce_dev *fdev)
{
	static const char *const phy_names[FAKEROCE_NR_PHY_ERR] = {
		"symbol_errors", "crc_errors", "discards",
	};
	unsigned int n = fdev->pers->num_counters, used = 0, i;
	struct dentry *dir, *cdir;
	char name[8];

	if (fdev->pers->pma)
		n += FAKEROCE_NUM_PMA_KNOBS;
	fdev->knobs = kcalloc(n + FAKEROCE_NUM_KNOBS, sizeof(*fdev->knobs),
			      GFP_KERNEL);
	if (!fdev->knobs)
		return -ENOMEM;

	snprintf(name, sizeof(name), "%u", fdev->id);
	dir = debugfs_create_dir(name, fakeroce_debugfs_root);
	fdev->debugfs_dir = dir;

	cdir = debugfs_create_dir("counters", dir);
	for (i = 0; i < fdev->pers->num_counters; i++)
		fakeroce_knob_file(fdev, &used, cdir, fdev->pers->descs[i].name,
				   0600, FAKEROCE_KNOB_COUNTER, i);

	fakeroce_knob_file(fdev, &used, dir, "carrier", 0600,
			   FAKEROCE_KNOB_CARRIER, 0);
	fakeroce_knob_file(fdev, &used, dir, "flap_coalesced", 0200,
			   FAKEROCE_KNOB_FLAP, 0);
	fakeroce_knob_file(fdev, &used, dir, "fail_next_get_hw_stats", 0600,
			   FAKEROCE_KNOB_FAIL_NEXT, 0);
	fakeroce_knob_file(fdev, &used, dir, "lanes", 0600, FAKEROCE_KNOB_LANES, 0);
	fakeroce_knob_file(fdev, &used, dir, "lane_gbps", 0600, FAKEROCE_KNOB_LANE_GBPS, 0);
	fakeroce_knob_file(fdev, &used, dir, "qps", 0600, FAKEROCE_KNOB_QPS, 0);
	fakeroce_debugfs_add_dcb(fdev, &used);
	cdir = debugfs_create_dir("fec", dir);
	for (i = 0; i < FAKEROCE_NR_FEC; i++)
		fakeroce_knob_file(fdev, &used, cdir, fakeroce_fec_name(i), 0600,
				   FAKEROCE_KNOB_FEC, i);
	cdir = debugfs_create_dir("phy", dir);
	for (i = 0; i < FAKEROCE_NR_PHY_ERR; i++)
		fakeroce_knob_file(fdev, &used, cdir, phy_names[i], 0600,
				   FAKEROCE_KNOB_PHY_ERR, i);
	fakeroce_debugfs_add_module(fdev, &used);
	if (fdev->pers->pma)
		fakeroce_debugfs_add_pma(fdev, &used);

	WARN_ON(used != n + FAKEROCE_NUM_KNOBS);
	return fakeroce_fw_debugfs_add(fdev);
}

/* Waits for knob reads and writes in progress; none start afterwards. */
void fakeroce_debugfs_del(struct fakeroce_dev *fdev)
{
	debugfs_remove_recursive(fdev->debugfs_dir);
	fdev->debugfs_dir = NULL;
	fakeroce_fw_debugfs_del(fdev);
	kfree(fdev->knobs);
	fdev->knobs = NULL;
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
