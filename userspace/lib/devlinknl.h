/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devlinknl.h - the kernel's devlink netlink interface (generic netlink
 * family "devlink"), through libmnl: the health reporters of every devlink
 * instance (what `devlink health show` lists).  One handle, one thread.
 */
#ifndef FABTEL_DEVLINKNL_H
#define FABTEL_DEVLINKNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEVLINKNL_NAME_LEN	64

struct devlinknl;

/* One health reporter of a devlink instance (or of one of its ports). */
struct devlinknl_reporter {
	char bus[DEVLINKNL_NAME_LEN];	/* "pci", "netdevsim", ... */
	char dev[DEVLINKNL_NAME_LEN];	/* "0000:03:00.0" */
	bool has_port;
	uint32_t port;			/* a port's reporter: the devlink port index */
	char name[DEVLINKNL_NAME_LEN];	/* "fw", "fw_fatal", "tx", ... */
	bool error;			/* state: error (else healthy) */
	uint64_t errors, recovers;	/* error and recover counts */
	bool has_auto_recover, auto_recover;
	uint64_t graceful_ms;
};

/* 0 and a handle, or -errno (-ENOENT: the kernel has no devlink family). */
int devlinknl_open(struct devlinknl **out);
void devlinknl_close(struct devlinknl *d);

/*
 * cb for each health reporter of every devlink instance of the handle's
 * network namespace (one dump): 0, cb's own non-zero return, or -errno.
 */
int devlinknl_reporters(struct devlinknl *d,
			int (*cb)(const struct devlinknl_reporter *r, void *ctx), void *ctx);

/* requests sent so far */
uint64_t devlinknl_requests(const struct devlinknl *d);

/* The parser under it, for tests and fuzzers: one reply message into *out; 0 or -EINVAL. */
int devlinknl_parse_reporter(const void *buf, size_t len, struct devlinknl_reporter *out);

#endif /* FABTEL_DEVLINKNL_H */
