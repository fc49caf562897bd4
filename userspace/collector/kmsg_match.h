/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_match.h - the kernel log's lines about RDMA NICs and their drivers:
 * a versioned table of patterns (kmsg_table.c, data), and a matcher that
 * runs records through it (kmsg_match.c).  Documentation/driver_messages.rst
 * lists the table; `fabteld --print-kmsg-patterns` prints it.
 *
 * A line is "DRIVER DEVICE[ NAME]: TEXT" (dev_printk, netdev_printk,
 * ibdev_printk with a parent) or has no such prefix ("watchdog: ...",
 * "rxe0: ...").  A pattern with drivers applies to the TEXT of a line whose
 * DRIVER is one of them ("*": any), mlx5's "func:line:(pid N): " taken
 * off first (its line numbers differ between kernel builds); one without
 * drivers applies to the whole line.  Only records of the kernel's own
 * facility are matched: userspace can write to /dev/kmsg, not as the kernel.
 */
#ifndef FABTEL_KMSG_MATCH_H
#define FABTEL_KMSG_MATCH_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "kmsg.h"

#define KMSG_PATTERNS_VERSION	1

enum kmsg_kind {
	KMSG_TX_TIMEOUT,	/* a transmit queue timed out (the watchdog or the driver) */
	KMSG_FW_HEALTH,		/* the firmware's health: fatal, heartbeat lost, error state */
	KMSG_FW_COMMAND,	/* a firmware command timed out */
	KMSG_RESET,		/* the driver resets or recovers the device (or fails to) */
	KMSG_RECOVERED,		/* ... and says it is well again */
	KMSG_QP_ERROR,		/* a queue's error completion */
	KMSG_LINK_DOWN,
	KMSG_LINK_UP,
	KMSG_LOCKUP,		/* a soft or hard lockup: the modules on its stack follow */
	KMSG_HUNG_TASK,		/* a task blocked for minutes: the same */
	KMSG_RCU_STALL,
	KMSG_NR_KINDS,
};

struct kmsg_pattern {
	const char *id;		/* the metrics' pattern label */
	const char *drivers;	/* DRIVERs it applies to, blank-separated; "*" any; NULL: whole line */
	enum kmsg_kind kind;
	bool error;		/* evidence against the device (driver_messages) */
	const char *hint;	/* a literal the line must hold (a cheap test before the regex) */
	const char *re;		/* POSIX extended regular expression */
	unsigned int dev_group;	/* the submatch naming the netdev or RDMA device, 0 none */
	unsigned int drv_group;	/* the submatch naming the driver, 0 none */
	const char *where;	/* where the kernel prints it (6.1 / 6.12) */
};

extern const struct kmsg_pattern kmsg_patterns[];
extern const unsigned int kmsg_nr_patterns;
#define KMSG_MAX_PATTERNS	48

/* "tx_timeout", "fw_health", ... */
const char *kmsg_kind_name(enum kmsg_kind k);
/*
 * The modules of the driver family a line's DRIVER belongs to ("mlx5_core"
 * -> "mlx5_core mlx5_ib"): a lockup with one of them on its stack belongs
 * to the device.  Unknown drivers: the driver's own name.
 */
const char *kmsg_family_modules(const char *driver);

struct kmsg_hit {
	unsigned int pattern;		/* index in kmsg_patterns */
	uint64_t seq, ts_us;
	char driver[32];		/* the line's driver ("mlx5_core"), "" none */
	char handle[96];		/* DEVICE=+pci:0000:03:00.0 as "pci/0000:03:00.0"; "" none */
	char devname[64];		/* the prefix's DEVICE ("0000:03:00.0"), "" none */
	char name[64];			/* the netdev or RDMA device it names, "" none */
	char modules[128];		/* lockups, hung tasks: the modules on the stack */
	char text[160];			/* the line, cut */
};

/* How many lines of a lockup's dump are read for the modules on its stack. */
#define KMSG_TRACE_LINES	96

struct kmsg_matcher {
	regex_t re[KMSG_MAX_PATTERNS];
	unsigned int nr;		/* compiled */
	struct kmsg_hit trace;		/* a lockup whose dump is being read */
	bool in_trace;
	unsigned int trace_left;	/* lines of its dump still read */
	unsigned int trace_reads;	/* kmsg_match_idle calls since it began */
};

/* 0, or -EINVAL naming the pattern that does not compile on stderr. */
int kmsg_matcher_init(struct kmsg_matcher *m);
void kmsg_matcher_free(struct kmsg_matcher *m);
/*
 * One record through the table: the hits it makes (0-2), into out.  A
 * lockup or hung task is one when its dump ends (" </TASK>", the next line
 * a pattern matches, or KMSG_TRACE_LINES on), with the modules its frames
 * named.
 */
unsigned int kmsg_match(struct kmsg_matcher *m, const struct kmsg_rec *r, struct kmsg_hit out[2]);
/*
 * The log has nothing more for now: a lockup whose dump began before the
 * previous idle call ends (its lines come together).  1 with it in out.
 */
unsigned int kmsg_match_idle(struct kmsg_matcher *m, struct kmsg_hit *out);

#endif /* FABTEL_KMSG_MATCH_H */
