// SPDX-License-Identifier: GPL-2.0
/*
 * config_value.c - the value forms settings share (config_value.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config_value.h"

static const char *const tristate_names[] = {
	[CONFIG_AUTO] = "auto",
	[CONFIG_ON] = "on",
	[CONFIG_OFF] = "off",
};

int config_parse_uint(const char *v, unsigned int lo, unsigned int hi, bool hex, unsigned int *out)
{
	unsigned long n;
	char *end;

	if (!isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	n = strtoul(v, &end, hex && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 16 : 10);
	if (errno || *end || n < lo || n > hi)
		return -1;
	*out = (unsigned int)n;
	return 0;
}

int config_parse_tristate(const char *v, enum config_tristate *out)
{
	unsigned int i;

	for (i = 0; i < sizeof(tristate_names) / sizeof(tristate_names[0]); i++) {
		if (!strcmp(v, tristate_names[i])) {
			*out = (enum config_tristate)i;
			return 0;
		}
	}
	return -1;
}

const char *config_tristate_name(enum config_tristate t)
{
	return t <= CONFIG_OFF ? tristate_names[t] : "?";
}
