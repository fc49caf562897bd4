// SPDX-License-Identifier: GPL-2.0
/*
 * action_run.c - the actions' runner (actions.h): a thread that takes the
 * jobs action_watch.c queues, in order, one at a time, so a drain is never
 * overtaken by the resume after it, and the sampling loop never waits for
 * a command.
 *
 * A command runs without a shell (posix_spawn, as fabteld's user) in a
 * process group of its own, with fabteld's environment plus the FABTEL_*
 * variables, the evidence's JSON on its standard input, its standard
 * output and error kept (the last 512 bytes go to the audit), and
 * SIGPIPE back at its default.  One still running after action_timeout_s
 * is killed with its group.  Every job ends as one JSON line in
 * action_log (opened at start, as root: a log fabteld's user could not
 * create still works) and a line on fabteld's standard error.  One that
 * did not run whole and exit 0 sets its target's failed flag: it is run
 * again.  At stop (within fabteld's 1.7 s grace) a command running is
 * killed ("stopped") and those queued are audited "not_run"; the next
 * start acts on the state it finds.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "action_watch.h"
#include "clock.h"
#include "render.h"

#define OUT_KEEP	512

extern char **environ;

struct action_runner {
	struct action_cfg cfg;
	int log_fd;			/* action_log, opened as root at start; -1 none */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct action_job *head, *tail;
	unsigned int queued;
	bool stopping;
};

struct run_result {
	enum action_outcome outcome;
	int status;			/* waitpid's */
	int err;			/* errno of a failed start */
	uint64_t ms;
	char out[OUT_KEEP + 1];
	size_t out_len;
};

static const char *const outcome_names[ACT_OUTCOMES] = {
	"ran", "dry_run", "deferred", "not_started", "timeout", "dropped", "stopped", "not_run",
};

const char *action_outcome_name(enum action_outcome o)
{
	return outcome_names[o];
}

void action_job_free(struct action_job *j)
{
	if (!j)
		return;
	json_object_put(j->evidence);
	free(j);
}

static void audit_copy(struct json_object *line, struct json_object *ev, const char *key)
{
	struct json_object *v;

	if (json_object_object_get_ex(ev, key, &v))
		json_object_object_add(line, key, json_object_get(v));
}

/* one write per line: the lines of the runner and of a deferral never mix */
static void audit_write(const struct action_runner *r, const char *text)
{
	size_t n = strlen(text);
	char *buf = malloc(n + 1);

	if (!buf)
		return;
	memcpy(buf, text, n);
	buf[n] = '\n';
	if (write(r->log_fd, buf, n + 1) != (ssize_t)(n + 1))
		fprintf(stderr, "fabteld: action_log %s: %s\n", r->cfg.log, strerror(errno));
	free(buf);
}

static void audit(const struct action_runner *r, const struct action_job *j,
		  const struct run_result *res)
{
	static const char *const keys[] = { "event", "scope", "target", "node", "level", "reason",
					    "summary" };
	struct json_object *line = json_object_new_object(), *argv = json_object_new_array();
	const char *text;

	json_object_object_add(line, "time", render_jtime(clock_ns(CLOCK_REALTIME)));
	json_object_object_add(line, "outcome",
			       json_object_new_string(action_outcome_name(res->outcome)));
	for (unsigned int i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		audit_copy(line, j->evidence, keys[i]);
	for (unsigned int i = 0; j->argv[i]; i++)
		json_object_array_add(argv, json_object_new_string(j->argv[i]));
	json_object_object_add(line, "command", argv);
	if (res->outcome == ACT_RAN || res->outcome == ACT_TIMEOUT) {
		if (WIFEXITED(res->status))
			json_object_object_add(line, "exit", json_object_new_int(WEXITSTATUS(res->status)));
		if (WIFSIGNALED(res->status))
			json_object_object_add(line, "signal", json_object_new_int(WTERMSIG(res->status)));
		json_object_object_add(line, "duration_ms", json_object_new_uint64(res->ms));
		json_object_object_add(line, "output", json_object_new_string_len(res->out,
										     (int)res->out_len));
	}
	if (res->outcome == ACT_NOT_STARTED)
		json_object_object_add(line, "error", json_object_new_string(strerror(res->err)));
	text = json_object_to_json_string_ext(line, JSON_C_TO_STRING_PLAIN);
	fprintf(stderr, "fabteld: action %s %s: %s %s\n", j->target, action_event_name(j->event),
		j->argv[0] ? j->argv[0] : "", action_outcome_name(res->outcome));
	if (r->log_fd >= 0)
		audit_write(r, text);
	json_object_put(line);
}

void action_runner_audit(struct action_runner *r, const struct action_job *j,
			 enum action_outcome o)
{
	struct run_result res = { .outcome = o };

	audit(r, j, &res);
}

/* fabteld's environment less any FABTEL_*, then j's */
static char **job_env(struct action_job *j)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	env = calloc(n + j->nr_env + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "FABTEL_", 7))
			env[k++] = environ[i];
	for (unsigned int i = 0; i < j->nr_env; i++)
		env[k++] = j->env[i];
	return env;
}

static int spawn(struct action_job *j, int in_fd, int out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t all, none;
	char **env = job_env(j);
	int err;

	if (!env)
		return ENOMEM;
	sigfillset(&all);
	sigemptyset(&none);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
	posix_spawnattr_init(&at);
	/* fabteld ignores SIGPIPE; its commands get the default back */
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
				      POSIX_SPAWN_SETPGROUP);
	err = strchr(j->argv[0], '/') ? posix_spawn(pid, j->argv[0], &fa, &at, j->argv, env) :
					posix_spawnp(pid, j->argv[0], &fa, &at, j->argv, env);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	return err;
}

static void keep_out(struct run_result *res, const char *b, size_t n)
{
	if (n >= OUT_KEEP) {
		memcpy(res->out, b + n - OUT_KEEP, OUT_KEEP);
		res->out_len = OUT_KEEP;
		return;
	}
	if (res->out_len + n > OUT_KEEP) {
		size_t drop = res->out_len + n - OUT_KEEP;

		memmove(res->out, res->out + drop, res->out_len - drop);
		res->out_len -= drop;
	}
	memcpy(res->out + res->out_len, b, n);
	res->out_len += n;
}

static bool stopping(struct action_runner *r)
{
	bool s;

	pthread_mutex_lock(&r->lock);
	s = r->stopping;
	pthread_mutex_unlock(&r->lock);
	return s;
}

/*
 * The command ended (its status in res), or cannot be waited for: true.
 * -1 other than EINTR (ECHILD: SIGCHLD ignored by whoever started
 * fabteld, the child reaped already) ends the wait, its status unknown.
 */
static bool ended(pid_t pid, struct run_result *res)
{
	pid_t w = waitpid(pid, &res->status, WNOHANG);

	if (w == pid)
		return true;
	if (w < 0 && errno != EINTR) {
		res->status = -1;
		return true;
	}
	return false;
}

/*
 * feed stdin, keep the output, until the command ends, its time is up or
 * fabteld stops (then its group is killed; 5 s more at most for it to go)
 */
static void await(struct action_runner *r, pid_t pid, int in_w, int out_r, const char *input,
		  struct run_result *res)
{
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
	uint64_t end = t0 + (uint64_t)r->cfg.timeout_s * 1000000000ull;
	size_t off = 0, len = strlen(input);
	char buf[4096];
	bool killed = false, out_open = true;

	res->outcome = ACT_RAN;
	for (;;) {
		struct pollfd p[2] = { { .fd = out_open ? out_r : -1, .events = POLLIN },
				       { .fd = in_w, .events = POLLOUT } };
		ssize_t n;

		if (ended(pid, res))
			break;
		if (!killed && (clock_ns(CLOCK_MONOTONIC) >= end || stopping(r))) {
			kill(-pid, SIGKILL);
			res->outcome = stopping(r) ? ACT_STOPPED : ACT_TIMEOUT;
			killed = true;
			end = clock_ns(CLOCK_MONOTONIC) + 5000000000ull;
		} else if (killed && clock_ns(CLOCK_MONOTONIC) >= end) {
			res->status = -1;	/* stuck past SIGKILL (D state): given up */
			break;
		}
		if (poll(p, in_w >= 0 ? 2 : 1, 50) <= 0)
			continue;
		if (p[0].revents) {
			n = read(out_r, buf, sizeof(buf));
			if (n > 0)
				keep_out(res, buf, (size_t)n);
			else if (n == 0 || errno != EINTR)
				out_open = false;
		}
		if (in_w >= 0 && p[1].revents) {
			n = write(in_w, input + off, len - off);
			if (n > 0)
				off += (size_t)n;
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				off = len;	/* it closed its stdin: the rest is not for it */
			if (off == len) {
				close(in_w);
				in_w = -1;
			}
		}
	}
	/* what it wrote last, once it ended */
	while (fcntl(out_r, F_SETFL, O_NONBLOCK) == 0) {
		ssize_t n = read(out_r, buf, sizeof(buf));

		if (n <= 0)
			break;
		keep_out(res, buf, (size_t)n);
	}
	if (in_w >= 0)
		close(in_w);
	res->ms = (clock_ns(CLOCK_MONOTONIC) - t0) / 1000000;
}

static void run_one(struct action_runner *r, struct action_job *j)
{
	struct run_result res = { .outcome = ACT_DRY_RUN };
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	const char *input;
	pid_t pid;

	if (j->dry_run)
		goto audit_job;
	input = json_object_to_json_string_ext(j->evidence, JSON_C_TO_STRING_PLAIN);
	res.outcome = ACT_NOT_STARTED;
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		res.err = errno;
		goto close_pipes;
	}
	res.err = spawn(j, in[0], out[1], &pid);
	if (res.err)
		goto close_pipes;
	close(in[0]);
	close(out[1]);
	in[0] = out[1] = -1;
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	await(r, pid, in[1], out[0], input, &res);
	in[1] = -1;		/* await closed it */
close_pipes:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
audit_job:
	audit(r, j, &res);
	/* not run whole and well: its target runs it again (action_watch.c) */
	if (res.outcome != ACT_DRY_RUN &&
	    (res.outcome != ACT_RAN || !WIFEXITED(res.status) || WEXITSTATUS(res.status)))
		__atomic_store_n(j->failed, 1, __ATOMIC_RELEASE);
}

static void *runner(void *arg)
{
	struct action_runner *r = arg;
	struct action_job *j;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (!r->head && !r->stopping)
			pthread_cond_wait(&r->more, &r->lock);
		j = r->head;
		if (!j)
			break;
		r->head = j->next;
		if (!r->head)
			r->tail = NULL;
		r->queued--;
		if (r->stopping) {
			pthread_mutex_unlock(&r->lock);
			action_runner_audit(r, j, ACT_NOT_RUN);
		} else {
			pthread_mutex_unlock(&r->lock);
			run_one(r, j);
		}
		action_job_free(j);
		pthread_mutex_lock(&r->lock);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

void action_runner_queue(struct action_runner *r, struct action_job *j)
{
	pthread_mutex_lock(&r->lock);
	if (r->queued >= ACTION_QUEUE_MAX) {
		pthread_mutex_unlock(&r->lock);
		action_runner_audit(r, j, ACT_DROPPED);
		__atomic_store_n(j->failed, 1, __ATOMIC_RELEASE);
		action_job_free(j);
		return;
	}
	if (r->tail)
		r->tail->next = j;
	else
		r->head = j;
	r->tail = j;
	r->queued++;
	pthread_cond_signal(&r->more);
	pthread_mutex_unlock(&r->lock);
}

int actions_log_open(const struct action_cfg *cfg, char *err, size_t errlen)
{
	int fd;

	err[0] = '\0';
	if (!cfg->log[0] || !action_any(cfg))
		return -1;
	fd = open(cfg->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
	if (fd < 0)
		snprintf(err, errlen, "action_log %s: %s", cfg->log, strerror(errno));
	return fd;
}

struct action_runner *action_runner_start(const struct action_cfg *cfg, int log_fd, char *err,
					  size_t errlen)
{
	struct action_runner *r = calloc(1, sizeof(*r));
	int e;

	if (!r) {
		snprintf(err, errlen, "actions: out of memory");
		return NULL;
	}
	r->cfg = *cfg;
	r->log_fd = log_fd;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->more, NULL);
	e = pthread_create(&r->thread, NULL, runner, r);
	if (e) {
		snprintf(err, errlen, "actions: cannot start its thread: %s", strerror(e));
		pthread_cond_destroy(&r->more);
		pthread_mutex_destroy(&r->lock);
		free(r);
		return NULL;
	}
	return r;
}

void action_runner_stop(struct action_runner *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->stopping = true;
	pthread_cond_signal(&r->more);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	if (r->log_fd >= 0)
		close(r->log_fd);
	pthread_cond_destroy(&r->more);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
