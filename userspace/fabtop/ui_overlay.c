// SPDX-License-Identifier: GPL-2.0
/*
 * ui_overlay.c - what the console shows over its panes: the help screen,
 * the probe matrix and the sort menu (F6).  Each closes with Esc; the keys
 * that drive them are ui_keys.c's.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "ui_int.h"
#include "probes_view.h"
#include "record_view.h"
#include "feed.h"

static const char *const help_text[] = {
	"fabtop - fabric health of this host, live (fabteld's view)",
	"",
	"  Tab, Shift-Tab     next, previous pane",
	"  Up Down PgUp PgDn  move in the pane (also Home, End)",
	"  Enter              on a job: its reasons, QPs and events (Esc: back);",
	"                     on a folded event (x12 over 17 s): its events, again: fold",
	"  t                  on a job: save its fabric timeline (Chrome trace JSON)",
	"  s, S               sort by the next column, reverse the order",
	"  F6, o              the sort menu: pick the column (Enter), Esc: back",
	"  /, F3              filter the pane: rows containing the text",
	"  Esc                close what is open (menu, help, probes, a job), else",
	"                     clear the filter",
	"  p                  pause: keep showing this frame",
	"  P                  the probe matrix: this host's peers, RTT, loss (Esc: back)",
	"  a                  on a NICs row marked recent: acknowledge its recent fault",
	"  r                  on an event with [record N]: its flight record, a plot per",
	"                     signal that moved around it (Esc: back)",
	"  h, ?, F1           this help (any key closes it)",
	"  Ctrl-L             redraw the whole screen",
	"  mouse              a click on a row selects it (and its pane)",
	"  q                  quit (in a job or the probes: back); F10 quits anywhere",
	"",
	"NICs: LINK, FLAPS (link flaps) and LASTFLAP, RxGb/s TxGb/s, OOS/s",
	"(out_of_sequence), NAK/s (nak_seq_err_rcvd), ACKTO/s (local_ack_timeout),",
	"RETRY/s (retry_exceeded), CNP/s (cnp_handled), ECN/s (ecn_marked_rx),",
	"PAUSE/s (PFC pause frames tx/rx per enabled priority), STORM (priorities",
	"in a pause storm).  '-' means unknown, never zero.",
	"Jobs: VERDICT healthy/degraded/failing and the worst REASON.",
	"Narrow terminals drop the least important columns first.",
};

void draw_help(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(help_text) / sizeof(help_text[0]); i++)
		put_line((int)i, help_text[i], i ? A_NORMAL : A_BOLD, 0);
}

/* the probe matrix over the panes; the suspect port and the pairs in trouble coloured */
void draw_probes(struct ui *u)
{
	static struct probe_line l[PROBES_MAX_LINES];
	unsigned int i, n = probes_lines(u->fr ? u->fr->probes : NULL, l, PROBES_MAX_LINES);

	put_line(0, "Probe matrix  (Esc: back)", A_BOLD, 0);
	for (i = 0; i < n && (int)i + 1 < LINES; i++)
		put_line((int)i + 1, l[i].text, l[i].kind == PL_HEAD ? A_BOLD : A_NORMAL,
			 l[i].kind == PL_CULPRIT ? color_pair(u, RC_BAD) :
			 l[i].kind == PL_TROUBLE ? color_pair(u, RC_WARN) : 0);
}

/* an event's flight record over the panes: a plot row per signal that moved */
void draw_record(struct ui *u)
{
	static struct rec_line l[REC_VIEW_LINES];
	struct json_object *rec = NULL;
	char err[320] = "the row under the cursor has none (Events pane: rows with [record N])";
	unsigned int i, n;
	bool busy = false;

	if (u->rec_path[0])
		rec = feed_record(u->feed, err, sizeof(err), &busy);
	if (busy) {
		put_line(0, "Flight record: fetching ...  (Esc: back)", A_BOLD, 0);
		return;
	}
	n = record_lines(rec, err, COLS, l, REC_VIEW_LINES);
	json_object_put(rec);
	for (i = 0; i < n && (int)i < LINES; i++)
		put_line((int)i, l[i].text, l[i].kind == RL_HEAD ? A_BOLD : A_NORMAL,
			 l[i].kind == RL_DOWN ? color_pair(u, RC_BAD) : 0);
}

/* the focused pane's columns on screen; the cursor on one, the sort column marked */
void draw_sort_menu(struct ui *u)
{
	struct table *t = pane_table(u, (unsigned int)*focus(u));
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	char line[160];
	unsigned int c, k = 0;

	put_line(0, "Sort by  (Up/Down, Enter: sort; S: reverse; Esc: back)", A_BOLD, 0);
	for (c = 0; t && c < t->ncols; c++) {
		if (!p->w[c])
			continue;	/* not on screen at this width */
		snprintf(line, sizeof(line), " %s %-12s%s", (int)c == p->sort_col ? "*" : " ",
			 t->col[c].name, t->col[c].desc ? " (worst first)" : "");
		put_line((int)k + 2, line, k == u->menu_cursor ? A_REVERSE : A_NORMAL, 0);
		k++;
	}
}

/* the column the menu's cursor is on; -1 none */
int sort_menu_column(struct ui *u)
{
	struct table *t = pane_table(u, (unsigned int)*focus(u));
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	unsigned int c, k = 0;

	for (c = 0; t && c < t->ncols; c++) {
		if (!p->w[c])
			continue;
		if (k++ == u->menu_cursor)
			return (int)c;
	}
	return -1;
}
