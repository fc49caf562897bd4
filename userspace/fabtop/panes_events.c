// SPDX-License-Identifier: GPL-2.0
/*
 * panes_events.c - the Events pane: each event with its evidence in words
 * and numbers (which counter burst and by how much in what time, how long
 * the link was down, how long a priority was paused) and the jobs that had
 * QPs on the port then; a run of identical events (same kind, port,
 * priority, QP; error bursts of any counter, which alternate under loss)
 * folds into one row, "x12 over 17 s: nak_seq_err_rcvd +412, ...", whose
 * members Enter shows (ui.c keeps which runs are open).
 */
#include <stdio.h>
#include <string.h>

#include "panes_int.h"

const struct column event_cols[E_NR] = {
	[E_TIME] = { "TIME", 8, 8, 100, false, false, true, false },
	[E_EVENT] = { "EVENT", 9, 16, 95, false, false, false, false },
	[E_PORT] = { "PORT", 6, 24, 90, false, false, false, false },
	[E_DETAIL] = { "DETAIL", 8, 72, 70, false, true, false, false },
	[E_JOB] = { "JOB", 3, 40, 60, false, false, false, false },
};

static enum row_color event_color(const char *kind)
{
	if (!strcmp(kind, "link_up") || !strcmp(kind, "pause_storm_end"))
		return RC_GOOD;
	if (!strcmp(kind, "error_burst"))
		return RC_WARN;
	if (!strcmp(kind, "link_down") || !strcmp(kind, "link_flap") ||
	    !strcmp(kind, "pause_storm") || !strcmp(kind, "qp_error"))
		return RC_BAD;
	return RC_NONE;
}

/* "300 ms", "2.1 s", "17 s", "4 min" */
static void fmt_span(char *buf, size_t len, double s)
{
	if (s < 1)
		snprintf(buf, len, "%.0f ms", s * 1000);
	else if (s < 10)
		snprintf(buf, len, "%.1f s", s);
	else if (s < 600)
		snprintf(buf, len, "%.0f s", s);
	else
		snprintf(buf, len, "%.0f min", s / 60);
}

static bool same_event(const struct event *a, const struct event *b)
{
	return !strcmp(a->kind, b->kind) && !strcmp(a->device, b->device) &&
	       a->port == b->port && a->priority == b->priority && a->qpn == b->qpn &&
	       (!strcmp(a->kind, "error_burst") || !strcmp(a->counter, b->counter));
}

#define FOLD_CTRS	8

/* a run's bursts by counter, in order of first appearance: "ctr +sum, ..." */
static void fold_counters(char *buf, size_t len, const struct digest *d, unsigned int from,
			  unsigned int to)
{
	const char *name[FOLD_CTRS];
	uint64_t sum[FOLD_CTRS];
	unsigned int n = 0, i, k, unknown = 0;
	size_t at = 0;

	for (i = to + 1; i-- > from;) {		/* newest first: the counter moving now leads */
		const struct event *e = digest_event(d, i);

		if (!e->counter[0] || !e->amount) {
			unknown += e->count ? (unsigned int)e->count : 1;
			continue;
		}
		for (k = 0; k < n && strcmp(name[k], e->counter); k++)
			;
		if (k == n && n == FOLD_CTRS)
			continue;
		if (k == n) {
			name[n] = e->counter;
			sum[n++] = 0;
		}
		sum[k] += e->amount;
	}
	buf[0] = '\0';
	for (k = 0; k < n && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s +%llu", k ? ", " : ": ", name[k],
				       (unsigned long long)sum[k]);
	if (unknown && at < len)
		snprintf(buf + at, len - at, "%s%u not detailed", at ? ", " : ": ", unknown);
}

/* the pause_storm that a pause_storm_end ends, before event i; NULL none */
static const struct event *storm_start(const struct digest *d, unsigned int i)
{
	const struct event *end = digest_event(d, i), *e;

	while (i-- > 0) {
		e = digest_event(d, i);
		if (e->port == end->port && e->priority == end->priority &&
		    !strcmp(e->device, end->device) &&
		    (!strcmp(e->kind, "pause_storm") || !strcmp(e->kind, "pause_storm_end")))
			return strcmp(e->kind, "pause_storm") ? NULL : e;
	}
	return NULL;
}

static void burst_detail(char *buf, size_t len, const struct event *e)
{
	char span[32], bursts[32] = "";

	if (e->count > 1)	/* fabteld merged a pass's bursts of the counter */
		snprintf(bursts, sizeof(bursts), " (%llu bursts)", (unsigned long long)e->count);
	if (e->counter[0] && e->amount && e->span > 0) {
		fmt_span(span, sizeof(span), e->span);
		snprintf(buf, len, "%s +%llu in %s%s", e->counter, (unsigned long long)e->amount,
			 span, bursts);
	} else if (e->counter[0] && e->amount) {
		snprintf(buf, len, "%s +%llu", e->counter, (unsigned long long)e->amount);
	} else if (e->counter[0]) {
		snprintf(buf, len, "%s", e->counter);
	} else {	/* fabtel.ko's ring had moved on: only how many */
		snprintf(buf, len, "%llu burst%s, counter not known",
			 (unsigned long long)(e->count ? e->count : 1), e->count > 1 ? "s" : "");
	}
}

/* what happened, in words and numbers; i: the event's index in the log */
static void event_detail(char *buf, size_t len, const struct digest *d, unsigned int i)
{
	const struct event *e = digest_event(d, i), *start;
	char span[32];

	buf[0] = '\0';
	if (!strcmp(e->kind, "error_burst")) {
		burst_detail(buf, len, e);
	} else if (!strcmp(e->kind, "link_flap")) {
		fmt_span(span, sizeof(span), e->down);
		if (e->count > 1)
			snprintf(buf, len, "%llu flaps%s%s", (unsigned long long)e->count,
				 e->down >= 0 ? ", the last down " : "", e->down >= 0 ? span : "");
		else if (e->down >= 0)
			snprintf(buf, len, "down %s", span);
	} else if (!strcmp(e->kind, "pause_storm_end") && (start = storm_start(d, i))) {
		fmt_span(span, sizeof(span), e->time - start->time);
		snprintf(buf, len, "prio %d paused %s", e->priority, span);
	} else if (e->priority >= 0) {
		snprintf(buf, len, "prio %d", e->priority);
	} else if (e->qpn >= 0) {
		snprintf(buf, len, "qpn %lld", e->qpn);
	}
}

static struct row *event_row(struct table *t, const struct digest *d, unsigned int i,
			     const char *indent)
{
	const struct event *e = digest_event(d, i);
	struct row *r = table_add(t);
	char buf[160];

	if (!r)
		return NULL;
	fmt_clock(buf, sizeof(buf), e->time);
	row_num(r, E_TIME, e->time > 0, e->time, "%s", buf);
	row_set(r, E_EVENT, "%s", e->kind);
	if (e->device[0] && e->port >= 0)
		row_set(r, E_PORT, "%s/%d", e->device, e->port);
	else
		row_set(r, E_PORT, "%s", e->device[0] ? e->device : "-");
	event_detail(buf, sizeof(buf), d, i);
	if (e->record[0])	/* r opens it */
		row_set(r, E_DETAIL, "%s%s%s[record %llu]", indent, buf, buf[0] ? " " : "",
			(unsigned long long)e->record_seq);
	else
		row_set(r, E_DETAIL, "%s%s", indent, buf);
	ascii_copy(r->record, sizeof(r->record), e->record);
	row_set(r, E_JOB, "%s", e->job_id[0] ? e->job_id : e->jobs);
	ascii_copy(r->id, sizeof(r->id), e->job_id);
	r->color = event_color(e->kind);
	r->color_col = E_EVENT;
	return r;
}

/* the head of the run from..to (log indexes, to the newest): "x12 over 17 s: ..." */
static void fold_head(struct table *t, const struct digest *d, unsigned int from,
		      unsigned int to, uint64_t group)
{
	const struct event *first = digest_event(d, from), *last = digest_event(d, to);
	uint64_t n = 0;
	char span[32], one[160];
	struct row *r;
	unsigned int i;

	for (i = from; i <= to; i++) {
		const struct event *e = digest_event(d, i);

		n += e->count ? e->count : 1;
	}
	r = event_row(t, d, to, "");
	if (!r)
		return;
	fmt_span(span, sizeof(span), last->time - first->time);
	if (!strcmp(last->kind, "error_burst"))
		fold_counters(one, sizeof(one), d, from, to);
	else if (last->counter[0])
		snprintf(one, sizeof(one), ": %s", last->counter);
	else if (last->priority >= 0)
		snprintf(one, sizeof(one), ": prio %d", last->priority);
	else
		one[0] = '\0';
	row_set(r, E_DETAIL, "x%llu over %s%s", (unsigned long long)n, span, one);
	r->group = group;
}

void panes_build_events(const struct digest *d, struct frame *f)
{
	struct table *t = &f->tab[TAB_EVENTS];
	unsigned int i, from, k;
	struct row *r;

	table_init(t, "Events", event_cols, E_NR, E_TIME);
	snprintf(t->empty, sizeof(t->empty), "%s",
		 d->have_log ? "no events (from fabteld)" : "no events (fabteld sends none)");
	/* newest first (ties in time stay newest first); runs fold */
	for (i = d->count; i-- > 0;) {
		for (from = i; from > 0 && same_event(digest_event(d, from - 1),
						      digest_event(d, i)); from--)
			;
		if (from == i) {
			event_row(t, d, i, "");
			continue;
		}
		fold_head(t, d, from, i, digest_event(d, from)->seq);
		for (k = i + 1; k-- > from;) {
			r = event_row(t, d, k, "  | ");
			if (r) {
				r->group = digest_event(d, from)->seq;
				r->member = true;
			}
		}
		i = from;
	}
}
