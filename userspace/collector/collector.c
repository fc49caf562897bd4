// SPDX-License-Identifier: GPL-2.0
/*
 * collector.c - a struct collector's shared parts made and let go
 * (collector.h).
 */
#include <stdlib.h>
#include <string.h>

#include "collector.h"

struct collector *collector_new(struct model *m, const struct collect_opts *o)
{
	struct collector *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->m = m;
	if (m && o != &m->opts)
		m->opts = *o;
	c->o = m ? &m->opts : o;
	fs_kept_init(&c->kept, c->o->sysfs_root, c->o->keep_files);
	devices_init(&c->devs, c->o, &c->kept, &c->walk);
	sysfs_plan_init(&c->plans, &c->kept);
	port_backoffs_init(&c->backoffs);
	port_rate_init(&c->rates, c->o, &c->kept);
	ko_events_init(&c->ko_events, c->o, &c->kept);
	records_init(&c->recs, c->o->record_dir);
	c->ko_events.recs = &c->recs;
	netdev_bytes_init(&c->nd, c->o, &c->kept);
	fold_init(&c->fold);
	return c;
}

void collector_free(struct collector *c)
{
	if (!c)
		return;
	sysfs_plan_fini(&c->plans);
	records_free(&c->recs);
	fs_kept_fini(&c->kept);
	free(c);
}
