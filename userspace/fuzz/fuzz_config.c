// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_config - libFuzzer target: fabteld's config parser (config_load).
 *
 * The input is a config file.  Whatever it holds, config_load must return 0
 * or -1; on -1 the message names the file and a line ("FILE:LINE: ...");
 * on 0 the settings are within their documented ranges.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void check(const struct config *c)
{
	/* ranges config.c documents; a parser that let a bad value through */
	if (c->interval_ms < 100 || c->interval_ms > 60000 || !c->listen_port ||
	    c->listen_port > 65535 || !c->max_connections || c->max_connections > 4096 ||
	    !c->health.window_s || !c->health.hold_s ||
	    memchr(c->listen_addr, '\0', sizeof(c->listen_addr)) == NULL ||
	    c->nr_job_rules > CONFIG_MAX_JOB_RULES)
		abort();
}

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	char err[512];
	FILE *f;
	int rc;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/fabtel-fuzz-config.%d", (int)getpid());
		atexit(remove_file);
	}
	f = fopen(path, "w");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);

	config_defaults(&c);
	err[0] = '\0';
	rc = config_load(&c, path, err, sizeof(err));
	if (rc != 0 && rc != -1)
		abort();
	/* an error names the file and a line */
	if (rc == -1 && (strncmp(err, path, strlen(path)) || err[strlen(path)] != ':'))
		abort();
	if (!rc)
		check(&c);
	return 0;
}
