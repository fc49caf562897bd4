/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schema.h - the one counter schema (include/fabtel_schema.h), as userspace
 * looks it up: the normalized counters' names, widths, units, and the
 * vendor maps from driver hw_counters names.
 */
#ifndef FABTEL_SCHEMA_USER_H
#define FABTEL_SCHEMA_USER_H

#include <stdbool.h>

#include "fabtel_schema.h"

/* "out_of_sequence", ...; "unknown" out of range. */
const char *schema_ctr_name(enum fabtel_counter c);
/* The counter of that name, -1 if none. */
int schema_ctr_find(const char *name);
/* Bits of the value fabtel.ko exports (0 out of range). */
unsigned int schema_ctr_width(enum fabtel_counter c);
/* "packets", "bytes", "events"; "unknown" out of range. */
const char *schema_ctr_unit(enum fabtel_counter c);
/* A rise between two samples is an error-burst event. */
bool schema_ctr_is_error(enum fabtel_counter c);

/* The vendors with a map, 0 ..< schema_vendor_count(). */
unsigned int schema_vendor_count(void);
/* The driver's name ("mlx5", ...), NULL past the end. */
const char *schema_vendor_name(unsigned int v);
/*
 * The i-th entry of vendor v's map: its driver counter's name and width
 * (bits); the normalized counter, or -1 past the end.
 */
int schema_vendor_entry(unsigned int v, unsigned int i, const char **hw, unsigned int *width);

/*
 * The normalized counter a driver's hw_counters file feeds, -1 if none.
 * driver NULL (or one without a map): any vendor's map, as plain sysfs
 * does not say which driver a device has; no two vendors map one name to
 * different counters (test_schema checks).
 */
int schema_hw_find(const char *driver, const char *hw_name);
/*
 * The same, and the width in bits of the driver's counter: with no driver,
 * 32 if any vendor's counter of that name is 32 bits wide (it may wrap).
 */
int schema_hw_lookup(const char *driver, const char *hw_name, unsigned int *width);
/*
 * The vendor whose map names the most of these driver counters, NULL if
 * none or a tie: plain sysfs does not say which driver a device has, its
 * hw_counters do.
 */
const char *schema_vendor_guess(const char *const *hw_names, unsigned int n);

/*
 * The IB port (PMA) counters, 0 ..< FABTEL_NR_PMA: the file in
 * ports/<n>/counters/, the metric's name part, the PMA's width in bits,
 * bytes per count (1 for counts of events or packets), error or not.
 */
const char *schema_pma_file(enum fabtel_pma c);
const char *schema_pma_metric(enum fabtel_pma c);
unsigned int schema_pma_width(enum fabtel_pma c);
unsigned int schema_pma_scale(enum fabtel_pma c);
bool schema_pma_is_error(enum fabtel_pma c);

#endif /* FABTEL_SCHEMA_USER_H */
