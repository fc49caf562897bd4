// SPDX-License-Identifier: GPL-2.0
/*
 * source_ko.c - the ports as fabtel.ko samples them: one snapshot file per
 * port, /sys/kernel/fabtel/<dev>/ports/<n>/snapshot, read whole (one read,
 * one consistent sample; Documentation/ABI/testing/sysfs-kernel-fabtel).
 *
 * Up while /sys/kernel/fabtel exists and every snapshot parses; while it
 * exists, the plain sysfs source stands by (source_sysfs.c).
 */
#include <errno.h>
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

static bool parse_count_line(const char *key, const char *line, struct raw_port *p)
{
	unsigned long long a;
	char fmt[48];
	size_t i;

	for (i = 0; i < sizeof(count_keys) / sizeof(count_keys[0]); i++) {
		if (strcmp(key, count_keys[i].key))
			continue;
		snprintf(fmt, sizeof(fmt), "%s %%llu", count_keys[i].key);
		if (sscanf(line, fmt, &a) == 1) {
			*(uint64_t *)((char *)p + count_keys[i].val) = a;
			*(bool *)((char *)p + count_keys[i].have) = true;
		}
		return true;
	}
	return false;
}

/* "key value..." lines other than counters and PFC */
static void parse_link_line(const char *key, const char *line, struct raw_port *p)
{
	int n;

	if (parse_count_line(key, line, p))
		return;
	if (!strcmp(key, "device")) {
		sscanf(line, "device %63s", p->device);
	} else if (!strcmp(key, "port")) {
		sscanf(line, "port %u", &p->port);
	} else if (!strcmp(key, "driver")) {
		sscanf(line, "driver %31s", p->driver);
	} else if (!strcmp(key, "netdev")) {
		if (sscanf(line, "netdev %15s", p->netdev) == 1 && !strcmp(p->netdev, "-"))
			p->netdev[0] = '\0';
	} else if (!strcmp(key, "link_state")) {
		sscanf(line, "link_state %23s", p->state);
	} else if (!strcmp(key, "link_carrier")) {
		if (sscanf(line, "link_carrier %d", &n) == 1)
			p->carrier = n;
	}
}

static void parse_counter_line(const char *line, struct raw_port *p)
{
	char name[64], val[32];
	int c;

	if (sscanf(line, "counter %63s %31s", name, val) != 2)
		return;
	c = schema_ctr_find(name);
	if (c >= 0 && strcmp(val, "-")) {
		p->ctr[c] = strtoull(val, NULL, 10);
		p->have[c] = true;
	}
}

static void parse_pfc_line(const char *key, const char *line, struct raw_port *p)
{
	unsigned long long a, b, c, d, e, f;
	unsigned int prio;

	if (!strcmp(key, "pfc_enabled_mask")) {
		if (sscanf(line, "pfc_enabled_mask %llx", &a) == 1) {
			p->pfc_mask = (uint8_t)a;
			p->pfc_read = true;
		}
	} else if (!strcmp(key, "pfc_prio")) {
		if (sscanf(line, "pfc_prio %u %llu %llu %llu %llu %llu %llu", &prio, &a, &b,
			   &c, &d, &e, &f) == 7 && prio < MODEL_PRIOS) {
			p->prio_read[prio] = true;
			p->pause_tx[prio] = b;
			p->pause_rx[prio] = c;
			p->storm[prio] = d;
			p->storms[prio] = e;
		}
	}
}

/* "fec supported|unsupported" and "fec_stat <name> <value|->" */
static void parse_fec_line(const char *key, const char *line, struct raw_port *p)
{
	static const char *const names[ETHNL_FEC_NR] = {
		[ETHNL_FEC_CORRECTED] = "corrected_blocks",
		[ETHNL_FEC_UNCORR] = "uncorrectable_blocks",
		[ETHNL_FEC_CORR_BITS] = "corrected_bits",
	};
	unsigned long long v;
	char name[32];
	unsigned int i;
	int end = 0;

	if (!strcmp(key, "fec")) {
		p->fec_known = !strcmp(line, "fec supported") || !strcmp(line, "fec unsupported");
		return;
	}
	if (!strcmp(key, "fec_mode")) {
		for (i = ETHTOOL_LINK_MODE_FEC_NONE_BIT; i <= ETHTOOL_LINK_MODE_FEC_LLRS_BIT; i++)
			if (ethnl_fec_mode_name(i) && !strcmp(line + 9, ethnl_fec_mode_name(i)))
				p->fec_mode = i;
		return;
	}
	if (sscanf(line, "fec_stat %31s %llu%n", name, &v, &end) != 2 || line[end])
		return;
	for (i = 0; i < ETHNL_FEC_NR; i++) {
		if (strcmp(name, names[i]))
			continue;
		p->fec[i] = v;
		p->have_fec[i] = true;
	}
}

/* "pma <kind>" and "pma_counter <file> <value|->" ("pma_errors" is a count) */
static void parse_pma_line(const char *key, const char *line, struct raw_port *p)
{
	unsigned long long v;
	char file[64];
	unsigned int c;
	int end = 0;

	if (!strcmp(key, "pma")) {
		p->pma_known = true;
	} else if (sscanf(line, "pma_counter %63s %llu%n", file, &v, &end) == 2 && !line[end]) {
		for (c = 0; c < FABTEL_NR_PMA; c++) {
			if (strcmp(file, schema_pma_file(c)))
				continue;
			p->pma[c] = (uint64_t)v * schema_pma_scale(c);
			p->have_pma[c] = true;
		}
	}
}

int ko_parse_snapshot(char *text, struct raw_port *p)
{
	char *save = NULL, *line, key[32];
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
		if (sscanf(line, "%31s", key) != 1)
			continue;
		if (!strcmp(key, "counter"))
			parse_counter_line(line, p);
		else if (!strncmp(key, "pfc_", 4))
			parse_pfc_line(key, line, p);
		else if (!strcmp(key, "pma") || !strcmp(key, "pma_counter"))
			parse_pma_line(key, line, p);
		else if (!strcmp(key, "fec") || !strcmp(key, "fec_stat") || !strcmp(key, "fec_mode"))
			parse_fec_line(key, line, p);
		else
			parse_link_line(key, line, p);
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
