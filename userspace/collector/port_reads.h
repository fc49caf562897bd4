/* SPDX-License-Identifier: GPL-2.0 */
/*
 * port_reads.h - a port's reads of its driver and how each fares: as
 * fabtel.ko reports its own (the snapshot's "source" lines, ko_snapshot.c)
 * and as fabteld keeps its own, with their back-off (backoff.h) per device
 * and port (port_reads.c).  A read in back-off is not asked until due and
 * gives no values meanwhile: its series are absent, never the last ones.
 */
#ifndef FABTEL_PORT_READS_H
#define FABTEL_PORT_READS_H

#include <stddef.h>
#include <stdint.h>

#include "backoff.h"

enum port_read {
	PR_HW_COUNTERS,		/* the driver's hw_counters (get_hw_stats) */
	PR_PMA,			/* the IB port counters: MADs to the PMA */
	PR_DCB,			/* PFC, ETS, the APP table (dcbnl) */
	PR_PHY,			/* FEC statistics and mode (and fabtel.ko: the speed) */
	PR_MODULE,		/* the module's EEPROM pages */
	PR_LINK_MODES,		/* fabteld: the link modes (ethtool netlink) */
	PR_ETHTOOL_STATS,	/* fabteld: the driver statistics (ethtool -S) */
	PR_HW_NETLINK,		/* fabteld: the hw_counters in one RDMA netlink STAT_GET */
	PR_NR,
};

enum port_reader { READER_KO, READER_FABTELD, READER_NR };

/* One read's state as last reported; state BACKOFF_UNKNOWN: none. */
struct read_status {
	enum backoff_state state;
	int err;		/* the last failure's -errno */
	uint64_t failures;	/* failed calls since the port was added */
	uint32_t retry_ms;	/* the back-off now; 0 unless failing */
};

struct port_reads {
	struct read_status s[READER_NR][PR_NR];
};

/*
 * "hw_counters", "pma", "dcb", "phy", "module", "link_modes",
 * "ethtool_stats", "hw_counters_netlink"
 */
const char *port_read_name(enum port_read rd);
/* the read named by the len bytes at name; -1 none */
int port_read_lookup(const char *name, size_t len);
/* "fabtel.ko", "fabteld" */
const char *port_reader_name(enum port_reader who);
/* "ok", "unavailable" (failing), "unsupported"; NULL for BACKOFF_UNKNOWN */
const char *port_read_state_name(enum backoff_state st);

#define READS_MAX	80	/* MODEL_MAX_PORTS + 16: a few going while others come */

struct port_entry {
	uint32_t key;		/* fnv of device and port; 0 a free entry */
	uint32_t port;
	unsigned int used;	/* the pass it was last looked up in */
	char device[64];
	struct backoff b[PR_NR];
};

/* the collector's back-offs, and the clock they count in */
struct port_backoffs {
	struct port_entry entries[READS_MAX];
	unsigned int pass, hint;
	uint64_t (*clock)(void);	/* NULL: CLOCK_MONOTONIC */
};

/*
 * fabteld's back-off of read rd on a port, kept per device and port from
 * the first lookup on (the port added) until it was not looked up for a
 * while.  The collector thread's only.
 */
struct backoff *port_backoff(struct port_backoffs *pb, const char *device, uint32_t port,
			     enum port_read rd);
/* b's state as fabteld's report of read rd */
void port_reads_note(struct port_reads *r, enum port_read rd, const struct backoff *b);
/*
 * The time the back-offs count in: CLOCK_MONOTONIC, ns; a test sets its
 * own clock (NULL: the real one again).
 */
uint64_t port_reads_now(const struct port_backoffs *pb);
void port_reads_set_clock(struct port_backoffs *pb, uint64_t (*now)(void));
/* after each collector pass: the back-offs of ports gone a while let go */
void port_reads_pass(struct port_backoffs *pb);
/* no back-offs yet (a new collector, tests) */
void port_backoffs_init(struct port_backoffs *pb);

#endif /* FABTEL_PORT_READS_H */
