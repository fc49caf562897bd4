/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stop.h - fabteld stops within STOP_GRACE_MS of SIGTERM or SIGINT, whatever
 * a source is doing (stop.c).
 */
#ifndef FABTELD_STOP_H
#define FABTELD_STOP_H

#include <signal.h>

#define STOP_GRACE_MS	1700

/*
 * Block SIGINT and SIGTERM in this thread and every thread started after,
 * and start a thread that waits for them: it sets *flag, and if
 * stop_done() is not called within STOP_GRACE_MS it calls last_words(arg)
 * and ends the process with exit status 1.  Call before any other thread
 * starts.  0, or -1 having said why on stderr.
 */
int stop_init(volatile sig_atomic_t *flag, void (*last_words)(void *), void *arg);
/* Readable once the flag is set: the main thread waits on it between samples (-1: none). */
int stop_wake_fd(void);
/* The main thread has finished its cleanup. */
void stop_done(void);

#endif /* FABTELD_STOP_H */
