// SPDX-License-Identifier: GPL-2.0
/*
 * records.c - flight records (records.h): parsed from a record file's
 * bytes, read from fabtel.ko when a port's recorder_seq rose, folded into
 * the model's newest REC_KEEP, looked up for the API and the events.  What
 * record_dir holds is records_dir.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "records.h"
#include "records_dir.h"
#include "schema.h"

#define REC_TRIES	3	/* reads of a file torn by a replacement, at most */

int rec_parse(const unsigned char *buf, size_t len, struct rec *r)
{
	struct fabtel_rec_header h;
	struct fabtel_rec_trailer t;
	size_t want;

	if (len < sizeof(h) + sizeof(t))
		return -EPROTO;
	memcpy(&h, buf, sizeof(h));
	if (h.magic != FABTEL_REC_MAGIC || h.version != FABTEL_REC_VERSION ||
	    h.header_size != sizeof(h) || h.sample_size != sizeof(struct fabtel_rec_sample) ||
	    h.nr_counters != FABTEL_NR_COUNTERS || !h.nr_samples ||
	    h.nr_samples > FABTEL_REC_SAMPLES || h.trigger_index >= h.nr_samples || !h.seq ||
	    !h.sample_ms)
		return -EPROTO;
	want = sizeof(h) + (size_t)h.nr_samples * sizeof(struct fabtel_rec_sample) + sizeof(t);
	if (len != want) {
		/* a replacement between reads, or a file of another shape */
		return len > sizeof(h) + sizeof(t) ? -EAGAIN : -EPROTO;
	}
	memcpy(&t, buf + want - sizeof(t), sizeof(t));
	if (t.magic != FABTEL_REC_MAGIC || t.seq != h.seq)
		return -EAGAIN;
	r->s = malloc((size_t)h.nr_samples * sizeof(r->s[0]));
	if (!r->s)
		return -ENOMEM;
	memcpy(r->s, buf + sizeof(h), (size_t)h.nr_samples * sizeof(r->s[0]));
	r->h = h;
	return 0;
}

uint64_t rec_sample_real_ns(const struct rec *r, unsigned int i)
{
	return r->h.trigger_real_ns + r->s[i].boot_ns - r->h.trigger_boot_ns;
}

ssize_t rec_read_fd(struct records *rs, int fd)
{
	size_t len = 0;
	ssize_t got;

	/* sysfs hands a binary file out a page per read */
	while (len < sizeof(rs->buf) &&
	       (got = read(fd, rs->buf + len, sizeof(rs->buf) - len)) > 0)
		len += (size_t)got;
	close(fd);
	return len > FABTEL_REC_FILE_MAX ? -EFBIG : (ssize_t)len;
}

/* the file's bytes into rs->buf: its length, or -errno */
static ssize_t read_whole(struct records *rs, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : rec_read_fd(rs, fd);
}

/* record seq of a port, from its slot: 0 into pending, else -errno */
static int read_one(struct records *rs, const char *base, const char *device, uint32_t port,
		    uint64_t seq)
{
	struct rec *r = &rs->pending[rs->nr_pending];
	char path[1100];
	ssize_t len;
	int err = -EAGAIN, tries;

	snprintf(path, sizeof(path), "%s/recorder/record%u", base,
		 (unsigned int)((seq - 1) % FABTEL_REC_KEEP));
	for (tries = 0; tries < REC_TRIES && err == -EAGAIN; tries++) {
		memset(r, 0, sizeof(*r));
		len = read_whole(rs, path);
		err = len < 0 ? (int)len : rec_parse(rs->buf, (size_t)len, r);
	}
	if (err == -ENOENT)
		return err;	/* the port went away */
	if (err) {
		rs->counts.bad++;
		return err;
	}
	if (r->h.seq != seq) {
		free(r->s);		/* replaced by a newer one before this read */
		r->s = NULL;
		rs->counts.missed++;
		return -ESTALE;
	}
	snprintf(r->device, sizeof(r->device), "%s", device);
	r->port = port;
	r->saved = false;	/* records_persist writes it, once kept */
	rs->counts.read++;
	rs->nr_pending++;
	return 0;
}

uint64_t records_read_port(struct records *rs, const char *base, const char *device,
			   uint32_t port, uint64_t after, uint64_t last, bool first)
{
	uint64_t seq;

	if (last <= after)
		return last;
	if (last - after > FABTEL_REC_KEEP) {
		rs->counts.missed += first ? 0 : last - after - FABTEL_REC_KEEP;
		after = last - FABTEL_REC_KEEP;
	}
	for (seq = after + 1; seq <= last; seq++) {
		/* a pass's worth read: the rest at the next pass */
		if (rs->nr_pending == REC_PENDING ||
		    read_one(rs, base, device, port, seq) == -ENOENT)
			return seq - 1;
	}
	return last;
}

void records_init(struct records *rs, const char *dir)
{
	memset(rs, 0, sizeof(*rs));
	snprintf(rs->dir, sizeof(rs->dir), "%s", dir ? dir : "");
	records_dir_load(rs);	/* each one saved */
}

void records_free(struct records *rs)
{
	unsigned int i;

	for (i = 0; i < rs->nr_pending; i++)
		free(rs->pending[i].s);
	rs->nr_pending = 0;
}

static bool same_rec(const struct rec *a, const struct rec *b)
{
	return a->port == b->port && a->h.seq == b->h.seq &&
	       a->h.trigger_real_ns == b->h.trigger_real_ns && !strcmp(a->device, b->device);
}

struct rec *rec_slot(struct rec *set, unsigned int *nr, unsigned int cap, const struct rec *r)
{
	unsigned int i, old = 0;

	if (*nr < cap)
		return &set[(*nr)++];
	for (i = 1; i < cap; i++)
		if (set[i].h.trigger_real_ns < set[old].h.trigger_real_ns)
			old = i;
	if (set[old].h.trigger_real_ns > r->h.trigger_real_ns)
		return NULL;
	free(set[old].s);
	return &set[old];
}

void records_fold(struct records *rs, struct model_records *mr)
{
	struct rec *r, *to;
	unsigned int i, k;

	for (i = 0; i < rs->nr_pending; i++) {
		r = &rs->pending[i];
		for (k = 0; k < mr->nr && !same_rec(&mr->r[k], r); k++)
			;
		to = k < mr->nr ? NULL : rec_slot(mr->r, &mr->nr, REC_KEEP, r);
		if (!to) {
			free(r->s);	/* had already, or older than all kept */
			continue;
		}
		*to = *r;
	}
	rs->nr_pending = 0;
	mr->counts.read += rs->counts.read;
	mr->counts.loaded += rs->counts.loaded;
	mr->counts.missed += rs->counts.missed;
	mr->counts.bad += rs->counts.bad;
	mr->counts.persist_errors += rs->counts.persist_errors;
	memset(&rs->counts, 0, sizeof(rs->counts));
	snprintf(mr->dir_error, sizeof(mr->dir_error), "%s", rs->dir_error);
}

void records_persist(struct records *rs, struct model_records *mr)
{
	unsigned int i;

	for (i = 0; i < mr->nr; i++) {
		if (mr->r[i].saved)
			continue;
		records_dir_write(rs, &mr->r[i]);
		mr->r[i].saved = true;	/* written, or counted in persist_errors: once */
	}
	/* counts and the error reach the model at the next fold, under its lock */
}

void model_records_free(struct model_records *mr)
{
	unsigned int i;

	for (i = 0; i < mr->nr; i++)
		free(mr->r[i].s);
	mr->nr = 0;
}

const struct rec *model_record_near(const struct model_records *mr, const char *device,
				    uint32_t port, uint64_t at_ns, uint64_t slack_ns)
{
	const struct rec *best = NULL;
	uint64_t best_d = UINT64_MAX, d, first, last;
	unsigned int i;

	for (i = 0; i < mr->nr; i++) {
		const struct rec *r = &mr->r[i];

		if (r->port != port || strcmp(r->device, device))
			continue;
		first = rec_sample_real_ns(r, 0) - (uint64_t)r->h.sample_ms * 1000000;
		last = rec_sample_real_ns(r, r->h.nr_samples - 1) + slack_ns;
		if (at_ns < first || at_ns > last)
			continue;
		d = at_ns > r->h.trigger_real_ns ? at_ns - r->h.trigger_real_ns :
						   r->h.trigger_real_ns - at_ns;
		if (d < best_d) {
			best_d = d;
			best = r;
		}
	}
	return best;
}

const struct rec *model_record_find(const struct model_records *mr, const char *device,
				    uint32_t port, uint64_t seq, uint64_t trigger_real_ns)
{
	const struct rec *best = NULL;
	unsigned int i;

	for (i = 0; i < mr->nr; i++) {
		const struct rec *r = &mr->r[i];

		if (r->port != port || r->h.seq != seq || strcmp(r->device, device) ||
		    (trigger_real_ns && r->h.trigger_real_ns != trigger_real_ns))
			continue;
		if (!best || r->h.trigger_real_ns > best->h.trigger_real_ns)
			best = r;
	}
	return best;
}

#define SOFF(f)	offsetof(struct fabtel_rec_sample, f)

unsigned int rec_signals(struct rec_signal *sig)
{
	unsigned int n = 0, c;

	for (c = 0; c < FABTEL_NR_COUNTERS; c++, n++) {
		snprintf(sig[n].name, sizeof(sig[n].name), "%s%s", schema_ctr_name(c),
			 c == FABTEL_RX_BYTES || c == FABTEL_TX_BYTES ? "_kib" : "");
		sig[n].flag = FABTEL_REC_F_COUNTERS;
		sig[n].off = SOFF(ctr) + c * sizeof(uint32_t);
	}
	for (c = 0; c < 2 * FABTEL_REC_PRIOS; c++, n++) {
		snprintf(sig[n].name, sizeof(sig[n].name), "pause_%s_prio%u",
			 c < FABTEL_REC_PRIOS ? "tx" : "rx", c % FABTEL_REC_PRIOS);
		sig[n].flag = FABTEL_REC_F_PFC;
		sig[n].off = (c < FABTEL_REC_PRIOS ? SOFF(pause_tx) : SOFF(pause_rx)) +
			     (c % FABTEL_REC_PRIOS) * sizeof(uint32_t);
	}
	sig[n++] = (struct rec_signal){ "fec_corrected", FABTEL_REC_F_FEC, SOFF(fec_corrected) };
	sig[n++] = (struct rec_signal){ "fec_uncorrectable", FABTEL_REC_F_FEC,
					SOFF(fec_uncorrectable) };
	sig[n++] = (struct rec_signal){ "symbol_error", FABTEL_REC_F_PMA, SOFF(symbol_error) };
	sig[n++] = (struct rec_signal){ "link_error_recovery", FABTEL_REC_F_PMA,
					SOFF(link_error_recovery) };
	sig[n++] = (struct rec_signal){ "link_downed", FABTEL_REC_F_PMA, SOFF(link_downed) };
	return n;
}

uint32_t rec_value(const struct fabtel_rec_sample *s, const struct rec_signal *g)
{
	uint32_t v;

	memcpy(&v, (const char *)s + g->off, sizeof(v));
	return v;
}
