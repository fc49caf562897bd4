/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui_int.h - the console's state, shared by ui.c (screen, drawing, the
 * loop) and ui_keys.c (what each key does).
 */
#ifndef FABTOP_UI_INT_H
#define FABTOP_UI_INT_H

#include <curses.h>
#include <stdbool.h>

#include "panes.h"
#include "ui.h"

#define FILTER_LEN	64
#define UNFOLD_MAX	16
#define IDLE_REDRAW_S	0.5

#define NOTICE_S	8	/* how long a trace export's outcome stays shown */

struct pane {
	int sort_col;
	bool reverse;
	char filter[FILTER_LEN];
	unsigned int cursor, top;
	char sel[TABLE_ID_LEN];		/* the cursor row's first cell: it follows the row */
	unsigned int w[TABLE_MAX_COLS];	/* the last layout */
	bool sorted;			/* sort_col set from the table's default */
};

struct ui {
	struct feed *feed;
	struct frame *fr;		/* shown; a reference */
	struct feed_status st;
	bool paused, help, editing, detail, gone, colors;
	bool probes;			/* the probe matrix overlay (P) */
	bool recview;			/* an event's flight record overlay (r) */
	char rec_path[TABLE_REC_LEN];	/* ... its path; "" the row had none */
	bool sortmenu;			/* the sort menu overlay (F6, o) */
	unsigned int menu_cursor;
	char job[TABLE_ID_LEN];		/* detail: whose */
	struct table dtab[DTAB_NR];
	bool have_dtab;
	struct pane main[TAB_NR], det[DTAB_NR];
	int focus_main, focus_det;
	unsigned int *idx;		/* a pane's visible rows, scratch */
	unsigned int idx_cap;
	uint64_t unfolded[UNFOLD_MAX];	/* the event runs Enter opened, oldest first */
	unsigned int nr_unfolded;
	int pane_y[TAB_NR + DTAB_NR], pane_h[TAB_NR + DTAB_NR];	/* the last layout */
};

/* ui.c: the panes on screen (the main three, or a job's detail) */
unsigned int nr_panes(const struct ui *u);
struct table *pane_table(struct ui *u, unsigned int i);
struct pane *pane_of(struct ui *u, unsigned int i);
int *focus(struct ui *u);
/* The i-th pane's rows that pass its filter, sorted, into u->idx; how many. */
unsigned int pane_view(struct ui *u, unsigned int i);
/* The open job's detail tables, again from the frame shown. */
void rebuild_detail(struct ui *u);

/* ui.c: drawing; every line cut to the width, printable ASCII only */
void put_line(int y, const char *raw, attr_t attr, short pair);
void paint(int y, int x, int w, attr_t attr, short pair);
short color_pair(const struct ui *u, enum row_color c);

/* ui_overlay.c: the help, the probe matrix, the sort menu */
void draw_help(void);
void draw_probes(struct ui *u);
void draw_record(struct ui *u);
void draw_sort_menu(struct ui *u);
int sort_menu_column(struct ui *u);

/* Is the i-th pane an Events pane (its runs fold)? */
bool pane_folds(const struct ui *u, unsigned int i);

/* ui_keys.c: handle a key; false: quit */
bool ui_key(struct ui *u, int ch);
/* Leave a job's page (frees its tables). */
void ui_close_detail(struct ui *u);

#endif /* FABTOP_UI_INT_H */
