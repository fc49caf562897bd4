// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - fabric-health telemetry for RoCE NICs
 *
 * Module entry point.  This first version only creates /sys/kernel/fabtel
 * with its schema version; device discovery, counters, link history and
 * DCB state follow (see Documentation/ABI/testing/sysfs-kernel-fabtel).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#define FABTEL_SCHEMA_VERSION 1

static struct kobject *fabtel_kobj;

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", FABTEL_SCHEMA_VERSION);
}
static struct kobj_attribute version_attr = __ATTR_RO(version);

static struct attribute *fabtel_root_attrs[] = {
	&version_attr.attr,
	NULL,
};

static const struct attribute_group fabtel_root_group = {
	.attrs = fabtel_root_attrs,
};

static int __init fabtel_init(void)
{
	int err;

	fabtel_kobj = kobject_create_and_add("fabtel", kernel_kobj);
	if (!fabtel_kobj)
		return -ENOMEM;

	err = sysfs_create_group(fabtel_kobj, &fabtel_root_group);
	if (err)
		goto err_put_kobj;

	pr_info("loaded, schema version %d\n", FABTEL_SCHEMA_VERSION);
	return 0;

err_put_kobj:
	kobject_put(fabtel_kobj);
	return err;
}

static void __exit fabtel_exit(void)
{
	sysfs_remove_group(fabtel_kobj, &fabtel_root_group);
	kobject_put(fabtel_kobj);
	pr_info("unloaded\n");
}

module_init(fabtel_init);
module_exit(fabtel_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Fabric-health telemetry for RoCE NICs");
MODULE_AUTHOR("fabtel developers");
