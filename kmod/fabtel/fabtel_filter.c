// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - which RDMA devices fabtel.ko tracks: module parameters with
 * comma-separated shell globs (glob_match: *, ?, [...]) on the device's
 * name (include, exclude) and on its driver as /sys/kernel/fabtel/<dev>/
 * driver names it (include_drivers, exclude_drivers).  A device is tracked
 * when every include list that is set matches it and no exclude list does.
 * An excluded device gets no directory and no read; the lists are read at
 * load and as each device arrives (they are load-time parameters).
 * Documentation/fabtel.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/glob.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "fabtel.h"

#define FABTEL_GLOB_MAX	64

static char *fabtel_include;
static char *fabtel_exclude;
static char *fabtel_include_drivers;
static char *fabtel_exclude_drivers;

module_param_named(include, fabtel_include, charp, 0444);
MODULE_PARM_DESC(include,
		 "track only devices whose name matches one of these globs (comma-separated)");
module_param_named(exclude, fabtel_exclude, charp, 0444);
MODULE_PARM_DESC(exclude,
		 "never track devices whose name matches one of these globs (comma-separated)");
module_param_named(include_drivers, fabtel_include_drivers, charp, 0444);
MODULE_PARM_DESC(include_drivers,
		 "track only devices of these drivers "
		 "(globs, comma-separated: mlx5,bnxt_re,irdma,rxe)");
module_param_named(exclude_drivers, fabtel_exclude_drivers, charp, 0444);
MODULE_PARM_DESC(exclude_drivers, "never track devices of these drivers (globs, comma-separated)");

/* Whether one of the comma-separated globs of @list matches @name. */
static bool fabtel_list_matches(const char *list, const char *name)
{
	char pat[FABTEL_GLOB_MAX];
	const char *end;
	size_t len;

	while (*list) {
		end = strchrnul(list, ',');
		len = end - list;
		if (len && len < sizeof(pat)) {
			memcpy(pat, list, len);
			pat[len] = '\0';
			if (glob_match(pat, name))
				return true;
		}
		list = *end ? end + 1 : end;
	}
	return false;
}

/*
 * NULL when the device is to be tracked, else the parameter that leaves it
 * out (for the log line).
 */
const char *fabtel_filter_reason(const char *name, const char *driver)
{
	if (fabtel_include && *fabtel_include &&
	    !fabtel_list_matches(fabtel_include, name))
		return "include";
	if (fabtel_exclude && fabtel_list_matches(fabtel_exclude, name))
		return "exclude";
	if (fabtel_include_drivers && *fabtel_include_drivers &&
	    !fabtel_list_matches(fabtel_include_drivers, driver))
		return "include_drivers";
	if (fabtel_exclude_drivers &&
	    fabtel_list_matches(fabtel_exclude_drivers, driver))
		return "exclude_drivers";
	return NULL;
}

/* At load: a glob longer than FABTEL_GLOB_MAX - 1 would never match. */
int fabtel_filter_check(void)
{
	const char *lists[] = { fabtel_include, fabtel_exclude,
				fabtel_include_drivers, fabtel_exclude_drivers };
	const char *l, *end;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		for (l = lists[i]; l && *l; l = *end ? end + 1 : end) {
			end = strchrnul(l, ',');
			if (end - l >= FABTEL_GLOB_MAX) {
				pr_err("a glob in include/exclude is longer than %d characters\n",
				       FABTEL_GLOB_MAX - 1);
				return -EINVAL;
			}
		}
	}
	return 0;
}
