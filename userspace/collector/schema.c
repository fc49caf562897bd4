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

static const struct schema_entry *vendor_find(const struct schema_vendor *v, const char *hw_name)
{
	unsigned int i;

	for (i = 0; i < v->len; i++)
		if (!strcmp(v->map[i].hw, hw_name))
			return &v->map[i];
	return NULL;
}

int schema_hw_lookup(const char *driver, const char *hw_name, unsigned int *width)
{
	const struct schema_entry *e, *found = NULL;
	unsigned int v;

	for (v = 0; driver && v < NR_VENDORS; v++) {
		if (strcmp(vendors[v].name, driver))
			continue;
		e = vendor_find(&vendors[v], hw_name);
		if (e)
			*width = e->width;
		return e ? (int)e->ctr : -1;
	}
	*width = 64;
	for (v = 0; v < NR_VENDORS; v++) {
		e = vendor_find(&vendors[v], hw_name);
		if (!e)
			continue;
		if (!found)
			found = e;
		if (e->width < *width)
			*width = e->width;
	}
	return found ? (int)found->ctr : -1;
}

int schema_hw_find(const char *driver, const char *hw_name)
{
	unsigned int width;

	return schema_hw_lookup(driver, hw_name, &width);
}

const char *schema_vendor_guess(const char *const *hw_names, unsigned int n)
{
	unsigned int v, i, hits, best = 0, best_v = 0;
	bool tie = false;

	for (v = 0; v < NR_VENDORS; v++) {
		for (hits = 0, i = 0; i < n; i++)
			hits += vendor_find(&vendors[v], hw_names[i]) != NULL;
		if (hits > best) {
			best = hits;
			best_v = v;
			tie = false;
		} else if (hits && hits == best) {
			tie = true;
		}
	}
	return best && !tie ? vendors[best_v].name : NULL;
}

/* ---- the IB port (PMA) counters ------------------------------------------ */

static const struct {
	const char *file, *metric;
	unsigned int width, scale;
	bool error;
} pmas[FABTEL_NR_PMA] = {
#define PMA_ROW(id, f, mt, w, sc, e) [FABTEL_PMA_##id] = { f, mt, w, sc, e },
	FABTEL_PMA_COUNTERS(PMA_ROW)
#undef PMA_ROW
};

const char *schema_pma_file(enum fabtel_pma c)
{
	return (unsigned int)c < FABTEL_NR_PMA ? pmas[c].file : NULL;
}

const char *schema_pma_metric(enum fabtel_pma c)
{
	return (unsigned int)c < FABTEL_NR_PMA ? pmas[c].metric : NULL;
}

unsigned int schema_pma_width(enum fabtel_pma c)
{
	return (unsigned int)c < FABTEL_NR_PMA ? pmas[c].width : 0;
}

unsigned int schema_pma_scale(enum fabtel_pma c)
{
	return (unsigned int)c < FABTEL_NR_PMA && pmas[c].scale ? pmas[c].scale : 1;
}

bool schema_pma_is_error(enum fabtel_pma c)
{
	return (unsigned int)c < FABTEL_NR_PMA && pmas[c].error;
}
