// SPDX-License-Identifier: GPL-2.0
/*
 * test_actions - fabteld's actions (fabteld/actions.h) over readings made
 * by hand, one pass a second, with a real command: a stub script that
 * keeps each run's environment and standard input.  Ten flaps in a row
 * are one "failing" run and one "healthy" once the hold is over; the
 * evidence (FABTEL_* and the JSON) names the port and the fault; a node
 * healthy at start is resumed after 60 s; a job name full of shell
 * metacharacters arrives as data; dry run runs nothing and audits; the
 * rate limit defers a turn and runs it later; a command past its timeout
 * is killed and run again; a port gone while failing keeps the node
 * failing; bad commands are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "actions.h"
#include "collector.h"
#include "config.h"
#include "fold.h"
#include "readings.h"

static struct model m;
static struct raw r;
static uint64_t t;
static char dir[64], stub[128], logf[128];
static struct action_cfg cfg;

static uint64_t pass(struct actions *a)
{
	readings_pass(&m, &r, ++t);
	actions_pass(a, &m, (1790000000 + t) * NS_PER_S);
	return t;
}

static void put_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static char *slurp(const char *fmt, ...)
{
	static char buf[65536];
	char path[256];
	va_list ap;
	FILE *f;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* the runs the stub made, once n of them are there (10 s at most) */
static int runs(int want)
{
	int n = 0;

	for (int i = 0; i < 200; i++) {
		char *s = slurp("%s/n", dir);

		n = s ? atoi(s) : 0;
		if (n >= want)
			break;
		usleep(50000);
	}
	return n;
}

static int audit_lines(const char *outcome)
{
	char *s = slurp("%s", logf), key[64];
	int n = 0;

	snprintf(key, sizeof(key), "\"outcome\":\"%s\"", outcome);
	for (; s && (s = strstr(s, key)); s++)
		n++;
	return n;
}

/* FABTEL_name of run n, "" if not set */
static const char *env_of(int n, const char *name)
{
	static char v[512];
	char *s = slurp("%s/env.%d", dir, n), key[64], *p;

	snprintf(key, sizeof(key), "\nFABTEL_%s=", name);
	v[0] = '\0';
	if (s && (p = strstr(s, key))) {
		p += strlen(key);
		snprintf(v, sizeof(v), "%.*s", (int)strcspn(p, "\n"), p);
	}
	return v;
}

static int setup(void **state)
{
	char err[256];

	(void)state;
	readings_rxa_job7(&m, &r);
	r.ports[0].have_flaps = true;
	m.opts.recent_fault_s = 5;
	m.opts.health.hold_s = 5;	/* the job's link_flap reason holds as long */
	t = 0;
	snprintf(dir, sizeof(dir), "/tmp/test_actions.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(stub, sizeof(stub), "%s/stub", dir);
	snprintf(logf, sizeof(logf), "%s/audit.log", dir);
	snprintf(err, sizeof(err),
		 "#!/bin/sh\nD=%s\nn=$(( $(cat $D/n 2>/dev/null || echo 0) + 1 ))\n"
		 "echo \"$*\" >$D/argv.$n; printf '\\n' >$D/env.$n; env >>$D/env.$n\n"
		 "cat >$D/in.$n; echo $n >$D/n; echo ran $n\n", dir);
	put_file(stub, err, 0755);
	memset(&cfg, 0, sizeof(cfg));
	cfg.timeout_s = 5;
	snprintf(cfg.log, sizeof(cfg.log), "%s", logf);
	snprintf(cfg.cmd[ACT_NODE][ACT_FAILING], ACTION_CMD_LEN, "%s drain", stub);
	snprintf(cfg.cmd[ACT_NODE][ACT_HEALTHY], ACTION_CMD_LEN, "%s resume", stub);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static struct actions *start(void)
{
	char err[256];
	int fd = actions_log_open(&cfg, err, sizeof(err));
	struct actions *a;

	assert_true(fd >= 0);
	a = actions_start(&cfg, "gpu-1", fd, err, sizeof(err));
	assert_non_null(a);
	return a;
}

/* the audit log's lines of outcome, once there are n (5 s at most) */
static int audited(const char *outcome, int n)
{
	int got = 0;

	for (int i = 0; i < 100 && (got = audit_lines(outcome)) < n; i++)
		usleep(50000);
	return got;
}

static void ten_flaps_one_drain(void **state)
{
	struct actions *a = start();
	struct json_object *in, *v;
	int i;

	(void)state;
	pass(a);
	pass(a);
	for (i = 0; i < 10; i++) {
		r.ports[0].flaps++;
		pass(a);
	}
	assert_int_equal(runs(1), 1);
	assert_string_equal(env_of(1, "EVENT"), "failing");
	assert_string_equal(env_of(1, "SCOPE"), "node");
	assert_string_equal(env_of(1, "REASON"), "link_flap");
	assert_string_equal(env_of(1, "DEVICE"), "rxa");
	assert_string_equal(env_of(1, "PORT"), "1");
	assert_string_equal(env_of(1, "NODE"), "gpu-1");
	assert_non_null(strstr(env_of(1, "SUMMARY"), "fabtel: link_flap on rxa/1 at "));
	assert_string_equal(slurp("%s/argv.1", dir), "drain\n");
	in = json_tokener_parse(slurp("%s/in.1", dir));
	assert_non_null(in);
	assert_true(json_object_object_get_ex(in, "ports", &v));
	v = json_object_array_get_idx(v, 0);
	assert_non_null(v);
	assert_true(json_object_object_get_ex(v, "recent_fault", &v));
	assert_true(json_object_object_get_ex(v, "fault", &v));
	assert_string_equal(json_object_get_string(v), "link_flap");
	json_object_put(in);
	/* the holds: 5 s after the last flap (recent_fault_s; hold_s to the second), then healthy once */
	for (i = 0; i < 4; i++)
		pass(a);
	usleep(200000);
	assert_int_equal(runs(1), 1);
	pass(a);
	pass(a);
	assert_int_equal(runs(2), 2);
	pass(a);
	usleep(200000);
	assert_int_equal(runs(2), 2);
	assert_string_equal(env_of(2, "EVENT"), "healthy");
	assert_non_null(strstr(env_of(2, "SUMMARY"), "healthy again (last fault: link_flap)"));
	assert_int_equal(audited("ran", 2), 2);
	actions_stop(a);
}

/* found healthy at start: resumed once healthy 60 s (a drain from before the restart undone) */
static void healthy_at_start_settles(void **state)
{
	struct actions *a = start();

	(void)state;
	while (t < 61)
		pass(a);
	usleep(200000);
	assert_int_equal(runs(0), 0);
	pass(a);
	pass(a);
	assert_int_equal(runs(1), 1);
	assert_string_equal(env_of(1, "EVENT"), "healthy");
	actions_stop(a);
}

/* a job's name with shell metacharacters reaches the command as data */
static void evidence_is_data(void **state)
{
	const char *evil = "x;$(touch${IFS}/tmp/test_actions.pwned)`id`&";
	struct actions *a;
	char *s;

	(void)state;
	unlink("/tmp/test_actions.pwned");
	snprintf(r.qps[0].job.id, sizeof(r.qps[0].job.id), "%s", evil);
	r.qps[0].job.kind = JOB_CONFIG;
	a = start();
	pass(a);
	pass(a);
	r.ports[0].carrier = 0;		/* down: the job's reason and the port's fault */
	pass(a);
	assert_int_equal(runs(1), 1);
	actions_stop(a);
	assert_string_equal(env_of(1, "REASON"), "link_down");
	assert_string_equal(env_of(1, "JOBS"), evil);
	s = strstr(env_of(1, "SUMMARY"), "; jobs: ");
	assert_non_null(s);
	assert_string_equal(s + 8, evil);
	assert_int_equal(access("/tmp/test_actions.pwned", F_OK), -1);
}

static void dry_run_runs_nothing(void **state)
{
	struct actions *a;

	(void)state;
	cfg.dry_run = 1;
	a = start();
	pass(a);
	pass(a);
	r.ports[0].flaps++;
	pass(a);
	assert_int_equal(audited("dry_run", 1), 1);
	actions_stop(a);
	assert_int_equal(runs(0), 0);
	assert_non_null(strstr(slurp("%s", logf), "\"command\":[\"" ));
}

/* rate limit 100 s: a fault soon after the resume is deferred (audited once), then run */
static void rate_limit_defers(void **state)
{
	struct actions *a;
	int i;

	(void)state;
	cfg.rate_s = 100;
	a = start();
	pass(a);
	pass(a);
	r.ports[0].flaps++;
	pass(a);		/* failing, the state at start: not counted */
	for (i = 0; i < 8; i++)
		pass(a);	/* healthy again: run, counted */
	assert_int_equal(runs(2), 2);
	r.ports[0].carrier = 0;
	pass(a);		/* down within 100 s of it: deferred */
	assert_int_equal(audit_lines("deferred"), 1);
	while (t < 100)
		pass(a);
	usleep(200000);
	assert_int_equal(runs(2), 2);
	assert_int_equal(audit_lines("deferred"), 1);	/* once, not each pass */
	while (t < 112)		/* still down when the limit allows it */
		pass(a);
	assert_int_equal(runs(3), 3);
	assert_string_equal(env_of(3, "EVENT"), "failing");
	assert_string_equal(env_of(3, "REASON"), "link_down");
	actions_stop(a);
}

/* a command that times out is killed, and run again 10 s on */
static void timeout_kills_and_retries(void **state)
{
	struct actions *a;
	uint64_t t0;

	(void)state;
	cfg.timeout_s = 1;
	snprintf(cfg.cmd[ACT_NODE][ACT_FAILING], ACTION_CMD_LEN, "sleep 30");
	a = start();
	pass(a);
	pass(a);
	r.ports[0].carrier = 0;
	pass(a);
	t0 = t;
	assert_int_equal(audited("timeout", 1), 1);
	assert_non_null(strstr(slurp("%s", logf), "\"signal\":9"));
	while (t < t0 + 9)
		pass(a);
	usleep(200000);
	assert_int_equal(audit_lines("timeout"), 1);
	pass(a);
	pass(a);
	assert_int_equal(audited("timeout", 2), 2);
	actions_stop(a);
}

/* a port that goes while failing keeps the node failing; no port at all: not judged */
static void port_gone_still_failing(void **state)
{
	struct actions *a;

	(void)state;
	snprintf(cfg.cmd[ACT_PORT][ACT_FAILING], ACTION_CMD_LEN, "%s port", stub);
	a = start();
	pass(a);
	pass(a);
	r.ports[0].carrier = 0;
	pass(a);
	assert_int_equal(runs(2), 2);	/* the node's first, then the port's */
	assert_string_equal(slurp("%s/argv.1", dir), "drain\n");
	r.nr_ports = 0;			/* the device is gone */
	while (t < 80)
		pass(a);
	usleep(200000);
	assert_int_equal(runs(2), 2);	/* no resume */
	actions_stop(a);
}

static void bad_commands(void **state)
{
	struct config c;
	char err[512];

	(void)state;
	config_defaults(&c);
	assert_int_equal(config_set(&c, "action_node_failing", "bin/x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "absolute path or a name on PATH"));
	assert_int_equal(config_set(&c, "action_node_failing",
				    "/bin/true 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", err,
				    sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 16 words"));
	assert_int_equal(config_set(&c, "action_on", "sometimes", err, sizeof(err)), -1);
	assert_int_equal(config_set(&c, "action_port_healthy", "/nonexistent/x", err,
				    sizeof(err)), 0);
	assert_int_equal(config_check_host(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "action_port_healthy: '/nonexistent/x' is not an executable"));
	assert_int_equal(config_set(&c, "action_port_healthy", "true", err, sizeof(err)), 0);
	assert_int_equal(config_check_host(&c, err, sizeof(err)), 0);
	/* an audit log that cannot be opened: named, so start fails saying so */
	assert_int_equal(config_set(&c, "action_log", "/nonexistent/actions.log", err,
				    sizeof(err)), 0);
	assert_int_equal(actions_log_open(&c.action, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "action_log /nonexistent/actions.log: No such file"));
	assert_int_equal(config_set(&c, "action_log", "off", err, sizeof(err)), 0);
	assert_int_equal(actions_log_open(&c.action, err, sizeof(err)), -1);
	assert_string_equal(err, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(ten_flaps_one_drain, setup, teardown),
		cmocka_unit_test_setup_teardown(healthy_at_start_settles, setup, teardown),
		cmocka_unit_test_setup_teardown(evidence_is_data, setup, teardown),
		cmocka_unit_test_setup_teardown(dry_run_runs_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(rate_limit_defers, setup, teardown),
		cmocka_unit_test_setup_teardown(timeout_kills_and_retries, setup, teardown),
		cmocka_unit_test_setup_teardown(port_gone_still_failing, setup, teardown),
		cmocka_unit_test(bad_commands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
