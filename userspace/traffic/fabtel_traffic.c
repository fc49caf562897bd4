// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel-traffic - an RDMA WRITE traffic generator for fabtel's tests, demo
 * and benchmarks.  Unlike perftest, rping and ibv_rc_pingpong it lets the
 * caller choose the RC QP's retry count, RNR retry count and local ACK
 * timeout, the IP ToS byte, the message size and rate, and the cgroup the
 * process (and so its QPs) belongs to.
 *
 * This file: options, joining the cgroup, signals, the client's main line.
 * traffic_conn.c: rdma_cm and verbs setup, the server's accept loop.
 * traffic_run.c: the data paths.  traffic_report.c: the summary.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

#include "traffic.h"

#ifndef FABTEL_VERSION
#define FABTEL_VERSION "0.0.0"
#endif

void tr_err(const char *fmt, ...)
{
	va_list ap;

	fputs(TR_NAME ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void tr_verbose(const struct tr_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->verbose)
		return;
	fputs(TR_NAME ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

double tr_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- options ------------------------------------------------------------ */

enum {
	OPT_SERVER = 256, OPT_BIND, OPT_PORT, OPT_FOREVER, OPT_SIZE, OPT_ITERS,
	OPT_DURATION, OPT_RATE, OPT_WINDOW, OPT_RETRY, OPT_RNR, OPT_TIMEOUT,
	OPT_TOS, OPT_CGROUP, OPT_JSON, OPT_VERSION,
};

static const struct option long_opts[] = {
	{ "server",	no_argument,		NULL, OPT_SERVER },
	{ "bind",	required_argument,	NULL, OPT_BIND },
	{ "port",	required_argument,	NULL, OPT_PORT },
	{ "forever",	no_argument,		NULL, OPT_FOREVER },
	{ "size",	required_argument,	NULL, OPT_SIZE },
	{ "iters",	required_argument,	NULL, OPT_ITERS },
	{ "duration",	required_argument,	NULL, OPT_DURATION },
	{ "rate",	required_argument,	NULL, OPT_RATE },
	{ "window",	required_argument,	NULL, OPT_WINDOW },
	{ "retry-cnt",	required_argument,	NULL, OPT_RETRY },
	{ "rnr-retry",	required_argument,	NULL, OPT_RNR },
	{ "timeout",	required_argument,	NULL, OPT_TIMEOUT },
	{ "tos",	required_argument,	NULL, OPT_TOS },
	{ "cgroup",	required_argument,	NULL, OPT_CGROUP },
	{ "json",	no_argument,		NULL, OPT_JSON },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: " TR_NAME " --server [--bind ADDR] [--port N] [--forever]\n"
"                      [--cgroup PATH] [--json] [-v]\n"
"       " TR_NAME " HOST [--port N] [--size BYTES] [--iters N | --duration SEC]\n"
"                      [--rate MSGS_PER_S] [--window N] [--retry-cnt 0..7]\n"
"                      [--rnr-retry 0..7] [--timeout 0..31] [--tos 0..255]\n"
"                      [--cgroup PATH] [--json] [-v]\n"
"\n"
"RC RDMA WRITE-with-immediate traffic over rdma_cm (default port %d).\n"
"  --size BYTES     bytes per WRITE, K/M/G suffixes (default %d)\n"
"  --iters N        WRITEs to complete (default %d)\n"
"  --duration SEC   post WRITEs for SEC seconds instead\n"
"  --rate R         WRITEs per second, 0 = as fast as possible (default 0)\n"
"  --window N       signalled WRITEs in flight, 1..%d (default %d)\n"
"  --retry-cnt N    QP transport retry count (default 7)\n"
"  --rnr-retry N    QP RNR retry count (default 7)\n"
"  --timeout T      local ACK timeout 4.096 us * 2^T, 0 = none (default 14)\n"
"  --tos N          IP ToS byte, ECN bits included (default: rdma_cm's)\n"
"  --cgroup PATH    join this cgroup v2 directory (created if missing) first\n"
"  --json           print the summary as one JSON object\n"
"  -v, --verbose    progress on stderr\n"
"  -h, --help       this help;  -V, --version  the version\n"
"Exit: 0 done, 1 setup error or the traffic failed, 2 usage error.\n",
		TR_DEFAULT_PORT, TR_DEFAULT_SIZE, TR_DEFAULT_ITERS, TR_MAX_WINDOW,
		TR_DEFAULT_WINDOW);
}

static int bad(const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, TR_NAME ": %s: ", opt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" TR_NAME " --help'.\n");
	return -1;
}

/* Unsigned integer in MIN..MAX; with SUFFIX, K/M/G multiply by 2^10/20/30. */
static int parse_u64(const char *opt, const char *s, uint64_t min,
		     uint64_t max, bool suffix, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	v = strtoull(s, &end, !strncmp(s, "0x", 2) ? 16 : 10);
	if (end == s || !isdigit((unsigned char)*s) || errno)
		return bad(opt, "'%s' is not a number", s);
	if (suffix && *end && !end[1]) {
		const char *units = "KMG", *u = strchr(units, toupper(*end));

		if (u)
			shift = 10 * (unsigned int)(u - units + 1), end++;
	}
	if (*end)
		return bad(opt, "'%s' is not a number", s);
	if (shift && v > (ULLONG_MAX >> shift))
		return bad(opt, "'%s' is too large", s);
	v <<= shift;
	if (v < min || v > max)
		return bad(opt, "%llu is out of range %llu..%llu", v,
			   (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

static int parse_u8(const char *opt, const char *s, unsigned int max,
		    uint8_t *out)
{
	uint64_t v;

	if (parse_u64(opt, s, 0, max, false, &v))
		return -1;
	*out = (uint8_t)v;
	return 0;
}

static int parse_double(const char *opt, const char *s, double min,
			double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v))
		return bad(opt, "'%s' is not a number", s);
	if (v < min || v > max)
		return bad(opt, "%s is out of range %g..%g", s, min, max);
	*out = v;
	return 0;
}

static const char *opt_name(int c)
{
	const struct option *lo;

	for (lo = long_opts; lo->name; lo++)
		if (lo->val == c)
			return lo->name;
	return "?";
}

/* One option with a value; 0 or -1 (message printed). */
static int set_value(struct tr_opts *o, int c, const char *arg)
{
	char name[32];
	uint64_t v;

	snprintf(name, sizeof(name), "--%s", opt_name(c));
	switch (c) {
	case OPT_BIND:
		o->bind = arg;
		return 0;
	case OPT_CGROUP:
		if (!*arg)
			return bad(name, "empty path");
		o->cgroup = arg;
		return 0;
	case OPT_PORT:
		if (parse_u64(name, arg, 1, 65535, false, &v))
			return -1;
		o->port = (uint16_t)v;
		return 0;
	case OPT_SIZE:
		return parse_u64(name, arg, 1, TR_MAX_SIZE, true, &o->size);
	case OPT_ITERS:
		return parse_u64(name, arg, 1, UINT64_MAX, false, &o->iters);
	case OPT_DURATION:
		return parse_double(name, arg, 0.001, 1e7, &o->duration);
	case OPT_RATE:
		return parse_double(name, arg, 0, 1e9, &o->rate);
	case OPT_WINDOW:
		if (parse_u64(name, arg, 1, TR_MAX_WINDOW, false, &v))
			return -1;
		o->window = (unsigned int)v;
		return 0;
	case OPT_RETRY:
		return parse_u8(name, arg, 7, &o->retry_cnt);
	case OPT_RNR:
		return parse_u8(name, arg, 7, &o->rnr_retry);
	case OPT_TIMEOUT:
		return parse_u8(name, arg, 31, &o->timeout);
	case OPT_TOS:
		o->tos_set = true;
		return parse_u8(name, arg, 255, &o->tos);
	}
	return bad(name, "internal error: unhandled option");
}

static bool client_only(int c)
{
	return c == OPT_SIZE || c == OPT_ITERS || c == OPT_DURATION ||
	       c == OPT_RATE || c == OPT_WINDOW || c == OPT_RETRY ||
	       c == OPT_RNR || c == OPT_TIMEOUT || c == OPT_TOS;
}

/* getopt's '?' and ':': name the option it did not like. */
static int getopt_error(int c, char **argv)
{
	const char *arg = argv[optind - 1];
	char name[64];

	if (optopt && optopt < 256 && strncmp(arg, "--", 2))
		snprintf(name, sizeof(name), "-%c", optopt);
	else if (optopt >= 256)
		snprintf(name, sizeof(name), "--%s", opt_name(optopt));
	else
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	if (c == ':')
		return bad(name, "needs a value");
	return bad(name, "unknown (or ambiguous) option");
}

/* Positional arguments and combinations. */
static int check_opts(struct tr_opts *o, int argc, char **argv, int first_client)
{
	int npos = argc - optind;
	char name[32];

	if (o->server) {
		snprintf(name, sizeof(name), "--%s", opt_name(first_client));
		if (first_client)
			return bad(name, "a client option, not for --server");
		if (npos)
			return bad(argv[optind], "unexpected argument with --server");
		return 0;
	}
	if (o->forever)
		return bad("--forever", "only with --server");
	if (o->bind)
		return bad("--bind", "only with --server");
	if (npos != 1)
		return bad("HOST", npos ? "only one server address, please"
				       : "missing (or --server)");
	o->host = argv[optind];
	if (o->iters && o->duration > 0)
		return bad("--iters", "not together with --duration");
	if (!o->iters && o->duration <= 0)
		o->iters = TR_DEFAULT_ITERS;
	return 0;
}

/* 0: run; 1: usage error (message printed); 2: -h/--help or -V/--version done. */
static int parse_args(int argc, char **argv, struct tr_opts *o)
{
	int c, first_client = 0;

	*o = (struct tr_opts){
		.port = TR_DEFAULT_PORT, .size = TR_DEFAULT_SIZE,
		.window = TR_DEFAULT_WINDOW, .retry_cnt = 7, .rnr_retry = 7,
		.timeout = 14,
	};
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vhV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 2;
		case 'v':
			o->verbose = true;
			break;
		case 'V':
		case OPT_VERSION:
			printf(TR_NAME " %s\n", FABTEL_VERSION);
			return 2;
		case OPT_SERVER:
			o->server = true;
			break;
		case OPT_FOREVER:
			o->forever = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case '?':
		case ':':
			getopt_error(c, argv);
			return 1;
		default:
			if (client_only(c) && !first_client)
				first_client = c;
			if (set_value(o, c, optarg))
				return 1;
		}
	}
	return check_opts(o, argc, argv, first_client) ? 1 : 0;
}

/* ---- cgroup ------------------------------------------------------------- */

/* 0 if PATH is on cgroup2; -1 with a message otherwise. */
static int check_cgroup2(const char *path)
{
	struct statfs sfs;

	if (statfs(path, &sfs)) {
		tr_err("--cgroup: %s: %s", path, strerror(errno));
		return -1;
	}
	if (sfs.f_type != CGROUP2_SUPER_MAGIC) {
		tr_err("--cgroup: %s is not on a cgroup v2 file system", path);
		return -1;
	}
	return 0;
}

/* PATH exists on cgroup2, or is created there (its parent must be). */
static int make_cgroup(const char *path)
{
	char parent[PATH_MAX], *slash;

	if (!access(path, F_OK))
		return check_cgroup2(path);
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == parent)
		slash[1] = 0;
	else
		*slash = 0;
	if (check_cgroup2(parent))
		return -1;
	if (mkdir(path, 0755) && errno != EEXIST) {
		tr_err("--cgroup: cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Move this process into the cgroup v2 directory ARG (created if missing)
 * before any RDMA resource exists, so that the rdma controller and fabtel
 * attribute the QPs to that job.
 */
static int join_cgroup(const char *arg)
{
	char path[PATH_MAX], procs[PATH_MAX + 16];
	size_t n = strlen(arg);
	int fd, e;

	if (n >= sizeof(path)) {
		tr_err("--cgroup: path too long");
		return -1;
	}
	memcpy(path, arg, n + 1);
	while (n > 1 && path[n - 1] == '/')
		path[--n] = 0;
	if (make_cgroup(path))
		return -1;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	fd = open(procs, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		tr_err("--cgroup: cannot open %s: %s", procs, strerror(errno));
		return -1;
	}
	e = dprintf(fd, "%d\n", (int)getpid()) < 0 ? errno : 0;
	close(fd);
	if (e) {
		tr_err("--cgroup: cannot move pid %d into %s: %s", (int)getpid(),
		       path, strerror(e));
		return -1;
	}
	return 0;
}

/* ---- signals and the client ------------------------------------------- */

/* SIGINT/SIGTERM are read from a signalfd in every wait. */
static int setup_signals(struct tr_ctx *ctx)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL)) {
		tr_err("sigprocmask: %s", strerror(errno));
		return -1;
	}
	ctx->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (ctx->sigfd < 0) {
		tr_err("signalfd: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int client_main(struct tr_ctx *ctx)
{
	struct rdma_event_channel *ch;
	struct tr_conn c = { 0 };
	struct tr_result r = { 0 };
	int rc;

	ch = rdma_create_event_channel();
	if (!ch) {
		tr_err("rdma_create_event_channel: %s (is rdma_ucm loaded?)",
		       strerror(errno));
		return 1;
	}
	fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK);
	rc = tr_client_connect(ctx, ch, &c);
	if (!rc) {
		tr_client_run(ctx, ch, &c, &r);
		tr_report(ctx->o, &r);	/* first: the disconnect may take a while */
		rc = tr_exit_status(&r);
		/* after a failure the path may be down: give the DREQ time */
		tr_disconnect(ctx, ch, &c, r.failed ? 10000 : 3000);
	}
	tr_conn_teardown(&c);
	rdma_destroy_event_channel(ch);
	return rc;
}

int main(int argc, char **argv)
{
	struct tr_opts o;
	struct tr_ctx ctx = { .o = &o, .sigfd = -1 };
	int rc;

	rc = parse_args(argc, argv, &o);
	if (rc)		/* a usage error is 2, as for every fabtel tool */
		return rc == 2 ? 0 : 2;
	if (o.cgroup && join_cgroup(o.cgroup))
		return 1;
	if (setup_signals(&ctx))
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	rc = o.server ? tr_server(&ctx) : client_main(&ctx);
	close(ctx.sigfd);
	return rc;
}
