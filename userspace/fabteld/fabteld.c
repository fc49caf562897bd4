// SPDX-License-Identifier: GPL-2.0
/*
 * fabteld - fabtel's collector: per-job fabric health from fabtel.ko (or
 * plain sysfs), the BPF programs and RDMA netlink, served as Prometheus
 * /metrics and a JSON API.  See Documentation/fabteld.rst.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "actions.h"
#include "clock.h"
#include "collect.h"
#include "config.h"
#include "expo.h"
#include "http.h"
#include "http_web.h"
#include "privs.h"
#include "prober.h"
#include "render.h"
#include "render_probes.h"
#include "settings.h"
#include "stop.h"

#ifndef FABTEL_VERSION
#define FABTEL_VERSION "0.0.0"
#endif

static struct config cfg;
static struct collect_opts copts;
static struct model model;
static struct collector *col;	/* model's (collect.h) */
static struct web web;		/* HTTPS and basic auth (http_web.c) */
static volatile sig_atomic_t stop;

static struct {
	const char *config_file;
	bool check_config;
	const char *once;		/* "metrics", "snapshot", "jobs", "probes" */
	/* command-line settings, applied after the file */
	char *sets[96][2];
	unsigned int nr_sets;
} opt;

const char *argp_program_version = "fabteld " FABTEL_VERSION;
static const char doc[] =
	"fabteld: fabtel's collector.  Serves /metrics (Prometheus), /api/v1/snapshot, "
	"/api/v1/jobs and /healthz.\v"
	"Started as root it loads the BPF programs, then drops to --user keeping only "
	"CAP_NET_ADMIN (to detach the wire program at exit).  Started as another user it "
	"runs without BPF and says so in fabtel_source_up.  Settings: defaults, then "
	"--config FILE, then the command line.  Documentation/fabteld.rst has the file "
	"format, the health rules and every metric.";

enum { OPT_CHECK = 1000, OPT_ONCE, OPT_SET, OPT_PRINT_SETTINGS };

static const struct argp_option options[] = {
	{ "config", 'c', "FILE", 0, "Read settings from FILE", 0 },
	{ "listen", 'l', "ADDR:PORT", 0, "HTTP address (default 127.0.0.1:9465)", 0 },
	{ "job", 'j', "NAME=GLOB", 0, "Processes whose cgroup path matches GLOB are job NAME (repeatable)", 0 },
	{ "user", 'u', "USER", 0, "Drop to USER after loading BPF (default nobody; root: no drop)", 0 },
	{ "bpf", 'b', "auto|on|off", 0, "BPF programs (on: fail if they cannot load)", 0 },
	{ "interval-ms", 'i', "MS", 0, "Sampling period (default 1000)", 0 },
	{ "set", OPT_SET, "KEY=VALUE", 0, "Any config file setting", 0 },
	{ "check-config", OPT_CHECK, NULL, 0, "Check the settings and exit", 0 },
	{ "print-settings", OPT_PRINT_SETTINGS, "WHAT", 0, "Print the settings table as deploy/fabteld.conf (conf) or Documentation/fabteld.rst's option table (rst), or check the defaults against it (check), exit", 0 },
	{ "once", OPT_ONCE, "WHAT", 0, "Sample once, print metrics|snapshot|jobs (or probe for probe_window_s and print the probe matrix: probes), exit", 0 },
	/* -h as well as --help and -?, as every fabtel tool */
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Give this help list", -1 },
	{},
};

static void add_set(struct argp_state *state, const char *key, const char *value)
{
	if (opt.nr_sets == sizeof(opt.sets) / sizeof(opt.sets[0]))
		argp_error(state, "too many settings on the command line");
	opt.sets[opt.nr_sets][0] = strdup(key);
	opt.sets[opt.nr_sets][1] = strdup(value);
	opt.nr_sets++;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *eq;

	switch (key) {
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case 'c':
		opt.config_file = arg;
		break;
	case 'l':
		add_set(state, "listen", arg);
		break;
	case 'j':
		add_set(state, "job", arg);
		break;
	case 'u':
		add_set(state, "user", arg);
		break;
	case 'b':
		add_set(state, "bpf", arg);
		break;
	case 'i':
		add_set(state, "interval_ms", arg);
		break;
	case OPT_SET:
		eq = strchr(arg, '=');
		if (!eq)
			argp_error(state, "--set wants KEY=VALUE, not '%s'", arg);
		*eq = '\0';
		add_set(state, arg, eq + 1);
		break;
	case OPT_CHECK:
		opt.check_config = true;
		break;
	case OPT_PRINT_SETTINGS:
		if (strcmp(arg, "conf") && strcmp(arg, "rst") && strcmp(arg, "check"))
			argp_error(state, "--print-settings wants conf, rst or check, not '%s'", arg);
		exit(settings_print(arg, stdout));
	case OPT_ONCE:
		if (strcmp(arg, "metrics") && strcmp(arg, "snapshot") && strcmp(arg, "jobs") &&
		    strcmp(arg, "probes"))
			argp_error(state, "--once wants metrics, snapshot, jobs or probes, not '%s'", arg);
		opt.once = arg;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* SIGTERM came and a source read is blocked: leave no filter behind */
static void last_words(void *arg)
{
	collect_detach_wire(*(struct collector **)arg);
}

static int print_once(void)
{
	struct json_object *o;
	struct expo e;
	int ret = 0;

	if (!strcmp(opt.once, "metrics")) {
		expo_init(&e);
		render_metrics(&model, &e, mono_ms() * 1000000ULL);
		if (e.oom || e.bad || !e.buf)
			ret = 1;
		else
			fputs(e.buf, stdout);
		expo_free(&e);
		return ret;
	}
	o = !strcmp(opt.once, "jobs") ? render_jobs(&model) : render_snapshot(&model);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
	json_object_put(o);
	return 0;
}

static bool probing(void)
{
	return cfg.probe == CONFIG_ON ||
	       (cfg.probe == CONFIG_AUTO && (cfg.probe_cfg.nr_peers || cfg.probe_cfg.peers_file[0]));
}

/* the prober, its ports known from the first samples: 0, or -1 (said why) */
static int start_prober(struct prober **pr)
{
	const char *ca = cfg.probe_cfg.tls_ca_file;
	char err[256];

	/* libcurl reads the CA at each connection, as the user fabteld now is */
	if (ca[0] && access(ca, R_OK)) {
		fprintf(stderr, "fabteld: probe_tls_ca_file %s: %s (read at each connection, as the user fabteld runs as)\n",
			ca, strerror(errno));
		return -1;
	}
	*pr = prober_start(&cfg.probe_cfg, err, sizeof(err));
	if (!*pr) {
		fprintf(stderr, "fabteld: %s\n", err);
		return -1;
	}
	prober_sync(*pr, &model);
	return 0;
}

/* --once probes: probe for probe_window_s, sampling as the daemon does, then print */
static int once_probes(struct prober *pr)
{
	struct json_object *o;
	uint64_t end = mono_ms() + cfg.probe_cfg.window_s * 1000ULL;

	while (pr && mono_ms() < end && !stop) {
		collect_sample(col);
		prober_sync(pr, &model);
		collect_wait(col, (int)cfg.interval_ms, -1);
	}
	o = render_probes(pr);
	print_probes(o, stdout);
	json_object_put(o);
	return pr ? 0 : 1;
}

/*
 * The devices the include/exclude lists leave out, on stderr, at start and
 * whenever the list changes (the collector's thread is this one: no lock).
 */
static void say_excluded(void)
{
	static uint64_t said;
	unsigned int i;

	if (model.excluded_gen == said)
		return;
	said = model.excluded_gen;
	for (i = 0; i < model.nr_excluded; i++) {
		const struct devfilter_hit *h = &model.excluded[i];
		char who[128];

		snprintf(who, sizeof(who), "%s%s%s%s", h->device, h->driver[0] ? " (driver " : "",
			 h->driver, h->driver[0] ? ")" : "");
		if (h->match[0])
			fprintf(stderr, "fabteld: device %s left out by %s = %s\n", who,
				devfilter_key(h->rule), h->match);
		else
			fprintf(stderr, "fabteld: device %s left out: %s does not match %s\n", who,
				devfilter_key(h->rule), h->driver[0] ? "its driver" : "it");
	}
	if (model.excluded_more)
		fprintf(stderr, "fabteld: ... and %u more devices left out\n", model.excluded_more);
}

/* what runs, on stderr (the journal) */
static void say_started(const struct prober *pr)
{
	int s;

	for (s = 0; s < SRC_NR; s++) {
		bool why = model.src[s] != SRC_STATE_UP && model.why[s][0];

		fprintf(stderr, "fabteld: source %s: %s%s%s\n", model_source_name(s),
			model_src_state_name(model.src[s]), why ? ": " : "", why ? model.why[s] : "");
	}
	fprintf(stderr, "fabteld: serving %s://%s:%u/metrics%s\n", web.cert_pem ? "https" : "http",
		cfg.listen_addr, cfg.listen_port,
		cfg.nr_users ? " (basic auth)" : " (no authentication)");
	if (pr)
		fprintf(stderr, "fabteld: probing as %s, %u probe(s)/s per port, peers from %u address(es)%s%s, read over %s%s\n",
			cfg.probe_cfg.host, cfg.probe_cfg.rate, cfg.probe_cfg.nr_peers,
			cfg.probe_cfg.peers_file[0] ? " and " : "", cfg.probe_cfg.peers_file,
			cfg.probe_cfg.tls_ca_file[0] ? "https" : "http",
			cfg.probe_cfg.auth_user[0] ? " (basic auth)" : "");
	say_excluded();
}

/* A sample each interval_ms, and what follows it, until stopped. */
static void sample_loop(struct prober *pr, struct actions *act)
{
	uint64_t next = mono_ms() + cfg.interval_ms, now;

	while (!stop) {
		now = mono_ms();
		if (now >= next) {
			collect_sample(col);
			say_excluded();
			if (pr)
				prober_sync(pr, &model);
			actions_pass(act, &model, clock_ns(CLOCK_REALTIME));
			next = next + cfg.interval_ms > now ? next + cfg.interval_ms :
							      now + cfg.interval_ms;
			continue;
		}
		collect_wait(col, (int)(next - now), stop_wake_fd());
	}
}

/*
 * What is read or opened while still root: the TLS key, the actions'
 * audit log (*alog, -1 none); 0, or -1 (said why).
 */
static int root_files(int *alog)
{
	char err[768];

	if (web_load(&web, &cfg, err, sizeof(err))) {
		fprintf(stderr, "fabteld: %s\n", err);
		return -1;
	}
	*alog = actions_log_open(&cfg.action, err, sizeof(err));
	if (*alog < 0 && err[0]) {
		fprintf(stderr, "fabteld: %s\n", err);
		return -1;
	}
	return 0;
}

/* The config file, then the command line's settings; 0, or -1 (said why). */
static int load_settings(void)
{
	char err[768];
	unsigned int i;

	if (opt.config_file && config_load(&cfg, opt.config_file, err, sizeof(err))) {
		fprintf(stderr, "fabteld: %s\n", err);
		return -1;
	}
	for (i = 0; i < opt.nr_sets; i++) {
		/* every user reads a process's arguments (ps, /proc/PID/cmdline) */
		if (!strcmp(opt.sets[i][0], "basic_auth_user")) {
			fprintf(stderr, "fabteld: command line: basic_auth_user is read from the config "
				"file only (0640): in the arguments its hash is there for every user "
				"to read\n");
			return -1;
		}
		if (config_set(&cfg, opt.sets[i][0], opt.sets[i][1], err, sizeof(err))) {
			fprintf(stderr, "fabteld: command line: %s\n", err);
			return -1;
		}
		if (!strcmp(opt.sets[i][0], "listen"))
			snprintf(cfg.listen_from, sizeof(cfg.listen_from), "command line");
		else if (!strcmp(opt.sets[i][0], "user"))
			snprintf(cfg.user_from, sizeof(cfg.user_from), "command line");
	}
	/* what start would refuse, --check-config refuses too */
	if (config_check_host(&cfg, err, sizeof(err))) {
		fprintf(stderr, "fabteld: %s\n", err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, NULL, doc, NULL, NULL, NULL };
	char err[768];
	struct http *h;
	struct prober *pr = NULL;
	struct actions *act = NULL;
	int alog = -1;
	unsigned int i;
	int s, ret = 1;

	config_defaults(&cfg);
	argp_err_exit_status = 2;	/* a usage error, as every fabtel tool */
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL) || load_settings())
		return 2;
	if (opt.check_config) {
		printf("fabteld: settings OK (listen %s:%u, %zu job rule(s))\n", cfg.listen_addr,
		       cfg.listen_port, cfg.nr_job_rules);
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);
	/* the actions wait for their commands: not reaped behind their back */
	signal(SIGCHLD, SIG_DFL);
	/*
	 * No transparent huge pages for fabteld: where THP is "always"
	 * (Debian's and RHEL's kernels), khugepaged may fill any 2 MiB range
	 * of the heap, arenas or tables that holds one touched page, and the
	 * RSS jumps by megabytes at random (Documentation/performance.rst).
	 */
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	if (stop_init(&stop, last_words, &col))
		return 1;

	config_collect_opts(&cfg, &copts);
	if (opt.once)
		copts.record_dir[0] = '\0';	/* a look, not the daemon: nothing kept */
	else
		privs_make_dir(copts.record_dir, cfg.user);
	col = collect_init(&model, &copts);
	if (!col) {
		fprintf(stderr, "fabteld: out of memory\n");
		goto fini;
	}
	for (s = SRC_BPF_FLAP; s <= SRC_BPF_RXE; s++) {
		if (model.src[s] == SRC_STATE_UNAVAILABLE && cfg.bpf == CONFIG_ON) {
			fprintf(stderr, "fabteld: bpf = on, but %s: %s\n", model_source_name(s),
				model.why[s]);
			goto fini;
		}
	}
	collect_sample(col);
	if (model.src[SRC_KMSG] != SRC_STATE_UP && cfg.kmsg == CONFIG_ON) {
		fprintf(stderr, "fabteld: kmsg = on, but %s\n", model.why[SRC_KMSG]);
		goto fini;
	}
	collect_attach_wire(col);
	if (opt.once && strcmp(opt.once, "probes")) {
		collect_sample(col);
		ret = print_once();
		goto fini;
	}
	if (!opt.once && root_files(&alog))
		goto fini;
	if (!opt.once && privs_drop(cfg.user, model.src[SRC_BPF_WIRE] == SRC_STATE_UP ||
					       cfg.qp_counters >= QPC_AUTO))
		goto fini;
	if (probing() && start_prober(&pr))
		goto fini;
	if (opt.once) {
		ret = once_probes(pr);
		goto fini;
	}
	h = http_start(&model, &cfg, pr, &web, err, sizeof(err));
	if (!h) {
		fprintf(stderr, "fabteld: %s\n", err);
		goto fini;
	}
	act = actions_start(&cfg.action, cfg.probe_cfg.host, alog, err, sizeof(err));
	alog = -1;	/* the runner's now (closed there when it cannot start) */
	if (!act && err[0]) {
		fprintf(stderr, "fabteld: %s\n", err);
		http_stop(h);
		goto fini;
	}
	say_started(pr);
	collect_start_events(col);
	sample_loop(pr, act);
	http_stop(h);
	ret = 0;
fini:
	actions_stop(act);
	if (alog >= 0)
		close(alog);
	web_free(&web);
	prober_stop(pr);
	collect_fini(col);
	for (i = 0; i < opt.nr_sets; i++) {
		free(opt.sets[i][0]);
		free(opt.sets[i][1]);
	}
	stop_done();
	return ret;
}
