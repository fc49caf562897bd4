/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg.h - one record of the kernel log as /dev/kmsg gives it
 * (Documentation/ABI/testing/dev-kmsg):
 *
 *   PRIO,SEQ,TS_USEC,FLAG[,MORE...];TEXT\n
 *    KEY=VALUE\n ...
 *
 * PRIO is facility << 3 | level: the kernel's own records have facility
 * 0, those userspace writes to /dev/kmsg facility 1 or more.  TEXT has
 * bytes below 0x20, from 0x7f and a backslash escaped as \xNN; the
 * dictionary lines (SUBSYSTEM, DEVICE) follow with a leading space.
 */
#ifndef FABTEL_KMSG_H
#define FABTEL_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KMSG_RECORD_MAX	8192	/* what one read() must offer (6.1's CONSOLE_EXT_LOG_MAX) */

struct kmsg_rec {
	unsigned int prio;		/* facility << 3 | level */
	uint64_t seq;
	uint64_t ts_us;			/* since boot */
	bool cont;			/* a fragment ('c') */
	const char *text;		/* in the buffer parsed, NUL-ended, still escaped */
	size_t len;
	char subsystem[32];		/* SUBSYSTEM=, "" none */
	char device[96];		/* DEVICE=, "" none */
};

/* the record's facility is the kernel's (userspace cannot write one) */
static inline bool kmsg_from_kernel(const struct kmsg_rec *r)
{
	return r->prio < 8;
}

/*
 * Parse one record of len bytes at buf (changed: the text and dictionary
 * lines are ended in place).  0, or -EPROTO if it is not a record.
 */
int kmsg_parse(char *buf, size_t len, struct kmsg_rec *r);

#endif /* FABTEL_KMSG_H */
