#!/usr/bin/env python3
"""tools/qualreport on a fleet (docs/qualreport.md, "Boxes" and "baseline"):
boxes keyed by their identity records, stable test names, baselines made
from several good logs whose tolerances come from their spread. Real logs:
two boots under -icount (figures repeat exactly; RDRAND's statistics and so
the test names' measured values differ) and three plain TCG boots (figures
as noisy as a busy host makes them). Prints TAP version 13."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import ok, diag, done, start, load_tool, write, run, boot, KERNEL  # noqa: E402

start()
QR = load_tool()


def parse(data, name="box", **kw):
    return QR.parse_log(data, name, name + ".log", **kw)


# ---- stable names (the qualreport side of stable test names) ----
for name, want in (
        ("rng: rdrand 90b-markov (H=0.998634 bits/bit (limit 0.991159))", "rng: rdrand 90b-markov"),
        ("geode-trng/tsel0: throughput 5466395 bytes/s (emulated) (4096 bytes in 749305 cycles; T_SEL 0: raw)",
         "geode-trng/tsel0: throughput"),
        ("geode-sb: probe: 1022:2082 at 00:01.2, BAR0 0xa0000000/16K, memory decoding on",
         "geode-sb: probe: 1022:2082 at 00:01.2, BAR0"),
        ("pci: enumeration found 6 functions, a host bridge at 00:00.0", "pci: enumeration found"),
        ("kat: software aes-128-ecb encrypt (FIPS-197 C.1, SP 800-38A F.1.1)", "kat: software aes-128-ecb encrypt"),
        ("padlock: pmm rep montmul 1024-bit known answer", "padlock: pmm rep montmul 1024-bit known answer")):
    got = QR.stable_prefix(name)
    ok(got == want, "stable name of '%s' is '%s'" % (name[:50], want), got)

# ---- boxes keyed by identity ----
def synthetic(identity="", verdict_ok=True, kbps=37000.0):
    lines = ["TAP version 14", "# cryptoqual v1-test image-sha256=" + "ab" * 32]
    lines += [l for l in identity.splitlines() if l]
    lines += ["ok 1 - cpu: CPUID identity decoded (AuthenticAMD family 5 model 10 stepping 2)",
              "# @cipher engine=geode-sb alg=aes-128-cbc mode=cbc key_bits=128 dir=encrypt variant=separate-aligned "
              "bytes=8192 kbps=%.2f cpb=13.51 spread_pct=0.4 reps=3 emulated=0" % kbps,
              "%sok 2 - kat: geode-sb aes-128-cbc encrypt" % ("" if verdict_ok else "not "),
              "1..2", "cryptoqual: %s (%d ok, %d not ok, 0 skipped)" % (
                  ("PASS", 2, 0) if verdict_ok else ("FAIL", 1, 1))]
    return ("\r\n".join(lines) + "\r\n").encode()


NIC_A = "# @nic bdf=00:06.0 id=1106:3053 mac=00:00:24:ca:fe:01\n# @nic bdf=00:07.0 id=1106:3053 mac=00:00:24:ca:fe:02"
SMBIOS = "# @smbios sys_vendor=PC_Engines sys_product=ALIX sys_serial=CQ-TEST-42 board_serial=absent"
PLACEHOLDER = "# @smbios sys_serial=To_be_filled_by_O.E.M. board_serial=0"
d = parse(synthetic(NIC_A), "rack1-slot03")
ok(d["box"] == "mac-000024cafe01" and d["box_key"] == "mac:mac-000024cafe01" and d["log_name"] == "rack1-slot03",
   "a box with NICs (no serial) is keyed by its first station address as the kernel writes it, the file name kept as log_name",
   (d["box"], d["box_key"]))
d = parse(synthetic(SMBIOS), "x")
ok(d["box_key"] == "serial:CQ-TEST-42", "without a MAC, the SMBIOS system serial keys the box", d["box_key"])
d = parse(synthetic(PLACEHOLDER), "rack1-slot04")
ok(d["box_key"] == "file:rack1-slot04" and d["box"] == "rack1-slot04",
   "placeholder serials ('To be filled by O.E.M.', 0) are no identity: the file name is", d["box_key"])
d = parse(synthetic("# @identity version=v1 image_sha256=%s emulate=none mac=00-0D-B9-12-34-56" % ("ab" * 32)), "y")
ok(d["box_key"] == "mac:mac-000db9123456", "a MAC in @identity, dashes and capitals, is read as one", d["box_key"])
d = parse(synthetic(SMBIOS + "\n" + NIC_A), "z")
ok(d["box"] == "CQ-TEST-42", "a real SMBIOS serial comes before the MAC (lib/util/boxkey.c's order)", d["box_key"])
d = parse(synthetic(NIC_A + "\n# @identity version=v1 emulate=none sys_serial=CQ\\x2042 asset=RACK7\\x2fU12 box=RACK7_U12"), "w")
ok(d["box"] == "RACK7_U12" and d["box_key"] == "asset:RACK7_U12" and d["box_info"]["asset"] == "RACK7/U12"
   and d["box_info"]["serial"] == "CQ 42",
   "the kernel's box= key (asset= first) names the box; box_info has the asset and serial unescaped", (d["box_key"], d["box_info"]))
d = parse(synthetic("# @identity version=v1 emulate=none sys_serial=absent box=mac-525400123456\n"
                    "# @nic pci=00:03.0 id=8086:100e kind=e1000 mac=52:54:00:12:34:56"), "qemu-default")
ok(d["box_key"] == "file:qemu-default", "QEMU's default MAC names no box (every VM has it): the file name does",
   d["box_key"])

p1 = write("run-monday.log", synthetic(NIC_A))
p2 = write("run-tuesday.log", synthetic(NIC_A, verdict_ok=False))
p3 = write("other.log", synthetic(SMBIOS))
p4 = write("run-wednesday.log", synthetic(NIC_A))
base = write("fleet-base.json", json.dumps({"schema": "cryptoqual-baseline-1",
                                            "require_tests": ["kat: geode-sb aes-128-cbc encrypt"]}).encode())
rc, out, err = run("compare", "--json", base, p1, p2, p3, p4)
j = json.loads(out) if out.startswith("{") else {"boxes": []}
boxes = {b["box"]: b for b in j["boxes"]}
a = boxes.get("mac-000024cafe01", {})
ok(rc == 1 and len(j["boxes"]) == 2 and a.get("runs") == 3 and a.get("logs") == [p1, p2, p4],
   "compare: two logs of one box (same MAC) are one box with its runs, in argument order",
   json.dumps([(b["box"], b["runs"]) for b in j["boxes"]]))
ok(a.get("result") == "FAIL" and boxes.get("CQ-TEST-42", {}).get("result") == "PASS"
   and any(w.startswith("run-tuesday.log: ") for w in a.get("why", [])) and j.get("failed") == 1,
   "compare: a box fails when any of its runs fails, and says which run", a.get("why"))
rc, out, err = run("compare", base, p1, p4)
ok(rc == 0 and re.search(r"^mac-000024cafe01\s+2\s+PASS", out, re.M) and "1 box(es): 1 passed" in out,
   "compare table: one row per box with its run count", out)
outdir = os.path.join(os.path.dirname(p1), "docs")
rc, out, err = run("parse", "-d", outdir, p1, p2)
ok(rc == 0 and sorted(os.listdir(outdir)) == ["run-monday.json", "run-tuesday.json"],
   "parse -d: one document per log even when both are the same box", os.listdir(outdir) if rc == 0 else err)

# ---- baselines from real logs ----
if not os.path.exists(KERNEL):
    ok(True, "no kernel at %s: the real-log tests are skipped # SKIP run make" % KERNEL)
    done()

ic1 = boot("icount1", ["bench_ms=2"], cpu="max", icount=True)
ic2 = boot("icount2", ["bench_ms=2"], cpu="max", icount=True)
tcg = [boot("tcg%d" % i, ["bench_ms=2"], cpu="max") for i in (1, 2, 3)]
fault = boot("fault", ["selftest=fault-in-test", "bench_ms=2"], cpu="max")
p_ic1, p_ic2 = write("icount1.log", ic1), write("icount2.log", ic2)
p_tcg = [write("tcg%d.log" % i, x) for i, x in enumerate(tcg, 1)]
p_fault = write("fault.log", fault)

# A second boot of the same box whose measured values in test names differ
# (under -icount the two boots are identical): its clock read 0.1 % off.
ic2 = re.sub(rb"(TSC calibrated against PIT channel 2 \()[0-9.]+ MHz", rb"\g<1>1001.000 MHz", ic2)
p_ic2 = write("icount2.log", ic2)
names1 = [t["name"] for t in parse(ic1)["tests"]]
names2 = [t["name"] for t in parse(ic2)["tests"]]
differ = [a for a, b in zip(names1, names2) if a != b]
diag("%d test names differ between the two -icount boots, e.g. %s" % (len(differ), differ[:1]))
b1 = write("b1.json", b"")
rc, out, err = run("baseline", p_ic1, "-o", b1)
ok(rc == 0, "baseline from the first boot", err)
rc, out, err = run("compare", b1, p_ic2)
ok(rc == 0 and len(differ) > 0, "a second good boot of the box passes compare against a baseline from the first "
   "(%d of its test names carry other measured values)" % len(differ), out[-1500:])

b3 = write("b3.json", b"")
rc, out, err = run("baseline", *p_tcg, "-o", b3)
bj = json.load(open(b3)) if rc == 0 else {}
checked = [f for f in bj.get("figures", []) if "min_ratio" in f]
info = [f for f in bj.get("figures", []) if f.get("info")]
ok(rc == 0 and checked and all(f["batch"]["logs"] == 3 for f in bj["figures"] if "batch" in f),
   "baseline from three logs: %d figures checked, %d too noisy to judge (information)" % (len(checked), len(info)), err)
ok(all(f["min_ratio"] <= f["batch"]["min"] / f["baseline"] for f in checked),
   "baseline: each tolerance lets the batch's slowest box through")
rc, out, err = run("compare", b3, *p_tcg)
ok(rc == 0 and "3 box(es): 3 passed" in out, "a baseline from three good logs passes all three", out[-1500:])
rng = [f for f in bj.get("figures", []) if f["record"] == "rng" and f["field"] == "verdict"]
ok(rng and all(f["match"]["source"] == "rdrand" for f in rng), "baseline: the RNG verdicts of rdrand required", rng)

# An injected fault: the fastest checked figure at 40 % of the batch, and
# a boot with a failing test.
slow_fig = max((f for f in checked if f["record"] == "cipher"), key=lambda f: f["baseline"], default=None)
if slow_fig:
    m = slow_fig["match"]
    pat = re.compile(rb"^# @%s .*$" % slow_fig["record"].encode(), re.M)

    def slow(line):
        # One record per row: the figure is the entry of its lists at m's size.
        rec = dict(kv.split(b"=", 1) for kv in line[len("# @x "):].split(b" ") if b"=" in kv)
        sizes = rec.get(b"bytes", b"").split(b",")
        if str(m.get("bytes")).encode() not in sizes:
            return line
        i = sizes.index(str(m["bytes"]).encode())
        if not all(rec.get(k.encode()) == str(v).encode() for k, v in m.items() if k != "bytes"):
            return line
        field = slow_fig["field"].encode()
        values = rec[field].split(b",")
        values[i] = b"%.2f" % (float(values[i]) * 0.4)
        return line.replace(b" %s=%s " % (field, rec[field]), b" %s=%s " % (field, b",".join(values)))
    slowed = pat.sub(lambda mo: slow(mo.group(0)), tcg[0].replace(b"\r\n", b"\n")).replace(b"\n", b"\r\n")
    p_slow = write("tcg1-slow.log", slowed)
    rc, out, err = run("compare", "--json", b3, p_slow, p_fault)
    j = json.loads(out) if out.startswith("{") else {"boxes": []}
    why = [b["why"] for b in j["boxes"]]
    ok(rc == 1 and len(why) == 2 and any("%" in w and "minimum" in w for w in why[0]) and len(why[0]) == 1,
       "compare: a figure slowed to 40% fails that one figure, saying how far it is from the batch", why[:1])
    ok(any("verdict FAIL" in w for w in why[1]), "compare: a boot with a failing test fails", why[1:])
    info_checks = [c for c in j["boxes"][0]["checks"] if "information" in c["detail"]]
    ok(len(info_checks) == len(info) and all(c["ok"] for c in info_checks),
       "compare: noisy figures are reported against the batch as information, never failed",
       info_checks[:2])

# The known-bad test mode and the informational sources: never required.
emu_like = (synthetic() .replace(b"1..2", b"ok 3 - rng: geode-trng/test-mode is a known-bad test mode and the "
                                 b"statistics flag it (975 tests fail)\r\n# @rng source=geode-trng/test-mode "
                                 b"bytes=250000 verdict=fail emulated=0\r\n# @rng source=geode-trng/test-mode bytes=12288 "
                                 b"bytes_per_s=905910 spread_pct=0.0 reps=3 emulated=0\r\n"
                                 b"# @rng source=geode-trng/tsel0 bytes=250000 "
                                 b"verdict=pass emulated=0\r\n1..3")
            .replace(b"(2 ok, 0 not ok", b"(3 ok, 0 not ok"))
p_kb = write("known-bad.log", emu_like)
rc, out, err = run("baseline", p_kb)
fig = json.loads(out).get("figures", []) if rc == 0 else []
srcs = [f["match"]["source"] for f in fig if f["record"] == "rng"]
ok(rc == 0 and srcs == ["geode-trng/tsel0"],
   "baseline: neither a known-bad source's verdict nor its throughput is required (%s)" % srcs, err)
rc, out, err = run("compare", write("kb.json", out.encode()), p_kb)
ok(rc == 0, "compare: the box that made it passes it", out)
done()
