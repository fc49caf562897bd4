#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-flap.py - make bench's flap stage, the timing part (bench.sh sets
up the lab): N flaps of guest a's fabric link through QEMU's monitor
(set_link fab0 off, then on after DOWN_MS), and for each, on this host's
monotonic clock, how long after `set_link off` was written

  api   fabteld's long poll (/api/v1/events?since=&wait=) answered with a
        link_down of DEVICE, through the forwarded port;
  sysfs a down line appeared in fabtel.ko's link/history, as seen by a
        poller in the guest (5 ms) appending it to a file in the lab
        folder (9p), which this script stats every millisecond.

Both include QEMU delivering the link change to the guest.  Prints the
figures and appends "flap <measure> <value>" lines to RESULTS.

usage: bench-flap.py LABDIR API_PORT HIST_LOG RESULTS [FLAPS] [DOWN_MS] [GAP_MS] [DEVICE]
"""
import json
import os
import socket
import sys
import threading
import time
import urllib.request


def pct(values, p):
    """The p-th percentile (nearest rank) of values."""
    v = sorted(values)
    i = max(1, min(len(v), int(p / 100 * len(v) + 0.999999)))
    return v[i - 1]


class Monitor:
    """QEMU's human monitor on a UNIX socket; answers are read and dropped."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.settimeout(5)
        seen = b""
        while b"(qemu)" not in seen:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("monitor closed")
            seen += chunk
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        self.sock.settimeout(None)
        try:
            while self.sock.recv(4096):
                pass
        except OSError:
            pass

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")


def events(port, since, wait):
    url = f"http://127.0.0.1:{port}/api/v1/events?since={since}&wait={wait}"
    with urllib.request.urlopen(url, timeout=wait + 10) as r:
        return json.load(r)


def wait_api_down(port, since, device, out, deadline):
    """Long-poll until a link_down of device is logged; out['t'] = when."""
    try:
        while time.monotonic() < deadline:
            ans = events(port, since, 30)
            since = max(since, ans.get("next_seq", since + 1) - 1)
            if any(e.get("kind") == "link_down" and e.get("device") == device
                   for e in ans.get("events", [])):
                out["t"] = time.perf_counter_ns()
                return
    except (OSError, ValueError) as e:
        out["err"] = str(e)


def grown_with(path, size0, word):
    """Has path grown past size0 by a line holding word?"""
    if os.stat(path).st_size <= size0:
        return False
    with open(path, "rb") as f:
        f.seek(size0)
        text = f.read().decode(errors="replace")
    return any(f" {word} " in line for line in text.splitlines())


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    labdir, port, hist, results = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    flaps = int(sys.argv[5]) if len(sys.argv) > 5 else 50
    down_ms = int(sys.argv[6]) if len(sys.argv) > 6 else 300
    gap_ms = int(sys.argv[7]) if len(sys.argv) > 7 else 1500
    device = sys.argv[8] if len(sys.argv) > 8 else "rxa"

    mon = Monitor(os.path.join(labdir, "a", "monitor.sock"))
    api_ms, sysfs_ms, missed = [], [], []
    for i in range(flaps):
        # since is the last seq we have: the next event is next_seq
        since = max(0, events(port, 0, 0).get("next_seq", 1) - 1)
        size0 = os.stat(hist).st_size
        got = {}
        th = threading.Thread(target=wait_api_down,
                              args=(port, since, device, got, time.monotonic() + 20))
        th.start()
        time.sleep(0.1)		# the long poll is held by now
        t0 = time.perf_counter_ns()
        mon.send("set_link fab0 off")
        t_sysfs = None
        up_at = t0 + down_ms * 1_000_000
        sent_up = False
        while time.perf_counter_ns() - t0 < 15_000_000_000:
            now = time.perf_counter_ns()
            if t_sysfs is None and grown_with(hist, size0, "down"):
                t_sysfs = now
            if not sent_up and now >= up_at:
                mon.send("set_link fab0 on")
                sent_up = True
            if t_sysfs is not None and sent_up and not th.is_alive():
                break
            time.sleep(0.001)
        if not sent_up:
            mon.send("set_link fab0 on")
        th.join(25)
        if "t" in got:
            api_ms.append((got["t"] - t0) / 1e6)
        else:
            missed.append(f"flap {i + 1}: api {got.get('err', 'no link_down')}")
        if t_sysfs is not None:
            sysfs_ms.append((t_sysfs - t0) / 1e6)
        else:
            missed.append(f"flap {i + 1}: no down line in link/history")
        # let the link come up (an up line) and settle before the next one
        end = time.monotonic() + 10
        while time.monotonic() < end and not grown_with(hist, size0, "up"):
            time.sleep(0.005)
        time.sleep(gap_ms / 1000)
        print(f"  flap {i + 1}/{flaps}: api "
              f"{api_ms[-1] if 't' in got else float('nan'):.1f} ms, sysfs "
              f"{sysfs_ms[-1] if t_sysfs is not None else float('nan'):.1f} ms", flush=True)

    with open(results, "a") as r:
        for name, v in (("api", api_ms), ("sysfs", sysfs_ms)):
            if not v:
                continue
            line = (f"flap {name}: n={len(v)} min {min(v):.1f} p50 {pct(v, 50):.1f} "
                    f"p99 {pct(v, 99):.1f} max {max(v):.1f} ms")
            print(line)
            r.write(f"flap {name}_ms_p50 {pct(v, 50):.1f}\n")
            r.write(f"flap {name}_ms_p99 {pct(v, 99):.1f}\n")
            r.write(f"flap {name}_n {len(v)}\n")
        r.write(f"flap missed {len(missed)}\n")
    for m in missed:
        print("  missed: " + m)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
