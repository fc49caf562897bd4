// SPDX-License-Identifier: GPL-2.0
/*
 * fabtop - fabtel's live console: NICs, jobs and fabric events of this
 * host, from fabteld's JSON API or (--standalone) straight from sysfs.
 * --once prints one frame as text or JSON for scripts.  See
 * Documentation/fabtop.rst.
 */
#include <argp.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>
#include <json-c/json.h>

#include "cluster_feed.h"
#include "digest.h"
#include "panes.h"
#include "feed.h"
#include "probes_view.h"
#include "ui.h"

#ifndef FABTEL_VERSION
#define FABTEL_VERSION "0.0.0"
#endif

#define DEFAULT_WIDTH	120
#define RATE_WAIT_S	5.0	/* --once: how long to wait for a second sample */

static struct {
	struct feed_opts feed;
	bool once, json;
	unsigned int width;
	struct promq_opts prom;		/* --prometheus: the cluster view */
	const char *job;		/* --once --job: that job's page */
	bool url_set;
} opt = {
	.feed = { .url = FEED_DEFAULT_URL, .interval = 1.0 },
};

const char *argp_program_version = "fabtop " FABTEL_VERSION;
static const char doc[] =
	"fabtop: fabric health of this host, live: NICs (link, flaps, rates of the RoCE error "
	"counters, PFC pauses and storms), jobs (verdict, worst reason) and events.\v"
	"Data from fabteld's JSON API (--url), or with --standalone from sysfs directly "
	"(fabteld's collector, in-process, without BPF).  Keys: Tab pane, arrows/PgUp/PgDn "
	"move, Enter a job's detail, s sort, / filter, p pause, h help, q quit.  "
	"Documentation/fabtop.rst has the columns and the JSON of --once --json.  "
	"--prometheus URL: the cluster view instead, every job across the hosts from "
	"Prometheus and fabtel's rules (Documentation/cluster.rst).";

enum { OPT_SYSFS_ROOT = 1000, OPT_JSON, OPT_PROM, OPT_TOKEN, OPT_CA, OPT_JOB };

static const struct argp_option options[] = {
	{ "delay", 'd', "SECONDS", 0, "Refresh every SECONDS (default 1, at least 0.1)", 0 },
	{ "url", 'u', "URL", 0, "fabteld's address (default " FEED_DEFAULT_URL ")", 0 },
	{ "standalone", 's', NULL, 0, "No fabteld: read sysfs in-process", 0 },
	{ "sysfs-root", OPT_SYSFS_ROOT, "DIR", 0, "--standalone: read /sys under DIR (tests)", 0 },
	{ "once", '1', NULL, 0, "Print one frame as text and exit", 0 },
	{ "json", OPT_JSON, NULL, 0, "--once: print the frame as JSON", 0 },
	{ "width", 'w', "N", 0, "--once: line width (default $COLUMNS, else 120)", 0 },
	{ "prometheus", OPT_PROM, "URL", 0, "The cluster view, from the Prometheus at URL", 0 },
	{ "bearer-token-file", OPT_TOKEN, "FILE", 0, "--prometheus: send the token in FILE", 0 },
	{ "ca-file", OPT_CA, "FILE", 0, "--prometheus: trust the CA certificates in FILE", 0 },
	{ "job", OPT_JOB, "ID", 0, "--prometheus --once: that job's page too", 0 },
	/* -h as well as --help and -?, as every fabtel tool */
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Give this help list", -1 },
	{},
};

static int parse_width(const char *s, unsigned int *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 20 || n > 1000)
		return -1;
	*out = (unsigned int)n;
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;
	double d;

	switch (key) {
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case 'd':
		errno = 0;
		d = strtod(arg, &end);
		if (errno || end == arg || *end || !isfinite(d) || d < 0.1 || d > 3600)
			argp_error(state, "-d wants seconds from 0.1 to 3600 (like 2 or 0.5), not '%s'",
				   arg);
		opt.feed.interval = d;
		break;
	case 'u':
		if (strncmp(arg, "http://", 7) && strncmp(arg, "https://", 8))
			argp_error(state, "--url wants http://HOST:PORT, not '%s'", arg);
		opt.feed.url = arg;
		opt.url_set = true;
		break;
	case OPT_PROM:
		if (strncmp(arg, "http://", 7) && strncmp(arg, "https://", 8))
			argp_error(state, "--prometheus wants http(s)://HOST:PORT, not '%s'", arg);
		opt.prom.url = arg;
		break;
	case OPT_TOKEN:
		opt.prom.token_file = arg;
		break;
	case OPT_CA:
		opt.prom.ca_file = arg;
		break;
	case OPT_JOB:
		if (!*arg || strlen(arg) >= CL_NAME_LEN)
			argp_error(state, "--job wants a job id of 1 to %d characters", CL_NAME_LEN - 1);
		opt.job = arg;
		break;
	case 's':
		opt.feed.standalone = true;
		break;
	case OPT_SYSFS_ROOT:
		opt.feed.sysfs_root = arg;
		break;
	case '1':
		opt.once = true;
		break;
	case OPT_JSON:
		opt.json = true;
		break;
	case 'w':
		if (parse_width(arg, &opt.width))
			argp_error(state, "--width wants a number from 20 to 1000, not '%s'", arg);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (opt.feed.sysfs_root && !opt.feed.standalone)
			argp_error(state, "--sysfs-root needs --standalone");
		if ((opt.json || opt.width) && !opt.once)
			argp_error(state, "--json and --width go with --once");
		if (opt.prom.url && (opt.feed.standalone || opt.url_set))
			argp_error(state, "--prometheus is a view of its own: not with --url or --standalone");
		if ((opt.prom.token_file || opt.prom.ca_file) && !opt.prom.url)
			argp_error(state, "--bearer-token-file and --ca-file go with --prometheus");
		if (opt.job && (!opt.prom.url || !opt.once))
			argp_error(state, "--job goes with --prometheus --once");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* ---- --once ---------------------------------------------------------------- */

static void print_table(const struct table *t, unsigned int width)
{
	unsigned int w[TABLE_MAX_COLS], *idx, n, i;
	char line[2048];

	if (width >= sizeof(line))
		width = sizeof(line) - 1;
	table_fit(t, width, w);
	table_line(t, NULL, w, line, sizeof(line));
	puts(line);
	idx = calloc(t->nrows ? t->nrows : 1, sizeof(*idx));
	n = idx ? table_fold(t, idx, table_view(t, t->sort_col, false, NULL, idx), NULL, 0) : 0;
	if (!t->nrows) {
		snprintf(line, sizeof(line), "  (%s)", t->empty);
		line[width] = '\0';
		puts(line);
	}
	for (i = 0; i < n; i++) {
		table_line(t, &t->row[idx[i]], w, line, sizeof(line));
		puts(line);
	}
	free(idx);
}

static void print_probes(struct json_object *probes, unsigned int width)
{
	static struct probe_line l[PROBES_MAX_LINES];
	unsigned int i, n = probes_lines(probes, l, PROBES_MAX_LINES);

	putchar('\n');
	for (i = 0; i < n; i++)
		printf("%.*s\n", (int)width, l[i].text);
}

static void print_text(const struct feed *feed, const struct frame *f, unsigned int width)
{
	char line[2048], when[32] = "-";
	time_t t = (time_t)f->sample_time;
	struct tm tm;
	unsigned int i;

	if (f->sample_time > 0 && localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(line, sizeof(line), "fabtop %s  %s  sample %s (%.1f s old)  ports via %s  rates by %s",
		 FABTEL_VERSION, feed_source(feed), when,
		 f->sample_time > 0 ? feed_now() - f->sample_time : 0.0, f->port_source,
		 f->rates_from ? f->rates_from : "- (one sample only)");
	line[width < sizeof(line) ? width : sizeof(line) - 1] = '\0';
	ascii_copy(line, sizeof(line), line);	/* the source and port source are fabteld's words */
	puts(line);
	for (i = 0; i < TAB_NR; i++) {
		putchar('\n');
		print_table(&f->tab[i], width);
	}
	if (f->probes)
		print_probes(f->probes, width);
}

static struct json_object *display_rows(const struct table *t)
{
	struct json_object *a = json_object_new_array(), *o;
	unsigned int *idx = calloc(t->nrows ? t->nrows : 1, sizeof(*idx)), n, i, c;

	n = idx ? table_view(t, t->sort_col, false, NULL, idx) : 0;
	for (i = 0; i < n; i++) {
		if (t->row[idx[i]].group && !t->row[idx[i]].member)
			continue;	/* a fold's head: its members are the rows */
		o = json_object_new_object();
		for (c = 0; c < t->ncols; c++)
			json_object_object_add(o, t->col[c].name,
					       json_object_new_string(t->row[idx[i]].cell[c]));
		json_object_array_add(a, o);
	}
	free(idx);
	return a;
}

static void print_json(const struct frame *f, const struct feed_status *st)
{
	struct json_object *o = json_object_new_object(), *src = json_object_new_object();
	struct json_object *disp = json_object_new_object();
	unsigned int i;

	json_object_object_add(src, "mode", json_object_new_string(opt.feed.standalone ?
								   "standalone" : "fabteld"));
	if (opt.feed.standalone)
		json_object_object_add(src, "sysfs_root", json_object_new_string(
			opt.feed.sysfs_root ? opt.feed.sysfs_root : "/"));
	else
		json_object_object_add(src, "url", json_object_new_string(opt.feed.url));
	json_object_object_add(src, "error", st->failing ? json_object_new_string(st->error) : NULL);
	json_object_object_add(src, "ports_via", json_object_new_string(f->port_source));
	json_object_object_add(src, "data_age_s", json_object_new_double(
		f->sample_time > 0 ? feed_now() - f->sample_time : 0));
	json_object_object_add(src, "rates_from", f->rates_from ?
			       json_object_new_string(f->rates_from) : NULL);
	json_object_object_add(o, "source", src);
	json_object_object_add(o, "snapshot", json_object_get(f->snapshot));
	json_object_object_add(o, "jobs", json_object_get(f->jobs));
	json_object_object_add(o, "events", json_object_get(f->events));
	json_object_object_add(o, "rows", json_object_get(f->rows));
	json_object_object_add(o, "probes", json_object_get(f->probes));
	for (i = 0; i < TAB_NR; i++)
		json_object_object_add(disp, f->tab[i].name, display_rows(&f->tab[i]));
	json_object_object_add(o, "display", disp);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The collector's rates need two of its samples: with fabteld, wait
 * (polling) for its next one unless it sends rates already; standalone,
 * sample again after -d.
 */
static struct frame *second_sample(struct feed *feed, struct frame *f, struct feed_status *st)
{
	double deadline = feed_now() + RATE_WAIT_S;
	struct frame *n;

	if (f->rates_from)
		return f;
	if (opt.feed.standalone) {
		sleep_s(opt.feed.interval);
		n = feed_fetch(feed, st);
		if (n) {
			frame_free(f);
			f = n;
		}
		return f;
	}
	while (feed_now() < deadline) {
		sleep_s(0.1);
		n = feed_fetch(feed, st);
		if (!n)
			break;		/* keep the first: it is what there is */
		frame_free(f);
		f = n;
		if (f->rates_from)
			break;
	}
	return f;
}

static int run_once(struct feed *feed)
{
	struct feed_status st;
	struct frame *f = feed_fetch(feed, &st);

	if (!f) {
		ascii_copy(st.error, sizeof(st.error), st.error);
		fprintf(stderr, "fabtop: %s\n", st.error);
		if (!opt.feed.standalone)
			fprintf(stderr, "fabtop: start fabteld, point --url at it, or use --standalone to read sysfs directly\n");
		return 1;
	}
	if (opt.feed.standalone && !strcmp(f->port_source, "none") && !f->tab[TAB_NICS].nrows) {
		fprintf(stderr, "fabtop: standalone: %s\n", f->tab[TAB_NICS].empty);
		frame_free(f);
		return 1;
	}
	f = second_sample(feed, f, &st);
	if (opt.json)
		print_json(f, &st);
	else
		print_text(feed, f, opt.width);
	frame_free(f);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, NULL, doc, NULL, NULL, NULL };
	char err[256];
	struct feed *feed;
	const char *cols;
	int ret;

	setlocale(LC_ALL, "");
	argp_err_exit_status = 2;
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return 2;
	cols = getenv("COLUMNS");
	if (!opt.width && (!cols || parse_width(cols, &opt.width)))
		opt.width = DEFAULT_WIDTH;
	if (!opt.once && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "fabtop: not a terminal; use --once (or --once --json) in scripts\n");
		return 2;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fprintf(stderr, "fabtop: cannot set up libcurl\n");
		return 1;
	}
	if (opt.prom.url) {
		/* one request may take up to the refresh, at most 5 s, at least 1 s */
		opt.prom.timeout_ms = opt.feed.interval > 5 ? 5000 :
				      opt.feed.interval < 1 ? 1000 : (long)(opt.feed.interval * 1000);
		ret = opt.once ? cluster_once(&opt.prom, opt.job, opt.json, opt.width) :
				 cluster_ui_run(&opt.prom, opt.feed.interval);
		curl_global_cleanup();
		return ret;
	}
	feed = feed_new(&opt.feed, err, sizeof(err));
	if (!feed) {
		fprintf(stderr, "fabtop: %s\n", err);
		curl_global_cleanup();
		return 1;
	}
	if (opt.once) {
		ret = run_once(feed);
	} else if (feed_start(feed)) {
		fprintf(stderr, "fabtop: cannot start the fetcher thread\n");
		ret = 1;
	} else {
		ret = ui_run(feed);
	}
	feed_free(feed);
	curl_global_cleanup();
	return ret;
}
