// SPDX-License-Identifier: GPL-2.0
/*
 * devices.c - the RDMA devices the port walk lists (devices.h).  Each has an
 * entry, made when it is first listed: whether the include/exclude lists
 * leave it out (the device lists first, from its name alone; then the
 * driver lists, its driver read from links, devshape.c) and, for a device
 * kept, its shape.  The entries are read again after a walk that listed
 * another set of devices than the walk of that directory before (a device
 * came or went: a PF's VF count, a VF's PF may have changed with it), at
 * the walk after; otherwise never.  On the kernel's tree the listing itself
 * is kept between walks (fswalk.c): a device is seen within 10 walks.
 */
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "fnv.h"
#include "text.h"

static struct dev_entry *find(struct devices *d, const char *dev, uint32_t h)
{
	unsigned int i;

	for (i = 0; i < d->nr_entries; i++)
		if (d->table[i].hash == h && !strcmp(d->table[i].name, dev))
			return &d->table[i];
	return NULL;
}

/* a new entry for dev: a free one, else the one listed longest ago */
static struct dev_entry *add(struct devices *d, const char *dev, uint32_t h)
{
	struct dev_entry *e = &d->table[0];
	unsigned int i;

	if (d->nr_entries < DEVICES_MAX) {
		e = &d->table[d->nr_entries++];
	} else {
		for (i = 1; i < DEVICES_MAX; i++)
			if (d->table[i].seen < e->seen)
				e = &d->table[i];
	}
	memset(e, 0, sizeof(*e));
	text_copy(e->name, sizeof(e->name), dev);
	e->hash = h;
	return e;
}

struct dev_walk {
	struct devices *d;
	const struct collect_opts *o;
	const char *ko_dir;		/* fabtel.ko's, when it is the one walked */
	uint32_t names;			/* the hash of the names listed so far */
	unsigned int refreshed;		/* entries read in this walk */
	int (*fn)(void *ctx, const char *base, const char *dev, const char *port);
	void *ctx;
};

/* the entry's fate and shape, read now (the device's name first: no read for it) */
static void refresh(struct dev_walk *w, struct dev_entry *e)
{
	struct devices *d = w->d;
	const struct devfilter *f = w->o->devfilter;
	const char *root = w->o->sysfs_root;

	e->gen = d->gen;
	e->driver[0] = '\0';
	memset(&e->shape, 0, sizeof(e->shape));
	e->excluded = devfilter_by_name(f, e->name, &e->hit);
	if (e->excluded)
		return;
	devshape_driver(root, e->name, w->ko_dir, e->driver, sizeof(e->driver));
	e->excluded = devfilter_by_driver(f, e->name, e->driver, &e->hit);
	if (e->excluded)
		return;
	devshape_read(root, e->name, &e->shape);
	w->refreshed++;
}

static bool keep_device(void *ctx, const char *dev)
{
	struct dev_walk *w = ctx;
	struct devices *d = w->d;
	uint32_t h = fnv1a_str(FNV1A_INIT, dev);
	struct dev_entry *e = find(d, dev, h);

	w->names = fnv1a_u32(w->names, h);
	if (!e)
		e = add(d, dev, h);
	if (e->gen != d->gen)
		refresh(w, e);
	e->seen = d->walks + 1;
	return !e->excluded;
}

static int walk_port(void *ctx, const char *base, const char *dev, const char *port)
{
	struct dev_walk *w = ctx;

	return w->fn(w->ctx, base, dev, port);
}

/* a VF's PF by the PF's PCI address, among the devices read (kept ones) */
static void link_pfs(struct devices *d)
{
	unsigned int i, k;

	for (i = 0; i < d->nr_entries; i++) {
		struct dev_shape *s = &d->table[i].shape;

		s->pf_device[0] = '\0';
		for (k = 0; s->pf[0] && k < d->nr_entries; k++)
			if (k != i && !d->table[k].excluded && !strcmp(d->table[k].shape.pci, s->pf))
				text_copy(s->pf_device, sizeof(s->pf_device), d->table[k].name);
	}
}

int devices_walk_ports(struct devices *d, const char *dir, bool ko,
		       int (*fn)(void *ctx, const char *base, const char *dev, const char *port),
		       void *ctx)
{
	struct dev_walk w = { .d = d, .o = d->o, .ko_dir = ko ? dir : NULL, .names = FNV1A_INIT,
			      .fn = fn, .ctx = ctx };
	int err = fs_walk_ports_keep(d->walk, d->kept, dir, keep_device, walk_port, &w);

	if (err)
		return err;
	d->walks++;
	if (d->lists[ko].known && d->lists[ko].names != w.names)
		d->gen++;		/* read every entry again at the next walk */
	d->lists[ko].known = true;
	d->lists[ko].names = w.names;
	if (w.refreshed)
		link_pfs(d);
	d->last_qp_dev.name[0] = '\0';
	return 0;
}

bool devices_excluded(struct devices *d, const char *dev)
{
	const struct collect_opts *o = d->o;
	struct dev_entry *e;

	if (!devfilter_active(o->devfilter))
		return false;
	if (!strcmp(d->last_qp_dev.name, dev))
		return d->last_qp_dev.excluded;	/* a device's QPs come together */
	e = find(d, dev, fnv1a_str(FNV1A_INIT, dev));
	text_copy(d->last_qp_dev.name, sizeof(d->last_qp_dev.name), dev);
	d->last_qp_dev.excluded = e ? e->excluded : devfilter_by_name(o->devfilter, dev, NULL);
	return d->last_qp_dev.excluded;
}

static int cmp_hit(const void *a, const void *b)
{
	return strverscmp(((const struct devfilter_hit *)a)->device,
			  ((const struct devfilter_hit *)b)->device);
}

/* the devices the last walk listed and left out, in version order, into the model */
static void fold_excluded(struct devices *d, struct model *m)
{
	struct devfilter_hit *hits = d->hits;
	unsigned int i, n = 0, more = 0;

	for (i = 0; i < d->nr_entries; i++) {
		if (!d->table[i].excluded || d->table[i].seen != d->walks)
			continue;
		if (n == MODEL_MAX_EXCLUDED)
			more++;
		else
			hits[n++] = d->table[i].hit;
	}
	qsort(hits, n, sizeof(hits[0]), cmp_hit);
	if (n == m->nr_excluded && more == m->excluded_more &&
	    !memcmp(hits, m->excluded, n * sizeof(hits[0])))
		return;
	memcpy(m->excluded, hits, n * sizeof(hits[0]));
	m->nr_excluded = n;
	m->excluded_more = more;
	m->excluded_gen++;
}

void devices_fold(struct devices *d, struct model *m)
{
	unsigned int i;

	for (i = 0; i < m->port_slots; i++) {
		struct model_port *p = &m->ports[i];
		const struct dev_entry *e;

		if (!p->present || !(e = find(d, p->device, fnv1a_str(FNV1A_INIT, p->device))))
			continue;
		p->shape = e->shape;
		if (strcmp(p->netdev, e->shape.bond))	/* another port of the device */
			p->shape.bond[0] = p->shape.bond_slaves[0] = '\0';
		if (!strcmp(p->driver, "-") && e->driver[0] && strcmp(e->driver, "-"))
			text_copy(p->driver, sizeof(p->driver), e->driver);
	}
	if (devfilter_active(m->opts.devfilter) || m->nr_excluded)
		fold_excluded(d, m);
}

void devices_init(struct devices *d, const struct collect_opts *o, struct fs_kept *kept,
		  struct fs_walk *walk)
{
	memset(d, 0, sizeof(*d));
	d->gen = 1;
	d->o = o;
	d->kept = kept;
	d->walk = walk;
}
