// SPDX-License-Identifier: GPL-2.0
/*
 * probe_match.c - which peer endpoints become which port's pairs
 * (prober.h, Documentation/probes.rst "Finding peers").
 *
 * A document's "host" is only what the peer says; what it cannot lie about
 * is the address it was fetched from (its source).  So an endpoint, keyed
 * by (host, device, port), belongs to one source at a time: the source of
 * the pair that already probes it, while that source's document still lists
 * it; else the first fresh source, in probe_peer order then the file's, that
 * lists it.  Another source's claim on it (another GID or QP) is a
 * conflict, refused and noted on that source, counted once when it starts.
 * Then each port takes the endpoints their sources own whose GID is a host
 * address of one of the port's subnets (any GID with probe_match = all, but
 * never a subnet's network or broadcast address).  The GIDs no probe may go
 * to whatever the port are refused with the document (probe_doc.c).
 *
 * The prober thread, lock held; no verbs: test_probe_match runs it alone.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "prober.h"

/* an endpoint's index in a source is a bit of the pass's refused masks */
_Static_assert(PROBE_SRC_EPS <= 32, "refused[] is a 32-bit mask per source");

static bool gid_v4(const uint8_t gid[16], struct in_addr *a)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (memcmp(gid, pfx, 12))
		return false;
	memcpy(&a->s_addr, gid + 12, 4);
	return true;
}

enum gid_where {
	GID_OUT,	/* in no subnet of the port's netdev (or not IPv4) */
	GID_IN,		/* a host address of one */
	GID_EDGE,	/* a network or broadcast address: refused */
};

/*
 * Where the peer's IPv4-mapped GID is among the port's netdev's subnets;
 * any: among this host's other subnets too, for their network and
 * broadcast addresses (probe_match = all takes GIDs outside the port's).
 */
static enum gid_where same_subnet(const struct probe_port *pp, const uint8_t gid[16],
				  struct ifaddrs *ifa, bool any)
{
	enum gid_where w = GID_OUT;
	struct in_addr peer;
	struct ifaddrs *i;

	if (!gid_v4(gid, &peer))
		return GID_OUT;
	for (i = ifa; i; i = i->ifa_next) {
		const struct sockaddr_in *a = (const void *)i->ifa_addr;
		const struct sockaddr_in *m = (const void *)i->ifa_netmask;
		bool mine = !strcmp(i->ifa_name, pp->netdev);
		uint32_t net, mask, x;

		if (!a || !m || a->sin_family != AF_INET || !(mine || any))
			continue;
		mask = ntohl(m->sin_addr.s_addr);
		net = ntohl(a->sin_addr.s_addr) & mask;
		x = ntohl(peer.s_addr);
		if ((x & mask) != net)
			continue;
		/* a /31 or /32 has no network or broadcast address (RFC 3021) */
		if (mask < 0xfffffffeu && ((x & ~mask) == 0 || (x & ~mask) == ~mask))
			return GID_EDGE;
		if (mine)
			w = GID_IN;
	}
	return w;
}

static bool own_gid(const struct prober *pr, const uint8_t gid[16])
{
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PORTS; i++)
		if (pr->ports[i].up && !memcmp(pr->ports[i].gid, gid, 16))
			return true;
	return false;
}

/* this host's own endpoint: never a peer, never a claim */
static bool ours(const struct prober *pr, const struct probe_endpoint *e)
{
	return !strcmp(e->host, pr->cfg.host) || own_gid(pr, e->gid);
}

static bool same_key(const struct probe_endpoint *a, const struct probe_endpoint *b)
{
	return a->port == b->port && !strcmp(a->device, b->device) && !strcmp(a->host, b->host);
}

/* its document was read within peer_ttl_s */
static bool fresh(const struct prober *pr, const struct probe_source *s, uint64_t now)
{
	return s->ok_ns && s->ok_ns + (uint64_t)pr->cfg.peer_ttl_s * NS_PER_S >= now;
}

/* the endpoint of key's (host, device, port) the fresh source at addr lists, or NULL */
static const struct probe_endpoint *listed(const struct prober *pr, const char *addr,
					   const struct probe_endpoint *key, uint64_t now)
{
	unsigned int s, k;

	for (s = 0; s < pr->nr_src; s++) {
		const struct probe_source *src = &pr->src[s];

		if (strcmp(src->addr, addr))
			continue;
		for (k = 0; fresh(pr, src, now) && k < src->nr_eps; k++)
			if (same_key(&src->eps[k], key) && !ours(pr, &src->eps[k]))
				return &src->eps[k];
		return NULL;
	}
	return NULL;
}

/*
 * The source key's (host, device, port) belongs to (the file's comment):
 * its address, or NULL if no fresh source lists it.  Every port's pairs
 * count, a down port's too, so that one port coming back cannot hand an
 * endpoint to another source.
 */
static const char *key_owner(const struct prober *pr, const struct probe_endpoint *key,
			     uint64_t now)
{
	unsigned int i, k, s;

	for (i = 0; i < PROBE_MAX_PORTS; i++) {
		const struct probe_port *pp = &pr->ports[i];

		for (k = 0; pp->pairs && k < PROBE_MAX_PEERS; k++) {
			const struct probe_pair *p = &pp->pairs[k];

			if (p->present && same_key(&p->peer, key) && listed(pr, p->src, key, now))
				return p->src;
		}
	}
	for (s = 0; s < pr->nr_src; s++) {
		const struct probe_source *src = &pr->src[s];

		for (k = 0; fresh(pr, src, now) && k < src->nr_eps; k++)
			if (same_key(&src->eps[k], key) && !ours(pr, &src->eps[k]))
				return src->addr;
	}
	return NULL;
}

static void drop_pair(struct probe_port *pp, struct probe_pair *p)
{
	/* its address handle, if any, is the port's cache's (probe_ah.c) and ages out there */
	memset(p, 0, sizeof(*p));
	pp->nr_pairs--;
}

/* pairs whose endpoint another source now owns (theirs stopped listing it) go */
static void drop_taken(struct prober *pr, uint64_t now)
{
	unsigned int i, k;

	for (i = 0; i < PROBE_MAX_PORTS; i++) {
		struct probe_port *pp = &pr->ports[i];

		for (k = 0; pp->pairs && k < PROBE_MAX_PEERS; k++) {
			struct probe_pair *p = &pp->pairs[k];
			const char *owner;

			if (!p->present)
				continue;
			owner = key_owner(pr, &p->peer, now);
			if (owner && strcmp(owner, p->src))
				drop_pair(pp, p);
		}
	}
}

/* a conflict's identity across passes: FNV-1a of host, device and port */
static uint64_t key_hash(const struct probe_endpoint *e)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const char *parts[2] = { e->host, e->device };
	unsigned int i;
	const char *c;

	for (i = 0; i < 2; i++)
		for (c = parts[i];; c++) {
			h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
			if (!*c)
				break;
		}
	for (i = 0; i < 4; i++)
		h = (h ^ ((e->port >> (8 * i)) & 0xff)) * 0x100000001b3ull;
	return h;
}

static bool has_key(const uint64_t *keys, unsigned int n, uint64_t h)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (keys[i] == h)
			return true;
	return false;
}

/*
 * One source's claims: bit k of the result set when its endpoint k is
 * another source's.  Its conflicts replace the last pass's; one not there
 * before has just started and is counted.  A copy of the owner's endpoint
 * (a peer both in probe_peer and in the file, by name and by address) is
 * left out but no conflict.
 */
static uint32_t source_claims(struct prober *pr, struct probe_source *src, uint64_t now)
{
	char note[sizeof(src->conflict)] = "";
	const struct probe_endpoint *theirs;
	uint64_t keys[PROBE_SRC_EPS], h;
	uint32_t refused = 0;
	unsigned int k, n = 0;
	const char *owner;

	for (k = 0; fresh(pr, src, now) && k < src->nr_eps; k++) {
		const struct probe_endpoint *e = &src->eps[k];

		if (ours(pr, e))
			continue;
		owner = key_owner(pr, e, now);
		if (!owner || !strcmp(owner, src->addr))
			continue;
		refused |= 1u << k;
		/* the same GID and QP: one fabteld under two addresses, no conflict */
		theirs = listed(pr, owner, e, now);
		if (theirs && !memcmp(theirs->gid, e->gid, 16) && theirs->qpn == e->qpn)
			continue;
		h = key_hash(e);
		if (has_key(keys, n, h))
			continue;	/* the document lists it twice */
		if (!has_key(src->conflict_key, src->nr_conflicts, h))
			pr->conflicts_total++;
		if (!n)	/* through a copy: owner and e are in *pr as src is */
			snprintf(note, sizeof(note), "%s/%s/%u is %.100s's", e->host, e->device,
				 e->port, owner);
		keys[n++] = h;
	}
	memcpy(src->conflict_key, keys, n * sizeof(keys[0]));
	src->nr_conflicts = n;
	memcpy(src->conflict, note, sizeof(note));
	return refused;
}

static void take_endpoint(struct prober *pr, struct probe_port *pp,
			  const struct probe_source *src, const struct probe_endpoint *e,
			  uint64_t now)
{
	struct probe_pair *p = NULL;
	uint32_t seq;
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PEERS && !p; i++)
		if (pp->pairs[i].present && same_key(&pp->pairs[i].peer, e))
			p = &pp->pairs[i];
	if (p) {
		/* a new GID is another address handle (probe_ah.c): the old one
		 * is no pair's any more and ages out of the port's cache */
		p->peer = *e;
		p->seen_ns = now;
		return;
	}
	for (i = 0; i < PROBE_MAX_PEERS && pp->pairs[i].present; i++)
		;
	if (i == PROBE_MAX_PEERS || pp->nr_pairs >= pr->cfg.max_peers) {
		pp->over_limit++;
		return;
	}
	p = &pp->pairs[i];
	seq = (uint32_t)(now ^ (now >> 32)) * 2654435761u;
	memset(p, 0, sizeof(*p));
	probe_stats_init(&p->st, seq);
	p->present = true;
	p->peer = *e;
	snprintf(p->src, sizeof(p->src), "%s", src->addr);
	p->seen_ns = now;
	pp->nr_pairs++;
}

/* the port's pairs from the endpoints the sources own (refused: source_claims) */
static void match_port(struct prober *pr, struct probe_port *pp, uint64_t now,
		       struct ifaddrs *ifa, const uint32_t *refused)
{
	uint64_t ttl = (uint64_t)pr->cfg.peer_ttl_s * NS_PER_S;
	enum gid_where w;
	unsigned int s, k;

	pp->over_limit = 0;
	pp->refused = 0;
	for (s = 0; s < pr->nr_src; s++) {
		const struct probe_source *src = &pr->src[s];

		for (k = 0; fresh(pr, src, now) && k < src->nr_eps; k++) {
			const struct probe_endpoint *e = &src->eps[k];

			if ((refused[s] >> k) & 1 || ours(pr, e))
				continue;
			w = same_subnet(pp, e->gid, ifa, pr->cfg.match_all);
			if (w == GID_EDGE) {
				pp->refused++;
				continue;
			}
			if (w == GID_IN || pr->cfg.match_all)
				take_endpoint(pr, pp, src, e, now);
		}
	}
	/* a peer no document has listed for peer_ttl_s goes, with its series */
	for (k = 0; k < PROBE_MAX_PEERS; k++) {
		struct probe_pair *p = &pp->pairs[k];

		if (p->present && p->seen_ns + ttl < now)
			drop_pair(pp, p);
	}
}

void probe_match_ports(struct prober *pr, uint64_t now, struct ifaddrs *ifa)
{
	uint32_t refused[PROBE_MAX_SOURCES];
	unsigned int i, conflicts = 0;

	drop_taken(pr, now);
	for (i = 0; i < pr->nr_src; i++) {
		refused[i] = source_claims(pr, &pr->src[i], now);
		conflicts += pr->src[i].nr_conflicts;
	}
	pr->conflicts = conflicts;
	for (i = 0; i < PROBE_MAX_PORTS; i++)
		if (pr->ports[i].up)
			match_port(pr, &pr->ports[i], now, ifa, refused);
	pr->src_seen_gen = pr->src_gen;
}

void probe_match_all(struct prober *pr, uint64_t now)
{
	struct ifaddrs *ifa = NULL;

	if (getifaddrs(&ifa))
		ifa = NULL;
	probe_match_ports(pr, now, ifa);
	if (ifa)
		freeifaddrs(ifa);
}
