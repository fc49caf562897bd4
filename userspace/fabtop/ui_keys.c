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

/* Enter on an Events pane: fold or unfold the run under the cursor; false: none */
static bool toggle_fold(struct ui *u)
{
	unsigned int i = (unsigned int)*focus(u), n, k;
	struct pane *p = pane_of(u, i);
	struct table *t = pane_table(u, i);
	uint64_t g;

	if (!pane_folds(u, i) || !t || !(n = pane_view(u, i)) || p->cursor >= n)
		return false;
	g = t->row[u->idx[p->cursor]].group;
	if (!g)
		return false;
	for (k = 0; k < u->nr_unfolded && u->unfolded[k] != g; k++)
		;
	if (k < u->nr_unfolded) {		/* open: fold it */
		memmove(&u->unfolded[k], &u->unfolded[k + 1],
			(u->nr_unfolded - k - 1) * sizeof(u->unfolded[0]));
		u->nr_unfolded--;
		return true;
	}
	if (u->nr_unfolded == UNFOLD_MAX) {	/* the oldest opened folds again */
		memmove(&u->unfolded[0], &u->unfolded[1],
			(UNFOLD_MAX - 1) * sizeof(u->unfolded[0]));
		u->nr_unfolded--;
	}
	u->unfolded[u->nr_unfolded++] = g;
	return true;
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

/* r: the flight record of the event under the cursor (none: the overlay says so) */
static void open_record(struct ui *u)
{
	unsigned int i = (unsigned int)*focus(u), n;
	struct pane *p = pane_of(u, i);
	struct table *t = pane_table(u, i);
	const char *path = "";

	if (t && pane_folds(u, i) && (n = pane_view(u, i)) && p->cursor < n)
		path = t->row[u->idx[p->cursor]].record;
	snprintf(u->rec_path, sizeof(u->rec_path), "%s", path);
	if (path[0])
		feed_request_record(u->feed, path);
	u->recview = true;
}

/* a: acknowledge the recent fault of the NICs pane's port under the cursor */
static void ack_port(struct ui *u)
{
	unsigned int i = (unsigned int)*focus(u), n, port;
	struct pane *p = pane_of(u, i);
	struct table *t = pane_table(u, i);
	char dev[64];

	if (!t || strcmp(t->name, "NICs") || !(n = pane_view(u, i)) || p->cursor >= n ||
	    sscanf(t->row[u->idx[p->cursor]].cell[0], "%63[^/]/%u", dev, &port) != 2)
		return;
	feed_request_ack(u->feed, dev, port);
}

/* the sort menu's keys: move, pick, reverse, close */
static void menu_key(struct ui *u, int ch)
{
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	int c;

	switch (ch) {
	case KEY_UP: case 'k':
		if (u->menu_cursor)
			u->menu_cursor--;
		break;
	case KEY_DOWN: case 'j':
		if (sort_menu_column(u) >= 0 && (u->menu_cursor++, sort_menu_column(u) < 0))
			u->menu_cursor--;
		break;
	case '\n': case '\r': case KEY_ENTER:
		c = sort_menu_column(u);
		if (c >= 0) {
			p->reverse = p->sort_col == c ? p->reverse : false;
			p->sort_col = c;
		}
		u->sortmenu = false;
		break;
	case 'S':
		p->reverse = !p->reverse;
		break;
	case 27: case 'q': case 'Q': case KEY_LEFT: case KEY_BACKSPACE: case KEY_F(6): case 'o':
		u->sortmenu = false;
		break;
	default:
		break;
	}
}

static void open_sort_menu(struct ui *u)
{
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	unsigned int c, k = 0;

	u->menu_cursor = 0;
	for (c = 0; pane_table(u, (unsigned int)*focus(u)) && (int)c < p->sort_col; c++)
		k += p->w[c] != 0;
	u->menu_cursor = k;	/* on the column it sorts by now */
	u->sortmenu = true;
}

/* the help, the sort menu and the probe matrix take their keys first; true: taken */
static bool overlay_key(struct ui *u, int ch)
{
	if (u->help) {			/* any key closes the help, q included */
		u->help = false;
		return true;
	}
	if (u->sortmenu) {
		menu_key(u, ch);
		return true;
	}
	if (u->probes && (ch == 27 || ch == 'P' || ch == 'q' || ch == 'Q' ||
			  ch == KEY_BACKSPACE || ch == KEY_LEFT)) {
		u->probes = false;
		return true;
	}
	if (u->recview && (ch == 27 || ch == 'r' || ch == 'q' || ch == 'Q' ||
			   ch == KEY_BACKSPACE || ch == KEY_LEFT)) {
		u->recview = false;
		return true;
	}
	return false;
}

/* a click on a pane's row: focus there, the cursor on the row */
static void click(struct ui *u)
{
	MEVENT ev;
	unsigned int i, n, row;

	if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return;
	for (i = 0; i < nr_panes(u); i++) {
		if (ev.y <= u->pane_y[i] || ev.y >= u->pane_y[i] + u->pane_h[i])
			continue;	/* its header, or another pane */
		row = pane_of(u, i)->top + (unsigned int)(ev.y - u->pane_y[i] - 1);
		n = pane_view(u, i);
		if (row >= n)
			return;
		*focus(u) = (int)i;
		move_cursor(u, (int)row - (int)pane_of(u, i)->cursor);
		return;
	}
}

/* the cursor keys; true: taken */
static bool move_key(struct ui *u, int ch)
{
	int page = LINES > 8 ? LINES / 3 : 1;

	switch (ch) {
	case KEY_UP: case 'k':
		move_cursor(u, -1);
		return true;
	case KEY_DOWN: case 'j':
		move_cursor(u, 1);
		return true;
	case KEY_PPAGE:
		move_cursor(u, -page);
		return true;
	case KEY_NPAGE: case ' ':
		move_cursor(u, page);
		return true;
	case KEY_HOME: case 'g':
		move_cursor(u, -1000000);
		return true;
	case KEY_END: case 'G':
		move_cursor(u, 1000000);
		return true;
	case KEY_MOUSE:
		click(u);
		return true;
	default:
		return false;
	}
}

/* false: quit */
bool ui_key(struct ui *u, int ch)
{
	struct pane *p = pane_of(u, (unsigned int)*focus(u));

	if (u->editing) {
		edit_key(u, ch);
		return true;
	}
	if (ch == KEY_F(10))		/* htop's habit: F10 quits from anywhere */
		return false;
	if (overlay_key(u, ch) || move_key(u, ch))
		return true;
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
	case 's':
		next_sort(u);
		break;
	case 'o': case KEY_F(6):
		open_sort_menu(u);
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
	case 'r':
		open_record(u);
		break;
	case 'a':
		ack_port(u);
		break;
	case '\n': case '\r': case KEY_ENTER:
		if (!toggle_fold(u))
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
