// SPDX-License-Identifier: GPL-2.0
/*
 * ui.c - the console (see ui.h).
 *
 * Screen: a title line, the panes (each a header line and its rows), and a
 * status line: the focused pane, its sort and filter, or why the data is
 * stale.  Every line is cut to the width (cells are ASCII; the bottom right
 * corner is never written), so a narrow or resized terminal never wraps.
 * Drawing only reads the newest frame the fetcher thread published.
 * The keys are ui_keys.c's.
 */
#include <curses.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui_int.h"

static volatile sig_atomic_t quit_signal;

static void on_quit(int sig)
{
	(void)sig;
	quit_signal = 1;
}

void ui_catch_quit(void)
{
	signal(SIGINT, on_quit);
	signal(SIGTERM, on_quit);
}

bool ui_quit_asked(void)
{
	return quit_signal;
}

/* ---- which tables are on screen ---------------------------------------------- */

unsigned int nr_panes(const struct ui *u)
{
	return u->detail ? DTAB_NR : TAB_NR;
}

struct table *pane_table(struct ui *u, unsigned int i)
{
	if (u->detail)
		return u->have_dtab ? &u->dtab[i] : NULL;
	return u->fr ? &u->fr->tab[i] : NULL;
}

struct pane *pane_of(struct ui *u, unsigned int i)
{
	return u->detail ? &u->det[i] : &u->main[i];
}

int *focus(struct ui *u)
{
	return u->detail ? &u->focus_det : &u->focus_main;
}

static const char *const main_names[TAB_NR] = { "NICs", "Jobs", "Events" };
static const char *const det_names[DTAB_NR] = { "Reasons", "History", "QPs", "Events" };

static const char *pane_name(const struct ui *u, unsigned int i)
{
	return u->detail ? det_names[i] : main_names[i];
}

/* The pane's rows in display order into u->idx; how many. */
unsigned int pane_view(struct ui *u, unsigned int i)
{
	struct table *t = pane_table(u, i);
	struct pane *p = pane_of(u, i);
	unsigned int *n;

	if (!t)
		return 0;
	if (!p->sorted) {
		p->sort_col = t->sort_col;
		p->sorted = true;
	}
	if (t->nrows > u->idx_cap) {
		n = realloc(u->idx, t->nrows * sizeof(*n));
		if (!n)
			return 0;
		u->idx = n;
		u->idx_cap = t->nrows;
	}
	return table_fold(t, u->idx, table_view(t, p->sort_col, p->reverse, p->filter, u->idx),
			  u->unfolded, pane_folds(u, i) ? u->nr_unfolded : 0);
}

bool pane_folds(const struct ui *u, unsigned int i)
{
	return u->detail ? i == DTAB_EVENTS : i == TAB_EVENTS;
}

void rebuild_detail(struct ui *u)
{
	struct table fresh[DTAB_NR];

	if (!u->detail || !u->fr)
		return;
	if (!frame_job_detail(u->fr, u->job, fresh)) {
		u->gone = true;		/* keep what we had */
		return;
	}
	if (u->have_dtab)
		frame_detail_free(u->dtab);
	memcpy(u->dtab, fresh, sizeof(fresh));
	u->have_dtab = true;
	u->gone = false;
}

static void take_frame(struct ui *u)
{
	struct feed_status st;
	struct frame *fr = feed_get(u->feed, &st);

	u->st = st;
	if (u->paused || fr == u->fr) {
		feed_put(u->feed, fr);
		return;
	}
	feed_put(u->feed, u->fr);
	u->fr = fr;
	rebuild_detail(u);
}

/* ---- drawing ------------------------------------------------------------------- */

/*
 * Every line goes out through here, cut to the width and with anything
 * that is not printable ASCII as '?': device names, comm, job ids, reasons
 * and errors come from fabteld (or the kernel) and must never move the
 * cursor or set terminal modes.
 */
void put_line(int y, const char *raw, attr_t attr, short pair)
{
	char s[1024];
	int n = COLS;

	if (y < 0 || y >= LINES)
		return;
	if (y == LINES - 1)
		n--;			/* the corner would scroll some terminals */
	if (n <= 0)
		return;			/* addnstr takes -1 for "all of it" */
	ascii_copy(s, sizeof(s), raw);
	attr_set(attr, pair, NULL);
	mvaddnstr(y, 0, s, n);
	attr_set(A_NORMAL, 0, NULL);
}

void paint(int y, int x, int w, attr_t attr, short pair)
{
	if (y < 0 || y >= LINES || x >= COLS || w <= 0)
		return;
	if (x + w > COLS - (y == LINES - 1))
		w = COLS - (y == LINES - 1) - x;
	if (w > 0)
		mvchgat(y, x, w, attr, pair, NULL);
}

short color_pair(const struct ui *u, enum row_color c)
{
	if (!u->colors)
		return 0;
	return c == RC_GOOD ? CP_GOOD : c == RC_WARN ? CP_WARN : c == RC_BAD ? CP_BAD : 0;
}

/* a cell (col -1: the line) in c; without colors only the bad ones stand out, in bold */
static void paint_cell(struct ui *u, const struct table *t, const struct pane *p, int y,
		       int col, enum row_color c)
{
	int x = 0, w = COLS;

	if (c == RC_NONE || (!u->colors && c != RC_BAD))
		return;
	if (col >= 0) {
		x = table_col_x(t, p->w, (unsigned int)col);
		w = x < 0 ? 0 : (int)p->w[col];
	}
	paint(y, x, w, A_BOLD, color_pair(u, c));
}

static void draw_row(struct ui *u, const struct table *t, const struct pane *p,
		     const struct row *r, int y, bool selected)
{
	char line[1024];

	table_line(t, r, p->w, line, sizeof(line));
	put_line(y, line, A_NORMAL, 0);
	paint_cell(u, t, p, y, r->color_col, r->color);
	if (r->color_col2 >= 0)
		paint_cell(u, t, p, y, r->color_col2, r->color2);
	if (selected)
		paint(y, 0, COLS, A_REVERSE, 0);
}

static void draw_header(struct ui *u, const struct table *t, struct pane *p, int y, bool focused)
{
	char line[1024];
	int x;

	table_line(t, NULL, p->w, line, sizeof(line));
	put_line(y, line, A_NORMAL, 0);
	paint(y, 0, COLS, focused ? A_REVERSE | A_BOLD : A_REVERSE,
	      u->colors ? (focused ? CP_FOCUS : CP_HEAD) : 0);
	x = table_col_x(t, p->w, (unsigned int)p->sort_col);
	if (x >= 0)
		paint(y, x, (int)p->w[p->sort_col], (focused ? A_REVERSE | A_BOLD : A_REVERSE) |
		      A_UNDERLINE, u->colors ? (focused ? CP_FOCUS : CP_HEAD) : 0);
}

/* Keep the cursor on the same row (by its first cell) and in sight. */
static void place_cursor(struct pane *p, const struct table *t, const unsigned int *idx,
			 unsigned int n, unsigned int rows)
{
	unsigned int i;

	if (p->sel[0]) {
		for (i = 0; i < n; i++) {
			if (!strcmp(t->row[idx[i]].cell[0], p->sel)) {
				p->cursor = i;
				break;
			}
		}
	}
	if (p->cursor >= n)
		p->cursor = n ? n - 1 : 0;
	if (p->cursor < p->top)
		p->top = p->cursor;
	if (rows && p->cursor >= p->top + rows)
		p->top = p->cursor - rows + 1;
	if (p->top + rows > n)
		p->top = n > rows ? n - rows : 0;
	if (n)
		snprintf(p->sel, sizeof(p->sel), "%s", t->row[idx[p->cursor]].cell[0]);
}

static void draw_pane(struct ui *u, unsigned int i, int y, int h)
{
	struct table *t = pane_table(u, i);
	struct pane *p = pane_of(u, i);
	bool focused = (int)i == *focus(u);
	unsigned int n, k, rows = h > 1 ? (unsigned int)(h - 1) : 0;
	char msg[320];

	if (!t || h <= 0)
		return;
	n = pane_view(u, i);
	table_fit(t, (unsigned int)COLS, p->w);
	draw_header(u, t, p, y, focused);
	place_cursor(p, t, u->idx, n, rows);
	if (!n && rows) {
		if (t->nrows)
			snprintf(msg, sizeof(msg), "  (no rows match '%s'; Esc clears)", p->filter);
		else
			snprintf(msg, sizeof(msg), "  (%s)", t->empty);
		put_line(y + 1, msg, A_DIM, 0);
	}
	for (k = 0; k < rows && p->top + k < n; k++)
		draw_row(u, t, p, &t->row[u->idx[p->top + k]], y + 1 + (int)k,
			 focused && p->top + k == p->cursor);
}

static int pane_need(struct ui *u, unsigned int i)
{
	unsigned int n = pane_table(u, i) ? pane_view(u, i) : 0;

	return (int)(n ? n : 1) + 1;
}

/*
 * Heights: every pane a header and a row while there is room; then the
 * NICs and Jobs panes what they need up to their share, Events the rest;
 * what Events does not need goes back to the others.
 */
static void layout(struct ui *u, int avail, int *h)
{
	static const int share_main[TAB_NR - 1] = { 45, 30 };
	static const int share_det[DTAB_NR - 1] = { 25, 25, 25 };
	const int *share = u->detail ? share_det : share_main;
	unsigned int n = nr_panes(u), i;
	int total = avail, more;

	for (i = 0; i < n; i++) {
		h[i] = avail >= 2 ? 2 : avail > 0 ? avail : 0;
		avail -= h[i];
	}
	for (i = 0; i + 1 < n && avail > 0; i++) {
		more = pane_need(u, i);
		if (more > total * share[i] / 100)
			more = total * share[i] / 100;
		more -= h[i];
		more = more > avail ? avail : more;
		if (more > 0) {
			h[i] += more;
			avail -= more;
		}
	}
	more = pane_need(u, n - 1) - h[n - 1];
	more = more > avail ? avail : more;
	if (more > 0) {
		h[n - 1] += more;
		avail -= more;
	}
	for (i = 0; i + 1 < n && avail > 0; i++) {
		more = pane_need(u, i) - h[i];
		more = more > avail ? avail : more;
		if (more > 0) {
			h[i] += more;
			avail -= more;
		}
	}
	h[n - 1] += avail;
}

static void age_text(char *buf, size_t len, double age)
{
	if (age < 0)
		age = 0;
	if (age < 120)
		snprintf(buf, len, "%.0f s", floor(age));
	else if (age < 7200)
		snprintf(buf, len, "%.0f min", floor(age / 60));
	else
		snprintf(buf, len, "%.0f h", floor(age / 3600));
}

static double data_age(const struct ui *u)
{
	const struct frame *f = u->fr;

	if (!f)
		return 0;
	return feed_now() - (f->sample_time > 0 ? f->sample_time : f->fetched);
}

static void draw_title(struct ui *u)
{
	char line[1024], age[32], clock[16] = "--:--:--";
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	age_text(age, sizeof(age), data_age(u));
	/* narrower screens drop the version, then the source's address, then the port source */
	snprintf(line, sizeof(line), "fabtop %s  %s  %s  data %s old  ports via %s%s",
		 FABTEL_VERSION, clock, feed_source(u->feed), u->fr ? age : "-",
		 u->fr ? u->fr->port_source : "-", u->paused ? "  PAUSED (p)" : "");
	if ((int)strlen(line) > COLS)
		snprintf(line, sizeof(line), "fabtop  %s  %s  data %s old  ports via %s%s", clock,
			 feed_source(u->feed), u->fr ? age : "-",
			 u->fr ? u->fr->port_source : "-", u->paused ? "  PAUSED (p)" : "");
	if ((int)strlen(line) > COLS)
		snprintf(line, sizeof(line), "fabtop  %s  data %s old  ports via %s%s", clock,
			 u->fr ? age : "-", u->fr ? u->fr->port_source : "-",
			 u->paused ? "  PAUSED" : "");
	if ((int)strlen(line) > COLS)
		snprintf(line, sizeof(line), "fabtop %s data %s%s", clock, u->fr ? age : "-",
			 u->paused ? " PAUSED" : "");
	put_line(0, line, A_BOLD, 0);
}

static void draw_status(struct ui *u)
{
	struct pane *p = pane_of(u, (unsigned int)*focus(u));
	struct table *t = pane_table(u, (unsigned int)*focus(u));
	char line[1024], age[32];
	int y = LINES - 1;

	if (u->editing) {
		snprintf(line, sizeof(line), "filter %s: %s_  (Enter keeps, Esc clears)",
			 pane_name(u, (unsigned int)*focus(u)), p->filter);
		put_line(y, line, A_BOLD, 0);
		return;
	}
	if (u->st.notice_at && feed_now() - u->st.notice_at < NOTICE_S) {
		put_line(y, u->st.notice, A_BOLD, u->st.notice_bad ? color_pair(u, RC_BAD) : 0);
		return;
	}
	if (u->st.failing) {
		age_text(age, sizeof(age), data_age(u));
		snprintf(line, sizeof(line), "%s; %s%s%s", u->st.error,
			 u->fr ? "showing data from " : "no data yet: start fabteld or run fabtop --standalone",
			 u->fr ? age : "", u->fr ? " ago" : "");
		if ((int)strlen(line) >= COLS)
			snprintf(line, sizeof(line), "%s; %s%s%s", u->st.brief,
				 u->fr ? "data " : "no data", u->fr ? age : "", u->fr ? " old" : "");
		put_line(y, line, A_BOLD, color_pair(u, RC_BAD));
		return;
	}
	snprintf(line, sizeof(line), "[%s] sort %s%s%s%s%s  Tab:pane s:sort /:filter p:pause P:probes h:help q:quit",
		 pane_name(u, (unsigned int)*focus(u)),
		 t && p->sort_col >= 0 ? t->col[p->sort_col].name : "-", p->reverse ? " rev" : "",
		 p->filter[0] ? " filter '" : "", p->filter, p->filter[0] ? "'" : "");
	put_line(y, line, A_NORMAL, 0);
}

static void draw_detail_title(struct ui *u, int y)
{
	char line[512];
	const struct row *r = NULL;
	unsigned int i;

	for (i = 0; u->fr && i < u->fr->tab[TAB_JOBS].nrows; i++)
		if (!strcmp(u->fr->tab[TAB_JOBS].row[i].id, u->job))
			r = &u->fr->tab[TAB_JOBS].row[i];
	snprintf(line, sizeof(line), "Job %s: %s%s%s  (Esc: back)", u->job,
		 r ? r->cell[JOB_COL_VERDICT] : "", r ? " - " : "",
		 u->gone ? "gone from fabteld's jobs" : r ? r->cell[JOB_COL_REASON] : "");
	put_line(y, line, A_BOLD, r ? color_pair(u, r->color) : 0);
}

static void draw(struct ui *u)
{
	int h[TAB_NR + DTAB_NR], y = 1, top = 1;
	unsigned int i;

	erase();
	if (u->help) {
		draw_help();
		refresh();
		return;
	}
	if (u->probes) {
		draw_probes(u);
		refresh();
		return;
	}
	if (u->recview) {
		draw_record(u);
		refresh();
		return;
	}
	if (u->sortmenu) {
		draw_sort_menu(u);
		refresh();
		return;
	}
	draw_title(u);
	if (u->detail) {
		draw_detail_title(u, 1);
		y = top = 2;
	}
	layout(u, LINES - top - 1, h);
	for (i = 0; i < nr_panes(u); i++) {
		draw_pane(u, i, y, h[i]);
		u->pane_y[i] = y;	/* where a mouse click lands */
		u->pane_h[i] = h[i];
		y += h[i];
	}
	if (!u->fr && LINES > 2)
		put_line(1, "  (waiting for the first data)", A_DIM, 0);
	if (LINES > 1)
		draw_status(u);
	refresh();
}

/* ---- the loop --------------------------------------------------------------------- */

bool ui_setup_colors(void)
{
	if (!has_colors() || getenv("NO_COLOR"))
		return false;
	start_color();
	use_default_colors();
	init_pair(CP_GOOD, COLOR_GREEN, -1);
	init_pair(CP_WARN, COLOR_YELLOW, -1);
	init_pair(CP_BAD, COLOR_RED, -1);
	init_pair(CP_HEAD, COLOR_BLACK, COLOR_WHITE);
	init_pair(CP_FOCUS, COLOR_BLACK, COLOR_CYAN);
	return true;
}

int ui_run(struct feed *feed)
{
	struct ui u = { .feed = feed };
	uint64_t shown_gen = 0;
	bool failing = false;
	double last = 0;
	int ch;

	ui_catch_quit();
	if (!initscr())
		return 1;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);	/* a click selects a row */
	mouseinterval(0);
	curs_set(0);
	set_escdelay(25);
	timeout(100);
	u.colors = ui_setup_colors();
	while (!quit_signal) {
		take_frame(&u);
		if (u.st.gen != shown_gen || u.st.failing != failing ||
		    feed_now() - last >= IDLE_REDRAW_S) {
			shown_gen = u.st.gen;
			failing = u.st.failing;
			last = feed_now();
			draw(&u);
		}
		ch = getch();
		if (ch == ERR)
			continue;
		if (ch != KEY_RESIZE && !ui_key(&u, ch))
			break;
		draw(&u);
		last = feed_now();
	}
	endwin();
	ui_close_detail(&u);
	feed_put(feed, u.fr);
	free(u.idx);
	return 0;
}
