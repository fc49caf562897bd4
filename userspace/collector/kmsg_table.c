// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_table.c - the patterns of driver messages, version
 * KMSG_PATTERNS_VERSION (kmsg_match.h; Documentation/driver_messages.rst).
 *
 * Each comes from a format string of Debian's 6.1 and 6.12 kernels (file
 * and function in where), written as the kernel prints it: the prefix
 * dev_printk adds is not part of it.  A change to a pattern's meaning
 * bumps the version.  mlx5_core's "%s(0x%x) op_mod(0x%x) failed, status"
 * is left out on purpose: firmware refuses commands as part of normal work
 * and the line is rate-limited noise.
 */
#include <string.h>

#include "kmsg_match.h"

#define M5 "mlx5_core"
#define HEX "0x[0-9a-f]+"
#define CMD "[A-Z0-9_]+\\(" HEX "\\)"

const struct kmsg_pattern kmsg_patterns[] = {
	/* mlx5_core: firmware health (drivers/net/ethernet/mellanox/mlx5/core/health.c) */
	{ "mlx5_health_miss", M5, KMSG_FW_HEALTH, true, "health compromised",
	  "^device's health compromised - reached miss count$", 0, 0, "health.c poll_health" },
	{ "mlx5_fatal_error", M5, KMSG_FW_HEALTH, true, "Fatal error",
	  "^Fatal error [0-9]+ detected$", 0, 0, "health.c poll_health" },
	{ "mlx5_pci_unavailable", M5, KMSG_FW_HEALTH, true, "PCI slot is unavailable",
	  "^PCI slot is unavailable$", 0, 0, "health.c print_health_info" },
	{ "mlx5_health_issue", M5, KMSG_FW_HEALTH, true, "Health issue observed",
	  "^Health issue observed, .*, severity\\([0-9]+\\) ", 0, 0,
	  "health.c print_health_info" },
	{ "mlx5_error_unload", M5, KMSG_FW_HEALTH, true, "Driver is in error state",
	  "^Driver is in error state\\. Unloading$", 0, 0,
	  "health.c mlx5_fw_fatal_reporter_err_work" },
	{ "mlx5_recovery", M5, KMSG_RESET, true, "health recovery",
	  "^(starting health recovery flow|health recovery failed|"
	  "health recovery flow aborted, PCI reads still not working)$", 0, 0,
	  "health.c mlx5_health_try_recover" },
	{ "mlx5_recovered", M5, KMSG_RECOVERED, false, "health recovery succeeded",
	  "^health recovery succeeded$", 0, 0, "health.c mlx5_health_try_recover" },
	/* mlx5_core: firmware commands (cmd.c, eq.c) */
	{ "mlx5_cmd_timeout", M5, KMSG_FW_COMMAND, true, "0x",
	  "^" CMD " (timeout\\. Will cause a leak of a command resource|"
	  "canceled on out of queue timeout\\.|timeout while waiting for command semaphore\\.|"
	  "timed out while waiting for a slot\\.)$", 0, 0, "cmd.c wait_func, cmd_work_handler" },
	{ "mlx5_cmd_async_timeout", M5, KMSG_FW_COMMAND, true, "cmd[",
	  "^cmd\\[[0-9]+\\]: " CMD " (Async, timeout\\. Will cause a leak of a command resource|"
	  "No done completion|(Async, )?recovered after timeout)$", 0, 0,
	  "cmd.c cb_timeout_handler, wait_func_handle_exec_timeout" },
	/* mlx5_core: the Ethernet side (en_main.c, en/reporter_tx.c, en/reporter_rx.c) */
	{ "mlx5_tx_timeout", M5, KMSG_TX_TIMEOUT, true, "TX timeout detected",
	  "^TX timeout detected$", 0, 0, "en_main.c mlx5e_tx_timeout" },
	{ "mlx5_tx_timeout_queue", M5, KMSG_TX_TIMEOUT, true, "TX timeout on queue",
	  "^TX timeout on queue: [0-9]+, SQ: " HEX ", CQ: " HEX ",", 0, 0,
	  "en/reporter_tx.c (via en/health.c mlx5e_health_report)" },
	{ "mlx5_tx_recover_failed", M5, KMSG_RESET, true, "failed recovering from a tx_timeout",
	  "^mlx5e_safe_reopen_channels failed recovering from a tx_timeout, err\\(-?[0-9]+\\)\\.$",
	  0, 0, "en/reporter_tx.c" },
	{ "mlx5_rx_timeout", M5, KMSG_QP_ERROR, true, "RX timeout on channel",
	  "^RX timeout on channel: [0-9]+, ", 0, 0, "en/reporter_rx.c" },
	{ "mlx5_err_cqe", M5, KMSG_QP_ERROR, true, "ERR CQE on",
	  "^ERR CQE on (SQ|RQ|ICOSQ): " HEX "$", 0, 0, "en/reporter_tx.c, en/reporter_rx.c" },
	{ "mlx5_link_down", M5, KMSG_LINK_DOWN, false, "Link down",
	  "^Link down$", 0, 0, "en_main.c mlx5e_update_carrier" },
	{ "mlx5_link_up", M5, KMSG_LINK_UP, false, "Link up",
	  "^Link up$", 0, 0, "en_main.c mlx5e_update_carrier" },
	/* bnxt_en and bnxt_re (drivers/net/ethernet/broadcom/bnxt, infiniband/hw/bnxt_re) */
	{ "bnxt_fw_fatal", "bnxt_en", KMSG_FW_HEALTH, true, "firmware fatal condition",
	  "^Detected firmware fatal condition, initiating reset$", 0, 0, "bnxt.c bnxt_fw_exception" },
	{ "bnxt_fw_reset", "bnxt_en", KMSG_RESET, true, "irmware reset",
	  "^((Fatal |Non-fatal )?firmware reset event, data1: |Firmware reset aborted, rc = )",
	  0, 0, "bnxt.c bnxt_async_event_process, bnxt_fw_reset_task" },
	{ "bnxt_hwrm_timeout", "bnxt_en", KMSG_FW_COMMAND, true, "Error (timeout:",
	  "^Error \\(timeout: [0-9]+\\) msg \\{" HEX " " HEX "\\} len:[0-9]+", 0, 0,
	  "bnxt_hwrm.c __hwrm_send" },
	{ "bnxt_re_cmd_timeout", "bnxt_en", KMSG_FW_COMMAND, true, "QPLIB: ",
	  "^QPLIB: (cmdq\\[" HEX "\\]=" HEX " timedout \\([0-9]+\\)msec|[a-z_]+: FW STALL Detected\\. )",
	  0, 0, "bnxt_re qplib_rcfw.c (6.1 timedout, 6.12 FW STALL)" },
	{ "bnxt_tx_timeout", "bnxt_en", KMSG_TX_TIMEOUT, true, "TX timeout detected",
	  "^TX timeout detected, starting reset task!$", 0, 0, "bnxt.c bnxt_tx_timeout" },
	{ "nic_link_down", "bnxt_en ice", KMSG_LINK_DOWN, false, "NIC Link is Down",
	  "^NIC Link is Down$", 0, 0, "bnxt.c bnxt_report_link, ice_main.c ice_print_link_msg" },
	{ "nic_link_up", "bnxt_en ice", KMSG_LINK_UP, false, "NIC Link is ",
	  "^NIC Link is [Uu]p[, ]", 0, 0, "bnxt.c bnxt_report_link, ice_main.c ice_print_link_msg" },
	/* irdma over ice (drivers/infiniband/hw/irdma, drivers/net/ethernet/intel/ice) */
	{ "irdma_reset", "ice", KMSG_RESET, true, "Requesting a reset",
	  "^Requesting a reset$", 0, 0, "irdma main.c irdma_request_reset" },
	{ "irdma_pe_error", "ice", KMSG_FW_HEALTH, true, "rror",
	  "^(critical PE Error, GLPE_CRITERR=" HEX "|HMC Error|PE Push Error)$", 0, 0,
	  "irdma main.c irdma_iidc_event_handler" },
	{ "irdma_cqp_error", "ice", KMSG_FW_COMMAND, true, " Error][op_code=",
	  "^\\[[^]]+ Error\\]\\[op_code=[0-9]+\\] status=-?[0-9]+ ", 0, 0,
	  "irdma utils.c irdma_handle_cqp_op" },
	{ "ice_tx_timeout", "ice", KMSG_TX_TIMEOUT, true, "tx_timeout recovery level",
	  "^tx_timeout recovery level [0-9]+, txqueue [0-9]+$", 0, 0, "ice_main.c ice_tx_timeout" },
	/* virtio_net (the lab's link) */
	{ "virtio_tx_timeout", "virtio_net", KMSG_TX_TIMEOUT, true, "TX timeout on queue",
	  "^TX timeout on queue: [0-9]+, sq: ", 0, 0, "virtio_net.c virtnet_tx_timeout" },
	/* rxe: the port's state (rxe_net.c; "infiniband" is the class's name: no driver) */
	{ "rxe_port_down", "infiniband", KMSG_LINK_DOWN, false, "set down",
	  "^set down$", 0, 0, "rxe_net.c rxe_port_down" },
	{ "rxe_port_up", "infiniband", KMSG_LINK_UP, false, "set active",
	  "^set active$", 0, 0, "rxe_net.c rxe_port_up" },
	/* the netdev watchdog, any driver (net/sched/sch_generic.c dev_watchdog) */
	{ "netdev_watchdog", "*", KMSG_TX_TIMEOUT, true, "NETDEV WATCHDOG",
	  "^NETDEV WATCHDOG: CPU: [0-9]+: transmit queue [0-9]+ timed out [0-9]+ ms$", 0, 0,
	  "sch_generic.c dev_watchdog" },
	/* whole lines */
	{ "netdev_watchdog_legacy", NULL, KMSG_TX_TIMEOUT, true, "NETDEV WATCHDOG",
	  "^NETDEV WATCHDOG: ([^ ]+) \\(([^)]+)\\): transmit queue [0-9]+ timed out [0-9]+ ms$",
	  1, 2, "sch_generic.c dev_watchdog (WARN_ONCE, before 6.1.107)" },
	{ "rxe_qp_error", NULL, KMSG_QP_ERROR, true, ": qp#",
	  "^([^ :]+): qp#[0-9]+ [a-z_]+: non-flush error status = [0-9]+$", 1, 0,
	  "rxe_comp.c make_send_cqe, rxe_resp.c do_complete (6.12)" },
	{ "rxe_qp_sqe", NULL, KMSG_QP_ERROR, true, "state -> SQE",
	  "^rdma_rxe: qp#[0-9]+ state -> SQE !!\\?$", 0, 0, "rxe_qp.c rxe_qp_error (6.1)" },
	{ "soft_lockup", NULL, KMSG_LOCKUP, true, "soft lockup",
	  "^watchdog: BUG: soft lockup - CPU#[0-9]+ stuck for [0-9]+s! \\[.*\\]$", 0, 0,
	  "kernel/watchdog.c watchdog_timer_fn" },
	{ "hard_lockup", NULL, KMSG_LOCKUP, true, "hard LOCKUP",
	  "^(NMI )?watchdog: Watchdog detected hard LOCKUP on cpu [0-9]+$", 0, 0,
	  "kernel/watchdog_hld.c (6.1), kernel/watchdog.c (6.12)" },
	{ "hung_task", NULL, KMSG_HUNG_TASK, true, "blocked for more than",
	  "^INFO: task .*:[0-9]+ blocked for more than [0-9]+ seconds\\.$", 0, 0,
	  "kernel/hung_task.c check_hung_task" },
	{ "rcu_stall", NULL, KMSG_RCU_STALL, true, "rcu: INFO: ",
	  "^rcu: INFO: [a-z_]+ (self-detected stall on CPU|detected stalls on CPUs/tasks:|"
	  "detected expedited stalls on CPUs/tasks:)", 0, 0, "kernel/rcu/tree_stall.h, tree_exp.h" },
};

const unsigned int kmsg_nr_patterns = sizeof(kmsg_patterns) / sizeof(kmsg_patterns[0]);
_Static_assert(sizeof(kmsg_patterns) / sizeof(kmsg_patterns[0]) <= KMSG_MAX_PATTERNS,
	       "the matcher compiles KMSG_MAX_PATTERNS at most");

static const struct {
	const char *driver, *modules;
} families[] = {
	{ "mlx5_core", "mlx5_core mlx5_ib" },
	{ "bnxt_en", "bnxt_en bnxt_re" },
	{ "ice", "ice irdma" },
	{ "infiniband", "rdma_rxe" },
};

const char *kmsg_family_modules(const char *driver)
{
	unsigned int i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(families[i].driver, driver))
			return families[i].modules;
	return driver;
}

const char *kmsg_kind_name(enum kmsg_kind k)
{
	static const char *const names[KMSG_NR_KINDS] = {
		"tx_timeout", "fw_health", "fw_command", "reset", "recovered", "qp_error",
		"link_down", "link_up", "lockup", "hung_task", "rcu_stall",
	};

	return k < KMSG_NR_KINDS ? names[k] : "unknown";
}
