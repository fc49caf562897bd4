// SPDX-License-Identifier: GPL-2.0
/*
 * settings_print.c - deploy/fabteld.conf and the option table of
 * Documentation/fabteld.rst, printed from the settings table (settings.c),
 * and the check that the parser's defaults and the collector's are the
 * table's (fabteld --print-settings, selftests/host/test_settings.sh).
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "settings.h"

#define CONF_WIDTH	76	/* deploy/fabteld.conf's comment lines */
#define RST_VALUES	15	/* the option table's columns that wrap */
#define RST_MEANING	40
#define NONE		"—"

/* Characters, not bytes (the help has a µ, the table a dash). */
static size_t width(const char *s, size_t n)
{
	size_t w = 0, i;

	for (i = 0; i < n && s[i]; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/*
 * The next line of text at most max characters wide (a longer word
 * whole): its length in bytes; *next is where the one after starts.
 */
static size_t next_line(const char *text, size_t max, const char **next)
{
	size_t end = 0, i;

	for (i = 0; text[i]; i++) {
		if (text[i] != ' ')
			continue;
		if (end && width(text, i) > max)
			break;
		end = i;
	}
	if (!text[i] && (!end || width(text, i) <= max))
		end = i;
	*next = text + end;
	while (**next == ' ')
		(*next)++;
	return end;
}

/* What the value looks like: "LO..HI", "auto, on, off" or the form. */
static const char *values(const struct setting *s, char *buf, size_t len)
{
	if (s->type == SETTING_TRISTATE)
		return "auto, on, off";
	if (s->type == SETTING_TEXT)
		return s->form;
	snprintf(buf, len, s->hex ? "%u..%#x" : "%u..%u", s->lo, s->hi);
	return buf;
}

static void print_comment(FILE *f, const char *text)
{
	const char *next;
	size_t n;

	while (*text) {
		n = next_line(text, CONF_WIDTH - 2, &next);
		fprintf(f, "# %.*s\n", (int)n, text);
		text = next;
	}
}

static void print_conf(FILE *f)
{
	char buf[64], range[32], help[512];
	const char *v;
	size_t i;

	fprintf(f, "# fabteld configuration (Documentation/fabteld.rst, CONFIGURATION), written\n"
		   "# from fabteld's settings table: fabteld --print-settings conf.\n"
		   "# key = value; the values below are the defaults, commented out (an\n"
		   "# example where a key has none).\n");
	for (i = 0; i < settings_count; i++) {
		const struct setting *s = &settings[i];

		if (!s->conf || s->conf[0])
			fputc('\n', f);
		if (s->conf) {
			print_comment(f, s->conf);
		} else {
			snprintf(help, sizeof(help), "%s: %s%s%s%s", s->key, s->help,
				 s->type == SETTING_UINT ? " (" : "",
				 s->type == SETTING_UINT ? values(s, range, sizeof(range)) : "",
				 s->type == SETTING_UINT ? ")." : ".");
			print_comment(f, help);
		}
		v = settings_default(s, buf, sizeof(buf));
		fprintf(f, "#%s = %s\n", s->key, v ? v : s->example ? s->example : "");
	}
}

/* text into line at *at, then spaces to w characters and two more (w: 0 for none) */
static void cell(char *line, size_t len, size_t *at, const char *text, size_t n, size_t w)
{
	size_t have = width(text, n);

	*at += (size_t)snprintf(line + *at, len - *at, "%.*s", (int)n, text);
	while (w && have++ < w + 2 && *at < len - 1)
		line[(*at)++] = ' ';
	line[*at] = '\0';
}

/* line without its trailing spaces */
static void put_line(FILE *f, char *line, size_t at)
{
	while (at && line[at - 1] == ' ')
		at--;
	fprintf(f, "%.*s\n", (int)at, line);
}

static void rst_rule(FILE *f, const size_t *w)
{
	unsigned int c;
	size_t i;

	for (c = 0; c < 4; c++) {
		for (i = 0; i < w[c]; i++)
			fputc('=', f);
		fputs(c < 3 ? "  " : "\n", f);
	}
}

static void rst_row(FILE *f, const size_t *w, const char *key, const char *def,
		    const char *val, const char *help)
{
	char line[512];
	const char *next;
	size_t n, at = 0;

	cell(line, sizeof(line), &at, key, strlen(key), w[0]);
	cell(line, sizeof(line), &at, def, strlen(def), w[1]);
	while (*val || *help) {
		n = next_line(val, w[2], &next);
		cell(line, sizeof(line), &at, val, n, w[2]);
		val = next;
		n = next_line(help, w[3], &next);
		cell(line, sizeof(line), &at, help, n, 0);
		help = next;
		put_line(f, line, at);
		at = 0;
		cell(line, sizeof(line), &at, "", 0, w[0]);
		cell(line, sizeof(line), &at, "", 0, w[1]);
	}
}

static const char *shown(const struct setting *s, char *buf, size_t len)
{
	const char *d = settings_default(s, buf, len);

	return s->shown ? s->shown : d ? d : NONE;
}

static void print_rst(FILE *f)
{
	size_t w[4] = { strlen("key"), strlen("default"), RST_VALUES, RST_MEANING }, i, n;
	char buf[64], range[32];

	for (i = 0; i < settings_count; i++) {
		n = strlen(settings[i].key);
		w[0] = n > w[0] ? n : w[0];
		n = width(shown(&settings[i], buf, sizeof(buf)), sizeof(buf));
		w[1] = n > w[1] ? n : w[1];
	}
	rst_rule(f, w);
	rst_row(f, w, "key", "default", "values", "meaning");
	rst_rule(f, w);
	for (i = 0; i < settings_count; i++)
		rst_row(f, w, settings[i].key, shown(&settings[i], buf, sizeof(buf)),
			values(&settings[i], range, sizeof(range)), settings[i].help);
	rst_rule(f, w);
}

/*
 * The defaults config_defaults() sets, key by key, against the table's
 * read by the parser, and what the collector is then told against its
 * own defaults (fabtop's): a line per difference, the count.
 */
static int check(FILE *f)
{
	struct config c, want;
	struct collect_opts o, mine;
	char buf[64], err[512];
	const char *d;
	int bad = 0;
	size_t i;

	config_defaults(&c);
	memset(&want, 0, sizeof(want));
	want.roce_tos = CONFIG_TOS_UNSET;
	probe_cfg_defaults(&want.probe_cfg);
	for (i = 0; i < settings_count; i++) {
		const struct setting *s = &settings[i];

		d = settings_default(s, buf, sizeof(buf));
		if (d && config_set(&want, s->key, d, err, sizeof(err))) {
			fprintf(f, "%s: the parser refuses the default '%s': %s\n", s->key, d, err);
			bad++;
		} else if (s->type != SETTING_TEXT &&
			   memcmp((char *)&c + s->off, (char *)&want + s->off, sizeof(unsigned int))) {
			fprintf(f, "%s: config_defaults() sets another value than '%s'\n", s->key,
				d ? d : "(none)");
			bad++;
		}
	}
	if (!bad && memcmp(&c, &want, sizeof(c))) {
		fprintf(f, "config_defaults() sets a text setting otherwise than the table\n");
		bad++;
	}
	config_collect_opts(&c, &o);
	collect_opts_default(&mine);
	o.job_rules = mine.job_rules;
	o.devfilter = mine.devfilter;
	/* where records are kept is the daemon's alone: the collector's default is none */
	memcpy(o.record_dir, mine.record_dir, sizeof(o.record_dir));
	/* ...and so is this host's name (host_name: the machine's) */
	memcpy(o.host_name, mine.host_name, sizeof(o.host_name));
	if (memcmp(&o, &mine, sizeof(o))) {
		fprintf(f, "collect_opts_default() differs from the defaults fabteld passes the collector\n");
		bad++;
	}
	return bad;
}

int settings_print(const char *what, FILE *f)
{
	if (!strcmp(what, "conf"))
		print_conf(f);
	else if (!strcmp(what, "rst"))
		print_rst(f);
	else if (!strcmp(what, "check"))
		return check(f) ? 1 : 0;
	else
		return -1;
	return 0;
}
