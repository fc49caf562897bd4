// SPDX-License-Identifier: GPL-2.0
/*
 * source_ko.c - the ports as fabtel.ko samples them: one snapshot file per
 * port, /sys/kernel/fabtel/<dev>/ports/<n>/snapshot, read whole (one read,
 * one consistent sample; Documentation/ABI/testing/sysfs-kernel-fabtel).
 *
 * Up while /sys/kernel/fabtel exists and every snapshot parses; while it
 * exists, the plain sysfs source stands by (source_sysfs.c).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsread.h"
#include "schema.h"
#include "source.h"

/* "key N" lines that are counts: where the value and its flag go */
static const struct {
	const char *key;
	size_t val, have;
} count_keys[] = {
	{ "link_flaps", offsetof(struct raw_port, flaps), offsetof(struct raw_port, have_flaps) },
	{ "events_seq", offsetof(struct raw_port, bursts), offsetof(struct raw_port, have_bursts) },
	{ "events_dropped", offsetof(struct raw_port, events_dropped),
	  offsetof(struct raw_port, have_events_dropped) },
	{ "dcb_busy_skips", offsetof(struct raw_port, dcb_busy_skips),
	  offsetof(struct raw_port, have_busy_skips) },
	{ "pma_errors", offsetof(struct raw_port, pma_errors),
	  offsetof(struct raw_port, have_pma_errors) },
};

/*
 * A snapshot line split at its blanks, in place: tok[0] the key.  The
 * parse runs for every port at every sample, so no sscanf: the tokens are
 * compared and converted as they are.
 */
#define KO_TOKENS	9

struct ko_line {
	char *tok[KO_TOKENS];
	unsigned int n;
};

static void ko_split(char *line, struct ko_line *l)
{
	l->n = 0;
	while (*line && l->n < KO_TOKENS) {
		while (*line == ' ' || *line == '\t')
			*line++ = '\0';
		if (!*line)
			break;
		l->tok[l->n++] = line;
		while (*line && *line != ' ' && *line != '\t')
			line++;
	}
	if (*line)		/* more tokens than any line has: none usable */
		l->n = 0;
}

/* a whole unsigned number in base 10 (16: "0x" allowed) */
static bool ko_u64(const char *s, int base, unsigned long long *v)
{
	char *end;

	if (!isxdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return !*end && !errno;
}

static bool parse_count_line(const struct ko_line *l, struct raw_port *p)
{
	unsigned long long a;
	size_t i;

	for (i = 0; i < sizeof(count_keys) / sizeof(count_keys[0]); i++) {
		if (strcmp(l->tok[0], count_keys[i].key))
			continue;
		if (l->n == 2 && ko_u64(l->tok[1], 10, &a)) {
			*(uint64_t *)((char *)p + count_keys[i].val) = a;
			*(bool *)((char *)p + count_keys[i].have) = true;
		}
		return true;
	}
	return false;
}

/*
 * The netdev's byte totals ("-": no netdev: nothing to read elsewhere) and
 * speed ("-": not read or unknown: the speed file is read instead).
 */
static void parse_netdev_line(const char *k, const char *v, struct raw_port *p)
{
	unsigned long long n = 0;
	bool num = ko_u64(v, 10, &n);

	if (!strcmp(k, "netdev_rx_bytes")) {
		p->nd_by_ko = true;
		p->nd_rx_bytes = n;
		p->have_nd = num;
	} else if (!strcmp(k, "netdev_tx_bytes")) {
		p->nd_by_ko = true;
		p->nd_tx_bytes = n;
		p->have_nd = p->have_nd && num;
	} else if (!strcmp(k, "link_speed_mbps") && num && n) {
		p->speed_by_ko = true;
		p->nd_speed_mbps = n;
		p->have_nd_speed = true;
	}
}

/* "key value" lines other than counters, PFC, FEC and PMA */
static void parse_link_line(const struct ko_line *l, struct raw_port *p)
{
	const char *k = l->tok[0], *v = l->tok[1];
	unsigned long long n;

	if (l->n < 2 || parse_count_line(l, p))
		return;
	if (!strcmp(k, "device")) {
		snprintf(p->device, sizeof(p->device), "%s", v);
	} else if (!strcmp(k, "port")) {
		if (ko_u64(v, 10, &n) && n <= UINT_MAX)
			p->port = (unsigned int)n;
	} else if (!strcmp(k, "driver")) {
		snprintf(p->driver, sizeof(p->driver), "%s", v);
	} else if (!strcmp(k, "netdev")) {
		snprintf(p->netdev, sizeof(p->netdev), "%s", strcmp(v, "-") ? v : "");
	} else if (!strcmp(k, "link_state")) {
		snprintf(p->state, sizeof(p->state), "%s", v);
	} else if (!strcmp(k, "link_carrier")) {
		if (ko_u64(v, 10, &n) && n <= 1)
			p->carrier = (int)n;
	} else {
		parse_netdev_line(k, v, p);
	}
}

/*
 * The index of name among n names (name_of), or -1.  fabtel.ko writes its
 * counters in the schema's order, so the search starts after the one found
 * last (*hint): one comparison a line instead of half the list.
 */
static int find_from(unsigned int *hint, unsigned int n, const char *name,
		     const char *(*name_of)(unsigned int))
{
	unsigned int k, i;

	for (k = 0; k < n; k++) {
		i = (*hint + k) % n;
		if (!strcmp(name, name_of(i))) {
			*hint = i + 1;
			return (int)i;
		}
	}
	return -1;
}

static const char *ctr_name(unsigned int c)
{
	return schema_ctr_name((enum fabtel_counter)c);
}

static const char *pma_file(unsigned int c)
{
	return schema_pma_file((enum fabtel_pma)c);
}

/* "counter <name> <value|->" */
static void parse_counter_line(const struct ko_line *l, struct raw_port *p,
			       unsigned int *hint)
{
	unsigned long long v;
	int c;

	if (l->n != 3)
		return;
	c = find_from(hint, FABTEL_NR_COUNTERS, l->tok[1], ctr_name);
	if (c >= 0 && ko_u64(l->tok[2], 10, &v)) {
		p->ctr[c] = v;
		p->have[c] = true;
	}
}

/* "pfc_enabled_mask 0xMM", "pfc_prio P en tx rx storm storms dur" */
static void parse_pfc_line(const struct ko_line *l, struct raw_port *p)
{
	unsigned long long v[7];
	unsigned int i;

	if (!strcmp(l->tok[0], "pfc_enabled_mask")) {
		if (l->n == 2 && ko_u64(l->tok[1], 16, &v[0])) {
			p->pfc_mask = (uint8_t)v[0];
			p->pfc_read = true;
		}
		return;
	}
	if (strcmp(l->tok[0], "pfc_prio") || l->n != 8)
		return;
	for (i = 0; i < 7; i++)
		if (!ko_u64(l->tok[i + 1], 10, &v[i]))
			return;
	if (v[0] >= MODEL_PRIOS)
		return;
	p->prio_read[v[0]] = true;
	p->pause_tx[v[0]] = v[2];
	p->pause_rx[v[0]] = v[3];
	p->storm[v[0]] = v[4];
	p->storms[v[0]] = v[5];
}

/* "fec supported|unsupported", "fec_mode <mode>", "fec_stat <name> <value|->" */
static void parse_fec_line(const struct ko_line *l, struct raw_port *p)
{
	static const char *const names[ETHNL_FEC_NR] = {
		[ETHNL_FEC_CORRECTED] = "corrected_blocks",
		[ETHNL_FEC_UNCORR] = "uncorrectable_blocks",
		[ETHNL_FEC_CORR_BITS] = "corrected_bits",
	};
	unsigned long long v;
	unsigned int i;

	if (!strcmp(l->tok[0], "fec")) {
		p->fec_known = l->n == 2 && (!strcmp(l->tok[1], "supported") ||
					     !strcmp(l->tok[1], "unsupported"));
		return;
	}
	if (!strcmp(l->tok[0], "fec_mode")) {
		for (i = ETHTOOL_LINK_MODE_FEC_NONE_BIT; l->n == 2 &&
		     i <= ETHTOOL_LINK_MODE_FEC_LLRS_BIT; i++)
			if (ethnl_fec_mode_name(i) && !strcmp(l->tok[1], ethnl_fec_mode_name(i)))
				p->fec_mode = i;
		return;
	}
	if (l->n != 3 || !ko_u64(l->tok[2], 10, &v))
		return;
	for (i = 0; i < ETHNL_FEC_NR; i++) {
		if (strcmp(l->tok[1], names[i]))
			continue;
		p->fec[i] = v;
		p->have_fec[i] = true;
	}
}

/* "pma <kind>" and "pma_counter <file> <value|->" ("pma_errors" is a count) */
static void parse_pma_line(const struct ko_line *l, struct raw_port *p, unsigned int *hint)
{
	unsigned long long v;
	int c;

	if (!strcmp(l->tok[0], "pma")) {
		p->pma_known = true;
		return;
	}
	if (l->n != 3 || !ko_u64(l->tok[2], 10, &v))
		return;
	c = find_from(hint, FABTEL_NR_PMA, l->tok[1], pma_file);
	if (c >= 0) {
		p->pma[c] = (uint64_t)v * schema_pma_scale((enum fabtel_pma)c);
		p->have_pma[c] = true;
	}
}

int ko_parse_snapshot(char *text, struct raw_port *p)
{
	unsigned int ctr_hint = 0, pma_hint = 0;
	char *save = NULL, *line;
	struct ko_line l;
	bool ended = false;

	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, "fabtel-snapshot 1"))
		return -EPROTO;
	p->carrier = -1;
	for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "end") || !strcmp(line, "truncated")) {
			ended = true;
			break;
		}
		if (!strncmp(line, "raw ", 4))	/* the driver's own names: sysfs mode's */
			continue;
		ko_split(line, &l);
		if (!l.n)
			continue;
		if (!strcmp(l.tok[0], "counter"))
			parse_counter_line(&l, p, &ctr_hint);
		else if (!strncmp(l.tok[0], "pfc_", 4))
			parse_pfc_line(&l, p);
		else if (!strcmp(l.tok[0], "pma") || !strcmp(l.tok[0], "pma_counter"))
			parse_pma_line(&l, p, &pma_hint);
		else if (!strcmp(l.tok[0], "fec") || !strcmp(l.tok[0], "fec_stat") ||
			 !strcmp(l.tok[0], "fec_mode"))
			parse_fec_line(&l, p);
		else
			parse_link_line(&l, p);
	}
	return ended && p->device[0] && p->port ? 0 : -EPROTO;
}

struct ko_walk {
	const struct collect_opts *o;
	struct raw *r;
	bool bad;
	char why[160];
};

static int read_ko_port(void *ctx, const char *base, const char *dev, const char *port)
{
	static struct raw_port over;	/* a port past the table: parsed, counted */
	struct ko_walk *w = ctx;
	bool full = w->r->nr_ports == MODEL_MAX_PORTS;
	struct raw_port *p = full ? &over : &w->r->ports[w->r->nr_ports];
	char path[1000], buf[8192];

	(void)dev;
	(void)port;
	snprintf(path, sizeof(path), "%s/snapshot", base);
	if (fs_read_kept(path, buf, sizeof(buf)) < 0)
		return 0;	/* device removed mid-read */
	memset(p, 0, sizeof(*p));
	if (ko_parse_snapshot(buf, p)) {
		w->bad = true;
		snprintf(w->why, sizeof(w->why), "%s: not a version 1 snapshot", path);
		return 0;
	}
	if (full) {
		w->r->ports_over++;
		return 0;
	}
	ko_events_read(w->o, base, p);
	sysfs_read_netdev_bytes(w->o, p);
	sysfs_read_port_extras(w->o, p);
	w->r->nr_ports++;
	return 0;
}

static void ko_sample(struct model *m, struct raw *r)
{
	struct ko_walk w = { .o = &m->opts, .r = r };
	char dir[600];
	int err;

	r->nr_ports = 0;
	r->ports_over = 0;
	fs_path(m->opts.sysfs_root, dir, sizeof(dir), "/sys/kernel/fabtel");
	err = fs_walk_ports(dir, read_ko_port, &w);
	r->ports_mono = clock_ns(CLOCK_MONOTONIC);
	r->ko = !err;
	if (err)
		raw_report(r, SRC_FABTEL_KO, SRC_STATE_UNAVAILABLE,
			   "fabtel.ko not loaded (%s: %s)", dir, strerror(-err));
	else if (w.bad)
		raw_report(r, SRC_FABTEL_KO, SRC_STATE_UNAVAILABLE, "%s", w.why);
	else
		raw_report(r, SRC_FABTEL_KO, SRC_STATE_UP, "%s", "");
}

const struct source_ops source_ko = {
	.name = "fabtel_ko",
	.sample = ko_sample,
};

/* 256 hex digits into 128 bytes; -1 unless exactly that */
static int hex_page(const char *s, uint8_t *out)
{
	unsigned int i, hi, lo;

	if (strlen(s) != 2 * DDM_PAGE_LEN)
		return -1;
	for (i = 0; i < DDM_PAGE_LEN; i++) {
		if (sscanf(s + 2 * i, "%1x%1x", &hi, &lo) != 2)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* the ddm_pages slot of an upper page fabtel.ko read; -1 none */
static int up_slot(unsigned int page)
{
	switch (page) {
	case 0x01:
	case 0x03:
		return DDM_UP_01_03;
	case 0x02:
		return DDM_UP_02;
	case 0x11:
		return DDM_UP_11;
	default:
		return -1;
	}
}

int ko_parse_module(char *text, uint8_t pages[5][DDM_PAGE_LEN], struct ddm *out)
{
	struct ddm_pages pg = { 0 };
	char *line, *save = NULL, what[8], hex[2 * DDM_PAGE_LEN + 2];
	unsigned int page;
	int err = -EPROTO, slot, e;

	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, "fabtel-module 1"))
		return -EPROTO;
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (sscanf(line, "error %d", &e) == 1) {
			if (e)
				return e < 0 && e > -4096 ? e : -EPROTO;
			err = 0;
		} else if (sscanf(line, "page %7s %257s", what, hex) == 2) {
			if (!strcmp(what, "lower"))
				slot = 4;
			else if (sscanf(what, "0x%x", &page) == 1 && up_slot(page) >= 0)
				slot = up_slot(page);
			else
				continue;	/* a page this fabteld does not use */
			if (hex_page(hex, pages[slot]))
				return -EPROTO;
			if (slot == 4)
				pg.lower = pages[4];
			else
				pg.up[slot] = pages[slot];
		}
	}
	if (err)
		return err;
	return pg.lower ? ddm_decode(&pg, out) : -EPROTO;
}
