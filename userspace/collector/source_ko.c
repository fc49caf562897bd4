// SPDX-License-Identifier: GPL-2.0
/*
 * source_ko.c - the ports as fabtel.ko samples them: one snapshot file per
 * port, /sys/kernel/fabtel/<dev>/ports/<n>/snapshot, read whole (one read,
 * one consistent sample; Documentation/ABI/testing/sysfs-kernel-fabtel).
 *
 * Up while /sys/kernel/fabtel exists and every snapshot parses (the parser
 * is ko_snapshot.c); while it exists, the plain sysfs source stands by
 * (source_sysfs.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "collector.h"

struct ko_walk {
	struct collector *c;
	struct raw *r;
	bool bad;
	char why[160];
};

static int read_ko_port(void *ctx, const char *base, const char *dev, const char *port)
{
	struct ko_walk *w = ctx;
	bool full = w->r->nr_ports == MODEL_MAX_PORTS;
	struct raw_port *p = full ? &w->r->over : &w->r->ports[w->r->nr_ports];
	char path[1000], buf[8192];

	(void)dev;
	(void)port;
	fs_put(path, sizeof(path), fs_put(path, sizeof(path), 0, base), "/snapshot");
	if (fs_read_kept(&w->c->kept, path, buf, sizeof(buf)) < 0)
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
	ko_events_read(&w->c->ko_events, base, p);
	sysfs_read_netdev_bytes(w->c, p);
	sysfs_read_port_extras(w->c, p);
	w->r->nr_ports++;
	return 0;
}

/*
 * Passes between looks for a fabtel.ko that is not loaded, on the kernel's
 * tree: the failed look (a path walk and a failed open) was a tenth of a
 * 16-port plain-sysfs pass on a host without it.  An insmod is seen within
 * KO_ABSENT_EVERY samples.  A pass that does not look reports nothing (the
 * last look's state and reason stand).  A tree that is not the kernel's (a
 * fixture, unless keep_files = on) is looked at each pass.
 */
#define KO_ABSENT_EVERY	3

/*
 * fabtel_ko = off: not looked for at all (the host runs without it by
 * choice, and the ports are plain sysfs's even if it is loaded later).
 */
struct source_ko {
	unsigned int skip;		/* passes left before the next look */
};

static bool ko_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_ko *ko = priv;
	struct model *m = c->m;
	struct ko_walk w = { .c = c, .r = r };
	char dir[600];
	int err;

	r->nr_ports = 0;
	r->ports_over = 0;
	if (!m->opts.want_ko) {
		raw_report(r, SRC_FABTEL_KO, SRC_STATE_UNAVAILABLE, "%s",
			   "not looked for (fabtel_ko = off)");
		return false;
	}
	if (ko->skip) {
		ko->skip--;
		return false;
	}
	fs_path(m->opts.sysfs_root, dir, sizeof(dir), "/sys/kernel/fabtel");
	err = devices_walk_ports(&c->devs, dir, true, read_ko_port, &w);
	if (err == -ENOENT &&
	    fs_kept_kernel_path(&c->kept, m->opts.sysfs_root[0] ? m->opts.sysfs_root : "/sys"))
		ko->skip = KO_ABSENT_EVERY - 1;
	r->ports_mono = clock_ns(CLOCK_MONOTONIC);
	r->ko = !err;
	if (err)
		raw_report(r, SRC_FABTEL_KO, SRC_STATE_UNAVAILABLE,
			   "fabtel.ko not loaded (%s: %s)", dir, raw_strerror(r, -err));
	else if (w.bad)
		raw_report(r, SRC_FABTEL_KO, SRC_STATE_UNAVAILABLE, "%s", w.why);
	else
		raw_report(r, SRC_FABTEL_KO, SRC_STATE_UP, "%s", "");
	return true;
}

const struct source_ops source_ko = {
	.name = "fabtel_ko",
	.priv_size = sizeof(struct source_ko),
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
