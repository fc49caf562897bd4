/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui.h - fabtop's ncurses console: the NICs, Jobs and Events panes, a
 * job's detail (Enter), sorting, filtering, pause and help.  Runs in the
 * calling thread; the feed's fetcher thread does all the collecting.
 */
#ifndef FABTOP_UI_H
#define FABTOP_UI_H

#include "feed.h"

/* Until q (or SIGINT/SIGTERM).  0, or 1 if the terminal cannot be used. */
int ui_run(struct feed *feed);

#endif /* FABTOP_UI_H */
