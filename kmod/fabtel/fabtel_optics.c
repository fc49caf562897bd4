// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the plugged module's EEPROM, the pages its diagnostics live in,
 * read through the netdev's get_module_eeprom_by_page (what `ethtool -m`
 * reads) every module_ms and kept until the next read: the lower page, and
 * for SFF-8636 page 03h (thresholds), for CMIS pages 01h (what is
 * monitored), 02h (thresholds) and 11h (lane flags and monitors); none of
 * them on flat memory.  fabtel.ko does not decode them: ports/<n>/module
 * carries the bytes with their age, and fabteld decodes them with its one,
 * fuzzed decoder (userspace/collector/ddm.c).  Module EEPROM reads are slow
 * I2C transactions under RTNL on real NICs: the period is long, RTNL is
 * only tried (a busy RTNL defers the read to the next sample).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "fabtel.h"

#define FABTEL_OPTICS_MS_MIN	1000
#define FABTEL_OPTICS_MS_MAX	600000

static unsigned int fabtel_optics_ms = 10000;

static int fabtel_optics_ms_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;

	if (kstrtouint(val, 0, &ms))
		return -EINVAL;
	if (ms && (ms < FABTEL_OPTICS_MS_MIN || ms > FABTEL_OPTICS_MS_MAX))
		return -EINVAL;
	WRITE_ONCE(fabtel_optics_ms, ms);
	return 0;
}

static const struct kernel_param_ops fabtel_optics_ms_ops = {
	.set = fabtel_optics_ms_set,
	.get = param_get_uint,
};

module_param_cb(module_ms, &fabtel_optics_ms_ops, &fabtel_optics_ms, 0644);
MODULE_PARM_DESC(module_ms,
		 "module EEPROM read period in ms, 1000..600000, 0 off (default 10000)");

/* SFF-8024 identifiers laid out as SFF-8636 or as CMIS */
static bool fabtel_id_sff8636(u8 id)
{
	return id == 0x0c || id == 0x0d || id == 0x11;
}

static bool fabtel_id_cmis(u8 id)
{
	return id == 0x18 || id == 0x19 || id == 0x1b || id == 0x1e || id == 0x1f;
}

/* One 128-byte half page at I2C address 0x50, bank 0; 0 or -errno. */
static int fabtel_optics_page(struct net_device *ndev, u8 page, u32 offset, u8 *buf)
{
	struct ethtool_module_eeprom req = {
		.offset = offset,
		.length = FABTEL_OPTICS_PAGE,
		.page = page,
		.bank = 0,
		.i2c_address = 0x50,
		.data = buf,
	};
	int ret;

	ret = ndev->ethtool_ops->get_module_eeprom_by_page(ndev, &req, NULL);
	if (ret < 0)
		return ret;
	return ret == FABTEL_OPTICS_PAGE ? 0 : -EIO;
}

/* The lower page, then the upper pages its layout has (RTNL held). */
static void fabtel_optics_read(struct net_device *ndev, struct fabtel_optics *m)
{
	static const u8 sff_pages[] = { 0x03 }, cmis_pages[] = { 0x01, 0x02, 0x11 };
	const u8 *want = NULL;
	unsigned int n = 0, i;

	m->nr_up = 0;
	if (!ndev->ethtool_ops || !ndev->ethtool_ops->get_module_eeprom_by_page) {
		m->err = -EOPNOTSUPP;
		return;
	}
	m->err = fabtel_optics_page(ndev, 0, 0, m->lower);
	if (m->err)
		return;
	if (fabtel_id_sff8636(m->lower[0]) && !(m->lower[2] & 0x04)) {
		want = sff_pages;
		n = ARRAY_SIZE(sff_pages);
	} else if (fabtel_id_cmis(m->lower[0]) && !(m->lower[2] & 0x80)) {
		want = cmis_pages;
		n = ARRAY_SIZE(cmis_pages);
	}
	/* a page that does not answer is left out, as ethtool does */
	for (i = 0; i < n; i++)
		if (!fabtel_optics_page(ndev, want[i], FABTEL_OPTICS_PAGE,
					m->up[m->nr_up]))
			m->up_page[m->nr_up++] = want[i];
}

static u16 fabtel_be16(const u8 *b, unsigned int at)
{
	return (u16)(b[at] << 8 | b[at + 1]);
}

static const u8 *fabtel_optics_up(const struct fabtel_optics *m, u8 page)
{
	unsigned int i;

	for (i = 0; i < m->nr_up; i++)
		if (m->up_page[i] == page)
			return m->up[i];
	return NULL;
}

/*
 * The flight recorder's view of a read: the lowest lane's rx power (0.1
 * uW), the temperature (1/256 degC), and whether a temperature or rx power
 * high or low alarm flag is set (SFF-8636 lower page 6, 9, 10 with page
 * 03h; CMIS lower page 9, page 11h 149, 150); false: no module or layout
 * read.  Offsets as userspace/collector/ddm.c decodes them.
 */
bool fabtel_optics_brief(const struct fabtel_optics *m, u32 *rx, s32 *temp, bool *alarm)
{
	const u8 *lo = m->lower, *p11;
	unsigned int l, lanes;
	u32 v;

	if (m->err)
		return false;
	*rx = U32_MAX;
	if (fabtel_id_sff8636(lo[0])) {
		*temp = (s16)fabtel_be16(lo, 22);
		for (l = 0; l < 4; l++)
			*rx = min_t(u32, *rx, fabtel_be16(lo, 34 + 2 * l));
		*alarm = fabtel_optics_up(m, 0x03) && !(lo[2] & 0x04) &&
			 ((lo[6] & 0xc0) || (lo[9] & 0xcc) || (lo[10] & 0xcc));
		return true;
	}
	if (!fabtel_id_cmis(lo[0]))
		return false;
	*temp = (s16)fabtel_be16(lo, 14);
	*alarm = lo[9] & 0x03;
	p11 = fabtel_optics_up(m, 0x11);
	lanes = p11 ? 8 : 0;
	for (l = 0; l < lanes; l++) {
		v = fabtel_be16(p11, 186 - FABTEL_OPTICS_PAGE + 2 * l);
		*rx = min_t(u32, *rx, v);
	}
	if (p11)
		*alarm |= p11[149 - FABTEL_OPTICS_PAGE] || p11[150 - FABTEL_OPTICS_PAGE];
	if (*rx == U32_MAX)
		*rx = 0;
	return true;
}

unsigned int fabtel_optics_ms_get(void)
{
	return READ_ONCE(fabtel_optics_ms);
}

/*
 * Every module_ms, or after the back-off when the last read failed.  An
 * empty cage fails too (mlx5's firmware answers the MCIA query with an
 * error): a port without a module is asked rarely.  A driver without the
 * op is asked nothing, and that is no failure.
 */
void fabtel_optics_sample(struct fabtel_port *p)
{
	unsigned int period = fabtel_optics_ms_get();
	struct fabtel_optics *m;
	struct net_device *ndev;
	u64 now = ktime_get_ns();
	int err;

	if (!period)
		return;
	/* after a failure the back-off; else the period as it is now */
	if (p->rd[FABTEL_RD_OPTICS].failing) {
		if (!fabtel_rd_due(p, FABTEL_RD_OPTICS, now))
			return;
	} else if (p->optics && p->optics->read_ns &&
		   now - p->optics->read_ns < (u64)period * NSEC_PER_MSEC) {
		return;
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return;
	ndev = fabtel_port_netdev_get(p);
	if (!ndev) {
		m->err = -ENODEV;
	} else if (!rtnl_trylock()) {
		dev_put(ndev);
		kfree(m);
		return;		/* busy: try again next sample */
	} else {
		err = fabtel_ethtool_begin(ndev);
		if (!err) {
			fabtel_optics_read(ndev, m);
			fabtel_ethtool_complete(ndev);
		} else {
			m->err = err;
		}
		rtnl_unlock();
		dev_put(ndev);
		if (!err)
			fabtel_rd_done(p, FABTEL_RD_OPTICS,
				       m->err == -EOPNOTSUPP ? 0 : m->err, now,
				       period);
	}
	m->read_ns = now;
	spin_lock(&p->lock);
	swap(p->optics, m);
	spin_unlock(&p->lock);
	kfree(m);
}

static int fabtel_optics_hex(char *buf, int n, const char *what, const u8 *page)
{
	n += sysfs_emit_at(buf, n, "page %s ", what);
	/* fits: see fabtel_optics_show() */
	bin2hex(buf + n, page, FABTEL_OPTICS_PAGE);
	n += 2 * FABTEL_OPTICS_PAGE;
	return n + sysfs_emit_at(buf, n, "\n");
}

/*
 * ports/<n>/module: "fabtel-module 1", "age_ms" of the read ("-" never
 * read), "error" (0 or -errno: -95 no module interface, -19 no module or
 * netdev, -61 not read yet or module_ms 0), then "page lower <hex>" and
 * "page 0x<NN> <hex>" per upper page read, 256 hex digits each.  At most
 * 1.2 KB: within a sysfs page.
 */
static ssize_t fabtel_optics_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	struct fabtel_port *p = container_of(kobj, struct fabtel_port, kobj);
	const struct fabtel_optics *m;
	char name[8];
	unsigned int i;
	int n;

	n = sysfs_emit(buf, "fabtel-module 1\n");
	spin_lock(&p->lock);
	m = p->optics;
	if (!m) {
		/* not read yet, or module_ms 0 */
		n += sysfs_emit_at(buf, n, "age_ms -\nerror %d\n", -ENODATA);
		goto out_unlock;
	}
	n += sysfs_emit_at(buf, n, "age_ms %llu\nerror %d\n",
			   div_u64(ktime_get_ns() - m->read_ns, NSEC_PER_MSEC), m->err);
	if (m->err)
		goto out_unlock;
	n = fabtel_optics_hex(buf, n, "lower", m->lower);
	for (i = 0; i < m->nr_up; i++) {
		snprintf(name, sizeof(name), "0x%02x", m->up_page[i]);
		n = fabtel_optics_hex(buf, n, name, m->up[i]);
	}
out_unlock:
	spin_unlock(&p->lock);
	return n;
}

/* ports/<n>/module */
struct kobj_attribute fabtel_attr_optics =
	__ATTR(module, 0444, fabtel_optics_show, NULL);

void fabtel_optics_free(struct fabtel_port *p)
{
	kfree(p->optics);
	p->optics = NULL;
}
