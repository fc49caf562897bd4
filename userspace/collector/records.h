/* SPDX-License-Identifier: GPL-2.0 */
/*
 * records.h - fabtel.ko's flight records as fabteld keeps them
 * (Documentation/recorder.rst, "fabteld"): read from a port's
 * recorder/record<k> files when the snapshot's recorder_seq rose, kept in
 * the model (the newest REC_KEEP of the host), and persisted as the same
 * bytes, one file per record, in record_dir, so a restart loses none and
 * counts none twice.
 */
#ifndef FABTEL_RECORDS_H
#define FABTEL_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fabtel_record.h"

#define REC_KEEP	16	/* records kept, host-wide (and files in record_dir) */
#define REC_PENDING	REC_KEEP	/* records read in one pass (or loaded), at most */

/* One record, as its file was. */
struct rec {
	char device[64];
	uint32_t port;
	struct fabtel_rec_header h;
	struct fabtel_rec_sample *s;	/* h.nr_samples of them; owned */
	bool saved;			/* in record_dir (or its write failed, counted) */
};

/* What fabteld did with records, since it started (fabtel_records_*_total). */
struct rec_counts {
	uint64_t read;		/* records read from fabtel.ko */
	uint64_t loaded;	/* ... read back from record_dir at the start */
	uint64_t missed;	/* replaced in fabtel.ko before fabteld read them */
	uint64_t bad;		/* files that were not version 1 records, or were torn thrice */
	uint64_t persist_errors;	/* records not written to record_dir */
};

/* The collector's side: records read this pass, waiting for records_fold. */
struct records {
	char dir[256];			/* record_dir; "" not persisted */
	char dir_error[160];		/* the last write's failure, "" none */
	struct rec pending[REC_PENDING];
	unsigned int nr_pending;
	struct rec_counts counts;	/* since the last fold */
	unsigned char buf[FABTEL_REC_FILE_MAX + 1];	/* one file's bytes */
};

/* the model's: the newest REC_KEEP, any order */
struct model_records {
	struct rec r[REC_KEEP];
	unsigned int nr;
	struct rec_counts counts;
	char dir_error[160];		/* why record_dir is not written; "" fine */
};

/*
 * records_init: rs set up for dir ("" none); the records persisted there
 * read into pending (records_fold takes them), the newest REC_KEEP.
 */
void records_init(struct records *rs, const char *dir);
void records_free(struct records *rs);
/*
 * records_read_port: port base's (its directory) records from seq after + 1
 * to last (the snapshot's recorder_seq), the newest FABTEL_REC_KEEP of them,
 * into pending.  first: the port's first read (what it holds then is read,
 * and what it no longer holds is not counted missed).  The seq it got to:
 * last, or less when a pass's worth is pending (the rest next pass).
 */
uint64_t records_read_port(struct records *rs, const char *base, const char *device,
			   uint32_t port, uint64_t after, uint64_t last, bool first);
/* pending into the model's (its lock held): duplicates dropped, the oldest out */
void records_fold(struct records *rs, struct model_records *mr);
/*
 * the model's records not yet in record_dir written there (not under the
 * lock: only the collector's thread changes the records)
 */
void records_persist(struct records *rs, struct model_records *mr);
void model_records_free(struct model_records *mr);

/* A signal of a sample: the flag its value needs, where it is. */
struct rec_signal {
	char name[40];
	uint32_t flag;		/* enum fabtel_rec_flag */
	size_t off;		/* of its __u32 in struct fabtel_rec_sample */
};

#define REC_SIGNALS	(FABTEL_NR_COUNTERS + 2 * FABTEL_REC_PRIOS + 5)

/*
 * rec_signals: a sample's signals, named as /api/v1/records/... names them
 * (the schema's counters, rx_bytes_kib and tx_bytes_kib, pause_tx_prioN,
 * pause_rx_prioN, fec_corrected, fec_uncorrectable, symbol_error,
 * link_error_recovery, link_downed), into sig[REC_SIGNALS]; their number
 */
unsigned int rec_signals(struct rec_signal *sig);
/* a signal's value in a sample (meaningful where s->flags has g->flag) */
uint32_t rec_value(const struct fabtel_rec_sample *s, const struct rec_signal *g);

/*
 * rec_parse: a record file's bytes into r (samples allocated); 0, -EAGAIN
 * torn (its trailer's seq is not its header's), -EPROTO not a version 1
 * record, -ENOMEM.
 */
int rec_parse(const unsigned char *buf, size_t len, struct rec *r);
/* fd's bytes (to its end) into rs->buf, fd closed: their length, or -errno */
ssize_t rec_read_fd(struct records *rs, int fd);
/*
 * Where r goes in a set of cap records (*nr used): a free slot, else the
 * oldest's (its samples freed); NULL when r is older than all of them.
 */
struct rec *rec_slot(struct rec *set, unsigned int *nr, unsigned int cap, const struct rec *r);
/* a record's sample's CLOCK_REALTIME */
uint64_t rec_sample_real_ns(const struct rec *r, unsigned int i);
/* The record of a port whose time span holds at_ns (slack_ns after its end), nearest its trigger. */
const struct rec *model_record_near(const struct model_records *mr, const char *device,
				    uint32_t port, uint64_t at_ns, uint64_t slack_ns);
/* The newest record of a port with that seq (and trigger time, unless 0). */
const struct rec *model_record_find(const struct model_records *mr, const char *device,
				    uint32_t port, uint64_t seq, uint64_t trigger_real_ns);

#endif /* FABTEL_RECORDS_H */
