// SPDX-License-Identifier: GPL-2.0
/*
 * settings.c - the table of fabteld's settings (settings.h): every key of
 * the config file with its type, range, default and help, in the order
 * deploy/fabteld.conf and Documentation/fabteld.rst list them.  The
 * numbers the collector takes as they are have its defaults
 * (collect_opts_default), read here, not written again.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "settings.h"

#define STR_(x) #x
#define STR(x) STR_(x)

#define FIELD(field) .off = offsetof(struct config, field)
#define UINT(k, field, l, h, d) .key = k, .type = SETTING_UINT, FIELD(field), .lo = l, .hi = h, \
	.def = d
#define TRI(k, field) .key = k, .type = SETTING_TRISTATE, FIELD(field), .def = "auto"
#define TEXT(k, f) .key = k, .type = SETTING_TEXT, .form = f
/*
 * a number the collector takes as it is (config_collect_opts): its default
 * is the collector's own (collect_opts_default: opts.h, health.c)
 */
#define OPT(k, field, l, h) .key = k, .type = SETTING_UINT, FIELD(field), .lo = l, .hi = h, \
	.to_opts = true, .opts_off = offsetof(struct collect_opts, field)
#define HEALTH(k, field, h) OPT(k, health.field, 1, h)
#define PROBE(k, field, l, h, d) UINT(k, probe_cfg.field, l, h, d)

const struct setting settings[] = {
	{ TEXT("listen", "ADDR:PORT"), .def = "127.0.0.1:9465",
	  .help = "ADDR:PORT, [V6ADDR]:PORT or :PORT (every address)",
	  .conf = "Where /metrics and the JSON API listen.  Prometheus on another host needs an "
		  "address it can reach, e.g. 0.0.0.0:9465 (and a firewall rule)." },
	{ OPT("interval_ms", interval_ms, 100, 60000),
	  .help = "sampling period, ms",
	  .conf = "Sampling period (ms), and the user fabteld becomes after loading BPF." },
	{ TEXT("user", "USER"), .def = "nobody",
	  .help = "drop to this user after loading BPF (root: no drop)", .conf = "" },
	{ TRI("bpf", bpf), .help = "auto (if root), on (required), off",
	  .conf = "BPF: auto (when started as root), on (fail without it), off." },
	{ TRI("wire", wire), .help = "off: do not attach the wire program", .conf = "" },
	{ TEXT("tls_cert_file", "PATH"), .example = "/etc/fabtel/tls/cert.pem",
	  .help = "HTTPS: the certificate (PEM, absolute path)",
	  .conf = "HTTPS and basic auth, as Prometheus exporters' web config: a certificate and "
		  "key (PEM; read at start, as root, so the key may be 0600 root), and users "
		  "with bcrypt hashes (htpasswd -nbB NAME PASSWORD prints the line's value), "
		  "repeatable.  Without them: plain HTTP, open to all who reach it." },
	{ TEXT("tls_key_file", "PATH"), .example = "/etc/fabtel/tls/key.pem",
	  .help = "HTTPS: its key (PEM; read as root at start)", .conf = "" },
	{ TEXT("basic_auth_user", "NAME:HASH"), .example = "prometheus:$2y$10$...",
	  .help = "NAME:BCRYPT_HASH, repeatable (up to " STR(CONFIG_MAX_USERS) ")", .conf = "" },
	{ UINT("max_connections", max_connections, 1, 4096, "64"),
	  .help = "concurrent HTTP connections",
	  .conf = "HTTP connections at once, and how long an answer may take to reach its reader "
		  "before it is cut off (Documentation/fabteld.rst, HTTP)." },
	{ UINT("response_timeout_s", response_timeout_s, 1, 3600, "30"),
	  .help = "an HTTP answer not sent whole this many seconds after its request is cut off "
		  "(HTTP above)", .conf = "" },
	{ TRI("fabtel_ko", fabtel_ko),
	  .help = "off: this host runs without fabtel.ko by choice (its source is \"absent\", not "
		  "\"failed\", in fabtel_source_state); it is not looked for, and the ports are "
		  "plain sysfs's even if it is loaded",
	  .conf = "fabtel.ko: auto or on (expected: without it the fabtel_ko source is \"failed\" "
		  "in fabtel_source_state and FabtelSourceFailed fires), off (this host runs "
		  "without it by choice: \"absent\"; fabteld reads it if it appears)." },
	{ TRI("keep_files", keep_files),
	  .help = "the files read each sample stay open and are read again with pread: auto "
		  "(sysfs and procfs files), on (any file: a benchmark's fixture tree), off "
		  "(open, read, close each sample; directories listed each sample)" },
	{ TEXT("include_drivers", "globs"), .example = "mlx5",
	  .help = "globs on driver names (mlx5, bnxt_re, irdma, rxe, unknown): only these "
		  "drivers' devices are watched",
	  .conf = "Which RDMA devices fabteld watches (Documentation/fabteld.rst, \"Which "
		  "devices\"): globs on the device's name and on its driver (mlx5, bnxt_re, "
		  "irdma, rxe, unknown), separated by spaces or commas.  A device is kept when "
		  "every include list that is set matches it and no exclude list does; one left "
		  "out is never read, has no series, and is listed in /api/v1/snapshot's "
		  "excluded_devices.  Nothing is left out by default: fabteld cannot tell a "
		  "management or storage NIC from the fabric.  On a DGX-class host, the compute "
		  "fabric's ConnectX ports only, less the storage and in-band ones by name (take "
		  "the names from `rdma link`; these two are an example):" },
	{ TEXT("exclude_devices", "globs"), .example = "mlx5_4 mlx5_5",
	  .help = "globs on RDMA device names: devices never read", .conf = "" },
	{ TEXT("include_devices", "globs"), .example = "rocep8s0f0*",
	  .help = "globs on RDMA device names: only the devices they match are watched "
		  "(\"Which devices\")",
	  .conf = "or by name alone, e.g. the PCI-named devices of one adapter and its VFs:" },
	{ TEXT("exclude_drivers", "globs"), .example = "bnxt_re",
	  .help = "globs on driver names: their devices are never read", .conf = "" },
	{ TEXT("job", "NAME=GLOB"), .example = "train=/sys/fs/cgroup/jobs/train*",
	  .help = "processes whose cgroup path matches GLOB are job NAME; repeatable (up to "
		  STR(CONFIG_MAX_JOB_RULES) ")",
	  .conf = "Jobs beyond the built-in Slurm (job_<id>) and Kubernetes (pod UID) ones: "
		  "NAME=GLOB over cgroup paths, repeatable." },
	{ OPT("job_linger_s", job_linger_s, 0, 86400),
	  .help = "a job without QPs stays listed this long, s" },
	{ HEALTH("window_s", window_s, 86400), .help = "health window, s",
	  .conf = "Health thresholds." },
	{ HEALTH("hold_s", hold_s, 86400), .help = "how long failing reasons hold, s", .conf = "" },
	{ HEALTH("oos_events", oos_events, 1000000000),
	  .help = "OOS + NAK-seq events in window: degraded", .conf = "" },
	{ HEALTH("ack_timeouts", ack_timeouts, 1000000000),
	  .help = "ACK timeouts in window: degraded", .conf = "" },
	{ HEALTH("rnr_naks", rnr_naks, 1000000000),
	  .help = "RNR NAKs in window: degraded", .conf = "" },
	{ HEALTH("link_errors", link_errors, 1000000000),
	  .help = "IB port link errors in window: degraded", .conf = "" },
	{ HEALTH("pcie_errors", pcie_errors, 1000000000),
	  .help = "correctable PCIe (AER) errors of a port's function in window: degraded; any "
		  "uncorrectable one: failing", .conf = "" },
	{ OPT("recent_fault_s", recent_fault_s, 0, 86400),
	  .help = "a port clean again after a fault (flap, link down, probe loss, wedged driver, "
		  "NIC firmware) stays recent_fault this long, s, unless acknowledged (0: never)",
	  .conf = "Recent faults (Documentation/fabteld.rst, \"Recent faults\"): how long a port "
		  "stays recent_fault once clean again; POST /api/v1/ack clears it early." },
	{ TEXT("action_node_failing", "PROGRAM [ARG...]"),
	  .example = "/usr/lib/fabtel/actions/slurm-node",
	  .help = "run when the node turns failing (a port faulty or recent_fault, or a job's "
		  "reason on one at action_on): no shell, the evidence in FABTEL_* variables "
		  "and as JSON on its standard input; none: nothing",
	  .conf = "Actions (Documentation/fabteld.rst, \"Actions\"): a command run when the node "
		  "or a port turns failing, and one when it is healthy again: PROGRAM [ARG...], "
		  "run without a shell as fabteld's user, the evidence in FABTEL_* variables and "
		  "as JSON on its standard input.  The Slurm example drains the node, and resumes "
		  "a node it drained:" },
	{ TEXT("action_node_healthy", "PROGRAM [ARG...]"),
	  .example = "/usr/lib/fabtel/actions/slurm-node",
	  .help = "run when the node is healthy again (and at start when it is)", .conf = "" },
	{ TEXT("action_port_failing", "PROGRAM [ARG...]"), .example = "/usr/local/sbin/port-failing",
	  .help = "run when a port turns failing", .conf = "" },
	{ TEXT("action_port_healthy", "PROGRAM [ARG...]"), .example = "/usr/local/sbin/port-healthy",
	  .help = "run when a port is healthy again", .conf = "" },
	{ TEXT("action_on", "LEVEL"), .def = "failing",
	  .help = "the level at which a target counts as failing: failing or degraded", .conf = "" },
	{ UINT("action_rate_s", action.rate_s, 0, 86400, "60"),
	  .help = "a target's commands run this far apart at least, s; a turn inside waits "
		  "(audited as deferred)", .conf = "" },
	{ UINT("action_timeout_s", action.timeout_s, 1, 3600, "30"),
	  .help = "a command still running this long is killed, s", .conf = "" },
	{ UINT("action_dry_run", action.dry_run, 0, 1, "0"),
	  .help = "1: audit what would run, run nothing", .conf = "" },
	{ TEXT("action_log", "PATH"), .def = "/var/lib/fabtel/actions.log",
	  .help = "the audit log: a JSON line per command run, dry run, deferral or failure; "
		  "off: standard error only", .conf = "" },
	{ HEALTH("degrading_window_s", degrading_window_s, LINK_TREND_MAX_S),
	  .help = "link_degrading: the FEC and symbol error rates over at most this many seconds (up to "
		  STR(LINK_TREND_MAX_S) ")",
	  .conf = "link_degrading (Documentation/recorder.rst, \"Precursors\"): a port whose "
		  "link is up, with FEC-corrected bits at degrading_fec_ppb per 10^9 bits of its "
		  "speed or more (corrected blocks where the NIC counts no bits: a lower bound), "
		  "or PMA symbol errors at degrading_symbols a second or more, over "
		  "degrading_window_s." },
	{ HEALTH("degrading_fec_ppb", degrading_fec_ppb, 1000000000),
	  .help = "link_degrading: FEC-corrected bits per 10^9 bits of the link's speed "
		  "(1000: a pre-FEC BER of 1e-6)", .conf = "" },
	{ HEALTH("degrading_symbols", degrading_symbols, 1000000000),
	  .help = "link_degrading: PMA symbol errors a second", .conf = "" },
	{ OPT("pcie_s", pcie_s, 0, 3600),
	  .help = "PCIe link and AER counters of each RDMA device's function, read period, s "
		  "(0: never; Documentation/nic_health.rst)", .conf = "The PCIe link (speed, width against the function's and its slot's "
		  "maximum) and AER counters of each RDMA device's PCI function, read every "
		  "pcie_s seconds; 0 never." },
	{ TRI("kmsg", kmsg),
	  .help = "driver messages from the kernel log: auto (when /dev/kmsg opens), on (required), "
		  "off (Documentation/driver_messages.rst)",
	  .conf = "Driver messages: follow the kernel log (/dev/kmsg, from its end; opened as "
		  "root) and match the driver patterns of driver_messages.rst; auto when it "
		  "opens, on: fail without it, off: never." },
	{ OPT("kmsg_wedged_s", kmsg_wedged_s, 1, 86400),
	  .help = "a TX timeout, then within this many seconds a lockup in the same driver: "
		  "driver_wedged", .conf = "" },
	{ OPT("module_s", module_s, 0, 86400),
	  .help = "module EEPROM and RoCE config period, s (0: never)",
	  .conf = "Module EEPROM (optics diagnostics) read period, seconds; 0 never." },
	{ OPT("pma_s", pma_s, 0, 3600),
	  .help = "plain sysfs: IB port counters period, s (0: every sample)",
	  .conf = "Without fabtel.ko: the IB port counters (counters/, a MAD to the NIC per "
		  "file) read every pma_s seconds and when the link moves; 0 every sample." },
	{ OPT("fec_s", fec_s, 0, 3600),
	  .help = "without fabtel.ko's FEC: the FEC statistics and mode period (ethtool "
		  "netlink), s (0: every sample)",
	  .conf = "Without fabtel.ko: the FEC statistics and mode (ethtool netlink, a firmware "
		  "command or two per port on a ConnectX) read every fec_s seconds; 0 every "
		  "sample." },
	{ OPT("quiet_every", quiet_every, 1, 10),
	  .help = "plain sysfs: a quiet hw_counters file (one value 10 reads in a row) is read "
		  "every N samples (1: every file each sample)",
	  .conf = "Without fabtel.ko: a hw_counters file that held one value for 10 reads is "
		  "read every quiet_every samples (its first move shows up to quiet_every - 1 "
		  "samples late; when it counts errors, all of its port's files are then taken "
		  "as moving until quiet again); 1 reads every file each sample, 2 was the "
		  "default before." },
	{ OPT("info_every", info_every, 1, 10),
	  .help = "plain sysfs: a moving hw_counters file that counts no error (CNPs, ECN marks, "
		  "ICRC, out_of_buffer, duplicate_request) is read every N samples",
	  .conf = "Without fabtel.ko: a moving hw_counters file that counts no error (CNPs, ECN "
		  "marks, ICRC, out_of_buffer, duplicate_request) is read every info_every "
		  "samples, its rate over that span; an error counter each sample." },
	{ TEXT("port_stats", "auto, files, netlink"), .def = "auto",
	  .help = "plain sysfs: a port's hw_counters in one RDMA netlink message (netlink), one "
		  "file each (files), or netlink with the files where it fails (auto)",
	  .conf = "Without fabtel.ko: a port's hw_counters read in one RDMA netlink message "
		  "(what `rdma statistic show` reads), or one file each; auto takes netlink and "
		  "falls back to the files where the kernel refuses it." },
	{ TEXT("qp_counters", "off, read, auto, peer"), .def = "read",
	  .help = "the NIC's per-QP counter sets (Documentation/qp_counters.rst): off, read "
		  "those that exist, auto (read, and turn auto mode by PID on where a port has "
		  "none, off again at exit), peer (read, and bind each job's QPs into one set "
		  "per peer where a port has none, unbound again at exit)",
	  .conf = "The NIC's own per-QP counter sets (`rdma statistic qp`), per-job evidence: "
		  "off; read (those an operator set up); auto (also turns auto mode by PID on "
		  "where a port has none, and off again at exit); peer (binds each job's QPs "
		  "into one set per remote address, so errors name the peer host; needs the "
		  "BPF qp program).  auto and peer need CAP_NET_ADMIN." },
	{ OPT("qp_counters_s", qp_counters_s, 0, 3600),
	  .help = "counter sets read period, s (0: every sample; one firmware command per "
		  "counter on mlx5)", .conf = "" },
	{ OPT("qp_counters_sets", qp_counters_sets, 1, 64),
	  .help = "qp_counters = peer: counter sets fabteld makes per port, at most (the NIC's "
		  "counter budget; a (job, peer) past it stays on port evidence)", .conf = "" },
	{ UINT("roce_tos", roce_tos, 0, 255, NULL), .example = "106",
	  .help = "the ToS RoCE jobs use (NCCL_IB_TC), checked against each port's DSCP map and "
		  "PFC",
	  .conf = "The ToS (traffic class) RoCE jobs use, as NCCL_IB_TC sets it: checked against "
		  "the DSCP map and PFC of each port (reason misconfigured)." },
	{ TEXT("record_dir", "PATH"), .def = "/var/lib/fabtel/records",
	  .help = "fabtel.ko's flight records fabteld read, kept here (made at start, owned by "
		  "user, 0750), so a restart serves them again; off: not kept",
	  .conf = "Flight records (Documentation/recorder.rst): the ones fabteld read from "
		  "fabtel.ko, kept in this directory (the newest 16), or off." },
	{ TEXT("sysfs_root", "PATH"), .def = "/",
	  .help = "read /sys under this root (a container with the host's /sys mounted there: "
		  "Documentation/kubernetes.rst; tests)" },
	{ TEXT("proc_root", "PATH"), .def = "/",
	  .help = "read /proc under this root (likewise /proc)", .conf = "" },
	/* the prober: Documentation/probes.rst "Settings" */
	{ TRI("probe", probe), .help = "the prober: auto (on when a peer source is set), on, off",
	  .conf = "The prober (Documentation/probes.rst): peer fabteld read at "
		  "/api/v1/probe/endpoints, from probe_peer lines or a peers file." },
	{ TEXT("probe_peer", "HOST:PORT"), .example = "10.0.0.2:9465",
	  .help = "a peer fabteld; repeatable (up to " STR(PROBE_MAX_SOURCES) ")", .conf = "" },
	{ TEXT("probe_peers_file", "PATH"), .example = "/run/fabtel/peers",
	  .help = "a file of HOST:PORT lines", .conf = "" },
	{ TEXT("host_name", "NAME"), .shown = "hostname", .example = "gpu-17",
	  .help = "this host's name in probe documents and labels (default: the host's name)" },
	{ PROBE("probe_rate", rate, 1, 1000, "10"), .help = "probes a second per port",
	  .conf = "How the prober probes (Documentation/probes.rst, \"Settings\")." },
	{ PROBE("probe_timeout_ms", timeout_ms, 10, 10000, "500"),
	  .help = "a probe without reply this long is lost, ms", .conf = "" },
	{ PROBE("probe_window_s", window_s, 1, PROBE_WINDOW_MAX_S, "10"),
	  .help = "loss and RTT percentiles over this many seconds", .conf = "" },
	{ PROBE("probe_max_peers", max_peers, 1, PROBE_MAX_PEERS, STR(PROBE_MAX_PEERS)),
	  .help = "peers per port", .conf = "" },
	{ PROBE("probe_refresh_s", refresh_s, 2, 3600, "10"),
	  .help = "the peers' documents read again, s", .conf = "" },
	{ PROBE("probe_peer_ttl_s", peer_ttl_s, 5, 86400, "60"),
	  .help = "a peer unread this long goes, s", .conf = "" },
	{ PROBE("probe_reply_rate", reply_rate, 1, 100000, "1000"),
	  .help = "requests answered a second per port", .conf = "" },
	{ PROBE("probe_reply_rate_source", reply_rate_source, 1, 100000, "100"),
	  .help = "... and per requesting address", .conf = "" },
	/* the high bit makes a controlled Q_Key, which unprivileged QPs may not use */
	{ PROBE("probe_qkey", qkey, 0, 0x7fffffff, "0x0fab7e11"), .hex = true,
	  .help = "the UD Q_Key (all hosts alike)", .conf = "" },
	{ TEXT("probe_tos", "TOS or DEV/PORT=TOS"), .example = "106",
	  .help = "the probes' ToS: TOS on every port, or DEVICE/PORT=TOS (repeatable); none: "
		  "the RoCE ToS", .conf = "" },
	{ PROBE("probe_sl", sl, 0, 15, "0"), .help = "service level", .conf = "" },
	{ PROBE("probe_loss_pct", loss_pct, 1, 100, "2"),
	  .help = "a pair at or over this loss, %: trouble", .conf = "" },
	{ PROBE("probe_rtt_us", rtt_us, 1, 10000000, "1000"),
	  .help = "a pair at or over this median RTT, µs: trouble", .conf = "" },
	{ TEXT("probe_match", "subnet, all"), .def = "subnet",
	  .help = "the peer endpoints probed: same-subnet ones, or all", .conf = "" },
	{ PROBE("probe_flows", flows, 1, PROBE_MAX_FLOWS, "8"),
	  .help = "flows (UDP source ports) a pair's probes cycle over",
	  .conf = "Each pair's probes cycle over this many ECMP flows (UDP source ports): by flow "
		  "label on mlx5, by one UD QP per flow elsewhere (probe_flow_mode)." },
	{ TEXT("probe_flow_mode", "auto, label, qp"), .def = "auto",
	  .help = "auto, label (mlx5) or qp (one UD QP per flow)", .conf = "" },
	{ TEXT("probe_tls_ca_file", "PATH"), .example = "/etc/fabtel/tls/ca.pem",
	  .help = "the peers' probe documents over HTTPS, their certificates checked against "
		  "this CA (PEM)",
	  .conf = "When the peers serve HTTPS and ask for basic auth (tls_cert_file, "
		  "basic_auth_user above): their certificates checked against this CA (PEM, "
		  "readable by the user fabteld runs as); the certificate must name the address "
		  "fetched unless probe_tls_verify_host = off; the password is the first line of "
		  "the file (read at start, as root, so it may be 0600 root)." },
	{ TEXT("probe_tls_verify_host", "on, off"), .def = "on",
	  .help = "the peer's certificate must name the address fetched", .conf = "" },
	{ TEXT("probe_auth_user", "USER"), .example = "prober",
	  .help = "basic auth towards the peers as this user", .conf = "" },
	{ TEXT("probe_auth_password_file", "PATH"), .example = "/etc/fabtel/prober.password",
	  .help = "the password: the file's first line (read at start, as root; in no page or "
		  "log)", .conf = "" },
};

const size_t settings_count = sizeof(settings) / sizeof(settings[0]);

const struct setting *settings_find(const char *key)
{
	size_t i;

	for (i = 0; i < settings_count; i++)
		if (!strcmp(settings[i].key, key))
			return &settings[i];
	return NULL;
}

const char *settings_default(const struct setting *s, char *buf, size_t len)
{
	struct collect_opts o;
	unsigned int v;

	if (s->def || !s->to_opts)
		return s->def;
	collect_opts_default(&o);
	memcpy(&v, (const char *)&o + s->opts_off, sizeof(v));
	snprintf(buf, len, "%u", v);
	return buf;
}
