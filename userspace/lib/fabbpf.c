// SPDX-License-Identifier: GPL-2.0
/*
 * fabbpf.c - loader of fabtel's tracing BPF programs.
 *
 * libbpf 1.1 resolves a module function by name when the object loads, so a
 * program whose module is absent must not be autoloaded: module presence is
 * read from /sys/kernel/btf/<module> (the kernel has module BTF).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfmap.h"
#include "fabbpf.h"
#include "rdmanl.h"
#include "flap.skel.h"
#include "qp.skel.h"
#include "rxe.skel.h"

struct fabbpf {
	struct flap_bpf *flap;
	struct qp_bpf *qp;
	struct rxe_bpf *rxe;
	struct ring_buffer *rb;
	struct fabbpf_handlers h;
	unsigned int seeded;		/* QPs found at start via RDMA netlink */
	char why[FABBPF_NR_PROGS][96];
	char partial[FABBPF_NR_PROGS][96];
};

static bool module_btf(const char *mod)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", mod);
	return access(path, R_OK) == 0;
}

static int on_flap(void *ctx, void *data, size_t len)
{
	struct fabbpf *fb = ctx;

	if (len >= sizeof(struct flap_event) && fb->h.flap)
		fb->h.flap(data, fb->h.ctx);
	return 0;
}

static int on_qp(void *ctx, void *data, size_t len)
{
	struct fabbpf *fb = ctx;

	if (len >= sizeof(struct qp_event) && fb->h.qp)
		fb->h.qp(data, fb->h.ctx);
	return 0;
}

static int on_rxe(void *ctx, void *data, size_t len)
{
	struct fabbpf *fb = ctx;

	if (len >= sizeof(struct rxe_event) && fb->h.rxe)
		fb->h.rxe(data, fb->h.ctx);
	return 0;
}

static int ring_add(struct fabbpf *fb, int map_fd, ring_buffer_sample_fn fn)
{
	if (!fb->rb) {
		fb->rb = ring_buffer__new(map_fd, fn, fb, NULL);
		return fb->rb ? 0 : -errno;
	}
	return ring_buffer__add(fb->rb, map_fd, fn, fb);
}

static int open_flap(struct fabbpf *fb)
{
	int err;

	fb->flap = flap_bpf__open();
	if (!fb->flap)
		return -errno;
	if (!module_btf("ib_core")) {
		bpf_program__set_autoload(fb->flap->progs.flap_ib_event, false);
		snprintf(fb->partial[FABBPF_FLAP], sizeof(fb->partial[0]),
			 "no IB port events: ib_core not loaded");
	}
	err = flap_bpf__load(fb->flap);
	if (!err)
		err = flap_bpf__attach(fb->flap);
	if (!err)
		err = ring_add(fb, bpf_map__fd(fb->flap->maps.flap_events), on_flap);
	return err;
}

/* The cgroup v2 id of a process: the inode of its cgroup directory. */
static __u64 pid_cgroup_id(__u32 pid)
{
	char path[4200], line[4096];
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s", line + 3);
		fclose(f);
		return stat(path, &st) ? 0 : st.st_ino;
	}
	fclose(f);
	return 0;
}

static void pid_comm(__u32 pid, char *comm, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, comm, len - 1);
	close(fd);
	if (n > 0 && comm[n - 1] == '\n')
		n--;
	comm[n > 0 ? n : 0] = 0;
}

/* A QP that existed before we attached; kernel QPs (no pid) are skipped. */
static int seed_one(const struct rdmanl_qp *q, void *ctx)
{
	struct fabbpf *fb = ctx;
	struct qp_key key = { .dev_index = q->dev_index, .qpn = q->qpn };
	struct qp_info info = { 0 };

	if (!q->pid)
		return 0;
	info.tgid = q->pid;
	info.dest_qpn = q->rqpn;
	info.state = q->has_state ? q->state : 0;
	info.cgroup_id = pid_cgroup_id(q->pid);
	pid_comm(q->pid, info.comm, sizeof(info.comm));
	/* created_ns 0: created before we looked; fresher BPF entries win */
	if (!bpf_map_update_elem(bpf_map__fd(fb->qp->maps.qp_owners), &key,
				 &info, BPF_NOEXIST))
		fb->seeded++;
	return 0;
}

static int open_qp(struct fabbpf *fb)
{
	int err, nl = -1;

	if (!module_btf("ib_core")) {
		snprintf(fb->why[FABBPF_QP], sizeof(fb->why[0]),
			 "unavailable: ib_core not loaded");
		return 0;
	}
	fb->qp = qp_bpf__open();
	if (!fb->qp)
		return -errno;
	if (!module_btf("ib_uverbs")) {
		bpf_program__set_autoload(fb->qp->progs.qp_async_event, false);
		snprintf(fb->partial[FABBPF_QP], sizeof(fb->partial[0]),
			 "no fatal QP events: ib_uverbs not loaded");
	}
	err = qp_bpf__load(fb->qp);
	if (!err)
		err = qp_bpf__attach(fb->qp);
	if (!err)
		err = ring_add(fb, bpf_map__fd(fb->qp->maps.qp_events), on_qp);
	if (err)
		return err;
	/* attached first, so no QP falls between the dump and the hooks */
	err = rdmanl_for_each_qp(&nl, seed_one, fb);
	if (nl >= 0)
		close(nl);
	if (err)
		snprintf(fb->partial[FABBPF_QP], sizeof(fb->partial[0]),
			 "existing QPs unknown: RDMA netlink: %s", strerror(-err));
	return 0;
}

static int open_rxe(struct fabbpf *fb)
{
	int err;

	if (!module_btf("rdma_rxe")) {
		snprintf(fb->why[FABBPF_RXE], sizeof(fb->why[0]),
			 "unavailable: rdma_rxe not loaded");
		return 0;
	}
	fb->rxe = rxe_bpf__open_and_load();
	if (!fb->rxe)
		return -errno;
	err = rxe_bpf__attach(fb->rxe);
	if (!err)
		err = ring_add(fb, bpf_map__fd(fb->rxe->maps.rxe_events), on_rxe);
	return err;
}

int fabbpf_open(struct fabbpf **out, unsigned int want,
		const struct fabbpf_handlers *h)
{
	static int (*const openers[FABBPF_NR_PROGS])(struct fabbpf *) = {
		[FABBPF_FLAP] = open_flap,
		[FABBPF_QP] = open_qp,
		[FABBPF_RXE] = open_rxe,
	};
	struct fabbpf *fb = calloc(1, sizeof(*fb));
	int p, err;

	if (!fb)
		return -ENOMEM;
	if (h)
		fb->h = *h;
	for (p = 0; p < FABBPF_NR_PROGS; p++) {
		if (!(want & (1u << p))) {
			snprintf(fb->why[p], sizeof(fb->why[0]), "not selected");
			continue;
		}
		err = openers[p](fb);
		if (err) {
			fabbpf_close(fb);
			return err < 0 ? err : -EINVAL;
		}
	}
	*out = fb;
	return 0;
}

const char *fabbpf_unavailable(const struct fabbpf *fb, enum fabbpf_prog p)
{
	return fb->why[p][0] ? fb->why[p] : NULL;
}

unsigned int fabbpf_seeded(const struct fabbpf *fb)
{
	return fb->seeded;
}

const char *fabbpf_partial(const struct fabbpf *fb, enum fabbpf_prog p)
{
	return fb->partial[p][0] ? fb->partial[p] : NULL;
}

int fabbpf_poll(struct fabbpf *fb, int timeout_ms)
{
	if (!fb->rb) {
		usleep(timeout_ms * 1000);	/* nothing runs: just wait */
		return 0;
	}
	return ring_buffer__poll(fb->rb, timeout_ms);
}

void fabbpf_drops(const struct fabbpf *fb, struct fabbpf_drops *out)
{
	memset(out, 0, sizeof(*out));
	if (fb->flap) {
		out->flap = fb->flap->bss->flap_drops;
		out->carrier_noop_calls = fb->flap->bss->flap_noop_calls;
	}
	if (fb->qp)
		out->qp = fb->qp->bss->qp_drops;
	if (fb->rxe) {
		out->rxe = fb->rxe->bss->rxe_drops;
		out->rxe_spurious_timeouts = fb->rxe->bss->rxe_spurious_timeouts;
	}
}

struct qp_walk {
	int (*cb)(const struct qp_key *, const struct qp_info *, void *);
	void *ctx;
};

static int qp_walk_one(const void *k, const void *v, void *ctx)
{
	struct qp_walk *w = ctx;

	return w->cb(k, v, w->ctx);
}

int fabbpf_for_each_qp(const struct fabbpf *fb,
		       int (*cb)(const struct qp_key *, const struct qp_info *, void *),
		       void *ctx)
{
	struct qp_walk w = { cb, ctx };

	if (!fb->qp)
		return -ENOENT;
	return bpfmap_walk(bpf_map__fd(fb->qp->maps.qp_owners), sizeof(struct qp_key),
			sizeof(struct qp_info), qp_walk_one, &w);
}

int fabbpf_qp_lookup(const struct fabbpf *fb, __u32 dev_index, __u32 qpn, struct qp_info *out)
{
	struct qp_key key = { .dev_index = dev_index, .qpn = qpn };

	if (!fb->qp)
		return -ENOENT;
	return bpf_map_lookup_elem(bpf_map__fd(fb->qp->maps.qp_owners), &key, out) ? -errno : 0;
}

struct rxe_walk {
	int (*cb)(const struct rxe_qp_key *, const struct rxe_qp_counts *, void *);
	void *ctx;
};

static int rxe_walk_one(const void *k, const void *v, void *ctx)
{
	struct rxe_walk *w = ctx;

	return w->cb(k, v, w->ctx);
}

int fabbpf_for_each_rxe_qp(const struct fabbpf *fb,
			   int (*cb)(const struct rxe_qp_key *,
				     const struct rxe_qp_counts *, void *),
			   void *ctx)
{
	struct rxe_walk w = { cb, ctx };

	if (!fb->rxe)
		return -ENOENT;
	return bpfmap_walk(bpf_map__fd(fb->rxe->maps.rxe_qp_counts),
			sizeof(struct rxe_qp_key), sizeof(struct rxe_qp_counts),
			rxe_walk_one, &w);
}

int fabbpf_forget_rxe_qp(const struct fabbpf *fb, const struct rxe_qp_key *key)
{
	if (!fb->rxe)
		return -ENOENT;
	/* libbpf 1.x returns the negative errno */
	return bpf_map_delete_elem(bpf_map__fd(fb->rxe->maps.rxe_qp_counts), key);
}

void fabbpf_close(struct fabbpf *fb)
{
	if (!fb)
		return;
	ring_buffer__free(fb->rb);
	rxe_bpf__destroy(fb->rxe);
	qp_bpf__destroy(fb->qp);
	flap_bpf__destroy(fb->flap);
	free(fb);
}

const char *fabbpf_flap_kind_name(__u32 kind)
{
	static const char *const n[] = {
		[FLAP_CARRIER_DOWN] = "carrier_down", [FLAP_CARRIER_UP] = "carrier_up",
		[FLAP_IB_PORT_ERR] = "ib_port_err", [FLAP_IB_PORT_ACTIVE] = "ib_port_active",
		[FLAP_IB_GID_CHANGE] = "ib_gid_change",
	};

	return kind < sizeof(n) / sizeof(n[0]) && n[kind] ? n[kind] : "unknown";
}

const char *fabbpf_qp_kind_name(__u32 kind)
{
	static const char *const n[] = {
		[QP_CREATED] = "qp_created", [QP_MODIFIED] = "qp_modified",
		[QP_ERROR] = "qp_error", [QP_DESTROYED] = "qp_destroyed",
	};

	return kind < sizeof(n) / sizeof(n[0]) && n[kind] ? n[kind] : "unknown";
}

const char *fabbpf_rxe_kind_name(__u32 kind)
{
	static const char *const n[RXE_NR_KINDS] = {
		[RXE_NAK_SEQ_SENT] = "nak_seq_sent", [RXE_RNR_NAK_SENT] = "rnr_nak_sent",
		[RXE_NAK_SEQ_RCVD] = "nak_seq_rcvd", [RXE_RNR_NAK_RCVD] = "rnr_nak_rcvd",
		[RXE_NAK_OTHER_RCVD] = "nak_other_rcvd", [RXE_ACK_TIMEOUT] = "ack_timeout",
		[RXE_RETRY_EXCEEDED] = "retry_exceeded",
		[RXE_RNR_RETRY_EXCEEDED] = "rnr_retry_exceeded",
		[RXE_QP_ERROR] = "qp_error", [RXE_NAK_SEQ_STALE] = "nak_seq_stale",
	};

	return kind < RXE_NR_KINDS && n[kind] ? n[kind] : "unknown";
}

const char *fabbpf_qp_state_name(__u8 state)
{
	static const char *const n[] = {
		"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
	};

	return state < sizeof(n) / sizeof(n[0]) ? n[state] : "UNKNOWN";
}
