// SPDX-License-Identifier: GPL-2.0
/*
 * test_sysfs_nlstat - plain sysfs's hw_counters over RDMA netlink
 * (collector/sysfs_nlstat.h): a STAT_GET reply mapped to the schema as the
 * files are (mlx5's and rxe's names, widths, unknown names left out, none
 * held); netlink never asked for a fixture tree or with port_stats =
 * files; and the read's course against replies from the test's end of a
 * datagram socket pair: the device's index listed once, auto falling back
 * to the files on a failure and asking netlink again only after its
 * back-off, netlink alone reporting the failure, each noted as the port's
 * read hw_counters_netlink.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <unistd.h>
#include <sys/socket.h>
#include <cmocka.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "memfs.h"
#include "nlmsgs.h"
#include "schema.h"
#include "source.h"
#include "sysfs_nlstat.h"

#define S	1000000000ULL

static void entry(struct rdmastat_port *sp, const char *name, uint64_t v)
{
	snprintf(sp->e[sp->nr].name, sizeof(sp->e[0].name), "%s", name);
	sp->e[sp->nr++].value = v;
}

static void map_mlx5(void **state)
{
	static struct rdmastat_port sp;
	static struct raw_port p;

	(void)state;
	memset(&sp, 0, sizeof(sp));
	memset(&p, 0, sizeof(p));
	entry(&sp, "out_of_sequence", 5);
	entry(&sp, "packet_seq_err", 1);
	entry(&sp, "np_cnp_sent", 1ULL << 40);
	entry(&sp, "rx_write_requests", 77);	/* no counter of the schema */
	entry(&sp, "duplicate_request", 0);
	p.held = 1u << FABTEL_OUT_OF_SEQUENCE;
	sysfs_nlstat_map(&sp, &p);
	assert_false(p.soft_roce);
	assert_int_equal(p.held, 0);
	assert_true(p.have[FABTEL_OUT_OF_SEQUENCE]);
	assert_int_equal(p.ctr[FABTEL_OUT_OF_SEQUENCE], 5);
	assert_int_equal(p.width[FABTEL_OUT_OF_SEQUENCE], 32);	/* mlx5's Q counter */
	assert_int_equal(p.ctr[FABTEL_NAK_SEQ_ERR_RCVD], 1);
	assert_true(p.ctr[FABTEL_CNP_SENT] == 1ULL << 40);
	assert_int_equal(p.width[FABTEL_CNP_SENT], 64);
	assert_true(p.have[FABTEL_DUPLICATE_REQUEST]);
	assert_int_equal(p.ctr[FABTEL_DUPLICATE_REQUEST], 0);
	assert_false(p.have[FABTEL_LOCAL_ACK_TIMEOUT]);	/* not in the reply */
}

/* rxe's names: its vendor guessed, 64-bit widths, soft_roce */
static void map_rxe(void **state)
{
	static struct rdmastat_port sp;
	static struct raw_port p;

	(void)state;
	memset(&sp, 0, sizeof(sp));
	memset(&p, 0, sizeof(p));
	entry(&sp, "sent_pkts", 100);
	entry(&sp, "rcvd_pkts", 90);
	entry(&sp, "duplicate_request", 3);
	entry(&sp, "out_of_seq_request", 2);
	sysfs_nlstat_map(&sp, &p);
	assert_true(p.soft_roce);
	assert_int_equal(p.ctr[FABTEL_TX_PACKETS], 100);
	assert_int_equal(p.ctr[FABTEL_DUPLICATE_REQUEST], 3);
	assert_int_equal(p.width[FABTEL_DUPLICATE_REQUEST], 64);
	assert_int_equal(p.ctr[FABTEL_OUT_OF_SEQUENCE], 2);
}

static void wanted(void **state)
{
	static struct collect_opts o;
	static struct memfs fs;

	(void)state;
	collect_opts_default(&o);
	assert_int_equal(o.port_stats, PORT_STATS_AUTO);
	assert_true(sysfs_nlstat_wanted(&o));
	snprintf(o.sysfs_root, sizeof(o.sysfs_root), "/");
	assert_true(sysfs_nlstat_wanted(&o));
	o.port_stats = PORT_STATS_NETLINK;
	assert_true(sysfs_nlstat_wanted(&o));
	o.port_stats = PORT_STATS_FILES;
	assert_false(sysfs_nlstat_wanted(&o));
	o.port_stats = PORT_STATS_NETLINK;	/* a fixture's devices are not the kernel's */
	snprintf(o.sysfs_root, sizeof(o.sysfs_root), "/tmp/fixture");
	assert_false(sysfs_nlstat_wanted(&o));
	o.sysfs_root[0] = '\0';
	memfs_init(&fs);			/* nor a test's tree in memory */
	fs_set_backend(&fs.be);
	assert_false(sysfs_nlstat_wanted(&o));
	fs_set_backend(NULL);
}

/* ---- the read against the test's replies ------------------------------------ */

/* an ACK (error 0) or an error; the end of a dump */
static void ack(struct nlmsgs *b, uint32_t seq, int error)
{
	nlm_ack(b, seq, error, NULL, true);
	nlm_send(b);
	nlm_reset(b);
}

/* the kernel's device list: mlx5_0 at index idx */
static void devs_reply(struct nlmsgs *b, uint32_t seq, uint32_t idx)
{
	nlm_begin(b, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET), NLM_F_MULTI, seq);
	nlm_u32(b, RDMA_NLDEV_ATTR_DEV_INDEX, idx);
	nlm_str(b, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	nlm_end(b);
	nlm_done(b, seq, 0);
	nlm_send(b);
	nlm_reset(b);
}

/* the STAT_GET's reply (mlx5_0 at whatever index was asked) and its ACK */
static void port_reply(struct nlmsgs *b, uint32_t seq, uint64_t oos)
{
	nlm_begin(b, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET), 0, seq);
	nlm_u32(b, RDMA_NLDEV_ATTR_DEV_INDEX, 4);
	nlm_str(b, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	nlm_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nlm_nest(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	nlm_hw_entry(b, "out_of_sequence", oos, false);
	nlm_nest_end(b);
	nlm_end(b);
	nlm_ack(b, seq, 0, NULL, true);
	nlm_send(b);
	nlm_reset(b);
}

/* the next request, of sequence seq: its type */
static uint16_t request(uint32_t seq, struct nlm_req *r)
{
	nlm_take_request(r, seq);
	return r->nh.nlmsg_type;
}

static bool no_request(void)
{
	uint32_t w[64];

	return recv(nlm_kernel_end(), w, sizeof(w), MSG_DONTWAIT) < 0 && errno == EAGAIN;
}

static void fresh_port(struct raw_port *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->device, sizeof(p->device), "mlx5_0");
	p->port = 1;
}

/* the course, after the back-off: read again; the index moved; netlink alone */
static void course_again(struct sysfs_nlstat *n, struct port_backoffs *pb, uint64_t now)
{
	static struct raw_port p;
	static struct nlmsgs b;
	const struct read_status *st = &p.reads.s[READER_FABTELD][PR_HW_NETLINK];
	struct nlm_req r;
	int err;

	/* due again: listed anew, read */
	devs_reply(&b, 105, 4);
	port_reply(&b, 106, 11);
	fresh_port(&p);
	assert_true(sysfs_nlstat_read(n, pb, PORT_STATS_AUTO, &p, now + 63 * S, &err));
	assert_int_equal(p.ctr[FABTEL_OUT_OF_SEQUENCE], 11);
	assert_int_equal(st->state, BACKOFF_OK);
	request(105, &r);
	request(106, &r);

	/* the device came back under another index: found again, asked at once */
	ack(&b, 107, -EINVAL);
	devs_reply(&b, 108, 7);
	port_reply(&b, 109, 12);
	fresh_port(&p);
	assert_true(sysfs_nlstat_read(n, pb, PORT_STATS_AUTO, &p, now + 64 * S, &err));
	assert_int_equal(p.ctr[FABTEL_OUT_OF_SEQUENCE], 12);
	assert_int_equal(n->st.requests, 10);
	request(107, &r);
	request(108, &r);
	request(109, &r);
	nlm_check_u32(&r, 0, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
	nlm_check_u32(&r, 1, RDMA_NLDEV_ATTR_PORT_INDEX, 1);

	/* netlink alone: a failure is the read's, no files */
	ack(&b, 110, -EOPNOTSUPP);
	devs_reply(&b, 111, 7);
	fresh_port(&p);
	assert_true(sysfs_nlstat_read(n, pb, PORT_STATS_NETLINK, &p, now + 65 * S, &err));
	assert_int_equal(err, -EOPNOTSUPP);
	assert_int_equal(st->state, BACKOFF_FAILING);
	assert_false(p.have[FABTEL_OUT_OF_SEQUENCE]);

}

static void course(void **state)
{
	static struct sysfs_nlstat n;
	static struct port_backoffs pb;
	static struct raw_port p;
	static struct nlmsgs b;
	const struct read_status *st = &p.reads.s[READER_FABTELD][PR_HW_NETLINK];
	uint64_t now = 1000 * S;
	struct nlm_req r;
	int err;

	(void)state;
	sysfs_nlstat_init(&n);
	port_backoffs_init(&pb);
	nlm_pair(&n.st.fd);
	n.st.seq = 99;

	/* the device listed, then its port: one STAT_GET */
	devs_reply(&b, 100, 4);
	port_reply(&b, 101, 9);
	fresh_port(&p);
	assert_true(sysfs_nlstat_read(&n, &pb, PORT_STATS_AUTO, &p, now, &err));
	assert_int_equal(err, 0);
	assert_int_equal(p.ctr[FABTEL_OUT_OF_SEQUENCE], 9);
	assert_int_equal(st->state, BACKOFF_OK);
	assert_int_equal(request(100, &r), RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET));
	assert_int_equal(request(101, &r), RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET));
	assert_int_equal(n.st.requests, 2);

	/* the next pass: the index kept, one request */
	port_reply(&b, 102, 10);
	fresh_port(&p);
	assert_true(sysfs_nlstat_read(&n, &pb, PORT_STATS_AUTO, &p, now + S, &err));
	assert_int_equal(p.ctr[FABTEL_OUT_OF_SEQUENCE], 10);
	assert_int_equal(n.st.requests, 3);
	request(102, &r);

	/* -EINVAL: listed again (same index), then the files */
	ack(&b, 103, -EINVAL);
	devs_reply(&b, 104, 4);
	fresh_port(&p);
	assert_false(sysfs_nlstat_read(&n, &pb, PORT_STATS_AUTO, &p, now + 2 * S, &err));
	assert_int_equal(err, -EINVAL);
	assert_false(p.have[FABTEL_OUT_OF_SEQUENCE]);
	assert_int_equal(st->state, BACKOFF_FAILING);
	assert_int_equal(st->err, -EINVAL);
	assert_int_equal(st->retry_ms, NLSTAT_RETRY_MS);
	request(103, &r);
	request(104, &r);

	/* auto: not asked again before the retry; the files meanwhile */
	fresh_port(&p);
	assert_false(sysfs_nlstat_read(&n, &pb, PORT_STATS_AUTO, &p, now + 30 * S, &err));
	assert_int_equal(err, 0);
	assert_true(no_request());
	assert_int_equal(n.st.requests, 5);

	course_again(&n, &pb, now);
	sysfs_nlstat_fini(&n);
	assert_int_equal(n.st.fd, -1);
	nlm_unpair();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(map_mlx5),
		cmocka_unit_test(map_rxe),
		cmocka_unit_test(wanted),
		cmocka_unit_test(course),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
