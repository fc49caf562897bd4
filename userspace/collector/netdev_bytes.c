// SPDX-License-Identifier: GPL-2.0
/*
 * netdev_bytes.c - the byte totals of the ports' netdevs for the plain
 * sysfs source, from one read of /proc/net/dev a sample in place of two
 * files a port (statistics/rx_bytes and tx_bytes; the kernel fills both
 * from the same dev_get_stats()).
 *
 * /proc/net/dev lists every netdev of the namespace, and each line costs
 * the kernel about what one of those files does, so it is read only while
 * it has at most two lines per port that wants its bytes, plus ND_SPARE
 * for the host's own (lo, a management NIC, a bond, a bridge); it is counted
 * again every ND_RECOUNT samples (a host where containers came, with a
 * veth each, goes back to the files; one where they went, to the list).
 * A netdev not in the list (another namespace's /sys) is read from its
 * files, as is every netdev when the list is not there (fixture trees).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netdev_bytes.h"
#include "text.h"

#define ND_RECOUNT	10	/* samples between counts of the list's lines */
#define ND_SPARE	4	/* lines allowed beyond two a port */

void netdev_bytes_init(struct netdev_bytes *nd, const struct collect_opts *o,
		       struct fs_kept *kept)
{
	memset(nd, 0, sizeof(*nd));
	nd->age = ND_RECOUNT;
	nd->o = o;
	nd->kept = kept;
}

/* one line, "  name: rx_bytes 7 more rx fields tx_bytes ..."; false: not one */
static bool parse_line(char *s, struct nd_line *l)
{
	const char *colon = strchr(s, ':'), *t;
	size_t n;
	int i;

	if (!colon)
		return false;
	while (*s == ' ')
		s++;
	n = (size_t)(colon - s);
	if (!n || n >= sizeof(l->name))
		return false;
	memcpy(l->name, s, n);
	l->name[n] = '\0';
	t = text_dec_u64(colon + 1 + strspn(colon + 1, " "), &l->rx);
	for (i = 0; t && i < 7; i++) {	/* 7 more rx fields, skipped */
		t += strspn(t, " ");
		n = strspn(t, "0123456789");
		t = n ? t + n : NULL;
	}
	if (t)
		t = text_dec_u64(t + strspn(t, " "), &l->tx);	/* then tx_bytes */
	return t != NULL;
}

static unsigned int parse_list(struct netdev_bytes *nd, char *buf)
{
	unsigned int n = 0;
	char *line, *save = NULL;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (n < ND_MAX && parse_line(line, &nd->lines[n]))
			n++;
	return n;
}

void netdev_bytes_sample(struct netdev_bytes *nd, unsigned int ports)
{
	char *buf = nd->buf;
	char path[600];
	unsigned int n;
	ssize_t len;

	nd->nr_lines = 0;
	if (!nd->use_list && ++nd->age < ND_RECOUNT)
		return;
	fs_path(nd->o->sysfs_root, path, sizeof(path), "/proc/net/dev");
	len = fs_read_kept(nd->kept, path, buf, sizeof(nd->buf));
	n = len > 0 && (size_t)len < sizeof(nd->buf) - 1 ? parse_list(nd, buf) : 0;
	if (!nd->use_list || nd->age >= ND_RECOUNT) {
		nd->age = 0;
		nd->use_list = n && ports && n <= 2 * ports + ND_SPARE;
	} else {
		nd->age++;
	}
	if (nd->use_list)
		nd->nr_lines = n;
}

bool netdev_bytes_get(const struct netdev_bytes *nd, const char *netdev, uint64_t *rx,
		      uint64_t *tx)
{
	unsigned int i;

	for (i = 0; i < nd->nr_lines; i++)
		if (!strcmp(nd->lines[i].name, netdev)) {
			*rx = nd->lines[i].rx;
			*tx = nd->lines[i].tx;
			return true;
		}
	return false;
}
