// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_snapshot - libFuzzer target: fabteld reading fabtel.ko's snapshot.
 *
 * The input is the text of /sys/kernel/fabtel/<dev>/ports/<n>/snapshot
 * (Documentation/ABI/testing/sysfs-kernel-fabtel).  It is written into a
 * sysfs tree under a temporary sysfs_root and fabteld's collector takes a
 * sample of it, the one path a real snapshot takes.  The model lives across
 * inputs, as it does across samples, so one input's counters are the
 * previous one's successors (wraps, resets, flaps, storms, events).
 *
 * Then the model is rendered as fabteld serves it: the Prometheus text must
 * have no refused sample and every sample line must be well formed (device
 * names from the snapshot end up in label values); the JSON must parse back.
 */
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "collect.h"
#include "config.h"
#include "render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct config cfg;
static struct model model;
static char snapshot[PATH_MAX];

static void mkdirs(const char *path)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s", path);
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

static char root[] = "/tmp/fabtel-fuzz-sysfs.XXXXXX";

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void remove_tree(void)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
	char dir[PATH_MAX];

	if (!mkdtemp(root))
		abort();
	atexit(remove_tree);
	snprintf(dir, sizeof(dir), "%s/sys/kernel/fabtel/fz0/ports/1", root);
	mkdirs(dir);
	snprintf(snapshot, sizeof(snapshot), "%s/snapshot", dir);
	/* a netdev the snapshot may name */
	snprintf(dir, sizeof(dir), "%s/sys/class/net/fz0np0/statistics", root);
	mkdirs(dir);
	config_defaults(&cfg);
	cfg.bpf = CONFIG_OFF;
	cfg.wire = CONFIG_OFF;
	snprintf(cfg.sysfs_root, sizeof(cfg.sysfs_root), "%s", root);
	snprintf(cfg.proc_root, sizeof(cfg.proc_root), "%s", root);
	collect_init(&model, &cfg);
}

/* name{label="value",...} value: the shape a Prometheus scraper takes. */
static bool sample_line_ok(const char *l, size_t n)
{
	size_t i = 0;

	while (i < n && (l[i] == '_' || l[i] == ':' || (l[i] >= 'a' && l[i] <= 'z') ||
			 (l[i] >= 'A' && l[i] <= 'Z') || (i && l[i] >= '0' && l[i] <= '9')))
		i++;
	if (!i)
		return false;
	if (i < n && l[i] == '{') {
		for (i++; i < n && l[i] != '}';) {
			while (i < n && l[i] != '=')
				i++;
			if (i + 1 >= n || l[i + 1] != '"')
				return false;
			for (i += 2; i < n && l[i] != '"'; i++)
				if (l[i] == '\\' && (++i >= n || !strchr("\\\"n", l[i])))
					return false;
			if (++i < n && l[i] == ',')
				i++;
		}
		if (i >= n)
			return false;
		i++;
	}
	return i < n && l[i] == ' ' && i + 1 < n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *o, *back;
	const char *line, *end;
	struct expo e;
	FILE *f;

	if (!snapshot[0])
		setup();
	f = fopen(snapshot, "w");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);

	collect_sample(&model);

	expo_init(&e);
	render_metrics(&model, &e, 0);
	if (e.oom || e.bad)
		abort();
	for (line = e.buf; line && line < e.buf + e.len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(e.buf + e.len - line));
		if (!end)
			abort();	/* the text ends with a newline */
		if (line[0] != '#' && !sample_line_ok(line, (size_t)(end - line)))
			abort();
	}
	expo_free(&e);

	o = render_snapshot(&model);
	back = json_tokener_parse(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	if (!back)
		abort();
	json_object_put(back);
	json_object_put(o);
	o = render_events(&model, 0);
	json_object_put(o);
	return 0;
}
