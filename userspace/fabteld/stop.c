// SPDX-License-Identifier: GPL-2.0
/*
 * stop.c - a bounded stop (see stop.h).
 *
 * The collector reads its sources in the main thread, and a read can block
 * for as long as a driver or a file system makes it: a hung device's
 * sysfs file, a FIFO where a counter should be.  A signal handler's flag is
 * not seen until that read returns (glibc restarts it), so SIGTERM once
 * waited forever.  Here the signals are taken by a thread of their own with
 * sigwait(); it raises the flag and gives the main thread STOP_GRACE_MS to
 * finish (HTTP stopped, TC filters removed).  If it does not, the wire
 * program's filters are removed from this thread and the process ends: a
 * systemd stop, or a test's kill, is never held up by a source.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "stop.h"

static sigset_t stop_sigs;
static sem_t done;
static int wake_fd = -1;
static volatile sig_atomic_t *stop_flag;
static void (*stop_last_words)(void *);
static void *stop_arg;

static void *stop_thread(void *unused)
{
	struct timespec dl;
	int sig = 0, err;

	(void)unused;
	while (sigwait(&stop_sigs, &sig))
		;
	*stop_flag = 1;
	if (wake_fd >= 0)	/* failing, the main thread wakes at its next sample */
		(void)!eventfd_write(wake_fd, 1);
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += STOP_GRACE_MS / 1000;
	dl.tv_nsec += (long)(STOP_GRACE_MS % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	do
		err = sem_timedwait(&done, &dl) ? errno : 0;
	while (err == EINTR);
	if (err != ETIMEDOUT)
		return NULL;	/* stop_done(): main returns from here on */
	fprintf(stderr, "fabteld: %s: still busy %d ms later (a source read is blocked): "
			"removing the TC filters and exiting without it\n",
		strsignal(sig), STOP_GRACE_MS);
	if (stop_last_words)
		stop_last_words(stop_arg);
	_exit(1);
}

int stop_init(volatile sig_atomic_t *flag, void (*last_words)(void *), void *arg)
{
	pthread_t t;
	int err;

	stop_flag = flag;
	stop_last_words = last_words;
	stop_arg = arg;
	sem_init(&done, 0, 0);
	wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	err = pthread_sigmask(SIG_BLOCK, &stop_sigs, NULL);
	if (!err)
		err = pthread_create(&t, NULL, stop_thread, NULL);
	if (!err)
		err = pthread_detach(t);
	if (err) {
		fprintf(stderr, "fabteld: cannot set up signal handling: %s\n", strerror(err));
		return -1;
	}
	return 0;
}

int stop_wake_fd(void)
{
	return wake_fd;
}

void stop_done(void)
{
	sem_post(&done);
}
