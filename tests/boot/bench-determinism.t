#!/usr/bin/env python3
"""Boot test: under `qemu -icount shift=0,sleep=off` the TSC counts guest
instructions (1 GHz of virtual time), so two boots must print identical
benchmark figures: cycles per byte and, the calibration being exact,
kB/s too. bench_ms=1 keeps both boots short; the counts are what matter.
Tracked: the software AES-128-CBC encryption cycles (= instructions) per
byte at 8192 bytes. Env: CQ_KERNEL, CQ_BUILD (bench_shape.start_boot_test)."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_shape import bench_boot, bench_records, num, start_boot_test, tap  # noqa: E402

KERNEL = start_boot_test()


def bench_part(lines):
    """The benchmark's part of a log: records, tables and its results."""
    first = next((i for i, l in enumerate(lines) if l.startswith("# bench: clock:")), None)
    if first is None:
        return []
    # Times since start (t=, stage durations, heartbeats) follow the CMOS
    # clock reads and the host, not the benchmark: left out of the comparison.
    return [re.sub(r" t=[0-9.]+$", "", l, count=1) for l in lines[first:]
            if (l.startswith("# ") or re.search(r"^(not )?ok \d+ - bench: ", l))
            and not re.search(r"^# (@stage |@run |summary: run |heartbeat: )", l)]


boots, log1 = [], []
for i in (1, 2):
    status, verdict, log = bench_boot(KERNEL, "--cpu max --icount --timeout 240", "bench_ms=1")
    tap.diag("boot %d: %s" % (i, verdict))
    tap.ok(status == 0, "icount boot %d ends in PASS (boot-qemu exit %d)" % (i, status))
    boots.append(bench_part(log))
    if i == 1:
        log1 = log
a, b = boots
ca = [l for l in a if l.startswith("# @cipher ")]
cb = [l for l in b if l.startswith("# @cipher ")]
tap.ok(len(ca) >= 15, "boot 1 printed the cipher records, one per table row (%d)" % len(ca))
tap.ok(" ".join(ca) == " ".join(cb),
       "the @cipher records (kB/s, spread and operation counts per size) are identical in both boots",
       "\n".join("boot 1: %s\nboot 2: %s" % (ca[i], cb[i] if i < len(cb) else "(none)")
                 for i in range(len(ca)) if (cb[i] if i < len(cb) else "") != ca[i]))
diff = [i for i in range(len(a)) if a[i] != (b[i] if i < len(b) else "")]
tap.ok(len(a) > 0 and len(a) == len(b) and not diff,
       "the whole benchmark output (tables, cost model, hash, RNG) is identical",
       "\n".join("line %d:\n  boot 1: %s\n  boot 2: %s" % (i, a[i], b[i] if i < len(b) else "(none)")
                 for i in diff[:5]))
cells = bench_records(log1)     # with the @calibration record
sw = next((r for r in cells if r[0] == "cipher" and r[1].get("engine") == "software" and
           r[1].get("alg") == "aes-128-cbc" and r[1].get("dir") == "encrypt" and
           r[1].get("variant") == "separate-aligned" and num(r[1].get("bytes")) == 8192), None)
cpb = sw[1].get("cpb") if sw else None
tap.ok(cpb is not None, "software aes-128-cbc encrypt 8192-byte cell present (cycles per byte from kB/s and tsc_hz)")
tap.diag("software aes-128-cbc encrypt 8192 bytes: %s cycles/byte" % (cpb if cpb is not None else "none"))
tap.done()
