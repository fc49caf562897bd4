// SPDX-License-Identifier: GPL-2.0
/*
 * wire_loader.c - loads bpf/wire.bpf.c through its skeleton, attaches its two
 * programs to the clsact ingress/egress hooks of interfaces with libbpf's
 * bpf_tc_* calls, remembers what it attached and undoes exactly that.
 * Reads the global per-CPU counters, walks the per-QP hash and keeps the
 * set of QPs that exist (wire_known).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfmap.h"
#include "tcfilters.h"
#include "wire_loader.h"
#include "wire.skel.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* what one wire_loader_attach() did on one interface */
struct wire_attach {
	int ifindex;
	bool own_qdisc;		/* we created clsact: delete it on detach */
	__u32 handle[2];	/* by enum wire_dir */
	__u32 priority[2];
};

struct wire_loader {
	struct wire_bpf *skel;
	__u32 slot;			/* TC handle and priority of its filters */
	struct wire_attach *att;
	size_t n_att;
	size_t cap_att;
	__u64 *known;			/* wire_known's keys, sorted (known_code()) */
	size_t n_known;
};

static const char *const wire_stat_names[] = {
	[WIRE_FRAMES]		= "frames",
	[WIRE_ROCEV2]		= "rocev2",
	[WIRE_OTHER]		= "other",
	[WIRE_TRUNCATED]	= "truncated",
	[WIRE_MALFORMED]	= "malformed",
	[WIRE_VLAN]		= "vlan",
	[WIRE_IPV6]		= "ipv6",
	[WIRE_ECN_CE]		= "ecn_ce",
	[WIRE_CNP]		= "cnp",
	[WIRE_QP_DROPS]		= "qp_drops",
	[WIRE_QP_UNKNOWN]	= "qp_unknown",
};

_Static_assert(ARRAY_SIZE(wire_stat_names) == WIRE_NR_STATS,
	       "a name for each enum wire_stat");

const char *wire_loader_stat_name(unsigned int stat)
{
	return stat < WIRE_NR_STATS ? wire_stat_names[stat] : NULL;
}

int wire_loader_open(struct wire_loader **out)
{
	struct wire_loader *wl;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	wl = calloc(1, sizeof(*wl));
	if (!wl)
		return -ENOMEM;
	wl->slot = WIRE_SLOT_FABTELD;
	wl->skel = wire_bpf__open();
	if (!wl->skel) {
		err = errno ? -errno : -EINVAL;
		goto err_free;
	}
	err = wire_bpf__load(wl->skel);
	if (err)
		goto err_destroy_skel;
	*out = wl;
	return 0;

err_destroy_skel:
	wire_bpf__destroy(wl->skel);
err_free:
	free(wl);
	return err < 0 ? err : -err;
}

static enum bpf_tc_attach_point tc_point(int dir)
{
	return dir == WIRE_DIR_EGRESS ? BPF_TC_EGRESS : BPF_TC_INGRESS;
}

static int prog_fd(const struct wire_loader *wl, int dir)
{
	return bpf_program__fd(dir == WIRE_DIR_EGRESS ? wl->skel->progs.wire_egress :
			       wl->skel->progs.wire_ingress);
}

static int tc_attach_dir(const struct wire_loader *wl, struct wire_attach *a, int dir)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = tc_point(dir));
	/* the loader's own slot, replaced if a dead run of it left one (wire_loader.h) */
	LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = prog_fd(wl, dir), .flags = BPF_TC_F_REPLACE,
		    .handle = wl->slot, .priority = wl->slot);
	int err;

	err = bpf_tc_attach(&hook, &opts);
	if (err)
		return err;
	a->handle[dir] = opts.handle;
	a->priority[dir] = opts.priority;
	return 0;
}

static int tc_detach_dir(const struct wire_attach *a, int dir)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = tc_point(dir));
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = a->handle[dir],
		    .priority = a->priority[dir]);

	return bpf_tc_detach(&hook, &opts);
}

static int clsact_create(struct wire_attach *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);
	libbpf_print_fn_t print;
	int err;

	/*
	 * An existing clsact is the common case, and libbpf relays the kernel's
	 * "Exclusivity flag on, cannot modify" for it as a warning: hush
	 * libbpf for this one call; a real failure is returned and reported.
	 */
	print = libbpf_set_print(NULL);
	err = bpf_tc_hook_create(&hook);
	libbpf_set_print(print);
	if (err == -EEXIST)
		return 0;	/* someone's clsact: use it, never delete it */
	if (!err)
		a->own_qdisc = true;
	return err;
}

/*
 * The clsact qdisc goes only if we created it and, our filters gone, no one
 * else's filter uses it (deleting it would delete theirs).  If its filters
 * cannot be counted it stays: an empty clsact is harmless, a lost filter not.
 */
static int clsact_destroy(const struct wire_attach *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);

	if (!a->own_qdisc)
		return 0;
	if (tc_filters_count(a->ifindex, false) != 0 || tc_filters_count(a->ifindex, true) != 0)
		return 0;
	return bpf_tc_hook_destroy(&hook);
}

static struct wire_attach *find_attach(struct wire_loader *wl, int ifindex)
{
	for (size_t i = 0; i < wl->n_att; i++)
		if (wl->att[i].ifindex == ifindex)
			return &wl->att[i];
	return NULL;
}

static int reserve_attach(struct wire_loader *wl)
{
	struct wire_attach *n;
	size_t cap;

	if (wl->n_att < wl->cap_att)
		return 0;
	cap = wl->cap_att ? 2 * wl->cap_att : 4;
	n = realloc(wl->att, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	wl->att = n;
	wl->cap_att = cap;
	return 0;
}

void wire_loader_slot(struct wire_loader *wl, __u32 slot)
{
	if (wl && slot)
		wl->slot = slot;
}

int wire_loader_attach(struct wire_loader *wl, int ifindex)
{
	struct wire_attach a = { .ifindex = ifindex };
	int err;

	if (!wl || ifindex <= 0)
		return -EINVAL;
	if (find_attach(wl, ifindex))
		return 0;
	err = reserve_attach(wl);
	if (err)
		return err;
	err = clsact_create(&a);
	if (err)
		return err;
	err = tc_attach_dir(wl, &a, WIRE_DIR_INGRESS);
	if (err)
		goto err_destroy_clsact;
	err = tc_attach_dir(wl, &a, WIRE_DIR_EGRESS);
	if (err)
		goto err_detach_ingress;
	wl->att[wl->n_att++] = a;
	return 0;

err_detach_ingress:
	tc_detach_dir(&a, WIRE_DIR_INGRESS);
err_destroy_clsact:
	clsact_destroy(&a);
	return err;
}

/* undo one attachment; the first error, but every step is tried */
static int undo_attach(const struct wire_attach *a)
{
	int err, ret = 0;

	err = tc_detach_dir(a, WIRE_DIR_EGRESS);
	if (err)
		ret = err;
	err = tc_detach_dir(a, WIRE_DIR_INGRESS);
	if (err && !ret)
		ret = err;
	err = clsact_destroy(a);
	if (err && !ret)
		ret = err;
	return ret;
}

int wire_loader_detach(struct wire_loader *wl, int ifindex)
{
	struct wire_attach *a;
	int err;

	if (!wl)
		return -EINVAL;
	a = find_attach(wl, ifindex);
	if (!a)
		return -ENOENT;
	err = undo_attach(a);
	*a = wl->att[--wl->n_att];
	return err;
}

void wire_loader_detach_all(struct wire_loader *wl)
{
	if (!wl)
		return;
	/* reverse order; an interface that went away took its hooks along */
	while (wl->n_att)
		undo_attach(&wl->att[--wl->n_att]);
}

void wire_loader_close(struct wire_loader *wl)
{
	if (!wl)
		return;
	wire_loader_detach_all(wl);
	free(wl->att);
	free(wl->known);
	wire_bpf__destroy(wl->skel);
	free(wl);
}

int wire_loader_stats(struct wire_loader *wl, __u64 out[WIRE_NR_STATS])
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *vals;
	int fd, err = 0;

	if (!wl || !out)
		return -EINVAL;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	vals = calloc(ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	fd = bpf_map__fd(wl->skel->maps.wire_stats);
	for (__u32 k = 0; k < WIRE_NR_STATS; k++) {
		err = bpf_map_lookup_elem(fd, &k, vals);
		if (err)
			break;
		out[k] = 0;
		for (int c = 0; c < ncpu; c++)
			out[k] += vals[c];
	}
	free(vals);
	return err;
}

struct qp_walk {
	wire_qp_cb cb;
	void *ctx;
};

static int qp_walk_one(const void *k, const void *v, void *ctx)
{
	struct qp_walk *w = ctx;

	return w->cb(k, v, w->ctx);
}

int wire_loader_for_each_qp(struct wire_loader *wl, wire_qp_cb cb, void *ctx)
{
	struct qp_walk w = { cb, ctx };

	if (!wl || !cb)
		return -EINVAL;
	return bpfmap_walk(bpf_map__fd(wl->skel->maps.wire_qps), sizeof(struct wire_qp_key),
			   sizeof(struct wire_qp_val), qp_walk_one, &w);
}

int wire_loader_forget_qp(struct wire_loader *wl, const struct wire_qp_key *key)
{
	if (!wl || !key)
		return -EINVAL;
	/* libbpf 1.x returns the negative errno */
	return bpf_map_delete_elem(bpf_map__fd(wl->skel->maps.wire_qps), key);
}

/* Delete every entry of a wire_qp_key map: 0 or negative errno. */
static int map_clear(int fd)
{
	struct wire_qp_key key;
	int err = 0;

	/* always the first key, so deletions never derail the walk; bounded */
	for (int i = 0; !err && i < 2 * WIRE_QP_MAX_ENTRIES; i++) {
		if (bpf_map_get_next_key(fd, NULL, &key))
			break;
		err = bpf_map_delete_elem(fd, &key);
		if (err == -ENOENT)	/* deleted meanwhile */
			err = 0;
	}
	return err;
}

int wire_loader_reset(struct wire_loader *wl)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *zero;
	int fd, err = 0;

	if (!wl)
		return -EINVAL;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	zero = calloc(ncpu, sizeof(*zero));
	if (!zero)
		return -ENOMEM;
	fd = bpf_map__fd(wl->skel->maps.wire_stats);
	for (__u32 k = 0; k < WIRE_NR_STATS && !err; k++)
		err = bpf_map_update_elem(fd, &k, zero, BPF_ANY);
	free(zero);
	return err ? err : map_clear(bpf_map__fd(wl->skel->maps.wire_qps));
}

int wire_loader_prog_fd(struct wire_loader *wl, int dir)
{
	return wl ? prog_fd(wl, dir) : -EINVAL;
}

static __u64 known_code(const struct wire_qp_key *k)
{
	return (__u64)(k->qpn & WIRE_PSN_MASK) << 8 | k->dir;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

static bool known_has(const __u64 *set, size_t n, __u64 code)
{
	return n && bsearch(&code, set, n, sizeof(*set), cmp_u64);
}

/* write the difference between wl->known and set into the map */
static int known_sync(struct wire_loader *wl, const __u64 *set, size_t n)
{
	int fd = bpf_map__fd(wl->skel->maps.wire_known);
	struct wire_qp_key key = {};
	__u8 one = 1;
	int err = 0, e;
	size_t i;

	for (i = 0; i < wl->n_known; i++) {
		if (known_has(set, n, wl->known[i]))
			continue;
		key.qpn = (__u32)(wl->known[i] >> 8);
		key.dir = (__u8)wl->known[i];
		e = bpf_map_delete_elem(fd, &key);
		if (e && e != -ENOENT && !err)
			err = e;
	}
	for (i = 0; i < n; i++) {
		if (known_has(wl->known, wl->n_known, set[i]))
			continue;
		key.qpn = (__u32)(set[i] >> 8);
		key.dir = (__u8)set[i];
		e = bpf_map_update_elem(fd, &key, &one, BPF_ANY);
		if (e && !err)
			err = e;
	}
	return err;
}

struct unknown_count {
	const struct wire_loader *wl;
	__u32 n;
};

static int count_unknown(const void *key, const void *val, void *ctx)
{
	struct unknown_count *c = ctx;

	(void)val;
	if (!known_has(c->wl->known, c->wl->n_known, known_code(key)))
		c->n++;
	return 0;
}

/* wire_unknown_entries counts entries made; the loader's deletions it cannot see */
static int recount_unknown(struct wire_loader *wl)
{
	struct unknown_count c = { wl, 0 };
	int err;

	err = bpfmap_walk(bpf_map__fd(wl->skel->maps.wire_qps), sizeof(struct wire_qp_key),
			  sizeof(struct wire_qp_val), count_unknown, &c);
	if (err)
		return err < 0 ? err : -EIO;
	wl->skel->bss->wire_unknown_entries = c.n;
	return 0;
}

int wire_loader_set_known(struct wire_loader *wl, const struct wire_qp_key *keys, size_t n)
{
	__u64 *set;
	size_t i, m = 0;
	int err;

	if (!wl || (n && !keys) || n > WIRE_QP_MAX_ENTRIES)
		return -EINVAL;
	set = calloc(n ? n : 1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		set[i] = known_code(&keys[i]);
	qsort(set, n, sizeof(*set), cmp_u64);
	for (i = 0; i < n; i++)		/* duplicates out */
		if (!m || set[m - 1] != set[i])
			set[m++] = set[i];
	err = known_sync(wl, set, m);
	if (err) {
		/* the map is between the two sets: start over from empty next time */
		free(set);
		wire_loader_reset_known(wl);
		return err;
	}
	free(wl->known);
	wl->known = set;
	wl->n_known = m;
	err = recount_unknown(wl);
	if (err) {
		wire_loader_reset_known(wl);
		return err;
	}
	wl->skel->bss->wire_known_only = 1;
	return 0;
}

int wire_loader_reset_known(struct wire_loader *wl)
{
	if (!wl)
		return -EINVAL;
	wl->skel->bss->wire_known_only = 0;
	free(wl->known);
	wl->known = NULL;
	wl->n_known = 0;
	return map_clear(bpf_map__fd(wl->skel->maps.wire_known));
}
