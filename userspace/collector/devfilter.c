// SPDX-License-Identifier: GPL-2.0
/*
 * devfilter.c - the include and exclude lists of RDMA devices (devfilter.h):
 * their config values checked and split, and the match of a device's name
 * and driver against them.  No I/O: the driver is read at discovery
 * (devshape.c), the lists are asked by devices.c before anything of the
 * device is read.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "devfilter.h"

static const char *const keys[DF_NR] = {
	[DF_INCLUDE_DEVICES] = "include_devices",
	[DF_EXCLUDE_DEVICES] = "exclude_devices",
	[DF_INCLUDE_DRIVERS] = "include_drivers",
	[DF_EXCLUDE_DRIVERS] = "exclude_drivers",
};

const char *devfilter_key(enum devfilter_rule r)
{
	return r < DF_NR ? keys[r] : "?";
}

/* past a bracket expression that starts at s ('['): its ']' + 1, or NULL if unclosed */
static const char *bracket_end(const char *s)
{
	s++;
	if (*s == '!' || *s == '^')
		s++;
	if (*s == ']')
		s++;		/* a ']' first is one of the set */
	for (; *s && *s != ']'; s++)
		if (*s == '\\' && !*++s)
			return NULL;
	return *s ? s + 1 : NULL;
}

const char *devfilter_glob_error(const char *glob)
{
	const char *s = glob;

	if (!*s)
		return "an empty glob";
	if (strlen(s) >= DEVFILTER_GLOB_LEN)
		return "longer than 63 bytes";
	while (*s) {
		if (!isgraph((unsigned char)*s) || *s == '/')
			return "a character no device or driver name has";
		if (*s == '[') {
			s = bracket_end(s);
			if (!s)
				return "an unclosed '['";
			continue;
		}
		if (*s == '\\' && !s[1])
			return "a '\\' at its end";
		s += *s == '\\' ? 2 : 1;
	}
	return NULL;
}

int devfilter_set(struct devfilter *f, const char *key, const char *value, char *err,
		  size_t errlen)
{
	char glob[DEVFILTER_MAX_GLOBS][DEVFILTER_GLOB_LEN];
	const char *s = value, *why;
	unsigned int r, n = 0;
	size_t len;

	for (r = 0; r < DF_NR && strcmp(key, keys[r]); r++)
		;
	if (r == DF_NR)
		return 1;
	while (*(s += strspn(s, " \t,"))) {
		len = strcspn(s, " \t,");
		if (n == DEVFILTER_MAX_GLOBS) {
			snprintf(err, errlen, "%s: more than %d globs", key, DEVFILTER_MAX_GLOBS);
			return -1;
		}
		snprintf(glob[n], sizeof(glob[n]), "%.*s", (int)len, s);
		why = len >= DEVFILTER_GLOB_LEN ? "longer than 63 bytes" :
						  devfilter_glob_error(glob[n]);
		if (why) {
			snprintf(err, errlen, "%s: '%.*s' is not a glob of a name (%s)", key,
				 (int)(len > 80 ? 80 : len), s, why);
			return -1;
		}
		n++;
		s += len;
	}
	if (!n) {
		snprintf(err, errlen, "%s wants one or more globs", key);
		return -1;
	}
	memcpy(f->glob[r], glob, sizeof(glob));
	f->n[r] = n;
	return 0;
}

bool devfilter_active(const struct devfilter *f)
{
	unsigned int r;

	for (r = 0; f && r < DF_NR; r++)
		if (f->n[r])
			return true;
	return false;
}

bool devfilter_wants_driver(const struct devfilter *f)
{
	return f && (f->n[DF_INCLUDE_DRIVERS] || f->n[DF_EXCLUDE_DRIVERS]);
}

/* the first glob of list r that matches name, or NULL */
static const char *match(const struct devfilter *f, enum devfilter_rule r, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->n[r]; i++)
		if (!fnmatch(f->glob[r][i], name, 0))
			return f->glob[r][i];
	return NULL;
}

/*
 * The pair of lists (include, exclude) against name: true if they leave it
 * out, hit filled.  The exclude list wins over the include list.
 */
static bool left_out(const struct devfilter *f, enum devfilter_rule inc, const char *name,
		     struct devfilter_hit *hit)
{
	enum devfilter_rule exc = inc + 1;
	const char *m = match(f, exc, name);

	if (!m && (!f->n[inc] || match(f, inc, name)))
		return false;
	if (hit) {
		hit->rule = m ? exc : inc;
		snprintf(hit->match, sizeof(hit->match), "%s", m ? m : "");
	}
	return true;
}

bool devfilter_by_name(const struct devfilter *f, const char *dev, struct devfilter_hit *hit)
{
	if (!devfilter_active(f) || !left_out(f, DF_INCLUDE_DEVICES, dev, hit))
		return false;
	if (hit) {
		snprintf(hit->device, sizeof(hit->device), "%s", dev);
		hit->driver[0] = '\0';
	}
	return true;
}

bool devfilter_by_driver(const struct devfilter *f, const char *dev, const char *driver,
			 struct devfilter_hit *hit)
{
	if (!devfilter_wants_driver(f) || !left_out(f, DF_INCLUDE_DRIVERS, driver, hit))
		return false;
	if (hit) {
		snprintf(hit->device, sizeof(hit->device), "%s", dev);
		snprintf(hit->driver, sizeof(hit->driver), "%s", driver);
	}
	return true;
}
