// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - when each of a port's reads is due, and back-off when one fails.
 *
 * On a ConnectX-class NIC every read the sampler makes of the driver (the
 * hw_counters query, the PMA's MADs, the DCB queries, the PHY's FEC and
 * link settings, the module's EEPROM pages) is a firmware command.  Each
 * read has a period (sample_ms for the counters and PFC, slow_ms for the
 * PMA, the PHY and the ETS configuration, module_ms for the module), and a
 * read that fails is not asked again before a back-off: the period or 1 s,
 * whichever is longer, doubled at each failure in a row up to 300 s.  One
 * success ends it.  A device whose firmware refuses a read (a fabric-
 * managed port of a GB200 host refuses the port counter registers) thus
 * costs a few commands an hour, not one per sample.
 *
 * The first failure of a port's reads is logged once; further failures of
 * that port are not logged for an hour, and the return of a read whose
 * failure was logged is logged once.  Every read's state is in the port's
 * snapshot: "source NAME STATE ERRNO FAILURES RETRY_MS".
 *
 * Called by the sampler only (the state is written under p->lock, so that
 * the snapshot sees it whole).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/minmax.h>

#include "fabtel.h"

#define FABTEL_BACKOFF_MIN_MS	1000
#define FABTEL_BACKOFF_MAX_MS	300000
#define FABTEL_LOG_QUIET_NS	(3600ULL * NSEC_PER_SEC)

static const char * const fabtel_rd_names[FABTEL_NR_RD] = {
	[FABTEL_RD_HW_COUNTERS] = "hw_counters",
	[FABTEL_RD_PMA] = "pma",
	[FABTEL_RD_DCB] = "dcb",
	[FABTEL_RD_PHY] = "phy",
	[FABTEL_RD_OPTICS] = "module",
};

/* True when @rd may be asked now: its period passed and no back-off holds it. */
bool fabtel_rd_due(struct fabtel_port *p, enum fabtel_rd rd, u64 now)
{
	bool due;

	spin_lock(&p->lock);
	due = now >= p->rd[rd].next_ns;
	spin_unlock(&p->lock);
	return due;
}

static void fabtel_rd_log_failure(struct fabtel_port *p, enum fabtel_rd rd,
				  int err, u64 now)
{
	if (p->rd_logged_ns && now - p->rd_logged_ns < FABTEL_LOG_QUIET_NS)
		return;
	p->rd_logged_ns = now;
	p->rd[rd].logged = true;
	pr_warn("%s port %u: %s read failed (%d); retried with back-off up to %u s, not logged again for an hour\n",
		dev_name(&p->fdev->ibdev->dev), p->num, fabtel_rd_names[rd],
		err, FABTEL_BACKOFF_MAX_MS / 1000);
}

/*
 * The outcome of a read of @rd: 0, or the -errno it failed with.  The next
 * is due @period_ms later (0: at the next sample), or after the back-off.
 */
void fabtel_rd_done(struct fabtel_port *p, enum fabtel_rd rd, int err, u64 now,
		    unsigned int period_ms)
{
	struct fabtel_rd_state *s = &p->rd[rd];
	bool recovered = false;
	u32 delay;

	spin_lock(&p->lock);
	if (!err) {
		recovered = s->logged;
		s->logged = false;
		s->failing = false;
		s->delay_ms = 0;
		s->next_ns = now + (u64)period_ms * NSEC_PER_MSEC;
	} else {
		delay = max_t(u32, period_ms, FABTEL_BACKOFF_MIN_MS);
		if (s->delay_ms)
			delay = max_t(u32, delay, 2 * s->delay_ms);
		s->delay_ms = min_t(u32, delay, FABTEL_BACKOFF_MAX_MS);
		s->next_ns = now + (u64)s->delay_ms * NSEC_PER_MSEC;
		s->err = err;
		s->failures++;
		if (!s->failing)
			fabtel_rd_log_failure(p, rd, err, now);
		s->failing = true;
	}
	spin_unlock(&p->lock);
	if (recovered)
		pr_info("%s port %u: %s read answered again\n",
			dev_name(&p->fdev->ibdev->dev), p->num, fabtel_rd_names[rd]);
}

/* Snapshot lines (p->lock held): one "source" line per read. */
int fabtel_rd_snapshot(struct fabtel_port *p, char *buf, int n)
{
	bool supported[FABTEL_NR_RD] = {
		[FABTEL_RD_HW_COUNTERS] = !!p->stats,
		[FABTEL_RD_PMA] = !!p->pma,
		[FABTEL_RD_DCB] = p->dcb.pfc_supported || p->dcb.ets_supported,
		[FABTEL_RD_PHY] = true,
		[FABTEL_RD_OPTICS] = fabtel_optics_ms_get() != 0,
	};
	const struct fabtel_rd_state *s;
	unsigned int i;

	for (i = 0; i < FABTEL_NR_RD; i++) {
		s = &p->rd[i];
		if (!supported[i])
			n += sysfs_emit_at(buf, n, "source %s unsupported 0 %llu 0\n",
					   fabtel_rd_names[i], s->failures);
		else if (s->failing)
			n += sysfs_emit_at(buf, n, "source %s unavailable %d %llu %u\n",
					   fabtel_rd_names[i], s->err,
					   s->failures, s->delay_ms);
		else
			n += sysfs_emit_at(buf, n, "source %s ok 0 %llu 0\n",
					   fabtel_rd_names[i], s->failures);
	}
	return n;
}
