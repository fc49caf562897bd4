// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_snapshot - libFuzzer target: the fabtel.ko source's parsers, of a port's
 * snapshot and (the same bytes) of its module file (ko_parse_module).
 *
 * The input is the text of /sys/kernel/fabtel/<dev>/ports/<n>/snapshot
 * (Documentation/ABI/testing/sysfs-kernel-fabtel), handed straight to
 * ko_parse_snapshot() (source.h), no file in between.  What it parses is
 * folded into a model as a pass would (fold_ports), and the model lives
 * across inputs as it does across passes, so one input's counters are the
 * previous one's successors (wraps, resets, flaps, storms, events).
 *
 * Then the model is rendered as fabteld serves it: the Prometheus text must
 * have no refused sample and every sample line must be well formed (device
 * names from the snapshot end up in label values); the JSON must parse back.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fold.h"
#include "render.h"
#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct model model;
static struct raw raw;
static bool ready;
static struct fold fold = { .sock = -1 };

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

/* the parser's promises: strings ended, within their fields */
static void check_port(const struct raw_port *p)
{
	if (!memchr(p->device, '\0', sizeof(p->device)) ||
	    !memchr(p->netdev, '\0', sizeof(p->netdev)) ||
	    !memchr(p->driver, '\0', sizeof(p->driver)) ||
	    !memchr(p->state, '\0', sizeof(p->state)))
		abort();
}

static void check_render(void)
{
	struct json_object *o, *back;
	const char *line, *end;
	struct expo e;

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
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[16384];
	static uint8_t pages[5][DDM_PAGE_LEN];
	struct ddm d;
	int err;

	if (!ready) {
		struct collect_opts o;

		collect_opts_default(&o);
		o.bpf = o.wire = false;
		memset(&model, 0, sizeof(model));
		model.opts = o;
		ready = true;
	}
	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	/* the same bytes as a ports/<n>/module file: any -errno, never a crash */
	err = ko_parse_module(text, pages, &d);
	if (err > 0)
		abort();
	memcpy(text, data, size);
	memset(&raw.ports[0], 0, sizeof(raw.ports[0]));
	err = ko_parse_snapshot(text, &raw.ports[0]);
	check_port(&raw.ports[0]);
	if (err && err != -EPROTO)
		abort();
	raw.ko = true;
	raw.nr_ports = !err;
	raw.ports_mono += 1000000000ULL;
	fold_ports(&fold, &model, &raw, 1790000000000000000ULL + raw.ports_mono);
	model.samples++;
	check_render();
	return 0;
}
