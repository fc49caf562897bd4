// SPDX-License-Identifier: GPL-2.0
/*
 * ddm.c - module diagnostics from EEPROM pages (ddm.h).  Offsets: SFF-8636
 * rev 2.10 (lower page 22..57 monitors, 6..14 flags; page 03h 128..199
 * thresholds) and CMIS 5.0 (lower page 9 and 14..17; page 01h 159..160
 * advertisement; page 02h 128..199 thresholds; page 11h 139..152 flags,
 * 154..201 lane monitors).
 */
#include <errno.h>
#include <string.h>

#include "ddm.h"

static uint16_t be16(const uint8_t *p, unsigned int at)
{
	return (uint16_t)(p[at] << 8 | p[at + 1]);
}

/*
 * raw unit of each quantity in SI: 1/256 C, 100 uV, 2 uA, 0.1 uW; divided by
 * an exact power of ten, so a round reading stays round (250 -> 2.5e-05)
 */
static double si(enum ddm_q q, const uint8_t *p, unsigned int at, unsigned int bias_mul)
{
	switch (q) {
	case DDM_TEMP:
		return (int16_t)be16(p, at) / 256.0;
	case DDM_VCC:
		return be16(p, at) / 1e4;
	case DDM_TX_BIAS:
		return be16(p, at) * 2.0 * bias_mul / 1e6;
	default:
		return be16(p, at) / 1e7;
	}
}

static void thresholds(struct ddm *d, enum ddm_q q, const uint8_t *p, unsigned int at,
		       unsigned int bias_mul)
{
	unsigned int l;

	for (l = 0; l < DDM_NLEVEL; l++)
		d->thr[q][l] = si(q, p, at - DDM_PAGE_LEN + 2 * l, bias_mul);
	d->have_thr[q] = true;
}

static void lanes(struct ddm *d, enum ddm_q q, const uint8_t *p, unsigned int at,
		  unsigned int bias_mul)
{
	unsigned int i;

	for (i = 0; i < d->lanes; i++)
		d->value[q][i] = si(q, p, at + 2 * i, bias_mul);
	d->have[q] = true;
}

/* ---- SFF-8636 ------------------------------------------------------------ */

/* flags of lanes 1..4 in two bytes of nibbles (lane 1 high): HA 3, LA 2, HW 1, LW 0 */
static void sff_lane_flags(struct ddm *d, enum ddm_q q, const uint8_t *lo, unsigned int at)
{
	unsigned int i, l, nib;

	for (i = 0; i < 4; i++) {
		nib = lo[at + i / 2] >> (i % 2 ? 0 : 4);
		for (l = 0; l < DDM_NLEVEL; l++)
			if (nib & (8 >> l))
				d->flags[q][l] |= (uint8_t)(1 << i);
	}
}

static void sff_mod_flags(struct ddm *d, enum ddm_q q, uint8_t byte)
{
	unsigned int l;

	for (l = 0; l < DDM_NLEVEL; l++)
		if (byte & (0x80 >> l))
			d->flags[q][l] = 1;
}

static void sff8636(const struct ddm_pages *pg, struct ddm *d)
{
	const uint8_t *lo = pg->lower, *p3 = pg->up[DDM_UP_01_03];
	uint16_t t = be16(lo, 22);

	d->lanes = 4;
	d->value[DDM_TEMP][0] = si(DDM_TEMP, lo, 22, 1);
	d->value[DDM_VCC][0] = si(DDM_VCC, lo, 26, 1);
	/* no advertisement: a temperature of 0 or 0xffff means no diagnostics */
	if (t == 0 || t == 0xffff)
		return;
	d->have[DDM_TEMP] = d->have[DDM_VCC] = true;
	lanes(d, DDM_RX_POWER, lo, 34, 1);
	lanes(d, DDM_TX_BIAS, lo, 42, 1);
	lanes(d, DDM_TX_POWER, lo, 50, 1);
	if (!p3 || (lo[2] & 0x04))	/* flat memory: no page 03h, no flags */
		return;
	thresholds(d, DDM_TEMP, p3, 128, 1);
	thresholds(d, DDM_VCC, p3, 144, 1);
	thresholds(d, DDM_RX_POWER, p3, 176, 1);
	thresholds(d, DDM_TX_BIAS, p3, 184, 1);
	thresholds(d, DDM_TX_POWER, p3, 192, 1);
	d->have_flags = true;
	sff_mod_flags(d, DDM_TEMP, lo[6]);
	sff_mod_flags(d, DDM_VCC, lo[7]);
	sff_lane_flags(d, DDM_RX_POWER, lo, 9);
	sff_lane_flags(d, DDM_TX_BIAS, lo, 11);
	sff_lane_flags(d, DDM_TX_POWER, lo, 13);
}

/* ---- CMIS ---------------------------------------------------------------- */

static void cmis(const struct ddm_pages *pg, struct ddm *d)
{
	const uint8_t *lo = pg->lower, *p1 = pg->up[DDM_UP_01_03];
	const uint8_t *p2 = pg->up[DDM_UP_02], *p11 = pg->up[DDM_UP_11];
	static const enum ddm_q lq[3] = { DDM_TX_POWER, DDM_TX_BIAS, DDM_RX_POWER };
	static const unsigned int mon_at[3] = { 154, 170, 186 }, flag_at[3] = { 139, 143, 149 };
	static const unsigned int thr_at[3] = { 176, 184, 192 }, adv_bit[3] = { 0x02, 0x01, 0x04 };
	unsigned int adv_mod = 0x03, adv_lane = 0, mul = 1, k, l;

	d->lanes = DDM_MAX_LANES;
	if (p1) {
		adv_mod = p1[159 - 128];
		adv_lane = p1[160 - 128];
		mul = 1u << ((adv_lane >> 3) & 3);	/* bias multiplier 1, 2, 4 */
	}
	d->value[DDM_TEMP][0] = si(DDM_TEMP, lo, 14, 1);
	d->value[DDM_VCC][0] = si(DDM_VCC, lo, 16, 1);
	d->have[DDM_TEMP] = adv_mod & 0x01;
	d->have[DDM_VCC] = adv_mod & 0x02;
	d->have_flags = true;	/* module-level flags are in the lower page */
	for (l = 0; l < DDM_NLEVEL; l++) {
		d->flags[DDM_TEMP][l] = (lo[9] >> l) & 1;
		d->flags[DDM_VCC][l] = (lo[9] >> (4 + l)) & 1;
	}
	if (p2) {
		thresholds(d, DDM_TEMP, p2, 128, 1);
		thresholds(d, DDM_VCC, p2, 136, 1);
	}
	if (lo[2] & 0x80)	/* flat memory: no lane pages */
		return;
	for (k = 0; k < 3; k++) {
		if (!(adv_lane & adv_bit[k]))
			continue;
		if (p11) {
			lanes(d, lq[k], p11, mon_at[k] - 128, lq[k] == DDM_TX_BIAS ? mul : 1);
			for (l = 0; l < DDM_NLEVEL; l++)
				d->flags[lq[k]][l] = p11[flag_at[k] - 128 + l];
		}
		if (p2)
			thresholds(d, lq[k], p2, thr_at[k], lq[k] == DDM_TX_BIAS ? mul : 1);
	}
}

/* ---- the rest ------------------------------------------------------------ */

static enum ddm_kind kind_of(uint8_t id)
{
	switch (id) {
	case 0x0c:	/* QSFP */
	case 0x0d:	/* QSFP+ */
	case 0x11:	/* QSFP28 */
		return DDM_SFF8636;
	case 0x18:	/* QSFP-DD */
	case 0x19:	/* OSFP */
	case 0x1b:	/* DSFP */
	case 0x1e:	/* QSFP+ with CMIS */
	case 0x1f:	/* SFP-DD with CMIS */
		return DDM_CMIS;
	default:
		return DDM_UNKNOWN;
	}
}

void ddm_plan(const uint8_t *lower, struct ddm_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->kind = kind_of(lower[0]);
	if (plan->kind == DDM_SFF8636 && !(lower[2] & 0x04)) {
		plan->page[DDM_UP_01_03] = 0x03;
		plan->want[DDM_UP_01_03] = true;
	} else if (plan->kind == DDM_CMIS && !(lower[2] & 0x80)) {
		plan->page[DDM_UP_01_03] = 0x01;
		plan->page[DDM_UP_02] = 0x02;
		plan->page[DDM_UP_11] = 0x11;
		plan->want[DDM_UP_01_03] = plan->want[DDM_UP_02] = plan->want[DDM_UP_11] = true;
	}
}

int ddm_decode(const struct ddm_pages *pg, struct ddm *out)
{
	memset(out, 0, sizeof(*out));
	if (!pg->lower)
		return -ENODATA;
	out->id = pg->lower[0];
	out->kind = kind_of(out->id);
	if (out->kind == DDM_SFF8636)
		sff8636(pg, out);
	else if (out->kind == DDM_CMIS)
		cmis(pg, out);
	else
		return -EPROTONOSUPPORT;
	return 0;
}

bool ddm_trouble(const struct ddm *d)
{
	unsigned int q, i;

	for (q = 0; d->have_flags && q < DDM_NQ; q++)
		if (d->flags[q][DDM_HIGH_ALARM] || d->flags[q][DDM_LOW_ALARM])
			return true;
	if (d->have_flags && d->flags[DDM_RX_POWER][DDM_LOW_WARNING])
		return true;
	for (i = 0; d->have[DDM_RX_POWER] && d->have_thr[DDM_RX_POWER] && i < d->lanes; i++)
		if (d->value[DDM_RX_POWER][i] < d->thr[DDM_RX_POWER][DDM_LOW_WARNING])
			return true;
	return false;
}

const char *ddm_q_name(enum ddm_q q)
{
	static const char *const n[DDM_NQ] = {
		"temperature", "voltage", "tx_power", "tx_bias", "rx_power",
	};

	return (unsigned int)q < DDM_NQ ? n[q] : "unknown";
}

const char *ddm_q_unit(enum ddm_q q)
{
	static const char *const n[DDM_NQ] = { "celsius", "volts", "watts", "amperes", "watts" };

	return (unsigned int)q < DDM_NQ ? n[q] : "";
}

const char *ddm_level_name(enum ddm_level l)
{
	static const char *const n[DDM_NLEVEL] = {
		"high_alarm", "low_alarm", "high_warning", "low_warning",
	};

	return (unsigned int)l < DDM_NLEVEL ? n[l] : "unknown";
}

const char *ddm_kind_name(enum ddm_kind k)
{
	static const char *const n[] = { "none", "sff8636", "cmis", "unknown" };

	return (unsigned int)k <= DDM_UNKNOWN ? n[k] : "unknown";
}
