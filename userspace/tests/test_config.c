// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "config.h"
#include "settings.h"

static char path[64];
static char err[1024];
static struct config cfg;

/* Write text into a new temporary file; its name is in path. */
static void write_file(const char *text)
{
	size_t n = strlen(text);
	int fd;

	snprintf(path, sizeof(path), "/tmp/fabteld-test-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	assert_int_equal(close(fd), 0);
}

static int setup(void **state)
{
	(void)state;
	path[0] = '\0';
	err[0] = '\0';
	config_defaults(&cfg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (path[0])
		unlink(path);
	return 0;
}

/* Load text; expect failure on line lineno with what in the message. */
static void expect_bad(const char *text, unsigned int lineno, const char *what)
{
	char prefix[128];

	write_file(text);
	config_defaults(&cfg);
	err[0] = '\0';
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), -1);
	snprintf(prefix, sizeof(prefix), "%s:%u: ", path, lineno);
	if (strncmp(err, prefix, strlen(prefix)))
		fail_msg("expected '%s...', got '%s'", prefix, err);
	if (what && !strstr(err, what))
		fail_msg("expected '%s' in '%s'", what, err);
	unlink(path);
	path[0] = '\0';
}

static void defaults(void **state)
{
	(void)state;
	assert_string_equal(cfg.listen_addr, "127.0.0.1");
	assert_int_equal(cfg.listen_port, 9465);
	assert_int_equal(cfg.interval_ms, 1000);
	assert_string_equal(cfg.user, "nobody");
	assert_int_equal(cfg.bpf, CONFIG_AUTO);
	assert_int_equal(cfg.wire, CONFIG_AUTO);
	assert_int_equal(cfg.max_connections, 64);
	assert_int_equal(cfg.job_linger_s, 300);
	assert_string_equal(cfg.sysfs_root, "");
	assert_string_equal(cfg.proc_root, "");
	assert_int_equal(cfg.health.window_s, 60);
	assert_int_equal(cfg.health.hold_s, 300);
	assert_int_equal(cfg.health.oos_events, 5);
	assert_int_equal(cfg.health.ack_timeouts, 5);
	assert_int_equal(cfg.health.rnr_naks, 100);
	assert_int_equal(cfg.nr_job_rules, 0);
}

static void good_file(void **state)
{
	(void)state;
	write_file("# fabteld.conf\n"
		   "\n"
		   "   \n"
		   "listen = 0.0.0.0:9100\n"
		   "\tinterval_ms=500   # twice a second\n"
		   "user = fabtel\n"
		   "bpf = off\n"
		   "wire = on\n"
		   "max_connections = 4096\n"
		   "job_linger_s = 0\n"
		   "  # indented comment\n"
		   "job = a=/x/*\n"
		   "job = b=/y/*/z\n"
		   "window_s = 30\n"
		   "hold_s = 600\n"
		   "oos_events = 7\n"
		   "ack_timeouts = 8\n"
		   "rnr_naks = 1000000000\n"
		   "sysfs_root = /tmp/sys\n"
		   "proc_root = /\n");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_string_equal(cfg.listen_addr, "0.0.0.0");
	assert_int_equal(cfg.listen_port, 9100);
	assert_int_equal(cfg.interval_ms, 500);
	assert_string_equal(cfg.user, "fabtel");
	assert_int_equal(cfg.bpf, CONFIG_OFF);
	assert_int_equal(cfg.wire, CONFIG_ON);
	assert_int_equal(cfg.max_connections, 4096);
	assert_int_equal(cfg.job_linger_s, 0);
	assert_int_equal(cfg.nr_job_rules, 2);
	assert_string_equal(cfg.job_rules[0].name, "a");
	assert_string_equal(cfg.job_rules[0].glob, "/x/*");
	assert_string_equal(cfg.job_rules[1].name, "b");
	assert_string_equal(cfg.job_rules[1].glob, "/y/*/z");
	assert_int_equal(cfg.health.window_s, 30);
	assert_int_equal(cfg.health.hold_s, 600);
	assert_int_equal(cfg.health.oos_events, 7);
	assert_int_equal(cfg.health.ack_timeouts, 8);
	assert_int_equal(cfg.health.rnr_naks, 1000000000);
	assert_string_equal(cfg.sysfs_root, "/tmp/sys");
	assert_string_equal(cfg.proc_root, "");
}

static void same_job_rule_twice(void **state)
{
	(void)state;
	write_file("job = a=/x/*\njob = a=/x/*\n");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_int_equal(cfg.nr_job_rules, 2);
	assert_string_equal(cfg.job_rules[1].name, "a");
	assert_string_equal(cfg.job_rules[1].glob, "/x/*");
}

static void empty_file(void **state)
{
	(void)state;
	write_file("");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_int_equal(cfg.listen_port, 9465);
}

static void last_line_without_newline(void **state)
{
	(void)state;
	write_file("interval_ms = 250");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_int_equal(cfg.interval_ms, 250);
}

static void listen_forms(void **state)
{
	(void)state;
	assert_int_equal(config_set_listen(&cfg, "[::1]:9465"), 0);
	assert_string_equal(cfg.listen_addr, "::1");
	assert_int_equal(cfg.listen_port, 9465);
	assert_int_equal(config_set_listen(&cfg, ":9466"), 0);
	assert_string_equal(cfg.listen_addr, "0.0.0.0");
	assert_int_equal(cfg.listen_port, 9466);
	assert_int_equal(config_set_listen(&cfg, "10.1.2.3:1"), 0);
	assert_string_equal(cfg.listen_addr, "10.1.2.3");
	assert_int_equal(cfg.listen_port, 1);
	assert_int_equal(config_set_listen(&cfg, "localhost:65535"), 0);
	assert_string_equal(cfg.listen_addr, "localhost");
	assert_int_equal(cfg.listen_port, 65535);
	/* the form is right, but start takes numeric addresses only */
	assert_int_equal(config_check_host(&cfg, err, sizeof(err)), -1);

	assert_int_equal(config_set_listen(&cfg, "host"), -1);
	assert_int_equal(config_set_listen(&cfg, "host:"), -1);
	assert_int_equal(config_set_listen(&cfg, "host:0"), -1);
	assert_int_equal(config_set_listen(&cfg, "host:70000"), -1);
	assert_int_equal(config_set_listen(&cfg, "host:-1"), -1);
	assert_int_equal(config_set_listen(&cfg, "host:12abc"), -1);
	assert_int_equal(config_set_listen(&cfg, ""), -1);
	/* the failures left the last good setting alone */
	assert_string_equal(cfg.listen_addr, "localhost");
	assert_int_equal(cfg.listen_port, 65535);
}

static void listen_in_file(void **state)
{
	(void)state;
	write_file("listen = [::1]:9465\n");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_string_equal(cfg.listen_addr, "::1");
	assert_int_equal(cfg.listen_port, 9465);
	unlink(path);
	write_file("listen = :9465\n");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_string_equal(cfg.listen_addr, "0.0.0.0");
	assert_int_equal(cfg.listen_port, 9465);
}

static void bad_lines(void **state)
{
	(void)state;
	expect_bad("# c\nbogus = 1\n", 2, "unknown key 'bogus'");
	expect_bad("\n\n\nlisten 0.0.0.0:1\n", 4, "key = value");
	expect_bad("interval_ms =\n", 1, NULL);
	expect_bad("interval_ms =   # comment\n", 1, NULL);
	expect_bad("= 5\n", 1, NULL);
	expect_bad("interval_ms = 100\ninterval_ms = 5\n", 2, "interval_ms");
	expect_bad("interval_ms = 99999999999\n", 1, "interval_ms");
	expect_bad("interval_ms = 60001\n", 1, "interval_ms");
	expect_bad("interval_ms = 12abc\n", 1, "12abc");
	expect_bad("interval_ms = -1\n", 1, "-1");
	expect_bad("interval_ms = +5\n", 1, NULL);
	expect_bad("interval_ms = 1 000\n", 1, NULL);
	expect_bad("max_connections = 0\n", 1, NULL);
	expect_bad("window_s = 0\n", 1, NULL);
	expect_bad("hold_s = 86401\n", 1, NULL);
	expect_bad("oos_events = 1000000001\n", 1, NULL);
	expect_bad("bpf = yes\n", 1, "yes");
	expect_bad("wire = ON\n", 1, NULL);
	expect_bad("listen = host\n", 1, "host");
	expect_bad("listen = host:0\n", 1, NULL);
	expect_bad("listen = host:70000\n", 1, NULL);
	expect_bad("job = =x\n", 1, NULL);
	expect_bad("job = name=\n", 1, NULL);
	expect_bad("job = a b=/x\n", 1, NULL);
	expect_bad("job = noglob\n", 1, NULL);
	expect_bad("sysfs_root = relative\n", 1, NULL);
	expect_bad("a = 1\r\n", 1, "control");
}

static void too_many_job_rules(void **state)
{
	char *text = malloc(32 * (CONFIG_MAX_JOB_RULES + 2));
	size_t n = 0;
	int i;

	(void)state;
	assert_non_null(text);
	n += (size_t)sprintf(text + n, "# rules\n");
	for (i = 0; i < CONFIG_MAX_JOB_RULES + 1; i++)
		n += (size_t)sprintf(text + n, "job = j%d=/j/%d/*\n", i, i);
	expect_bad(text, CONFIG_MAX_JOB_RULES + 2, "job rules");
	assert_int_equal(cfg.nr_job_rules, CONFIG_MAX_JOB_RULES);
	assert_string_equal(cfg.job_rules[CONFIG_MAX_JOB_RULES - 1].name, "j63");
	free(text);
}

static void long_line(void **state)
{
	char text[2200];

	(void)state;
	/* 1022 characters and the newline fit */
	memset(text, ' ', sizeof(text));
	memcpy(text, "user = u", 8);
	text[1022] = '\n';
	text[1023] = '\0';
	write_file(text);
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_string_equal(cfg.user, "u");
	unlink(path);
	path[0] = '\0';
	/* 1023 do not, on line 2 */
	memset(text, ' ', sizeof(text));
	memcpy(text, "# c\nuser = u", 12);
	text[4 + 1023] = '\n';
	memcpy(text + 4 + 1024, "bpf = on\n", 10);
	expect_bad(text, 2, "longer");
	/* and a much longer one */
	memset(text, 'x', sizeof(text));
	text[sizeof(text) - 2] = '\n';
	text[sizeof(text) - 1] = '\0';
	expect_bad(text, 1, "longer");
}

static void settings_before_bad_line_stay(void **state)
{
	(void)state;
	expect_bad("listen = 10.0.0.1:9000\n"
		   "interval_ms = 200\n"
		   "job = a=/x/*\n"
		   "hold_s = 10\n"
		   "nonsense = 1\n"
		   "window_s = 5\n"
		   "user = late\n", 5, "nonsense");
	assert_string_equal(cfg.listen_addr, "10.0.0.1");
	assert_int_equal(cfg.listen_port, 9000);
	assert_int_equal(cfg.interval_ms, 200);
	assert_int_equal(cfg.nr_job_rules, 1);
	assert_int_equal(cfg.health.hold_s, 10);
	/* after the bad line: still the defaults */
	assert_int_equal(cfg.health.window_s, 60);
	assert_string_equal(cfg.user, "nobody");
}

/* what start would refuse, refused by --check-config too, naming the line */
static void host_checks_name_the_line(void **state)
{
	(void)state;
	write_file("# fabteld\nlisten = localhost:9465\nuser = nobody\n");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_int_equal(config_check_host(&cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":2: listen address 'localhost'"));
	assert_non_null(strstr(err, path));
	unlink(path);
	write_file("listen = [::1]:9465\nuser = no-such-user-fabtel\n");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_int_equal(config_check_host(&cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":2: user 'no-such-user-fabtel' does not exist"));
	unlink(path);
	write_file("listen = 127.0.0.1:9465\nuser = root\n");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_int_equal(config_check_host(&cfg, err, sizeof(err)), 0);
	unlink(path);
	path[0] = '\0';
}

/* a NUL byte, a path too long, a job name with '/': each its own message */
static void bytes_and_lengths(void **state)
{
	static const char nul[] = "user = nob\0ody\nbpf = on\n";
	char e[256], longpath[400];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_config.XXXXXX");
	close(mkstemp(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(nul, 1, sizeof(nul) - 1, f);
	fclose(f);
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":1: a NUL byte"));
	unlink(path);
	path[0] = '\0';
	memset(longpath, 'a', sizeof(longpath));
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(config_set(&cfg, "sysfs_root", longpath, e, sizeof(e)), -1);
	assert_non_null(strstr(e, "longer than 255"));
	assert_int_equal(config_set(&cfg, "sysfs_root", "relative", e, sizeof(e)), -1);
	assert_non_null(strstr(e, "absolute"));
	assert_int_equal(config_set(&cfg, "job", "team/a=/x/*", e, sizeof(e)), -1);
}

static void missing_file(void **state)
{
	const char *missing = "/tmp/fabteld-test-does-not-exist/x.conf";

	(void)state;
	assert_int_equal(config_load(&cfg, missing, err, sizeof(err)), -1);
	assert_non_null(strstr(err, missing));
	assert_non_null(strstr(err, strerror(ENOENT)));
	assert_int_equal(cfg.listen_port, 9465);
}

static void set_directly(void **state)
{
	char e[256];

	(void)state;
	assert_int_equal(config_set(&cfg, "interval_ms", "100", e, sizeof(e)), 0);
	assert_int_equal(cfg.interval_ms, 100);
	assert_int_equal(config_set(&cfg, "interval_ms", "60000", e, sizeof(e)), 0);
	assert_int_equal(cfg.interval_ms, 60000);
	assert_int_equal(config_set(&cfg, "interval_ms", "99", e, sizeof(e)), -1);
	assert_non_null(strstr(e, "100..60000"));
	assert_int_equal(cfg.interval_ms, 60000);
	assert_int_equal(config_set(&cfg, "nope", "1", e, sizeof(e)), -1);
	assert_string_equal(e, "unknown key 'nope'");
	assert_int_equal(config_set(&cfg, "bpf", "auto", e, sizeof(e)), 0);
	assert_int_equal(cfg.bpf, CONFIG_AUTO);
	assert_int_equal(config_set(&cfg, "user", "", e, sizeof(e)), -1);
}

/* which devices to leave out (devfilter.h): globs read, a bad one names its line */
static void device_lists(void **state)
{
	struct collect_opts o;

	(void)state;
	write_file("# the management NIC\nexclude_devices = mgmt_* rocep9s0*\n"
		   "include_drivers = mlx5, bnxt_re\n");
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_int_equal(cfg.devfilter.n[DF_EXCLUDE_DEVICES], 2);
	assert_string_equal(cfg.devfilter.glob[DF_EXCLUDE_DEVICES][1], "rocep9s0*");
	assert_int_equal(cfg.devfilter.n[DF_INCLUDE_DRIVERS], 2);
	assert_string_equal(cfg.devfilter.glob[DF_INCLUDE_DRIVERS][1], "bnxt_re");
	assert_int_equal(cfg.devfilter.n[DF_INCLUDE_DEVICES], 0);
	config_collect_opts(&cfg, &o);
	assert_ptr_equal(o.devfilter, &cfg.devfilter);
	unlink(path);
	path[0] = '\0';
	expect_bad("interval_ms = 500\nexclude_devices = [\n", 2,
		   "exclude_devices: '[' is not a glob of a name (an unclosed '[')");
	expect_bad("\n\ninclude_drivers = mlx5 a/b\n", 3, "include_drivers: 'a/b'");
	expect_bad("include_devices = mlx5_\\\n", 1, "a '\\' at its end");
}

/* the prober's keys (config_probe.c): values read, bad ones name the line */
static void probe_settings(void **state)
{
	(void)state;
	write_file("probe_peer = 10.0.0.2:9465\nprobe_peer = [fd00::3]:9465\n"
		   "probe_peers_file = /etc/fabtel/peers\nprobe_rate = 50\nprobe_tos = 106\n"
		   "probe_tos = mlx5_1/1=98\nprobe_qkey = 0x11\nprobe_match = all\nhost_name = gpu-17\n"
		   "probe = on\nprobe_loss_pct = 5\nprobe_rtt_us = 200\nprobe_flows = 16\n"
		   "probe_flow_mode = qp\n");
	config_defaults(&cfg);
	assert_int_equal(cfg.probe_cfg.flows, 8);
	assert_int_equal(cfg.probe_cfg.flow_mode, PROBE_FLOWS_AUTO);
	assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
	assert_int_equal(cfg.probe_cfg.nr_peers, 2);
	assert_string_equal(cfg.probe_cfg.peers[1], "[fd00::3]:9465");
	assert_string_equal(cfg.probe_cfg.peers_file, "/etc/fabtel/peers");
	assert_int_equal(cfg.probe_cfg.rate, 50);
	assert_int_equal(cfg.probe_cfg.tos, 106);
	assert_int_equal(cfg.probe_cfg.nr_tos_rules, 1);
	assert_string_equal(cfg.probe_cfg.tos_rules[0].device, "mlx5_1");
	assert_int_equal(cfg.probe_cfg.tos_rules[0].tos, 98);
	assert_int_equal(cfg.probe_cfg.qkey, 0x11);
	assert_true(cfg.probe_cfg.match_all);
	assert_string_equal(cfg.probe_cfg.host, "gpu-17");
	assert_int_equal(cfg.probe, CONFIG_ON);
	assert_int_equal(cfg.probe_cfg.loss_pct, 5);
	assert_int_equal(cfg.probe_cfg.rtt_us, 200);
	assert_int_equal(cfg.probe_cfg.flows, 16);
	assert_int_equal(cfg.probe_cfg.flow_mode, PROBE_FLOWS_QP);
	unlink(path);
	path[0] = '\0';
	expect_bad("probe_peer = 10.0.0.2\n", 1, "HOST:PORT");
	expect_bad("probe_peer = a/b:1\n", 1, NULL);
	expect_bad("\nprobe_rate = 0\n", 2, "probe_rate wants a whole number 1..1000");
	expect_bad("probe_window_s = 61\n", 1, NULL);
	expect_bad("probe_max_peers = 33\n", 1, NULL);
	expect_bad("probe_qkey = 0x80000000\n", 1, NULL);
	expect_bad("probe_tos = 256\n", 1, "probe_tos");
	expect_bad("probe_tos = mlx5_0=5\n", 1, "DEVICE/PORT=TOS");
	expect_bad("probe_tos = mlx5_0/0=5\n", 1, NULL);
	expect_bad("probe_peers_file = peers\n", 1, "absolute");
	expect_bad("probe_match = some\n", 1, "subnet or all");
	expect_bad("probe_flows = 0\n", 1, "probe_flows wants a whole number 1..16");
	expect_bad("probe_flows = 17\n", 1, NULL);
	expect_bad("probe_flow_mode = ecmp\n", 1, "auto, label or qp");
	expect_bad("host_name = a b\n", 1, "host_name");
	expect_bad("probe = maybe\n", 1, NULL);
}

/* a file of its own with text in it (mkstemp); its name in out */
static void temp_with(char *out, size_t len, const char *text)
{
	int fd;

	snprintf(out, len, "/tmp/fabteld-test-XXXXXX");
	fd = mkstemp(out);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(close(fd), 0);
}

/* config_set(key, value) fails with what in the message, and never says secret */
static void set_bad(const char *key, const char *value, const char *what)
{
	char e[512] = "";

	assert_int_equal(config_set(&cfg, key, value, e, sizeof(e)), -1);
	if (!strstr(e, what))
		fail_msg("expected '%s' in '%s'", what, e);
	assert_null(strstr(e, "hunter2"));
}

/*
 * How the fetcher reaches its peers (config_probe.c): HTTPS against a CA
 * file, basic auth with the password from a file's first line; the file
 * read at once, its failures named, its bytes never in a message.
 */
static void probe_fetch_settings(void **state)
{
	char pw[64], ca[64], bad[64], e[512];

	(void)state;
	temp_with(pw, sizeof(pw), "hunter2 :x\r\nsecond line\n");
	temp_with(ca, sizeof(ca), "# our CA\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
	config_defaults(&cfg);
	assert_true(cfg.probe_cfg.tls_verify_host);
	assert_string_equal(cfg.probe_cfg.tls_ca_file, "");
	assert_int_equal(config_set(&cfg, "probe_tls_ca_file", ca, e, sizeof(e)), 0);
	assert_string_equal(cfg.probe_cfg.tls_ca_file, ca);
	assert_int_equal(config_set(&cfg, "probe_tls_verify_host", "off", e, sizeof(e)), 0);
	assert_false(cfg.probe_cfg.tls_verify_host);
	assert_int_equal(config_set(&cfg, "probe_auth_user", "prober", e, sizeof(e)), 0);
	/* the first line alone, CR LF taken off, a space and a colon kept */
	assert_int_equal(config_set(&cfg, "probe_auth_password_file", pw, e, sizeof(e)), 0);
	assert_string_equal(cfg.probe_cfg.auth_password, "hunter2 :x");
	assert_string_equal(cfg.probe_cfg.auth_user, "prober");
	assert_int_equal(config_probe_check(&cfg.probe_cfg, e, sizeof(e)), 0);

	set_bad("probe_tls_verify_host", "yes", "probe_tls_verify_host wants on or off");
	set_bad("probe_tls_ca_file", "ca.pem", "probe_tls_ca_file wants an absolute path");
	set_bad("probe_tls_ca_file", "/nonexistent/ca.pem", "probe_tls_ca_file /nonexistent/ca.pem: No such file");
	set_bad("probe_tls_ca_file", pw, "no PEM certificate");
	set_bad("probe_tls_ca_file", "/dev/null", "not a regular file");
	set_bad("probe_auth_user", "a:b", "probe_auth_user wants a user name");
	set_bad("probe_auth_user", "a\tb", "without ':' or control characters");
	set_bad("probe_auth_password_file", "pw", "probe_auth_password_file wants an absolute path");
	set_bad("probe_auth_password_file", "/nonexistent/pw",
		"probe_auth_password_file /nonexistent/pw: No such file");
	set_bad("probe_auth_password_file", "/tmp", "not a regular file");
	temp_with(bad, sizeof(bad), "\nhunter2\n");
	set_bad("probe_auth_password_file", bad, "the first line (the password) is empty");
	unlink(bad);
	/* a failed setting leaves the one before */
	assert_string_equal(cfg.probe_cfg.auth_password, "hunter2 :x");
	assert_string_equal(cfg.probe_cfg.tls_ca_file, ca);

	/* the two go together */
	config_defaults(&cfg);
	assert_int_equal(config_set(&cfg, "probe_auth_user", "prober", e, sizeof(e)), 0);
	assert_int_equal(config_probe_check(&cfg.probe_cfg, e, sizeof(e)), -1);
	assert_string_equal(e, "probe_auth_user is set without probe_auth_password_file");
	config_defaults(&cfg);
	assert_int_equal(config_set(&cfg, "probe_auth_password_file", pw, e, sizeof(e)), 0);
	assert_int_equal(config_probe_check(&cfg.probe_cfg, e, sizeof(e)), -1);
	assert_string_equal(e, "probe_auth_password_file is set without probe_auth_user");
	assert_int_equal(config_check_host(&cfg, e, sizeof(e)), -1);
	unlink(pw);
	unlink(ca);
}

/*
 * The settings table (settings.c): the defaults config_defaults() sets are
 * the table's and the collector's (fabteld --print-settings check); every
 * key's default is taken by the parser; a number's range is the table's.
 */
static void settings_table(void **state)
{
	char e[512], buf[64], want[128];
	const char *d;
	FILE *f = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(f);
	assert_int_equal(settings_print("check", f), 0);
	assert_int_equal(settings_print("nonsense", f), -1);
	fclose(f);
	for (size_t i = 0; i < settings_count; i++) {
		const struct setting *s = &settings[i];

		assert_ptr_equal(settings_find(s->key), s);
		assert_non_null(s->help);
		d = settings_default(s, buf, sizeof(buf));
		if (!d && s->type == SETTING_TEXT)
			assert_non_null(s->example);
		if (d && config_set(&cfg, s->key, d, e, sizeof(e)))
			fail_msg("%s = %s: %s", s->key, d, e);
		if (s->type != SETTING_UINT || s->hi == 0xffffffff)
			continue;
		snprintf(buf, sizeof(buf), "%u", s->hi + 1);
		assert_int_equal(config_set(&cfg, s->key, buf, e, sizeof(e)), -1);
		snprintf(want, sizeof(want), "%s wants a whole number %u..%u, not '%s'", s->key,
			 s->lo, s->hi, buf);
		assert_string_equal(e, want);
	}
	assert_null(settings_find("bogus"));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(defaults),
		T(good_file),
		T(same_job_rule_twice),
		T(empty_file),
		T(last_line_without_newline),
		T(listen_forms),
		T(listen_in_file),
		T(bad_lines),
		T(too_many_job_rules),
		T(long_line),
		T(settings_before_bad_line_stay),
		T(host_checks_name_the_line),
		T(bytes_and_lengths),
		T(missing_file),
		T(set_directly),
		T(device_lists),
		T(probe_settings),
		T(probe_fetch_settings),
		T(settings_table),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
