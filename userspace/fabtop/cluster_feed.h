/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cluster_feed.h - the cluster view's fetcher thread: refreshes every
 * interval (at once when the console asks for another job's page),
 * publishes the newest frame under a mutex, and on a failure keeps the
 * last frame and says why.  The console never waits on Prometheus.
 */
#ifndef FABTOP_CLUSTER_FEED_H
#define FABTOP_CLUSTER_FEED_H

#include <stdbool.h>

#include "cluster.h"

struct cl_feed;

struct cl_status {
	bool failing;
	char error[400];
	double last_ok;			/* Unix s, 0 never */
	unsigned long gen;		/* frames published */
};

struct cl_feed *cl_feed_start(const struct promq_opts *o, double interval, char *err,
			      size_t len);
void cl_feed_stop(struct cl_feed *f);
/* The job whose page to fetch ("" none): the next refresh, started now. */
void cl_feed_want(struct cl_feed *f, const char *job);
void cl_feed_pause(struct cl_feed *f, bool paused);
/* The newest frame (the feed's: valid until the next cl_feed_get) and the status. */
const struct cl_frame *cl_feed_get(struct cl_feed *f, struct cl_status *st);

int cluster_ui_run(const struct promq_opts *o, double interval);
int cluster_once(const struct promq_opts *o, const char *job, bool json, unsigned int width);

#endif /* FABTOP_CLUSTER_FEED_H */
