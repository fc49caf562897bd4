// SPDX-License-Identifier: GPL-2.0
/*
 * devshape.c - an RDMA device's driver, PCI function, SR-IOV role and RoCE
 * LAG bond, from sysfs (devshape.h).  Under /sys/class/infiniband/<dev>:
 *
 *   device            a link to the parent device: a PCI function
 *                     (mlx5, bnxt_re, irdma's), absent on rxe
 *   device/driver     the parent's driver (mlx5_core, bnxt_en, ice, ...)
 *   device/physfn     a VF's link to its PF's PCI function
 *   device/sriov_numvfs  a PF's enabled VFs
 *   parent            rxe's own attribute (its netdev's name)
 *   ports/1/gid_attrs/ndevs/0  the port's netdev; a bond has
 *                     /sys/class/net/<bond>/bonding/slaves
 *
 * Names are never guessed from (mlx5_bond_0 and rocep8s0f0 alike): a
 * device is a VF because it has physfn, a LAG because its netdev is a bond.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devshape.h"
#include "fsread.h"
#include "text.h"

static const struct {
	const char *kernel, *fabtel;
} vendors[] = {
	{ "mlx5_core", "mlx5" },
	{ "mlx5_ib", "mlx5" },
	{ "bnxt_en", "bnxt_re" },
	{ "bnxt_re", "bnxt_re" },
	{ "irdma", "irdma" },
	{ "ice", "irdma" },
	{ "i40e", "irdma" },
	{ "rdma_rxe", "rxe" },
};

const char *devshape_vendor(const char *kernel_driver)
{
	size_t i;

	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (!strcmp(vendors[i].kernel, kernel_driver))
			return vendors[i].fabtel;
	return "unknown";
}

/* n hex digits at s, then what follows them */
static const char *hex_run(const char *s, size_t min, size_t max)
{
	size_t n = 0;

	while (isxdigit((unsigned char)s[n]))
		n++;
	return n >= min && n <= max ? s + n : NULL;
}

bool devshape_is_pci(const char *s)
{
	const char *p = hex_run(s, 4, 8);	/* the domain */

	if (!p || *p != ':' || !(p = hex_run(p + 1, 2, 2)) || *p != ':' ||
	    !(p = hex_run(p + 1, 2, 2)) || *p != '.')
		return false;
	return p[1] >= '0' && p[1] <= '7' && !p[2];
}

/* root's /sys/class/infiniband/<dev><rest> */
static void ib_path(const char *root, const char *dev, const char *rest, char *out, size_t len)
{
	fs_path(root, out, len, "/sys/class/infiniband/%s%s", dev, rest);
}

/* the last component of the link at path into out; -1 if it is no link */
static int link_name(const char *path, char *out, size_t len)
{
	char target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	const char *base;

	if (n <= 0)
		return -1;
	target[n] = '\0';
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	base = strrchr(target, '/');
	text_copy(out, len, base ? base + 1 : target);
	return 0;
}

void devshape_driver(const char *root, const char *dev, const char *ko_dir, char *out,
		     size_t len)
{
	char path[600], kernel[64], buf[32];
	struct stat st;

	ib_path(root, dev, "/parent", path, sizeof(path));
	if (!stat(path, &st)) {		/* Soft-RoCE's own attribute */
		text_copy(out, len, "rxe");
		return;
	}
	ib_path(root, dev, "/device/driver", path, sizeof(path));
	if (!link_name(path, kernel, sizeof(kernel))) {
		text_copy(out, len, devshape_vendor(kernel));
		return;
	}
	ib_path(root, dev, "/device", path, sizeof(path));
	if (!lstat(path, &st)) {
		text_copy(out, len, "unknown");	/* a parent, no driver bound */
		return;
	}
	/* no parent device (fakeroce, siw): fabtel.ko's word, when it is walked */
	snprintf(path, sizeof(path), "%s/%s/driver", ko_dir ? ko_dir : "", dev);
	if (ko_dir && fs_read_text(path, buf, sizeof(buf)) > 0 && !strchr(buf, ' '))
		text_copy(out, len, buf);
	else
		text_copy(out, len, "-");	/* cannot be told */
}

/*
 * The PCI function of the device's parent: the link's own name, or (a
 * parent on another bus under the function, as an auxiliary device) the
 * nearest PCI-named directory above it.
 */
static void read_pci(const char *root, const char *dev, char *out, size_t len)
{
	char path[600], real[PATH_MAX], *slash;

	ib_path(root, dev, "/device", path, sizeof(path));
	if (link_name(path, out, len) || devshape_is_pci(out))
		return;
	out[0] = '\0';
	if (!realpath(path, real))
		return;
	while ((slash = strrchr(real, '/'))) {
		if (devshape_is_pci(slash + 1)) {
			text_copy(out, len, slash + 1);
			return;
		}
		*slash = '\0';
	}
}

/* port 1's netdev, when it is a bond: it and its slaves ("a b" as "a,b") */
static void read_bond(const char *root, const char *dev, struct dev_shape *s)
{
	char path[600], nd[64], slaves[sizeof(s->bond_slaves)], *c;

	ib_path(root, dev, "/ports/1/gid_attrs/ndevs/0", path, sizeof(path));
	if (fs_read_text(path, nd, sizeof(nd)) <= 0 || strlen(nd) >= sizeof(s->bond) ||
	    strchr(nd, '/'))
		return;
	fs_path(root, path, sizeof(path), "/sys/class/net/%s/bonding/slaves", nd);
	if (fs_read_text(path, slaves, sizeof(slaves)) < 0)
		return;		/* not a bond */
	text_copy(s->bond, sizeof(s->bond), nd);
	text_copy(s->bond_slaves, sizeof(s->bond_slaves), text_trim(slaves));
	for (c = s->bond_slaves; *c; c++)
		if (*c == ' ')
			*c = ',';
}

void devshape_read(const char *root, const char *dev, struct dev_shape *s)
{
	char path[600];
	uint64_t v;

	memset(s, 0, sizeof(*s));
	read_pci(root, dev, s->pci, sizeof(s->pci));
	if (s->pci[0]) {
		ib_path(root, dev, "/device/physfn", path, sizeof(path));
		if (link_name(path, s->pf, sizeof(s->pf)) || !devshape_is_pci(s->pf))
			s->pf[0] = '\0';
		ib_path(root, dev, "/device/sriov_numvfs", path, sizeof(path));
		if (!s->pf[0] && !fs_read_u64(path, &v) && v <= 65535) {
			s->is_pf = true;
			s->vfs = (unsigned int)v;
		}
	}
	read_bond(root, dev, s);
}
