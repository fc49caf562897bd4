// SPDX-License-Identifier: GPL-2.0
/*
 * test_ddm - the module diagnostics decoder (ddm.h) over EEPROM pages built
 * here byte by byte from the SFF-8636 and CMIS 5.0 tables: each monitor,
 * threshold and flag where the spec puts it, in SI units; then what a
 * module can get wrong: no diagnostics, flat memory, missing or unread
 * pages, an identifier nobody decodes.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ddm.h"

static uint8_t lower[128], up[4][128];

static void w16(uint8_t *p, unsigned int at, unsigned int v)
{
	p[at] = (uint8_t)(v >> 8);
	p[at + 1] = (uint8_t)v;
}

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-12 + fabs(b) * 1e-9)

/* a QSFP28: 36.5 C, 3.29 V; lane i rx (i+1)*0.1 mW, bias 6 mA, tx 0.5 mW */
static void sff_image(void)
{
	unsigned int i;

	memset(lower, 0, sizeof(lower));
	memset(up, 0, sizeof(up));
	lower[0] = 0x11;
	w16(lower, 22, 36 * 256 + 128);
	w16(lower, 26, 32900);
	for (i = 0; i < 4; i++) {
		w16(lower, 34 + 2 * i, 1000 * (i + 1));
		w16(lower, 42 + 2 * i, 3000);
		w16(lower, 50 + 2 * i, 5000);
	}
	/* page 03h (offsets 128.. as 0..): rx power thresholds 3.4 mW, 0.02, 2.18, 0.05 */
	w16(up[DDM_UP_01_03], 176 - 128, 34000);
	w16(up[DDM_UP_01_03], 178 - 128, 200);
	w16(up[DDM_UP_01_03], 180 - 128, 21800);
	w16(up[DDM_UP_01_03], 182 - 128, 500);
	w16(up[DDM_UP_01_03], 128 - 128, (unsigned int)(uint16_t)(-5 * 256));
}

static void sff8636_monitors(void **state)
{
	struct ddm_pages pg = { .lower = lower, .up = { NULL, up[DDM_UP_01_03] } };
	struct ddm d;

	(void)state;
	sff_image();
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_int_equal(d.kind, DDM_SFF8636);
	assert_int_equal(d.lanes, 4);
	near(d.value[DDM_TEMP][0], 36.5);
	near(d.value[DDM_VCC][0], 3.29);
	near(d.value[DDM_RX_POWER][2], 0.3e-3);
	near(d.value[DDM_TX_BIAS][1], 6e-3);
	near(d.value[DDM_TX_POWER][3], 0.5e-3);
	assert_true(d.have_thr[DDM_RX_POWER]);
	near(d.thr[DDM_RX_POWER][DDM_LOW_WARNING], 50e-6);
	near(d.thr[DDM_TEMP][DDM_HIGH_ALARM], -5.0);	/* signed */
	assert_true(d.have_flags);
	assert_false(ddm_trouble(&d));
}

/* flags: lane 3's rx power low warning (byte 10, high nibble bit 0), temp high alarm */
static void sff8636_flags(void **state)
{
	struct ddm_pages pg = { .lower = lower, .up = { NULL, up[DDM_UP_01_03] } };
	struct ddm d;

	(void)state;
	sff_image();
	lower[10] = 0x10;
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_int_equal(d.flags[DDM_RX_POWER][DDM_LOW_WARNING], 1 << 2);
	assert_int_equal(d.flags[DDM_RX_POWER][DDM_LOW_ALARM], 0);
	assert_true(ddm_trouble(&d));
	lower[10] = 0;
	lower[6] = 0x80;
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_int_equal(d.flags[DDM_TEMP][DDM_HIGH_ALARM], 1);
	assert_true(ddm_trouble(&d));
	/* no flag, but lane 1 below the module's low-warning power */
	lower[6] = 0;
	w16(lower, 34, 499);
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_true(ddm_trouble(&d));
}

/* no page 03h (not read, or flat memory): monitors only, no flags or thresholds */
static void sff8636_without_page3(void **state)
{
	struct ddm_pages pg = { .lower = lower };
	struct ddm d;

	(void)state;
	sff_image();
	lower[10] = 0x10;
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_true(d.have[DDM_RX_POWER]);
	assert_false(d.have_flags);
	assert_false(d.have_thr[DDM_RX_POWER]);
	assert_false(ddm_trouble(&d));	/* nothing to judge by */
	pg.up[DDM_UP_01_03] = up[DDM_UP_01_03];
	lower[2] = 0x04;		/* flat: page 03h is not there */
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_false(d.have_flags);
	/* a temperature of 0 means no diagnostics at all (as ethtool reads it) */
	lower[2] = 0;
	w16(lower, 22, 0);
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_false(d.have[DDM_TEMP]);
	assert_false(d.have[DDM_RX_POWER]);
}

/* a QSFP-DD: 8 lanes in page 11h, thresholds in 02h, bias multiplier 2 in 01h */
static void cmis_monitors_and_flags(void **state)
{
	struct ddm_pages pg = { .lower = lower,
				.up = { NULL, up[DDM_UP_01_03], up[DDM_UP_02], up[DDM_UP_11] } };
	struct ddm d;
	unsigned int i;

	(void)state;
	memset(lower, 0, sizeof(lower));
	memset(up, 0, sizeof(up));
	lower[0] = 0x18;
	w16(lower, 14, 40 * 256);
	w16(lower, 16, 33000);
	lower[9] = 0x40;				/* Vcc high warning */
	up[DDM_UP_01_03][159 - 128] = 0x03;
	up[DDM_UP_01_03][160 - 128] = 0x07 | 0x08;	/* bias x2 */
	for (i = 0; i < 8; i++) {
		w16(up[DDM_UP_11], 154 - 128 + 2 * i, 9000);
		w16(up[DDM_UP_11], 170 - 128 + 2 * i, 1000);
		w16(up[DDM_UP_11], 186 - 128 + 2 * i, 100 * (i + 1));
	}
	up[DDM_UP_11][152 - 128] = 0x81;		/* rx low warning lanes 1, 8 */
	w16(up[DDM_UP_02], 198 - 128, 500);		/* rx low warning 0.05 mW */
	w16(up[DDM_UP_02], 184 - 128, 7500);		/* bias high alarm, x2 */
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_int_equal(d.kind, DDM_CMIS);
	assert_int_equal(d.lanes, 8);
	near(d.value[DDM_TEMP][0], 40.0);
	near(d.value[DDM_RX_POWER][7], 80e-6);
	near(d.value[DDM_TX_BIAS][0], 4e-3);
	near(d.thr[DDM_TX_BIAS][DDM_HIGH_ALARM], 30e-3);
	near(d.thr[DDM_RX_POWER][DDM_LOW_WARNING], 50e-6);
	assert_int_equal(d.flags[DDM_RX_POWER][DDM_LOW_WARNING], 0x81);
	assert_int_equal(d.flags[DDM_VCC][DDM_HIGH_WARNING], 1);
	assert_true(ddm_trouble(&d));
	/* without page 11h: no lane values; module-level still there */
	pg.up[DDM_UP_11] = NULL;
	assert_int_equal(ddm_decode(&pg, &d), 0);
	assert_false(d.have[DDM_RX_POWER]);
	assert_true(d.have[DDM_TEMP]);
}

static void plans_and_bad_input(void **state)
{
	struct ddm_pages pg = { 0 };
	struct ddm_plan plan;
	struct ddm d;

	(void)state;
	assert_int_equal(ddm_decode(&pg, &d), -ENODATA);
	memset(lower, 0, sizeof(lower));
	lower[0] = 0x03;			/* SFP: not decoded here */
	pg.lower = lower;
	assert_int_equal(ddm_decode(&pg, &d), -EPROTONOSUPPORT);
	assert_int_equal(d.kind, DDM_UNKNOWN);
	assert_int_equal(d.id, 0x03);
	ddm_plan(lower, &plan);
	assert_false(plan.want[0] || plan.want[1] || plan.want[2] || plan.want[3]);
	lower[0] = 0x11;
	ddm_plan(lower, &plan);
	assert_true(plan.want[DDM_UP_01_03]);
	assert_int_equal(plan.page[DDM_UP_01_03], 3);
	lower[0] = 0x19;
	lower[2] = 0x80;			/* flat CMIS: the lower page only */
	ddm_plan(lower, &plan);
	assert_false(plan.want[DDM_UP_11]);
	lower[2] = 0;
	ddm_plan(lower, &plan);
	assert_int_equal(plan.page[DDM_UP_11], 0x11);
	assert_string_equal(ddm_q_name(DDM_RX_POWER), "rx_power");
	assert_string_equal(ddm_level_name(DDM_LOW_WARNING), "low_warning");
	assert_string_equal(ddm_kind_name(DDM_CMIS), "cmis");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sff8636_monitors),
		cmocka_unit_test(sff8636_flags),
		cmocka_unit_test(sff8636_without_page3),
		cmocka_unit_test(cmis_monitors_and_flags),
		cmocka_unit_test(plans_and_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
