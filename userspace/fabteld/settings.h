/* SPDX-License-Identifier: GPL-2.0 */
/*
 * settings.h - every key of fabteld's config file, once: its type, range,
 * default and help (settings.c).  The parser (config.c) takes its
 * defaults, its number ranges and its known keys from the table;
 * deploy/fabteld.conf and the option table of Documentation/fabteld.rst
 * are printed from it (settings_print.c, fabteld --print-settings), and
 * selftests/host/test_settings.sh fails when they differ.
 */
#ifndef FABTELD_SETTINGS_H
#define FABTELD_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum setting_type {
	SETTING_UINT,		/* a whole number in lo..hi, at off in struct config */
	SETTING_TRISTATE,	/* auto, on or off, at off in struct config */
	SETTING_TEXT,		/* any other form: config.c parses it by key */
};

struct setting {
	const char *key;
	enum setting_type type;
	/* the default as the file writes it; NULL: none, or the collector's (to_opts) */
	const char *def;
	const char *shown;	/* the documents' default when not def; NULL: def or none */
	unsigned int lo, hi;	/* SETTING_UINT */
	bool hex;		/* SETTING_UINT: 0x... taken too */
	size_t off;		/* SETTING_UINT, SETTING_TRISTATE: the field */
	/* SETTING_UINT the collector takes as it is: its field in struct collect_opts */
	bool to_opts;
	size_t opts_off;
	const char *form;	/* SETTING_TEXT: the value's form, e.g. "ADDR:PORT" */
	const char *help;	/* what it does (the option table's meaning) */
	/*
	 * deploy/fabteld.conf's comment above the key: NULL for help, "" for
	 * none (the key goes on with the lines before it)
	 */
	const char *conf;
	const char *example;	/* the value deploy/fabteld.conf shows when there is no default */
};

extern const struct setting settings[];
extern const size_t settings_count;

/* The key's entry, or NULL if fabteld has no such key. */
const struct setting *settings_find(const char *key);

/*
 * s's default as the file would write it (in buf when it is the
 * collector's), or NULL if it has none.
 */
const char *settings_default(const struct setting *s, char *buf, size_t len);

/*
 * Print what: "conf" (deploy/fabteld.conf), "rst" (the option table of
 * Documentation/fabteld.rst) or "check" (the defaults the parser sets and
 * the collector's own, against the table; a line per difference).  0, 1 if
 * check found a difference, -1 if what is none of these.
 */
int settings_print(const char *what, FILE *f);

#endif /* FABTELD_SETTINGS_H */
