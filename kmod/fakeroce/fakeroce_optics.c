// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - a pluggable optical module behind the netdev, read through
 * ethtool's module EEPROM interface (get_module_eeprom_by_page): a QSFP28
 * laid out as SFF-8636 (lower page, upper pages 00h and 03h) or, with a
 * CMIS identifier, a QSFP-DD laid out as CMIS 5 (lower page, upper pages
 * 00h, 01h, 02h, 11h).  The monitors (temperature, supply voltage, per-lane
 * optical power and bias) are set from debugfs in the module's own units;
 * the thresholds are fixed and written in the image, and the alarm and
 * warning flags are computed from them at each read (not latched).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/string.h>

#include "fakeroce.h"

#define PAGE_LEN	128
#define I2C_ADDR	0x50

/* Thresholds per quantity: high alarm, low alarm, high warning, low warning. */
static const s16 thr_temp[4] = { 75 * 256, -5 * 256, 70 * 256, 0 };
static const u16 thr_vcc[4] = { 36300, 29700, 34650, 31350 };	/* 100 uV */
static const u16 thr_rx[4] = { 34000, 200, 21800, 500 };	/* 0.1 uW */
static const u16 thr_tx[4] = { 34000, 500, 21800, 1000 };	/* 0.1 uW */
static const u16 thr_bias[4] = { 7500, 1000, 6000, 1500 };	/* 2 uA */

void fakeroce_optics_init(struct fakeroce_optics *m)
{
	unsigned int i;

	m->id = FAKEROCE_OPTICS_QSFP28;
	m->temp = 35 * 256;
	m->vcc = 33000;
	for (i = 0; i < FAKEROCE_OPTICS_LANES; i++) {
		m->rx_power[i] = 8000;
		m->tx_power[i] = 9000;
		m->bias[i] = 3250;
	}
}

/* Flag bits, as 4 booleans: value above HA, below LA, above HW, below LW. */
static void flags_of(int v, const int *t, bool *f)
{
	f[0] = v > t[0];
	f[1] = v < t[1];
	f[2] = v > t[2];
	f[3] = v < t[3];
}

static void flags_u16(u16 v, const u16 *t, bool *f)
{
	int ti[4] = { t[0], t[1], t[2], t[3] };

	flags_of(v, ti, f);
}

static void put16(u8 *p, unsigned int at, u16 v)
{
	p[at] = v >> 8;
	p[at + 1] = v & 0xff;
}

static void put_thresholds(u8 *p, unsigned int at, const u16 *t)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		put16(p, at + 2 * i, t[i]);
}

static void put_ascii(u8 *p, unsigned int at, unsigned int len, const char *s)
{
	memset(p + at, ' ', len);
	memcpy(p + at, s, min_t(size_t, strlen(s), len));
}

static u8 checksum(const u8 *p, unsigned int from, unsigned int to)
{
	u8 sum = 0;

	while (from <= to)
		sum += p[from++];
	return sum;
}

static void temp_thresholds(u8 *p, unsigned int at)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		put16(p, at + 2 * i, (u16)thr_temp[i]);
}

static void optics_flags(const struct fakeroce_optics *m, bool *ft, bool *fv)
{
	int ti[4] = { thr_temp[0], thr_temp[1], thr_temp[2], thr_temp[3] };

	flags_of(m->temp, ti, ft);
	flags_u16(m->vcc, thr_vcc, fv);
}

/* ---- SFF-8636 ------------------------------------------------------------ */

/* A lane's 4 flags in a nibble: HA bit 3, LA 2, HW 1, LW 0 (lane 1 high). */
static u8 nibble(const bool *f)
{
	return f[0] << 3 | f[1] << 2 | f[2] << 1 | f[3];
}

static void sff_lower(const struct fakeroce_optics *m, u8 *p)
{
	bool ft[4], fv[4], fl[4];
	unsigned int i;

	p[0] = m->id;
	p[1] = 0x07;			/* SFF-8636 rev 2.5-2.7 */
	p[2] = 0;			/* paged, data ready */
	optics_flags(m, ft, fv);
	p[6] = nibble(ft) << 4;
	p[7] = nibble(fv) << 4;
	for (i = 0; i < 4; i++) {
		unsigned int at = i / 2, shift = i % 2 ? 0 : 4;

		flags_u16(m->rx_power[i], thr_rx, fl);
		p[9 + at] |= nibble(fl) << shift;
		flags_u16(m->bias[i], thr_bias, fl);
		p[11 + at] |= nibble(fl) << shift;
		flags_u16(m->tx_power[i], thr_tx, fl);
		p[13 + at] |= nibble(fl) << shift;
		put16(p, 34 + 2 * i, m->rx_power[i]);
		put16(p, 42 + 2 * i, m->bias[i]);
		put16(p, 50 + 2 * i, m->tx_power[i]);
	}
	put16(p, 22, (u16)m->temp);
	put16(p, 26, m->vcc);
}

/* upper page @page, bytes 128..255 at p[0..127] */
static int sff_upper(const struct fakeroce_optics *m, unsigned int page, u8 *p)
{
	u8 full[256] = {};

	if (page == 0) {
		full[128] = m->id;
		full[130] = 0x07;		/* LC */
		full[131] = 0x80;		/* 100GBASE-SR4 extended compliance */
		full[192] = 0x02;
		put_ascii(full, 148, 16, "FAKEROCE");
		put_ascii(full, 168, 16, "FR-QSFP28-SR4");
		put_ascii(full, 184, 2, "A0");
		put_ascii(full, 196, 16, "FR0000000001");
		put_ascii(full, 212, 8, "261125");
		full[220] = 0x0c;		/* rx power: average; tx power monitored */
		full[191] = checksum(full, 128, 190);
		full[223] = checksum(full, 192, 222);
	} else if (page == 3) {
		temp_thresholds(full, 128);
		put_thresholds(full, 144, thr_vcc);
		put_thresholds(full, 176, thr_rx);
		put_thresholds(full, 184, thr_bias);
		put_thresholds(full, 192, thr_tx);
	} else {
		return -EINVAL;
	}
	memcpy(p, full + 128, PAGE_LEN);
	return 0;
}

/* ---- CMIS ---------------------------------------------------------------- */

/* One bit per lane of lanes 1..8 for flag k of @get's values. */
static u8 lane_bits(const u16 *v, const u16 *t, unsigned int k)
{
	bool f[4];
	u8 bits = 0;
	unsigned int i;

	for (i = 0; i < FAKEROCE_OPTICS_LANES; i++) {
		flags_u16(v[i], t, f);
		bits |= f[k] << i;
	}
	return bits;
}

static void cmis_lower(const struct fakeroce_optics *m, u8 *p)
{
	bool ft[4], fv[4];

	p[0] = m->id;
	p[1] = 0x50;			/* CMIS 5.0 */
	p[2] = 0;			/* paged memory */
	p[3] = 0x03 << 1;		/* ModuleReady */
	optics_flags(m, ft, fv);
	p[9] = ft[0] | ft[1] << 1 | ft[2] << 2 | ft[3] << 3 |
	       fv[0] << 4 | fv[1] << 5 | fv[2] << 6 | fv[3] << 7;
	put16(p, 14, (u16)m->temp);
	put16(p, 16, m->vcc);
	p[85] = 0x01;			/* media: multimode fibre */
}

static int cmis_upper(const struct fakeroce_optics *m, unsigned int page, u8 *p)
{
	u8 full[256] = {};
	unsigned int i, k;

	switch (page) {
	case 0x00:
		full[128] = m->id;
		put_ascii(full, 129, 16, "FAKEROCE");
		put_ascii(full, 148, 16, "FR-QSFPDD-SR8");
		put_ascii(full, 164, 2, "A0");
		put_ascii(full, 166, 16, "FR0000000002");
		put_ascii(full, 182, 8, "261125");
		full[203] = 0x0c;	/* MPO 1x12 */
		break;
	case 0x01:
		full[142] = 0x00;	/* one bank of 8 lanes */
		full[151] = 0x10;	/* rx power: average, not OMA */
		full[159] = 0x03;	/* temperature and Vcc monitored */
		full[160] = 0x07;	/* tx bias (x1), tx power, rx power */
		break;
	case 0x02:
		temp_thresholds(full, 128);
		put_thresholds(full, 136, thr_vcc);
		put_thresholds(full, 176, thr_tx);
		put_thresholds(full, 184, thr_bias);
		put_thresholds(full, 192, thr_rx);
		break;
	case 0x11:
		for (k = 0; k < 4; k++) {
			full[139 + k] = lane_bits(m->tx_power, thr_tx, k);
			full[143 + k] = lane_bits(m->bias, thr_bias, k);
			full[149 + k] = lane_bits(m->rx_power, thr_rx, k);
		}
		for (i = 0; i < FAKEROCE_OPTICS_LANES; i++) {
			put16(full, 154 + 2 * i, m->tx_power[i]);
			put16(full, 170 + 2 * i, m->bias[i]);
			put16(full, 186 + 2 * i, m->rx_power[i]);
		}
		break;
	default:
		return -EINVAL;
	}
	memcpy(p, full + 128, PAGE_LEN);
	return 0;
}

/* ---- ethtool ------------------------------------------------------------- */

int fakeroce_get_module_eeprom_by_page(struct net_device *netdev,
				       const struct ethtool_module_eeprom *req,
				       struct netlink_ext_ack *extack)
{
	struct fakeroce_netdev_priv *priv = netdev_priv(netdev);
	struct fakeroce_dev *fdev = priv->fdev;
	struct fakeroce_optics m;
	u8 page[PAGE_LEN] = {};
	bool cmis, upper;
	int err = 0;

	if (fakeroce_fw_call(fdev, FAKEROCE_FW_MODULE_EEPROM)) {
		NL_SET_ERR_MSG(extack, "module EEPROM read failed");
		return -EIO;
	}
	spin_lock(&fdev->lock);
	m = fdev->optics;
	spin_unlock(&fdev->lock);

	if (!m.id) {
		NL_SET_ERR_MSG(extack, "no module plugged in");
		return -ENODEV;
	}
	if (req->i2c_address != I2C_ADDR || req->bank ||
	    req->offset + req->length > 2 * PAGE_LEN ||
	    (req->offset < PAGE_LEN && req->offset + req->length > PAGE_LEN))
		return -EINVAL;
	cmis = m.id == FAKEROCE_OPTICS_QSFP_DD;
	upper = req->offset >= PAGE_LEN;
	if (!upper)
		cmis ? cmis_lower(&m, page) : sff_lower(&m, page);
	else
		err = cmis ? cmis_upper(&m, req->page, page) :
			     sff_upper(&m, req->page, page);
	if (err)
		return err;
	memcpy(req->data, page + req->offset % PAGE_LEN, req->length);
	return req->length;
}
