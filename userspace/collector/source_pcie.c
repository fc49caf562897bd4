// SPDX-License-Identifier: GPL-2.0
/*
 * source_pcie.c - the PCIe link and AER counters of each RDMA device's PCI
 * function, every pcie_s seconds (Documentation/nic_health.rst).
 *
 * The function: the device's own `device` link where it is a PCI function
 * (mlx5, bnxt_re, irdma), else the first PCI function above its port's
 * netdev's device (Soft-RoCE over virtio-net: virtio0's parent).  A device
 * with neither (fakeroce, a netdev with no bus device) has no PCIe link;
 * a conventional PCI function has no link files.  Per function:
 *   current_link_speed/_width, max_link_speed/_width   (its link)
 *   the same max_* of its upstream port, where there is one (the slot)
 *   aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal (AER, if any)
 * Each is a PCI config-space read in the kernel: no firmware command.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "collector.h"
#include "fsread.h"
#include "text.h"

/* the collector's priv for this source */
struct source_pcie {
	uint64_t next_ns;		/* CLOCK_MONOTONIC of the next read */
};

/*
 * "8.0 GT/s PCIe" (or "8 GT/s", older kernels) as MT/s: 8000; 0 for
 * "Unknown" or anything else
 */
unsigned int pcie_parse_speed(const char *s)
{
	unsigned int whole = 0, tenth = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9' && whole < 1000)
		whole = whole * 10 + (unsigned int)(*p++ - '0');
	if (*p == '.' && p[1] >= '0' && p[1] <= '9') {
		tenth = (unsigned int)(p[1] - '0');
		p += 2;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (strncmp(p, " GT/s", 5))
		return 0;
	return whole * 1000 + tenth * 100;
}

/* a link width file: "16" (6.1 prints the number), "x16" elsewhere; 0 unknown */
unsigned int pcie_parse_width(const char *s)
{
	uint64_t v;

	if (*s == 'x')
		s++;
	return fs_parse_u64(s, &v) || v > 64 ? 0 : (unsigned int)v;
}

/*
 * One aer_dev_* file ("RxErr 0\nBadTLP 3\n...\nTOTAL_ERR_COR 3\n"): its
 * kinds into q->aer with severity sev, its total into q->aer_total[sev].
 * false if the file is not one.
 */
bool pcie_parse_aer(const char *text, unsigned int sev, struct raw_pcie *q)
{
	const char *line = text;
	char name[RAW_AER_NAME];
	uint64_t v;
	bool total = false;

	while (*line) {
		const char *nl = strchr(line, '\n'), *sp = strchr(line, ' ');
		char num[24];
		size_t n, nn;

		if (!sp || (nl && sp > nl))
			return false;
		n = (size_t)(sp - line);
		nn = nl ? (size_t)(nl - sp - 1) : strlen(sp + 1);
		if (!n || !nn || nn >= sizeof(num))
			return false;
		memcpy(num, sp + 1, nn);
		num[nn] = '\0';
		if (fs_parse_u64(num, &v))
			return false;
		/* a kind too long to keep (dev_nonfatal_errs_bit[N]): cut, still counted */
		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, line, n);
		name[n] = '\0';
		if (!strncmp(name, "TOTAL_ERR_", 10)) {
			q->aer_total[sev] = v;
			total = true;
		} else if (q->nr_aer < RAW_AER_KINDS) {
			q->aer[q->nr_aer].sev = (uint8_t)sev;
			text_copy(q->aer[q->nr_aer].name, sizeof(q->aer[0].name), name);
			q->aer[q->nr_aer++].n = v;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return total;
}

static bool has_link(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/current_link_speed", dir);
	return access(p, R_OK) == 0;
}

/* the PCI function under (or above) link: its sysfs dir in fn; false if none */
static bool function_of(const char *link, char *fn, size_t len)
{
	char real[PATH_MAX], *slash;

	if (!realpath(link, real))
		return false;
	for (;;) {
		if (has_link(real)) {
			text_copy(fn, len, real);
			return true;
		}
		slash = strrchr(real, '/');
		/* up to /sys/devices, never past it */
		if (!slash || slash == real || !strcmp(slash, "/devices"))
			return false;
		*slash = '\0';
	}
}

/* dir's name=value file as text, trailing newline cut; false if unreadable */
static bool read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char p[PATH_MAX];
	ssize_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	n = fs_read_text(p, buf, len);
	if (n < 0)
		return false;
	fs_text_end(n, buf);
	return true;
}

static void read_link(const char *dir, unsigned int *cur_mts, unsigned int *cur_w,
		      unsigned int *max_mts, unsigned int *max_w)
{
	char b[64];

	*cur_mts = read_attr(dir, "current_link_speed", b, sizeof(b)) ? pcie_parse_speed(b) : 0;
	*cur_w = read_attr(dir, "current_link_width", b, sizeof(b)) ? pcie_parse_width(b) : 0;
	*max_mts = read_attr(dir, "max_link_speed", b, sizeof(b)) ? pcie_parse_speed(b) : 0;
	*max_w = read_attr(dir, "max_link_width", b, sizeof(b)) ? pcie_parse_width(b) : 0;
}

static void read_aer(const char *dir, struct raw_pcie *q)
{
	static const char *const file[3] = {
		"aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal",
	};
	char b[1024];
	unsigned int s;

	q->have_aer = true;
	for (s = 0; s < 3; s++)
		q->have_aer &= read_attr(dir, file[s], b, sizeof(b)) && pcie_parse_aer(b, s, q);
}

/* device dev (its port's netdev nd, "" none): its function's link and AER into q */
static void read_device(const char *root, const char *dev, const char *nd, struct raw_pcie *q)
{
	char link[PATH_MAX], fn[PATH_MAX], up[PATH_MAX], *slash;
	unsigned int cur, w;

	fs_path(root, link, sizeof(link), "/sys/class/infiniband/%s/device", dev);
	if (!function_of(link, fn, sizeof(fn))) {
		fn[0] = '\0';
		fs_path(root, link, sizeof(link), "/sys/class/net/%s/device", nd);
		if (nd[0] && !function_of(link, fn, sizeof(fn)))
			fn[0] = '\0';
	}
	if (!fn[0]) {
		snprintf(q->why, sizeof(q->why), "no PCIe function (virtual, or conventional PCI)");
		return;
	}
	slash = strrchr(fn, '/');
	text_copy(q->bdf, sizeof(q->bdf), slash ? slash + 1 : fn);
	read_link(fn, &q->cur_mts, &q->cur_w, &q->max_mts, &q->max_w);
	text_copy(up, sizeof(up), fn);
	slash = strrchr(up, '/');
	if (slash) {
		*slash = '\0';
		if (has_link(up))
			read_link(up, &cur, &w, &q->slot_mts, &q->slot_w);
	}
	read_aer(fn, q);
}

static bool pcie_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_pcie *s = priv;
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	unsigned int i, k;

	r->pcie_read = false;
	if (!c->o->pcie_s) {
		raw_report(r, SRC_PCIE, SRC_STATE_STANDBY, "%s", "pcie_s = 0");
		return false;
	}
	if (now < s->next_ns)
		return false;
	s->next_ns = now + (uint64_t)c->o->pcie_s * NS_PER_S;
	r->nr_pcie = 0;
	for (i = 0; i < r->nr_ports && r->nr_pcie < MODEL_MAX_PORTS; i++) {
		const struct raw_port *p = &r->ports[i];
		struct raw_pcie *q = &r->pcie[r->nr_pcie];

		for (k = 0; k < r->nr_pcie && strcmp(r->pcie[k].device, p->device); k++)
			;
		if (k < r->nr_pcie)
			continue;	/* a device's second port: the same function */
		memset(q, 0, sizeof(*q));
		text_copy(q->device, sizeof(q->device), p->device);
		read_device(c->o->sysfs_root, p->device, p->netdev, q);
		r->nr_pcie++;
	}
	r->pcie_read = true;
	raw_report(r, SRC_PCIE, SRC_STATE_UP, "%s", "");
	return true;
}

const struct source_ops source_pcie = {
	.name = "pcie",
	.priv_size = sizeof(struct source_pcie),
	.sample = pcie_sample,
};
