/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - fabtop's panes as tables of preformatted cells.
 *
 * The fetcher thread fills tables (cells are text, plus a number to sort
 * by); the console and --once only order, filter and lay them out.  Cells
 * are plain printable ASCII (anything else becomes '?'), so a cell's length
 * is its width on screen and a line never wraps.
 *
 * Layout: every column has a priority.  When the columns do not fit,
 * flexible columns shrink to their minimum first, then the column with the
 * lowest priority goes, and so on; the last column standing is cut.
 */
#ifndef FABTOP_TABLE_H
#define FABTOP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TABLE_MAX_COLS	24
#define TABLE_ID_LEN	128
#define TABLE_REC_LEN	160	/* an API path: /api/v1/records/<device>/<port>/<seq> */

enum row_color {
	RC_NONE,
	RC_GOOD,	/* green: healthy, link up again */
	RC_WARN,	/* yellow: degraded, errors moving */
	RC_BAD,		/* red: failing, link down, storm */
	RC_NR,
};

struct column {
	const char *name;	/* header: one word, it is what tests look for */
	unsigned int min, max;	/* width limits; natural width in between */
	int prio;		/* higher stays longer on narrow screens */
	bool right;		/* right-aligned (numbers) */
	bool flex;		/* shrinks first, takes the spare width */
	bool desc;		/* sorts descending (numbers: worst first) */
	bool tail;		/* cut from the left, keeping the end (a graph's newest) */
};

struct row {
	char *cell[TABLE_MAX_COLS];
	double key[TABLE_MAX_COLS];	/* sort key; NAN: sort by text */
	enum row_color color;
	int color_col;			/* the cell that gets the color, -1 all */
	enum row_color color2;		/* a second cell's (a job's reason: its severity) */
	int color_col2;			/* -1: none */
	char id[TABLE_ID_LEN];		/* what Enter opens (a job's id) */
	char record[TABLE_REC_LEN];	/* what r opens (an event's flight record); "" none */
	/*
	 * Folded rows (the Events pane): a run of identical rows is shown as
	 * one head row; its members are hidden until the run is unfolded.
	 * group: the run's number (0: not in one); member: hidden when folded.
	 */
	uint64_t group;
	bool member;
};

struct table {
	const char *name;		/* "NICs", "Jobs", ... */
	const struct column *col;
	unsigned int ncols;
	int sort_col;			/* default order */
	struct row *row;
	unsigned int nrows, cap;
	char empty[256];		/* shown instead of rows when there are none */
};

void table_init(struct table *t, const char *name, const struct column *col,
		unsigned int ncols, int sort_col);
void table_free(struct table *t);
/* A new row with every cell "" and every key NAN; NULL when out of memory. */
struct row *table_add(struct table *t);
void row_set(struct row *r, unsigned int c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The cell and its sort key at once: "-" and NAN when !valid. */
void row_num(struct row *r, unsigned int c, bool valid, double key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * The rows to show, in order: those containing filter (case-insensitive,
 * over all cells; NULL or "" for all) sorted by column sort_col (the
 * column's own direction; reverse flips it), ties in table order.  Returns
 * how many indexes went into idx (room for t->nrows).
 */
unsigned int table_view(const struct table *t, int sort_col, bool reverse, const char *filter,
			unsigned int *idx);

/*
 * The view without the members of folded runs: idx (n rows) compacted,
 * keeping members of the open groups (open: nopen group numbers).  Returns
 * how many are left.
 */
unsigned int table_fold(const struct table *t, unsigned int *idx, unsigned int n,
			const uint64_t *open, unsigned int nopen);

/* Column widths for a screen width; 0 = column dropped.  Returns the line width. */
unsigned int table_fit(const struct table *t, unsigned int width, unsigned int *w);

/* One line (header if r is NULL) into buf (size > width), no trailing blanks. */
void table_line(const struct table *t, const struct row *r, const unsigned int *w, char *buf,
		size_t len);
/* Where column c starts on a line laid out with w; -1 if dropped. */
int table_col_x(const struct table *t, const unsigned int *w, unsigned int c);

/* Copy s into buf as printable ASCII, cut to len - 1. */
void ascii_copy(char *buf, size_t len, const char *s);

#endif /* FABTOP_TABLE_H */
