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

#define READS_MAX	(MODEL_MAX_PORTS + 16)	/* a few going while others come */
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

static uint64_t (*clock_fn)(void);

uint64_t port_reads_now(void)
{
	return clock_fn ? clock_fn() : clock_ns(CLOCK_MONOTONIC);
}

void port_reads_set_clock(uint64_t (*now)(void))
{
	clock_fn = now;
}

/* ---- fabteld's back-offs, per device and port ------------------------------ */

struct port_entry {
	uint32_t key;		/* fnv of device and port; 0 a free entry */
	uint32_t port;
	unsigned int used;	/* the pass it was last looked up in */
	char device[64];
	struct backoff b[PR_NR];
};

static struct port_entry entries[READS_MAX];
static unsigned int pass, hint;

static bool entry_is(const struct port_entry *e, uint32_t key, const char *device, uint32_t port)
{
	return e->key == key && e->port == port && !strcmp(e->device, device);
}

/* a free entry, else the one looked up longest ago, cleared */
static struct port_entry *entry_new(uint32_t key, const char *device, uint32_t port)
{
	struct port_entry *e = NULL;
	unsigned int i;

	for (i = 0; i < READS_MAX; i++) {
		if (!entries[i].key) {
			e = &entries[i];
			break;
		}
		if (!e || entries[i].used < e->used)
			e = &entries[i];
	}
	memset(e, 0, sizeof(*e));
	e->key = key;
	e->port = port;
	strncpy(e->device, device, sizeof(e->device) - 1);
	return e;
}

struct backoff *port_backoff(const char *device, uint32_t port, enum port_read rd)
{
	uint32_t key = fnv1a_u32(fnv1a_str(FNV1A_INIT, device), port) | 1;
	struct port_entry *e = NULL;
	unsigned int i, k;

	for (k = 0; k < 2 && !e; k++) {
		i = (hint + READS_MAX - 1 + k) % READS_MAX;	/* the last found, the next */
		if (entry_is(&entries[i], key, device, port))
			e = &entries[i];
	}
	for (i = 0; i < READS_MAX && !e; i++)
		if (entry_is(&entries[i], key, device, port))
			e = &entries[i];
	if (!e)
		e = entry_new(key, device, port);
	e->used = pass;
	hint = (unsigned int)(e - entries + 1) % READS_MAX;
	return &e->b[rd < PR_NR ? rd : 0];
}

void port_reads_pass(void)
{
	unsigned int i;

	if (++pass % READS_SWEEP)
		return;
	for (i = 0; i < READS_MAX; i++)
		if (entries[i].key && pass - entries[i].used > READS_IDLE)
			entries[i].key = 0;
}

void port_reads_forget_all(void)
{
	memset(entries, 0, sizeof(entries));
	hint = 0;
}
