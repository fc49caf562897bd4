// SPDX-License-Identifier: GPL-2.0
/*
 * source_bpf.c - fabtel's BPF programs as a source (lib/fabbpf.c,
 * lib/wire_loader.c): the flap program's carrier events, handled as they
 * come by a thread of their own; each pass, the rxe program's per-QP
 * counts and the wire program's per-QP packets; and the pruning of map
 * entries of QPs that are gone (prune.h).
 *
 * Loaded at open if the options allow and we are root (fabteld drops
 * privileges after); each program's state and reason are set then, the
 * wire program's when it is attached (its attach_wire op).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include "fabbpf.h"
#include "collector.h"
#include "prune.h"
#include "wire_loader.h"

/* the collector's priv for this source */
struct source_bpf {
	bool loaded;			/* false: no BPF (off, not root, no memory) */
	struct fabbpf *fb;
	struct wire_loader *wl;
	struct model *m;
	struct prune rxe_prune, wire_prune;	/* entries of QPs that are gone */
	pthread_t events;		/* polls the ring buffers: flaps logged at once */
	bool events_running;
	atomic_bool events_stop;
	bool known_failed;		/* setting the known QPs failed: said so once */
	/* a pass's scratch: dead keys and those to delete; the live QPs' keys */
	uint64_t dead[MODEL_MAX_QPS], out[MODEL_MAX_QPS];
	uint64_t live[MODEL_MAX_QPS], local[MODEL_MAX_QPS], peer[MODEL_MAX_QPS];
	struct wire_qp_key keys[2 * MODEL_MAX_QPS + 2];
};

static void on_flap(const struct flap_event *e, void *ctx)
{
	struct model *m = ctx;
	uint64_t real = clock_ns(CLOCK_REALTIME), boot = clock_ns(CLOCK_BOOTTIME), at;
	unsigned int i;

	if (!e->ifindex)
		return;
	pthread_mutex_lock(&m->lock);
	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		struct model_port *p = &m->ports[i];

		if (!p->present || p->ifindex != (int)e->ifindex)
			continue;
		p->bpf_transitions++;
		at = real - (boot > e->ns ? boot - e->ns : 0);
		if (e->kind == FLAP_CARRIER_DOWN)
			p->last_flap_ns = at;
		/* logged now, with the kernel's time, not at the next sample */
		if ((e->kind == FLAP_CARRIER_DOWN || e->kind == FLAP_CARRIER_UP) &&
		    p->carrier_logged != (e->kind == FLAP_CARRIER_UP)) {
			p->carrier_logged = e->kind == FLAP_CARRIER_UP;
			model_log_event(m, p->carrier_logged ? EV_LINK_UP : EV_LINK_DOWN,
					p->device, p->port, at);
		}
	}
	pthread_mutex_unlock(&m->lock);
}

static int rxe_cb(const struct rxe_qp_key *k, const struct rxe_qp_counts *c, void *ctx)
{
	struct raw *r = ctx;
	unsigned int i;

	if (r->nr_rxe == MODEL_MAX_QPS)
		return 1;	/* cut off: counted as a failed walk */
	r->rxe[r->nr_rxe].dev_index = k->dev_index;
	r->rxe[r->nr_rxe].qpn = k->qpn;
	for (i = 0; i < RXE_NR_KINDS && i < RAW_RXE_KINDS; i++)
		r->rxe[r->nr_rxe].n[i] = c->n[i];
	r->nr_rxe++;
	return 0;
}

static int wire_cb(const struct wire_qp_key *k, const struct wire_qp_val *v, void *ctx)
{
	struct raw *r = ctx;

	if (r->nr_wire == RAW_MAX_WIRE)
		return 1;	/* cut off: counted as a failed walk */
	r->wire[r->nr_wire].ifindex = k->ifindex;
	r->wire[r->nr_wire].qpn = k->qpn;
	r->wire[r->nr_wire].dir = k->dir;
	r->wire[r->nr_wire].pkts = v->pkts;
	r->nr_wire++;
	return 0;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_WARN)
		return vfprintf(stderr, fmt, args);
	return 0;
}

static void set_why(struct model *m, enum model_source s, const char *why)
{
	snprintf(m->why[s], sizeof(m->why[s]), "%s", why);
}

/* the flap, qp and rxe programs, then the wire program's object */
static void load_programs(struct source_bpf *b, struct model *m)
{
	static const enum fabbpf_prog progs[] = { FABBPF_FLAP, FABBPF_QP, FABBPF_RXE };
	static const enum model_source srcs[] = { SRC_BPF_FLAP, SRC_BPF_QP, SRC_BPF_RXE };
	struct fabbpf_handlers h = { on_flap, NULL, NULL, m };
	const char *why;
	unsigned int i;
	int err;

	libbpf_set_print(quiet_print);
	b->loaded = true;
	err = fabbpf_open(&b->fb, (1u << FABBPF_FLAP) | (1u << FABBPF_QP) |
			  (1u << FABBPF_RXE), &h);
	for (i = 0; i < 3; i++) {
		why = err ? strerror(-err) : fabbpf_unavailable(b->fb, progs[i]);
		m->src[srcs[i]] = why ? SRC_STATE_UNAVAILABLE : SRC_STATE_UP;
		if (why)
			set_why(m, srcs[i], why);
	}
	if (!m->opts.wire) {
		set_why(m, SRC_BPF_WIRE, "disabled (wire = off)");
		return;
	}
	err = wire_loader_open(&b->wl);
	if (err)
		snprintf(m->why[SRC_BPF_WIRE], sizeof(m->why[0]), "loading: %s", strerror(-err));
	else
		set_why(m, SRC_BPF_WIRE, "no RoCE netdev to attach to");
}

static void bpf_open(struct collector *c, void *priv)
{
	struct source_bpf *b = priv;
	struct model *m = c->m;
	int s;

	b->m = m;
	for (s = SRC_BPF_FLAP; s <= SRC_BPF_WIRE; s++)
		m->src[s] = SRC_STATE_UNAVAILABLE;
	if (!m->opts.bpf) {
		for (s = SRC_BPF_FLAP; s <= SRC_BPF_WIRE; s++)
			set_why(m, s, "disabled (bpf = off)");
		return;
	}
	if (geteuid() != 0) {
		for (s = SRC_BPF_FLAP; s <= SRC_BPF_WIRE; s++)
			set_why(m, s, "not root: start fabteld as root to load BPF "
				"(it drops privileges after)");
		return;
	}
	load_programs(b, m);
}

static void bpf_detach_wire(void *priv)
{
	struct source_bpf *b = priv;

	if (b->loaded)
		wire_loader_detach_all(b->wl);
}

static void bpf_attach_wire(struct collector *c, void *priv)
{
	struct source_bpf *b = priv;
	struct model *m = c->m;
	unsigned int i, ok = 0, bad = 0;
	int err = 0;

	if (!b->loaded || !b->wl)
		return;
	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		if (!m->ports[i].present || m->ports[i].ifindex <= 0)
			continue;
		err = wire_loader_attach(b->wl, m->ports[i].ifindex);
		if (err) {
			bad++;
			snprintf(m->why[SRC_BPF_WIRE], sizeof(m->why[0]), "attaching to %s: %s",
				 m->ports[i].netdev, strerror(-err));
		} else {
			ok++;
		}
	}
	if (ok && !bad)
		m->src[SRC_BPF_WIRE] = SRC_STATE_UP;
}

/* any of the programs with a ring buffer up */
static bool rings_up(const struct source_bpf *b)
{
	const struct model *m = b->m;

	return b->loaded && b->fb &&
	       (m->src[SRC_BPF_FLAP] == SRC_STATE_UP || m->src[SRC_BPF_QP] == SRC_STATE_UP ||
		m->src[SRC_BPF_RXE] == SRC_STATE_UP);
}

/*
 * The BPF ring buffers are polled by a thread of their own, so a carrier
 * event is logged (with the kernel's time) when it comes, not after the
 * collection pass that happens to be running.  The handlers take m->lock.
 */
static void *events_thread(void *arg)
{
	struct source_bpf *b = arg;

	while (!b->events_stop)
		fabbpf_poll(b->fb, 200);
	return NULL;
}

static void bpf_start_events(void *priv)
{
	struct source_bpf *b = priv;

	if (!rings_up(b) || b->events_running)
		return;
	b->events_running = !pthread_create(&b->events, NULL, events_thread, b);
}

static void bpf_wait(void *priv, int ms, int wake_fd)
{
	struct source_bpf *b = priv;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	struct pollfd pfd = { .fd = wake_fd, .events = POLLIN };

	if (rings_up(b) && !b->events_running) {
		/* the rings, not wake_fd: a stop is seen within 200 ms */
		fabbpf_poll(b->fb, ms < 200 ? ms : 200);
		return;
	}
	if (wake_fd >= 0)
		poll(&pfd, 1, ms);	/* one wakeup a sample, or at once on a stop */
	else
		nanosleep(&ts, NULL);
}

static void bpf_close(struct collector *c, void *priv)
{
	struct source_bpf *b = priv;

	(void)c;
	if (!b->loaded)
		return;
	if (b->events_running) {
		b->events_stop = true;
		pthread_join(b->events, NULL);
		b->events_running = false;
	}
	prune_free(&b->rxe_prune);
	prune_free(&b->wire_prune);
	wire_loader_close(b->wl);
	fabbpf_close(b->fb);
	b->loaded = false;
}

/* the rxe map entries of dead QPs (keys: device index, QP number) */
static void prune_rxe(struct source_bpf *b, const struct raw *r, const uint64_t *live)
{
	uint64_t *dead = b->dead, *out = b->out;
	unsigned int i;
	size_t n = 0;
	long k;

	for (i = 0; i < r->nr_rxe; i++) {
		uint64_t key = (uint64_t)r->rxe[i].dev_index << 32 | r->rxe[i].qpn;

		if (!prune_has(live, r->nr_qps, key))
			dead[n++] = key;
	}
	k = prune_step(&b->rxe_prune, dead, n, out);
	for (i = 0; k > 0 && i < (unsigned long)k; i++) {
		struct rxe_qp_key key = { (uint32_t)(out[i] >> 32), (uint32_t)out[i] };

		fabbpf_forget_rxe_qp(b->fb, &key);
	}
}

/*
 * the wire map entries of dead QPs: an ingress key's QP number is a local
 * QP's, an egress key's a local QP's peer's (any port: the interface is not
 * checked).  QP 1, the GSI QP, is always there.
 */
static void prune_wire(struct source_bpf *b, const struct raw *r, const uint64_t *local,
		       const uint64_t *peer, size_t np)
{
	uint64_t *dead = b->dead, *out = b->out;
	unsigned int i;
	size_t n = 0;
	long k;

	for (i = 0; i < r->nr_wire; i++) {
		bool alive = r->wire[i].dir == WIRE_DIR_INGRESS ?
			     prune_has(local, r->nr_qps, r->wire[i].qpn) :
			     prune_has(peer, np, r->wire[i].qpn);

		if (r->wire[i].qpn > 1 && !alive)
			dead[n++] = raw_wire_key(r->wire[i].ifindex, r->wire[i].dir,
						 r->wire[i].qpn);
	}
	k = prune_step(&b->wire_prune, dead, n, out);
	for (i = 0; k > 0 && i < (unsigned long)k; i++) {
		struct wire_qp_key key = {
			.ifindex = (uint32_t)(out[i] >> 32),
			.qpn = (uint32_t)out[i] & 0xffffff,
			.dir = (uint8_t)(out[i] >> 24),
		};

		wire_loader_forget_qp(b->wl, &key);
	}
}

/*
 * Delete the map entries of QPs RDMA netlink no longer lists (prune.h: dead
 * in two passes in a row).  Only on a complete QP list and complete walks.
 */
static void prune_maps(struct source_bpf *b, const struct raw *r)
{
	/* the live QPs as sorted keys: (device, QP), local QP, peer's QP */
	uint64_t *live = b->live, *local = b->local, *peer = b->peer;
	unsigned int i;
	size_t np = 0;

	if (r->nl_err || r->qps_over || r->rxe_err || r->wire_err) {
		prune_forget(&b->rxe_prune);
		prune_forget(&b->wire_prune);
		return;
	}
	for (i = 0; i < r->nr_qps; i++) {
		live[i] = (uint64_t)r->qps[i].nl.dev_index << 32 | r->qps[i].nl.qpn;
		local[i] = r->qps[i].nl.qpn;
		if (r->qps[i].nl.rqpn)
			peer[np++] = r->qps[i].nl.rqpn;
	}
	prune_sort(live, r->nr_qps);
	prune_sort(local, r->nr_qps);
	prune_sort(peer, np);
	prune_rxe(b, r, live);
	prune_wire(b, r, local, peer, np);
}

/*
 * Tell the wire program which QPs exist (RDMA netlink's list; ingress: the
 * local QPN, egress: the peer's; plus QP 1, GSI): other QPNs, new or made
 * up, then share at most WIRE_UNKNOWN_MAX map entries, so a flood of
 * made-up QPNs cannot take the room of real ones.  Only from a complete QP
 * list; until the first one, or if setting it fails, every QP is counted.
 * Also what the program did not count per QP.
 */
static void wire_known_sync(struct source_bpf *b, struct raw *r)
{
	struct wire_loader *wl = b->wl;
	struct wire_qp_key *keys = b->keys;
	__u64 st[WIRE_NR_STATS];
	int err;
	unsigned int i;
	size_t n = 0;

	r->have_wire_refused = !wire_loader_stats(wl, st);
	if (r->have_wire_refused) {
		r->wire_refused[0] = st[WIRE_QP_DROPS];
		r->wire_refused[1] = st[WIRE_QP_UNKNOWN];
	}
	if (r->nl_err || r->qps_over)
		return;
	keys[n++] = (struct wire_qp_key){ .qpn = 1, .dir = WIRE_DIR_INGRESS };
	keys[n++] = (struct wire_qp_key){ .qpn = 1, .dir = WIRE_DIR_EGRESS };
	for (i = 0; i < r->nr_qps; i++) {
		keys[n++] = (struct wire_qp_key){ .qpn = r->qps[i].nl.qpn,
						  .dir = WIRE_DIR_INGRESS };
		if (r->qps[i].nl.rqpn)
			keys[n++] = (struct wire_qp_key){ .qpn = r->qps[i].nl.rqpn,
							  .dir = WIRE_DIR_EGRESS };
	}
	err = wire_loader_set_known(wl, keys, n);
	if (err && !b->known_failed)
		fprintf(stderr, "fabteld: wire: cannot set the known QPs (%s); counting every QP\n",
			strerror(-err));
	b->known_failed = err != 0;
}

/*
 * qp_counters = peer: each QP's peer (the GID of the AV it was given at
 * INIT->RTR) from the qp program's map, one lookup per QP.  A QP made
 * before the program loaded was seeded from RDMA netlink, which has no
 * peer: it has none here either.
 */
static void qp_peers(struct source_bpf *b, struct raw *r)
{
	struct qp_info info;
	unsigned int i;

	for (i = 0; i < r->nr_qps; i++) {
		struct raw_qp *q = &r->qps[i];

		q->has_peer = !fabbpf_qp_lookup(b->fb, q->nl.dev_index, q->nl.qpn, &info) &&
			      info.has_dgid;
		if (q->has_peer)
			memcpy(q->peer, info.dgid, sizeof(q->peer));
	}
}

/* after the QP source: pruning needs this pass's QP list; the rings' losses */
static bool bpf_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_bpf *b = priv;
	struct model *m = c->m;
	bool rxe = m->src[SRC_BPF_RXE] == SRC_STATE_UP;
	bool wire = m->src[SRC_BPF_WIRE] == SRC_STATE_UP;
	struct fabbpf_drops d;

	r->have_ring_drops = b->loaded && b->fb;
	if (r->have_ring_drops) {
		fabbpf_drops(b->fb, &d);
		r->ring_drops[0] = d.flap;
		r->ring_drops[1] = d.qp;
		r->ring_drops[2] = d.rxe;
	}
	if (c->o->qp_counters == QPC_PEER && m->src[SRC_BPF_QP] == SRC_STATE_UP)
		qp_peers(b, r);
	r->nr_rxe = r->nr_wire = 0;
	/* a walk cut off at the array's size (cb's 1) is as partial as a failed one */
	r->rxe_err = rxe && fabbpf_for_each_rxe_qp(b->fb, rxe_cb, r) != 0;
	r->wire_err = wire && wire_loader_for_each_qp(b->wl, wire_cb, r) != 0;
	if (rxe || wire)
		prune_maps(b, r);
	if (wire)			/* after the pruning: it recounts the entries */
		wire_known_sync(b, r);
	return r->have_ring_drops || rxe || wire;
}

static uint64_t bpf_pruned(const void *priv, int which)
{
	const struct source_bpf *b = priv;

	return which ? b->wire_prune.removed : b->rxe_prune.removed;
}

const struct source_ops source_bpf = {
	.name = "bpf",
	.priv_size = sizeof(struct source_bpf),
	.open = bpf_open,
	.sample = bpf_sample,
	.close = bpf_close,
	.attach_wire = bpf_attach_wire,
	.detach_wire = bpf_detach_wire,
	.start_events = bpf_start_events,
	.wait = bpf_wait,
	.pruned = bpf_pruned,
};
