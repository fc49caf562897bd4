// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs_plan.c - which files of a port's counter directories the plain
 * sysfs source reads (sysfs_plan.h): hw_counters/ mapped through the
 * schema, counters/ and counters_ext/ for the IB port counters.  Listed
 * once per port, not at every sample: a driver's directories hold the same
 * files while the device lives.  A plan whose file fails to read is listed
 * again at its next use (the device went, or came back another); one not
 * used for PLAN_IDLE passes is let go.  A tree that is not the kernel's (a
 * test's fixture) is listed at every use, as its files are read by path
 * (fskept.c).  The collector thread's only.
 */
#include <stdio.h>
#include <string.h>

#include "fskept.h"
#include "schema.h"
#include "sysfs_plan.h"

#define PLAN_IDLE	30
#define PLAN_SWEEP	10	/* passes between looks for idle plans */

void sysfs_plan_init(struct sysfs_plans *ps, struct fs_kept *kept)
{
	memset(ps, 0, sizeof(*ps));
	ps->kept = kept;
}

/* the files a plan holds open, by group (the fds become -1) */
static void close_hw(struct sysfs_plans *ps, struct port_plan *pl)
{
	unsigned int i;

	for (i = 0; i < pl->nr_hw; i++)
		fs_held_close(ps->kept, &pl->hw[i].fd);
}

static void close_pma(struct sysfs_plans *ps, struct port_plan *pl)
{
	unsigned int i;

	for (i = 0; i < pl->nr_pma; i++)
		fs_held_close(ps->kept, &pl->pma[i].fd);
}

static void close_netdev(struct sysfs_plans *ps, struct port_plan *pl)
{
	unsigned int i;

	for (i = 0; i < PLAN_ND_FILES; i++)
		fs_held_close(ps->kept, &pl->nd_fd[i]);
	pl->have_changes = false;
}

static int add_hw_name(void *ctx, const char *name)
{
	struct sysfs_hw_names *l = ctx;

	if (l->n < HW_LIST_MAX && strlen(name) < sizeof(l->name[0])) {
		snprintf(l->name[l->n], sizeof(l->name[0]), "%s", name);
		l->ptr[l->n] = l->name[l->n];
		l->n++;
	}
	return 0;
}

/*
 * The vendor is the one whose map names the most of the port's files (plain
 * sysfs does not say which driver it is), else any vendor's, taken as 32
 * bits wide where any vendor's is (it may wrap).
 */
static void list_hw(struct sysfs_plans *ps, struct port_plan *pl)
{
	struct sysfs_hw_names *l = &ps->hw_names;
	const char *vendor;
	char path[PLAN_BASE_LEN + 16];
	unsigned int i, width;
	int k;

	l->n = 0;
	close_hw(ps, pl);
	pl->nr_hw = 0;
	snprintf(path, sizeof(path), "%s/hw_counters", pl->base);
	fs_list(path, add_hw_name, l);
	vendor = schema_vendor_guess(l->ptr, l->n);
	pl->soft_roce = vendor && !strcmp(vendor, "rxe");
	for (i = 0; i < l->n && pl->nr_hw < PLAN_HW_MAX; i++) {
		k = schema_hw_lookup(vendor, l->name[i], &width);
		if (k < 0 || strlen(l->name[i]) >= sizeof(pl->hw[0].file) - sizeof("hw_counters/"))
			continue;
		pl->hw[pl->nr_hw].k = k;
		pl->hw[pl->nr_hw].width = (uint8_t)width;
		pl->hw[pl->nr_hw].fd = -1;
		pl->hw[pl->nr_hw].still = 0;
		pl->hw[pl->nr_hw].known = false;
		pl->hw[pl->nr_hw].last = 0;
		snprintf(pl->hw[pl->nr_hw].file, sizeof(pl->hw[0].file), "hw_counters/%s",
			 l->name[i]);
		pl->nr_hw++;
	}
}

struct pma_list {
	struct port_plan *pl;
	bool ext;		/* counters_ext/: <file>_64 names, 64-bit totals only */
};

static bool pma_planned(const struct port_plan *pl, unsigned int c)
{
	unsigned int i;

	for (i = 0; i < pl->nr_pma; i++)
		if (pl->pma[i].c == c)
			return true;
	return false;
}

/* one file of a counters directory: a PMA counter not yet planned, if it is one */
static int add_pma_file(void *ctx, const char *name)
{
	struct pma_list *d = ctx;
	struct port_plan *pl = d->pl;
	unsigned int c;
	size_t len;

	for (c = 0; c < FABTEL_NR_PMA; c++) {
		len = strlen(schema_pma_file(c));
		if (strncmp(name, schema_pma_file(c), len) || strcmp(name + len, d->ext ? "_64" : "") ||
		    (d->ext && schema_pma_width(c) != 64) || pma_planned(pl, c))
			continue;
		if (pl->nr_pma < FABTEL_NR_PMA) {
			pl->pma[pl->nr_pma].c = c;
			pl->pma[pl->nr_pma].fd = -1;
			snprintf(pl->pma[pl->nr_pma].file, sizeof(pl->pma[0].file), "%s/%s",
				 d->ext ? "counters_ext" : "counters", name);
			pl->nr_pma++;
		}
		break;
	}
	return 0;
}

/* counters/, then what counters_ext/ of older kernels adds (64-bit totals) */
static void list_pma(struct sysfs_plans *ps, struct port_plan *pl)
{
	struct pma_list d = { .pl = pl };
	char path[PLAN_BASE_LEN + 16];

	close_pma(ps, pl);
	pl->nr_pma = 0;
	snprintf(path, sizeof(path), "%s/counters", pl->base);
	fs_list(path, add_pma_file, &d);
	snprintf(path, sizeof(path), "%s/counters_ext", pl->base);
	d.ext = true;
	fs_list(path, add_pma_file, &d);
	pl->pma_listed = true;
}

/* the files the plan holds, closed; the plan free */
static void plan_free(struct sysfs_plans *ps, struct port_plan *pl)
{
	if (!pl->base[0])
		return;		/* free already (or never used: its fds are not -1) */
	close_hw(ps, pl);
	close_pma(ps, pl);
	close_netdev(ps, pl);
	pl->base[0] = '\0';
}

/* the plan's netdev files for NETDEV: the held ones while it is the same (the root is the plan's) */
void sysfs_plan_netdev(struct sysfs_plans *ps, struct port_plan *pl, const char *root,
		       const char *netdev)
{
	if (pl->nd_dir[0] && !strcmp(netdev, pl->nd_name))
		return;
	close_netdev(ps, pl);
	snprintf(pl->nd_dir, sizeof(pl->nd_dir), "%s/sys/class/net/%s", root, netdev);
	snprintf(pl->nd_name, sizeof(pl->nd_name), "%s", netdev);
}

struct port_plan *sysfs_plan_get(struct sysfs_plans *ps, const char *base, bool hw)
{
	struct port_plan *pl = NULL, *free_pl = NULL, *oldest = NULL;
	unsigned int i;

	if (strlen(base) >= PLAN_BASE_LEN)
		return NULL;
	if (ps->plans[ps->hint].base[0] && !strcmp(ps->plans[ps->hint].base, base))
		pl = &ps->plans[ps->hint];
	for (i = 0; i < PLAN_MAX && !pl; i++) {
		if (ps->plans[i].base[0] && !strcmp(ps->plans[i].base, base)) {
			pl = &ps->plans[i];
			break;
		}
		if (!ps->plans[i].base[0] && !free_pl)
			free_pl = &ps->plans[i];
		if (ps->plans[i].base[0] && (!oldest || ps->plans[i].used < oldest->used))
			oldest = &ps->plans[i];
	}
	if (!pl) {
		pl = free_pl ? free_pl : oldest;
		plan_free(ps, pl);
		memset(pl, 0, sizeof(*pl));
		for (i = 0; i < PLAN_ND_FILES; i++)
			pl->nd_fd[i] = -1;
		snprintf(pl->base, sizeof(pl->base), "%s", base);
		pl->kernel = fs_kept_kernel_path(ps->kept, base);
	}
	if (pl->stale || !pl->kernel) {	/* all of it read again */
		pl->hw_listed = pl->pma_listed = pl->link_read = false;
		pl->pma_ns = 0;
		pl->stale = false;
	}
	if (hw && !pl->hw_listed) {
		list_hw(ps, pl);
		pl->hw_listed = true;
	}
	pl->used = ps->pass;
	ps->hint = (unsigned int)(pl - ps->plans + 1) % PLAN_MAX;
	return pl;
}

void sysfs_plan_pma(struct sysfs_plans *ps, struct port_plan *pl)
{
	if (!pl->pma_listed)
		list_pma(ps, pl);
}

/* plans unused for PLAN_IDLE passes let go, looked for every PLAN_SWEEP */
void sysfs_plan_pass(struct sysfs_plans *ps)
{
	unsigned int i;

	if (++ps->pass % PLAN_SWEEP)
		return;
	for (i = 0; i < PLAN_MAX; i++)
		if (ps->plans[i].base[0] && ps->pass - ps->plans[i].used > PLAN_IDLE)
			plan_free(ps, &ps->plans[i]);
}

void sysfs_plan_fini(struct sysfs_plans *ps)
{
	unsigned int i;

	for (i = 0; i < PLAN_MAX; i++)
		plan_free(ps, &ps->plans[i]);
}
