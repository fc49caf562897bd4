// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_sysfs_port - libFuzzer target: the plain-sysfs source's port parser.
 *
 * The input is a file tree, one "PATH=TEXT" line per file (memfs.h), for
 * example
 *
 *	/sys/class/infiniband/fz0/ports/1/link_layer=Ethernet
 *	/sys/class/infiniband/fz0/ports/1/hw_counters/out_of_sequence=12
 *	/sys/class/net/eth0/carrier=1
 *
 * read through fsread's in-memory backend: the whole source walks it
 * (every device and port it names), as a pass would, and its ports are
 * folded into a model that lives across inputs.  No file is written.
 * The parser must keep its strings ended and within their fields, never
 * list a non-Ethernet port, and never claim a counter it did not read.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "fold.h"
#include "memfs.h"
#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct model model;
static struct raw raw;
static struct memfs fs;

static void check_port(const struct raw_port *p)
{
	unsigned int c;

	if (!memchr(p->device, '\0', sizeof(p->device)) ||
	    !memchr(p->netdev, '\0', sizeof(p->netdev)) ||
	    !memchr(p->state, '\0', sizeof(p->state)) || strcmp(p->driver, "-"))
		abort();
	if (p->carrier < -1 || (p->have_nd && !p->netdev[0]))
		abort();
	for (c = 0; c < FABTEL_NR_COUNTERS; c++)
		if (!p->have[c] && p->ctr[c])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	static struct collector *c;
	static void *priv;
	static struct fold fold = { .sock = -1 };
	unsigned int i;

	if (!ready) {
		collect_opts_default(&model.opts);
		model.opts.bpf = model.opts.wire = false;
		c = collector_new(&model, &model.opts);
		priv = calloc(1, source_sysfs.priv_size);
		if (!c || !priv)
			abort();
		ready = true;
	}
	memfs_init(&fs);
	memfs_load(&fs, (const char *)data, size);
	fs_set_backend(&fs.be);
	raw.ko = false;
	raw.nr_ports = 0;
	source_sysfs.sample(c, priv, &raw);
	fs_set_backend(NULL);
	if (raw.nr_ports > MODEL_MAX_PORTS)
		abort();
	for (i = 0; i < raw.nr_ports; i++)
		check_port(&raw.ports[i]);
	raw.ports_mono += 1000000000ULL;
	fold_ports(&fold, &model, &raw, 1790000000000000000ULL + raw.ports_mono);
	model.samples++;
	return 0;
}
