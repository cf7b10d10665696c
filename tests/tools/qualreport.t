#!/usr/bin/env python3
"""Tests of tools/qualreport (docs/qualreport.md), printing TAP version 13.

One real log comes from booting the kernel in QEMU here (scripts/boot-qemu.sh,
a short benchmark: bench_ms=2); damaged variants of it are made in memory:
LF and CR line ends, firmware noise before the report, cuts at every line
and inside lines, garbage bytes and serial-speed mismatch, mojibake,
duplicated and conflicting lines, two boots in one log. Synthetic snippets
in the documented line forms (docs/report-format.md) test every record type,
compare's tolerances and plot's lines, whatever the kernel prints today.
"""

import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import ok, diag, done, start, load_tool, write, run, BUILD, KERNEL, TMP  # noqa: E402

start()
QR = load_tool()


def parse(data, name="box", boot="last"):
    return QR.parse_log(data, name, name + ".log", boot)


def essence(doc):
    """What must not change when only the transport damages a log."""
    d = {k: doc[k] for k in ("verdict", "complete", "identity", "summary", "plan", "figures")}
    d["tests"] = [{k: v for k, v in t.items() if k != "line"} for t in doc["tests"]]   # line numbers move
    return d


# ---- a synthetic report in the documented line forms ----

def synthetic(records="", results=None, verdict=None, identity=True, extra=""):
    results = results if results is not None else [
        "ok 1 - cpu: CPUID identity decoded (AuthenticAMD family 5 model 10 stepping 2)",
        "ok 2 - pci: enumeration found 5 functions, a host bridge at 00:01.0",
        "ok 3 - kat: geode-sb aes-128-cbc encrypt (FIPS-197 C.1)",
        "ok 4 - rng: padlock source # SKIP no PadLock RNG"]
    n_ok = sum(1 for r in results if r.startswith("ok") and "# SKIP" not in r)
    n_not = sum(1 for r in results if r.startswith("not ok"))
    n_skip = sum(1 for r in results if "# SKIP" in r)
    if verdict is None:
        verdict = "cryptoqual: %s (%d ok, %d not ok, %d skipped)" % (
            "FAIL" if n_not else "PASS", n_ok, n_not, n_skip)
    lines = ["TAP version 14"]
    if identity:
        lines.append("# cryptoqual v1.0-test image-sha256=" + "ab" * 32)
    lines += ["# loader: GRUB 2.06", "# cpu.vendor=AuthenticAMD", "# cpu.family=5",
              "# cpu.brand=Geode(TM) Integrated Processor by AMD PCS",
              "# pci: BB:DD.F VVVV:DDDD CC.SS.PP REV    [bus=PP,SS,UU] [BARn=KIND:BASE/SIZE ...] CLASS-NAME",
              "# pci: 00:01.0 1022:2080 06.00.00 rev 33 Host bridge",
              "# pci: 00:01.2 1022:2082 10.10.00 rev 00 BAR0=mem32:0xa0000000/16K Entertainment encryption device"]
    lines += results[:1] + [r for r in records.splitlines() if r] + results[1:]
    lines += [l for l in extra.splitlines() if l]
    lines += ["1..%d" % len(results), verdict]
    return ("\r\n".join(lines) + "\r\n").encode()


def cipher(engine, alg, nbytes, kbps, direction="encrypt", variant="separate-aligned"):
    return ("# @cipher engine=%s alg=%s mode=%s key_bits=%s dir=%s variant=%s bytes=%d kbps=%.2f "
            "cpb=%.2f spread_pct=0.4 reps=3 emulated=0"
            % (engine, alg, alg.split("-")[2], alg.split("-")[1], direction, variant, nbytes, kbps,
               500000.0 / kbps))


# ======================================================================
# 1. Synthetic: line forms and records
# ======================================================================

RECORDS = "\n".join([
    "# @calibration tsc_hz=500000000 pit_hz=499998000 pmtimer_hz=0 disagreement_ppm=4",
    "# @identity version=v1.0-test image_sha256=" + "ab" * 32 + " emulate=none",
    cipher("geode-sb", "aes-128-cbc", 16, 1200.5),
    cipher("geode-sb", "aes-128-cbc", 8192, 37000.0),
    cipher("software", "aes-128-cbc", 8192, 4100.25),
    "# @cost engine=geode-sb alg=aes-128-cbc dir=encrypt fixed_cycles=2400 cycles_per_byte=13.50 "
    "breakeven_bytes=64 vs=software",
    "# @hash engine=software alg=sha256 bytes=8192 kbps=2100.00 cpb=238.10 spread_pct=1.0 reps=3 emulated=0",
    "# @rng source=geode-trng bytes=20000 bytes_per_s=1500 fips_blocks=1 monobit_fail=0 poker_fail=0 "
    "runs_fail=0 longrun_fail=0 continuous_fail=0 mcv_h=7.9512 markov_h=7.9900 shannon_h=7.9990 "
    "chi_square=250.3 verdict=pass emulated=0 future_key=whatever",
    "# @rng source=geode-trng bytes=49152 bytes_per_s=1480 spread_pct=2.5 reps=3 emulated=0",
    "# @rng source=rdrand bytes=36864 bytes_per_s=16056207 spread_pct=13.3 reps=3 emulated=0",
    "# @montmul engine=padlock-pmm bits=1024 ops_per_s=812 cycles_per_op=1231527 emulated=0",
    "# @newtype alpha=1 beta=two",
    "# @cipher engine=bad alg=x bytes==3 kbps 12",
    "# a human table line: do not parse",
    "# warning: geode-sb: DMA took 3 retries",
])
doc = parse(synthetic(RECORDS), "synth")
ok(doc["verdict"] == "PASS" and doc["complete"], "synthetic report: PASS and complete", doc["problems"])
ok(doc["identity"]["version"] == "v1.0-test" and doc["identity"]["image_sha256"] == "ab" * 32,
   "build identity line: version and image-sha256")
ok(doc["identity"]["cpu"] == {"vendor": "AuthenticAMD", "family": 5,
                              "brand": "Geode(TM) Integrated Processor by AMD PCS"},
   "cpu.KEY=VALUE lines (decimal integers as numbers)", doc["identity"]["cpu"])
pci = doc["identity"]["pci"]
ok([p["id"] for p in pci] == ["1022:2080", "1022:2082"] and pci[1]["bars"] == {"BAR0": "mem32:0xa0000000/16K"}
   and pci[1]["name"] == "Entertainment encryption device" and pci[1]["class"] == "10.10.00",
   "PCI rows (header skipped; id, BARs, class, name)", pci)
ok(doc["identity"].get("record") == {"version": "v1.0-test", "image_sha256": "ab" * 32, "emulate": "none"},
   "@identity record goes to identity.record")
f = doc["figures"]
ok(f.get("calibration") == [{"tsc_hz": 500000000, "pit_hz": 499998000, "pmtimer_hz": 0, "disagreement_ppm": 4}],
   "@calibration record, integers", f.get("calibration"))
ok(len(f.get("cipher", [])) == 3 and f["cipher"][1]["kbps"] == 37000.0 and f["cipher"][1]["bytes"] == 8192
   and f["cipher"][1]["engine"] == "geode-sb" and isinstance(f["cipher"][0]["kbps"], float),
   "@cipher records: three cells, numbers converted (the malformed one dropped)", f.get("cipher"))
# Today's form: one record per table row, lists with an entry per size.
ROWS = "\n".join([
    "# @calibration tsc_hz=1000000000 pit_hz=1000000000 pmtimer_hz=0 disagreement_ppm=0",
    "# @cipher engine=padlock-ace alg=aes-128-cbc dir=decrypt variant=separate-aligned emulated=1 reps=3 "
    "bytes=16,8192 kbps=800.50,8492.46 spread_pct=0.0,1.5 ops=2000,10 t=4.2",
    "# @hash engine=padlock-phe alg=sha1 emulated=1 reps=3 bytes=8192 kbps=5789.69 spread_pct=0.0 ops=7 t=5.0",
    "# @cipher engine=geode-sb alg=aes-128-ecb dir=encrypt variant=dual-context emulated=1 reps=3 "
    "bytes=8192 kbps=20000.00 spread_pct=0.0 ops=4 t=4.9",
    "# @cipher engine=bad alg=aes-128-ecb dir=encrypt variant=separate-aligned emulated=0 reps=3 "
    "bytes=16,64 kbps=1.00 spread_pct=0.0,0.0 ops=1,1",
])
rdoc = parse(synthetic(ROWS), "rows")
rc_ = [c for c in rdoc["figures"].get("cipher", []) if c["variant"] != "dual-context"]
dual = [c for c in rdoc["figures"].get("cipher", []) if c["variant"] == "dual-context"]
ok(len(dual) == 1 and dual[0]["cycles"] == 4 * 2 * 8192 * 10**9 // (20000 * 1000) and dual[0]["cpb"] == 50.0,
   "a dual-context cell's cycles count both requests (ops x 2 x bytes x cpb)", dual)
ok([(c["bytes"], c["kbps"], c["spread_pct"], c["ops"]) for c in rc_] == [(16, 800.5, 0.0, 2000), (8192, 8492.46, 1.5, 10)]
   and all(c["engine"] == "padlock-ace" and c["dir"] == "decrypt" and c["emulated"] == 1 for c in rc_),
   "a row record gives one cell per entry of its lists, the row's other fields in each", rc_)
ok([(c.get("mode"), c.get("key_bits"), c.get("cpb"), c.get("cycles")) for c in rc_]
   == [("cbc", 128, 1249.22, round(2000 * 16 * 1e9 / 800.5e3)), ("cbc", 128, 117.75, round(10 * 8192 * 1e9 / 8492.46e3))],
   "a row's cells get what a per-cell record printed: mode and key_bits from alg, cpb and cycles from "
   "kbps, ops and @calibration's tsc_hz", rc_)
rh = rdoc["figures"].get("hash", [])
ok(len(rh) == 1 and rh[0]["bytes"] == 8192 and rh[0]["kbps"] == 5789.69, "a row record measured at one size", rh)
ok(any("malformed @cipher" in p and "lists of different lengths" in p for p in rdoc["problems"]),
   "a row record whose lists differ in length is dropped and reported, never paired wrongly", rdoc["problems"])

ok(f.get("cost", [{}])[0].get("breakeven_bytes") == 64 and f["cost"][0]["cycles_per_byte"] == 13.5,
   "@cost record", f.get("cost"))
ok(f.get("hash", [{}])[0].get("alg") == "sha256" and f["hash"][0]["kbps"] == 2100.0, "@hash record")
rng = f.get("rng", [{}])[0]
ok(rng.get("verdict") == "pass" and rng.get("mcv_h") == 7.9512 and rng.get("future_key") == "whatever",
   "@rng record (an unknown key is kept, never an error)", rng)
ok(rng.get("bytes") == 20000 and rng.get("bench_bytes") == 49152 and rng.get("bench_bytes_per_s") == 1480
   and rng.get("bench_reps") == 3 and len(f["rng"]) == 2
   and f["rng"][1] == {"source": "rdrand", "bench_bytes": 36864, "bench_bytes_per_s": 16056207,
                       "bench_spread_pct": 13.3, "bench_reps": 3, "bench_emulated": 0},
   "@rng statistics and benchmark records of one source merge (benchmark keys as bench_*)", f.get("rng"))
ok(not doc["problems"][1:] and doc["verdict"] == "PASS", "the two @rng records of a source are no conflict",
   doc["problems"])
ok(f.get("montmul", [{}])[0].get("ops_per_s") == 812, "@montmul record")
ok(f.get("newtype") == [{"alpha": 1, "beta": "two"}], "an unknown record type is kept under its name")
ok(any("malformed @cipher" in p for p in doc["problems"]), "a malformed record is dropped and reported",
   doc["problems"])
ok(doc["kernel_warnings"] == ["geode-sb: DMA took 3 retries"], "# warning: lines collected")
t = doc["tests"]
ok(len(t) == 4 and t[3]["status"] == "skip" and t[3]["skip"] == "no PadLock RNG" and t[3]["name"] == "rng: padlock source"
   and t[0]["status"] == "ok", "results: ok and SKIP with its reason", t)
ok(doc["summary"] == {"ok": 3, "not_ok": 0, "skipped": 1, "crashed": None, "partial": None} and doc["plan"] == 4,
   "summary counts and plan")

fail = parse(synthetic(results=["ok 1 - cpu: x", "not ok 2 - kat: geode-sb aes-128-cbc # fault: #GP at EIP 0010a780"]))
ok(fail["verdict"] == "FAIL" and fail["tests"][1]["fault"] == "#GP at EIP 0010a780"
   and fail["tests"][1]["name"] == "kat: geode-sb aes-128-cbc", "FAIL verdict; a fault's text is kept", fail["tests"])
to = parse(synthetic(results=["ok 1 - cpu: x",
                              "not ok 2 - selftest: spin # timeout: ran past its 2000 ms budget (stopped at EIP 0010d300)"]))
ok(to["tests"][1]["name"] == "selftest: spin"
   and to["tests"][1]["fault"] == "timeout: ran past its 2000 ms budget (stopped at EIP 0010d300)",
   "a watchdog timeout is kept as the test's fault, the name without it", to["tests"])
crash = parse(synthetic(results=["ok 1 - cpu: x"], extra="Bail out! #PF outside any test at EIP 00101234",
                        verdict="cryptoqual: FAIL (1 ok, 0 not ok, 0 skipped; crashed: #PF outside any test)"))
ok(crash["verdict"] == "CRASH" and crash["bail_out"] == "#PF outside any test at EIP 00101234"
   and crash["summary"]["crashed"] == "#PF outside any test", "Bail out! and crashed: give CRASH", crash["summary"])
lie = parse(synthetic(results=["ok 1 - cpu: x", "not ok 2 - kat: y"], verdict="cryptoqual: PASS (2 ok, 0 not ok, 0 skipped)"))
ok(lie["verdict"] == "INCONSISTENT", "a PASS verdict line beside a not ok result is INCONSISTENT, not PASS", lie["verdict"])
nothing = parse(b"comBIOS ver. 1.33  20070103  Copyright (C) 2000-2007 Soekris Engineering.\r\n\r\nPXE-E61: Media test failure\r\n")
ok(nothing["verdict"] == "NO-REPORT" and not nothing["complete"] and nothing["problems"],
   "a log without 'TAP version 14' is NO-REPORT", nothing["problems"])
ok(parse(b"")["verdict"] == "NO-REPORT", "an empty log is NO-REPORT")

# ======================================================================
# 2. A real log from QEMU
# ======================================================================

REAL = None
if not os.path.exists(KERNEL):
    ok(True, "no kernel at %s: the real-log tests are skipped # SKIP run make" % KERNEL)
else:
    raw = os.path.join(TMP, "qemu-max.log")
    r = subprocess.run(["scripts/boot-qemu.sh", "--cpu", "max", "--timeout", "240", "--log", raw, "--",
                        KERNEL, "bench_ms=2"], capture_output=True, text=True)
    ok(r.returncode == 0, "QEMU -cpu max boot (bench_ms=2) ends in PASS: %s" % r.stdout.strip(), r.stderr)
    with open(raw, "rb") as fh:
        REAL = fh.read()

if REAL is not None:
    want_hash = open(os.path.join(BUILD, "cryptoqual.sha256")).read().strip() \
        if os.path.exists(os.path.join(BUILD, "cryptoqual.sha256")) else None
    base = parse(REAL, "real")
    text = REAL.decode("latin-1").replace("\r", "")
    n_results = len(re.findall(r"^(?:not )?ok \d+ - ", text, re.M))
    # One @cipher record per table row; its bytes= list has an entry per cell.
    n_cipher_rows = len(re.findall(r"^# @cipher ", text, re.M))
    n_cipher = sum(len(b.split(",")) for b in re.findall(r"^# @cipher .* bytes=(\S+)", text, re.M))
    ok(base["verdict"] == "PASS" and base["complete"] and base["problems"] == [],
       "real log: PASS, complete, no problems", base["problems"])
    ok(len(base["tests"]) == n_results == sum(base["summary"][k] for k in ("ok", "not_ok", "skipped")),
       "real log: every result line read (%d) and the verdict line's counts agree" % n_results)
    ok(base["identity"]["image_sha256"] == want_hash, "real log: image hash is build/cryptoqual.sha256 (%s)" % want_hash)
    ok(base["identity"]["cpu"].get("aesni") == 1 and base["identity"]["cpu"].get("vendor") in ("AuthenticAMD", "GenuineIntel"),
       "real log: CPU identity (-cpu max: AES-NI)")
    ids = [p["id"] for p in base["identity"]["pci"]]
    ok("8086:1237" in ids and "8086:7000" in ids, "real log: QEMU's PCI devices found", ids)
    ok(len(base["figures"].get("cipher", [])) == n_cipher > n_cipher_rows,
       "real log: every cell of every @cipher row record read (%d cells in %d records)" % (n_cipher, n_cipher_rows))
    diag("real log: %d results, %d @cipher records (%d cells), %d @hash cells, %d @cost records"
         % (n_results, n_cipher_rows, n_cipher, len(base["figures"].get("hash", [])),
            len(base["figures"].get("cost", []))))

    # -- line ends --
    lf = REAL.replace(b"\r\n", b"\n")
    cr = REAL.replace(b"\r\n", b"\r")
    ok(essence(parse(lf)) == essence(base), "LF line ends read like CRLF")
    ok(essence(parse(cr)) == essence(base), "CR line ends read like CRLF")
    ok(essence(parse(REAL.replace(b"\r\n", b"\n\r"))) == essence(base), "GRUB's LF CR line ends read like CRLF")

    # -- firmware and loader noise before the report --
    noise = (b"\x00\x00\xff\r\ncomBIOS ver. 1.33  20070103  Copyright (C) 2000-2007 Soekris Engineering.\r\n\r\n"
             b"net5501\r\n\r\n0512 Mbyte Memory                        CPU Geode LX 500 Mhz \r\n\r\n"
             b"Pri Mas  SanDisk SDCFJ-1024               LBA Xlt 993-32-63  1000 Mbyte\r\n\r\n"
             b"Slot   Vend Dev  ClassRev Cmd  Stat CL LT HT  Base1    Base2   Int \r\n"
             b"0:01:2 1022 2082 10100000 0006 0220 08 00 00 A0000000 00000000 10\r\n\r\n"
             b"\x1b[H\x1b[J\x1b[1;1H\x1b[2;24HGNU GRUB  version 2.06\r\n\xfe\xff\x00garbage\x80\r\n"
             b"  Booting `cryptoqual: quick run (console ttyS0 19200)'\n\r\n\rLoading /boot/cryptoqual.elf ...\n\r\x1b[m")
    noisy = parse(noise + REAL)
    ok(essence(noisy) == essence(base) and noisy["integrity"]["noise_lines_before_report"] >= 8,
       "BIOS and GRUB noise before 'TAP version 14' (also on its line) is skipped (%d noise lines)"
       % noisy["integrity"]["noise_lines_before_report"])

    # -- cut off: around every one of the last 40 lines (each line's end,
    # its CR, its middle, every byte of the verdict line) and at 200 random
    # places before them --
    rnd = random.Random(19200)
    lines = REAL.split(b"\r\n")
    verdict_end = REAL.rindex(b"skipped)") + len(b"skipped)")
    verdict_start = REAL.rindex(b"cryptoqual: ")
    bad = []
    pos = 0
    cuts = set(range(verdict_start, len(REAL) + 1))
    for i, ln in enumerate(lines):
        if i >= len(lines) - 41:
            cuts |= {pos + len(ln) // 2, pos + len(ln), pos + len(ln) + 1}
        pos += len(ln) + 2
    cuts |= {rnd.randrange(0, verdict_start) for _ in range(200)}
    for c in sorted(x for x in cuts if 0 <= x <= len(REAL)):
        d = parse(REAL[:c])
        want_pass = c >= verdict_end
        if (d["verdict"] == "PASS") != want_pass:
            bad.append((c, d["verdict"]))
    ok(not bad, "cut off at %d places (the last 40 lines' ends and middles, every byte of the verdict line, "
       "200 random places): PASS exactly when the verdict line is whole" % len(cuts), bad[:5])
    half = parse(REAL[: len(REAL) // 2])
    ok(half["verdict"] == "INCOMPLETE" and not half["complete"] and half["summary"] is None
       and any("no verdict line" in p for p in half["problems"]), "cut at half: INCOMPLETE, says why", half["problems"])
    mid_verdict = parse(REAL[: REAL.rindex(b"cryptoqual: PASS") + 16])
    ok(mid_verdict["verdict"] == "INCOMPLETE", "cut inside the verdict line ('cryptoqual: PASS'): INCOMPLETE")
    p_half = write("half.log", REAL[: len(REAL) // 2])
    p_real = write("real.log", REAL)
    rc, out, err = run("parse", p_half)
    ok(rc == 0 and json.loads(out)[0]["verdict"] == "INCOMPLETE", "parse CLI: a cut-off log is INCOMPLETE, exit 0")

    # -- garbage bytes --
    body_lines = REAL.split(b"\r\n")
    idx_results = [i for i, l in enumerate(body_lines) if re.match(rb"^ok \d+ - ", l)]
    idx_cipher = [i for i, l in enumerate(body_lines) if l.startswith(b"# @cipher ")]
    hit = rnd.sample(idx_results[1:], 2) + (idx_cipher[:1] if idx_cipher else [])
    dmg = list(body_lines)
    for i in hit:
        cut = rnd.randrange(1, len(dmg[i]))
        dmg[i] = dmg[i][:cut] + b"\xff\xfe\x00" + dmg[i][cut:]
    burst = parse(b"\r\n".join(dmg))
    missing = burst["integrity"]["missing_results"]
    ok(burst["verdict"] == "PASS" and burst["integrity"]["garbled_lines"] == len(hit)
       and len(missing) == 2 and any("garbled" in p for p in burst["problems"]),
       "garbage bytes (ff fe 00) inside 2 result lines%s: those lines are ignored and reported, the intact "
       "verdict line still rules" % (" and a @cipher line" if idx_cipher else ""), burst["problems"])
    if idx_cipher:
        first = body_lines[idx_cipher[0]].decode("latin-1")
        first_cells = len(re.search(r" bytes=(\S+)", first).group(1).split(","))
        ok(len(burst["figures"]["cipher"]) == n_cipher - first_cells,
           "the garbled @cipher record (%d cells) is dropped, not misread" % first_cells)
    mojibake = REAL.replace(b"cryptoqual: PASS", "cryptoqual: PASS \u00e9".encode("utf-8").decode("latin-1").encode("utf-8"))
    ok(parse(mojibake)["verdict"] == "INCOMPLETE", "mojibake (UTF-8 read as Latin-1) in the verdict line: INCOMPLETE, never PASS")
    tail = REAL.rindex(b"cryptoqual: PASS")
    garbled_verdict = REAL[:tail + 5] + b"\xfe" + REAL[tail + 6:]
    ok(parse(garbled_verdict)["verdict"] == "INCOMPLETE", "one garbage byte in the verdict line: INCOMPLETE")

    # Serial speed mismatch: the box at 115200, the capture at 19200 (each
    # received byte is a smear of about six sent ones: runs of 0x00/0x80/
    # 0xf8/0xfe/0xff), and the other way round (every bit spread over six
    # samples, so a byte becomes several); the firmware's banner before it
    # is readable.
    smear = [0x00, 0x80, 0xc0, 0xe0, 0xf0, 0xf8, 0xfc, 0xfe, 0xff, 0x78, 0x1e, 0x06, 0x0a, 0x0d]
    fast = bytes(rnd.choice(smear) for _ in range(len(REAL) // 6))
    slow = bytes(rnd.choice(smear) for _ in range(len(REAL) * 3))
    for label, junk in (("115200 captured at 19200", fast), ("19200 captured at 115200", slow)):
        d = parse(noise + junk)
        ok(d["verdict"] == "NO-REPORT" and any("wrong serial speed" in p for p in d["problems"]),
           "speed mismatch (%s): NO-REPORT, hints at the serial speed" % label, d["verdict"])
    half_junk = REAL[: len(REAL) // 3] + fast[: len(fast) // 2]
    d = parse(half_junk)
    ok(d["verdict"] == "INCOMPLETE" and d["integrity"]["garbled_lines"] > 0,
       "report readable, then garbage (speed changed mid-run): INCOMPLETE", d["verdict"])

    # -- duplicated lines --
    doubled = b"".join(l + b"\r\n" + l + b"\r\n" for l in REAL.split(b"\r\n") if l)
    d = parse(doubled)
    ok(essence(d) == essence(base) and d["boots"] == 1 and d["integrity"]["duplicate_lines"] > 0,
       "every line twice (the TAP and verdict lines too): same document, one boot, duplicates counted",
       d["problems"])
    some = []
    for l in REAL.split(b"\r\n"):
        some.append(l)
        if rnd.random() < 0.2:
            some.append(l)
    d = parse(b"\r\n".join(some))
    ok(essence(d) == essence(base), "a random fifth of the lines repeated: same document")
    i5 = REAL.index(b"\r\nok 5 - ") + 2
    l5 = REAL[i5: REAL.index(b"\r\n", i5)]
    conflict = REAL.replace(l5 + b"\r\n", l5 + b"\r\nnot " + l5 + b"\r\n", 1)
    d = parse(conflict)
    ok(d["verdict"] == "INCONSISTENT" and d["tests"][4]["status"] == "not ok"
       and any("conflict" in p for p in d["problems"]),
       "a repeat of 'ok 5' as 'not ok 5': INCONSISTENT, test 5 shown not ok", d["problems"])

    # -- two boots in one log --
    first_half = REAL[: len(REAL) // 2]
    reset_then_pass = first_half + b"\r\n" + noise + REAL
    d = parse(reset_then_pass)
    ok(d["boots"] == 2 and d["verdict"] == "PASS" and d["earlier_boots"][0]["verdict"] == "INCOMPLETE"
       and any("earlier boot 1" in p for p in d["problems"]),
       "a reset mid-run, then a full run: the last boot is reported, the earlier INCOMPLETE one is listed",
       d["problems"])
    pass_then_cut = REAL + noise + first_half
    d = parse(pass_then_cut)
    ok(d["verdict"] == "INCOMPLETE" and d["earlier_boots"][0]["verdict"] == "PASS",
       "a full run, then a reboot cut off (on_finish=reboot): INCOMPLETE by default")
    d = parse(pass_then_cut, boot="last-complete")
    ok(d["verdict"] == "PASS" and d["boot"]["index"] == 1 and d["later_boots"][0]["verdict"] == "INCOMPLETE",
       "... and PASS with --boot last-complete, the later boot listed")
    d = parse(REAL + REAL, boot="1")
    ok(d["verdict"] == "PASS" and d["boot"]["index"] == 1 and d["boots"] == 2, "--boot 1 picks the first boot")

    # -- compare and baseline on real logs --
    p_lf = write("real-lf.log", lf)
    p_noisy = write("real-noisy.log", noise + REAL)
    p_dup = write("real-doubled.log", doubled)
    p_reset = write("real-reset.log", reset_then_pass)
    p_conflict = write("real-conflict.log", conflict)
    p_base = os.path.join(TMP, "base.json")
    rc, out, err = run("baseline", "--same-image", p_real, "-o", p_base)
    b = json.load(open(p_base)) if rc == 0 else {}
    ok(rc == 0 and b.get("require_identity", {}).get("image_sha256") == want_hash
       and len(b.get("require_tests", [])) > 0 and len(b.get("figures", [])) >= n_cipher,
       "baseline: from the real log (%d required tests, %d figures)"
       % (len(b.get("require_tests", [])), len(b.get("figures", []))), err)
    rc, out, err = run("compare", p_base, p_real, p_lf, p_noisy, p_dup)
    ok(rc == 0 and out.count(" PASS ") >= 4, "compare: the real log, LF, noisy and doubled variants all pass", out + err)
    rc, out, err = run("compare", p_base, p_real, p_half, p_reset, p_conflict)
    rows = [l.split() for l in out.splitlines()[1:5]]
    ok(rc == 1 and [r[0] for r in rows] == ["real", "half", "real-reset", "real-conflict"]
       and [r[5] if len(r) > 5 else "?" for r in rows] == ["PASS", "FAIL", "FAIL", "FAIL"],
       "compare: one row per box; cut-off, reset-then-pass and conflicting logs fail; exit 1", out)
    ok("incomplete" in out and "earlier boot 1" in out, "compare: says why (incomplete; earlier boot)", out)
    rc, out, err = run("baseline", p_half)
    ok(rc == 1, "baseline refuses a log that did not pass")

    # -- plot real figures --
    if n_cipher:
        png = os.path.join(TMP, "real.png")
        rc, out, err = run("plot", p_real, "-o", png)
        data = open(png, "rb").read() if os.path.exists(png) else b""
        w, h = struct.unpack(">II", data[16:24]) if len(data) > 24 else (0, 0)
        engines_algs = {(r["engine"], r["alg"]) for r in base["figures"]["cipher"] if r["dir"] == "encrypt"} | \
            {(r["engine"], r["alg"]) for r in base["figures"].get("hash", [])}
        n_engines = len({e for e, a in engines_algs})
        ok(rc == 0 and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000
           and (w, h) == (1400, max(640, 420 * ((n_engines + 2) // 2) + 60)),
           "plot: a %dx%d PNG of %d bytes from the real log, one panel per engine (%d)"
           % (w, h, len(data), n_engines), err)
        ok(("(%d line(s))" % len(engines_algs)) in out,
           "plot: one line per engine and algorithm (%d)" % len(engines_algs), out[-300:])
        if os.environ.get("QUALREPORT_KEEP_PNG"):
            shutil.copy(png, os.environ["QUALREPORT_KEEP_PNG"])

# ======================================================================
# 3. compare: tolerances and the baseline format
# ======================================================================

BASE = {
    "schema": "cryptoqual-baseline-1",
    "require_tests": ["cpu: CPUID identity decoded", "kat: geode-sb aes-128-cbc encrypt", {"regex": r"^pci: enumeration found \d+ functions"}],
    "require_pci": ["1022:2082"],
    "require_identity": {"cpu.vendor": "AuthenticAMD"},
    "figures": [
        {"record": "cipher", "match": {"engine": "geode-sb", "alg": "aes-128-cbc", "bytes": 8192, "dir": "encrypt"},
         "field": "kbps", "baseline": 37000, "min_ratio": 0.9},
        {"record": "cipher", "match": {"engine": "geode-sb", "alg": "aes-128-cbc", "bytes": 8192, "dir": "encrypt"},
         "field": "cpb", "baseline": 13.51, "max_ratio": 1.12},
        {"record": "rng", "match": {"source": "geode-trng"}, "field": "verdict", "equals": "pass"},
    ]}
p_b = write("geode.json", json.dumps(BASE).encode())
rng_ok = ("# @rng source=geode-trng bytes=20000 bytes_per_s=1500 fips_blocks=1 monobit_fail=0 poker_fail=0 runs_fail=0 "
          "longrun_fail=0 continuous_fail=0 mcv_h=7.95 markov_h=7.99 shannon_h=7.99 chi_square=250.3 verdict=pass emulated=0")
boxes = {
    "at-91pct": cipher("geode-sb", "aes-128-cbc", 8192, 33670.0) + "\n" + rng_ok,
    "at-89pct": cipher("geode-sb", "aes-128-cbc", 8192, 32930.0) + "\n" + rng_ok,
    "no-figure": cipher("geode-sb", "aes-128-cbc", 4096, 36000.0) + "\n" + rng_ok,
    "ambiguous": cipher("geode-sb", "aes-128-cbc", 8192, 37000.0) + "\n" +
                 cipher("geode-sb", "aes-128-cbc", 8192, 30000.0, variant="separate-unaligned") + "\n" + rng_ok,
    "rng-fail": cipher("geode-sb", "aes-128-cbc", 8192, 37000.0) + "\n" + rng_ok.replace("verdict=pass", "verdict=fail"),
}
paths = {k: write(k + ".log", synthetic(v)) for k, v in boxes.items()}
rc, out, err = run("compare", p_b, paths["at-91pct"])
ok(rc == 0 and "at-91pct" in out and " PASS" in out, "compare: geode-sb aes-128-cbc 8192 at 91% of the baseline passes (min 90%)", out + err)
rc, out, err = run("compare", p_b, paths["at-89pct"])
ok(rc == 1 and "89.0% of baseline 37000" in out, "compare: at 89% it fails and says so; exit 1", out + err)
rc, out, err = run("compare", p_b, paths["no-figure"])
ok(rc == 1 and "missing" in out, "compare: a missing figure fails", out)
rc, out, err = run("compare", p_b, paths["ambiguous"])
ok(rc == 1 and "ambiguous" in out and "variant" in out, "compare: two matching records fail as ambiguous, naming the field that differs", out)
rc, out, err = run("compare", p_b, paths["rng-fail"])
ok(rc == 1 and "is fail, wanted pass" in out, "compare: 'equals' (RNG verdict)", out)
rc, out, err = run("compare", "--json", p_b, paths["at-91pct"], paths["at-89pct"])
j = json.loads(out) if rc in (0, 1) and out.startswith("{") else {}
ok(rc == 1 and [x["result"] for x in j.get("boxes", [])] == ["PASS", "FAIL"] and j.get("failed") == 1,
   "compare --json: every check per box", out[:300])
cpb_slow = synthetic(cipher("geode-sb", "aes-128-cbc", 8192, 37000.0).replace("cpb=13.51", "cpb=15.50") + "\n" + rng_ok)
rc, out, err = run("compare", p_b, write("cpb.log", cpb_slow))
ok(rc == 1 and "maximum 112.0%" in out, "compare: max_ratio (cycles per byte may not grow past 112%)", out)
skipped = synthetic(boxes["at-91pct"], results=[
    "ok 1 - cpu: CPUID identity decoded (x)", "ok 2 - pci: enumeration found 5 functions, a host bridge at 00:01.0",
    "ok 3 - kat: geode-sb aes-128-cbc encrypt # SKIP no Geode security block"])
rc, out, err = run("compare", p_b, write("skipped.log", skipped))
ok(rc == 1 and "is skip" in out, "compare: a required test that was skipped fails the box", out)
rc, out, err = run("compare", p_b, write("nopci.log", synthetic(boxes["at-91pct"]).replace(b"1022:2082", b"1022:2083")))
ok(rc == 1 and "1022:2082 missing" in out, "compare: require_pci", out)
rc, out, err = run("compare", p_b, write("intel.log", synthetic(boxes["at-91pct"]).replace(b"vendor=AuthenticAMD", b"vendor=CentaurHauls")))
ok(rc == 1 and "cpu.vendor is CentaurHauls, wanted AuthenticAMD" in out, "compare: require_identity", out)
rc, out, err = run("compare", p_b, paths["at-91pct"], os.path.join(TMP, "absent.log"))
ok(rc == 1 and "cannot read" in out, "compare: an unreadable log is a failing box", out)
for name, bad_base, key in (
        ("no limit", {"figures": [{"record": "cipher", "field": "kbps"}]}, "figures[0]"),
        ("ratio without baseline", {"figures": [{"record": "cipher", "field": "kbps", "min_ratio": 0.9}]}, "figures[0]"),
        ("unknown key", {"figurse": []}, "figurse")):
    bad_base["schema"] = "cryptoqual-baseline-1"
    p_bad = write("bad.json", json.dumps(bad_base).encode())
    rc, out, err = run("compare", p_bad, paths["at-91pct"])
    ok(rc == 2 and err.startswith("qualreport: %s: %s: " % (p_bad, key)) and err.count("\n") == 1
       and "Traceback" not in err, "compare: a bad baseline (%s) is exit 2 with one message naming the file and key" % name,
       err)

# ======================================================================
# 4. plot and parse CLI details
# ======================================================================

multi = "\n".join([cipher(e, a, n, k * (n / (n + 64.0)))
                   for e, a, k in (("geode-sb", "aes-128-cbc", 37000), ("geode-sb", "aes-128-ecb", 42000),
                                   ("software", "aes-128-cbc", 4100))
                   for n in (16, 64, 256, 1024, 8192)]
                  + [cipher("geode-sb", "aes-128-cbc", n, 30000, variant="separate-unaligned") for n in (16, 8192)]
                  + [cipher("geode-sb", "aes-128-cbc", n, 36000, direction="decrypt") for n in (16, 8192)]
                  + ["# @hash engine=software alg=sha256 bytes=%d kbps=%.2f cpb=1 spread_pct=1 reps=3 emulated=0"
                     % (n, 2100 * n / (n + 64.0)) for n in (16, 64, 256, 1024, 8192)])
p_multi = write("net5501-a.log", synthetic(multi))
png = os.path.join(TMP, "multi.png")
rc, out, err = run("plot", p_multi, "-o", png)
data = open(png, "rb").read() if os.path.exists(png) else b""
ok(rc == 0 and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, "plot: synthetic net5501 log gives a PNG", err)
ok("(4 line(s))" in out and "geode-sb aes-128-cbc: 16:" in out and "software sha256:" in out,
   "plot: one line per engine and algorithm, encrypt and the aligned variant by default", out)
rc, out, err = run("plot", p_multi, "-o", png, "--dir", "any")
ok(rc == 0 and "(5 line(s))" in out and "geode-sb aes-128-cbc decrypt" in out, "plot --dir any adds decrypt lines", out)
p_two = write("net5501-b.log", synthetic(multi.replace("kbps=3", "kbps=2")))
rc, out, err = run("plot", p_multi, p_two, "-o", png, "--record", "cipher")
ok(rc == 0 and "(6 line(s))" in out and "net5501-b geode-sb aes-128-ecb" in out, "plot: two boxes, each line named with its box", out)
rc, out, err = run("plot", paths["no-figure"].replace("no-figure", "absent-file"), "-o", png)
ok(rc == 2, "plot: an unreadable log is exit 2")
nofig = write("nofig.log", synthetic(""))
os.unlink(png)
rc, out, err = run("plot", nofig, "-o", png)
ok(rc == 1 and "nothing to plot" in err and not os.path.exists(png), "plot: a log without figures says so, exit 1, no file", err)
rc, out, err = run("parse", nofig, os.path.join(TMP, "absent.log"))
docs = json.loads(out) if out.startswith("[") else []
ok(rc == 2 and "absent.log" in err and len(docs) == 2 and docs[0]["read_error"] is None
   and docs[1]["read_error"] == "No such file or directory" and docs[1]["verdict"] == "NO-REPORT",
   "parse: an unreadable log is exit 2 and keeps its place in the array with its reason", err)
outdir = os.path.join(TMP, "docs")
rc, out, err = run("parse", "-d", outdir, nofig, p_multi)
ok(rc == 0 and sorted(os.listdir(outdir)) == ["net5501-a.json", "nofig.json"]
   and json.load(open(os.path.join(outdir, "nofig.json")))["schema"] == "cryptoqual-qualreport-1",
   "parse -d DIR: one JSON document per box, named after the log", os.listdir(outdir) if os.path.isdir(outdir) else err)
rc, out, err = run("parse", "--boot", "0", nofig)
ok(rc == 2 and "--boot" in err, "parse --boot 0 is a usage error")

done()
