// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the flight recorder: each port's recent samples in a ring, frozen
 * into a record when something happens (include/fabtel_record.h,
 * Documentation/recorder.rst).
 *
 * The sampler calls fabtel_rec_sample() once a sample, after its reads:
 * the rise of the schema counters, PFC frames, FEC and PMA counters since
 * the previous sample goes into the ring (the sampler's own; no lock).  A
 * carrier drop or a flap, an error burst, a pause storm's start or a rise
 * of PMA link_downed/link_error_recovery freezes the ring into a record
 * that goes on for record_after_ms, then is published in its slot under
 * the port's lock, where the recorder/record<k> files read it.
 *
 * Memory per port: the ring, FABTEL_REC_RING samples (24 KiB), from the
 * port's start; a record (31 KiB) for each trigger, FABTEL_REC_KEEP kept,
 * one more while recording.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "fabtel.h"

/* the file layout is ABI: include/fabtel_record.h's sizes, with no padding */
static_assert(sizeof(struct fabtel_rec_header) == 64);
static_assert(sizeof(struct fabtel_rec_sample) == 192);
static_assert(sizeof(struct fabtel_rec_trailer) == 16);
static_assert(FABTEL_REC_PRIOS == FABTEL_NR_PRIO);

static unsigned int fabtel_rec_after_ms = 2000;

static int fabtel_rec_after_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;

	if (kstrtouint(val, 0, &ms) || ms > FABTEL_REC_AFTER_MS_MAX)
		return -EINVAL;
	WRITE_ONCE(fabtel_rec_after_ms, ms);
	return 0;
}

static const struct kernel_param_ops fabtel_rec_after_ops = {
	.set = fabtel_rec_after_set,
	.get = param_get_uint,
};

module_param_cb(record_after_ms, &fabtel_rec_after_ops, &fabtel_rec_after_ms, 0644);
MODULE_PARM_DESC(record_after_ms,
		 "how long a record goes on after its trigger, ms, 0..60000 (default 2000; "
		 "32 samples at most)");

/* A record as its file is: header, samples, then the trailer once published. */
struct fabtel_rec_buf {
	struct fabtel_rec_header h;
	struct fabtel_rec_sample s[FABTEL_REC_SAMPLES];
	struct fabtel_rec_trailer t;	/* placed after s[nr_samples - 1] when published */
};

/* The totals the previous sample saw, to take rises from. */
struct fabtel_rec_prev {
	bool primed;			/* link: a sample taken */
	bool ctr_primed, pfc_primed, fec_primed, pma_primed;	/* each source read once */
	bool carrier;
	u64 flaps, ev_seq;
	u64 norm[FABTEL_NR_COUNTERS];
	u64 pause_tx[FABTEL_REC_PRIOS], pause_rx[FABTEL_REC_PRIOS], storms;
	u64 fec[2];
	u64 pma[3];			/* symbol_error, link_error_recovery, link_downed */
	u64 phy_next_ns, pma_next_ns;	/* the reads' schedule: moved when they ran */
	u64 optics_ns;			/* the module's last read taken */
	bool optics_primed;
};

struct fabtel_rec {
	/* the sampler's */
	struct fabtel_rec_sample ring[FABTEL_REC_RING];
	unsigned int head, count;
	struct fabtel_rec_prev prev;
	struct fabtel_rec_buf *cur;	/* recording, or NULL */
	unsigned int post_left;
	/* under fabtel_port.lock */
	struct fabtel_rec_buf *kept[FABTEL_REC_KEEP];
	u64 seq, dropped, triggers;
	bool recording;
	u64 alloc_failures;
};

int fabtel_rec_init(struct fabtel_port *p)
{
	p->rec = kvzalloc(sizeof(*p->rec), GFP_KERNEL);
	return p->rec ? 0 : -ENOMEM;
}

void fabtel_rec_exit(struct fabtel_port *p)
{
	unsigned int i;

	if (!p->rec)
		return;
	for (i = 0; i < FABTEL_REC_KEEP; i++)
		kvfree(p->rec->kept[i]);
	kvfree(p->rec->cur);
	kvfree(p->rec);
	p->rec = NULL;
}

/* now - before, >> shift, saturated; 0 before the first sample or after a reset */
static u32 fabtel_rec_rise(bool primed, u64 now, u64 before, unsigned int shift)
{
	if (!primed || now <= before)
		return 0;
	return (u32)min_t(u64, (now - before) >> shift, U32_MAX);
}

/* carrier, flaps, bursts: the flags and what they trigger (under p->lock) */
static u32 fabtel_rec_take_link(struct fabtel_port *p, struct fabtel_rec_prev *pv,
				struct fabtel_rec_sample *s)
{
	u32 trig = 0;

	if (p->link_up)
		s->flags |= FABTEL_REC_F_CARRIER;
	if (pv->primed && p->flaps > pv->flaps)
		s->flags |= FABTEL_REC_F_FLAP;
	if (pv->primed && ((pv->carrier && !p->link_up) || p->flaps > pv->flaps))
		trig |= FABTEL_REC_T_CARRIER;
	if (pv->primed && p->ev_seq > pv->ev_seq)
		trig |= FABTEL_REC_T_BURST;
	pv->carrier = p->link_up;
	pv->flaps = p->flaps;
	pv->ev_seq = p->ev_seq;
	return trig;
}

/* the schema counters and PFC frames: their rise, a storm's start (under p->lock) */
static u32 fabtel_rec_take_counters(struct fabtel_port *p, struct fabtel_rec_prev *pv,
				    struct fabtel_rec_sample *s)
{
	struct fabtel_prio *pr;
	u64 storms = 0;
	u32 trig = 0;
	unsigned int i, shift;

	if (p->sampled) {
		s->flags |= pv->ctr_primed ? FABTEL_REC_F_COUNTERS : 0;
		for (i = 0; i < FABTEL_NR_COUNTERS; i++) {
			shift = i == FABTEL_RX_BYTES || i == FABTEL_TX_BYTES ? 10 : 0;
			s->ctr[i] = fabtel_rec_rise(pv->ctr_primed, p->norm[i], pv->norm[i], shift);
			pv->norm[i] = p->norm[i];
		}
		pv->ctr_primed = true;
	}
	if (!p->dcb.sampled)
		return 0;
	s->flags |= pv->pfc_primed ? FABTEL_REC_F_PFC : 0;
	for (i = 0; i < FABTEL_REC_PRIOS; i++) {
		pr = &p->dcb.prio[i];
		s->pause_tx[i] = fabtel_rec_rise(pv->pfc_primed, pr->pause_tx, pv->pause_tx[i], 0);
		s->pause_rx[i] = fabtel_rec_rise(pv->pfc_primed, pr->pause_rx, pv->pause_rx[i], 0);
		pv->pause_tx[i] = pr->pause_tx;
		pv->pause_rx[i] = pr->pause_rx;
		storms += pr->storm_events;
	}
	if (pv->pfc_primed && storms > pv->storms)
		trig |= FABTEL_REC_T_STORM;
	pv->storms = storms;
	pv->pfc_primed = true;
	return trig;
}

/* FEC and PMA, read every slow_ms: a rise where their read ran since prev */
static u32 fabtel_rec_take_slow(struct fabtel_port *p, struct fabtel_rec_prev *pv,
				struct fabtel_rec_sample *s)
{
	static const enum fabtel_pma pma[3] = {
		FABTEL_PMA_SYMBOL_ERROR, FABTEL_PMA_LINK_ERROR_RECOVERY, FABTEL_PMA_LINK_DOWNED,
	};
	u32 *out[3] = { &s->symbol_error, &s->link_error_recovery, &s->link_downed };
	u32 *fec[2] = { &s->fec_corrected, &s->fec_uncorrectable };
	u32 trig = 0;
	unsigned int i;

	/* a failed read leaves next_ns where it was: a move is a read */
	if (p->phy.sampled && p->rd[FABTEL_RD_PHY].next_ns != pv->phy_next_ns &&
	    (p->phy.have_fec[0] || p->phy.have_fec[1])) {
		s->flags |= pv->fec_primed ? FABTEL_REC_F_FEC : 0;
		for (i = 0; i < 2; i++) {
			*fec[i] = p->phy.have_fec[i] ?
				  fabtel_rec_rise(pv->fec_primed, p->phy.fec[i], pv->fec[i], 0) : 0;
			pv->fec[i] = p->phy.fec[i];
		}
		pv->phy_next_ns = p->rd[FABTEL_RD_PHY].next_ns;
		pv->fec_primed = true;
	}
	if (p->pma && p->pma->valid && p->rd[FABTEL_RD_PMA].next_ns != pv->pma_next_ns) {
		s->flags |= pv->pma_primed ? FABTEL_REC_F_PMA : 0;
		for (i = 0; i < 3; i++) {
			*out[i] = fabtel_rec_rise(pv->pma_primed, p->pma->val[pma[i]], pv->pma[i], 0);
			pv->pma[i] = p->pma->val[pma[i]];
		}
		if (s->link_error_recovery || s->link_downed)
			trig |= FABTEL_REC_T_PMA;
		pv->pma_next_ns = p->rd[FABTEL_RD_PMA].next_ns;
		pv->pma_primed = true;
	}
	return trig;
}

/*
 * The module, read every module_ms: its levels where a read came since
 * prev; an alarm it flags triggers (not at the first read: SFF-8636's flags
 * latch what happened before it).
 */
static u32 fabtel_rec_take_optics(struct fabtel_port *p, struct fabtel_rec_prev *pv,
				  struct fabtel_rec_sample *s)
{
	bool alarm = false, primed = pv->optics_primed;

	if (!p->optics || p->optics->read_ns == pv->optics_ns)
		return 0;
	pv->optics_ns = p->optics->read_ns;
	pv->optics_primed = true;
	if (!fabtel_optics_brief(p->optics, &s->rx_power, &s->temperature, &alarm))
		return 0;
	s->flags |= FABTEL_REC_F_OPTICS | (alarm ? FABTEL_REC_F_OPTICS_ALARM : 0);
	return alarm && primed ? FABTEL_REC_T_OPTICS : 0;
}

/* the ring, oldest first, into a new record whose trigger is the newest sample */
static struct fabtel_rec_buf *fabtel_rec_freeze(struct fabtel_rec *r, u32 trig)
{
	struct fabtel_rec_buf *b = kvmalloc(sizeof(*b), GFP_KERNEL);
	unsigned int i, first = (r->head + FABTEL_REC_RING - r->count) % FABTEL_REC_RING;

	if (!b)
		return NULL;
	memset(&b->h, 0, sizeof(b->h));
	b->h.magic = FABTEL_REC_MAGIC;
	b->h.version = FABTEL_REC_VERSION;
	b->h.header_size = sizeof(b->h);
	b->h.sample_size = sizeof(b->s[0]);
	b->h.nr_counters = FABTEL_NR_COUNTERS;
	b->h.sample_ms = fabtel_sample_ms_get();
	b->h.first_trigger = trig & -trig;	/* the lowest bit: one kind */
	b->h.triggers = trig;
	for (i = 0; i < r->count; i++)
		b->s[i] = r->ring[(first + i) % FABTEL_REC_RING];
	b->h.nr_samples = r->count;
	b->h.trigger_index = r->count - 1;
	b->s[r->count - 1].flags |= FABTEL_REC_F_TRIGGER;
	b->h.trigger_boot_ns = b->s[r->count - 1].boot_ns;
	/* the wall clock then, not after the allocation (it may have reclaimed) */
	b->h.trigger_real_ns = ktime_get_real_ns() - (fabtel_now_boot() - b->h.trigger_boot_ns);
	return b;
}

/* the record done: numbered, its trailer placed, in its slot (the oldest out) */
static void fabtel_rec_publish(struct fabtel_port *p)
{
	struct fabtel_rec *r = p->rec;
	struct fabtel_rec_buf *b = r->cur, *old;
	struct fabtel_rec_trailer *t;
	unsigned int slot;

	spin_lock(&p->lock);
	b->h.seq = ++r->seq;
	t = (struct fabtel_rec_trailer *)&b->s[b->h.nr_samples];
	t->seq = b->h.seq;
	t->magic = FABTEL_REC_MAGIC;
	t->reserved = 0;
	slot = (b->h.seq - 1) % FABTEL_REC_KEEP;
	old = r->kept[slot];
	r->kept[slot] = b;
	r->dropped += old ? 1 : 0;
	r->recording = false;
	spin_unlock(&p->lock);
	r->cur = NULL;
	kvfree(old);
}

/* a record going on: one sample more, published when its time is up */
static void fabtel_rec_extend(struct fabtel_port *p, const struct fabtel_rec_sample *s,
			      u32 trig)
{
	struct fabtel_rec_buf *b = p->rec->cur;

	b->s[b->h.nr_samples++] = *s;
	b->h.triggers |= trig;
	if (!--p->rec->post_left || b->h.nr_samples == FABTEL_REC_SAMPLES)
		fabtel_rec_publish(p);
}

/* The sampler's, once a sample after its reads: see the top of this file. */
void fabtel_rec_sample(struct fabtel_port *p)
{
	struct fabtel_rec *r = p->rec;
	struct fabtel_rec_sample s = {};
	unsigned int post;
	u32 trig;

	if (!r)
		return;
	s.boot_ns = fabtel_now_boot();
	spin_lock(&p->lock);
	trig = fabtel_rec_take_link(p, &r->prev, &s);
	trig |= fabtel_rec_take_counters(p, &r->prev, &s);
	trig |= fabtel_rec_take_slow(p, &r->prev, &s);
	trig |= fabtel_rec_take_optics(p, &r->prev, &s);
	spin_unlock(&p->lock);
	r->prev.primed = true;
	r->ring[r->head] = s;
	r->head = (r->head + 1) % FABTEL_REC_RING;
	r->count = min_t(unsigned int, r->count + 1, FABTEL_REC_RING);
	if (r->cur) {
		fabtel_rec_extend(p, &s, trig);
		return;
	}
	if (!trig)
		return;
	r->cur = fabtel_rec_freeze(r, trig);
	spin_lock(&p->lock);
	r->triggers++;
	r->alloc_failures += r->cur ? 0 : 1;
	r->recording = !!r->cur;
	spin_unlock(&p->lock);
	if (!r->cur)
		return;
	post = DIV_ROUND_UP(READ_ONCE(fabtel_rec_after_ms), r->cur->h.sample_ms);
	r->post_left = min_t(unsigned int, post, FABTEL_REC_POST_MAX);
	if (!r->post_left)
		fabtel_rec_publish(p);
}

/* ---- sysfs: ports/<n>/recorder/ ------------------------------------------ */

/*
 * "recorder_seq N": the newest record's seq, so a reader of the snapshot
 * reads record<k> only when it rose (p->lock held by the caller).
 */
int fabtel_rec_snapshot(struct fabtel_port *p, char *buf, int n)
{
	if (!p->rec)
		return n;
	return n + sysfs_emit_at(buf, n, "recorder_seq %llu\n", p->rec->seq);
}

static struct fabtel_port *fabtel_rec_port(struct kobject *kobj)
{
	return container_of(kobj->parent, struct fabtel_port, kobj);
}

/* one counter of the recorder's, under the port's lock */
#define FABTEL_REC_ATTR(_name)							\
static ssize_t _name##_show(struct kobject *kobj, struct kobj_attribute *a,	\
			    char *buf)						\
{										\
	struct fabtel_port *p = fabtel_rec_port(kobj);				\
	u64 v;									\
										\
	spin_lock(&p->lock);							\
	v = p->rec->_name;							\
	spin_unlock(&p->lock);							\
	return sysfs_emit(buf, "%llu\n", v);					\
}										\
static struct kobj_attribute fabtel_rec_attr_##_name = __ATTR_RO(_name)

FABTEL_REC_ATTR(seq);
FABTEL_REC_ATTR(dropped);
FABTEL_REC_ATTR(recording);
FABTEL_REC_ATTR(triggers);
FABTEL_REC_ATTR(alloc_failures);

static struct attribute *fabtel_rec_attrs[] = {
	&fabtel_rec_attr_seq.attr,
	&fabtel_rec_attr_dropped.attr,
	&fabtel_rec_attr_recording.attr,
	&fabtel_rec_attr_triggers.attr,
	&fabtel_rec_attr_alloc_failures.attr,
	NULL,
};

/* record<k>: the record in slot k as its file is, empty while none */
static ssize_t fabtel_rec_read(struct file *f, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf, loff_t off,
			       size_t count)
{
	struct fabtel_port *p = fabtel_rec_port(kobj);
	unsigned long slot = (unsigned long)attr->private;
	const struct fabtel_rec_buf *b;
	size_t len;

	spin_lock(&p->lock);
	b = p->rec->kept[slot];
	len = b ? sizeof(b->h) + b->h.nr_samples * sizeof(b->s[0]) + sizeof(b->t) : 0;
	if (off >= len) {
		count = 0;
	} else {
		count = min_t(size_t, count, len - off);
		memcpy(buf, (const char *)b + off, count);
	}
	spin_unlock(&p->lock);
	return count;
}

#define FABTEL_REC_BIN(_k)							\
static struct bin_attribute fabtel_rec_bin_##_k = {				\
	.attr = { .name = "record" #_k, .mode = 0444 },				\
	.size = FABTEL_REC_FILE_MAX,						\
	.private = (void *)_k,							\
	.read = fabtel_rec_read,						\
}

FABTEL_REC_BIN(0);
FABTEL_REC_BIN(1);
FABTEL_REC_BIN(2);
FABTEL_REC_BIN(3);

static struct bin_attribute *fabtel_rec_bins[] = {
	&fabtel_rec_bin_0, &fabtel_rec_bin_1, &fabtel_rec_bin_2, &fabtel_rec_bin_3, NULL,
};

static_assert(ARRAY_SIZE(fabtel_rec_bins) - 1 == FABTEL_REC_KEEP);

static const struct attribute_group fabtel_rec_group = {
	.attrs = fabtel_rec_attrs,
	.bin_attrs = fabtel_rec_bins,
};

int fabtel_rec_sysfs_add(struct fabtel_port *p)
{
	p->rec_kobj = kobject_create_and_add("recorder", &p->kobj);
	if (!p->rec_kobj)
		return -ENOMEM;
	return sysfs_create_group(p->rec_kobj, &fabtel_rec_group);
}

/* Undo fabtel_rec_sysfs_add, also a partial one; waits out readers. */
void fabtel_rec_sysfs_del(struct fabtel_port *p)
{
	if (!p->rec_kobj)
		return;
	kobject_del(p->rec_kobj);
	kobject_put(p->rec_kobj);
	p->rec_kobj = NULL;
}
