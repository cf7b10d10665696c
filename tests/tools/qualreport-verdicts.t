#!/usr/bin/env python3
"""tools/qualreport's verdict rules against damaged logs (docs/qualreport.md,
"Verdicts"): no damage, alone or combined, may turn a log whose box failed
into a PASS, and `compare` must fail every such box. Real logs from QEMU:
a PASS (-cpu max, a 1 ms benchmark: bench=off would make it PARTIAL), a
FAIL (selftest=fault-in-test), a crash
(selftest=fault-outside) and, when built, the emulation image on the
net5501 profile; each is damaged in memory. Prints TAP version 13."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import (ok, skip, skip_all, done, start, load_tool, write, run, boot,  # noqa: E402
                            KERNEL, EMU_KERNEL)

start()
QR = load_tool()


def parse(data, name="box", **kw):
    return QR.parse_log(data, name, name + ".log", **kw)


def lines_of(data):
    return data.split(b"\r\n")


def join(lines):
    return b"\r\n".join(lines)


def replace_line(data, pattern, new, count=1):
    """The first line matching the regex pattern replaced by new (bytes) or
    dropped (None)."""
    out, n = [], 0
    for ln in lines_of(data):
        if n < count and re.search(pattern, ln):
            n += 1
            if new is not None:
                out.append(new(ln) if callable(new) else new)
            continue
        out.append(ln)
    assert n, pattern
    return join(out)


PASS = boot("pass", ["bench_ms=1"], cpu="max")
if PASS is None:
    skip_all("no kernel at %s (run make)" % KERNEL)
FAIL = boot("fail", ["selftest=fault-in-test", "bench=off"], cpu="pentium,+cmov")
CRASH = boot("crash", ["selftest=fault-outside", "bench=off"], cpu="pentium,+cmov")
EMU = boot("emu-net5501", ["emulate=net5501", "bench_ms=1"], cpu="pentium,+cmov", kernel=EMU_KERNEL, icount=True)

ok(parse(PASS)["verdict"] == "PASS", "the clean PASS log reads PASS", parse(PASS)["problems"])
ok(parse(FAIL)["verdict"] == "FAIL", "the clean FAIL log reads FAIL", parse(FAIL)["problems"])
ok(parse(CRASH)["verdict"] == "CRASH", "the clean crash log reads CRASH", parse(CRASH)["problems"])

GARBLE = b"\xff\xfe\x00\x9b"
noise = b"comBIOS ver. 1.33  20070103\r\n\x1b[2J  Booting `cryptoqual'\r\n"

# Every case: (label, log bytes, wanted verdicts).
NOT_PASS = ("FAIL", "INCONSISTENT", "INCOMPLETE", "CRASH", "NO-REPORT", "EMULATED")
cases = []


def case(label, data, want=NOT_PASS, **kw):
    cases.append((label, data, want, kw))


tap = rb"^TAP version 1[34]$"
# -- a PASS boot, then a FAIL boot whose start marker is damaged or lost --
case("PASS boot, then a FAIL boot with its 'TAP version 14' garbled",
     PASS + noise + replace_line(FAIL, tap, b"TAP ver" + GARBLE + b"sion 14"), ("FAIL",))
case("PASS boot, then a FAIL boot with its 'TAP version 14' lost",
     PASS + noise + replace_line(FAIL, tap, None), ("FAIL",))
case("a FAIL boot with its start lost, then a PASS boot",
     replace_line(FAIL, tap, None) + noise + PASS, ("FAIL",))
case("PASS boot, then a crashed boot with its start lost", PASS + replace_line(CRASH, tap, None), ("FAIL",))
case("PASS boot, then a FAIL boot; --boot 1 still sees the failure", PASS + noise + FAIL, ("FAIL",), boot_choice="1")
case("PASS boot, then a FAIL boot cut before its verdict, start garbled",
     PASS + replace_line(FAIL, tap, GARBLE)[: len(FAIL) - 60], ("FAIL",))
# -- plan and verdict counts that contradict the results --
m = re.search(rb"cryptoqual: PASS \((\d+) ok, 0 not ok, (\d+) skipped[;)]", PASS)
P_OK, P_SKIP = int(m.group(1)), int(m.group(2))
P_TOTAL = P_OK + P_SKIP
case("plan 1..%d with %d results" % (P_TOTAL + 2, P_TOTAL),
     replace_line(PASS, rb"^1\.\.\d+$", b"1..%d" % (P_TOTAL + 2)), ("INCONSISTENT",))
case("plan 1..%d with %d results" % (P_TOTAL - 18, P_TOTAL),
     replace_line(PASS, rb"^1\.\.\d+$", b"1..%d" % (P_TOTAL - 18)), ("INCONSISTENT",))
case("'Bail out!' followed by a PASS verdict",
     replace_line(PASS, rb"^1\.\.\d+$", lambda ln: b"Bail out! Invalid Opcode\r\n" + ln), ("INCONSISTENT",))
more = b"cryptoqual: PASS (%d ok, 0 not ok, %d skipped)" % (P_OK + 1, P_SKIP)
case("verdict counts one ok too many, with an unrelated comment line garbled",
     replace_line(replace_line(PASS, rb"^(?:# )?cryptoqual: PASS", more), rb"^# loader:", lambda ln: ln + GARBLE),
     ("INCONSISTENT",))
less = b"cryptoqual: PASS (%d ok, 0 not ok, %d skipped)" % (P_OK - 1, P_SKIP)
case("verdict counts one ok too few, with an unrelated comment line garbled",
     replace_line(replace_line(PASS, rb"^(?:# )?cryptoqual: PASS", less), rb"^# cpu\.", lambda ln: ln + GARBLE),
     ("INCONSISTENT",))
case("a result line lost without a trace (no damaged line where it stood)",
     replace_line(PASS, rb"^ok 3 - ", None), ("INCONSISTENT",))
case("a result line lost, a garbled comment line elsewhere",
     replace_line(replace_line(PASS, rb"^ok 3 - ", None), rb"^# loader:", lambda ln: GARBLE + ln), ("INCONSISTENT",))
case("a result numbered past the plan", replace_line(PASS, rb"^ok 5 - ", lambda ln: ln.replace(b"ok 5 ", b"ok 500 ", 1)),
     ("INCONSISTENT",))
case("a second, different verdict line after the verdict",
     PASS + b"cryptoqual: PASS (1 ok, 0 not ok, 0 skipped)\r\n", ("INCONSISTENT",))
# -- verdicts swapped or pasted between boots --
f_verdict = re.search(rb"cryptoqual: FAIL \([^)]*\)", FAIL).group(0)
p_verdict = re.search(rb"cryptoqual: PASS \([^)]*\)", PASS).group(0)
fail_with_pass = replace_line(FAIL, rb"^(?:# )?cryptoqual: FAIL", p_verdict)
pass_with_fail = replace_line(PASS, rb"^(?:# )?cryptoqual: PASS", f_verdict)
case("a FAIL log with a PASS verdict line pasted over its own", fail_with_pass, ("INCONSISTENT",))
case("a PASS log with a FAIL verdict line pasted over its own", pass_with_fail, ("INCONSISTENT",))
case("two boots with their verdict lines swapped", fail_with_pass + noise + pass_with_fail)
case("two boots with their verdict lines swapped (other order)", pass_with_fail + noise + fail_with_pass)
case("a FAIL log with a PASS verdict pasted and its 'not ok' line garbled",
     replace_line(fail_with_pass, rb"^not ok ", lambda ln: ln[:3] + GARBLE + ln[3:]))
case("a FAIL log with a PASS verdict pasted and its 'not ok' line lost",
     replace_line(fail_with_pass, rb"^not ok ", None), ("INCONSISTENT",))
case("a PASS verdict line appended to a crashed log", CRASH + p_verdict + b"\r\n")
# -- two boots, both damaged --
case("a FAIL boot cut in the middle, then a PASS boot with its start garbled",
     FAIL[: FAIL.index(b"\r\nnot ok ") + 40] + b"\r\n" + replace_line(PASS, tap, GARBLE))
case("a FAIL boot with its start and verdict garbled, then a PASS boot",
     replace_line(replace_line(FAIL, tap, GARBLE), rb"^(?:# )?cryptoqual: FAIL", lambda ln: ln[:5] + GARBLE + ln[5:])
     + noise + PASS, ("FAIL",))
case("a PASS boot cut, then a FAIL boot with its verdict garbled",
     PASS[: len(PASS) // 2] + b"\r\n" + replace_line(FAIL, rb"^(?:# )?cryptoqual: FAIL", GARBLE))
case("a 'not ok' with garbage in front of it, in a PASS log's noise", GARBLE + b"not ok 7 - x\r\n" + PASS, ("FAIL",))
case("a garbled 'not ok' line inside a PASS boot",
     replace_line(PASS, rb"^# loader:", lambda ln: ln + b"\r\n" + GARBLE + b"not ok 7 - x"), ("FAIL",))
# -- the emulation image --
synthetic_emu = replace_line(PASS, rb"^# @identity ", lambda ln: ln.replace(b"emulate=none", b"emulate=net5501"))
case("a log whose @identity says emulate=net5501", synthetic_emu, ("EMULATED",))
case("a log with one record emulated=1",
     replace_line(PASS, rb"^# @calibration ", lambda ln: ln + b" emulated=1"), ("EMULATED",))
if EMU is not None:
    case("a real log of the emulation image (net5501)", EMU, ("EMULATED",))

# -- boot boundaries by line --
P_END = PASS.rindex(b"\r\n", 0, len(PASS) - 2) + 2      # start of the PASS verdict line
F_END = FAIL.rindex(b"\r\n", 0, len(FAIL) - 2) + 2
fail_glued = FAIL[:-2] + PASS                               # FAIL verdict, its line end lost, then a PASS boot
case("a FAIL verdict glued to the next boot's 'TAP version 13' (its line end lost at a reset)", fail_glued, ("FAIL",))
case("... and only the glued line and the PASS boot after it captured", FAIL[F_END:-2] + PASS, ("FAIL",))
cmdline_split = replace_line(PASS, rb"^# cmdline: ", lambda ln: ln + b" TAP version 13")
case("a PASS log cut after a command line that ends in 'TAP version 13', then a FAIL boot's results",
     cmdline_split[: cmdline_split.index(b"TAP version 13\r\n", 10) + 16] + FAIL[FAIL.index(b"\r\n") + 2:])
lost_two = PASS
for k in (2, 3):
    lost_two = replace_line(lost_two, rb"^ok %d - " % (10 + k), None)
case("two results lost and one result line garbled beside them",
     replace_line(lost_two, rb"^ok 11 - ", lambda ln: ln[:4] + GARBLE + ln[4:]), ("INCONSISTENT",))

names = []
for label, data, want, kw in cases:
    d = parse(data, **kw)
    ok(d["verdict"] in want and d["verdict"] != "PASS",
       "%s: %s" % (label, d["verdict"]), "\n".join(d["problems"][:6]))
    names.append(write("case%02d.log" % len(names), data))

# A line that is the marker only after its noise is dropped starts a boot;
# a command line ending in the marker text does not; a PASS verdict glued
# to the next marker is its own boot's verdict.
d = parse(cmdline_split)
ok(d["boots"] == 1 and d["verdict"] == "PASS",
   "a command line that ends in 'TAP version 13' starts no boot: one boot, PASS", d["problems"][:4])
d = parse(PASS[:-2] + b"\x1b[2J\x1b[H\xff" + PASS)
ok(d["boots"] == 2 and d["verdict"] == "PASS" and d["earlier_boots"][0]["verdict"] == "PASS"
   and not any("earlier boot" in p for p in d["problems"]),
   "a PASS verdict glued (escapes and a noise byte between) to the next boot's marker: two PASS boots",
   d["problems"][:4])
d = parse(replace_line(PASS, rb"^ok 11 - ", lambda ln: ln[:4] + GARBLE + ln[4:]))
ok(d["verdict"] == "PASS" and d["integrity"]["missing_results"] == [11],
   "one garbled result line explains its own missing result: PASS", d["problems"][:4])

# compare: a baseline made from the clean PASS log passes it and fails
# every damaged one.
base = os.path.join(os.path.dirname(names[0]), "base.json")
rc, out, err = run("baseline", write("clean.log", PASS), "-o", base)
ok(rc == 0, "baseline from the clean PASS log", err)
rc, out, err = run("compare", "--json", base, write("clean2.log", PASS), *[n for n, c in zip(names, cases) if not c[3]])
j = json.loads(out) if out.startswith("{") else {"boxes": []}
results = [b["result"] for b in j["boxes"]]
ok(rc == 1 and results[:1] == ["PASS"] and results[1:] == ["FAIL"] * (len(results) - 1) and len(results) > 20,
   "compare: the clean log passes, all %d damaged logs fail, exit 1" % (len(results) - 1),
   "\n".join("%s %s %s" % (b["box"], b["verdict"], b["result"]) for b in j["boxes"]))
ok(all(b["checks"][0]["kind"] == "verdict" and not b["checks"][0]["ok"] for b in j["boxes"][1:]),
   "compare: each damaged log fails on its verdict, whatever the baseline requires")

# compare never accepts a verdict but PASS, even from a baseline that
# requires nothing.
empty = write("empty.json", b'{"schema": "cryptoqual-baseline-1"}')
incons = write("inconsistent.log", replace_line(PASS, rb"^1\.\.\d+$", b"1..%d" % (P_TOTAL + 2)))
rc, out, err = run("compare", empty, incons)
ok(rc == 1 and "verdict INCONSISTENT" in out, "compare: an INCONSISTENT log fails against an empty baseline", out)
emu_path = write("emulated.log", synthetic_emu)
rc, out, err = run("compare", empty, emu_path)
ok(rc == 1 and "EMULATED" in out, "compare: an emulated log fails as a real box", out)
rc, out, err = run("compare", "--allow-emulated", empty, emu_path)
ok(rc == 0, "compare --allow-emulated: the operator may compare it", out + err)
rc, out, err = run("parse", "--allow-emulated", emu_path)
d = json.loads(out)[0] if rc == 0 else {}
ok(d.get("verdict") == "PASS" and d.get("emulated", {}).get("profile") == "net5501",
   "parse --allow-emulated: PASS, and the document still says emulated (net5501)", d.get("emulated"))
if EMU is None:
    skip("the emulation image's own log", "no %s (make emu)" % EMU_KERNEL)

done()
