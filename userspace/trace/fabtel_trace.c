// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel-trace - print fabtel's BPF events live: carrier flaps, QP ownership
 * and state, Soft-RoCE NAKs, timeouts and retry-exceeded completions.  One
 * line per event, or JSON lines with --json.  With -i IFACE the RoCEv2 wire
 * classifier also runs on IFACE.  On exit (SIGINT, SIGTERM or --duration) it
 * prints the per-QP tables, the wire counters and the drop counters.
 */
#include <argp.h>
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "fabbpf.h"
#include "text.h"
#include "wire_loader.h"

/* wire is not a fabbpf program: it has its own loader and only counters */
#define WANT_WIRE	(1u << FABBPF_NR_PROGS)
#define MAX_IFACES	8

#ifndef FABTEL_VERSION
#define FABTEL_VERSION "0.0.0"
#endif

static struct env {
	unsigned int want;
	bool want_set;
	int ifindex[MAX_IFACES];
	int nr_ifaces;
	int duration;
	bool json;
	bool verbose;
} env = { .want = (1u << FABBPF_NR_PROGS) - 1 };

static const char *const prog_names[FABBPF_NR_PROGS + 1] = {
	"flap", "qp", "rxe", "wire",
};

static volatile sig_atomic_t stop;

const char *argp_program_version = "fabtel-trace " FABTEL_VERSION;
static const char doc[] =
	"fabtel-trace: fabtel's BPF events, live (root: CAP_BPF, CAP_PERFMON).\v"
	"PROGRAMS is a comma list of flap, qp, rxe, wire (default: flap, qp, "
	"rxe, and wire when -i is given).  wire needs -i and CAP_NET_ADMIN; it "
	"counts RoCEv2 packets per QP on IFACE (TC ingress and egress) and "
	"prints its tables on exit.  Programs whose kernel module is not loaded "
	"are reported unavailable once; the others run.";

static const struct argp_option options[] = {
	{ "programs", 'p', "PROGRAMS", 0, "Programs to load", 0 },
	{ "duration", 'd', "SECONDS", 0, "Stop after SECONDS (default: SIGINT)", 0 },
	{ "interface", 'i', "IFACE", 0, "Run wire on IFACE (repeatable, up to 8)", 0 },
	{ "json", 'j', NULL, 0, "JSON lines", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf debug output", 0 },
	/* -h as well as --help and -?, as every fabtel tool */
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Give this help list", -1 },
	{},
};

static int parse_programs(const char *arg, unsigned int *want)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int p, ok = 0;

	if (!copy)
		return -ENOMEM;
	*want = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (p = 0; p <= FABBPF_NR_PROGS && strcmp(tok, prog_names[p]); p++)
			;
		if (p > FABBPF_NR_PROGS) {
			fprintf(stderr, "fabtel-trace: unknown program '%s' (flap, qp, rxe, wire)\n",
				tok);
			free(copy);
			return -EINVAL;
		}
		*want |= 1u << p;
		ok = 1;
	}
	free(copy);
	return ok ? 0 : -EINVAL;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case 'p':
		if (parse_programs(arg, &env.want))
			argp_usage(state);
		env.want_set = true;
		break;
	case 'i':
		if (env.nr_ifaces == MAX_IFACES) {
			fprintf(stderr, "fabtel-trace: at most %d interfaces\n", MAX_IFACES);
			argp_usage(state);
		}
		env.ifindex[env.nr_ifaces] = if_nametoindex(arg);
		if (!env.ifindex[env.nr_ifaces]) {
			fprintf(stderr, "fabtel-trace: no interface '%s'\n", arg);
			argp_usage(state);
		}
		env.nr_ifaces++;
		break;
	case ARGP_KEY_END:
		if (!env.want_set && env.nr_ifaces)
			env.want |= WANT_WIRE;
		if ((env.want & WANT_WIRE) && !env.nr_ifaces) {
			fprintf(stderr, "fabtel-trace: wire needs -i IFACE\n");
			argp_usage(state);
		}
		if (!(env.want & WANT_WIRE) && env.nr_ifaces) {
			fprintf(stderr, "fabtel-trace: -i is for wire, which -p left out\n");
			argp_usage(state);
		}
		break;
	case 'd':
		errno = 0;
		env.duration = strtol(arg, &end, 10);
		if (errno || *end || env.duration <= 0) {
			fprintf(stderr, "fabtel-trace: --duration wants whole seconds > 0, not '%s'\n", arg);
			argp_usage(state);
		}
		break;
	case 'j':
		env.json = true;
		break;
	case 'v':
		env.verbose = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && !env.verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static double secs(__u64 ns)
{
	return ns / 1e9;
}

/* Print a json-c object as one line and free it. */
static void emit_json(struct json_object *o)
{
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	fflush(stdout);
}

static struct json_object *json_event(const char *prog, const char *kind, __u64 ns)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("event"));
	json_object_object_add(o, "prog", json_object_new_string(prog));
	json_object_object_add(o, "kind", json_object_new_string(kind));
	json_object_object_add(o, "ns", json_object_new_uint64(ns));
	return o;
}

static void on_flap(const struct flap_event *e, void *ctx)
{
	const char *kind = fabbpf_flap_kind_name(e->kind);
	struct json_object *o;

	(void)ctx;
	if (!env.json) {
		if (e->ifindex)
			printf("%.6f flap %s %s ifindex=%u count_before=%u\n", secs(e->ns),
			       kind, e->ifname, e->ifindex, e->count);
		else
			printf("%.6f flap %s %s port=%u\n", secs(e->ns), kind, e->ibdev, e->port);
		fflush(stdout);
		return;
	}
	o = json_event("flap", kind, e->ns);
	if (e->ifindex) {
		json_object_object_add(o, "ifname", json_object_new_string(e->ifname));
		json_object_object_add(o, "ifindex", json_object_new_int(e->ifindex));
		json_object_object_add(o, "count_before", json_object_new_int64(e->count));
	} else {
		json_object_object_add(o, "ibdev", json_object_new_string(e->ibdev));
		json_object_object_add(o, "port", json_object_new_int(e->port));
	}
	emit_json(o);
}

static void qp_fields(struct json_object *o, const struct qp_key *k, const struct qp_info *i)
{
	char peer[48];

	json_object_object_add(o, "dev_index", json_object_new_int64(k->dev_index));
	json_object_object_add(o, "qpn", json_object_new_int64(k->qpn));
	json_object_object_add(o, "tgid", json_object_new_int64(i->tgid));
	json_object_object_add(o, "comm", json_object_new_string_len(i->comm,
				strnlen(i->comm, sizeof(i->comm))));
	json_object_object_add(o, "cgroup_id", json_object_new_uint64(i->cgroup_id));
	json_object_object_add(o, "state", json_object_new_string(fabbpf_qp_state_name(i->state)));
	json_object_object_add(o, "dest_qpn", json_object_new_int64(i->dest_qpn));
	if (i->has_dgid)
		text_gid(peer, sizeof(peer), i->dgid);
	json_object_object_add(o, "peer", i->has_dgid ? json_object_new_string(peer) : NULL);
	json_object_object_add(o, "timeout", json_object_new_int(i->timeout));
	json_object_object_add(o, "retry_cnt", json_object_new_int(i->retry_cnt));
	json_object_object_add(o, "rnr_retry", json_object_new_int(i->rnr_retry));
	json_object_object_add(o, "created_ns", json_object_new_uint64(i->created_ns));
}

static void on_qp(const struct qp_event *e, void *ctx)
{
	const char *kind = fabbpf_qp_kind_name(e->kind);
	struct json_object *o;

	(void)ctx;
	if (!env.json) {
		printf("%.6f qp %s dev=%u qpn=%u tgid=%u comm=%.*s cgroup=%llu state=%s dest_qpn=%u\n",
		       secs(e->ns), kind, e->key.dev_index, e->key.qpn, e->info.tgid,
		       QP_COMM_LEN, e->info.comm, (unsigned long long)e->info.cgroup_id,
		       fabbpf_qp_state_name(e->info.state), e->info.dest_qpn);
		fflush(stdout);
		return;
	}
	o = json_event("qp", kind, e->ns);
	qp_fields(o, &e->key, &e->info);
	emit_json(o);
}

static void on_rxe(const struct rxe_event *e, void *ctx)
{
	const char *kind = fabbpf_rxe_kind_name(e->kind);
	struct json_object *o;

	(void)ctx;
	if (!env.json) {
		printf("%.6f rxe %s dev=%u qpn=%u psn=%u arg=0x%x\n", secs(e->ns), kind,
		       e->dev_index, e->qpn, e->psn, e->arg);
		fflush(stdout);
		return;
	}
	o = json_event("rxe", kind, e->ns);
	json_object_object_add(o, "dev_index", json_object_new_int64(e->dev_index));
	json_object_object_add(o, "qpn", json_object_new_int64(e->qpn));
	json_object_object_add(o, "psn", json_object_new_int64(e->psn));
	json_object_object_add(o, "arg", json_object_new_int64(e->arg));
	emit_json(o);
}

static int print_qp(const struct qp_key *k, const struct qp_info *i, void *ctx)
{
	struct json_object *o;

	(void)ctx;
	if (!env.json) {
		printf("qp dev=%u qpn=%u tgid=%u comm=%.*s cgroup=%llu state=%s dest_qpn=%u\n",
		       k->dev_index, k->qpn, i->tgid, QP_COMM_LEN, i->comm,
		       (unsigned long long)i->cgroup_id, fabbpf_qp_state_name(i->state),
		       i->dest_qpn);
		return 0;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("qp"));
	qp_fields(o, k, i);
	emit_json(o);
	return 0;
}

static int print_rxe_qp(const struct rxe_qp_key *k, const struct rxe_qp_counts *c, void *ctx)
{
	struct json_object *o = NULL;
	int i;

	(void)ctx;
	if (env.json) {
		o = json_object_new_object();
		json_object_object_add(o, "type", json_object_new_string("rxe_qp"));
		json_object_object_add(o, "dev_index", json_object_new_int64(k->dev_index));
		json_object_object_add(o, "qpn", json_object_new_int64(k->qpn));
	} else {
		printf("rxe_qp dev=%u qpn=%u", k->dev_index, k->qpn);
	}
	for (i = 1; i < RXE_NR_KINDS; i++) {
		if (o)
			json_object_object_add(o, fabbpf_rxe_kind_name(i),
					       json_object_new_uint64(c->n[i]));
		else
			printf(" %s=%llu", fabbpf_rxe_kind_name(i), (unsigned long long)c->n[i]);
	}
	if (o)
		emit_json(o);
	else
		putchar('\n');
	return 0;
}

static const char *const nak_names[WIRE_NR_NAKS] = {
	"nak_psn_seq", "nak_invalid_req", "nak_remote_access", "nak_remote_op",
	"nak_invalid_rd",
};

static int print_wire_qp(const struct wire_qp_key *k, const struct wire_qp_val *v, void *ctx)
{
	const char *dir = k->dir == WIRE_DIR_INGRESS ? "ingress" : "egress";
	char ifname[IF_NAMESIZE] = "?";
	struct json_object *o;
	int i;

	(void)ctx;
	if_indextoname(k->ifindex, ifname);
	if (!env.json) {
		printf("wire_qp %s %s qpn=%u pkts=%llu bytes=%llu oos=%llu dup=%llu acks=%llu rnr_naks=%llu cnps=%llu ecn_ce=%llu",
		       ifname, dir, k->qpn, (unsigned long long)v->pkts,
		       (unsigned long long)v->bytes, (unsigned long long)v->oos,
		       (unsigned long long)v->dup, (unsigned long long)v->acks,
		       (unsigned long long)v->rnr_naks, (unsigned long long)v->cnps,
		       (unsigned long long)v->ecn_ce);
		for (i = 0; i < WIRE_NR_NAKS; i++)
			printf(" %s=%llu", nak_names[i], (unsigned long long)v->naks[i]);
		putchar('\n');
		return 0;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("wire_qp"));
	json_object_object_add(o, "ifname", json_object_new_string(ifname));
	json_object_object_add(o, "ifindex", json_object_new_int64(k->ifindex));
	json_object_object_add(o, "dir", json_object_new_string(dir));
	json_object_object_add(o, "qpn", json_object_new_int64(k->qpn));
	json_object_object_add(o, "pkts", json_object_new_uint64(v->pkts));
	json_object_object_add(o, "bytes", json_object_new_uint64(v->bytes));
	json_object_object_add(o, "oos", json_object_new_uint64(v->oos));
	json_object_object_add(o, "dup", json_object_new_uint64(v->dup));
	json_object_object_add(o, "acks", json_object_new_uint64(v->acks));
	json_object_object_add(o, "rnr_naks", json_object_new_uint64(v->rnr_naks));
	json_object_object_add(o, "cnps", json_object_new_uint64(v->cnps));
	json_object_object_add(o, "ecn_ce", json_object_new_uint64(v->ecn_ce));
	for (i = 0; i < WIRE_NR_NAKS; i++)
		json_object_object_add(o, nak_names[i], json_object_new_uint64(v->naks[i]));
	emit_json(o);
	return 0;
}

static void print_wire(struct wire_loader *wl)
{
	__u64 st[WIRE_NR_STATS];
	struct json_object *o;
	unsigned int i;

	if (!wl)
		return;
	wire_loader_for_each_qp(wl, print_wire_qp, NULL);
	if (wire_loader_stats(wl, st)) {
		fprintf(stderr, "fabtel-trace: wire: cannot read its counters\n");
		return;
	}
	o = env.json ? json_object_new_object() : NULL;
	if (o)
		json_object_object_add(o, "type", json_object_new_string("wire"));
	else
		printf("wire");
	for (i = 0; i < WIRE_NR_STATS; i++) {
		if (o)
			json_object_object_add(o, wire_loader_stat_name(i),
					       json_object_new_uint64(st[i]));
		else
			printf(" %s=%llu", wire_loader_stat_name(i), (unsigned long long)st[i]);
	}
	if (o)
		emit_json(o);
	else
		putchar('\n');
}

static void print_summary(struct fabbpf *fb)
{
	struct fabbpf_drops d;
	struct json_object *o;

	fabbpf_for_each_qp(fb, print_qp, NULL);
	fabbpf_for_each_rxe_qp(fb, print_rxe_qp, NULL);
	fabbpf_drops(fb, &d);
	if (!env.json) {
		printf("drops flap=%llu qp=%llu rxe=%llu carrier_noop_calls=%llu rxe_spurious_timeouts=%llu\n",
		       (unsigned long long)d.flap, (unsigned long long)d.qp,
		       (unsigned long long)d.rxe, (unsigned long long)d.carrier_noop_calls,
		       (unsigned long long)d.rxe_spurious_timeouts);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("drops"));
	json_object_object_add(o, "flap", json_object_new_uint64(d.flap));
	json_object_object_add(o, "qp", json_object_new_uint64(d.qp));
	json_object_object_add(o, "rxe", json_object_new_uint64(d.rxe));
	json_object_object_add(o, "carrier_noop_calls", json_object_new_uint64(d.carrier_noop_calls));
	json_object_object_add(o, "rxe_spurious_timeouts",
			       json_object_new_uint64(d.rxe_spurious_timeouts));
	emit_json(o);
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void report_availability(struct fabbpf *fb)
{
	const char *const *names = prog_names;
	const char *why;
	int p;

	for (p = 0; p < FABBPF_NR_PROGS; p++) {
		why = fabbpf_unavailable(fb, p);
		if (why && strcmp(why, "not selected"))
			fprintf(stderr, "fabtel-trace: %s: %s\n", names[p], why);
		else if (!why && fabbpf_partial(fb, p))
			fprintf(stderr, "fabtel-trace: %s: %s\n", names[p], fabbpf_partial(fb, p));
		else if (!why)
			fprintf(stderr, "fabtel-trace: %s: attached\n", names[p]);
		if (!why && p == FABBPF_QP)
			fprintf(stderr, "fabtel-trace: qp: %u existing QP(s) seeded from RDMA netlink\n",
				fabbpf_seeded(fb));
	}
}

/* wire on every -i interface; NULL (said once) if it cannot run */
static struct wire_loader *open_wire(void)
{
	struct wire_loader *wl;
	char name[IF_NAMESIZE];
	int i, err;

	err = wire_loader_open(&wl);
	if (err) {
		fprintf(stderr, "fabtel-trace: wire: unavailable: loading failed: %s\n",
			strerror(-err));
		return NULL;
	}
	wire_loader_slot(wl, WIRE_SLOT_TRACE);	/* beside fabteld's, never in its place */
	for (i = 0; i < env.nr_ifaces; i++) {
		if (!if_indextoname(env.ifindex[i], name))
			snprintf(name, sizeof(name), "ifindex %d", env.ifindex[i]);
		err = wire_loader_attach(wl, env.ifindex[i]);
		if (err) {
			fprintf(stderr, "fabtel-trace: wire: unavailable: attaching to %s: %s\n",
				name, strerror(-err));
			wire_loader_close(wl);
			return NULL;
		}
		fprintf(stderr, "fabtel-trace: wire: attached to %s (tc ingress, egress)\n", name);
	}
	return wl;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, NULL, doc, NULL, NULL, NULL };
	struct fabbpf_handlers h = { on_flap, on_qp, on_rxe, NULL };
	struct timespec start, now;
	struct wire_loader *wl = NULL;
	struct fabbpf *fb;
	int err;

	argp_err_exit_status = 2;	/* a usage error, as every fabtel tool */
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	libbpf_set_print(libbpf_print);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	err = fabbpf_open(&fb, env.want & ~WANT_WIRE, &h);
	if (err) {
		fprintf(stderr, "fabtel-trace: loading the BPF programs failed: %s\n",
			strerror(-err));
		return 1;
	}
	report_availability(fb);
	if (env.want & WANT_WIRE) {
		wl = open_wire();
		if (!wl) {
			fabbpf_close(fb);
			return 1;
		}
	}
	fprintf(stderr, "fabtel-trace: ready\n");
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!stop) {
		err = fabbpf_poll(fb, 100);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "fabtel-trace: polling: %s\n", strerror(-err));
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (env.duration && now.tv_sec - start.tv_sec >= env.duration)
			break;
	}
	print_wire(wl);
	print_summary(fb);
	wire_loader_close(wl);
	fabbpf_close(fb);
	return err < 0 && err != -EINTR ? 1 : 0;
}
