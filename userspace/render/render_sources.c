// SPDX-License-Identifier: GPL-2.0
/*
 * render_sources.c - how each port's reads of its driver fare, as
 * fabtel.ko reports its own and fabteld keeps its own (port_reads.h), as
 * Prometheus families: up or not, the failing read's errno, its failures.
 * A read the port does not support has no series; one that fails has no
 * values elsewhere while it backs off (Documentation/metrics.rst).
 */
#include "labels.h"
#include "render.h"

enum source_family { SF_UP, SF_ERRNO, SF_FAILURES, SF_NR };

static const struct {
	const char *name, *type, *help;
} families[SF_NR] = {
	[SF_UP] = { "fabtel_port_source_up", "gauge",
		    "1 while the port's read of its driver (source: hw_counters, hw_counters_netlink, pma, dcb, phy, module, link_modes, ethtool_stats) by reader (fabtel.ko, fabteld) answers, 0 while it fails and backs off (its values are absent meanwhile); no series for a read the port does not support." },
	[SF_ERRNO] = { "fabtel_port_source_errno", "gauge",
		       "The errno the read's last failure returned (5 EIO, 22 EINVAL, 110 ETIMEDOUT, ...), while fabtel_port_source_up is 0." },
	[SF_FAILURES] = { "fabtel_port_source_failures_total", "counter",
			  "Failed calls of the read since the port was added (by fabtel.ko, or first read by fabteld)." },
};

/* the value of family f for a read in state s; false: no series */
static bool source_value(enum source_family f, const struct read_status *s, uint64_t *v)
{
	bool failing = s->state == BACKOFF_FAILING;

	if (!failing && s->state != BACKOFF_OK)
		return false;	/* unsupported, or not reported */
	switch (f) {
	case SF_UP:
		*v = !failing;
		return true;
	case SF_ERRNO:
		*v = (uint64_t)-(int64_t)s->err;
		return failing && s->err < 0;
	default:
		*v = s->failures;
		return true;
	}
}

static void source_family(const struct model *m, struct expo *e, enum source_family f)
{
	struct port_labels pl;
	unsigned int i, who, rd;
	bool any = false;
	uint64_t v;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		for (who = 0; p->present && who < READER_NR; who++) {
			for (rd = 0; rd < PR_NR; rd++) {
				if (!source_value(f, &p->reads.s[who][rd], &v))
					continue;
				if (!any)
					expo_family(e, families[f].name, families[f].type,
						    families[f].help);
				any = true;
				port_labels(&pl, p, "source", port_read_name(rd));
				pl.l[4] = (struct expo_label){ "reader", port_reader_name(who) };
				pl.l[5] = (struct expo_label){ NULL, NULL };
				expo_u64(e, families[f].name, pl.l, v);
			}
		}
	}
}

void render_source_families(const struct model *m, struct expo *e)
{
	unsigned int f;

	for (f = 0; f < SF_NR; f++)
		source_family(m, e, f);
}
