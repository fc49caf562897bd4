// SPDX-License-Identifier: GPL-2.0
/*
 * test_wire_flood - a UDP/4791 sender that makes up destination QPNs must
 * not push real QPs out of wire_qps (issue [2/8] item 2).
 *
 * Through BPF_PROG_TEST_RUN and userspace/lib/wire_loader.c:
 *   1. known-only mode, one live QP: 100,000 frames with random QPNs, both
 *      directions.  The live QP's entry survives with its count and goes on
 *      counting; the spoofed QPNs take no more than WIRE_UNKNOWN_MAX
 *      entries, and every frame refused past that is counted in qp_unknown;
 *      a QP that becomes known then still gets its entry.
 *   2. every-QP mode (no known set, as fabtel-trace runs): the same flood
 *      fills the map to WIRE_QP_MAX_ENTRIES and no further; the live entry
 *      survives (no eviction), and qp_drops equals the frames a model of the
 *      map in this test says had no room.
 *   3. a new known set replaces the old one: the old QP is then unknown and
 *      refused once the share is full; deleted entries free the share.
 * Needs root (BPF), no RDMA, no lab.  SEED=N reproduces a run.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tap.h"
#include "wire.h"
#include "xorshift.h"
#include "wire_loader.h"

#define FLOOD		100000
#define LIVE_QPN	0x123
#define FRAME_LEN	(14 + 20 + 8 + 12 + 4)

static struct wire_loader *wl;

/* Ethernet, IPv4, UDP to 4791, BTH of an RC SEND ONLY to qpn, ICRC */
static void frame(uint8_t *b, uint32_t qpn, uint32_t psn)
{
	memset(b, 0, FRAME_LEN);
	memset(b, 0x02, 6);
	memset(b + 6, 0x04, 6);
	b[12] = 0x08;
	b[14] = 0x45;
	b[17] = FRAME_LEN - 14;
	b[22] = 64;
	b[23] = 17;
	b[26] = 10; b[29] = 1;
	b[30] = 10; b[33] = 2;
	b[34] = 0xc0;
	b[36] = WIRE_ROCEV2_PORT >> 8;
	b[37] = WIRE_ROCEV2_PORT & 0xff;
	b[39] = FRAME_LEN - 34;
	b[42] = 0x04;				/* RC SEND ONLY */
	b[44] = 0xff; b[45] = 0xff;
	b[47] = (uint8_t)(qpn >> 16); b[48] = (uint8_t)(qpn >> 8); b[49] = (uint8_t)qpn;
	b[51] = (uint8_t)(psn >> 16); b[52] = (uint8_t)(psn >> 8); b[53] = (uint8_t)psn;
}

static int send_one(int dir, uint32_t qpn, uint32_t psn)
{
	uint8_t in[FRAME_LEN], out[FRAME_LEN + 64];
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in, .data_size_in = FRAME_LEN,
		    .data_out = out, .data_size_out = sizeof(out), .repeat = 1);

	frame(in, qpn, psn);
	return bpf_prog_test_run_opts(wire_loader_prog_fd(wl, dir), &opts);
}

struct look {
	uint32_t qpn;
	int dir;
	uint64_t pkts;
	unsigned int entries;
	bool found;
};

static int look_cb(const struct wire_qp_key *k, const struct wire_qp_val *v, void *ctx)
{
	struct look *l = ctx;

	l->entries++;
	if (k->qpn == l->qpn && k->dir == l->dir) {
		l->found = true;
		l->pkts = v->pkts;
	}
	return 0;
}

static struct look look(uint32_t qpn, int dir)
{
	struct look l = { .qpn = qpn, .dir = dir };

	if (wire_loader_for_each_qp(wl, look_cb, &l) < 0)
		l.entries = UINT32_MAX;
	return l;
}

/* the global counters; all ones (matching no expectation) if unreadable */
static void read_stats(__u64 st[WIRE_NR_STATS])
{
	if (wire_loader_stats(wl, st))
		memset(st, 0xff, WIRE_NR_STATS * sizeof(st[0]));
}

static uint32_t spoof_qpn(void)
{
	uint32_t q;

	do
		q = (uint32_t)rnd() & WIRE_PSN_MASK;
	while (q == LIVE_QPN);
	return q;
}

/*
 * Flood n frames of random QPNs, alternating directions; the failed runs.
 * With seen, a model of the map: new keys take an entry while fewer than cap
 * are taken, else count in *model_drops.
 */
static unsigned long flood(unsigned long n, uint8_t *seen, unsigned int cap,
			   unsigned long *model_drops, unsigned int *model_entries)
{
	unsigned long i, failed = 0;
	uint32_t q, bit;
	uint8_t mask;
	int dir;

	for (i = 0; i < n; i++) {
		q = spoof_qpn();
		dir = (int)(i % 2);
		if (send_one(dir, q, (uint32_t)i))
			failed++;
		if (!seen)
			continue;
		/* the map as a plain hash: a new key takes room while there is some */
		bit = q << 1 | (uint32_t)dir;
		mask = (uint8_t)(1U << (bit % 8));
		if (seen[bit / 8] & mask)
			continue;
		if (*model_entries < cap) {
			seen[bit / 8] |= mask;
			(*model_entries)++;
		} else {
			(*model_drops)++;
		}
	}
	return failed;
}

static uint8_t seen[(1U << 25) / 8];	/* the model's keys: QPN << 1 | direction */

static void known_only(void)
{
	struct wire_qp_key live = { .qpn = LIVE_QPN, .dir = WIRE_DIR_INGRESS };
	unsigned long model_drops = 0;
	unsigned int model_entries = 0;
	__u64 st[WIRE_NR_STATS];
	struct look l;
	unsigned long failed;
	int i;

	tap_ok(wire_loader_set_known(wl, &live, 1) == 0, "known set: one live QP (0x%x ingress)",
	       LIVE_QPN);
	for (i = 0; i < 10; i++)
		send_one(WIRE_DIR_INGRESS, LIVE_QPN, (uint32_t)i);
	memset(seen, 0, sizeof(seen));
	failed = flood(FLOOD, seen, WIRE_UNKNOWN_MAX, &model_drops, &model_entries);
	send_one(WIRE_DIR_INGRESS, LIVE_QPN, 10);
	l = look(LIVE_QPN, WIRE_DIR_INGRESS);
	read_stats(st);
	tap_ok(failed == 0 && l.found && l.pkts == 11 && l.entries == 1 + WIRE_UNKNOWN_MAX,
	       "after %d spoofed frames the live entry is there with 11 packets (%s, %llu); entries 1 + %d (%u)",
	       FLOOD, l.found ? "found" : "gone", (unsigned long long)l.pkts, WIRE_UNKNOWN_MAX,
	       l.entries);
	tap_ok(model_entries == WIRE_UNKNOWN_MAX && st[WIRE_QP_UNKNOWN] == model_drops &&
	       st[WIRE_QP_DROPS] == 0 && st[WIRE_ROCEV2] == FLOOD + 11,
	       "spoofed frames past the unknown QPs' share counted: qp_unknown %llu == %lu the model refused, qp_drops %llu",
	       (unsigned long long)st[WIRE_QP_UNKNOWN], model_drops,
	       (unsigned long long)st[WIRE_QP_DROPS]);
	live = (struct wire_qp_key){ .qpn = 0x789, .dir = WIRE_DIR_EGRESS };
	tap_ok(wire_loader_set_known(wl, &live, 1) == 0, "a second QP becomes known");
	send_one(WIRE_DIR_EGRESS, 0x789, 0);
	l = look(0x789, WIRE_DIR_EGRESS);
	tap_ok(l.found && l.pkts == 1, "a known QP gets its entry while spoofed ones fill their share");
}

static void every_qp(void)
{
	unsigned long model_drops = 0, failed;
	unsigned int model_entries = 1;		/* the live QP's */
	__u64 st[WIRE_NR_STATS];
	struct look l;

	wire_loader_reset(wl);
	wire_loader_reset_known(wl);
	send_one(WIRE_DIR_INGRESS, LIVE_QPN, 0);
	memset(seen, 0, sizeof(seen));
	failed = flood(FLOOD, seen, WIRE_QP_MAX_ENTRIES, &model_drops, &model_entries);
	send_one(WIRE_DIR_INGRESS, LIVE_QPN, 1);
	l = look(LIVE_QPN, WIRE_DIR_INGRESS);
	read_stats(st);
	tap_ok(failed == 0 && l.found && l.pkts == 2,
	       "every-QP mode: the live entry survives a flood that fills the map (%s, %llu packets)",
	       l.found ? "found" : "gone", (unsigned long long)l.pkts);
	tap_ok(l.entries == model_entries &&
	       l.entries == WIRE_QP_MAX_ENTRIES && st[WIRE_QP_DROPS] == model_drops,
	       "the map stops at %u entries (%u), refusals counted: qp_drops %llu == %lu the model says had no room",
	       WIRE_QP_MAX_ENTRIES, l.entries, (unsigned long long)st[WIRE_QP_DROPS], model_drops);
}

/* a new set replaces the old; entries the loader deletes free the unknown QPs' share */
static void replace_set(void)
{
	struct wire_qp_key next = { .qpn = 0x456, .dir = WIRE_DIR_EGRESS };
	__u64 st[WIRE_NR_STATS];
	struct look a, b;
	unsigned int i;

	wire_loader_reset(wl);
	tap_ok(wire_loader_set_known(wl, &next, 1) == 0, "known set replaced by 0x456 egress");
	for (i = 0; i < WIRE_UNKNOWN_MAX; i++)
		send_one(WIRE_DIR_INGRESS, 0x100000 + i, 0);
	send_one(WIRE_DIR_INGRESS, LIVE_QPN, 0);
	send_one(WIRE_DIR_EGRESS, 0x456, 0);
	a = look(LIVE_QPN, WIRE_DIR_INGRESS);
	b = look(0x456, WIRE_DIR_EGRESS);
	read_stats(st);
	tap_ok(!a.found && b.found && b.pkts == 1 && st[WIRE_QP_UNKNOWN] == 1,
	       "the QP no longer in the set is refused once the share is full (qp_unknown %llu), the new one counted",
	       (unsigned long long)st[WIRE_QP_UNKNOWN]);
	wire_loader_reset(wl);
	wire_loader_set_known(wl, &next, 1);
	send_one(WIRE_DIR_INGRESS, LIVE_QPN, 1);
	a = look(LIVE_QPN, WIRE_DIR_INGRESS);
	tap_ok(a.found && a.pkts == 1,
	       "after the loader deletes entries and recounts, the share has room again");
}

int main(void)
{
	uint64_t seed;
	int err;

	if (geteuid() != 0)
		tap_skip_all("BPF needs root");
	seed = getenv("SEED") ? strtoull(getenv("SEED"), NULL, 0) : (uint64_t)time(NULL);
	rng_state = seed ? seed : 1;
	err = wire_loader_open(&wl);
	if (err) {
		tap_plan(1);
		tap_ok(false, "load wire.bpf.o (%d)", err);
		return 1;
	}
	tap_plan(10);
	printf("# seed %llu (SEED=%llu reproduces)\n", (unsigned long long)seed,
	       (unsigned long long)seed);
	known_only();
	every_qp();
	replace_set();
	wire_loader_close(wl);
	return tap_done();
}
