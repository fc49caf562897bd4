/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui.h - fabtop's ncurses console: the NICs, Jobs and Events panes, a
 * job's detail (Enter), sorting, filtering, pause and help.  Runs in the
 * calling thread; the feed's fetcher thread does all the collecting.
 */
#ifndef FABTOP_UI_H
#define FABTOP_UI_H

#include "feed.h"

#include <stdbool.h>

/* Until q (or SIGINT/SIGTERM).  0, or 1 if the terminal cannot be used. */
int ui_run(struct feed *feed);

/* What the host console and the cluster one (cluster_ui.c) share. */
enum { CP_GOOD = 1, CP_WARN, CP_BAD, CP_HEAD, CP_FOCUS };	/* color pairs */
/* The color pairs, unless the terminal has none or NO_COLOR is set: whether. */
bool ui_setup_colors(void);
/* SIGINT and SIGTERM end the loop (endwin first) instead of the process. */
void ui_catch_quit(void);
bool ui_quit_asked(void);

#endif /* FABTOP_UI_H */
