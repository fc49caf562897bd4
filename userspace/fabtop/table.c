// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - cells, ordering, filtering and column fitting (see table.h).
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

void ascii_copy(char *buf, size_t len, const char *s)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; s && s[i] && i < len - 1; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
}

void table_init(struct table *t, const char *name, const struct column *col,
		unsigned int ncols, int sort_col)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->col = col;
	t->ncols = ncols < TABLE_MAX_COLS ? ncols : TABLE_MAX_COLS;
	t->sort_col = sort_col;
}

void table_free(struct table *t)
{
	unsigned int i, c;

	for (i = 0; i < t->nrows; i++)
		for (c = 0; c < t->ncols; c++)
			free(t->row[i].cell[c]);
	free(t->row);
	t->row = NULL;
	t->nrows = t->cap = 0;
}

struct row *table_add(struct table *t)
{
	struct row *r;
	unsigned int c;

	if (t->nrows == t->cap) {
		unsigned int cap = t->cap ? t->cap * 2 : 16;
		struct row *n = realloc(t->row, cap * sizeof(*n));

		if (!n)
			return NULL;
		t->row = n;
		t->cap = cap;
	}
	r = &t->row[t->nrows];
	memset(r, 0, sizeof(*r));
	r->color_col = -1;
	r->color_col2 = -1;
	for (c = 0; c < TABLE_MAX_COLS; c++)
		r->key[c] = NAN;
	for (c = 0; c < t->ncols; c++) {
		r->cell[c] = strdup("");
		if (!r->cell[c]) {
			while (c--)
				free(r->cell[c]);
			return NULL;
		}
	}
	t->nrows++;
	return r;
}

static void row_vset(struct row *r, unsigned int c, const char *fmt, va_list ap)
{
	char buf[512];

	if (c >= TABLE_MAX_COLS || !r->cell[c])
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	free(r->cell[c]);
	r->cell[c] = strdup(buf);
	if (r->cell[c])
		ascii_copy(r->cell[c], strlen(buf) + 1, buf);
}

void row_set(struct row *r, unsigned int c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	row_vset(r, c, fmt, ap);
	va_end(ap);
}

void row_num(struct row *r, unsigned int c, bool valid, double key, const char *fmt, ...)
{
	va_list ap;

	if (c >= TABLE_MAX_COLS)
		return;
	if (!valid) {
		row_set(r, c, "-");
		r->key[c] = NAN;
		return;
	}
	va_start(ap, fmt);
	row_vset(r, c, fmt, ap);
	va_end(ap);
	r->key[c] = key;
}

struct view_ctx {
	const struct table *t;
	int col;
	bool desc;
};

static const char *cell_of(const struct row *r, int c)
{
	return r->cell[c] ? r->cell[c] : "";
}

/* Unknowns ("-") last in either direction; ties keep the table's order. */
static int view_cmp(const void *a, const void *b, void *arg)
{
	const struct view_ctx *v = arg;
	unsigned int ia = *(const unsigned int *)a, ib = *(const unsigned int *)b;
	const struct row *ra = &v->t->row[ia], *rb = &v->t->row[ib];
	double ka = ra->key[v->col], kb = rb->key[v->col];
	const char *sa = cell_of(ra, v->col), *sb = cell_of(rb, v->col);
	bool ua, ub;
	int d;

	if (isnan(ka) != isnan(kb))
		return isnan(ka) ? 1 : -1;
	if (!isnan(ka)) {
		d = ka < kb ? -1 : ka > kb;
	} else {
		ua = !*sa || !strcmp(sa, "-");
		ub = !*sb || !strcmp(sb, "-");
		if (ua != ub)
			return ua ? 1 : -1;
		d = strverscmp(sa, sb);
	}
	if (d)
		return v->desc ? -d : d;
	return ia < ib ? -1 : ia > ib;
}

static bool row_matches(const struct table *t, const struct row *r, const char *filter)
{
	unsigned int c;

	for (c = 0; c < t->ncols; c++)
		if (strcasestr(cell_of(r, c), filter))
			return true;
	return false;
}

unsigned int table_view(const struct table *t, int sort_col, bool reverse, const char *filter,
			unsigned int *idx)
{
	struct view_ctx v = { t, sort_col, false };
	unsigned int i, n = 0;

	for (i = 0; i < t->nrows; i++)
		if (!filter || !*filter || row_matches(t, &t->row[i], filter))
			idx[n++] = i;
	if (sort_col < 0 || (unsigned int)sort_col >= t->ncols)
		return n;
	v.desc = t->col[sort_col].desc != reverse;
	qsort_r(idx, n, sizeof(*idx), view_cmp, &v);
	return n;
}

static unsigned int floor_of(const struct column *c)
{
	unsigned int h = (unsigned int)strlen(c->name);

	return c->min > h ? c->min : h;
}

static unsigned int natural(const struct table *t, unsigned int c)
{
	const struct column *col = &t->col[c];
	unsigned int w = floor_of(col), i, l;

	for (i = 0; i < t->nrows; i++) {
		l = (unsigned int)strlen(cell_of(&t->row[i], (int)c));
		if (l > w)
			w = l;
	}
	if (col->max && w > col->max)
		w = col->max > floor_of(col) ? col->max : floor_of(col);
	return w;
}

static unsigned int line_width(const struct table *t, const unsigned int *w)
{
	unsigned int c, sum = 0, n = 0;

	for (c = 0; c < t->ncols; c++) {
		if (!w[c])
			continue;
		sum += w[c];
		n++;
	}
	return n ? sum + n - 1 : 0;
}

/* The visible column with the lowest priority below max_prio (rightmost of equals). */
static unsigned int lowest(const struct table *t, const unsigned int *w, int max_prio)
{
	unsigned int c, low = t->ncols;

	for (c = 0; c < t->ncols; c++)
		if (w[c] && t->col[c].prio < max_prio &&
		    (low == t->ncols || t->col[c].prio <= t->col[low].prio))
			low = c;
	return low;
}

/*
 * A flexible column that cannot have its natural width: the priority below
 * which columns may go to make room for it (INT_MIN if none starves).
 */
static int starving(const struct table *t, const unsigned int *w, const unsigned int *nat,
		    unsigned int spare)
{
	unsigned int c, need = 0;
	int prio = INT_MIN;

	for (c = 0; c < t->ncols; c++) {
		if (!w[c] || !t->col[c].flex || w[c] >= nat[c])
			continue;
		need += nat[c] - w[c];
		if (t->col[c].prio > prio)
			prio = t->col[c].prio;
	}
	return need > spare ? prio : INT_MIN;
}

unsigned int table_fit(const struct table *t, unsigned int width, unsigned int *w)
{
	unsigned int nat[TABLE_MAX_COLS], c, low, sum, more;

	for (c = 0; c < t->ncols; c++) {
		nat[c] = natural(t, c);
		w[c] = t->col[c].flex ? floor_of(&t->col[c]) : nat[c];
		if (w[c] > nat[c])
			w[c] = nat[c];
	}
	/* drop the least important until it fits, and for a starved flexible one */
	for (;;) {
		sum = line_width(t, w);
		if (sum > width)
			low = lowest(t, w, INT_MAX);
		else
			low = lowest(t, w, starving(t, w, nat, width - sum));
		if (low == t->ncols || (sum > width && line_width(t, w) == w[low]))
			break;
		w[low] = 0;
	}
	if (sum > width) {
		for (c = 0; c < t->ncols; c++)
			if (w[c])
				w[c] = width;
		return width;
	}
	for (c = 0; c < t->ncols && sum < width; c++) {
		if (!w[c] || !t->col[c].flex || w[c] >= nat[c])
			continue;
		more = nat[c] - w[c] < width - sum ? nat[c] - w[c] : width - sum;
		w[c] += more;
		sum += more;
	}
	return sum;
}

int table_col_x(const struct table *t, const unsigned int *w, unsigned int c)
{
	unsigned int i, x = 0;

	if (c >= t->ncols || !w[c])
		return -1;
	for (i = 0; i < c; i++)
		if (w[i])
			x += w[i] + 1;
	return (int)x;
}

void table_line(const struct table *t, const struct row *r, const unsigned int *w, char *buf,
		size_t len)
{
	size_t at = 0, l, pad;
	unsigned int c;
	const char *s;
	bool first = true;

	if (!len)
		return;
	for (c = 0; c < t->ncols; c++) {
		if (!w[c])
			continue;
		if (!first && at + 1 < len)
			buf[at++] = ' ';
		first = false;
		s = r ? cell_of(r, (int)c) : t->col[c].name;
		l = strlen(s);
		pad = l < w[c] ? w[c] - l : 0;
		if (t->col[c].right)
			for (; pad && at + 1 < len; pad--)
				buf[at++] = ' ';
		if (l > w[c] && t->col[c].tail) {
			/* cut from the left: the first visible character says so */
			if (at + 1 < len)
				buf[at++] = '~';
			for (l = l - w[c] + 1; s[l] && at + 1 < len; l++)
				buf[at++] = s[l];
		} else if (l > w[c]) {
			/* cut: the last visible character says so */
			for (l = 0; l + 1 < w[c] && at + 1 < len; l++)
				buf[at++] = s[l];
			if (at + 1 < len)
				buf[at++] = '~';
		} else {
			for (l = 0; s[l] && at + 1 < len; l++)
				buf[at++] = s[l];
		}
		for (; pad && at + 1 < len; pad--)
			buf[at++] = ' ';
	}
	while (at && buf[at - 1] == ' ')
		at--;
	buf[at] = '\0';
}

unsigned int table_fold(const struct table *t, unsigned int *idx, unsigned int n,
			const uint64_t *open, unsigned int nopen)
{
	unsigned int i, k, out = 0;

	for (i = 0; i < n; i++) {
		const struct row *r = &t->row[idx[i]];
		bool show = !r->member;

		for (k = 0; !show && k < nopen; k++)
			show = open[k] == r->group;
		if (show)
			idx[out++] = idx[i];
	}
	return out;
}
