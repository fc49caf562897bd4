// SPDX-License-Identifier: GPL-2.0
/*
 * render_self.c - fabteld's own health in /metrics: its version, its
 * sources (up, failed, or absent by design on this host), its collection
 * passes, and the process_* families Prometheus client libraries export
 * (CPU, memory, file descriptors, start time), read from /proc/self.
 */
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/resource.h>

#include "render.h"

/*
 * A source missing by design, not by failure: switched off in the
 * configuration (bpf, wire = off), or the rxe program on a host without
 * Soft-RoCE (a hardware host).  fabtel.ko missing is a failure unless the
 * configuration says it is not wanted (fabtel_ko = off).
 */
static bool source_absent(const struct model *m, enum model_source s)
{
	const char *why = m->why[s];

	if (!strncmp(why, "disabled", 8) || !strcmp(why, "not selected"))
		return true;
	if (s == SRC_BPF_RXE && strstr(why, "rdma_rxe not loaded"))
		return true;
	return s == SRC_FABTEL_KO && !m->opts.want_ko;
}

const char *render_source_state(const struct model *m, enum model_source s)
{
	if (m->src[s] == SRC_STATE_STANDBY)
		return "standby";
	if (m->src[s] == SRC_STATE_UP)
		return "up";
	return source_absent(m, s) ? "absent" : "failed";
}

static void source_families(const struct model *m, struct expo *e)
{
	static const char *const states[] = { "up", "failed", "absent" };
	struct expo_label l[3] = { { NULL, NULL }, { NULL, NULL }, { NULL, NULL } };
	const char *st;
	unsigned int i, k;

	expo_family(e, "fabtel_source_up", "gauge",
		    "1 if the source works, 0 if it is unavailable (why: /api/v1/snapshot). Sources on standby are not listed.");
	for (i = 0; i < SRC_NR; i++) {
		if (m->src[i] == SRC_STATE_STANDBY)
			continue;
		l[0] = (struct expo_label){ "source", model_source_name(i) };
		expo_u64(e, "fabtel_source_up", l, m->src[i] == SRC_STATE_UP);
	}
	expo_family(e, "fabtel_source_state", "gauge",
		    "1 for the source's state: up, failed, or absent (by design on this host: switched off, or rdma_rxe's program where there is no Soft-RoCE). Sources on standby are not listed.");
	for (i = 0; i < SRC_NR; i++) {
		st = render_source_state(m, i);
		if (!strcmp(st, "standby"))
			continue;
		l[0] = (struct expo_label){ "source", model_source_name(i) };
		for (k = 0; k < 3; k++) {
			l[1] = (struct expo_label){ "state", states[k] };
			expo_u64(e, "fabtel_source_state", l, !strcmp(st, states[k]));
		}
	}
}

static unsigned int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	unsigned int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n ? n - 1 : 0;	/* the directory's own descriptor */
}

/* the boot time, Unix seconds (/proc/stat btime), 0 if unreadable */
static double boot_time(void)
{
	char line[256];
	double bt = 0;
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lf", &bt) == 1)
			break;
	fclose(f);
	return bt;
}

/* /proc/self/stat fields 14-15 (utime, stime), 22 (starttime), 23-24 (vsize, rss) */
static bool proc_stat(double *cpu_s, double *start_s, double *vsize, double *rss)
{
	unsigned long long ut, st, start, vs;
	long long pages;
	double ticks = (double)sysconf(_SC_CLK_TCK), btime = boot_time();
	char buf[1024], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	p = ok ? strrchr(buf, ')') : NULL;	/* comm may hold spaces */
	if (!p || !btime ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %*d %*d %llu %llu %lld",
		   &ut, &st, &start, &vs, &pages) != 5)
		return false;
	*cpu_s = (double)(ut + st) / ticks;
	*start_s = btime + (double)start / ticks;
	*vsize = (double)vs;
	*rss = (double)pages * (double)sysconf(_SC_PAGESIZE);
	return true;
}

static void process_families(struct expo *e)
{
	double cpu, start, vsize, rss;
	struct rlimit rl;
	const struct {
		const char *name, *type, *help;
		const double *v;
	} fams[] = {
		{ "process_cpu_seconds_total", "counter",
		  "Total user and system CPU time spent in seconds.", &cpu },
		{ "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", &rss },
		{ "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", &vsize },
		{ "process_start_time_seconds", "gauge",
		  "Start time of the process since unix epoch in seconds.", &start },
	};
	unsigned int i;

	if (proc_stat(&cpu, &start, &vsize, &rss)) {
		for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
			expo_family(e, fams[i].name, fams[i].type, fams[i].help);
			expo_double(e, fams[i].name, NULL, *fams[i].v);
		}
	}
	expo_family(e, "process_open_fds", "gauge", "Number of open file descriptors.");
	expo_u64(e, "process_open_fds", NULL, open_fds());
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		expo_family(e, "process_max_fds", "gauge",
			    "Maximum number of open file descriptors.");
		expo_u64(e, "process_max_fds", NULL, rl.rlim_cur);
	}
}

/* what each source of the collection pass costs, and the files it keeps */
static void pass_families(const struct model *m, struct expo *e)
{
	struct expo_label l[2] = { { NULL, NULL }, { NULL, NULL } };
	unsigned int i;

	expo_family(e, "fabtel_collector_cpu_seconds_total", "counter",
		    "CPU time of the collector thread in each source of its passes (the sample's cost; scrapes not included).");
	for (i = 0; i < MODEL_PASS_SOURCES && m->source_name[i]; i++) {
		l[0] = (struct expo_label){ "source", m->source_name[i] };
		expo_double(e, "fabtel_collector_cpu_seconds_total", l,
			    (double)m->source_cpu_ns[i] / 1e9);
	}
	expo_family(e, "fabtel_collector_open_files", "gauge",
		    "sysfs files the collector keeps open and reads again at each pass.");
	expo_u64(e, "fabtel_collector_open_files", NULL, m->kept_files);
}

void render_self_families(const struct model *m, struct expo *e)
{
	struct expo_label l[3] = { { "version", FABTEL_VERSION }, { NULL, NULL }, { NULL, NULL } };

	/* the host label joins the probe series (host) to the scrape's instance */
	if (m->opts.host_name[0])
		l[1] = (struct expo_label){ "host", m->opts.host_name };
	expo_family(e, "fabtel_build_info", "gauge",
		    "fabteld's version, and this host's name as its probe series give it (host_name).");
	expo_u64(e, "fabtel_build_info", l, 1);
	source_families(m, e);
	expo_family(e, "fabtel_samples_total", "counter", "Collection passes over all sources.");
	expo_u64(e, "fabtel_samples_total", NULL, m->samples);
	expo_family(e, "fabtel_sample_duration_seconds", "gauge",
		    "How long the last collection pass took.");
	expo_double(e, "fabtel_sample_duration_seconds", NULL, m->sample_seconds);
	expo_family(e, "fabtel_sample_timestamp_seconds", "gauge",
		    "When the last collection pass ended (Unix time); the data below is that old.");
	expo_double(e, "fabtel_sample_timestamp_seconds", NULL, (double)m->sample_ns / 1e9);
	pass_families(m, e);
	process_families(e);
}
