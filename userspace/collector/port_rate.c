// SPDX-License-Identifier: GPL-2.0
/*
 * port_rate.c - ports/<n>/rate, read when it can have changed.  ib_core
 * answers the file by asking the driver (ib_query_port; rxe takes RTNL for
 * it) and the rate moves only with the link, so a port's last reading is
 * used again while its state, its netdev's speed and its carrier-down count
 * are those of that reading, for up to PORT_RATE_TTL samples.  A rate that
 * changes with none of these (a lane lost without a flap, on a driver that
 * reports the netdev speed unchanged) is seen up to PORT_RATE_TTL samples
 * late (Documentation/collector.rst).
 */
#include <stdio.h>
#include <string.h>

#include "fskept.h"
#include "port_rate.h"
#include "sysfs_plan.h"
#include "text.h"

#define PORT_RATE_TTL	10

void port_rate_init(struct port_rates *pr, const struct collect_opts *o, struct fs_kept *kept)
{
	memset(pr, 0, sizeof(*pr));
	pr->o = o;
	pr->kept = kept;
}

static bool same_link(const struct port_rate *r, const struct raw_port *p)
{
	return !strcmp(r->state, p->state) &&
	       r->have_nd_speed == p->have_nd_speed && r->nd_speed_mbps == p->nd_speed_mbps &&
	       r->have_flaps == p->have_flaps && r->flaps == p->flaps;
}

static struct port_rate *find_slot(struct port_rates *pr, const struct raw_port *p)
{
	unsigned int i;

	if (pr->rates[pr->hint].port == p->port && !strcmp(pr->rates[pr->hint].device, p->device))
		return &pr->rates[pr->hint];
	for (i = 0; i < PORT_RATE_SLOTS; i++)
		if (pr->rates[i].port == p->port && !strcmp(pr->rates[i].device, p->device))
			return &pr->rates[i];
	for (i = 0; i < PORT_RATE_SLOTS; i++)
		if (!pr->rates[i].device[0])
			return &pr->rates[i];
	pr->next_victim = (pr->next_victim + 1) % PORT_RATE_SLOTS;	/* ports came and went */
	return &pr->rates[pr->next_victim];
}

static struct port_rate *slot_of(struct port_rates *pr, const struct raw_port *p)
{
	struct port_rate *r = find_slot(pr, p);

	pr->hint = (unsigned int)(r - pr->rates + 1) % PORT_RATE_SLOTS;
	return r;
}

static void read_rate(struct port_rates *pr, struct raw_port *p)
{
	char path[PLAN_BASE_LEN + 16], buf[64];

	fs_path(pr->o->sysfs_root, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/rate",
		p->device, p->port);
	if (fs_read_kept(pr->kept, path, buf, sizeof(buf)) > 0 &&
	    !port_rate_parse(buf, &p->rate_mbps, &p->lanes))
		p->have_rate = true;
}

void port_rate_read(struct port_rates *pr, struct raw_port *p)
{
	struct port_rate *r = slot_of(pr, p);

	if (r->device[0] && r->port == p->port && !strcmp(r->device, p->device) &&
	    same_link(r, p) && ++r->age < PORT_RATE_TTL) {
		p->rate_mbps = r->rate_mbps;
		p->lanes = r->lanes;
		p->have_rate = r->have_rate;
		return;
	}
	read_rate(pr, p);
	text_copy(r->device, sizeof(r->device), p->device);
	r->port = p->port;
	text_copy(r->state, sizeof(r->state), p->state);
	r->nd_speed_mbps = p->nd_speed_mbps;
	r->have_nd_speed = p->have_nd_speed;
	r->flaps = p->flaps;
	r->have_flaps = p->have_flaps;
	r->age = 0;
	r->rate_mbps = p->rate_mbps;
	r->lanes = p->lanes;
	r->have_rate = p->have_rate;
}

int port_rate_parse(const char *s, uint64_t *mbps, unsigned int *width)
{
	double gbps;
	unsigned int w;
	char unit[16];

	if (sscanf(s, "%lf %15s (%uX", &gbps, unit, &w) != 3 || strcmp(unit, "Gb/sec") ||
	    !(gbps > 0 && gbps < 1e6) || !w || w > 64)
		return -1;
	*mbps = (uint64_t)(gbps * 1000 + 0.5);
	*width = w;
	return 0;
}
