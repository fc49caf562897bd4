// SPDX-License-Identifier: GPL-2.0
/*
 * cluster_feed.c - the cluster view's fetcher thread (cluster_feed.h) and
 * --once.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "cluster_feed.h"

struct cl_feed {
	struct promq q;
	struct promq_opts opts;
	double interval;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop, paused, kick;
	char job[CL_NAME_LEN];		/* wanted page */
	struct cl_frame *newest;	/* published, owned by the feed */
	struct cl_frame *shown;		/* what the console holds (cl_feed_get) */
	struct cl_status st;
};

static void deadline_after(struct timespec *ts, double s)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += (time_t)s;
	ts->tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void *fetcher(void *arg)
{
	struct cl_feed *f = arg;
	char job[CL_NAME_LEN];
	struct timespec until;
	struct cl_frame *fr;

	pthread_mutex_lock(&f->lock);
	while (!f->stop) {
		snprintf(job, sizeof(job), "%s", f->job);
		f->kick = false;
		pthread_mutex_unlock(&f->lock);
		fr = cluster_fetch(&f->q, job[0] ? job : NULL);
		pthread_mutex_lock(&f->lock);
		if (fr) {
			if (f->newest != f->shown)
				cluster_frame_free(f->newest);
			f->newest = fr;
			f->st.failing = false;
			f->st.last_ok = fr->at;
			f->st.gen++;
		} else {
			f->st.failing = true;
			snprintf(f->st.error, sizeof(f->st.error), "%s", f->q.error);
		}
		/* the next refresh: after the interval, or now when kicked; never paused */
		deadline_after(&until, f->interval);
		while (!f->stop) {
			if (f->paused) {
				pthread_cond_wait(&f->wake, &f->lock);
				continue;
			}
			if (f->kick ||
			    pthread_cond_timedwait(&f->wake, &f->lock, &until) == ETIMEDOUT)
				break;
		}
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

struct cl_feed *cl_feed_start(const struct promq_opts *o, double interval, char *err, size_t len)
{
	struct cl_feed *f = calloc(1, sizeof(*f));
	pthread_condattr_t ca;

	if (!f) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	f->opts = *o;
	f->interval = interval;
	if (promq_init(&f->q, &f->opts, err, len))
		goto free_feed;
	pthread_mutex_init(&f->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&f->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&f->thread, NULL, fetcher, f)) {
		snprintf(err, len, "cannot start the fetcher thread");
		goto free_q;
	}
	return f;
free_q:
	promq_free(&f->q);
	pthread_cond_destroy(&f->wake);
	pthread_mutex_destroy(&f->lock);
free_feed:
	free(f);
	return NULL;
}

/* Stop: a request under way ends now (promq_abort), not at its timeout. */
void cl_feed_stop(struct cl_feed *f)
{
	pthread_mutex_lock(&f->lock);
	f->stop = true;
	pthread_cond_signal(&f->wake);
	pthread_mutex_unlock(&f->lock);
	promq_abort(&f->q);
	pthread_join(f->thread, NULL);
	if (f->shown != f->newest)
		cluster_frame_free(f->shown);
	cluster_frame_free(f->newest);
	promq_free(&f->q);
	pthread_cond_destroy(&f->wake);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

void cl_feed_want(struct cl_feed *f, const char *job)
{
	pthread_mutex_lock(&f->lock);
	if (strcmp(f->job, job)) {
		snprintf(f->job, sizeof(f->job), "%s", job);
		f->kick = true;
		pthread_cond_signal(&f->wake);
	}
	pthread_mutex_unlock(&f->lock);
}

void cl_feed_pause(struct cl_feed *f, bool paused)
{
	pthread_mutex_lock(&f->lock);
	f->paused = paused;
	f->kick = !paused;
	pthread_cond_signal(&f->wake);
	pthread_mutex_unlock(&f->lock);
}

const struct cl_frame *cl_feed_get(struct cl_feed *f, struct cl_status *st)
{
	const struct cl_frame *fr;

	pthread_mutex_lock(&f->lock);
	if (f->shown != f->newest) {
		cluster_frame_free(f->shown);
		f->shown = f->newest;
	}
	fr = f->shown;
	*st = f->st;
	pthread_mutex_unlock(&f->lock);
	return fr;
}

/* ---- --once ---------------------------------------------------------------- */

static void print_table(const struct table *t, unsigned int width)
{
	unsigned int w[TABLE_MAX_COLS], *idx, n, i;
	char line[2048];

	if (width >= sizeof(line))
		width = sizeof(line) - 1;
	printf("\n%s\n", t->name);
	table_fit(t, width, w);
	table_line(t, NULL, w, line, sizeof(line));
	puts(line);
	if (!t->nrows)
		printf("  (%.*s)\n", (int)width - 4, t->empty);
	idx = calloc(t->nrows ? t->nrows : 1, sizeof(*idx));
	n = idx ? table_view(t, t->sort_col, false, NULL, idx) : 0;
	for (i = 0; i < n; i++) {
		table_line(t, &t->row[idx[i]], w, line, sizeof(line));
		puts(line);
	}
	free(idx);
}

/* The jobs; with a page, its history lines and its tables. */
static void print_text(const struct cl_frame *fr, const char *url, unsigned int width)
{
	char line[1024];
	int i;

	if (width >= sizeof(line))
		width = sizeof(line) - 1;
	snprintf(line, sizeof(line), "fabtop cluster  prometheus %s  queries %u, %.0f ms", url,
		 fr->queries, fr->query_ms);
	printf("%.*s\n", (int)width, line);
	print_table(&fr->tab[CL_TAB_JOBS], width);
	if (!fr->page)
		return;
	snprintf(line, sizeof(line), "Job %s", fr->page->job);
	printf("\n%.*s\n", (int)width, line);
	cluster_history_line(fr->page, false, line, width);
	puts(line);
	cluster_history_line(fr->page, true, line, width);
	puts(line);
	for (i = CL_TAB_HOSTS; i < CL_TAB_NR; i++)
		print_table(&fr->tab[i], width);
	if (fr->page->pairs_capped) {
		snprintf(line, sizeof(line), "  ... %u more (the first %u shown)",
			 fr->page->pairs_total - fr->page->npairs, fr->page->npairs);
		printf("%.*s\n", (int)width, line);
	}
}

int cluster_once(const struct promq_opts *o, const char *job, bool json, unsigned int width)
{
	struct json_object *j;
	struct cl_frame *fr;
	struct promq q;
	char err[400];

	if (promq_init(&q, o, err, sizeof(err))) {
		fprintf(stderr, "fabtop: %s\n", err);
		return 1;
	}
	fr = cluster_fetch(&q, job);
	if (!fr) {
		fprintf(stderr, "fabtop: %s\n", q.error);
		promq_free(&q);
		return 1;
	}
	if (json) {
		j = cluster_json(fr, o->url);
		puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
	} else {
		print_text(fr, o->url, width);
	}
	cluster_frame_free(fr);
	promq_free(&q);
	return 0;
}
