/* SPDX-License-Identifier: GPL-2.0 */
/*
 * records_dir.h - record_dir: each flight record fabteld read, as the same
 * bytes as its file in fabtel.ko, in <device>-<port>-<trigger_real_ns>-<seq>.ftr
 * (records_dir.c).
 */
#ifndef FABTEL_RECORDS_DIR_H
#define FABTEL_RECORDS_DIR_H

#include "records.h"

/* the newest REC_KEEP records of rs->dir into rs->pending (counted as loaded) */
void records_dir_load(struct records *rs);
/* r, as fabtel.ko's file had it, into rs->dir unless there; the oldest beyond REC_KEEP removed */
void records_dir_write(struct records *rs, const struct rec *r);

#endif /* FABTEL_RECORDS_DIR_H */
