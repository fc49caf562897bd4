// SPDX-License-Identifier: GPL-2.0
/*
 * schema.c - userspace's view of the one counter schema (schema.h), built
 * from include/fabtel_schema.h's lists as fabtel.ko builds its own.
 */
#include <string.h>

#include "schema.h"

struct schema_ctr {
	const char *name;
	unsigned int width;
	const char *unit;
	bool error;
};

#define SCHEMA_CTR(_id, _name, _width, _unit, _error)			\
	[FABTEL_##_id] = { _name, _width, _unit, _error },
static const struct schema_ctr ctrs[FABTEL_NR_COUNTERS] = {
	FABTEL_COUNTERS(SCHEMA_CTR)
};

struct schema_entry {
	enum fabtel_counter ctr;
	const char *hw;
	unsigned int width;
};

#define SCHEMA_ENTRY(_id, _hw, _width)	{ FABTEL_##_id, _hw, _width },
#define SCHEMA_MAP(_v, _drv, _map)					\
	static const struct schema_entry map_##_v[] = { _map(SCHEMA_ENTRY) };
FABTEL_VENDORS(SCHEMA_MAP)

struct schema_vendor {
	const char *name;
	const struct schema_entry *map;
	unsigned int len;
};

#define SCHEMA_VENDOR(_v, _drv, _map)					\
	{ _drv, map_##_v, sizeof(map_##_v) / sizeof(map_##_v[0]) },
static const struct schema_vendor vendors[] = {
	FABTEL_VENDORS(SCHEMA_VENDOR)
};

#define NR_VENDORS	(sizeof(vendors) / sizeof(vendors[0]))

const char *schema_ctr_name(enum fabtel_counter c)
{
	return (unsigned int)c < FABTEL_NR_COUNTERS ? ctrs[c].name : "unknown";
}

int schema_ctr_find(const char *name)
{
	int c;

	for (c = 0; c < FABTEL_NR_COUNTERS; c++)
		if (!strcmp(ctrs[c].name, name))
			return c;
	return -1;
}

unsigned int schema_ctr_width(enum fabtel_counter c)
{
	return (unsigned int)c < FABTEL_NR_COUNTERS ? ctrs[c].width : 0;
}

const char *schema_ctr_unit(enum fabtel_counter c)
{
	return (unsigned int)c < FABTEL_NR_COUNTERS ? ctrs[c].unit : "unknown";
}

bool schema_ctr_is_error(enum fabtel_counter c)
{
	return (unsigned int)c < FABTEL_NR_COUNTERS && ctrs[c].error;
}

unsigned int schema_vendor_count(void)
{
	return NR_VENDORS;
}

const char *schema_vendor_name(unsigned int v)
{
	return v < NR_VENDORS ? vendors[v].name : NULL;
}

int schema_vendor_entry(unsigned int v, unsigned int i, const char **hw, unsigned int *width)
{
	if (v >= NR_VENDORS || i >= vendors[v].len)
		return -1;
	*hw = vendors[v].map[i].hw;
	*width = vendors[v].map[i].width;
	return (int)vendors[v].map[i].ctr;
}

static int vendor_find(const struct schema_vendor *v, const char *hw_name)
{
	unsigned int i;

	for (i = 0; i < v->len; i++)
		if (!strcmp(v->map[i].hw, hw_name))
			return (int)v->map[i].ctr;
	return -1;
}

int schema_hw_find(const char *driver, const char *hw_name)
{
	unsigned int v;
	int c;

	for (v = 0; driver && v < NR_VENDORS; v++)
		if (!strcmp(vendors[v].name, driver))
			return vendor_find(&vendors[v], hw_name);
	for (v = 0; v < NR_VENDORS; v++) {
		c = vendor_find(&vendors[v], hw_name);
		if (c >= 0)
			return c;
	}
	return -1;
}
