// SPDX-License-Identifier: GPL-2.0
/*
 * port_reads.c - the names of a port's reads, and fabteld's back-off of
 * its own, per device and port (port_reads.h).  The states live in a table
 * the sources look up each pass (a port's reads one after the other, the
 * ports in walk order: the lookup tries the last entry found and the one
 * after it first); an entry not looked up for READS_IDLE passes is let go,
 * so a port that comes back later starts with no failures.  The collector
 * thread's only.
 */
#include <string.h>

#include "clock.h"
#include "fnv.h"
#include "model.h"
#include "port_reads.h"

_Static_assert(READS_MAX == MODEL_MAX_PORTS + 16, "port_reads.h: READS_MAX");

#define READS_IDLE	30
#define READS_SWEEP	10	/* passes between looks for idle entries */

static const char *const read_names[PR_NR] = {
	[PR_HW_COUNTERS] = "hw_counters",
	[PR_PMA] = "pma",
	[PR_DCB] = "dcb",
	[PR_PHY] = "phy",
	[PR_MODULE] = "module",
	[PR_LINK_MODES] = "link_modes",
	[PR_ETHTOOL_STATS] = "ethtool_stats",
	[PR_HW_NETLINK] = "hw_counters_netlink",
};

static const char *const state_names[] = {
	[BACKOFF_UNKNOWN] = NULL,
	[BACKOFF_OK] = "ok",
	[BACKOFF_FAILING] = "unavailable",
	[BACKOFF_UNSUPPORTED] = "unsupported",
};

const char *port_read_name(enum port_read rd)
{
	return rd < PR_NR ? read_names[rd] : "unknown";
}

int port_read_lookup(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < PR_NR; i++)
		if (strlen(read_names[i]) == len && !memcmp(read_names[i], name, len))
			return (int)i;
	return -1;
}

const char *port_reader_name(enum port_reader who)
{
	return who == READER_KO ? "fabtel.ko" : "fabteld";
}

const char *port_read_state_name(enum backoff_state st)
{
	return st <= BACKOFF_UNSUPPORTED ? state_names[st] : NULL;
}

void port_reads_note(struct port_reads *r, enum port_read rd, const struct backoff *b)
{
	struct read_status *s = &r->s[READER_FABTELD][rd];

	s->state = b->state;
	s->err = b->err;
	s->failures = b->failures;
	s->retry_ms = b->state == BACKOFF_FAILING ? b->delay_ms : 0;
}

/* ---- the clock ----------------------------------------------------------- */

uint64_t port_reads_now(const struct port_backoffs *pb)
{
	return pb->clock ? pb->clock() : clock_ns(CLOCK_MONOTONIC);
}

void port_reads_set_clock(struct port_backoffs *pb, uint64_t (*now)(void))
{
	pb->clock = now;
}

/* ---- fabteld's back-offs, per device and port ------------------------------ */

static bool entry_is(const struct port_entry *e, uint32_t key, const char *device, uint32_t port)
{
	return e->key == key && e->port == port && !strcmp(e->device, device);
}

/* a free entry, else the one looked up longest ago, cleared */
static struct port_entry *entry_new(struct port_backoffs *pb, uint32_t key, const char *device,
				    uint32_t port)
{
	struct port_entry *e = NULL;
	unsigned int i;

	for (i = 0; i < READS_MAX; i++) {
		if (!pb->entries[i].key) {
			e = &pb->entries[i];
			break;
		}
		if (!e || pb->entries[i].used < e->used)
			e = &pb->entries[i];
	}
	memset(e, 0, sizeof(*e));
	e->key = key;
	e->port = port;
	strncpy(e->device, device, sizeof(e->device) - 1);
	return e;
}

struct backoff *port_backoff(struct port_backoffs *pb, const char *device, uint32_t port,
			     enum port_read rd)
{
	uint32_t key = fnv1a_u32(fnv1a_str(FNV1A_INIT, device), port) | 1;
	struct port_entry *e = NULL;
	unsigned int i, k;

	for (k = 0; k < 2 && !e; k++) {
		i = (pb->hint + READS_MAX - 1 + k) % READS_MAX;	/* the last found, the next */
		if (entry_is(&pb->entries[i], key, device, port))
			e = &pb->entries[i];
	}
	for (i = 0; i < READS_MAX && !e; i++)
		if (entry_is(&pb->entries[i], key, device, port))
			e = &pb->entries[i];
	if (!e)
		e = entry_new(pb, key, device, port);
	e->used = pb->pass;
	pb->hint = (unsigned int)(e - pb->entries + 1) % READS_MAX;
	return &e->b[rd < PR_NR ? rd : 0];
}

void port_reads_pass(struct port_backoffs *pb)
{
	unsigned int i;

	if (++pb->pass % READS_SWEEP)
		return;
	for (i = 0; i < READS_MAX; i++)
		if (pb->entries[i].key && pb->pass - pb->entries[i].used > READS_IDLE)
			pb->entries[i].key = 0;
}

void port_backoffs_init(struct port_backoffs *pb)
{
	memset(pb, 0, sizeof(*pb));
}
