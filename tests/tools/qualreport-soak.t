#!/usr/bin/env python3
"""tools/qualreport on soak logs (docs/qualreport.md, "Soak logs"): real
soaks of 3 passes on QEMU -cpu max and the emulated net5501 and C7 (a 1 ms
benchmark: bench=off would make them PARTIAL), read PASS with one entry
per pass; the same logs with a failure that starts in a later pass read
FAIL naming that pass; the records' pass=N form reads the same. Prints TAP
version 13."""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import ok, skip, done, start, load_tool, write, run, boot, KERNEL, EMU_KERNEL  # noqa: E402

start()
QR = load_tool()


def parse(data, name="soak"):
    return QR.parse_log(data, name, name + ".log")


def emu_cpu(profile):
    return subprocess.run(["scripts/emu-cpu.sh", profile], capture_output=True, text=True).stdout.strip()


def fail_in_pass(data, k):
    """The log with the first `ok` RNG result after the (k-1)-th "soak: pass
    ... done" line (that is, in pass k) turned into a not ok, and the
    verdict line counting it."""
    text = data.decode("latin-1")
    starts = [m.end() for m in re.finditer(r"# soak: (?:\d+ passes|pass \d+ done[^\r\n]*)\r?\n", text)]
    at = starts[k - 2]
    m = re.compile(r"\nok (\d+) - (rng: \S+ fips-monobit)\r?\n").search(text, at)
    text = text[:m.start()] + "\nnot ok %s - %s (9 of 99 blocks failed)" % (m.group(1), m.group(2)) + \
        text[m.end() - len("\r\n") if text[m.end() - 2] == "\r" else m.end() - 1:]
    v = re.search(r"cryptoqual: PASS \((\d+) ok, 0 not ok", text)
    text = text.replace(v.group(0), "cryptoqual: FAIL (%d ok, 1 not ok" % (int(v.group(1)) - 1))
    return text.encode("latin-1"), int(m.group(1))


def with_pass_keys(data):
    """The log with its pass=K keys dropped and put back by position:
    every record of the soak's pass K gets pass=K before its t= (the
    kernel numbers soak passes from 1; the first run's records have none)."""
    out, n = [], 0
    for line in data.decode("latin-1").split("\n"):
        line = re.sub(r" pass=\d+ t=", " t=", line) if not line.startswith("# @soak ") else line
        if re.match(r"# soak: \d+ passes", line):
            n = 1
        elif re.match(r"# soak: pass (\d+) done", line):
            n += 1
        elif n and line.startswith("# @") and not re.match(r"# @(soak|run|stage|identity|nic|calibration) ", line):
            line = re.sub(r" t=", " pass=%d t=" % n, line, count=1)
        out.append(line)
    return "\n".join(out).encode("latin-1")


def unpass(figures):
    return {k: [{f: v for f, v in r.items() if f != "pass" or k == "soak"} for r in rs] for k, rs in figures.items()}


cases = [("max", KERNEL, "max", ["passes=3", "bench_ms=1"], False)]
for profile in ("net5501", "c7"):
    cases.append((profile, EMU_KERNEL, emu_cpu(profile), ["emulate=" + profile, "passes=3", "bench_ms=1"], True))
for label, kernel, cpu, args, icount in cases:
    data = boot("soak-" + label, args, cpu=cpu, kernel=kernel, icount=icount) if os.path.exists(kernel) else None
    if data is None:
        skip("soak of 3 passes on %s" % label, "%s not built (make; make emu)" % kernel)
        continue
    d = QR.parse_log(data, "soak-" + label, "soak-" + label + ".log", allow_emulated=True)
    ok(d["verdict"] == "PASS" and not any("conflict" in p for p in d["problems"]),
       "%s: a soak of 3 passes reads PASS, no conflicts (%d boots)" % (label, d["boots"]), d["problems"])
    ok([p["pass"] for p in d["passes"]] == [1, 2, 3, 4] and all(p["verdict"] == "PASS" for p in d["passes"])
       and d["worst_pass"] is None and all(p["ok"] > 0 for p in d["passes"]),
       "%s: the first run and the soak's 3 passes, each PASS with its results" % label, d["passes"])
    bad, number = fail_in_pass(data, 3)
    f = QR.parse_log(bad, "soak-" + label, "x.log", allow_emulated=True)
    ok(f["verdict"] == "FAIL" and f["worst_pass"] == 3 and f["passes"][1]["verdict"] == "PASS"
       and f["passes"][2]["first_failure"].startswith("not ok %d - rng: " % number)
       and any("pass 3 of 4 is the first" in p for p in f["problems"]),
       "%s: a failure that starts in pass 3 (the soak's second loop): FAIL naming pass 3 and its test" % label,
       (f["verdict"], f["worst_pass"], f["problems"]))
    ok(re.search(rb"\n# @rng [^\r\n]* pass=1 t=", data) and re.search(rb"\n# @rng [^\r\n]* pass=3 t=", data)
       and not re.search(rb"\n# soak: 3 passes\r?\n(?:(?!# soak: pass 1 done).)*# SKIP", data, re.S),
       "%s: the kernel keys each soak record with its pass and prints no SKIP line again in the soak" % label)
    keyed = QR.parse_log(with_pass_keys(data), "k", "k.log", allow_emulated=True)
    ok(keyed["verdict"] == "PASS" and [p["pass"] for p in keyed["passes"]] == [1, 2, 3, 4]
       and unpass(keyed["figures"]) == d["figures"],
       "%s: records with pass=N: the same passes and the first pass's figures" % label,
       [(t, r) for t in d["figures"] for r in d["figures"][t] if r not in unpass(keyed["figures"]).get(t, [])][:2])
    if label == "max":
        p_soak = write("soak.log", data)
        rc, out, err = run("baseline", p_soak, "-o", os.path.join(os.path.dirname(p_soak), "soak-base.json"))
        ok(rc == 0, "baseline: a soak log that passed makes a baseline", err)
        rc, out, err = run("compare", os.path.join(os.path.dirname(p_soak), "soak-base.json"), p_soak,
                           write("soak-fail.log", bad))
        ok(rc == 1 and re.search(r"soak-fail .*FAIL", out) and "pass 3" in out and re.search(r"soak .*PASS", out),
           "compare: the soak log passes its baseline, the one failing in pass 3 fails naming pass 3", out)
done()
