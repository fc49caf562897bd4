// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_api_json - libFuzzer target: fabtop's reading of fabteld's JSON API.
 *
 * The input is up to four JSON texts one after the other: a snapshot
 * (/api/v1/snapshot), jobs (/api/v1/jobs), events (/api/v1/events) and the
 * rates' history (/api/v1/history), as fabtop fetches them from a daemon
 * it does not control.  They go through
 * digest_frame twice (the second time over the events log and history the
 * first left), then every pane is sorted, filtered, fitted to a narrow and a wide
 * terminal and laid out line by line, and each job's drill-down is built.
 * Lines must fit the width they were fitted to.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "digest.h"
#include "panes.h"
#include "table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next JSON text from data, NULL if none is whole. */
static struct json_object *next_doc(struct json_tokener *tok, const uint8_t *data, size_t size,
				    size_t *off)
{
	struct json_object *o;

	if (*off >= size)
		return NULL;
	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, (const char *)data + *off, (int)(size - *off));
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(o);
		*off = size;
		return NULL;
	}
	*off += json_tokener_get_parse_end(tok);
	return o;
}

/* Sort, filter, fit to a narrow and a wide terminal, and lay out every line. */
static void lay_out(const struct table *tab, bool reverse, const char *filter)
{
	static const unsigned int widths[] = { 40, 250 };
	unsigned int i, k, n, w[TABLE_MAX_COLS], *idx;
	char line[512];

	if (tab->ncols > TABLE_MAX_COLS)
		abort();
	idx = calloc(tab->nrows + 1, sizeof(*idx));
	if (!idx)
		return;
	n = table_view(tab, 0, reverse, filter, idx);
	for (k = 0; k < 2; k++) {
		table_fit(tab, widths[k], w);
		table_line(tab, NULL, w, line, sizeof(line));
		if (strlen(line) > widths[k])
			abort();
		for (i = 0; i < n; i++) {
			table_line(tab, &tab->row[idx[i]], w, line, sizeof(line));
			if (strlen(line) > widths[k])
				abort();
		}
	}
	free(idx);
}

static void lay_out_frame(const struct frame *f)
{
	struct table detail[DTAB_NR];
	unsigned int t, i;

	for (t = 0; t < TAB_NR; t++)
		lay_out(&f->tab[t], t == TAB_JOBS, t == TAB_EVENTS ? "link" : NULL);
	/* the drill-down of each job row (the JOB column is the first) */
	for (i = 0; i < f->tab[TAB_JOBS].nrows; i++) {
		memset(detail, 0, sizeof(detail));
		if (!frame_job_detail(f, f->tab[TAB_JOBS].row[i].cell[0], detail))
			continue;
		for (t = 0; t < DTAB_NR; t++)
			lay_out(&detail[t], false, NULL);
		frame_detail_free(detail);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *snap, *jobs, *events, *hist;
	struct json_tokener *tok;
	struct digest d;
	struct frame *f;
	size_t off = 0;
	int round;

	tok = json_tokener_new();
	if (!tok)
		return 0;
	snap = next_doc(tok, data, size, &off);
	jobs = next_doc(tok, data, size, &off);
	events = next_doc(tok, data, size, &off);
	hist = next_doc(tok, data, size, &off);
	json_tokener_free(tok);
	if (!snap)
		snap = json_object_new_object();

	digest_init(&d);
	for (round = 0; round < 2; round++) {
		digest_history(&d, json_object_get(hist));
		f = digest_frame(&d, json_object_get(snap), json_object_get(jobs),
				 json_object_get(events));
		if (!f)
			break;
		lay_out_frame(f);
		frame_free(f);
	}
	digest_fini(&d);
	json_object_put(snap);
	json_object_put(jobs);
	json_object_put(events);
	json_object_put(hist);
	return 0;
}
