// SPDX-License-Identifier: GPL-2.0
/*
 * cluster_ui.c - the cluster view's console (fabtop --prometheus): the
 * jobs by severity; Enter opens a job's page (its hosts, its ports with
 * the culprit marked, its failing hosts over 15 minutes, the probe pairs
 * between its hosts that lose); keys as in the host view.  Drawing only
 * reads the fetcher's newest frame: a slow or absent Prometheus never
 * holds a key.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster_feed.h"
#include "ui.h"

struct cpane {
	unsigned int top, cursor;
	int sort_col;
	bool reverse;
	char sel[TABLE_ID_LEN];		/* the selected row's first cell: kept across refreshes */
};

struct cui {
	struct cl_feed *feed;
	const char *url;
	bool colors, paused, help, page;
	int focus;			/* the page's focused table: hosts, ports, pairs */
	struct cpane pane[CL_TAB_NR];
	char filter[64];
	char job[CL_NAME_LEN];
	unsigned int idx_cap;
	unsigned int *idx;
};

static void put(int y, const char *s, int attr, int pair)
{
	if (y < 0 || y >= LINES)
		return;
	move(y, 0);
	clrtoeol();
	attron(attr | (pair ? COLOR_PAIR(pair) : 0));
	addnstr(s, COLS);
	attroff(attr | (pair ? COLOR_PAIR(pair) : 0));
}

static int color_of(enum row_color c)
{
	return c == RC_GOOD ? CP_GOOD : c == RC_WARN ? CP_WARN : c == RC_BAD ? CP_BAD : 0;
}

static void paint_row(struct cui *u, const struct table *t, const unsigned int *w,
		      const struct row *r, int y, bool sel)
{
	char line[1024];
	int x, pair = u->colors ? color_of(r->color) : 0;

	table_line(t, r, w, line, sizeof(line));
	put(y, line, sel ? A_REVERSE : A_NORMAL, 0);
	if (!pair)
		return;
	if (r->color_col < 0) {
		mvchgat(y, 0, COLS, A_BOLD | (sel ? A_REVERSE : 0), (short)pair, NULL);
	} else if ((x = table_col_x(t, w, (unsigned int)r->color_col)) >= 0) {
		mvchgat(y, x, (int)w[r->color_col], A_BOLD | (sel ? A_REVERSE : 0), (short)pair, NULL);
	}
}

/* One table in rows [y, y + h): its header, then its rows from the pane's top. */
static void draw_table(struct cui *u, const struct table *t, struct cpane *p, int y, int h,
		       bool focused)
{
	unsigned int w[TABLE_MAX_COLS], n, k, rows = h > 1 ? (unsigned int)h - 1 : 0;
	char line[1024];

	if (h <= 0)
		return;
	if (u->idx_cap < t->nrows + 1) {
		unsigned int *ni = realloc(u->idx, (t->nrows + 1) * sizeof(*ni));

		if (!ni)
			return;
		u->idx = ni;
		u->idx_cap = t->nrows + 1;
	}
	n = table_view(t, p->sort_col, p->reverse, focused ? u->filter : NULL, u->idx);
	table_fit(t, (unsigned int)COLS, w);
	table_line(t, NULL, w, line, sizeof(line));
	put(y, line, A_REVERSE | (focused ? A_BOLD : 0), u->colors ? (focused ? CP_FOCUS : CP_HEAD) : 0);
	for (k = 0; p->sel[0] && k < n; k++)
		if (!strcmp(t->row[u->idx[k]].cell[0], p->sel))
			p->cursor = k;
	if (p->cursor >= n)
		p->cursor = n ? n - 1 : 0;
	if (p->cursor < p->top)
		p->top = p->cursor;
	if (rows && p->cursor >= p->top + rows)
		p->top = p->cursor - rows + 1;
	if (n)
		snprintf(p->sel, sizeof(p->sel), "%s", t->row[u->idx[p->cursor]].cell[0]);
	if (!n && rows) {
		snprintf(line, sizeof(line), "  (%s)", t->nrows ? "no rows match the filter; Esc clears" :
			 t->empty);
		put(y + 1, line, A_DIM, 0);
	}
	for (k = 0; k < rows && p->top + k < n; k++)
		paint_row(u, t, w, &t->row[u->idx[p->top + k]], y + 1 + (int)k,
			  focused && p->top + k == p->cursor);
	for (; (int)k < h - 1; k++)
		put(y + 1 + (int)k, "", A_NORMAL, 0);
}

static void draw_status(struct cui *u, const struct cl_frame *fr, const struct cl_status *st)
{
	char line[600], when[32] = "never";
	time_t t = (time_t)st->last_ok;
	struct tm tm;

	if (st->last_ok > 0 && localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(line, sizeof(line), "fabtop cluster  %s  %s%s  queries %u, %.0f ms  %s%s%s",
		 u->url, u->page ? "job " : "jobs", u->page ? u->job : "",
		 fr ? fr->queries : 0, fr ? fr->query_ms : 0.0, u->paused ? "PAUSED  " : "",
		 u->filter[0] ? "filter: " : "", u->filter);
	put(0, line, A_BOLD, 0);
	if (st->failing)
		snprintf(line, sizeof(line), "%s (last good view %s, kept)", st->error, when);
	else if (u->help)
		snprintf(line, sizeof(line), "keys: arrows/PgUp/PgDn move, Enter a job's page, Esc back, "
			 "Tab next table, s sort, / filter, p pause, h help, q quit");
	else
		snprintf(line, sizeof(line), "as of %s; h for keys", when);
	put(LINES - 1, line, st->failing ? A_BOLD : A_DIM, st->failing && u->colors ? CP_BAD : 0);
}

/* More pairs lose than were fetched: said at the right of their header. */
static void pairs_note(const struct cl_page *p, int y)
{
	char note[64];
	int n = snprintf(note, sizeof(note), " %u more (first %u shown) ",
			 p->pairs_total - p->npairs, p->npairs);

	if (y < LINES && n < COLS)
		mvaddstr(y, COLS - n, note);
}

static void draw(struct cui *u, const struct cl_frame *fr, const struct cl_status *st)
{
	int h = LINES - 2, third;
	char line[512];
	size_t width;

	erase();
	draw_status(u, fr, st);
	if (!fr) {
		put(2, st->failing ? "no view yet: Prometheus did not answer (below)" :
		    "asking Prometheus...", A_DIM, 0);
		refresh();
		return;
	}
	if (!u->page || !fr->page || strcmp(fr->page->job, u->job)) {
		if (u->page)
			put(1, "(the job's page is on its way)", A_DIM, 0);
		draw_table(u, &fr->tab[CL_TAB_JOBS], &u->pane[CL_TAB_JOBS], u->page ? 2 : 1,
			   u->page ? h - 1 : h, !u->page);
		refresh();
		return;
	}
	width = COLS > 0 && (size_t)COLS < sizeof(line) ? (size_t)COLS : sizeof(line) - 1;
	cluster_history_line(fr->page, false, line, width);
	put(1, line, A_NORMAL, 0);
	cluster_history_line(fr->page, true, line, width);
	put(2, line, A_NORMAL, 0);
	third = (h - 2) / 3;
	draw_table(u, &fr->tab[CL_TAB_HOSTS], &u->pane[CL_TAB_HOSTS], 3, third, u->focus == 0);
	draw_table(u, &fr->tab[CL_TAB_PORTS], &u->pane[CL_TAB_PORTS], 3 + third, third, u->focus == 1);
	draw_table(u, &fr->tab[CL_TAB_PAIRS], &u->pane[CL_TAB_PAIRS], 3 + 2 * third,
		   h - 2 - 2 * third, u->focus == 2);
	if (fr->page->pairs_capped)
		pairs_note(fr->page, 3 + 2 * third);
	refresh();
}

static struct cpane *focused_pane(struct cui *u)
{
	return &u->pane[u->page ? CL_TAB_HOSTS + u->focus : CL_TAB_JOBS];
}

static const struct table *focused_table(struct cui *u, const struct cl_frame *fr)
{
	if (!fr)
		return NULL;
	if (!u->page)
		return &fr->tab[CL_TAB_JOBS];
	return fr->page ? &fr->tab[CL_TAB_HOSTS + u->focus] : NULL;
}

static void move_cursor(struct cpane *p, int by)
{
	long c = (long)p->cursor + by;

	p->cursor = c < 0 ? 0 : (unsigned int)c;
	p->sel[0] = '\0';	/* the cursor moves, not the row */
}

static void open_job(struct cui *u, const struct cl_frame *fr)
{
	const struct table *t = fr ? &fr->tab[CL_TAB_JOBS] : NULL;
	struct cpane *p = &u->pane[CL_TAB_JOBS];
	unsigned int i;

	if (!t || !p->sel[0])
		return;
	for (i = 0; i < t->nrows; i++) {
		if (strcmp(t->row[i].cell[0], p->sel))
			continue;
		snprintf(u->job, sizeof(u->job), "%s", t->row[i].id);
		u->page = true;
		u->focus = 0;
		u->filter[0] = '\0';
		memset(&u->pane[CL_TAB_HOSTS], 0, 3 * sizeof(u->pane[0]));
		u->pane[CL_TAB_HOSTS].sort_col = 4;	/* EVIDENCE, the culprit first */
		u->pane[CL_TAB_PORTS].sort_col = 3;
		cl_feed_want(u->feed, u->job);
		return;
	}
}

/* A key typed into the filter; false when the filter is done. */
static bool filter_key(struct cui *u, int ch)
{
	size_t n = strlen(u->filter);

	if (ch == '\n' || ch == KEY_ENTER)
		return false;
	if (ch == 27) {
		u->filter[0] = '\0';
		return false;
	}
	if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n)
		u->filter[n - 1] = '\0';
	else if (ch >= 32 && ch < 127 && n + 1 < sizeof(u->filter))
		u->filter[n] = (char)ch, u->filter[n + 1] = '\0';
	return true;
}

/* One key; false to quit. */
static bool on_key(struct cui *u, const struct cl_frame *fr, int ch)
{
	struct cpane *p = focused_pane(u);
	const struct table *t = focused_table(u, fr);
	int page = LINES > 6 ? LINES / (u->page ? 3 : 1) - 2 : 1;

	switch (ch) {
	case 'q':
		return false;
	case KEY_UP: move_cursor(p, -1); break;
	case KEY_DOWN: move_cursor(p, 1); break;
	case KEY_PPAGE: move_cursor(p, -page); break;
	case KEY_NPAGE: move_cursor(p, page); break;
	case KEY_HOME: move_cursor(p, -(1 << 30)); break;
	case KEY_END: move_cursor(p, 1 << 30); break;
	case '\n': case KEY_ENTER: case KEY_RIGHT:
		if (!u->page)
			open_job(u, fr);
		break;
	case 27: case KEY_LEFT: case KEY_BACKSPACE: case 127:
		if (u->filter[0]) {
			u->filter[0] = '\0';
		} else if (u->page) {
			u->page = false;
			cl_feed_want(u->feed, "");
		}
		break;
	case '\t':
		if (u->page)
			u->focus = (u->focus + 1) % 3;
		break;
	case 's':
		if (t)
			p->sort_col = (p->sort_col + 1) % (int)t->ncols;
		break;
	case 'r': p->reverse = !p->reverse; break;
	case 'p':
		u->paused = !u->paused;
		cl_feed_pause(u->feed, u->paused);
		break;
	case 'h': case '?': u->help = !u->help; break;
	default: break;
	}
	return true;
}

int cluster_ui_run(const struct promq_opts *o, double interval)
{
	struct cui u = { .url = o->url };
	const struct cl_frame *fr;
	struct cl_status st;
	bool typing = false;
	char err[400];
	int ch;

	u.pane[CL_TAB_JOBS].sort_col = 1;	/* VERDICT: the worst first */
	u.feed = cl_feed_start(o, interval, err, sizeof(err));
	if (!u.feed) {
		fprintf(stderr, "fabtop: %s\n", err);
		return 1;
	}
	ui_catch_quit();
	if (!initscr()) {
		cl_feed_stop(u.feed);
		fprintf(stderr, "fabtop: cannot set up the terminal\n");
		return 1;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	timeout(100);
	u.colors = ui_setup_colors();
	while (!ui_quit_asked()) {
		fr = cl_feed_get(u.feed, &st);
		draw(&u, fr, &st);
		ch = getch();
		if (ch == ERR)
			continue;
		if (typing) {
			typing = filter_key(&u, ch);
			continue;
		}
		if (ch == '/') {
			typing = true;
			u.filter[0] = '\0';
			continue;
		}
		if (!on_key(&u, fr, ch))
			break;
	}
	endwin();
	cl_feed_stop(u.feed);
	free(u.idx);
	return 0;
}
