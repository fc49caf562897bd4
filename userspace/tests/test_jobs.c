// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "jobs.h"

#define UUID	"0c8a3f5e-1b2c-4d5e-8f90-a1b2c3d4e5f6"
#define UUID_US	"0c8a3f5e_1b2c_4d5e_8f90_a1b2c3d4e5f6"

static void expect_path(const char *path, enum job_kind kind, const char *id)
{
	struct job_match m;

	assert_true(job_match_path(path, NULL, 0, &m));
	assert_int_equal(m.kind, kind);
	assert_string_equal(m.id, id);
}

static void expect_no_path(const char *path)
{
	struct job_match m;

	memset(&m, 0x55, sizeof(m));
	assert_false(job_match_path(path, NULL, 0, &m));
	assert_int_equal(m.kind, JOB_NONE);
	assert_string_equal(m.id, "");
}

static void kind_names(void **state)
{
	(void)state;
	assert_string_equal(job_kind_name(JOB_SLURM), "slurm");
	assert_string_equal(job_kind_name(JOB_K8S), "k8s");
	assert_string_equal(job_kind_name(JOB_CONFIG), "config");
	assert_string_equal(job_kind_name(JOB_NONE), "none");
}

static void slurm_v1_path(void **state)
{
	(void)state;
	expect_path("/slurm/uid_1000/job_4242/step_0/task_1", JOB_SLURM, "4242");
	expect_path("/slurm/uid_1000/job_4242/step_batch/task_0", JOB_SLURM, "4242");
	expect_path("/slurm/uid_1000/job_7", JOB_SLURM, "7");
}

static void slurm_v1_proc_cgroup(void **state)
{
	const char *text =
		"13:pids:/slurm/uid_1000/job_4242/step_batch/task_0\n"
		"12:memory:/slurm/uid_1000/job_4242/step_batch/task_0\n"
		"11:cpu,cpuacct:/slurm/uid_1000/job_4242/step_batch/task_0\n"
		"10:freezer:/slurm/uid_1000/job_4242/step_batch\n"
		"1:name=systemd:/user.slice/user-1000.slice/session-3.scope\n"
		"0::/user.slice/user-1000.slice/session-3.scope\n";
	struct job_match m;

	(void)state;
	assert_true(job_match_proc_cgroup(text, NULL, 0, &m));
	assert_int_equal(m.kind, JOB_SLURM);
	assert_string_equal(m.id, "4242");
}

static void slurm_v1_proc_cgroup_later_line(void **state)
{
	/* only the memory line says where the job is */
	const char *text =
		"4:devices:/system.slice/slurmd.service\n"
		"12:memory:/slurm/uid_1000/job_99/step_0/task_0\n"
		"0::/\n";
	struct job_match m;

	(void)state;
	assert_true(job_match_proc_cgroup(text, NULL, 0, &m));
	assert_int_equal(m.kind, JOB_SLURM);
	assert_string_equal(m.id, "99");
}

static void slurm_v2(void **state)
{
	struct job_match m;

	(void)state;
	expect_path("/system.slice/slurmstepd.scope/job_4242/step_0/user/task_0",
		    JOB_SLURM, "4242");
	expect_path("/system.slice/node1_slurmstepd.scope/job_12/step_extern/slurm",
		    JOB_SLURM, "12");
	assert_true(job_match_proc_cgroup(
		"0::/system.slice/slurmstepd.scope/job_4242/step_0/user/task_0\n",
		NULL, 0, &m));
	assert_int_equal(m.kind, JOB_SLURM);
	assert_string_equal(m.id, "4242");
	/* no trailing newline */
	assert_true(job_match_proc_cgroup(
		"0::/system.slice/slurmstepd.scope/job_5/step_0", NULL, 0, &m));
	assert_string_equal(m.id, "5");
}

static void slurm_bare_dir(void **state)
{
	(void)state;
	expect_path("/job_43", JOB_SLURM, "43");
	expect_path("job_43", JOB_SLURM, "43");
	expect_path("/a/b/job_1234567890/", JOB_SLURM, "1234567890");
}

static void slurm_non_matches(void **state)
{
	(void)state;
	expect_no_path("/jobs_4242");
	expect_no_path("/myjob_12");
	expect_no_path("/job_");
	expect_no_path("/job_/x");
	expect_no_path("/job_12a");
	expect_no_path("/job_12a/step_0");
	expect_no_path("/job-12");
	expect_no_path("/JOB_12");
	expect_no_path("/job_12.scope");
	expect_no_path("");
	expect_no_path("/");
	expect_no_path("/user.slice/user-1000.slice/session-3.scope");
}

static void slurm_later_component(void **state)
{
	/* a non-matching job_ component does not hide a later one */
	(void)state;
	expect_path("/myjob_1/job_x/job_77/step_0", JOB_SLURM, "77");
}

static void k8s_cgroupfs(void **state)
{
	(void)state;
	expect_path("/kubepods/burstable/pod" UUID "/abcdef0123456789abcdef",
		    JOB_K8S, UUID);
	expect_path("/kubepods/pod" UUID "/0123456789", JOB_K8S, UUID);
	expect_path("/kubepods/besteffort/pod" UUID, JOB_K8S, UUID);
}

static void k8s_systemd(void **state)
{
	(void)state;
	expect_path("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
		    UUID_US ".slice/cri-containerd-xyz.scope", JOB_K8S, UUID);
	expect_path("/kubepods.slice/kubepods-pod" UUID_US ".slice", JOB_K8S, UUID);
}

static void k8s_uppercase(void **state)
{
	(void)state;
	expect_path("/kubepods/burstable/pod0C8A3F5E-1B2C-4D5E-8F90-A1B2C3D4E5F6/c",
		    JOB_K8S, UUID);
	expect_path("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod"
		    "0C8A3F5E_1B2C_4D5E_8F90_A1B2C3D4E5F6.slice", JOB_K8S, UUID);
}

static void k8s_malformed(void **state)
{
	(void)state;
	/* too short */
	expect_no_path("/kubepods/burstable/pod0c8a3f5e-1b2c-4d5e-8f90-a1b2c3d4e5f/x");
	/* too long */
	expect_no_path("/kubepods/burstable/pod0c8a3f5e-1b2c-4d5e-8f90-a1b2c3d4e5f6a/x");
	/* non-hex */
	expect_no_path("/kubepods/burstable/pod0c8a3f5g-1b2c-4d5e-8f90-a1b2c3d4e5f6/x");
	/* separators in the wrong place */
	expect_no_path("/kubepods/burstable/pod0c8a3f5e1-b2c-4d5e-8f90-a1b2c3d4e5f6/x");
	expect_no_path("/kubepods/burstable/pod0c8a3f5e-1b2c-4d5e-8f90a1b2c3d4e5f6/x");
	/* "pod" not at a component start or after '-' */
	expect_no_path("/kubepods/burstable/xpod" UUID "/x");
	/* followed by something other than '/', '.', end */
	expect_no_path("/kubepods/burstable/pod" UUID "_x");
	/* no "pod" at all */
	expect_no_path("/kubepods/burstable/" UUID);
}

static void k8s_after_false_pod(void **state)
{
	(void)state;
	expect_path("/podman/pods/kubepods/pod" UUID "/c", JOB_K8S, UUID);
}

static void rule_parse_good(void **state)
{
	struct job_rule r;

	(void)state;
	assert_int_equal(job_rule_parse("train=/jobs/train*", &r), 0);
	assert_string_equal(r.name, "train");
	assert_string_equal(r.glob, "/jobs/train*");
	/* only the first '=' splits */
	assert_int_equal(job_rule_parse("a=/x=y/*", &r), 0);
	assert_string_equal(r.name, "a");
	assert_string_equal(r.glob, "/x=y/*");
	assert_int_equal(job_rule_parse("x-1.b:c=*", &r), 0);
	assert_string_equal(r.name, "x-1.b:c");
}

static void rule_parse_bad(void **state)
{
	char name[JOB_ID_LEN + 10], glob[300];
	struct job_rule r;

	(void)state;
	assert_int_equal(job_rule_parse("", &r), -EINVAL);
	assert_int_equal(job_rule_parse("=x", &r), -EINVAL);
	assert_int_equal(job_rule_parse("name=", &r), -EINVAL);
	assert_int_equal(job_rule_parse("noequals", &r), -EINVAL);
	assert_int_equal(job_rule_parse("a b=/x", &r), -EINVAL);
	assert_int_equal(job_rule_parse("a\tb=/x", &r), -EINVAL);
	assert_int_equal(job_rule_parse("a\"b=/x", &r), -EINVAL);
	assert_int_equal(job_rule_parse("a\\b=/x", &r), -EINVAL);
	assert_int_equal(job_rule_parse("a\nb=/x", &r), -EINVAL);
	assert_int_equal(job_rule_parse("caf\xc3\xa9=/x", &r), -EINVAL);

	/* name: JOB_ID_LEN - 1 fits, JOB_ID_LEN does not */
	memset(name, 'n', JOB_ID_LEN - 1);
	strcpy(name + JOB_ID_LEN - 1, "=/x");
	assert_int_equal(job_rule_parse(name, &r), 0);
	assert_int_equal(strlen(r.name), JOB_ID_LEN - 1);
	memset(name, 'n', JOB_ID_LEN);
	strcpy(name + JOB_ID_LEN, "=/x");
	assert_int_equal(job_rule_parse(name, &r), -EINVAL);

	/* glob: 255 fits, 256 does not */
	glob[0] = 'g';
	glob[1] = '=';
	memset(glob + 2, '*', 255);
	glob[2 + 255] = '\0';
	assert_int_equal(job_rule_parse(glob, &r), 0);
	assert_int_equal(strlen(r.glob), 255);
	memset(glob + 2, '*', 256);
	glob[2 + 256] = '\0';
	assert_int_equal(job_rule_parse(glob, &r), -EINVAL);
}

static void rules_match(void **state)
{
	struct job_rule r[1];
	struct job_match m;

	(void)state;
	assert_int_equal(job_rule_parse("train=/jobs/train*", &r[0]), 0);
	assert_true(job_match_path("/jobs/train42", r, 1, &m));
	assert_int_equal(m.kind, JOB_CONFIG);
	assert_string_equal(m.id, "train");
	/* the glob must match the whole path */
	assert_false(job_match_path("/x/jobs/train42", r, 1, &m));
	assert_int_equal(m.kind, JOB_NONE);
	/* '*' crosses '/' */
	assert_true(job_match_path("/jobs/train/a/b/c", r, 1, &m));
	assert_string_equal(m.id, "train");
}

static void rules_win_over_builtins(void **state)
{
	struct job_rule r[1];
	struct job_match m;

	(void)state;
	assert_int_equal(job_rule_parse("mine=/slurm/*", &r[0]), 0);
	assert_true(job_match_path("/slurm/uid_1000/job_4242/step_0", r, 1, &m));
	assert_int_equal(m.kind, JOB_CONFIG);
	assert_string_equal(m.id, "mine");
	/* not matching the rule: built-ins still apply */
	assert_true(job_match_path("/system.slice/slurmstepd.scope/job_9", r, 1, &m));
	assert_int_equal(m.kind, JOB_SLURM);
	assert_string_equal(m.id, "9");
}

static void first_rule_wins(void **state)
{
	struct job_rule r[3];
	struct job_match m;

	(void)state;
	assert_int_equal(job_rule_parse("narrow=/a/b/*", &r[0]), 0);
	assert_int_equal(job_rule_parse("wide=/a/*", &r[1]), 0);
	assert_int_equal(job_rule_parse("all=*", &r[2]), 0);
	assert_true(job_match_path("/a/b/c", r, 3, &m));
	assert_string_equal(m.id, "narrow");
	assert_true(job_match_path("/a/x/y/z", r, 3, &m));
	assert_string_equal(m.id, "wide");
	assert_true(job_match_path("/q", r, 3, &m));
	assert_string_equal(m.id, "all");
	/* reversed order: the catch-all wins everything */
	assert_true(job_match_path("/a/b/c", &r[2], 1, &m));
	assert_string_equal(m.id, "all");
	assert_true(job_match_path("/a/b/c", &r[1], 2, &m));
	assert_string_equal(m.id, "wide");
}

static void proc_rules_before_builtins(void **state)
{
	/* the Slurm line comes first, the rule only matches a later line */
	const char *text =
		"12:memory:/slurm/uid_1000/job_4242/step_0/task_0\n"
		"0::/custom/train/worker3\n";
	struct job_rule r[1];
	struct job_match m;

	(void)state;
	assert_int_equal(job_rule_parse("train=/custom/train/*", &r[0]), 0);
	assert_true(job_match_proc_cgroup(text, r, 1, &m));
	assert_int_equal(m.kind, JOB_CONFIG);
	assert_string_equal(m.id, "train");
	/* without rules the Slurm line wins */
	assert_true(job_match_proc_cgroup(text, NULL, 0, &m));
	assert_int_equal(m.kind, JOB_SLURM);
	assert_string_equal(m.id, "4242");
}

static void proc_first_builtin_line_wins(void **state)
{
	const char *text =
		"3:cpu:/kubepods/burstable/pod" UUID "/c\n"
		"2:memory:/slurm/uid_1/job_5/step_0\n";
	struct job_match m;

	(void)state;
	assert_true(job_match_proc_cgroup(text, NULL, 0, &m));
	assert_int_equal(m.kind, JOB_K8S);
	assert_string_equal(m.id, UUID);
}

static void proc_path_with_colon(void **state)
{
	struct job_rule r[1];
	struct job_match m;

	(void)state;
	/* the path is everything after the second colon */
	assert_int_equal(job_rule_parse("c=/odd:name/*", &r[0]), 0);
	assert_true(job_match_proc_cgroup("0::/odd:name/x:y\n", r, 1, &m));
	assert_int_equal(m.kind, JOB_CONFIG);
	assert_string_equal(m.id, "c");
	assert_true(job_match_proc_cgroup("5:cpu,cpuacct:/a:b/job_31/c:d\n", NULL, 0, &m));
	assert_int_equal(m.kind, JOB_SLURM);
	assert_string_equal(m.id, "31");
	/* the glob sees only the path, not "ID:CONTROLLERS:" */
	assert_int_equal(job_rule_parse("whole=0::*", &r[0]), 0);
	assert_false(job_match_proc_cgroup("0::/x\n", r, 1, &m));
}

static void proc_no_match(void **state)
{
	struct job_match m;

	(void)state;
	memset(&m, 0x55, sizeof(m));
	assert_false(job_match_proc_cgroup(
		"12:memory:/user.slice\n0::/user.slice/user-1000.slice/session-3.scope\n",
		NULL, 0, &m));
	assert_int_equal(m.kind, JOB_NONE);
	assert_string_equal(m.id, "");
	assert_false(job_match_proc_cgroup("", NULL, 0, &m));
	/* lines without two colons are skipped */
	assert_false(job_match_proc_cgroup("/job_5\nnocolon\n1:/job_6\n", NULL, 0, &m));
	assert_true(job_match_proc_cgroup("garbage\n\n1:x:/job_6\n", NULL, 0, &m));
	assert_string_equal(m.id, "6");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kind_names),
		cmocka_unit_test(slurm_v1_path),
		cmocka_unit_test(slurm_v1_proc_cgroup),
		cmocka_unit_test(slurm_v1_proc_cgroup_later_line),
		cmocka_unit_test(slurm_v2),
		cmocka_unit_test(slurm_bare_dir),
		cmocka_unit_test(slurm_non_matches),
		cmocka_unit_test(slurm_later_component),
		cmocka_unit_test(k8s_cgroupfs),
		cmocka_unit_test(k8s_systemd),
		cmocka_unit_test(k8s_uppercase),
		cmocka_unit_test(k8s_malformed),
		cmocka_unit_test(k8s_after_false_pod),
		cmocka_unit_test(rule_parse_good),
		cmocka_unit_test(rule_parse_bad),
		cmocka_unit_test(rules_match),
		cmocka_unit_test(rules_win_over_builtins),
		cmocka_unit_test(first_rule_wins),
		cmocka_unit_test(proc_rules_before_builtins),
		cmocka_unit_test(proc_first_builtin_line_wins),
		cmocka_unit_test(proc_path_with_colon),
		cmocka_unit_test(proc_no_match),
	};

	return cmocka_run_group_tests_name("jobs", tests, NULL, NULL);
}
