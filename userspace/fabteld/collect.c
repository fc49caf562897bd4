// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c - fabteld's sources and model (see collect.h).
 *
 * Each pass: read the ports (fabtel.ko snapshot files, else plain sysfs),
 * the QPs (RDMA netlink) and their owners' cgroups (/proc), and the BPF
 * maps, all without the lock; then take the lock and fold it all into the
 * model: monotonic counters, jobs, health signals and verdicts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"
#include "rdmanl.h"
#include <bpf/libbpf.h>
#include "fabbpf.h"
#include "wire_loader.h"
#include "prune.h"

#define NS	1000000000ULL
#define IB_QPS_ERR 6

static const char *const src_names[SRC_NR] = {
	"fabtel_ko", "sysfs", "bpf_flap", "bpf_qp", "bpf_rxe", "bpf_wire", "rdma_netlink",
};

static const char *const ctr_names[C_NR] = {
	"out_of_sequence", "nak_seq_err_rcvd", "implied_nak_seq_err", "local_ack_timeout",
	"retry_exceeded", "rnr_nak_rcvd", "rnr_nak_sent", "rnr_retry_exceeded",
	"duplicate_request", "out_of_buffer", "cnp_sent", "cnp_handled", "cnp_ignored",
	"ecn_marked_rx", "icrc_err", "req_cqe_err", "resp_cqe_err", "link_downed",
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
};

/* hw_counters names (Linux 6.1) -> normalized, for hosts without fabtel.ko */
static const struct {
	const char *hw;
	enum model_ctr c;
} hw_map[] = {
	/* rxe */
	{ "out_of_seq_request", C_OUT_OF_SEQUENCE }, { "rcvd_seq_err", C_NAK_SEQ_ERR_RCVD },
	{ "retry_exceeded_err", C_RETRY_EXCEEDED }, { "rcvd_rnr_err", C_RNR_NAK_RCVD },
	{ "send_rnr_err", C_RNR_NAK_SENT }, { "retry_rnr_exceeded_err", C_RNR_RETRY_EXCEEDED },
	{ "duplicate_request", C_DUPLICATE_REQUEST }, { "link_downed", C_LINK_DOWNED },
	{ "rcvd_pkts", C_RX_PACKETS }, { "sent_pkts", C_TX_PACKETS },
	/* mlx5 */
	{ "out_of_sequence", C_OUT_OF_SEQUENCE }, { "packet_seq_err", C_NAK_SEQ_ERR_RCVD },
	{ "implied_nak_seq_err", C_IMPLIED_NAK_SEQ_ERR },
	{ "local_ack_timeout_err", C_LOCAL_ACK_TIMEOUT },
	{ "rnr_nak_retry_err", C_RNR_NAK_RCVD }, { "out_of_buffer", C_OUT_OF_BUFFER },
	{ "np_cnp_sent", C_CNP_SENT }, { "rp_cnp_handled", C_CNP_HANDLED },
	{ "rp_cnp_ignored", C_CNP_IGNORED }, { "np_ecn_marked_roce_packets", C_ECN_MARKED_RX },
	{ "rx_icrc_encapsulated", C_ICRC_ERR }, { "req_cqe_error", C_REQ_CQE_ERR },
	{ "resp_cqe_error", C_RESP_CQE_ERR },
	/* bnxt_re */
	{ "oos_drop_count", C_OUT_OF_SEQUENCE }, { "seq_err_naks_rcvd", C_NAK_SEQ_ERR_RCVD },
	{ "to_retransmits", C_LOCAL_ACK_TIMEOUT }, { "max_retry_exceeded", C_RETRY_EXCEEDED },
	{ "rnr_naks_rcvd", C_RNR_NAK_RCVD }, { "dup_req", C_DUPLICATE_REQUEST },
	{ "rx_out_of_buffer", C_OUT_OF_BUFFER }, { "rx_pkts", C_RX_PACKETS },
	{ "tx_pkts", C_TX_PACKETS }, { "rx_bytes", C_RX_BYTES }, { "tx_bytes", C_TX_BYTES },
	/* irdma */
	{ "cnpSent", C_CNP_SENT }, { "cnpHandled", C_CNP_HANDLED },
	{ "cnpIgnored", C_CNP_IGNORED }, { "RxECNMrkd", C_ECN_MARKED_RX },
	{ "RxUDP", C_RX_PACKETS }, { "TxUDP", C_TX_PACKETS },
};

const char *model_source_name(enum model_source s)
{
	return s < SRC_NR ? src_names[s] : "unknown";
}

const char *model_ctr_name(enum model_ctr c)
{
	return c < C_NR ? ctr_names[c] : "unknown";
}

const char *model_event_kind(enum health_sig s)
{
	return health_sig_name(s);
}

static const char *const event_names[EV_NR] = {
	"port_added", "port_removed", "link_down", "link_up", "link_flap",
	"pause_storm", "pause_storm_end", "error_burst", "qp_error",
};

const char *model_event_name(enum model_event_kind k)
{
	return k < EV_NR ? event_names[k] : "unknown";
}

static const char *const hist_names[H_NR] = {
	"rx_gbps", "tx_gbps", "out_of_sequence", "nak_seq_err_rcvd", "local_ack_timeout",
	"retry_exceeded", "cnp_handled", "ecn_marked_rx", "pause_tx", "pause_rx",
};

const char *model_hist_name(enum model_hist h)
{
	return h < H_NR ? hist_names[h] : "unknown";
}

const struct model_hist_point *model_hist_get(const struct model_port *p, unsigned int i)
{
	if (i >= p->hist_count)
		return NULL;
	return &p->hist[(p->hist_head + MODEL_HISTORY - 1 - i) % MODEL_HISTORY];
}

static float rate_or_nan(const struct rate *r, bool have)
{
	return have && r->valid ? (float)r->per_s : NAN;
}

/* Keep this sample's rates of a port for its job traces. */
static void record_history(struct model_port *p, uint64_t now)
{
	static const struct { enum model_hist h; enum model_ctr c; } direct[] = {
		{ H_OOS, C_OUT_OF_SEQUENCE }, { H_NAK, C_NAK_SEQ_ERR_RCVD },
		{ H_ACK_TIMEOUT, C_LOCAL_ACK_TIMEOUT }, { H_RETRY, C_RETRY_EXCEEDED },
		{ H_CNP, C_CNP_HANDLED }, { H_ECN, C_ECN_MARKED_RX },
	};
	struct model_hist_point *h = &p->hist[p->hist_head];
	double tx = 0, rx = 0;
	bool pause = false;
	unsigned int i;

	h->at_ns = now;
	for (i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
		h->v[direct[i].h] = rate_or_nan(&p->rate[direct[i].c], p->have[direct[i].c]);
	/* the device's RDMA bytes, else its netdev's (rxe counts no bytes) */
	if (p->have[C_RX_BYTES]) {
		h->v[H_RX_GBPS] = rate_or_nan(&p->rate[C_RX_BYTES], true) * 8 / 1e9f;
		h->v[H_TX_GBPS] = rate_or_nan(&p->rate[C_TX_BYTES], p->have[C_TX_BYTES]) * 8 / 1e9f;
	} else {
		h->v[H_RX_GBPS] = rate_or_nan(&p->nd_rx_rate, p->have_nd) * 8 / 1e9f;
		h->v[H_TX_GBPS] = rate_or_nan(&p->nd_tx_rate, p->have_nd) * 8 / 1e9f;
	}
	for (i = 0; i < MODEL_PRIOS; i++) {
		if (!p->prio_read[i] || !p->pause_tx_rate[i].valid || !p->pause_rx_rate[i].valid)
			continue;
		tx += p->pause_tx_rate[i].per_s;
		rx += p->pause_rx_rate[i].per_s;
		pause = true;
	}
	h->v[H_PAUSE_TX] = pause ? (float)tx : NAN;
	h->v[H_PAUSE_RX] = pause ? (float)rx : NAN;
	p->hist_head = (p->hist_head + 1) % MODEL_HISTORY;
	if (p->hist_count < MODEL_HISTORY)
		p->hist_count++;
}

const struct model_event *model_event_get(const struct model *m, uint64_t seq)
{
	const struct model_event *ev;

	if (!seq || seq >= m->next_event_seq)
		return NULL;
	ev = &m->events[(seq - 1) % MODEL_MAX_EVENTS];
	return ev->seq == seq ? ev : NULL;
}

/* Log an event (under m->lock); the oldest is overwritten when the ring is full. */
static struct model_event *log_event(struct model *m, enum model_event_kind kind,
				     const char *device, uint32_t port, uint64_t at)
{
	struct model_event *ev;

	if (!m->next_event_seq)
		m->next_event_seq = 1;
	ev = &m->events[(m->next_event_seq - 1) % MODEL_MAX_EVENTS];
	memset(ev, 0, sizeof(*ev));
	ev->seq = m->next_event_seq++;
	ev->at_ns = at;
	ev->kind = kind;
	snprintf(ev->device, sizeof(ev->device), "%s", device);
	ev->port = port;
	ev->priority = -1;
	ev->qpn = -1;
	ev->count = 1;
	if (m->on_event)
		m->on_event(m->on_event_arg, m->next_event_seq);
	return ev;
}

struct model_event *model_log_event(struct model *m, enum model_event_kind kind,
				    const char *device, uint32_t port, uint64_t at_ns)
{
	return log_event(m, kind, device, port, at_ns);
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

/* Read a small file whole; its length, or -1.  Trailing newline stripped. */
static ssize_t read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

static int read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return errno || (*end && *end != ' ') ? -1 : 0;
}

/* ---- the pass's raw readings (no lock) ---------------------------------- */

struct raw_port {
	char device[64];
	uint32_t port;
	char netdev[IF_NAMESIZE];
	char driver[32];
	char state[24];
	int carrier;
	uint64_t flaps;
	bool have_flaps;
	uint64_t ctr[C_NR];
	bool have[C_NR];
	uint64_t bursts;
	bool have_bursts;
	bool pfc_read;
	uint8_t pfc_mask;
	bool prio_read[MODEL_PRIOS];
	uint64_t pause_tx[MODEL_PRIOS], pause_rx[MODEL_PRIOS], storms[MODEL_PRIOS];
	bool storm[MODEL_PRIOS];
	bool have_nd;			/* the netdev's byte counters */
	uint64_t nd_rx_bytes, nd_tx_bytes;
};

struct raw_qp {
	struct rdmanl_qp nl;
	char comm[16];
	struct job_match job;
	bool has_job;
};

struct raw {
	struct raw_port ports[MODEL_MAX_PORTS];
	unsigned int nr_ports;
	bool ko, ko_error, sysfs_ok;
	char ko_why[160], sysfs_why[160];
	struct raw_qp qps[MODEL_MAX_QPS];
	unsigned int nr_qps, qps_over;
	int nl_err;
	/* BPF: per-QP counts */
	struct { uint32_t dev_index, qpn; uint64_t n[16]; } rxe[MODEL_MAX_QPS];
	unsigned int nr_rxe;
	struct { uint32_t ifindex, qpn, dir; uint64_t pkts; } wire[MODEL_MAX_QPS];
	unsigned int nr_wire;
	bool rxe_err, wire_err;	/* a map walk failed: its entries are partial */
	uint64_t ports_mono;	/* CLOCK_MONOTONIC when the ports were read */
};

static struct raw raw;		/* only the collector thread uses it */

static void path_of(const struct config *cfg, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void path_of(const struct config *cfg, char *out, size_t len, const char *fmt, ...)
{
	char rel[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(out, len, "%s%s", cfg->sysfs_root, rel);
}

/* Parse one fabtel.ko snapshot (Documentation/ABI/testing/sysfs-kernel-fabtel). */
static int parse_snapshot(char *text, struct raw_port *p)
{
	char *save = NULL, *line, key[32], name[64], val[32];
	unsigned long long a, b, c, d, e, f;
	unsigned int prio;
	int n, i;
	bool ended = false;

	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, "fabtel-snapshot 1"))
		return -EPROTO;
	p->carrier = -1;
	for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "end") || !strcmp(line, "truncated")) {
			ended = true;
			break;
		}
		if (sscanf(line, "%31s", key) != 1)
			continue;
		if (!strcmp(key, "counter") && sscanf(line, "counter %63s %31s", name, val) == 2) {
			for (i = 0; i < C_NR && strcmp(name, ctr_names[i]); i++)
				;
			if (i < C_NR && strcmp(val, "-")) {
				p->ctr[i] = strtoull(val, NULL, 10);
				p->have[i] = true;
			}
		} else if (!strcmp(key, "device")) {
			sscanf(line, "device %63s", p->device);
		} else if (!strcmp(key, "port")) {
			sscanf(line, "port %u", &p->port);
		} else if (!strcmp(key, "driver")) {
			sscanf(line, "driver %31s", p->driver);
		} else if (!strcmp(key, "netdev")) {
			if (sscanf(line, "netdev %15s", p->netdev) == 1 && !strcmp(p->netdev, "-"))
				p->netdev[0] = '\0';
		} else if (!strcmp(key, "link_state")) {
			sscanf(line, "link_state %23s", p->state);
		} else if (!strcmp(key, "link_carrier")) {
			if (sscanf(line, "link_carrier %d", &n) == 1)
				p->carrier = n;
		} else if (!strcmp(key, "link_flaps")) {
			if (sscanf(line, "link_flaps %llu", &a) == 1) {
				p->flaps = a;
				p->have_flaps = true;
			}
		} else if (!strcmp(key, "events_seq")) {
			if (sscanf(line, "events_seq %llu", &a) == 1) {
				p->bursts = a;
				p->have_bursts = true;
			}
		} else if (!strcmp(key, "pfc_enabled_mask")) {
			if (sscanf(line, "pfc_enabled_mask %llx", &a) == 1) {
				p->pfc_mask = (uint8_t)a;
				p->pfc_read = true;
			}
		} else if (!strcmp(key, "pfc_prio")) {
			if (sscanf(line, "pfc_prio %u %llu %llu %llu %llu %llu %llu", &prio, &a, &b,
				   &c, &d, &e, &f) == 7 && prio < MODEL_PRIOS) {
				p->prio_read[prio] = true;
				p->pause_tx[prio] = b;
				p->pause_rx[prio] = c;
				p->storm[prio] = d;
				p->storms[prio] = e;
			}
		}
	}
	return ended && p->device[0] && p->port ? 0 : -EPROTO;
}

/*
 * Call fn(cfg, r, base, dev, port) for each port directory base =
 * DIR/<dev>/ports/<port> (DIR is /sys/kernel/fabtel or /sys/class/infiniband,
 * their layouts agree) while r has room.  -errno if DIR cannot be opened.
 */
typedef void (*port_fn)(const struct config *cfg, struct raw *r, const char *base,
			const char *dev, const char *port);

static int walk_ports(const struct config *cfg, struct raw *r, const char *dir, port_fn fn)
{
	char path[900];
	struct dirent *d, *pd;
	DIR *devs, *ports;

	devs = opendir(dir);
	if (!devs)
		return -errno;
	while ((d = readdir(devs))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/ports", dir, d->d_name);
		ports = opendir(path);
		if (!ports)
			continue;	/* not a device directory, or it just went away */
		while ((pd = readdir(ports)) && r->nr_ports < MODEL_MAX_PORTS) {
			if (pd->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/ports/%s", dir, d->d_name, pd->d_name);
			fn(cfg, r, path, d->d_name, pd->d_name);
		}
		closedir(ports);
	}
	closedir(devs);
	return 0;
}

/*
 * The netdev's byte counters: the throughput of a port whose RDMA device
 * counts no bytes (rxe).  They include the netdev's non-RDMA traffic.
 */
static void read_netdev_bytes(const struct config *cfg, struct raw_port *p)
{
	char path[600];

	if (!p->netdev[0])
		return;
	path_of(cfg, path, sizeof(path), "/sys/class/net/%s/statistics/rx_bytes", p->netdev);
	if (read_u64(path, &p->nd_rx_bytes))
		return;
	path_of(cfg, path, sizeof(path), "/sys/class/net/%s/statistics/tx_bytes", p->netdev);
	p->have_nd = !read_u64(path, &p->nd_tx_bytes);
}

static void read_ko_port(const struct config *cfg, struct raw *r, const char *base,
			 const char *dev, const char *port)
{
	struct raw_port *p = &r->ports[r->nr_ports];
	char path[1000], buf[8192];

	(void)dev;
	(void)port;
	snprintf(path, sizeof(path), "%s/snapshot", base);
	if (read_text(path, buf, sizeof(buf)) < 0)
		return;		/* device removed mid-read */
	memset(p, 0, sizeof(*p));
	if (parse_snapshot(buf, p)) {
		r->ko_error = true;
		snprintf(r->ko_why, sizeof(r->ko_why), "%s: not a version 1 snapshot", path);
		return;
	}
	read_netdev_bytes(cfg, p);
	r->nr_ports++;
}

static void read_sysfs_port(const struct config *cfg, struct raw *r, const char *base,
			    const char *dev, const char *port)
{
	char path[1200], buf[256];
	struct raw_port *p = &r->ports[r->nr_ports];
	struct dirent *c;
	uint64_t v;
	size_t i;
	DIR *hw;

	snprintf(path, sizeof(path), "%s/link_layer", base);
	if (read_text(path, buf, sizeof(buf)) < 0 || strcmp(buf, "Ethernet"))
		return;
	memset(p, 0, sizeof(*p));
	snprintf(p->device, sizeof(p->device), "%s", dev);
	p->port = (uint32_t)strtoul(port, NULL, 10);
	p->carrier = -1;
	snprintf(p->driver, sizeof(p->driver), "-");
	snprintf(path, sizeof(path), "%s/state", base);
	if (read_text(path, buf, sizeof(buf)) > 0)	/* "4: ACTIVE" */
		snprintf(p->state, sizeof(p->state), "%s",
			 strchr(buf, ' ') ? strchr(buf, ' ') + 1 : buf);
	snprintf(path, sizeof(path), "%s/gid_attrs/ndevs/0", base);
	if (read_text(path, buf, sizeof(buf)) > 0 && strlen(buf) < sizeof(p->netdev))
		snprintf(p->netdev, sizeof(p->netdev), "%s", buf);
	if (p->netdev[0]) {
		path_of(cfg, path, sizeof(path), "/sys/class/net/%s/carrier", p->netdev);
		if (!read_u64(path, &v))
			p->carrier = (int)v;
		path_of(cfg, path, sizeof(path), "/sys/class/net/%s/carrier_down_count",
			p->netdev);
		if (!read_u64(path, &v)) {
			p->flaps = v;
			p->have_flaps = true;
		}
	}
	snprintf(path, sizeof(path), "%s/hw_counters", base);
	hw = opendir(path);
	while (hw && (c = readdir(hw))) {
		for (i = 0; i < sizeof(hw_map) / sizeof(hw_map[0]); i++) {
			if (strcmp(c->d_name, hw_map[i].hw))
				continue;
			snprintf(path, sizeof(path), "%s/hw_counters/%s", base, c->d_name);
			if (!read_u64(path, &v)) {
				p->ctr[hw_map[i].c] = v;
				p->have[hw_map[i].c] = true;
			}
		}
	}
	if (hw)
		closedir(hw);
	read_netdev_bytes(cfg, p);
	r->nr_ports++;
}

static void read_ko(const struct config *cfg, struct raw *r)
{
	char dir[600];
	int err;

	path_of(cfg, dir, sizeof(dir), "/sys/kernel/fabtel");
	err = walk_ports(cfg, r, dir, read_ko_port);
	if (err)
		snprintf(r->ko_why, sizeof(r->ko_why), "fabtel.ko not loaded (%s: %s)", dir,
			 strerror(-err));
	r->ko = !err;
}

static void read_sysfs(const struct config *cfg, struct raw *r)
{
	char dir[600];
	int err;

	path_of(cfg, dir, sizeof(dir), "/sys/class/infiniband");
	err = walk_ports(cfg, r, dir, read_sysfs_port);
	if (err)
		snprintf(r->sysfs_why, sizeof(r->sysfs_why), "no RDMA devices (%s: %s)", dir,
			 strerror(-err));
	r->sysfs_ok = !err;
}

static int qp_cb(const struct rdmanl_qp *qp, void *ctx)
{
	struct raw *r = ctx;

	if (r->nr_qps == MODEL_MAX_QPS) {
		r->qps_over++;
		return 0;
	}
	memset(&r->qps[r->nr_qps], 0, sizeof(r->qps[0]));
	r->qps[r->nr_qps++].nl = *qp;
	return 0;
}

/* Owner's comm and job, from /proc (the process may be gone: no job). */
static void qp_owner(const struct config *cfg, struct raw_qp *q)
{
	char path[400], text[8192];

	if (!q->nl.pid)
		return;
	snprintf(path, sizeof(path), "%s/proc/%u/comm", cfg->proc_root, q->nl.pid);
	if (read_text(path, q->comm, sizeof(q->comm)) < 0)
		q->comm[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/%u/cgroup", cfg->proc_root, q->nl.pid);
	if (read_text(path, text, sizeof(text)) < 0)
		return;
	q->has_job = job_match_proc_cgroup(text, cfg->job_rules, cfg->nr_job_rules, &q->job);
}

/* ---- BPF ------------------------------------------------------------------ */

struct collect_bpf {
	struct fabbpf *fb;
	struct wire_loader *wl;
	struct model *m;
	struct prune rxe_prune, wire_prune;	/* entries of QPs that are gone */
	pthread_t events;		/* polls the ring buffers: flaps logged at once */
	bool events_running;
	atomic_bool events_stop;
};

static void on_flap(const struct flap_event *e, void *ctx)
{
	struct model *m = ctx;
	uint64_t real = now_ns(CLOCK_REALTIME), boot = now_ns(CLOCK_BOOTTIME), at;
	unsigned int i;

	if (!e->ifindex)
		return;
	pthread_mutex_lock(&m->lock);
	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		struct model_port *p = &m->ports[i];

		if (!p->present || p->ifindex != (int)e->ifindex)
			continue;
		p->bpf_transitions++;
		at = real - (boot > e->ns ? boot - e->ns : 0);
		if (e->kind == FLAP_CARRIER_DOWN)
			p->last_flap_ns = at;
		/* logged now, with the kernel's time, not at the next sample */
		if ((e->kind == FLAP_CARRIER_DOWN || e->kind == FLAP_CARRIER_UP) &&
		    p->carrier_logged != (e->kind == FLAP_CARRIER_UP)) {
			p->carrier_logged = e->kind == FLAP_CARRIER_UP;
			log_event(m, p->carrier_logged ? EV_LINK_UP : EV_LINK_DOWN, p->device,
				  p->port, at);
		}
	}
	pthread_mutex_unlock(&m->lock);
}

static int rxe_cb(const struct rxe_qp_key *k, const struct rxe_qp_counts *c, void *ctx)
{
	struct raw *r = ctx;
	unsigned int i;

	if (r->nr_rxe == MODEL_MAX_QPS)
		return 1;
	r->rxe[r->nr_rxe].dev_index = k->dev_index;
	r->rxe[r->nr_rxe].qpn = k->qpn;
	for (i = 0; i < RXE_NR_KINDS && i < 16; i++)
		r->rxe[r->nr_rxe].n[i] = c->n[i];
	r->nr_rxe++;
	return 0;
}

static int wire_cb(const struct wire_qp_key *k, const struct wire_qp_val *v, void *ctx)
{
	struct raw *r = ctx;

	if (r->nr_wire == MODEL_MAX_QPS)
		return 1;
	r->wire[r->nr_wire].ifindex = k->ifindex;
	r->wire[r->nr_wire].qpn = k->qpn;
	r->wire[r->nr_wire].dir = k->dir;
	r->wire[r->nr_wire].pkts = v->pkts;
	r->nr_wire++;
	return 0;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_WARN)
		return vfprintf(stderr, fmt, args);
	return 0;
}

static void bpf_init(struct model *m, const struct config *cfg)
{
	static const char *const why_off = "disabled (bpf = off)";
	int s;

	for (s = SRC_BPF_FLAP; s <= SRC_BPF_WIRE; s++)
		m->src[s] = SRC_UNAVAILABLE;
	if (cfg->bpf == CONFIG_OFF) {
		for (s = SRC_BPF_FLAP; s <= SRC_BPF_WIRE; s++)
			snprintf(m->why[s], sizeof(m->why[s]), "%s", why_off);
		return;
	}
	if (geteuid() != 0) {
		for (s = SRC_BPF_FLAP; s <= SRC_BPF_WIRE; s++)
			snprintf(m->why[s], sizeof(m->why[s]),
				 "not root: start fabteld as root to load BPF (it drops privileges after)");
		return;
	}
	{
		struct fabbpf_handlers h = { on_flap, NULL, NULL, m };
		static const enum fabbpf_prog progs[] = { FABBPF_FLAP, FABBPF_QP, FABBPF_RXE };
		static const int srcs[] = { SRC_BPF_FLAP, SRC_BPF_QP, SRC_BPF_RXE };
		const char *why;
		int err;
		unsigned int i;

		libbpf_set_print(quiet_print);
		m->bpf = calloc(1, sizeof(*m->bpf));
		if (!m->bpf)
			return;
		m->bpf->m = m;
		err = fabbpf_open(&m->bpf->fb, (1u << FABBPF_FLAP) | (1u << FABBPF_QP) |
				  (1u << FABBPF_RXE), &h);
		for (i = 0; i < 3; i++) {
			why = err ? strerror(-err) : fabbpf_unavailable(m->bpf->fb, progs[i]);
			m->src[srcs[i]] = why ? SRC_UNAVAILABLE : SRC_UP;
			if (why)
				snprintf(m->why[srcs[i]], sizeof(m->why[0]), "%s", why);
		}
		if (cfg->wire == CONFIG_OFF) {
			snprintf(m->why[SRC_BPF_WIRE], sizeof(m->why[0]), "disabled (wire = off)");
		} else {
			err = wire_loader_open(&m->bpf->wl);
			if (err)
				snprintf(m->why[SRC_BPF_WIRE], sizeof(m->why[0]), "loading: %s",
					 strerror(-err));
			else
				snprintf(m->why[SRC_BPF_WIRE], sizeof(m->why[0]),
					 "no RoCE netdev to attach to");
		}
	}
}

void collect_attach_wire(struct model *m)
{
	unsigned int i, ok = 0, bad = 0;
	int err = 0;

	if (!m->bpf || !m->bpf->wl)
		return;
	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		if (!m->ports[i].present || m->ports[i].ifindex <= 0)
			continue;
		err = wire_loader_attach(m->bpf->wl, m->ports[i].ifindex);
		if (err) {
			bad++;
			snprintf(m->why[SRC_BPF_WIRE], sizeof(m->why[0]), "attaching to %s: %s",
				 m->ports[i].netdev, strerror(-err));
		} else {
			ok++;
		}
	}
	if (ok && !bad)
		m->src[SRC_BPF_WIRE] = SRC_UP;
}

int collect_init(struct model *m, const struct config *cfg)
{
	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	m->cfg = cfg;
	m->started_ns = now_ns(CLOCK_REALTIME);
	bpf_init(m, cfg);
	return 0;
}

/*
 * The BPF ring buffers are polled by a thread of their own, so a carrier
 * event is logged (with the kernel's time) when it comes, not after the
 * collection pass that happens to be running.  The handlers take m->lock.
 */
static void *events_thread(void *arg)
{
	struct collect_bpf *b = arg;

	while (!b->events_stop)
		fabbpf_poll(b->fb, 200);
	return NULL;
}

void collect_start_events(struct model *m)
{
	if (!m->bpf || !m->bpf->fb || m->bpf->events_running ||
	    (m->src[SRC_BPF_FLAP] != SRC_UP && m->src[SRC_BPF_QP] != SRC_UP &&
	     m->src[SRC_BPF_RXE] != SRC_UP))
		return;
	m->bpf->events_running = !pthread_create(&m->bpf->events, NULL, events_thread, m->bpf);
}

void collect_fini(struct model *m)
{
	if (m->bpf && m->bpf->events_running) {
		m->bpf->events_stop = true;
		pthread_join(m->bpf->events, NULL);
		m->bpf->events_running = false;
	}
	if (m->bpf) {
		prune_free(&m->bpf->rxe_prune);
		prune_free(&m->bpf->wire_prune);
		wire_loader_close(m->bpf->wl);
		fabbpf_close(m->bpf->fb);
		free(m->bpf);
		m->bpf = NULL;
	}
	pthread_mutex_destroy(&m->lock);
}

void collect_wait(struct model *m, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	if (m->bpf && m->bpf->fb && !m->bpf->events_running &&
	    (m->src[SRC_BPF_FLAP] == SRC_UP || m->src[SRC_BPF_QP] == SRC_UP ||
	     m->src[SRC_BPF_RXE] == SRC_UP)) {
		fabbpf_poll(m->bpf->fb, ms);
		return;
	}
	nanosleep(&ts, NULL);
}

/* ---- folding the readings into the model (under the lock) ------------- */

const struct model_port *model_find_port(const struct model *m, const char *dev, uint32_t port)
{
	unsigned int i;

	for (i = 0; i < MODEL_MAX_PORTS; i++)
		if (m->ports[i].present && m->ports[i].port == port &&
		    !strcmp(m->ports[i].device, dev))
			return &m->ports[i];
	return NULL;
}

/* the collector's own, writable view of the same lookup */
static struct model_port *find_port(struct model *m, const char *dev, uint32_t port)
{
	return (struct model_port *)model_find_port(m, dev, port);
}

static struct model_job *find_job(struct model *m, const struct job_match *id, bool create,
				  uint64_t now)
{
	struct model_job *free_slot = NULL;
	unsigned int i;

	for (i = 0; i < MODEL_MAX_JOBS; i++) {
		struct model_job *j = &m->jobs[i];

		if (!j->present) {
			if (!free_slot)
				free_slot = j;
			continue;
		}
		if (j->id.kind == id->kind && !strcmp(j->id.id, id->id))
			return j;
	}
	if (!create)
		return NULL;
	if (!free_slot) {
		m->jobs_dropped++;
		return NULL;
	}
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->present = true;
	free_slot->id = *id;
	free_slot->first_ns = now;
	health_init(&free_slot->track);
	return free_slot;
}

static struct model_job_port *job_port(struct model_job *j, const struct model_port *p)
{
	unsigned int i;

	for (i = 0; i < j->nr_ports; i++)
		if (j->ports[i].port == p->port && !strcmp(j->ports[i].device, p->device))
			return &j->ports[i];
	if (j->nr_ports == MODEL_MAX_JOB_PORTS)
		return NULL;
	memset(&j->ports[j->nr_ports], 0, sizeof(j->ports[0]));
	snprintf(j->ports[j->nr_ports].device, sizeof(j->ports[0].device), "%s", p->device);
	j->ports[j->nr_ports].port = p->port;
	snprintf(j->ports[j->nr_ports].netdev, sizeof(j->ports[0].netdev), "%s", p->netdev);
	return &j->ports[j->nr_ports++];
}

static void signal_job(struct model_job *j, enum health_sig sig, const char *dev, uint32_t port,
		       uint64_t n, bool shared, uint64_t at)
{
	struct health_signal s = { .at_ns = at, .sig = sig, .port = port, .n = n,
				   .shared = shared };

	snprintf(s.device, sizeof(s.device), "%s", dev);
	health_add(&j->track, &s);
}

static void fold_ports(struct model *m, const struct raw *r, uint64_t now)
{
	unsigned int i, k, c;
	bool seen[MODEL_MAX_PORTS] = { false };
	struct model_event *ev;

	for (i = 0; i < r->nr_ports; i++) {
		const struct raw_port *rp = &r->ports[i];
		struct model_port *p = find_port(m, rp->device, rp->port);
		uint64_t before;
		bool was_storm;

		if (!p) {
			for (k = 0; k < MODEL_MAX_PORTS && m->ports[k].present; k++)
				;
			if (k == MODEL_MAX_PORTS)
				continue;
			p = &m->ports[k];
			memset(p, 0, sizeof(*p));
			p->present = true;
			p->carrier = -1;
			p->carrier_logged = -1;
			snprintf(p->device, sizeof(p->device), "%s", rp->device);
			p->port = rp->port;
			if (m->samples)		/* not the ports there at start */
				log_event(m, EV_PORT_ADDED, p->device, p->port, now);
		}
		seen[p - m->ports] = true;
		snprintf(p->netdev, sizeof(p->netdev), "%s", rp->netdev);
		p->ifindex = p->netdev[0] ? (int)if_nametoindex(p->netdev) : 0;
		snprintf(p->driver, sizeof(p->driver), "%s", rp->driver[0] ? rp->driver : "-");
		snprintf(p->state, sizeof(p->state), "%s", rp->state);
		p->carrier = rp->carrier;
		if (p->carrier_logged < 0) {
			p->carrier_logged = p->carrier;
		} else if (p->carrier >= 0 && p->carrier != p->carrier_logged &&
			   (m->src[SRC_BPF_FLAP] != SRC_UP || p->ifindex <= 0)) {
			/*
			 * Without the flap program, a change seen by sampling.  With
			 * it, its events (exact, handled as they come) are the word:
			 * a reading taken before an event it has already reported
			 * would log the change a second time, backwards.
			 */
			p->carrier_logged = p->carrier;
			log_event(m, p->carrier ? EV_LINK_UP : EV_LINK_DOWN, p->device, p->port, now);
		}
		for (c = 0; c < C_NR; c++) {
			p->have[c] = rp->have[c];
			if (!rp->have[c])
				continue;
			/* fabtel.ko extends 32-bit counters itself */
			if (r->ko)
				mono_update64(&p->ctr[c], rp->ctr[c]);
			else
				mono_update(&p->ctr[c], rp->ctr[c]);
			rate_update(&p->rate[c], p->ctr[c].total, r->ports_mono);
		}
		p->have_nd = rp->have_nd;
		if (rp->have_nd) {
			mono_update64(&p->nd_rx, rp->nd_rx_bytes);
			mono_update64(&p->nd_tx, rp->nd_tx_bytes);
			rate_update(&p->nd_rx_rate, p->nd_rx.total, r->ports_mono);
			rate_update(&p->nd_tx_rate, p->nd_tx.total, r->ports_mono);
		}
		p->have_bursts = rp->have_bursts;
		if (rp->have_bursts) {
			before = p->bursts.primed ? p->bursts.total : rp->bursts;
			mono_update(&p->bursts, rp->bursts);
			if (p->bursts.total > before) {
				ev = log_event(m, EV_ERROR_BURST, p->device, p->port, now);
				ev->count = p->bursts.total - before;
			}
		}
		p->pfc_read = rp->pfc_read;
		p->pfc_enabled_mask = rp->pfc_mask;
		for (k = 0; k < MODEL_PRIOS; k++) {
			p->prio_read[k] = rp->prio_read[k];
			if (!rp->prio_read[k])
				continue;
			mono_update(&p->pause_tx[k], rp->pause_tx[k]);
			mono_update(&p->pause_rx[k], rp->pause_rx[k]);
			mono_update(&p->storms[k], rp->storms[k]);
			rate_update(&p->pause_tx_rate[k], p->pause_tx[k].total, r->ports_mono);
			rate_update(&p->pause_rx_rate[k], p->pause_rx[k].total, r->ports_mono);
			was_storm = p->storm[k];
			p->storm[k] = rp->storm[k];
			if (was_storm != p->storm[k]) {
				ev = log_event(m, p->storm[k] ? EV_PAUSE_STORM : EV_PAUSE_STORM_END,
					       p->device, p->port, now);
				ev->priority = (int)k;
			}
		}
		p->have_flaps = rp->have_flaps;
		if (rp->have_flaps) {
			before = p->flaps.primed ? p->flaps.total : rp->flaps;
			mono_update(&p->flaps, rp->flaps);
			if (p->flaps.total > before) {
				if (!p->last_flap_ns || p->last_flap_ns + 30 * NS < now)
					p->last_flap_ns = now;	/* BPF did not time it */
				ev = log_event(m, EV_LINK_FLAP, p->device, p->port, p->last_flap_ns);
				ev->count = p->flaps.total - before;
			}
		}
	}
	for (i = 0; i < MODEL_MAX_PORTS; i++)
		if (m->ports[i].present && seen[i])
			record_history(&m->ports[i], now);
	for (i = 0; i < MODEL_MAX_PORTS; i++)
		if (m->ports[i].present && !seen[i]) {
			m->ports[i].present = false;	/* device gone */
			log_event(m, EV_PORT_REMOVED, m->ports[i].device, m->ports[i].port, now);
		}
}

/*
 * The QP table is looked up once per QP per source each pass: by a hash
 * index, not by walking 4096 slots (a thousand QPs made that a gigabyte of
 * memory read per pass).
 */
static unsigned int qp_hash(uint32_t dev_index, uint32_t qpn)
{
	return ((qpn * 2654435761u) ^ (dev_index * 40503u)) & (MODEL_QP_INDEX - 1);
}

static void qp_index_add(struct model *m, unsigned int slot)
{
	unsigned int h = qp_hash(m->qps[slot].dev_index, m->qps[slot].qpn);

	while (m->qp_index[h])
		h = (h + 1) & (MODEL_QP_INDEX - 1);
	m->qp_index[h] = (uint16_t)(slot + 1);
}

static void qp_index_rebuild(struct model *m)
{
	unsigned int i;

	memset(m->qp_index, 0, sizeof(m->qp_index));
	for (i = 0; i < MODEL_MAX_QPS; i++)
		if (m->qps[i].present)
			qp_index_add(m, i);
}

/* never full: at most MODEL_MAX_QPS of MODEL_QP_INDEX entries are used */
static struct model_qp *find_qp(struct model *m, uint32_t dev_index, uint32_t qpn)
{
	unsigned int h = qp_hash(dev_index, qpn);
	struct model_qp *q;

	for (; m->qp_index[h]; h = (h + 1) & (MODEL_QP_INDEX - 1)) {
		q = &m->qps[m->qp_index[h] - 1];
		if (q->present && q->dev_index == dev_index && q->qpn == qpn)
			return q;
	}
	return NULL;
}

/* the rxe program's per-QP kinds that are job health signals; -1: not one */
static int rxe_signal(unsigned int kind)
{
	switch (kind) {
	case RXE_NAK_SEQ_SENT:
		return HS_OUT_OF_SEQUENCE;
	case RXE_NAK_SEQ_RCVD:
		return HS_NAK_SEQ_RCVD;
	case RXE_RNR_NAK_RCVD:
		return HS_RNR_NAK;
	case RXE_ACK_TIMEOUT:
		return HS_ACK_TIMEOUT;
	case RXE_RETRY_EXCEEDED:
		return HS_RETRY_EXCEEDED;
	case RXE_RNR_RETRY_EXCEEDED:
		return HS_RNR_RETRY_EXCEEDED;
	default:
		return -1;
	}
}

static void fold_qps(struct model *m, const struct raw *r, uint64_t now)
{
	bool seen[MODEL_MAX_QPS] = { false };
	unsigned int i, k, free_from = 0;

	for (i = 0; i < MODEL_MAX_JOBS; i++)
		m->jobs[i].nr_qps = 0;
	/* qp_index is current: collect_init zeroed it, the last pass rebuilt it */
	for (i = 0; i < r->nr_qps; i++) {
		const struct raw_qp *rq = &r->qps[i];
		struct model_qp *q = find_qp(m, rq->nl.dev_index, rq->nl.qpn);
		struct model_job *j;

		if (!rq->nl.pid)
			continue;	/* kernel QPs (GSI, ...) belong to no job */
		if (!q) {
			for (k = free_from; k < MODEL_MAX_QPS && m->qps[k].present; k++)
				;
			free_from = k;
			if (k == MODEL_MAX_QPS) {
				m->qps_dropped++;
				continue;
			}
			q = &m->qps[k];
			memset(q, 0, sizeof(*q));
			q->present = true;
			q->dev_index = rq->nl.dev_index;
			q->qpn = rq->nl.qpn;
			q->first_ns = now;
			q->job = -1;
			q->wire_prev = UINT64_MAX;
			for (k = 0; k < 16; k++)
				q->rxe_prev[k] = UINT64_MAX;
			qp_index_add(m, (unsigned int)(q - m->qps));
		}
		seen[q - m->qps] = true;
		snprintf(q->device, sizeof(q->device), "%s", rq->nl.dev_name);
		q->port = rq->nl.port;
		q->rqpn = rq->nl.rqpn;
		q->pid = rq->nl.pid;
		q->type = rq->nl.type;
		q->state = rq->nl.has_state ? rq->nl.state : 0;
		if (q->comm[0] == '\0' || rq->comm[0])
			snprintf(q->comm, sizeof(q->comm), "%s", rq->comm);
		if (rq->has_job) {
			j = find_job(m, &rq->job, true, now);
			q->job = j ? (int)(j - m->jobs) : -1;
		}
		if (q->job < 0)
			continue;
		j = &m->jobs[q->job];
		j->nr_qps++;
		j->last_qp_ns = now;
		/* QP error: still in ERR a sample later (a teardown passes through ERR) */
		q->err_samples = q->state == IB_QPS_ERR ? q->err_samples + 1 : 0;
		if (q->err_samples == 2 && q->port) {
			struct model_port *p = find_port(m, q->device, q->port);
			struct model_job_port *jp = p ? job_port(j, p) : NULL;

			struct model_event *ev;

			if (jp)
				jp->events[HS_QP_ERROR]++;
			signal_job(j, HS_QP_ERROR, q->device, q->port, 1, false, now);
			ev = log_event(m, EV_QP_ERROR, q->device, q->port, now);
			ev->qpn = q->qpn;
			snprintf(ev->job_id, sizeof(ev->job_id), "%s", j->id.id);
		}
	}
	for (i = 0; i < MODEL_MAX_QPS; i++)
		if (m->qps[i].present && !seen[i])
			m->qps[i].present = false;
	qp_index_rebuild(m);
}

/*
 * A wire map entry as one sortable key: interface, direction, BTH QP number
 * (24 bits).  fold_bpf() looks QPs up in the entries sorted by it, and
 * prune_bpf() names dead entries by it.
 */
static uint64_t wire_key(uint32_t ifindex, uint32_t dir, uint32_t qpn)
{
	return (uint64_t)ifindex << 32 | (uint64_t)(dir & 0xff) << 24 | (qpn & 0xffffff);
}

struct wire_ent {
	uint64_t key, pkts;
};

static int cmp_wire_ent(const void *a, const void *b)
{
	const struct wire_ent *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Add the packets of the entry with this key, if there is one. */
static bool wire_add(const struct wire_ent *w, size_t n, uint64_t key, uint64_t *pkts)
{
	struct wire_ent k = { .key = key };
	const struct wire_ent *e = n ? bsearch(&k, w, n, sizeof(*w), cmp_wire_ent) : NULL;

	if (e)
		*pkts += e->pkts;
	return e;
}

/* per-QP BPF counts: the rxe program's events and the wire program's packets */
static void fold_bpf(struct model *m, const struct raw *r, uint64_t now)
{
	static struct wire_ent wire[MODEL_MAX_QPS];	/* collector thread only */
	unsigned int i, k;
	int sig;

	for (i = 0; i < r->nr_rxe; i++) {
		struct model_qp *q = find_qp(m, r->rxe[i].dev_index, r->rxe[i].qpn);
		struct model_port *p;
		struct model_job_port *jp;
		uint64_t d;

		if (!q || q->job < 0 || !q->port || !(p = find_port(m, q->device, q->port)))
			continue;
		jp = job_port(&m->jobs[q->job], p);
		for (k = 1; k < 16; k++) {
			sig = rxe_signal(k);
			if (q->rxe_prev[k] == UINT64_MAX) {
				/* first look: what happened before the QP was known still counts */
				d = r->rxe[i].n[k];
			} else {
				d = r->rxe[i].n[k] - q->rxe_prev[k];
			}
			q->rxe_prev[k] = r->rxe[i].n[k];
			if (sig < 0 || !d || r->rxe[i].n[k] < d)
				continue;
			if (jp)
				jp->events[sig] += d;
			signal_job(&m->jobs[q->job], sig, p->device, p->port, d, false, now);
		}
	}
	/* each wire entry is one key, so a QP's two lookups find at most one each */
	for (k = 0; k < r->nr_wire; k++) {
		wire[k].key = wire_key(r->wire[k].ifindex, r->wire[k].dir, r->wire[k].qpn);
		wire[k].pkts = r->wire[k].pkts;
	}
	qsort(wire, r->nr_wire, sizeof(wire[0]), cmp_wire_ent);
	for (i = 0; i < MODEL_MAX_QPS; i++) {
		struct model_qp *q = &m->qps[i];
		struct model_port *p;
		uint64_t pkts = 0;
		bool found;

		if (!q->present || q->job < 0 || !q->port || !(p = find_port(m, q->device, q->port)))
			continue;
		/* ingress: BTH DestQP is ours; egress: it is the peer's */
		found = wire_add(wire, r->nr_wire,
				 wire_key((uint32_t)p->ifindex, WIRE_DIR_INGRESS, q->qpn), &pkts);
		if (q->rqpn)
			found |= wire_add(wire, r->nr_wire,
					  wire_key((uint32_t)p->ifindex, WIRE_DIR_EGRESS, q->rqpn),
					  &pkts);
		if (found && q->wire_prev != UINT64_MAX && pkts > q->wire_prev)
			signal_job(&m->jobs[q->job], HS_TRAFFIC, p->device, p->port,
				   pkts - q->wire_prev, false, now);
		q->wire_prev = found ? pkts : q->wire_prev;
	}
}

/* The port counters that stand in for per-QP events when the rxe program is absent. */
#define NR_PORT_SIGS 4
static const enum model_ctr port_ctr[NR_PORT_SIGS] = {
	C_OUT_OF_SEQUENCE, C_NAK_SEQ_ERR_RCVD, C_LOCAL_ACK_TIMEOUT, C_RETRY_EXCEEDED,
};
static const enum health_sig port_sig[NR_PORT_SIGS] = {
	HS_OUT_OF_SEQUENCE, HS_NAK_SEQ_RCVD, HS_ACK_TIMEOUT, HS_RETRY_EXCEEDED,
};

/* Port-level happenings for the jobs using each port; shared flags; verdicts. */
static void fold_jobs(struct model *m, uint64_t now, const uint64_t *prev_flaps,
		      const uint64_t *prev_storms,
		      const uint64_t (*prev_ctr)[NR_PORT_SIGS])
{
	const struct config *cfg = m->cfg;
	bool per_qp = m->src[SRC_BPF_RXE] == SRC_UP;
	struct health_signal down[MODEL_MAX_JOB_PORTS];
	unsigned int i, k, x, users, nd;

	for (i = 0; i < MODEL_MAX_JOBS; i++) {
		struct model_job *j = &m->jobs[i];

		if (!j->present)
			continue;
		if (!j->nr_qps && j->last_qp_ns + (uint64_t)cfg->job_linger_s * NS < now) {
			j->present = false;	/* ended: its series go away */
			for (k = 0; k < MODEL_MAX_QPS; k++)
				if (m->qps[k].job == (int)i)
					m->qps[k].job = -1;
			continue;
		}
		/* the ports its live QPs use */
		for (k = 0; k < MODEL_MAX_QPS; k++) {
			struct model_port *p;

			if (m->qps[k].present && m->qps[k].job == (int)i && m->qps[k].port &&
			    (p = find_port(m, m->qps[k].device, m->qps[k].port)))
				job_port(j, p);
		}
	}
	for (i = 0; i < MODEL_MAX_JOBS; i++) {
		struct model_job *j = &m->jobs[i];

		if (!j->present)
			continue;
		j->track.traffic_known = m->src[SRC_BPF_WIRE] == SRC_UP;
		nd = 0;
		for (k = 0; k < j->nr_ports; k++) {
			struct model_job_port *jp = &j->ports[k];
			struct model_port *p = find_port(m, jp->device, jp->port);
			unsigned int pi;

			/* shared: another job with live QPs on the port */
			users = 0;
			for (x = 0; x < MODEL_MAX_JOBS; x++) {
				unsigned int y;

				if (x == i || !m->jobs[x].present || !m->jobs[x].nr_qps)
					continue;
				for (y = 0; y < m->jobs[x].nr_ports; y++)
					if (m->jobs[x].ports[y].port == jp->port &&
					    !strcmp(m->jobs[x].ports[y].device, jp->device))
						users++;
			}
			jp->shared = users > 0;
			if (!p)
				continue;	/* the device went away */
			pi = (unsigned int)(p - m->ports);
			if (p->flaps.total > prev_flaps[pi] && prev_flaps[pi] != UINT64_MAX) {
				jp->flaps += p->flaps.total - prev_flaps[pi];
				signal_job(j, HS_LINK_FLAP, p->device, p->port,
					   p->flaps.total - prev_flaps[pi], true,
					   p->last_flap_ns ? p->last_flap_ns : now);
			}
			for (x = 0; x < MODEL_PRIOS; x++) {
				uint64_t was = prev_storms[pi * MODEL_PRIOS + x];

				if (p->prio_read[x] && was != UINT64_MAX && p->storms[x].total > was)
					signal_job(j, HS_PAUSE_STORM, p->device, p->port,
						   p->storms[x].total - was, true, now);
			}
			/* without per-QP events, the port's own counters, flagged shared */
			for (x = 0; !per_qp && x < NR_PORT_SIGS; x++) {
				uint64_t was = prev_ctr[pi][x];

				if (p->have[port_ctr[x]] && was != UINT64_MAX &&
				    p->ctr[port_ctr[x]].total > was)
					signal_job(j, port_sig[x], p->device, p->port,
						   p->ctr[port_ctr[x]].total - was, true, now);
			}
			if (nd < MODEL_MAX_JOB_PORTS && j->nr_qps &&
			    ((p->state[0] && strcmp(p->state, "ACTIVE")) || p->carrier == 0)) {
				memset(&down[nd], 0, sizeof(down[nd]));
				snprintf(down[nd].device, sizeof(down[nd].device), "%s", p->device);
				down[nd].port = p->port;
				down[nd].at_ns = now;
				nd++;
			}
		}
		health_expire(&j->track, &cfg->health, now);
		health_eval(&j->track, &cfg->health, now, down, nd, &j->result);
	}
}

/*
 * Delete the rxe and wire map entries of QPs RDMA netlink no longer lists
 * (prune.h: dead in two passes in a row).  Only on a complete QP list and
 * complete map walks.
 * rxe keys are (device index, QP number); a wire ingress key's QP number
 * is a local QP's, an egress key's a local QP's peer's (any port: the
 * interface is not checked).  QP 1, the GSI QP, is always there.
 */
static void prune_bpf(struct collect_bpf *b, const struct raw *r)
{
	/* the live QPs as sorted keys: (device, QP), local QP, peer's QP */
	static uint64_t live[MODEL_MAX_QPS], local[MODEL_MAX_QPS], peer[MODEL_MAX_QPS];
	static uint64_t dead[MODEL_MAX_QPS], out[MODEL_MAX_QPS];
	unsigned int i;
	size_t n, np = 0;
	long k;

	if (r->nl_err || r->qps_over || r->rxe_err || r->wire_err) {
		prune_forget(&b->rxe_prune);
		prune_forget(&b->wire_prune);
		return;
	}
	for (i = 0; i < r->nr_qps; i++) {
		live[i] = (uint64_t)r->qps[i].nl.dev_index << 32 | r->qps[i].nl.qpn;
		local[i] = r->qps[i].nl.qpn;
		if (r->qps[i].nl.rqpn)
			peer[np++] = r->qps[i].nl.rqpn;
	}
	prune_sort(live, r->nr_qps);
	prune_sort(local, r->nr_qps);
	prune_sort(peer, np);
	for (i = 0, n = 0; i < r->nr_rxe; i++) {
		uint64_t key = (uint64_t)r->rxe[i].dev_index << 32 | r->rxe[i].qpn;

		if (!prune_has(live, r->nr_qps, key))
			dead[n++] = key;
	}
	k = prune_step(&b->rxe_prune, dead, n, out);
	for (i = 0; k > 0 && i < (unsigned long)k; i++) {
		struct rxe_qp_key key = { (uint32_t)(out[i] >> 32), (uint32_t)out[i] };

		fabbpf_forget_rxe_qp(b->fb, &key);
	}
	for (i = 0, n = 0; i < r->nr_wire; i++) {
		bool alive = r->wire[i].dir == WIRE_DIR_INGRESS ?
			     prune_has(local, r->nr_qps, r->wire[i].qpn) :
			     prune_has(peer, np, r->wire[i].qpn);

		if (r->wire[i].qpn > 1 && !alive)
			dead[n++] = wire_key(r->wire[i].ifindex, r->wire[i].dir, r->wire[i].qpn);
	}
	k = prune_step(&b->wire_prune, dead, n, out);
	for (i = 0; k > 0 && i < (unsigned long)k; i++) {
		struct wire_qp_key key = {
			.ifindex = (uint32_t)(out[i] >> 32),
			.qpn = (uint32_t)out[i] & 0xffffff,
			.dir = (uint8_t)(out[i] >> 24),
		};

		wire_loader_forget_qp(b->wl, &key);
	}
}

/* A port counter's total before this pass, UINT64_MAX if it had none. */
static uint64_t prev_total(const struct model_port *p, const struct mono *c)
{
	return p->present && c->primed ? c->total : UINT64_MAX;
}

void collect_sample(struct model *m)
{
	static uint64_t prev_flaps[MODEL_MAX_PORTS], prev_storms[MODEL_MAX_PORTS * MODEL_PRIOS];
	static uint64_t prev_ctr[MODEL_MAX_PORTS][NR_PORT_SIGS];
	const struct config *cfg = m->cfg;
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), now;
	unsigned int i, k;
	struct raw *r = &raw;

	r->nr_ports = 0;
	r->ko = r->ko_error = r->sysfs_ok = false;
	r->ko_why[0] = r->sysfs_why[0] = '\0';
	read_ko(cfg, r);
	if (!r->ko)
		read_sysfs(cfg, r);
	r->ports_mono = now_ns(CLOCK_MONOTONIC);
	r->nr_qps = 0;
	r->qps_over = 0;
	r->nl_err = rdmanl_for_each_qp(qp_cb, r);
	for (i = 0; i < r->nr_qps; i++) {
		/* a process's QPs are listed together: read its /proc files once */
		for (k = i < 8 ? 0 : i - 8; k < i && r->qps[k].nl.pid != r->qps[i].nl.pid; k++)
			;
		if (k < i && r->qps[i].nl.pid) {
			memcpy(r->qps[i].comm, r->qps[k].comm, sizeof(r->qps[i].comm));
			r->qps[i].job = r->qps[k].job;
			r->qps[i].has_job = r->qps[k].has_job;
		} else {
			qp_owner(cfg, &r->qps[i]);
		}
	}
	r->nr_rxe = r->nr_wire = 0;
	r->rxe_err = m->src[SRC_BPF_RXE] == SRC_UP &&
		     fabbpf_for_each_rxe_qp(m->bpf->fb, rxe_cb, r) < 0;
	r->wire_err = m->src[SRC_BPF_WIRE] == SRC_UP &&
		      wire_loader_for_each_qp(m->bpf->wl, wire_cb, r) < 0;
	if (m->src[SRC_BPF_RXE] == SRC_UP || m->src[SRC_BPF_WIRE] == SRC_UP)
		prune_bpf(m->bpf, r);
	now = now_ns(CLOCK_REALTIME);

	pthread_mutex_lock(&m->lock);
	m->src[SRC_FABTEL_KO] = r->ko && !r->ko_error ? SRC_UP : SRC_UNAVAILABLE;
	snprintf(m->why[SRC_FABTEL_KO], sizeof(m->why[0]), "%s", r->ko_why);
	if (r->ko) {
		m->src[SRC_SYSFS] = SRC_STANDBY;
		snprintf(m->why[SRC_SYSFS], sizeof(m->why[0]), "fabtel.ko is loaded");
	} else {
		m->src[SRC_SYSFS] = r->sysfs_ok ? SRC_UP : SRC_UNAVAILABLE;
		snprintf(m->why[SRC_SYSFS], sizeof(m->why[0]), "%s", r->sysfs_why);
	}
	m->src[SRC_RDMA_NETLINK] = r->nl_err ? SRC_UNAVAILABLE : SRC_UP;
	snprintf(m->why[SRC_RDMA_NETLINK], sizeof(m->why[0]), "%s",
		 r->nl_err ? strerror(-r->nl_err) : "");
	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		struct model_port *p = &m->ports[i];

		prev_flaps[i] = prev_total(p, &p->flaps);
		for (k = 0; k < MODEL_PRIOS; k++)
			prev_storms[i * MODEL_PRIOS + k] = prev_total(p, &p->storms[k]);
		for (k = 0; k < NR_PORT_SIGS; k++)
			prev_ctr[i][k] = prev_total(p, &p->ctr[port_ctr[k]]);
	}
	fold_ports(m, r, now);
	fold_qps(m, r, now);
	fold_bpf(m, r, now);
	fold_jobs(m, now, prev_flaps, prev_storms, (const uint64_t (*)[NR_PORT_SIGS])prev_ctr);
	if (m->bpf) {
		m->bpf_pruned[0] = m->bpf->rxe_prune.removed;
		m->bpf_pruned[1] = m->bpf->wire_prune.removed;
	}
	m->bpf_read_errors[0] += r->rxe_err;
	m->bpf_read_errors[1] += r->wire_err;
	m->samples++;
	m->sample_ns = now;
	m->sample_seconds = (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
	pthread_mutex_unlock(&m->lock);
}
