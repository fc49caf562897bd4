/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire_loader.h - load the RoCEv2 wire classifier (bpf/wire.bpf.c), attach it
 * to the TC ingress and egress hooks of interfaces, read its counters.
 *
 * Needs CAP_BPF and CAP_NET_ADMIN (or root).  Every function returns 0 or a
 * negative errno and prints nothing.  One struct wire_loader is not
 * thread safe; use it from one thread or lock around it.
 *
 * Build: include paths for wire.h (bpf/) and wire.skel.h (build/bpf/), link
 * with -lbpf.  See Documentation/wire.rst.
 */
#ifndef FABTEL_WIRE_LOADER_H
#define FABTEL_WIRE_LOADER_H

#include <linux/types.h>

#include "wire.h"

struct wire_loader;

typedef int (*wire_qp_cb)(const struct wire_qp_key *key,
			  const struct wire_qp_val *val, void *ctx);

/* Open and load the BPF object (verifier run).  *out is NULL on error. */
int wire_loader_open(struct wire_loader **out);

/*
 * The TC filter slot (handle and priority) a loader's filters take on each
 * hook: one per program, so a program started again after dying without
 * detaching (SIGKILL) replaces the filters it left instead of stacking a
 * second parser, and fabteld and fabtel-trace never replace each other's.
 * A loader takes WIRE_SLOT_FABTELD unless told otherwise, before attaching.
 */
#define WIRE_SLOT_FABTELD	0xfab7
#define WIRE_SLOT_TRACE		0xfab8
#define WIRE_SLOT_TEST		0xfab9
void wire_loader_slot(struct wire_loader *wl, __u32 slot);

/*
 * Attach wire_ingress and wire_egress to ifindex, creating the clsact qdisc
 * if it is missing.  Attaching an ifindex already attached by this loader
 * does nothing and returns 0.  On error nothing stays attached.
 */
int wire_loader_attach(struct wire_loader *wl, int ifindex);

/*
 * Detach what wire_loader_attach() attached on ifindex, and delete the
 * clsact qdisc if this loader created it.  -ENOENT if not attached here.
 */
int wire_loader_detach(struct wire_loader *wl, int ifindex);

/* Detach from every interface (as above); the program stays loaded.  NULL is fine. */
void wire_loader_detach_all(struct wire_loader *wl);

/* Detach from every interface (as above), unload, free.  NULL is fine. */
void wire_loader_close(struct wire_loader *wl);

/* The global counters, summed over CPUs, indexed by enum wire_stat. */
int wire_loader_stats(struct wire_loader *wl, __u64 out[WIRE_NR_STATS]);

/* A stable name for an enum wire_stat value ("frames", "rocev2", ...). */
const char *wire_loader_stat_name(unsigned int stat);

/*
 * Call cb for each per-QP entry.  A non-zero return from cb stops the walk
 * and is returned.  Entries made or evicted during the walk may be missed;
 * an entry whose key was evicted between two steps restarts nothing and is
 * skipped.
 */
int wire_loader_for_each_qp(struct wire_loader *wl, wire_qp_cb cb, void *ctx);

/* Delete one per-QP entry (its QP is gone).  0, -ENOENT, or negative errno. */
int wire_loader_forget_qp(struct wire_loader *wl, const struct wire_qp_key *key);

/* Zero every counter and forget every QP (e.g. between tests). */
int wire_loader_reset(struct wire_loader *wl);

/*
 * The QPs that exist: keys (ifindex not used) of the ingress side's local
 * QPNs and the egress side's peer QPNs.  From then on QPs not in the set
 * (new ones, and made-up QPNs) share at most WIRE_UNKNOWN_MAX entries; a
 * frame that would need one more counts in WIRE_QP_UNKNOWN only.  Each call
 * replaces the set (only the difference is written) and recounts the
 * entries of unknown QPs, so call it again after deleting entries.  On an
 * error the program goes back to counting every QP.
 */
int wire_loader_set_known(struct wire_loader *wl, const struct wire_qp_key *keys, size_t n);
/* Back to counting every QP (the map then fills, and refuses, at WIRE_QP_MAX_ENTRIES). */
int wire_loader_reset_known(struct wire_loader *wl);

/* The program's fd for a direction, for BPF_PROG_TEST_RUN in tests and benchmarks. */
int wire_loader_prog_fd(struct wire_loader *wl, int dir);

#endif /* FABTEL_WIRE_LOADER_H */
