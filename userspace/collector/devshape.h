/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devshape.h - what an RDMA device is on its host, from sysfs
 * (/sys/class/infiniband/<dev>): its driver as fabtel names it, its PCI
 * function, whether that is an SR-IOV VF (its PF) or a PF (its VFs), and
 * whether its port's netdev is a bond (RoCE LAG: the bond's slaves).
 * Read once per device at discovery, and again when the device list
 * changes (devices.c); never at a sample.  devshape.c.
 */
#ifndef FABTEL_DEVSHAPE_H
#define FABTEL_DEVSHAPE_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

struct dev_shape {
	char pci[32];			/* the PCI function, "0000:08:00.1"; "" none (rxe) */
	char pf[32];			/* a VF: its PF's PCI address; "" not a VF */
	char pf_device[64];		/* ... the PF's RDMA device, when fabteld lists it */
	bool is_pf;			/* an SR-IOV PF (it has sriov_numvfs) ... */
	unsigned int vfs;		/* ... and its VFs enabled */
	char bond[IF_NAMESIZE];		/* port 1's netdev when it is a bond; "" */
	char bond_slaves[128];		/* the bond's slaves, comma-separated; "" */
};

/*
 * The device's driver as fabtel names it (fabtel.ko's <dev>/driver, the
 * snapshot's driver line): rxe for a device with Soft-RoCE's parent
 * attribute; else the kernel driver of its parent device mapped
 * (mlx5_core: mlx5; bnxt_en, bnxt_re: bnxt_re; irdma, ice, i40e: irdma),
 * "unknown" for another (as fabtel.ko says); for a device without a
 * parent, fabtel.ko's <ko_dir>/<dev>/driver when ko_dir is set, else "-"
 * (cannot be told).  A stat and links only, no file opened, but for that
 * last.
 */
void devshape_driver(const char *root, const char *dev, const char *ko_dir, char *out,
		     size_t len);

/* fabtel's name of a kernel driver of an RDMA device's parent: "unknown" if none */
const char *devshape_vendor(const char *kernel_driver);

/* the rest of the shape (pf_device left ""); root: sysfs_root, "" for / */
void devshape_read(const char *root, const char *dev, struct dev_shape *s);

/* s is a PCI address: [domain:]bus:device.function, hex */
bool devshape_is_pci(const char *s);

#endif /* FABTEL_DEVSHAPE_H */
