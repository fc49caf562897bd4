// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_rdmanl - libFuzzer target: the RDMA netlink QP dump parser
 * (rdmanl_parse_qps, lib/rdmanl.h).
 *
 * The input is one received buffer of a RDMA_NLDEV_CMD_RES_QP_GET dump:
 * netlink messages of sequence 1 whose attributes nest QP entries.  The
 * parser must stay inside the buffer (ASan), keep the device name it was
 * given, and return only what its contract allows.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdmanl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_qp(const struct rdmanl_qp *qp, void *ctx)
{
	unsigned int *n = ctx;

	if (qp->dev_index != 7 || strcmp(qp->dev_name, "fz0"))
		abort();
	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t buf[16384];	/* netlink messages are 4-byte aligned */
	unsigned int n = 0;
	int ret;

	if (size > sizeof(buf))
		size = sizeof(buf);
	memcpy(buf, data, size);
	ret = rdmanl_parse_qps(buf, size, 1, 7, "fz0", on_qp, &n);
	if (ret > 1)
		abort();
	return 0;
}
