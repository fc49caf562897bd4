// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce_ident.c - the identity files a real driver adds to its device's
 * sysfs directory (/sys/class/infiniband/<dev>/) through
 * ib_device_ops.device_group, one group per personality that has them, as
 * in 6.1: mlx5_ib (hw_rev, hca_type, board_id, fw_pages, reg_pages) and
 * bnxt_re (hw_rev, hca_type); irdma adds none.  Readers such as
 * node_exporter's infiniband collector expect them.
 */
#include <linux/device.h>
#include <linux/sysfs.h>
#include <rdma/ib_verbs.h>

#include "fakeroce.h"

static struct fakeroce_dev *ident_dev(struct device *device)
{
	return rdma_device_to_drv_device(device, struct fakeroce_dev, ibdev);
}

/*
 * mlx5_ib: hw_rev is the PCI revision in hex (fakeroce's is 0), fw_pages and
 * reg_pages the pages given to the firmware (none: there is no firmware);
 * all three read "0" here.  hca_type is "MT" and the PCI device ID in decimal.
 */
static ssize_t mlx5_zero_show(struct device *device, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "0\n");
}

static ssize_t mlx5_hca_type_show(struct device *device, struct device_attribute *attr,
				  char *buf)
{
	return sysfs_emit(buf, "MT%u\n", ident_dev(device)->pers->vendor_part_id);
}

/* the PSID the firmware reports; fakeroce's names the device */
static ssize_t mlx5_board_id_show(struct device *device, struct device_attribute *attr,
				  char *buf)
{
	return sysfs_emit(buf, "FAKEROCE_%04u\n", ident_dev(device)->id);
}

static struct device_attribute mlx5_attrs[] = {
	__ATTR(hw_rev, 0444, mlx5_zero_show, NULL),
	__ATTR(hca_type, 0444, mlx5_hca_type_show, NULL),
	__ATTR(board_id, 0444, mlx5_board_id_show, NULL),
	__ATTR(fw_pages, 0444, mlx5_zero_show, NULL),
	__ATTR(reg_pages, 0444, mlx5_zero_show, NULL),
};

static struct attribute *mlx5_attr_list[] = {
	&mlx5_attrs[0].attr, &mlx5_attrs[1].attr, &mlx5_attrs[2].attr,
	&mlx5_attrs[3].attr, &mlx5_attrs[4].attr, NULL,
};

const struct attribute_group fakeroce_mlx5_ident = {
	.attrs = mlx5_attr_list,
};

/* bnxt_re: the PCI vendor ID as "0x%x" (sic); the node description */
static ssize_t bnxt_hw_rev_show(struct device *device, struct device_attribute *attr,
				char *buf)
{
	return sysfs_emit(buf, "0x%x\n", ident_dev(device)->pers->vendor_id);
}

static ssize_t bnxt_hca_type_show(struct device *device, struct device_attribute *attr,
				  char *buf)
{
	return sysfs_emit(buf, "%s\n", ident_dev(device)->ibdev.node_desc);
}

static struct device_attribute bnxt_attrs[] = {
	__ATTR(hw_rev, 0444, bnxt_hw_rev_show, NULL),
	__ATTR(hca_type, 0444, bnxt_hca_type_show, NULL),
};

static struct attribute *bnxt_attr_list[] = {
	&bnxt_attrs[0].attr, &bnxt_attrs[1].attr, NULL,
};

const struct attribute_group fakeroce_bnxt_re_ident = {
	.attrs = bnxt_attr_list,
};
