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

#include "fsread.h"
#include "source.h"
#include "sysfs_plan.h"
#include "text.h"

#define PORT_RATE_TTL	10
#define PORT_RATE_SLOTS	(2 * MODEL_MAX_PORTS)

struct port_rate {
	char device[64];
	uint32_t port;
	char state[24];
	uint64_t nd_speed_mbps, flaps;
	bool have_nd_speed, have_flaps;
	unsigned int age;		/* samples since the file was read */
	uint64_t rate_mbps;
	unsigned int lanes;
	bool have_rate;
};

static struct port_rate rates[PORT_RATE_SLOTS];
static unsigned int next_victim;
static unsigned int hint;	/* the slot after the last found: the walk's order */

static bool same_link(const struct port_rate *r, const struct raw_port *p)
{
	return !strcmp(r->state, p->state) &&
	       r->have_nd_speed == p->have_nd_speed && r->nd_speed_mbps == p->nd_speed_mbps &&
	       r->have_flaps == p->have_flaps && r->flaps == p->flaps;
}

static struct port_rate *find_slot(const struct raw_port *p)
{
	unsigned int i;

	if (rates[hint].port == p->port && !strcmp(rates[hint].device, p->device))
		return &rates[hint];
	for (i = 0; i < PORT_RATE_SLOTS; i++)
		if (rates[i].port == p->port && !strcmp(rates[i].device, p->device))
			return &rates[i];
	for (i = 0; i < PORT_RATE_SLOTS; i++)
		if (!rates[i].device[0])
			return &rates[i];
	next_victim = (next_victim + 1) % PORT_RATE_SLOTS;	/* ports came and went */
	return &rates[next_victim];
}

static struct port_rate *slot_of(const struct raw_port *p)
{
	struct port_rate *r = find_slot(p);

	hint = (unsigned int)(r - rates + 1) % PORT_RATE_SLOTS;
	return r;
}

static void read_rate(const struct collect_opts *o, struct raw_port *p)
{
	char path[PLAN_BASE_LEN + 16], buf[64];

	fs_path(o->sysfs_root, path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/rate",
		p->device, p->port);
	if (fs_read_kept(path, buf, sizeof(buf)) > 0 &&
	    !sysfs_parse_rate(buf, &p->rate_mbps, &p->lanes))
		p->have_rate = true;
}

void port_rate_read(const struct collect_opts *o, struct raw_port *p)
{
	struct port_rate *r = slot_of(p);

	if (r->device[0] && r->port == p->port && !strcmp(r->device, p->device) &&
	    same_link(r, p) && ++r->age < PORT_RATE_TTL) {
		p->rate_mbps = r->rate_mbps;
		p->lanes = r->lanes;
		p->have_rate = r->have_rate;
		return;
	}
	read_rate(o, p);
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
