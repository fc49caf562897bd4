// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - a devlink instance with health reporters, as mlx5 has.
 *
 * devlink names an instance by its device's bus and name, so each fake NIC
 * gets a platform device fakeroce.<ID> (the ib_device's parent: its
 * /sys/class/infiniband/fakeroce<ID>/device) and the devlink instance
 * platform/fakeroce.<ID>.  Two reporters, written to in debugfs
 * <ID>/health/<name>:
 *
 *   fw        no recover op, like mlx5's "fw": "error" reports an error
 *             (state error, error count +1); it stays in error until
 *             "clear" (state healthy, as the driver says once its health
 *             poll sees the firmware well again).
 *   fw_fatal  a recover op, like mlx5's "fw_fatal": "error" reports an
 *             error and devlink recovers it at once (auto recover; the
 *             recover count +1, state healthy), or leaves it in error
 *             when "fail_recover" was written first (recover fails once).
 *
 * Anything else written is refused with -EINVAL.  `devlink health show`
 * is the reader.  A driver of the same name binds each platform device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/platform_device.h>
#include <linux/string.h>
#include <net/devlink.h>

#include "fakeroce.h"
#include "fakeroce_knob.h"

#define FAKEROCE_HEALTH_BUF	16

static int fakeroce_fw_fatal_recover(struct devlink_health_reporter *reporter,
				     void *priv_ctx, struct netlink_ext_ack *extack)
{
	struct fakeroce_dev *fdev = devlink_health_reporter_priv(reporter);

	return xchg(&fdev->fail_recover, 0) ? -EIO : 0;
}

static const struct devlink_health_reporter_ops fakeroce_fw_ops = {
	.name = "fw",
};

static const struct devlink_health_reporter_ops fakeroce_fw_fatal_ops = {
	.name = "fw_fatal",
	.recover = fakeroce_fw_fatal_recover,
};

static const struct devlink_health_reporter_ops *const fakeroce_health_ops[] = {
	[FAKEROCE_HEALTH_FW] = &fakeroce_fw_ops,
	[FAKEROCE_HEALTH_FW_FATAL] = &fakeroce_fw_fatal_ops,
};

static const struct devlink_ops fakeroce_devlink_ops = {
};

static ssize_t fakeroce_health_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct fakeroce_knob *knob = file->private_data;
	struct fakeroce_dev *fdev = knob->fdev;
	struct devlink_health_reporter *rep = fdev->reporter[knob->idx];
	char buf[FAKEROCE_HEALTH_BUF];
	char *s;

	s = fakeroce_knob_input(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(s))
		return PTR_ERR(s);
	s = strim(s);
	if (!strcmp(s, "error"))
		/* -ECANCELED (still in error) or a failed recover: reported all the same */
		devlink_health_report(rep, "fakeroce: injected error", NULL);
	else if (!strcmp(s, "clear"))
		devlink_health_reporter_state_update(rep,
						     DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
	else if (!strcmp(s, "fail_recover") && knob->idx == FAKEROCE_HEALTH_FW_FATAL)
		WRITE_ONCE(fdev->fail_recover, 1);
	else
		return -EINVAL;
	return fakeroce_knob_done(count, ppos);
}

static const struct file_operations fakeroce_health_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = fakeroce_health_write,
	.llseek = default_llseek,
};

/*
 * The platform devices' driver: it does nothing, but devlink's tracepoints
 * name an instance's driver (dev->driver->name), so each device must have
 * one bound.  Registered before the first device, gone after the last.
 */
static int fakeroce_pdev_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver fakeroce_pdev_driver = {
	.probe = fakeroce_pdev_probe,
	.driver = {
		.name = "fakeroce",
		.suppress_bind_attrs = true,	/* never unbound while a device lives */
	},
};

int fakeroce_devlink_init(void)
{
	return platform_driver_register(&fakeroce_pdev_driver);
}

void fakeroce_devlink_exit(void)
{
	platform_driver_unregister(&fakeroce_pdev_driver);
}

/* Before ib_register_device(): the platform device is the ib_device's parent. */
int fakeroce_devlink_parent(struct fakeroce_dev *fdev)
{
	fdev->pdev = platform_device_register_simple("fakeroce", fdev->id, NULL, 0);
	if (IS_ERR(fdev->pdev))
		return PTR_ERR(fdev->pdev);
	fdev->ibdev.dev.parent = &fdev->pdev->dev;
	return 0;
}

/* After ib_dealloc_device(), which frees fdev: the device taken from it before. */
void fakeroce_devlink_parent_del(struct platform_device *pdev)
{
	platform_device_unregister(pdev);
}

int fakeroce_devlink_add(struct fakeroce_dev *fdev)
{
	struct devlink_health_reporter *rep;
	unsigned int i;
	int err;

	fdev->devlink = devlink_alloc(&fakeroce_devlink_ops, 0, &fdev->pdev->dev);
	if (!fdev->devlink)
		return -ENOMEM;
	devlink_register(fdev->devlink);
	for (i = 0; i < FAKEROCE_NR_HEALTH; i++) {
		rep = devlink_health_reporter_create(fdev->devlink, fakeroce_health_ops[i],
						     0, fdev);
		if (IS_ERR(rep)) {
			err = PTR_ERR(rep);
			goto err_destroy_reporters;
		}
		fdev->reporter[i] = rep;
	}
	return 0;

err_destroy_reporters:
	while (i--)
		devlink_health_reporter_destroy(fdev->reporter[i]);
	devlink_unregister(fdev->devlink);
	devlink_free(fdev->devlink);
	return err;
}

/* After the knobs are gone: no writer reports any more. */
void fakeroce_devlink_del(struct fakeroce_dev *fdev)
{
	unsigned int i;

	for (i = 0; i < FAKEROCE_NR_HEALTH; i++)
		devlink_health_reporter_destroy(fdev->reporter[i]);
	devlink_unregister(fdev->devlink);
	devlink_free(fdev->devlink);
}

/* health/<reporter>: one knob each */
void fakeroce_devlink_debugfs_add(struct fakeroce_dev *fdev)
{
	struct dentry *dir = debugfs_create_dir("health", fdev->debugfs_dir);
	unsigned int i;

	for (i = 0; i < FAKEROCE_NR_HEALTH; i++)
		fakeroce_knob_file(fdev, dir, fakeroce_health_ops[i]->name, 0200, NULL, i,
				   &fakeroce_health_fops);
}
