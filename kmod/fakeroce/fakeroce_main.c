// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - a simulated RoCE NIC for testing fabtel.
 *
 * Devices are made and removed netdevsim style, in /sys/kernel/fakeroce/:
 *	echo "ID PERSONALITY" > new_device	(PERSONALITY: mlx5, bnxt_re, irdma)
 *	echo ID > del_device
 * Each is a netdev fre<ID> and an ib_device fakeroce<ID> on it; test knobs
 * are in /sys/kernel/debug/fakeroce/<ID>/.  See Documentation/fakeroce.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "fakeroce.h"

/* Serializes new_device, del_device and module exit; guards the table. */
static DEFINE_MUTEX(fakeroce_devs_lock);
static struct fakeroce_dev *fakeroce_devs[FAKEROCE_MAX_ID + 1];
static struct kobject *fakeroce_kobj;

static struct fakeroce_dev *
fakeroce_dev_create(unsigned int id, const struct fakeroce_personality *pers)
{
	struct platform_device *pdev;
	struct fakeroce_dev *fdev;
	int err;

	fdev = fakeroce_ib_alloc(id, pers);
	if (!fdev)
		return ERR_PTR(-ENOMEM);

	err = fakeroce_devlink_parent(fdev);
	if (err)
		goto err_dealloc_ib;

	err = fakeroce_netdev_create(fdev);
	if (err)
		goto err_del_parent;

	err = fakeroce_ib_register(fdev);
	if (err)
		goto err_destroy_netdev;

	err = fakeroce_devlink_add(fdev);
	if (err)
		goto err_unregister_ib;

	err = fakeroce_debugfs_add(fdev);
	if (err)
		goto err_del_debugfs;

	return fdev;

err_del_debugfs:
	/* a failed add can leave files behind: none may outlive the device */
	fakeroce_debugfs_del(fdev);
	fakeroce_devlink_del(fdev);
err_unregister_ib:
	fakeroce_ib_unregister(fdev);
err_destroy_netdev:
	fakeroce_netdev_destroy(fdev);
err_del_parent:
	pdev = fdev->pdev;	/* fdev goes with the ib_device */
	ib_dealloc_device(&fdev->ibdev);
	fakeroce_devlink_parent_del(pdev);
	return ERR_PTR(err);
err_dealloc_ib:
	ib_dealloc_device(&fdev->ibdev);
	return ERR_PTR(err);
}

/*
 * Knobs first (they poke the netdev and ib_device), then devlink, then the QPs they made
 * (ib_core unbinds each from its counter and releases the counters as
 * their last QP goes), then the ib_device (its sysfs readers are drained,
 * its events flushed), then the netdev.
 */
static void fakeroce_dev_destroy(struct fakeroce_dev *fdev)
{
	struct platform_device *pdev = fdev->pdev;

	fakeroce_debugfs_del(fdev);
	fakeroce_devlink_del(fdev);
	fakeroce_qps_destroy(fdev);
	fakeroce_counters_destroy(fdev);
	fakeroce_ib_unregister(fdev);
	fakeroce_netdev_destroy(fdev);
	ib_dealloc_device(&fdev->ibdev);
	fakeroce_devlink_parent_del(pdev);	/* the ib_device's parent: last */
}

/* "ID PERSONALITY": one decimal ID, blanks, one personality name. */
static int fakeroce_parse_new(const char *buf, size_t count, unsigned int *id,
			      const struct fakeroce_personality **pers)
{
	char tmp[32], *s, *id_str;
	int err;

	if (count >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, count);
	tmp[count] = '\0';

	s = strim(tmp);
	id_str = strsep(&s, " \t");
	if (!s)
		return -EINVAL;
	s = skip_spaces(s);
	if (!*s || strpbrk(s, " \t\n"))
		return -EINVAL;

	err = kstrtouint(id_str, 10, id);
	if (err)
		return err;
	if (*id > FAKEROCE_MAX_ID)
		return -EINVAL;

	*pers = fakeroce_personality_find(s);
	return *pers ? 0 : -EINVAL;
}

static ssize_t fakeroce_new_device_store(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 const char *buf, size_t count)
{
	const struct fakeroce_personality *pers;
	struct fakeroce_dev *fdev;
	unsigned int id;
	int err;

	err = fakeroce_parse_new(buf, count, &id, &pers);
	if (err)
		return err;

	mutex_lock(&fakeroce_devs_lock);
	if (fakeroce_devs[id]) {
		err = -EEXIST;
		goto out_unlock;
	}
	fdev = fakeroce_dev_create(id, pers);
	if (IS_ERR(fdev)) {
		err = PTR_ERR(fdev);
		pr_warn("new_device %u %s failed: %d\n", id, pers->name, err);
		goto out_unlock;
	}
	fakeroce_devs[id] = fdev;
out_unlock:
	mutex_unlock(&fakeroce_devs_lock);
	return err ? err : count;
}

static ssize_t fakeroce_del_device_store(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 const char *buf, size_t count)
{
	struct fakeroce_dev *fdev;
	unsigned int id;
	int err;

	err = kstrtouint(buf, 10, &id);
	if (err)
		return err;
	if (id > FAKEROCE_MAX_ID)
		return -ENOENT;

	mutex_lock(&fakeroce_devs_lock);
	fdev = fakeroce_devs[id];
	if (fdev) {
		fakeroce_devs[id] = NULL;
		fakeroce_dev_destroy(fdev);
	}
	mutex_unlock(&fakeroce_devs_lock);
	return fdev ? count : -ENOENT;
}

static struct kobj_attribute fakeroce_new_device_attr =
	__ATTR(new_device, 0200, NULL, fakeroce_new_device_store);
static struct kobj_attribute fakeroce_del_device_attr =
	__ATTR(del_device, 0200, NULL, fakeroce_del_device_store);

static struct attribute *fakeroce_ctl_attrs[] = {
	&fakeroce_new_device_attr.attr,
	&fakeroce_del_device_attr.attr,
	NULL,
};

static const struct attribute_group fakeroce_ctl_group = {
	.attrs = fakeroce_ctl_attrs,
};

static void fakeroce_destroy_all(void)
{
	unsigned int id;

	mutex_lock(&fakeroce_devs_lock);
	for (id = 0; id <= FAKEROCE_MAX_ID; id++) {
		if (!fakeroce_devs[id])
			continue;
		fakeroce_dev_destroy(fakeroce_devs[id]);
		fakeroce_devs[id] = NULL;
	}
	mutex_unlock(&fakeroce_devs_lock);
}

static int __init fakeroce_init(void)
{
	int err;

	fakeroce_debugfs_init();

	err = fakeroce_netdev_init();
	if (err)
		goto err_debugfs_exit;

	err = fakeroce_devlink_init();
	if (err)
		goto err_netdev_exit;

	fakeroce_kobj = kobject_create_and_add(KBUILD_MODNAME, kernel_kobj);
	if (!fakeroce_kobj) {
		err = -ENOMEM;
		goto err_devlink_exit;
	}

	err = sysfs_create_group(fakeroce_kobj, &fakeroce_ctl_group);
	if (err)
		goto err_put_kobj;

	pr_info("loaded\n");
	return 0;

err_put_kobj:
	kobject_put(fakeroce_kobj);
err_devlink_exit:
	fakeroce_devlink_exit();
err_netdev_exit:
	fakeroce_netdev_exit();
err_debugfs_exit:
	fakeroce_debugfs_exit();
	return err;
}

static void __exit fakeroce_exit(void)
{
	/* Removing the control files waits for new/del_device in progress. */
	sysfs_remove_group(fakeroce_kobj, &fakeroce_ctl_group);
	kobject_put(fakeroce_kobj);
	fakeroce_destroy_all();
	fakeroce_devlink_exit();
	fakeroce_netdev_exit();
	fakeroce_debugfs_exit();
	pr_info("unloaded\n");
}

module_init(fakeroce_init);
module_exit(fakeroce_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Simulated RoCE NIC (ib_device + netdev with DCB) for fabtel tests");
MODULE_AUTHOR("fabtel project");
