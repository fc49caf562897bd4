/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabtel_record.h - the flight recorder's records, as fabtel.ko's
 * ports/<n>/recorder/record<k> files give them: shared by fabtel.ko and
 * fabteld (Documentation/ABI/testing/sysfs-kernel-fabtel,
 * Documentation/recorder.rst).
 *
 * fabtel.ko keeps each port's last FABTEL_REC_RING samples (one per
 * sample_ms) in a ring.  A trigger freezes the ring into a record, which
 * goes on for record_after_ms / sample_ms more samples
 * (FABTEL_REC_POST_MAX at most), and is then published in slot (seq - 1) % FABTEL_REC_KEEP, replacing the
 * oldest.  A record file is a header, nr_samples samples oldest first, and
 * a trailer repeating the header's seq: a reader whose read was split
 * across a replacement sees two different seqs and reads again.  Host
 * byte order; sizes in the header, so a reader checks them.
 */
#ifndef FABTEL_RECORD_H
#define FABTEL_RECORD_H

#include <linux/types.h>

#include "fabtel_schema.h"

#define FABTEL_REC_MAGIC	0x31525446u	/* "FTR1" */
#define FABTEL_REC_VERSION	1
#define FABTEL_REC_RING		128	/* samples a port's ring keeps */
#define FABTEL_REC_POST_MAX	32	/* samples a record goes on for, at most */
#define FABTEL_REC_SAMPLES	(FABTEL_REC_RING + FABTEL_REC_POST_MAX)
#define FABTEL_REC_KEEP		4	/* records kept per port: record0..record3 */
#define FABTEL_REC_PRIOS	8

/* What froze a record (header.triggers: each one seen while it recorded). */
enum fabtel_rec_trigger {
	FABTEL_REC_T_CARRIER = 1 << 0,	/* the carrier dropped, or a flap its counts revealed */
	FABTEL_REC_T_BURST = 1 << 1,	/* an error burst (ports/<n>/events) */
	FABTEL_REC_T_STORM = 1 << 2,	/* a pause storm began on a priority */
	FABTEL_REC_T_PMA = 1 << 3,	/* PMA link_downed or link_error_recovery rose */
	FABTEL_REC_T_OPTICS = 1 << 4,	/* the module flagged a temperature or rx power alarm */
};

/* What a sample holds (sample.flags). */
enum fabtel_rec_flag {
	FABTEL_REC_F_CARRIER = 1 << 0,	/* the carrier was up at the sample */
	FABTEL_REC_F_FLAP = 1 << 1,	/* it went down (and maybe up) since the previous one */
	FABTEL_REC_F_COUNTERS = 1 << 2,	/* ctr[] hold the schema counters' rise */
	FABTEL_REC_F_PFC = 1 << 3,	/* pause_tx[], pause_rx[] hold PFC frames' rise */
	FABTEL_REC_F_FEC = 1 << 4,	/* the FEC counters were read since the previous one */
	FABTEL_REC_F_PMA = 1 << 5,	/* the PMA answered since the previous one */
	FABTEL_REC_F_TRIGGER = 1 << 6,	/* the sample whose trigger froze the record */
	FABTEL_REC_F_OPTICS = 1 << 7,	/* the module was read since the previous one */
	FABTEL_REC_F_OPTICS_ALARM = 1 << 8,	/* ... and flagged a temperature or rx power alarm */
};

/*
 * One sample: each count is its rise since the previous sample (its own
 * read's, for FEC and PMA: they are read every slow_ms), saturated at
 * 2^32 - 1; rx_bytes and tx_bytes in KiB.  The optical module's rx power
 * and temperature are its levels at its read (module_ms).
 */
struct fabtel_rec_sample {
	__u64 boot_ns;				/* CLOCK_BOOTTIME */
	__u32 flags;				/* enum fabtel_rec_flag */
	__u32 ctr[FABTEL_NR_COUNTERS];		/* enum fabtel_counter's order */
	__u32 pause_tx[FABTEL_REC_PRIOS];
	__u32 pause_rx[FABTEL_REC_PRIOS];
	__u32 fec_corrected;			/* FEC blocks corrected */
	__u32 fec_uncorrectable;
	__u32 symbol_error;			/* PMA */
	__u32 link_error_recovery;
	__u32 link_downed;
	/* with FABTEL_REC_F_OPTICS (module_ms), else 0: levels, not rises */
	__u32 rx_power;				/* the lowest lane's, 0.1 uW as the module says */
	__s32 temperature;			/* 1/256 degC, as the module says */
};

struct fabtel_rec_header {
	__u32 magic;				/* FABTEL_REC_MAGIC */
	__u32 version;				/* FABTEL_REC_VERSION */
	__u32 header_size;			/* sizeof(struct fabtel_rec_header) */
	__u32 sample_size;			/* sizeof(struct fabtel_rec_sample) */
	__u64 seq;				/* the port's records, from 1 */
	__u64 trigger_boot_ns;			/* CLOCK_BOOTTIME of the first trigger */
	__u64 trigger_real_ns;			/* CLOCK_REALTIME of it */
	__u32 first_trigger;			/* enum fabtel_rec_trigger: what froze it */
	__u32 triggers;				/* ... and all seen while it recorded */
	__u32 trigger_index;			/* the first trigger's sample */
	__u32 nr_samples;
	__u32 sample_ms;			/* fabtel.ko's sample_ms at the trigger */
	__u32 nr_counters;			/* FABTEL_NR_COUNTERS */
};

struct fabtel_rec_trailer {
	__u64 seq;				/* the header's, when the file is whole */
	__u32 magic;
	__u32 reserved;
};

#define FABTEL_REC_FILE_MAX (sizeof(struct fabtel_rec_header) +			\
			     FABTEL_REC_SAMPLES * sizeof(struct fabtel_rec_sample) +	\
			     sizeof(struct fabtel_rec_trailer))

#endif /* FABTEL_RECORD_H */
