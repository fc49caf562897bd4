// SPDX-License-Identifier: GPL-2.0
/*
 * probe_ah.c - each port's address handles (prober.h), made off the prober
 * lock by a thread of their own, the resolver.
 *
 * On RoCE, ibv_create_ah resolves the peer's MAC address (the kernel's
 * ib_resolve_eth_dmac: a neighbour lookup that waits up to a second for an
 * ARP answer).  Made under the prober lock, one address nobody answers (a
 * dead host, a document naming one, a spoofed request) would stop every
 * port's probes and replies, and the HTTP thread and the collector that
 * wait on the lock, for that second, at each send.  So the prober thread
 * only asks: it finds the handle in the port's cache or marks the entry
 * WANTED, and goes on; the resolver makes it with the lock dropped, and a
 * failure is kept with its errno and not tried again before a back-off
 * (1 s, doubling to PROBE_AH_BACKOFF_MAX_S).  The peers' own handles are
 * made first, and never evicted for a requester's.
 *
 * PROBE_RESOLVERS threads make handles, so that an address that does not
 * answer holds up one of them, not every other peer's.  The port's PD must
 * outlive a handle being made on it: probe_port_close waits while a
 * resolver works on its port (pp->ah_making), and a handle
 * made for a cache that was flushed or closed meanwhile (ah_gen) is
 * destroyed, not taken.
 */
#include <errno.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "clock.h"
#include "prober.h"

static bool is_pair_gid(const struct probe_port *pp, const uint8_t gid[16])
{
	unsigned int i;

	for (i = 0; pp->pairs && i < PROBE_MAX_PEERS; i++)
		if (pp->pairs[i].present && !memcmp(pp->pairs[i].peer.gid, gid, 16))
			return true;
	return false;
}

const struct probe_ahc *probe_ah_find(const struct probe_port *pp, const uint8_t gid[16],
				      uint32_t label)
{
	unsigned int i;

	for (i = 0; i < pp->ahc_hw; i++)
		if (pp->ahc[i].state != PROBE_AH_FREE && pp->ahc[i].label == label &&
		    !memcmp(pp->ahc[i].gid, gid, 16))
			return &pp->ahc[i];
	return NULL;
}

/*
 * A free entry, else the least recently used that no pair needs; NULL if
 * none.  The cache has room for every pair's K flows (label mode), but
 * requesters' handles stay within PROBE_RESP_AH however many addresses
 * ask.  Entries are used from the start (ahc_hw): the lookups scan only
 * those, and a port with few peers touches few of them.
 */
static struct probe_ahc *victim(struct probe_port *pp, bool for_pair)
{
	struct probe_ahc *v = NULL, *free_slot = NULL;
	unsigned int i, others = 0;

	for (i = 0; i < pp->ahc_hw; i++) {
		struct probe_ahc *a = &pp->ahc[i];

		if (a->state == PROBE_AH_FREE) {
			if (!free_slot)
				free_slot = a;
			continue;
		}
		if (is_pair_gid(pp, a->gid))
			continue;
		others++;
		if (a->state != PROBE_AH_MAKING && (!v || a->used_ns < v->used_ns))
			v = a;
	}
	if (!for_pair && others >= PROBE_RESP_AH)
		return v;
	if (free_slot)
		return free_slot;
	if (pp->ahc_hw < PROBE_AH_SLOTS)
		return &pp->ahc[pp->ahc_hw++];
	return v;
}

struct probe_ahc *probe_ah_entry(struct prober *pr, struct probe_port *pp,
				 const uint8_t gid[16], uint32_t label, uint64_t now)
{
	struct probe_ahc *a = (struct probe_ahc *)probe_ah_find(pp, gid, label);

	if (a) {
		a->used_ns = now;
		if (a->state == PROBE_AH_FAILED && now >= a->retry_ns) {
			a->state = PROBE_AH_WANTED;
			pthread_cond_broadcast(&pr->ah_cond);
		}
		return a;
	}
	a = victim(pp, is_pair_gid(pp, gid));
	if (!a)
		return NULL;
	if (a->ah)
		ibv_destroy_ah(a->ah);	/* a ready handle: no wait, no resolution */
	memset(a, 0, sizeof(*a));
	memcpy(a->gid, gid, 16);
	a->label = label;
	a->state = PROBE_AH_WANTED;
	a->used_ns = now;
	a->tokens = pr->cfg.reply_rate_source;
	a->tokens_ns = now;
	pthread_cond_broadcast(&pr->ah_cond);
	return a;
}

struct ibv_ah *probe_ah_get(struct prober *pr, struct probe_port *pp, const uint8_t gid[16],
			    uint32_t label, uint64_t now)
{
	struct probe_ahc *a = probe_ah_entry(pr, pp, gid, label, now);

	return a && a->state == PROBE_AH_READY ? a->ah : NULL;
}

void probe_ah_flush(struct prober *pr, struct probe_port *pp)
{
	unsigned int i;

	(void)pr;
	for (i = 0; i < pp->ahc_hw; i++) {
		if (pp->ahc[i].ah)
			ibv_destroy_ah(pp->ahc[i].ah);
		memset(&pp->ahc[i], 0, sizeof(pp->ahc[i]));
	}
	pp->ahc_hw = 0;
	pp->ah_gen++;
}

unsigned int probe_ah_take_all(struct prober *pr, struct probe_port *pp, struct ibv_ah **out)
{
	unsigned int i, n = 0;

	(void)pr;
	for (i = 0; i < pp->ahc_hw; i++) {
		if (pp->ahc[i].ah)
			out[n++] = pp->ahc[i].ah;
		memset(&pp->ahc[i], 0, sizeof(pp->ahc[i]));
	}
	pp->ahc_hw = 0;
	pp->ah_gen++;
	return n;
}

/*
 * The next entry to make (lock held): a pair's before a requester's, and
 * an address never tried before one that failed, so that dead addresses
 * retried after their back-off do not hold up new ones.
 */
static struct probe_ahc *next_wanted(struct prober *pr, unsigned int *port)
{
	struct probe_ahc *best = NULL;
	unsigned int i, k, rank, best_rank = 4;

	for (i = 0; i < PROBE_MAX_PORTS; i++) {
		struct probe_port *pp = &pr->ports[i];

		for (k = 0; pp->up && !pp->busy && k < pp->ahc_hw; k++) {
			struct probe_ahc *a = &pp->ahc[k];

			if (a->state != PROBE_AH_WANTED)
				continue;
			rank = (is_pair_gid(pp, a->gid) ? 0 : 2) + (a->fails ? 1 : 0);
			if (rank < best_rank) {
				best = a;
				best_rank = rank;
				*port = i;
			}
		}
	}
	return best;
}

static uint64_t backoff_ns(unsigned int fails)
{
	uint64_t s = 1;

	while (fails-- > 1 && s < PROBE_AH_BACKOFF_MAX_S)
		s *= 2;
	return (s < PROBE_AH_BACKOFF_MAX_S ? s : PROBE_AH_BACKOFF_MAX_S) * NS_PER_S;
}

/* one handle made, the lock dropped meanwhile; the result kept (lock held) */
static void make_one(struct prober *pr, struct probe_ahc *a, unsigned int port)
{
	struct probe_port *pp = &pr->ports[port];
	unsigned int gen = pp->ah_gen;
	struct ibv_pd *pd = pp->pd;
	struct ibv_ah_attr attr;
	struct ibv_ah *ah;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.is_global = 1;
	memcpy(attr.grh.dgid.raw, a->gid, 16);
	attr.grh.sgid_index = (uint8_t)pp->gid_index;
	attr.grh.hop_limit = 64;
	attr.grh.flow_label = a->label;	/* mlx5: the UDP source port of the flow */
	attr.grh.traffic_class = (uint8_t)pp->tclass;
	attr.sl = (uint8_t)pr->cfg.sl;
	attr.port_num = (uint8_t)pp->port;
	a->state = PROBE_AH_MAKING;
	pp->ah_making++;
	pthread_mutex_unlock(&pr->lock);

	errno = 0;
	ah = ibv_create_ah(pd, &attr);
	err = errno ? errno : EIO;

	pthread_mutex_lock(&pr->lock);
	pp->ah_making--;
	pthread_cond_broadcast(&pr->ah_cond);	/* a close may wait for this port */
	if (gen != pp->ah_gen || !pp->up) {	/* flushed or closed meanwhile */
		if (ah)
			ibv_destroy_ah(ah);
		return;
	}
	if (ah) {
		a->ah = ah;
		a->state = PROBE_AH_READY;
		a->fails = 0;
		pp->ah_made++;
	} else {
		a->err = err;
		a->fails++;
		a->state = PROBE_AH_FAILED;
		a->retry_ns = clock_ns(CLOCK_MONOTONIC) + backoff_ns(a->fails);
		pp->ah_failed++;
	}
	if (a->held) {
		pr->ah_done = true;
		probe_wake(pr);
	}
}

void *probe_ah_thread(void *arg)
{
	struct prober *pr = arg;
	struct probe_ahc *a;
	unsigned int port;

	pthread_mutex_lock(&pr->lock);
	while (!pr->stop) {
		a = next_wanted(pr, &port);
		if (!a) {
			pthread_cond_wait(&pr->ah_cond, &pr->lock);
			continue;
		}
		make_one(pr, a, port);
	}
	pthread_mutex_unlock(&pr->lock);
	return NULL;
}

enum probe_addr probe_pair_address(const struct probe_port *pp, const struct probe_pair *p,
				   int *err)
{
	const struct probe_ahc *a = probe_ah_find(pp, p->peer.gid, 0);

	*err = a ? a->err : 0;
	if (a && a->state == PROBE_AH_READY)
		return PROBE_ADDR_RESOLVED;
	return a && a->fails ? PROBE_ADDR_UNRESOLVED : PROBE_ADDR_RESOLVING;
}

const char *probe_addr_name(enum probe_addr s)
{
	static const char *const names[] = {
		[PROBE_ADDR_RESOLVING] = "resolving",
		[PROBE_ADDR_RESOLVED] = "resolved",
		[PROBE_ADDR_UNRESOLVED] = "unresolved",
	};

	return s <= PROBE_ADDR_UNRESOLVED ? names[s] : "?";
}
