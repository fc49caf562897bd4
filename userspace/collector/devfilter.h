/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devfilter.h - which RDMA devices fabteld leaves out: fnmatch globs on the
 * device's name (include_devices, exclude_devices) and on its driver as
 * fabtel names it (include_drivers, exclude_drivers: mlx5, bnxt_re, irdma,
 * rxe, unknown; devshape.h).  A device is kept when every include list
 * that is set matches it and no exclude list does (devfilter.c,
 * Documentation/fabteld.rst "Which devices").
 */
#ifndef FABTEL_DEVFILTER_H
#define FABTEL_DEVFILTER_H

#include <stdbool.h>
#include <stddef.h>

#define DEVFILTER_MAX_GLOBS	16	/* globs of one key */
#define DEVFILTER_GLOB_LEN	64	/* bytes of one, its NUL included */

enum devfilter_rule {
	DF_INCLUDE_DEVICES,
	DF_EXCLUDE_DEVICES,
	DF_INCLUDE_DRIVERS,
	DF_EXCLUDE_DRIVERS,
	DF_NR,
};

struct devfilter {
	char glob[DF_NR][DEVFILTER_MAX_GLOBS][DEVFILTER_GLOB_LEN];
	unsigned int n[DF_NR];		/* 0: the list is not set */
};

/* A device left out, and the rule that left it out. */
struct devfilter_hit {
	char device[64];
	char driver[32];		/* "" when the rule did not need it */
	enum devfilter_rule rule;
	char match[DEVFILTER_GLOB_LEN];	/* the exclude glob that matched; "" for an include list */
};

/* the config key of a rule: "include_devices", ... */
const char *devfilter_key(enum devfilter_rule r);

/*
 * key = value, the value's globs separated by spaces or commas; a key set
 * again replaces its list.  0; -1 with err (a bad glob, too many); 1 when
 * key is not one of the four.
 */
int devfilter_set(struct devfilter *f, const char *key, const char *value, char *err,
		  size_t errlen);

/* a glob fnmatch takes whole: NULL, or what is wrong with it */
const char *devfilter_glob_error(const char *glob);

/* any list set / a driver list set (the driver must be known first) */
bool devfilter_active(const struct devfilter *f);
bool devfilter_wants_driver(const struct devfilter *f);

/*
 * Whether the device lists leave dev out (hit, when not NULL, says how);
 * f NULL: never.
 */
bool devfilter_by_name(const struct devfilter *f, const char *dev, struct devfilter_hit *hit);
/* The same for the driver lists, with the device's driver. */
bool devfilter_by_driver(const struct devfilter *f, const char *dev, const char *driver,
			 struct devfilter_hit *hit);

#endif /* FABTEL_DEVFILTER_H */
