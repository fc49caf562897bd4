/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ko_events.h - fabtel.ko's detail of a port's bursts and flaps since the
 * last pass (ko_events.c).
 */
#ifndef FABTEL_KO_EVENTS_H
#define FABTEL_KO_EVENTS_H

#include "fskept.h"
#include "records.h"
#include "source.h"

#define KO_EV_SLOTS	(2 * MODEL_MAX_PORTS)

struct ko_seen {
	char device[64];
	uint32_t port;
	uint64_t seq, flaps, rec_seq;
};

/* the collector's: each port's events_seq and link_flaps at the last read */
struct ko_events {
	struct ko_seen seen[KO_EV_SLOTS];
	unsigned int next_victim;
	const struct collect_opts *o;
	struct fs_kept *kept;
	struct records *recs;		/* where new flight records go; NULL: not read */
};

void ko_events_init(struct ko_events *ke, const struct collect_opts *o, struct fs_kept *kept);
/*
 * ko_events_read: after a fabtel.ko snapshot was parsed into p, the new
 * lines of the port's events and link/history (base: its directory) when
 * its events_seq or link_flaps rose since the last call; its flight
 * records when its recorder_seq rose (all it holds at the first call).
 */
void ko_events_read(struct ko_events *ke, const char *base, struct raw_port *p);
/*
 * ko_events_each: the port's events file (base: its directory), "<seq>
 * <boottime_ns> <counter> <delta>" lines, the boot time made wall time:
 * fn for each one with seq > after (span_ns 0); 0, or -errno if unread.
 */
int ko_events_each(const char *base, uint64_t after,
		   void (*fn)(void *ctx, const struct raw_burst *b), void *ctx);

#endif /* FABTEL_KO_EVENTS_H */
