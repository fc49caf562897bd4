// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - fabric-health telemetry for RoCE NICs.
 *
 * An ib_client: every RDMA device with at least one Ethernet (RoCE) port gets
 * /sys/kernel/fabtel/<ibdev>/ports/<n>/, a sampler work on its own ordered
 * workqueue, and an IB event handler.  Devices come and go at any time
 * (rdma link add/delete, driver bind/unbind); ib_core calls add()/remove()
 * for them and for every device present at load and unload.
 *
 * add() runs with ib_core's devices_rwsem held for writing, so it calls back
 * into nothing that looks devices up, and leaves all sampling (which may
 * sleep in the driver or take RTNL) to the workqueue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "fabtel.h"

#define FABTEL_MS_MIN	10
#define FABTEL_MS_MAX	60000

#define FABTEL_SLOW_MS_MIN	100
#define FABTEL_SLOW_MS_MAX	600000

/*
 * The defaults keep fabtel.ko within its firmware budget on an mlx5 port
 * (Documentation/performance.rst, "Firmware commands"): the counters and PFC
 * each second, the PMA, PHY and ETS every 10 s.
 */
static unsigned int fabtel_sample_ms = 1000;
static unsigned int fabtel_storm_ms = 100;
static unsigned int fabtel_slow_ms = 10000;

static int fabtel_ms_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int err;

	err = kstrtouint(val, 0, &ms);
	if (err)
		return -EINVAL;
	if (ms < FABTEL_MS_MIN || ms > FABTEL_MS_MAX)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, ms);
	return 0;
}

static const struct kernel_param_ops fabtel_ms_ops = {
	.set = fabtel_ms_set,
	.get = param_get_uint,
};

module_param_cb(sample_ms, &fabtel_ms_ops, &fabtel_sample_ms, 0644);
MODULE_PARM_DESC(sample_ms,
		 "period of the counters, carrier and PFC reads in ms, 10..60000 (default 1000)");
module_param_cb(storm_ms, &fabtel_ms_ops, &fabtel_storm_ms, 0644);
MODULE_PARM_DESC(storm_ms,
		 "pause_tx must rise this long (ms, 10..60000) to be a pause storm (default 100)");

static int fabtel_slow_ms_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;

	if (kstrtouint(val, 0, &ms) || ms < FABTEL_SLOW_MS_MIN ||
	    ms > FABTEL_SLOW_MS_MAX)
		return -EINVAL;
	WRITE_ONCE(fabtel_slow_ms, ms);
	return 0;
}

static const struct kernel_param_ops fabtel_slow_ms_ops = {
	.set = fabtel_slow_ms_set,
	.get = param_get_uint,
};

module_param_cb(slow_ms, &fabtel_slow_ms_ops, &fabtel_slow_ms, 0644);
MODULE_PARM_DESC(slow_ms,
		 "period of the PMA, PHY (FEC, speed) and ETS reads in ms, 100..600000 (default 10000)");

unsigned int fabtel_slow_ms_get(void)
{
	return READ_ONCE(fabtel_slow_ms);
}

unsigned int fabtel_sample_ms_get(void)
{
	return READ_ONCE(fabtel_sample_ms);
}

unsigned int fabtel_storm_ms_get(void)
{
	return READ_ONCE(fabtel_storm_ms);
}

struct kobject *fabtel_root;
static struct ib_client fabtel_client;

/* ---- /sys/kernel/fabtel/<ibdev> ----------------------------------------- */

static ssize_t driver_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct fabtel_dev *fdev = container_of(kobj, struct fabtel_dev, kobj);

	return sysfs_emit(buf, "%s\n", fdev->vendor->name);
}
static struct kobj_attribute fabtel_attr_driver = __ATTR_RO(driver);

static struct attribute *fabtel_dev_attrs[] = {
	&fabtel_attr_driver.attr,
	NULL,
};
ATTRIBUTE_GROUPS(fabtel_dev);

static void fabtel_dev_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct fabtel_dev, kobj));
}

static const struct kobj_type fabtel_dev_ktype = {
	.release = fabtel_dev_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = fabtel_dev_groups,
};

/* ---- sampler ------------------------------------------------------------ */

static void fabtel_sample_work(struct work_struct *work)
{
	struct fabtel_dev *fdev = container_of(to_delayed_work(work),
					       struct fabtel_dev, sample_work);
	unsigned int i;

	for (i = 0; i < fdev->nports; i++) {
		fabtel_counters_sample(fdev->ports[i]);
		fabtel_link_sample(fdev->ports[i]);
		fabtel_lag_sample(fdev->ports[i]);
		fabtel_dcb_sample(fdev->ports[i]);
		fabtel_pma_sample(fdev->ports[i]);
		fabtel_phy_sample(fdev->ports[i]);
		fabtel_optics_sample(fdev->ports[i]);
		fabtel_rec_sample(fdev->ports[i]);
	}
	queue_delayed_work(fdev->wq, &fdev->sample_work,
			   msecs_to_jiffies(fabtel_sample_ms_get()));
}

/* ---- ports --------------------------------------------------------------- */

/* The port's netdev with a reference held: mlx5 has get_netdev, rxe not. */
struct net_device *fabtel_netdev_lookup(struct ib_device *ibdev, u32 port)
{
	struct net_device *ndev;

	if (ibdev->ops.get_netdev)
		return ibdev->ops.get_netdev(ibdev, port);
	rcu_read_lock();
	ndev = rcu_dereference(ibdev->port_data[port].netdev);
	if (ndev)
		dev_hold(ndev);
	rcu_read_unlock();
	return ndev;
}

static void fabtel_port_destroy(struct fabtel_port *p)
{
	fabtel_link_port_del(p);
	fabtel_rec_sysfs_del(p);
	fabtel_sysfs_port_del(p);
	if (p->kobj.state_in_sysfs)
		kobject_del(&p->kobj);	/* waits for readers of every file */
	fabtel_rec_exit(p);
	fabtel_pma_exit(p);
	fabtel_counters_exit(p);
	kobject_put(&p->kobj);		/* frees p */
}

static struct fabtel_port *fabtel_port_create(struct fabtel_dev *fdev, u32 num)
{
	struct net_device *ndev;
	struct fabtel_port *p;
	int err;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&p->lock);
	INIT_LIST_HEAD(&p->node);
	p->fdev = fdev;
	p->num = num;
	kobject_init(&p->kobj, &fabtel_port_ktype);

	err = fabtel_counters_init(p);
	if (err)
		goto err_put_kobj;
	err = fabtel_pma_init(p);
	if (err)
		goto err_counters_exit;
	err = fabtel_rec_init(p);
	if (err)
		goto err_pma_exit;
	ndev = fabtel_netdev_lookup(fdev->ibdev, num);
	fabtel_dcb_probe(p, ndev);
	fabtel_link_port_add(p, ndev);	/* takes over the reference */

	err = kobject_add(&p->kobj, fdev->ports_kobj, "%u", num);
	if (err)
		goto err_destroy;
	err = fabtel_sysfs_port_add(p);
	if (err)
		goto err_destroy;
	err = fabtel_rec_sysfs_add(p);
	if (err)
		goto err_destroy;
	return p;

err_destroy:
	fabtel_port_destroy(p);
	return ERR_PTR(err);
err_pma_exit:
	fabtel_pma_exit(p);
err_counters_exit:
	fabtel_counters_exit(p);
err_put_kobj:
	kobject_put(&p->kobj);
	return ERR_PTR(err);
}

/* ---- ib_client ----------------------------------------------------------- */

static void fabtel_dev_destroy(struct fabtel_dev *fdev)
{
	unsigned int i;

	if (fdev->event_handler_registered)
		ib_unregister_event_handler(&fdev->event_handler);
	if (fdev->wq) {
		cancel_delayed_work_sync(&fdev->sample_work);
		destroy_workqueue(fdev->wq);
	}
	for (i = 0; i < fdev->nports; i++)
		fabtel_port_destroy(fdev->ports[i]);
	kobject_put(fdev->ports_kobj);
	if (fdev->kobj.state_in_sysfs)
		kobject_del(&fdev->kobj);
	kobject_put(&fdev->kobj);	/* frees fdev */
}

static unsigned int fabtel_count_eth_ports(struct ib_device *ibdev)
{
	unsigned int n = 0;
	u32 port;

	rdma_for_each_port(ibdev, port)
		n += rdma_port_get_link_layer(ibdev, port) ==
		     IB_LINK_LAYER_ETHERNET;
	return n;
}

static int fabtel_add_one(struct ib_device *ibdev)
{
	unsigned int n = fabtel_count_eth_ports(ibdev);
	struct fabtel_dev *fdev;
	struct fabtel_port *p;
	u32 port;
	int err;

	const struct fabtel_vendor *vendor = fabtel_vendor_find(ibdev->ops.driver_id);
	const char *why;

	if (!n)
		return -EOPNOTSUPP;	/* no RoCE port: not ours */
	why = fabtel_filter_reason(dev_name(&ibdev->dev), vendor->name);
	if (why) {
		pr_info("%s: not tracked (driver %s): left out by the %s parameter\n",
			dev_name(&ibdev->dev), vendor->name, why);
		return -EOPNOTSUPP;
	}
	fdev = kzalloc(struct_size(fdev, ports, n), GFP_KERNEL);
	if (!fdev)
		return -ENOMEM;
	fdev->ibdev = ibdev;
	fdev->vendor = vendor;
	INIT_DELAYED_WORK(&fdev->sample_work, fabtel_sample_work);
	kobject_init(&fdev->kobj, &fabtel_dev_ktype);
	err = kobject_add(&fdev->kobj, fabtel_root, "%s", dev_name(&ibdev->dev));
	if (err)
		goto err_destroy;
	fdev->ports_kobj = kobject_create_and_add("ports", &fdev->kobj);
	err = -ENOMEM;
	if (!fdev->ports_kobj)
		goto err_destroy;

	rdma_for_each_port(ibdev, port) {
		if (rdma_port_get_link_layer(ibdev, port) != IB_LINK_LAYER_ETHERNET)
			continue;
		p = fabtel_port_create(fdev, port);
		err = PTR_ERR_OR_ZERO(p);
		if (err)
			goto err_destroy;
		fdev->ports[fdev->nports++] = p;
	}

	fdev->wq = alloc_ordered_workqueue("fabtel_%s", 0, dev_name(&ibdev->dev));
	if (!fdev->wq) {
		err = -ENOMEM;
		goto err_destroy;
	}
	INIT_IB_EVENT_HANDLER(&fdev->event_handler, ibdev, fabtel_link_ib_event);
	ib_register_event_handler(&fdev->event_handler);
	fdev->event_handler_registered = true;

	ib_set_client_data(ibdev, &fabtel_client, fdev);
	queue_delayed_work(fdev->wq, &fdev->sample_work, 0);
	pr_info("%s: %u RoCE port(s), counters: %s\n", dev_name(&ibdev->dev),
		fdev->nports, fdev->vendor->name);
	return 0;

err_destroy:
	pr_warn("%s: not tracked: %d\n", dev_name(&ibdev->dev), err);
	fabtel_dev_destroy(fdev);
	return err;
}

static void fabtel_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct fabtel_dev *fdev = client_data;

	fabtel_dev_destroy(fdev);
	pr_info("%s: removed\n", dev_name(&ibdev->dev));
}

static void fabtel_rename(struct ib_device *ibdev, void *client_data)
{
	struct fabtel_dev *fdev = client_data;

	if (kobject_rename(&fdev->kobj, dev_name(&ibdev->dev)))
		pr_warn("%s: sysfs directory not renamed\n", dev_name(&ibdev->dev));
}

static struct ib_client fabtel_client = {
	.name = "fabtel",
	.add = fabtel_add_one,
	.remove = fabtel_remove_one,
	.rename = fabtel_rename,
	.no_kverbs_req = 1,
};

/* ---- module -------------------------------------------------------------- */

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", FABTEL_SCHEMA_VERSION);
}
static struct kobj_attribute fabtel_attr_version = __ATTR_RO(version);

static int __init fabtel_init(void)
{
	int err;

	fabtel_root = kobject_create_and_add("fabtel", kernel_kobj);
	if (!fabtel_root)
		return -ENOMEM;
	err = fabtel_filter_check();
	if (err)
		goto err_put_root;
	err = sysfs_create_file(fabtel_root, &fabtel_attr_version.attr);
	if (err)
		goto err_put_root;
	err = fabtel_link_init();
	if (err)
		goto err_put_root;
	err = ib_register_client(&fabtel_client);
	if (err)
		goto err_link_exit;
	pr_info("loaded, schema version %d, sample_ms %u, slow_ms %u\n",
		FABTEL_SCHEMA_VERSION, fabtel_sample_ms_get(),
		fabtel_slow_ms_get());
	return 0;

err_link_exit:
	fabtel_link_exit();
err_put_root:
	kobject_put(fabtel_root);
	return err;
}

static void __exit fabtel_exit(void)
{
	ib_unregister_client(&fabtel_client);
	fabtel_link_exit();
	kobject_put(fabtel_root);
	pr_info("unloaded\n");
}

module_init(fabtel_init);
module_exit(fabtel_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Fabric-health telemetry for RoCE NICs");
MODULE_AUTHOR("fabtel developers");
