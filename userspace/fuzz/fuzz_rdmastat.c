// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_rdmastat - libFuzzer target: the parsers of RDMA netlink statistics
 * replies (rdmastat_parse_port, _mode, _counters; lib/rdmastat.h).
 *
 * The input is one received buffer of replies of sequence 1: a port's
 * hw_counters, a mode, a dump of counter sets.  Each parser must stay
 * inside the buffer (ASan), keep within its tables, give names that end
 * inside them, and return only what its contract allows.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdmastat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_entries(const struct rdmastat_entry *e, unsigned int nr)
{
	unsigned int i;

	if (nr > RDMASTAT_MAX_ENTRIES)
		abort();
	for (i = 0; i < nr; i++)
		if (!e[i].name[0] || strnlen(e[i].name, RDMASTAT_NAME_LEN) == RDMASTAT_NAME_LEN)
			abort();
}

static int on_counter(const struct rdmastat_counter *c, void *ctx)
{
	unsigned int *n = ctx;

	if (c->nr_qpns > RDMASTAT_MAX_QPNS ||
	    strnlen(c->dev_name, RDMASTAT_NAME_LEN) == RDMASTAT_NAME_LEN)
		abort();
	check_entries(c->e, c->nr);
	return ++*n == 1000 ? 1 : 0;	/* a stop is returned as is */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t buf[16384];	/* netlink messages are 4-byte aligned */
	static struct rdmastat_port p;
	uint32_t mode = 0, mask = 0;
	unsigned int n = 0;
	int ret;

	if (size > sizeof(buf))
		size = sizeof(buf);
	memcpy(buf, data, size);
	memset(&p, 0, sizeof(p));
	ret = rdmastat_parse_port(buf, size, 1, &p);
	if (ret > 1 || ret < -4095)
		abort();
	check_entries(p.e, p.nr);
	if (strnlen(p.dev_name, RDMASTAT_NAME_LEN) == RDMASTAT_NAME_LEN)
		abort();
	ret = rdmastat_parse_mode(buf, size, 1, &mode, &mask);
	if (ret > 1 || ret < -4095)
		abort();
	ret = rdmastat_parse_counters(buf, size, 1, on_counter, &n);
	if (ret > 1 || ret < -4095)
		abort();
	return 0;
}
