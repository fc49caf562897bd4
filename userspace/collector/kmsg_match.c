// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_match.c - kernel log records through the table of driver messages
 * (kmsg_match.h, kmsg_table.c).  No allocation after init: a flood of
 * lines costs the time to test them, and nothing more.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kmsg_match.h"
#include "text.h"

struct prefix {
	bool has_driver;
	char driver[32], dev[64], name[64];
	const char *rest;		/* the text after the prefix */
};

static bool word(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.:", s[i]))
			return false;
	return n > 0;
}

static void copy_n(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* mlx5's "func:line:(pid N): " after the prefix: where it ends, or s */
static const char *skip_mlx5_site(const char *s)
{
	const char *p = s;

	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	if (p == s || *p++ != ':' || !isdigit((unsigned char)*p))
		return s;
	while (isdigit((unsigned char)*p))
		p++;
	if (strncmp(p, ":(pid ", 6))
		return s;
	p += 6;
	while (isdigit((unsigned char)*p))
		p++;
	return strncmp(p, "): ", 3) ? s : p + 3;
}

/* "DRIVER DEVICE[ NAME]: " or "NAME: " at the start of text */
static void parse_prefix(const char *text, struct prefix *px)
{
	const char *t[3], *end[3];
	unsigned int n;

	memset(px, 0, sizeof(*px));
	px->rest = text;
	t[0] = text;
	for (n = 0; n < 3; n++) {
		end[n] = strchr(t[n], ' ');
		if (!end[n] || !word(t[n], (size_t)(end[n] - t[n])))
			return;
		if (end[n][-1] == ':')
			break;
		if (n < 2)
			t[n + 1] = end[n] + 1;
	}
	if (n == 3)
		return;
	px->rest = end[n] + 1;
	if (n == 0) {		/* "rxe0: ...", "watchdog: ...": no driver */
		copy_n(px->name, sizeof(px->name), t[0], (size_t)(end[0] - t[0] - 1));
		return;
	}
	px->has_driver = true;
	copy_n(px->driver, sizeof(px->driver), t[0], (size_t)(end[0] - t[0]));
	copy_n(px->dev, sizeof(px->dev), t[1], (size_t)(end[1] - t[1] - (n == 1)));
	if (n == 2)
		copy_n(px->name, sizeof(px->name), t[2], (size_t)(end[2] - t[2] - 1));
	px->rest = skip_mlx5_site(px->rest);
}

static bool listed(const char *list, const char *driver)
{
	size_t n = strlen(driver);
	const char *s;

	if (!strcmp(list, "*"))
		return true;
	for (s = strstr(list, driver); s; s = strstr(s + 1, driver))
		if ((s == list || s[-1] == ' ') && (s[n] == ' ' || !s[n]))
			return true;
	return false;
}

int kmsg_matcher_init(struct kmsg_matcher *m)
{
	unsigned int i;
	int err;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < kmsg_nr_patterns; i++) {
		/* no submatches asked: glibc's matcher runs without backtracking */
		err = regcomp(&m->re[i], kmsg_patterns[i].re, REG_EXTENDED |
			      (kmsg_patterns[i].dev_group || kmsg_patterns[i].drv_group ?
			       0 : REG_NOSUB));
		if (err) {
			fprintf(stderr, "fabtel: kmsg pattern %s does not compile (%d)\n",
				kmsg_patterns[i].id, err);
			kmsg_matcher_free(m);
			return -EINVAL;
		}
		m->nr++;
	}
	return 0;
}

void kmsg_matcher_free(struct kmsg_matcher *m)
{
	unsigned int i;

	for (i = 0; i < m->nr; i++)
		regfree(&m->re[i]);
	m->nr = 0;
}

/* the first pattern the line matches, -1 none; its submatches in g */
static int first_match(const struct kmsg_matcher *m, const char *text, const struct prefix *px,
		       regmatch_t g[3], const char **subject)
{
	const struct kmsg_pattern *p;
	unsigned int i;

	for (i = 0; i < m->nr; i++) {
		p = &kmsg_patterns[i];
		if (!p->drivers)
			*subject = text;
		else if (px->has_driver && listed(p->drivers, px->driver))
			*subject = px->rest;
		else
			continue;
		if (p->hint && !strstr(*subject, p->hint))
			continue;
		if (!regexec(&m->re[i], *subject, p->dev_group || p->drv_group ? 3 : 0, g, 0))
			return (int)i;
	}
	return -1;
}

static void group(char *dst, size_t len, const char *s, const regmatch_t *g)
{
	if (g->rm_so >= 0 && g->rm_eo >= g->rm_so)
		copy_n(dst, len, s + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
}

static void fill(struct kmsg_hit *h, int i, const struct kmsg_rec *r, const struct prefix *px,
		 const char *subject, const regmatch_t g[3])
{
	const struct kmsg_pattern *p = &kmsg_patterns[i];
	const char *colon;

	memset(h, 0, sizeof(*h));
	h->pattern = (unsigned int)i;
	h->seq = r->seq;
	h->ts_us = r->ts_us;
	text_copy(h->text, sizeof(h->text), r->text);
	if (p->drivers) {
		text_copy(h->driver, sizeof(h->driver), px->driver);
		text_copy(h->devname, sizeof(h->devname), px->dev);
		text_copy(h->name, sizeof(h->name), px->name);
		/* DEVICE=+pci:0000:03:00.0: the handle pci/0000:03:00.0 */
		colon = r->device[0] == '+' ? strchr(r->device, ':') : NULL;
		if (colon)
			snprintf(h->handle, sizeof(h->handle), "%.*s/%s",
				 (int)(colon - r->device - 1), r->device + 1, colon + 1);
	}
	if (p->dev_group)
		group(h->name, sizeof(h->name), subject, &g[p->dev_group]);
	if (p->drv_group)
		group(h->driver, sizeof(h->driver), subject, &g[p->drv_group]);
}

/* a line of a lockup's dump: the module of a frame ending "[mod]" kept */
static void trace_line(struct kmsg_matcher *m, const char *text, size_t len)
{
	const char *open;
	char mod[40];
	size_t n, have;

	if (len < 3 || text[len - 1] != ']' || !(open = strrchr(text, '[')))
		return;
	n = (size_t)(text + len - 1 - (open + 1));
	if (!n || n >= sizeof(mod) || !word(open + 1, n) || memchr(open + 1, ':', n))
		return;
	copy_n(mod, sizeof(mod), open + 1, n);
	if (listed(m->trace.modules, mod))
		return;
	have = strlen(m->trace.modules);
	if (have + n + 2 > sizeof(m->trace.modules))
		return;
	snprintf(m->trace.modules + have, sizeof(m->trace.modules) - have, "%s%s",
		 have ? " " : "", mod);
}

static bool traced(enum kmsg_kind k)
{
	return k == KMSG_LOCKUP || k == KMSG_HUNG_TASK;
}

unsigned int kmsg_match(struct kmsg_matcher *m, const struct kmsg_rec *r, struct kmsg_hit out[2])
{
	struct prefix px;
	regmatch_t g[3];
	const char *subject = r->text;
	unsigned int n = 0;
	int i;

	if (!kmsg_from_kernel(r))
		return 0;
	parse_prefix(r->text, &px);
	i = first_match(m, r->text, &px, g, &subject);
	if (m->in_trace && (i >= 0 || !--m->trace_left)) {
		out[n++] = m->trace;
		m->in_trace = false;
	} else if (m->in_trace && !strcmp(r->text, " </TASK>")) {
		out[n++] = m->trace;	/* the task's stack ends the dump */
		m->in_trace = false;
	} else if (m->in_trace) {
		trace_line(m, r->text, r->len);
	}
	if (i < 0)
		return n;
	if (traced(kmsg_patterns[i].kind)) {
		fill(&m->trace, i, r, &px, subject, g);
		m->in_trace = true;
		m->trace_left = KMSG_TRACE_LINES;
		m->trace_reads = 0;
		return n;
	}
	fill(&out[n++], i, r, &px, subject, g);
	return n;
}

unsigned int kmsg_match_idle(struct kmsg_matcher *m, struct kmsg_hit *out)
{
	if (!m->in_trace || m->trace_reads++ < 1)
		return 0;
	*out = m->trace;
	m->in_trace = false;
	return 1;
}
