// SPDX-License-Identifier: GPL-2.0
/*
 * test_wire_loader - userspace/lib/wire_loader.c against the real kernel:
 * attach both programs to loopback, send a RoCEv2-shaped UDP datagram
 * through it, read the counters back, then check that close leaves the
 * qdiscs as they were.  Runs in a private network namespace (so "lo" is this
 * test's own and the counts are exact); if that is refused, on the host's lo
 * with looser counts.  The independent source for the qdisc and filter state
 * is iproute2's `tc` (when installed) next to a libbpf probe.  Needs root.
 */
#include <errno.h>
#include <stdarg.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>

#include "tap.h"
#include "wire.h"
#include "wire_loader.h"

#define LO		1	/* LOOPBACK_IFINDEX */
#define TEST_QPN	0x123
#define TEST_PSN	5
#define BTH_LEN		12
#define ICRC_LEN	4
/* Ethernet (lo has one) + IPv4 + UDP + BTH + ICRC */
#define FRAME_LEN	(14 + 20 + 8 + BTH_LEN + ICRC_LEN)

static bool private_ns;

/* libbpf's messages as TAP diagnostics (the probe's -EEXIST makes one) */
static int tap_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	fputs("# ", stdout);	/* libbpf starts with "libbpf: " */
	return vprintf(fmt, ap);
}

/* libbpf's view: does lo have a clsact qdisc?  Leaves it as it was. */
static int clsact_probe(void)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = LO,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);
	int err = bpf_tc_hook_create(&hook);

	if (err == -EEXIST)
		return 1;
	if (err)
		return err;
	bpf_tc_hook_destroy(&hook);
	return 0;
}

/* lines of `cmd` output containing needle; -1 if the command is missing */
static int count_lines(const char *cmd, const char *needle)
{
	char line[512];
	int n = 0;
	FILE *f;

	if (system("command -v tc >/dev/null 2>&1"))
		return -1;
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	pclose(f);
	return n;
}

static int tc_clsact(void)
{
	return count_lines("tc qdisc show dev lo 2>/dev/null", "clsact");
}

static int tc_filters(const char *dir, const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "tc filter show dev lo %s 2>/dev/null", dir);
	return count_lines(cmd, name);
}

static int lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			err = -errno;
	} else {
		err = -errno;
	}
	close(fd);
	return err;
}

/* one WRITE ONLY to 127.0.0.1:4791, received back; 0 once it arrived */
static int send_roce(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(WIRE_ROCEV2_PORT),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = 5 };
	unsigned char bth[BTH_LEN + ICRC_LEN] = { 0x0a, 0, 0xff, 0xff, 0,
		0, TEST_QPN >> 8, TEST_QPN & 0xff, 0x80, 0, 0, TEST_PSN };
	unsigned char buf[64];
	int rx, tx, ret = -1;

	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0)
		goto out;
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(rx, (struct sockaddr *)&to, sizeof(to)))
		goto out;
	if (sendto(tx, bth, sizeof(bth), 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		goto out;
	/* ingress TC runs before the socket gets it: no sleep needed */
	if (recv(rx, buf, sizeof(buf), 0) == (ssize_t)sizeof(bth))
		ret = 0;
out:
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
	return ret;
}

struct seen {
	int entries;
	int ours[2];		/* by direction: pkts, bytes and PSN as sent */
};

static int qp_cb(const struct wire_qp_key *k, const struct wire_qp_val *v, void *ctx)
{
	struct seen *s = ctx;

	s->entries++;
	if (k->ifindex == LO && k->qpn == TEST_QPN && k->dir <= WIRE_DIR_EGRESS &&
	    v->pkts == 1 && v->bytes == FRAME_LEN && v->oos == 0 &&
	    v->psn_valid && v->expected_psn == TEST_PSN + 1)
		s->ours[k->dir]++;
	return 0;
}

static int stop_cb(const struct wire_qp_key *k, const struct wire_qp_val *v, void *ctx)
{
	(void)k;
	(void)v;
	++*(int *)ctx;
	return 42;
}

/* attach, traffic, counters; the loader stays open for the caller */
static void attach_and_count(struct wire_loader *wl)
{
	__u64 st[WIRE_NR_STATS] = { 0 };
	struct seen seen = { 0 };
	int err, calls = 0;

	err = wire_loader_attach(wl, LO);
	tap_ok(!err && clsact_probe() == 1,
	       "attach to lo (%d); clsact now present (libbpf probe)", err);
	err = wire_loader_attach(wl, LO);
	tap_ok(!err && tc_filters("ingress", "wire_ingress") != 0 &&
	       tc_filters("ingress", "wire_ingress") <= 1 &&
	       tc_filters("egress", "wire_egress") <= 1,
	       "second attach to lo is a no-op (%d); tc shows one filter per hook (%d ingress, %d egress; -1: no tc)",
	       err, tc_filters("ingress", "wire_ingress"), tc_filters("egress", "wire_egress"));
	tap_ok(wire_loader_attach(wl, 0) == -EINVAL && wire_loader_attach(wl, -3) == -EINVAL &&
	       wire_loader_attach(wl, 0x7ffffff0) < 0 && wire_loader_attach(NULL, LO) == -EINVAL,
	       "attach refuses ifindex 0, negative, missing, and a NULL loader");

	err = send_roce();
	wire_loader_stats(wl, st);
	wire_loader_for_each_qp(wl, qp_cb, &seen);
	if (private_ns)
		tap_ok(!err && st[WIRE_FRAMES] == 2 && st[WIRE_ROCEV2] == 2 &&
		       seen.entries == 2 && seen.ours[0] == 1 && seen.ours[1] == 1,
		       "UDP/4791 WRITE ONLY over lo: seen at egress and ingress (frames %llu, rocev2 %llu, %d QP entries, %d/%d matching: 1 pkt, %d bytes, PSN %d)",
		       (unsigned long long)st[WIRE_FRAMES], (unsigned long long)st[WIRE_ROCEV2],
		       seen.entries, seen.ours[0], seen.ours[1], FRAME_LEN, TEST_PSN);
	else
		tap_ok(!err && st[WIRE_ROCEV2] >= 2 && seen.ours[0] == 1 && seen.ours[1] == 1,
		       "UDP/4791 WRITE ONLY over the host's lo: seen at egress and ingress (rocev2 %llu)",
		       (unsigned long long)st[WIRE_ROCEV2]);
	err = wire_loader_for_each_qp(wl, stop_cb, &calls);
	tap_ok(err == 42 && calls == 1,
	       "for_each_qp stops at the callback's non-zero return (%d after %d calls)",
	       err, calls);
}

/* the whole life cycle on an lo without clsact */
static void lifecycle(void)
{
	struct wire_loader *wl = NULL;
	int err;

	tap_ok(clsact_probe() == 0 && tc_clsact() <= 0,
	       "before: no clsact on lo (tc: %d)", tc_clsact());
	err = wire_loader_open(&wl);
	if (!tap_ok(!err && wl, "wire_loader_open (%d)", err)) {
		for (int i = 0; i < 6; i++)
			tap_skip("no loader");
		return;
	}
	attach_and_count(wl);
	wire_loader_close(wl);
	tap_ok(clsact_probe() == 0 && tc_clsact() <= 0,
	       "after close: the clsact it created is gone (libbpf probe; tc: %d)", tc_clsact());
}

/* a clsact that was there before stays, without our filters */
static void foreign_clsact(void)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = LO,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);
	struct wire_loader *wl = NULL;
	int err, att;

	err = bpf_tc_hook_create(&hook);
	if (err) {
		tap_skip("cannot make a clsact on lo (%d)", err);
		return;
	}
	err = wire_loader_open(&wl);
	att = err ? err : wire_loader_attach(wl, LO);
	wire_loader_close(wl);
	tap_ok(!err && !att && clsact_probe() == 1 &&
	       tc_filters("ingress", "wire_") <= 0 && tc_filters("egress", "wire_") <= 0,
	       "a clsact made by someone else survives close, our filters gone (open %d, attach %d; tc filters %d/%d)",
	       err, att, tc_filters("ingress", "wire_"), tc_filters("egress", "wire_"));
	bpf_tc_hook_destroy(&hook);
}

/* fabteld's and fabtel-trace's loaders on one interface: two filters each way */
static void two_slots(void)
{
	struct wire_loader *a = NULL, *b = NULL;
	int err;

	err = wire_loader_open(&a) ?: wire_loader_open(&b);
	if (!err) {
		wire_loader_slot(b, WIRE_SLOT_TRACE);
		err = wire_loader_attach(a, LO) ?: wire_loader_attach(b, LO);
	}
	tap_ok(!err && tc_filters("ingress", "wire_") == 2 && tc_filters("egress", "wire_") == 2,
	       "fabteld's slot and fabtel-trace's side by side: 2 filters each way (%d, tc %d/%d)",
	       err, tc_filters("ingress", "wire_"), tc_filters("egress", "wire_"));
	wire_loader_close(b);
	tap_ok(tc_filters("ingress", "wire_") == 1 && tc_filters("egress", "wire_") == 1,
	       "closing one leaves the other's (tc %d/%d)",
	       tc_filters("ingress", "wire_"), tc_filters("egress", "wire_"));
	wire_loader_close(a);
}

/*
 * Someone's filter on the clsact we made: closing ours leaves the qdisc and
 * their filter (deleting the qdisc would delete it).
 */
static void others_filters(void)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = LO,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);
	struct wire_loader *a = NULL, *b = NULL;
	int err;

	err = wire_loader_open(&a) ?: wire_loader_open(&b);
	if (!err) {
		wire_loader_slot(b, WIRE_SLOT_TRACE);
		err = wire_loader_attach(a, LO) ?: wire_loader_attach(b, LO);
	}
	wire_loader_close(a);	/* it made the clsact */
	tap_ok(!err && clsact_probe() == 1 && tc_filters("ingress", "wire_") == 1 &&
	       tc_filters("egress", "wire_") == 1,
	       "the clsact's maker closes first: the qdisc stays with the other's filters (%d, tc %d/%d)",
	       err, tc_filters("ingress", "wire_"), tc_filters("egress", "wire_"));
	wire_loader_close(b);
	bpf_tc_hook_destroy(&hook);
}

/*
 * A loader killed with SIGKILL detaches nothing; three crashed starts and a
 * fourth must leave one filter per direction, not four.
 */
static void crash_leftovers(void)
{
	struct wire_loader *wl = NULL;
	int fds[2], in, eg, err, i;
	char c;
	pid_t pid;

	for (i = 0; i < 3; i++) {
		if (pipe(fds))
			break;
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			c = wire_loader_open(&wl) ? 'x' : 'y';
			wire_loader_slot(wl, WIRE_SLOT_TEST);
			if (c == 'y' && wire_loader_attach(wl, LO))
				c = 'x';
			if (write(fds[1], &c, 1) != 1)
				_exit(1);
			pause();
			_exit(0);
		}
		close(fds[1]);
		c = 'x';
		if (pid > 0 && read(fds[0], &c, 1) == 1 && c == 'y')
			kill(pid, SIGKILL);
		close(fds[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	in = tc_filters("ingress", "wire_");
	eg = tc_filters("egress", "wire_");
	err = wire_loader_open(&wl);
	wire_loader_slot(wl, WIRE_SLOT_TEST);
	if (!err)
		err = wire_loader_attach(wl, LO);
	tap_ok(in == 1 && eg == 1 && !err && tc_filters("ingress", "wire_") == 1 &&
	       tc_filters("egress", "wire_") == 1,
	       "3 starts killed by SIGKILL, then a 4th: one filter per direction (after the kills %d/%d, attach %d)",
	       in, eg, err);
	wire_loader_close(wl);
	tap_ok(tc_filters("ingress", "wire_") <= 0 && tc_filters("egress", "wire_") <= 0,
	       "its close removes the filter the dead ones left (tc %d/%d)",
	       tc_filters("ingress", "wire_"), tc_filters("egress", "wire_"));
	two_slots();
	{
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = LO,
			    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);

		bpf_tc_hook_destroy(&hook);	/* the clsact the first one made */
	}
}

static void misc(void)
{
	__u64 st[WIRE_NR_STATS];

	tap_ok(wire_loader_open(NULL) == -EINVAL && wire_loader_stats(NULL, st) == -EINVAL &&
	       wire_loader_detach(NULL, LO) == -EINVAL &&
	       wire_loader_for_each_qp(NULL, qp_cb, NULL) == -EINVAL &&
	       !strcmp(wire_loader_stat_name(WIRE_QP_DROPS), "qp_drops") &&
	       !wire_loader_stat_name(WIRE_NR_STATS),
	       "NULL arguments give -EINVAL; stat names end at WIRE_NR_STATS");
	wire_loader_close(NULL);
}

int main(void)
{
	if (geteuid() != 0)
		tap_skip_all("attaching TC programs needs root");
	private_ns = unshare(CLONE_NEWNET) == 0;
	if (private_ns && lo_up())
		tap_skip_all("cannot bring up lo in a new network namespace");
	if (!private_ns && clsact_probe() != 0)
		tap_skip_all("the host's lo already has a clsact qdisc: not touching it");
	tap_plan(15);
	libbpf_set_print(tap_libbpf_print);
	printf("# %s\n", private_ns ? "private network namespace" :
	       "unshare(CLONE_NEWNET) refused: using the host's lo");
	lifecycle();
	foreign_clsact();
	others_filters();
	crash_leftovers();
	misc();
	return tap_done();
}
