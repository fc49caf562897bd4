/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddm.h - a pluggable module's digital diagnostics (DDM/DOM) decoded from
 * its EEPROM pages: SFF-8636 (QSFP+, QSFP28) and CMIS (QSFP-DD, OSFP):
 * temperature, supply voltage, per-lane tx power, tx bias and rx power,
 * the module's own thresholds and its alarm and warning flags.  Values in
 * SI units.  Pure: no I/O; every page pointer may be NULL (not read, not
 * present), each non-NULL page is 128 bytes.
 */
#ifndef FABTEL_DDM_H
#define FABTEL_DDM_H

#include <stdbool.h>
#include <stdint.h>

#define DDM_PAGE_LEN	128
#define DDM_MAX_LANES	8

enum ddm_kind { DDM_NONE, DDM_SFF8636, DDM_CMIS, DDM_UNKNOWN };

/* The quantities: module-level first, then per lane. */
enum ddm_q { DDM_TEMP, DDM_VCC, DDM_TX_POWER, DDM_TX_BIAS, DDM_RX_POWER, DDM_NQ };
#define DDM_LANE_Q(q)	((q) >= DDM_TX_POWER)

enum ddm_level { DDM_HIGH_ALARM, DDM_LOW_ALARM, DDM_HIGH_WARNING, DDM_LOW_WARNING, DDM_NLEVEL };

struct ddm_pages {
	const uint8_t *lower;		/* bytes 0..127 */
	const uint8_t *up[4];		/* upper pages 00h, 01h/03h (see below), 02h, 11h */
};
/* up[] slots: SFF-8636 uses DDM_UP_00 and DDM_UP_03; CMIS 00h, 01h, 02h, 11h */
enum { DDM_UP_00, DDM_UP_01_03, DDM_UP_02, DDM_UP_11 };

struct ddm {
	enum ddm_kind kind;
	uint8_t id;			/* SFF-8024 identifier */
	unsigned int lanes;		/* 4 (SFF-8636) or 8 (CMIS bank 0) */
	bool have[DDM_NQ];		/* monitored: module value or every lane */
	double value[DDM_NQ][DDM_MAX_LANES];	/* [q][0] for module-level ones */
	bool have_thr[DDM_NQ];
	double thr[DDM_NQ][DDM_NLEVEL];
	bool have_flags;		/* the module reports its flags */
	/* flag of quantity q at level l: bit per lane (bit 0 for module-level) */
	uint8_t flags[DDM_NQ][DDM_NLEVEL];
};

/* The pages to read for a module whose lower page is this. */
struct ddm_plan {
	enum ddm_kind kind;
	uint8_t page[4];		/* per up[] slot */
	bool want[4];
};
void ddm_plan(const uint8_t *lower, struct ddm_plan *plan);

/*
 * Decode; 0, -ENODATA without a lower page, -EPROTONOSUPPORT for an
 * identifier neither SFF-8636 nor CMIS (out->kind DDM_UNKNOWN, out->id set).
 */
int ddm_decode(const struct ddm_pages *pg, struct ddm *out);

const char *ddm_q_name(enum ddm_q q);		/* "temperature", "rx_power", ... */
const char *ddm_q_unit(enum ddm_q q);		/* "celsius", "watts", ... */
const char *ddm_level_name(enum ddm_level l);	/* "high_alarm", ... */
const char *ddm_kind_name(enum ddm_kind k);	/* "sff8636", "cmis", ... */

/* Any alarm flag, or an rx power below its low warning threshold (the module's). */
bool ddm_trouble(const struct ddm *d);

#endif /* FABTEL_DDM_H */
