#!/usr/bin/env python3
"""tools/qualreport on soak logs (docs/qualreport.md, "Soak logs"): real
soaks of 3 passes on QEMU -cpu max and the emulated net5501 and C7 (a 1 ms
benchmark: bench=off would make them PARTIAL) read PASS with one entry per
pass (pass 0 the first run, 1..3 the soak's, as the kernel numbers them);
real soaks of the emulated
net5501 and C7 with a fault that starts in soak pass 2
(fault=NAME-from-pass-2) read FAIL naming pass 2; the same logs without
their pass= keys (older images) read the same; baseline and compare take
soak logs. Prints TAP version 13."""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import ok, skip, done, start, load_tool, write, run, boot, KERNEL, EMU_KERNEL  # noqa: E402

start()
QR = load_tool()


def emu_cpu(profile):
    return subprocess.run(["scripts/emu-cpu.sh", profile], capture_output=True, text=True).stdout.strip()


def without_pass_keys(data):
    """The log as an image before records carried pass= wrote it."""
    return re.sub(rb"(\n# @(?!soak )[^\r\n]*) pass=\d+( t=)", rb"\1\2", data)


def unpass(figures):
    return {k: [{f: v for f, v in r.items() if f != "pass" or k == "soak"} for r in rs] for k, rs in figures.items()}


cases = [("max", KERNEL, "max", ["passes=3", "bench_ms=1"], False, None)]
for profile, fault in (("net5501", "rng-stuck"), ("c7", "rng-stuck")):
    cases.append((profile, EMU_KERNEL, emu_cpu(profile), ["emulate=" + profile, "passes=3", "bench_ms=1"], True, None))
    cases.append((profile + "-from-pass-2", EMU_KERNEL, emu_cpu(profile),
                  ["emulate=%s,fault=%s-from-pass-2" % (profile, fault), "passes=3", "bench=off"], True, 2))
logs = {}
for label, kernel, cpu, args, icount, fault_pass in cases:
    # asset= names each boot's box: emulated boxes of one profile share its station addresses
    data = boot("soak-" + label, args + ["asset=soak-" + label], cpu=cpu, kernel=kernel, icount=icount) \
        if os.path.exists(kernel) else None
    if data is None:
        skip("soak of 3 passes on %s" % label, "%s not built (make; make emu)" % kernel)
        continue
    logs[label] = data
    d = QR.parse_log(data, "soak-" + label, "soak-" + label + ".log", allow_emulated=True)
    numbers = [p["pass"] for p in d["passes"]]
    if fault_pass is None:
        ok(d["verdict"] == "PASS" and not any("conflict" in p for p in d["problems"]),
           "%s: a soak of 3 passes reads PASS, no conflicts (%d boots)" % (label, d["boots"]), d["problems"])
        ok(numbers == [0, 1, 2, 3] and all(p["verdict"] == "PASS" for p in d["passes"])
           and d["worst_pass"] is None and all(p["ok"] > 0 for p in d["passes"]),
           "%s: the first run (pass 0) and the soak's passes 1-3, each PASS with its ok count" % label, d["passes"])
    else:
        p2 = d["passes"][2] if len(d["passes"]) > 2 else {}
        ok(d["verdict"] == "FAIL" and d["worst_pass"] == 2 and numbers == [0, 1, 2, 3]
           and [p["verdict"] for p in d["passes"][:2]] == ["PASS", "PASS"]
           and (p2.get("first_failure") or "").startswith("not ok ")
           and any("soak: pass 2 of 3 is the first that did not pass" in p for p in d["problems"]),
           "%s: a fault from soak pass 2 reads FAIL naming pass 2 and its first failing test" % label,
           (d["verdict"], d["worst_pass"], d["passes"], d["problems"][:3]))
    # The kernel keys every record of a soak pass with pass=N; without them
    # (an older image's log) the soak's own lines still cut the passes.
    ok(re.search(rb"\n# @rng [^\r\n]* pass=1 t=", data) and re.search(rb"\n# @soak pass=3 ok=", data),
       "%s: the kernel keys each soak record with its pass" % label)
    old = QR.parse_log(without_pass_keys(data), "k", "k.log", allow_emulated=True)
    ok(old["verdict"] == d["verdict"] and [p["pass"] for p in old["passes"]] == numbers
       and old["worst_pass"] == d["worst_pass"] and unpass(old["figures"]) == unpass(d["figures"]),
       "%s: without pass= keys: the same passes, verdict and first run's figures" % label,
       (old["passes"], old["worst_pass"]))

good, bad = logs.get("c7"), logs.get("c7-from-pass-2")
if good and bad:
    p_good, p_bad = write("soak-c7.log", good), write("soak-c7-p2.log", bad)
    base = os.path.join(os.path.dirname(p_good), "soak-base.json")
    rc, out, err = run("baseline", "--allow-emulated", p_good, "-o", base)
    ok(rc == 0, "baseline: a soak log that passed makes a baseline", err)
    rc, out, err = run("compare", "--allow-emulated", base, p_good, p_bad)
    ok(rc == 1 and re.search(r"^soak-c7 .*PASS", out, re.M)
       and re.search(r"^soak-c7-from-pass-2 .*FAIL\s+verdict FAIL \(soak: pass 2 of 3 first: not ok \d+ - padlock: ", out, re.M),
       "compare: the soak passes its baseline; the one failing from pass 2 fails, led by pass 2 and its first not ok",
       out)
done()
