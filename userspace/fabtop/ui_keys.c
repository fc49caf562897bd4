// SPDX-License-Identifier: GPL-2.0
/*
 * ui_keys.c - what each key does in the console (ui.c draws; the help
 * screen lists them): moving, sorting, filtering, a job's page, pause,
 * trace export.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_int.h"

static void move_cursor(struct ui *u, int delta)
{
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	unsigned int n = pane_view(u, (unsigned int)*focus(u));
	long c = (long)p->cursor + delta;

	if (c < 0)
		c = 0;
	if (n && c >= (long)n)
		c = n - 1;
	p->cursor = (unsigned int)c;
	p->sel[0] = '\0';		/* moved on purpose: stop following the row */
	if (n) {
		struct table *t = pane_table(u, (unsigned int)*focus(u));

		snprintf(p->sel, sizeof(p->sel), "%s", t->row[u->idx[p->cursor]].cell[0]);
	}
}

static void next_sort(struct ui *u)
{
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	struct table *t = pane_table(u, (unsigned int)*focus(u));
	unsigned int k, c = 0;

	if (!t)
		return;
	/* the next column that is on screen */
	for (k = 1; k <= t->ncols; k++) {
		c = ((unsigned int)p->sort_col + k) % t->ncols;
		if (p->w[c])
			break;
	}
	p->sort_col = (int)c;
	p->reverse = false;
}

static void open_detail(struct ui *u)
{
	struct pane *p = &u->main[TAB_JOBS];
	struct table *t = pane_table(u, TAB_JOBS);
	unsigned int n = pane_view(u, TAB_JOBS);

	if (u->detail || u->focus_main != TAB_JOBS || !t || !n || p->cursor >= n)
		return;
	snprintf(u->job, sizeof(u->job), "%s", t->row[u->idx[p->cursor]].id);
	memset(u->det, 0, sizeof(u->det));
	u->focus_det = DTAB_QPS;
	u->detail = true;
	rebuild_detail(u);
	if (!u->have_dtab)
		u->detail = false;
}

/* t: save the job's trace (the one open, else the one under the cursor) */
static void save_trace(struct ui *u)
{
	struct pane *p = &u->main[TAB_JOBS];
	struct table *t = pane_table(u, TAB_JOBS);
	unsigned int n = pane_view(u, TAB_JOBS);

	if (u->detail)
		feed_request_trace(u->feed, u->job);
	else if (u->focus_main == TAB_JOBS && t && n && p->cursor < n)
		feed_request_trace(u->feed, t->row[u->idx[p->cursor]].id);
}

void ui_close_detail(struct ui *u)
{
	if (u->have_dtab)
		frame_detail_free(u->dtab);
	u->have_dtab = false;
	u->detail = false;
}

static void edit_key(struct ui *u, int ch)
{
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	size_t n = strlen(p->filter);

	if (ch == 27) {
		p->filter[0] = '\0';
		u->editing = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		u->editing = false;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			p->filter[n - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof(p->filter)) {
		p->filter[n] = (char)ch;
		p->filter[n + 1] = '\0';
	}
	p->cursor = p->top = 0;
	p->sel[0] = '\0';
}

/* false: quit */
bool ui_key(struct ui *u, int ch)
{
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	int page = LINES > 8 ? LINES / 3 : 1;

	if (u->editing) {
		edit_key(u, ch);
		return true;
	}
	if (ch == KEY_F(10))		/* htop's habit: F10 quits from anywhere */
		return false;
	if (u->help) {			/* any key closes the help, q included */
		u->help = false;
		return true;
	}
	if (u->probes && (ch == 27 || ch == 'P' || ch == 'q' || ch == 'Q' ||
			  ch == KEY_BACKSPACE || ch == KEY_LEFT)) {
		u->probes = false;
		return true;
	}
	if (ch == 'q' || ch == 'Q') {	/* on a job's page: back; quits the main screen only */
		if (!u->detail)
			return false;
		ui_close_detail(u);
		return true;
	}
	switch (ch) {
	case 'h': case '?': case KEY_F(1):
		u->help = true;
		break;
	case '\t':
		*focus(u) = (*focus(u) + 1) % (int)nr_panes(u);
		break;
	case KEY_BTAB:
		*focus(u) = (*focus(u) + (int)nr_panes(u) - 1) % (int)nr_panes(u);
		break;
	case KEY_UP: case 'k':
		move_cursor(u, -1);
		break;
	case KEY_DOWN: case 'j':
		move_cursor(u, 1);
		break;
	case KEY_PPAGE:
		move_cursor(u, -page);
		break;
	case KEY_NPAGE: case ' ':
		move_cursor(u, page);
		break;
	case KEY_HOME: case 'g':
		move_cursor(u, -1000000);
		break;
	case KEY_END: case 'G':
		move_cursor(u, 1000000);
		break;
	case 's': case KEY_F(6):
		next_sort(u);
		break;
	case 'S':
		p->reverse = !p->reverse;
		break;
	case '/': case KEY_F(3):
		u->editing = true;
		p->filter[0] = '\0';
		break;
	case 'p':
		u->paused = !u->paused;
		break;
	case 'P':
		u->probes = true;
		break;
	case '\n': case '\r': case KEY_ENTER:
		open_detail(u);
		break;
	case 't':
		save_trace(u);
		break;
	case 12:	/* Ctrl-L: something else wrote on the terminal */
		clearok(curscr, TRUE);
		break;
	case 27: case KEY_BACKSPACE: case KEY_LEFT: case 127:
		if (p->filter[0] && ch == 27)
			p->filter[0] = '\0';
		else if (u->detail)
			ui_close_detail(u);
		break;
	default:
		break;
	}
	return true;
}
