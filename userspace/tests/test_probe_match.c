// SPDX-License-Identifier: GPL-2.0
/*
 * test_probe_match - which peer endpoints become a port's pairs
 * (probe_match.c, Documentation/probes.rst "Finding peers"), over a prober
 * filled by hand and interface addresses made by the test: no verbs, no
 * network.  Checked against what the documents say and the rules of that
 * section: an endpoint is its source's (the address it was read from), two
 * sources claiming one (host, device, port) are one counted conflict that
 * the holder wins, the holder's source going lets the other take it, and a
 * port never takes its subnet's network or broadcast address.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "clock.h"
#include "prober.h"

#define T0	(1000 * NS_PER_S)
#define TTL_S	30

/* the interfaces getifaddrs would list: ens1 10.0.0.1/24, ens2 10.2.0.0/31 */
struct fake_if {
	struct ifaddrs ifa[2];
	struct sockaddr_in addr[2], mask[2];
};

static void fake_if_init(struct fake_if *f)
{
	static const char *const name[2] = { "ens1", "ens2" };
	static const char *const addr[2] = { "10.0.0.1", "10.2.0.0" };
	static const char *const mask[2] = { "255.255.255.0", "255.255.255.254" };
	unsigned int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < 2; i++) {
		f->addr[i].sin_family = AF_INET;
		f->mask[i].sin_family = AF_INET;
		inet_pton(AF_INET, addr[i], &f->addr[i].sin_addr);
		inet_pton(AF_INET, mask[i], &f->mask[i].sin_addr);
		f->ifa[i].ifa_name = (char *)name[i];
		f->ifa[i].ifa_addr = (struct sockaddr *)&f->addr[i];
		f->ifa[i].ifa_netmask = (struct sockaddr *)&f->mask[i];
		f->ifa[i].ifa_next = i ? NULL : &f->ifa[1];
	}
}

struct world {
	struct prober *pr;
	struct fake_if ifs;
};

static void add_port(struct prober *pr, unsigned int i, const char *netdev, const char *gid)
{
	struct probe_port *pp = &pr->ports[i];

	pp->present = pp->up = true;
	snprintf(pp->device, sizeof(pp->device), "rxe%u", i);
	pp->port = 1;
	snprintf(pp->netdev, sizeof(pp->netdev), "%s", netdev);
	assert_int_equal(inet_pton(AF_INET6, gid, pp->gid), 1);
	pp->pairs = calloc(PROBE_MAX_PEERS, sizeof(*pp->pairs));
	assert_non_null(pp->pairs);
}

static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->pr = calloc(1, sizeof(*w->pr));
	assert_non_null(w->pr);
	snprintf(w->pr->cfg.host, sizeof(w->pr->cfg.host), "me");
	w->pr->cfg.max_peers = PROBE_MAX_PEERS;
	w->pr->cfg.peer_ttl_s = TTL_S;
	add_port(w->pr, 0, "ens1", "::ffff:10.0.0.1");
	fake_if_init(&w->ifs);
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PORTS; i++)
		free(w->pr->ports[i].pairs);
	free(w->pr);
	free(w);
	return 0;
}

/* a source at addr, read at ok_ns (0: never) */
static struct probe_source *add_source(struct prober *pr, const char *addr, uint64_t ok_ns)
{
	struct probe_source *s = &pr->src[pr->nr_src++];

	snprintf(s->addr, sizeof(s->addr), "%s", addr);
	s->ok_ns = ok_ns;
	return s;
}

static void add_ep(struct probe_source *s, const char *host, const char *dev, uint32_t port,
		   const char *gid, uint32_t qpn)
{
	struct probe_endpoint *e = &s->eps[s->nr_eps++];

	memset(e, 0, sizeof(*e));
	snprintf(e->host, sizeof(e->host), "%s", host);
	snprintf(e->device, sizeof(e->device), "%s", dev);
	e->port = port;
	snprintf(e->netdev, sizeof(e->netdev), "eth0");
	assert_int_equal(inet_pton(AF_INET6, gid, e->gid), 1);
	e->qpn = qpn;
	e->qkey = 0x11;
}

static void match(struct world *w, uint64_t now)
{
	probe_match_ports(w->pr, now, &w->ifs.ifa[0]);
}

/* the pair of port i for (host, dev, port); NULL if none */
static const struct probe_pair *pair_of(const struct prober *pr, unsigned int i, const char *host,
					const char *dev, uint32_t port)
{
	unsigned int k;

	for (k = 0; k < PROBE_MAX_PEERS; k++) {
		const struct probe_pair *p = &pr->ports[i].pairs[k];

		if (p->present && !strcmp(p->peer.host, host) && !strcmp(p->peer.device, dev) &&
		    p->peer.port == port)
			return p;
	}
	return NULL;
}

static void assert_gid(const uint8_t gid[16], const char *want)
{
	uint8_t g[16];

	assert_int_equal(inet_pton(AF_INET6, want, g), 1);
	assert_memory_equal(gid, g, 16);
}

/*
 * An impostor lists gpu2's port with its own GID and QPN (after gpu2's own
 * source in order: the last claim read no longer wins).  The holder keeps
 * it; one conflict, counted once however many passes it stands, noted on
 * the impostor's source.  (The holder wins over the order too:
 * holder_ages_out.)
 */
static void impostor_refused(void **state)
{
	struct world *w = *state;
	struct prober *pr = w->pr;
	struct probe_source *real = add_source(pr, "10.0.0.2:9465", T0);
	struct probe_source *bad = add_source(pr, "10.0.0.66:9465", 0);
	const struct probe_pair *p;
	unsigned int i;

	add_ep(real, "gpu2", "mlx5_0", 1, "::ffff:10.0.0.2", 100);
	add_ep(bad, "gpu2", "mlx5_0", 1, "::ffff:10.0.0.66", 666);
	add_ep(bad, "gpu66", "mlx5_0", 1, "::ffff:10.0.0.66", 667);	/* its own: taken */
	match(w, T0);
	p = pair_of(pr, 0, "gpu2", "mlx5_0", 1);
	assert_non_null(p);
	assert_string_equal(p->src, "10.0.0.2:9465");
	assert_int_equal(pr->conflicts, 0);

	for (i = 1; i <= 5; i++) {
		real->ok_ns = bad->ok_ns = T0 + i * NS_PER_S;
		match(w, T0 + i * NS_PER_S);
	}
	p = pair_of(pr, 0, "gpu2", "mlx5_0", 1);
	assert_non_null(p);
	assert_string_equal(p->src, "10.0.0.2:9465");
	assert_gid(p->peer.gid, "::ffff:10.0.0.2");
	assert_int_equal(p->peer.qpn, 100);
	assert_non_null(pair_of(pr, 0, "gpu66", "mlx5_0", 1));
	assert_int_equal(pr->ports[0].nr_pairs, 2);
	assert_int_equal(pr->conflicts, 1);
	assert_int_equal(pr->conflicts_total, 1);
	assert_int_equal(bad->nr_conflicts, 1);
	assert_int_equal(real->nr_conflicts, 0);
	assert_string_equal(bad->conflict, "gpu2/mlx5_0/1 is 10.0.0.2:9465's");

	/* it stops, then starts again: a second conflict */
	bad->nr_eps = 1;
	bad->eps[0] = bad->eps[1];
	match(w, T0 + 6 * NS_PER_S);
	assert_int_equal(pr->conflicts, 0);
	assert_string_equal(bad->conflict, "");
	add_ep(bad, "gpu2", "mlx5_0", 1, "::ffff:10.0.0.66", 666);
	match(w, T0 + 7 * NS_PER_S);
	assert_int_equal(pr->conflicts, 1);
	assert_int_equal(pr->conflicts_total, 2);
}

/* neither holds it yet: the first source in order has it, the other conflicts */
static void first_in_order(void **state)
{
	struct world *w = *state;
	struct prober *pr = w->pr;
	struct probe_source *a = add_source(pr, "a:9465", T0), *b = add_source(pr, "b:9465", T0);
	const struct probe_pair *p;

	add_ep(a, "gpu3", "mlx5_1", 2, "::ffff:10.0.0.3", 300);
	add_ep(b, "gpu3", "mlx5_1", 2, "::ffff:10.0.0.33", 333);
	match(w, T0);
	p = pair_of(pr, 0, "gpu3", "mlx5_1", 2);
	assert_non_null(p);
	assert_string_equal(p->src, "a:9465");
	assert_int_equal(p->peer.qpn, 300);
	assert_int_equal(b->nr_conflicts, 1);
	assert_int_equal(pr->conflicts_total, 1);
}

/*
 * The holder's source is not read for peer_ttl_s: the other source's claim
 * is no longer contested and it takes the endpoint, a new pair with new
 * counts.  The first coming back is now the one refused.
 */
static void holder_ages_out(void **state)
{
	struct world *w = *state;
	struct prober *pr = w->pr;
	struct probe_source *a = add_source(pr, "a:9465", T0), *b = add_source(pr, "b:9465", T0);
	uint64_t later = T0 + (TTL_S + 1) * NS_PER_S;
	struct probe_pair *p;

	add_ep(a, "gpu4", "mlx5_0", 1, "::ffff:10.0.0.4", 400);
	add_ep(b, "gpu4", "mlx5_0", 1, "::ffff:10.0.0.44", 444);
	match(w, T0);
	p = (struct probe_pair *)pair_of(pr, 0, "gpu4", "mlx5_0", 1);
	assert_non_null(p);
	p->st.sent = 7;			/* a's pair has counts */
	assert_int_equal(pr->conflicts, 1);

	b->ok_ns = later;		/* b still read; a not since T0 */
	match(w, later);
	p = (struct probe_pair *)pair_of(pr, 0, "gpu4", "mlx5_0", 1);
	assert_non_null(p);
	assert_string_equal(p->src, "b:9465");
	assert_gid(p->peer.gid, "::ffff:10.0.0.44");
	assert_int_equal(p->peer.qpn, 444);
	assert_int_equal(p->st.sent, 0);
	assert_int_equal(pr->ports[0].nr_pairs, 1);
	assert_int_equal(pr->conflicts, 0);
	assert_int_equal(pr->conflicts_total, 1);

	a->ok_ns = later + NS_PER_S;	/* a is back */
	b->ok_ns = later + NS_PER_S;
	match(w, later + NS_PER_S);
	assert_string_equal(pair_of(pr, 0, "gpu4", "mlx5_0", 1)->src, "b:9465");
	assert_int_equal(a->nr_conflicts, 1);
	assert_int_equal(b->nr_conflicts, 0);
	assert_int_equal(pr->conflicts_total, 2);
}

/* the holder's document stops listing it: the other source takes it at once */
static void holder_drops_it(void **state)
{
	struct world *w = *state;
	struct prober *pr = w->pr;
	struct probe_source *a = add_source(pr, "a:9465", T0), *b = add_source(pr, "b:9465", T0);

	add_ep(a, "gpu5", "mlx5_0", 1, "::ffff:10.0.0.5", 500);
	add_ep(b, "gpu5", "mlx5_0", 1, "::ffff:10.0.0.55", 555);
	match(w, T0);
	a->nr_eps = 0;
	match(w, T0 + NS_PER_S);
	assert_string_equal(pair_of(pr, 0, "gpu5", "mlx5_0", 1)->src, "b:9465");
	assert_int_equal(pr->ports[0].nr_pairs, 1);
	assert_int_equal(pr->conflicts, 0);
}

/* one fabteld read at two addresses (its name, its IP): one pair, no conflict */
static void same_peer_twice(void **state)
{
	struct world *w = *state;
	struct prober *pr = w->pr;
	struct probe_source *a = add_source(pr, "gpu7:9465", T0);
	struct probe_source *b = add_source(pr, "10.0.0.7:9465", T0);

	add_ep(a, "gpu7", "mlx5_0", 1, "::ffff:10.0.0.7", 700);
	add_ep(b, "gpu7", "mlx5_0", 1, "::ffff:10.0.0.7", 700);
	match(w, T0);
	match(w, T0 + NS_PER_S);
	assert_int_equal(pr->ports[0].nr_pairs, 1);
	assert_string_equal(pair_of(pr, 0, "gpu7", "mlx5_0", 1)->src, "gpu7:9465");
	assert_int_equal(pr->conflicts, 0);
	assert_int_equal(pr->conflicts_total, 0);
	/* its QP changes in one of them only: now they disagree */
	b->eps[0].qpn = 701;
	match(w, T0 + 2 * NS_PER_S);
	assert_int_equal(pair_of(pr, 0, "gpu7", "mlx5_0", 1)->peer.qpn, 700);
	assert_int_equal(b->nr_conflicts, 1);
	assert_int_equal(pr->conflicts_total, 1);
}

/* this host's own name or GID in a peer's document: no pair, no conflict */
static void own_endpoints(void **state)
{
	struct world *w = *state;
	struct prober *pr = w->pr;
	struct probe_source *a = add_source(pr, "a:9465", T0), *b = add_source(pr, "b:9465", T0);

	add_ep(a, "me", "rxe0", 1, "::ffff:10.0.0.9", 900);
	add_ep(b, "me", "rxe0", 1, "::ffff:10.0.0.10", 901);
	add_ep(b, "gpu6", "mlx5_0", 1, "::ffff:10.0.0.1", 902);	/* our port's GID */
	match(w, T0);
	assert_int_equal(pr->ports[0].nr_pairs, 0);
	assert_int_equal(pr->conflicts, 0);
	assert_int_equal(pr->conflicts_total, 0);
}

/*
 * The subnet's network and broadcast addresses are refused and counted;
 * another subnet's host is left out (not refused) unless probe_match = all,
 * which still refuses the first two, on every port.  A /31 has neither:
 * both its addresses are hosts.
 */
static void subnet_edges(void **state)
{
	struct world *w = *state;
	struct prober *pr = w->pr;
	struct probe_source *a = add_source(pr, "a:9465", T0);

	add_port(pr, 1, "ens2", "::ffff:10.2.0.0");
	add_ep(a, "net", "d", 1, "::ffff:10.0.0.0", 10);
	add_ep(a, "bcast", "d", 1, "::ffff:10.0.0.255", 11);
	add_ep(a, "host", "d", 1, "::ffff:10.0.0.7", 12);
	add_ep(a, "far", "d", 1, "::ffff:10.9.9.9", 13);
	add_ep(a, "p2p", "d", 1, "::ffff:10.2.0.1", 14);
	match(w, T0);
	assert_int_equal(pr->ports[0].refused, 2);
	assert_int_equal(pr->ports[0].nr_pairs, 1);
	assert_non_null(pair_of(pr, 0, "host", "d", 1));
	assert_int_equal(pr->ports[1].refused, 0);
	assert_int_equal(pr->ports[1].nr_pairs, 1);
	assert_non_null(pair_of(pr, 1, "p2p", "d", 1));

	/* any subnet of this host's counts for the edges then: ens2's port too */
	pr->cfg.match_all = true;
	match(w, T0 + NS_PER_S);
	assert_int_equal(pr->ports[0].refused, 2);	/* a gauge: the last match's */
	assert_int_equal(pr->ports[1].refused, 2);
	assert_null(pair_of(pr, 0, "net", "d", 1));
	assert_null(pair_of(pr, 0, "bcast", "d", 1));
	assert_null(pair_of(pr, 1, "bcast", "d", 1));
	assert_non_null(pair_of(pr, 0, "far", "d", 1));
	assert_non_null(pair_of(pr, 0, "p2p", "d", 1));
	assert_int_equal(pr->ports[0].nr_pairs, 3);	/* host, far, p2p */
	assert_int_equal(pr->ports[1].nr_pairs, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(impostor_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(first_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(holder_ages_out, setup, teardown),
		cmocka_unit_test_setup_teardown(holder_drops_it, setup, teardown),
		cmocka_unit_test_setup_teardown(same_peer_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(own_endpoints, setup, teardown),
		cmocka_unit_test_setup_teardown(subnet_edges, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
