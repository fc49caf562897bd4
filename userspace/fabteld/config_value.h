/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config_value.h - the value forms settings share: a whole number in a
 * range, auto/on/off.  The lowest layer of the config parser (config.c,
 * config_probe.c): it knows no key.
 */
#ifndef FABTELD_CONFIG_VALUE_H
#define FABTELD_CONFIG_VALUE_H

#include <stdbool.h>

enum config_tristate {
	CONFIG_AUTO,
	CONFIG_ON,
	CONFIG_OFF,
};

/*
 * v as a whole number in lo..hi (decimal; with hex, 0x... too) into *out:
 * 0, or -1 if it is not one.
 */
int config_parse_uint(const char *v, unsigned int lo, unsigned int hi, bool hex,
		      unsigned int *out);

/* "auto", "on" or "off" into *out: 0, or -1 if it is none of them. */
int config_parse_tristate(const char *v, enum config_tristate *out);

/* The word for t ("auto", "on", "off"). */
const char *config_tristate_name(enum config_tristate t);

#endif /* FABTELD_CONFIG_VALUE_H */
