/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs_plan.h - the files of a port's counter directories the plain sysfs
 * source reads, listed once per port (sysfs_plan.c).
 */
#ifndef FABTEL_SYSFS_PLAN_H
#define FABTEL_SYSFS_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define PLAN_BASE_LEN	384
#define PLAN_HW_MAX	128	/* mapped hw_counters files of one port */

struct port_plan {
	char base[PLAN_BASE_LEN];	/* .../ports/<n>; "" a free plan */
	unsigned int used;		/* the pass it was last used in */
	bool stale;			/* a read failed: list again at next use */
	bool kernel;			/* on sysfs: listed once (else at every use) */
	bool hw_listed, pma_listed;
	bool soft_roce;			/* the hw_counters are rxe's */
	unsigned int nr_hw, nr_pma;
	struct {
		int k;			/* the schema's counter */
		uint8_t width;		/* the driver's counter width, bits */
		char file[56];		/* in hw_counters/ */
	} hw[PLAN_HW_MAX];
	struct {
		unsigned int c;		/* enum fabtel_pma */
		char file[72];		/* counters/<f> or counters_ext/<f>_64 */
	} pma[FABTEL_NR_PMA];
};

/* base's plan, its hw_counters listed if hw and not yet; NULL if base is too long */
struct port_plan *sysfs_plan_get(const char *base, bool hw);
/* list its counters/ and counters_ext/ if not yet */
void sysfs_plan_pma(struct port_plan *pl);
/* after each collector pass: plans not used for a while let go */
void sysfs_plan_pass(void);

#endif /* FABTEL_SYSFS_PLAN_H */
