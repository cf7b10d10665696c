#!/usr/bin/env python3
"""Boot test: the network does not change the benchmark. Under `qemu
-icount shift=0` the TSC counts guest instructions, so a boot with the
report going out (QEMU's user network, rsyslogd and in.tftpd on
127.0.0.1: scripts/net-run.py) and one with net=off must print the same
benchmark figures: lines are queued while a cell is timed and sent
between cells (kernel/run/net_report.c). Compared as
tests/boot/bench-determinism.t compares two boots: the benchmark's part of
the log without times since start; the network's own lines left out."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlib  # noqa: E402
from netlib import tap, Boot  # noqa: E402

netlib.start()

ARGS = ["bench_ms=1", "rng_bytes=2500"]
SKIP_LINE = re.compile(r"^# (@stage |@run |summary: run |heartbeat: |@netreport |warning: net:)")


def bench_part(b):
    lines = [ln.decode("ascii", "replace") for ln in b.lines]
    first = next((i for i, ln in enumerate(lines) if ln.startswith("# bench: clock:")), None)
    if first is None:
        return []
    # The clock line's PIT and PM timer figures follow the calibration
    # window's phase against the timers' ticks, which moves with every
    # instruction before it (the command lines differ): only the TSC's rate
    # is compared, as it is what every figure is counted in.
    return [re.sub(r"^(# bench: clock: TSC at [0-9.]+ MHz) \(.*", r"\1", re.sub(r" t=[0-9.]+$", "", ln))
            for ln in lines[first:]
            if (ln.startswith("# ") or re.match(r"^(not )?ok \d+ - bench: ", ln)) and not SKIP_LINE.match(ln)]


on = Boot("net-on", ["--icount", "--timeout", "400"], ARGS)
off = Boot("net-off", ["--icount", "--timeout", "400", "--net", "lan", "--lan", "silent"], ARGS + ["net=off"])
tap.ok(on.status == 0 and off.status == 0, "both icount boots end in PASS", (on.stdout, off.stdout))
rep = on.grep(r"^# @netreport ")
tap.ok(rep and "status=up" in rep[0] and " sent=" in rep[0] and " sent=0 " not in rep[0],
       "the network was up and sent the report in the first boot", rep)
a, b = bench_part(on), bench_part(off)
cipher = [ln for ln in a if ln.startswith("# @cipher ")]
tap.ok(len(cipher) >= 15, "the cipher records are there (%d)" % len(cipher))
diff = [i for i in range(max(len(a), len(b))) if (a[i] if i < len(a) else None) != (b[i] if i < len(b) else None)]
tap.ok(a and not diff, "the whole benchmark output is identical with the network on and off (%d lines)" % len(a),
       "\n".join("line %d:\n  on:  %s\n  off: %s" % (i, a[i] if i < len(a) else "(none)", b[i] if i < len(b) else "(none)")
                 for i in diff[:4]))
tap.done()
