// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ddm - libFuzzer target: the module EEPROM decoder (ddm.h).
 *
 * The input is cut into a lower page and up to four upper pages of 128
 * bytes (a page the input does not fill whole is absent, as a short read
 * is).  Whatever the bytes, ddm_decode returns 0, -ENODATA or
 * -EPROTONOSUPPORT, its lane count is 0, 4 or 8, and every value it calls
 * present is a finite number.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ddm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ddm_pages pg = { 0 };
	struct ddm_plan plan;
	struct ddm d;
	unsigned int k, q, i;
	int err;

	if (size >= DDM_PAGE_LEN) {
		pg.lower = data;
		ddm_plan(data, &plan);
	}
	for (k = 0; k < 4; k++)
		if (size >= (k + 2) * DDM_PAGE_LEN)
			pg.up[k] = data + (k + 1) * DDM_PAGE_LEN;
	err = ddm_decode(&pg, &d);
	if (err && err != -ENODATA && err != -EPROTONOSUPPORT)
		abort();
	if (d.lanes != 0 && d.lanes != 4 && d.lanes != DDM_MAX_LANES)
		abort();
	for (q = 0; q < DDM_NQ; q++)
		for (i = 0; d.have[q] && i < (DDM_LANE_Q(q) ? d.lanes : 1); i++)
			if (!isfinite(d.value[q][i]))
				abort();
	(void)ddm_trouble(&d);
	return 0;
}
