#!/usr/bin/env python3
"""The kernel's benchmark (kernel/run/bench*.c) run on the host by
build/host/bench-model over model engines whose cost is known (see
tests/kernel/run/test_bench_model.c): every figure below is worked out by
hand from the models at 1 GHz, and the failure paths must give `not ok`.
Env: CQ_BUILD (build folder, default "build")."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "boot"))
import taplib as tap  # noqa: E402
from bench_shape import bench_records, bench_shape, bench_table, num  # noqa: E402

BUILD = os.environ.get("CQ_BUILD", "build")
TOOL = os.path.join(BUILD, "host", "bench-model")
ok = tap.ok

tap.start()
if not os.access(TOOL, os.X_OK):
    tap.skip_all("no %s (make tools)" % TOOL)


def run(mode):
    """bench-model MODE: (wait status, stdout lines)."""
    p = subprocess.run([TOOL, mode], stdout=subprocess.PIPE)
    lines = p.stdout.decode("latin-1").split("\n")
    if lines[-1] == "":
        lines.pop()
    return p.returncode, lines


def grep(pattern, lines):
    """The lines a regular expression finds (a search, as grep)."""
    r = re.compile(pattern)
    return [l for l in lines if r.search(l)]


def lines_of(items):
    return "\n".join(items)


def find_record(recs, rtype, want):
    """The fields of the first record of type rtype that has every pair of
    want (values compared as printed), or None."""
    for r in recs:
        if r[0] == rtype and all((r[1].get(k) or "") == str(v) for k, v in want.items()):
            return r[1]
    return None


def has(recs, rtype, want, name):
    ok(find_record(recs, rtype, want) is not None, name,
       "no @%s record with %s" % (rtype, " ".join("%s=%s" % (k, want[k]) for k in sorted(want))))


def f(rec, key):
    return rec.get(key) or ""


# ---- good: every model engine ----
st, out = run("good")
ok(st == 0, "good: bench-model exits 0")
results = grep(r"^(not )?ok \d+ - ", out)
ok(len(results) == 4 and not grep(r"^not ok", results), "good: four results, all ok", lines_of(results))
ok(bool(grep(r"^ok \d+ - bench: cipher table measured for 3 AES engines \(19 rows, 104 cells\)$", out)),
   "good: cipher result names 3 engines, 19 rows, 104 cells (bench=quick: AES-128, and AES-256 in CBC)")
recs = bench_shape(out, ok, "good")
cipher = [r for r in recs if r[0] == "cipher"]
ok(len(cipher) == 104, "good: the @cipher records hold one entry per cell (%d)" % len(cipher))
cipher_lines = grep(r"^# @cipher ", out)
ok(len(cipher_lines) == 19, "good: one @cipher record per table row (%d)" % len(cipher_lines))
ok("# @cipher engine=software alg=aes-128-cbc dir=encrypt variant=separate-unaligned emulated=0 reps=3 "
   "bytes=8192 kbps=49847.88 spread_pct=0.0 ops=2" in out,
   "good: a row measured at one size lists that size alone", lines_of(grep(r"separate-unaligned ", cipher_lines)))
ok(not [r for r in cipher if re.search(r"^aes-256-(?!cbc$)", f(r[1], "alg"))] and
   bool([r for r in cipher if f(r[1], "alg") == "aes-256-cbc"]),
   "good: bench=quick measures AES-256 in CBC only")

has(recs, "calibration", {"tsc_hz": 1000000000, "pit_hz": 1000000000,
                          "pmtimer_hz": 1000005000, "disagreement_ppm": 5},
    "good: @calibration gives the clock in force and both calibrations")
# software: 500 + 20 x cycles at 1 GHz. 16 bytes: 820 cycles = 51.25 c/B, 16e9/820 B/s.
has(recs, "cipher", {"engine": "software", "alg": "aes-128-cbc", "mode": "cbc", "key_bits": 128,
                     "dir": "encrypt", "variant": "separate-aligned", "bytes": 16,
                     "kbps": "19512.20", "cpb": "51.25", "spread_pct": "0.0", "reps": 3, "emulated": 0},
    "good: software aes-128-cbc 16 bytes: 19512.20 kB/s, 51.25 cycles/byte")
# 8192 bytes: 164340 cycles = 20.06 c/B; 8192e9/164340 = 49847.88 kB/s.
has(recs, "cipher", {"engine": "software", "alg": "aes-128-cbc", "dir": "encrypt",
                     "variant": "separate-aligned", "bytes": 8192, "kbps": "49847.88", "cpb": "20.06"},
    "good: software aes-128-cbc 8192 bytes: 49847.88 kB/s, 20.06 cycles/byte")
# dmadev: 5000 + 2 x; 16 bytes: 5032 cycles = 314.50 c/B, 3179.65 kB/s; emulated.
has(recs, "cipher", {"engine": "dmadev", "alg": "aes-128-cbc", "dir": "encrypt",
                     "variant": "separate-aligned", "bytes": 16, "kbps": "3179.65", "cpb": "314.50",
                     "emulated": 1},
    "good: emulated dmadev aes-128-cbc 16 bytes: 3179.65 kB/s, 314.50 cycles/byte, emulated=1")
# Both DMA contexts: two 16-byte requests in 5032 cycles.
has(recs, "cipher", {"engine": "dmadev", "variant": "dual-context", "bytes": 16,
                     "kbps": "6359.30", "cpb": "157.25"},
    "good: dual-context row counts both requests (6359.30 kB/s at 16 bytes)")
# Unaligned input to a 16-byte-aligned engine: bounced by the benchmark, every size.
bounced = [r for r in cipher if f(r[1], "engine") == "dmadev" and f(r[1], "variant") == "separate-unaligned-bounced"]
ok(len(bounced) == 6, "good: dmadev (align 16) has a bounced unaligned row at all six sizes")
ok("# model: dmadev misaligned=0 longest=16384" in out, "good: the aligned engine never saw a misaligned buffer")
unal = [r for r in cipher if f(r[1], "engine") == "software" and f(r[1], "variant") == "separate-unaligned"]
ok(len(unal) == 1 and num(unal[0][1]["bytes"]) == 8192,
   "good: software (any alignment) has one unaligned cell, at 8192 bytes")
inpl = [r for r in cipher if f(r[1], "engine") == "software" and f(r[1], "variant") == "inplace-aligned"]
ok(len(inpl) == 6, "good: software has an in-place row at all six sizes")
# chunky: requests of at most 1024 bytes, 100 + x cycles each: 8192 bytes = 8992 cycles.
has(recs, "cipher", {"engine": "chunky", "alg": "aes-128-ctr", "bytes": 8192,
                     "kbps": "911032.03", "cpb": "1.10"},
    "good: max_len 1024: 8192 bytes go as 8 requests (911032.03 kB/s)")
ok("# model: chunky longest=1024" in out, "good: no request over max_len")
# OFB/CTR decryption is the same operation: no decrypt rows for ctr; ECB/CBC have them.
ok(not [r for r in cipher if f(r[1], "mode") == "ctr" and f(r[1], "dir") == "decrypt"], "good: no CTR decrypt rows")
ok(len([r for r in cipher if f(r[1], "engine") == "dmadev" and f(r[1], "alg") == "aes-128-ecb" and
        f(r[1], "dir") == "decrypt"]) == 6,
   "good: ECB decrypt rows")
ok(not [r for r in cipher if num(r[1].get("key_bits")) == 192], "good: no row for a key size nobody claims")

# Cost model: the fit recovers the models; break-even (5000 - 500) / (20 - 2) = 250 -> 251.
has(recs, "cost", {"engine": "software", "alg": "aes-128-cbc", "dir": "encrypt", "fixed_cycles": 500,
                   "cycles_per_byte": "20.00", "breakeven_bytes": "none", "vs": "none"},
    "good: @cost software: 500 cycles + 20.00/byte, the reference")
has(recs, "cost", {"engine": "dmadev", "alg": "aes-128-cbc", "dir": "encrypt", "fixed_cycles": 5000,
                   "cycles_per_byte": "2.00", "breakeven_bytes": 251, "vs": "software", "emulated": 1},
    "good: @cost dmadev: 5000 cycles + 2.00/byte, faster from 251 bytes")
has(recs, "cost", {"engine": "chunky", "alg": "aes-128-ctr", "breakeven_bytes": "always"},
    "good: @cost chunky: always faster")
ok(bool(grep(r"^# dmadev:aes-128-cbc +encrypt +5000 +3 +2\.00 +0\.00  from 251 bytes \(emulated\)$", out)),
   'good: cost table row for dmadev says "from 251 bytes" and (emulated)')

# Hashes: software 300 + 10 x; phe 2000 + x, at most 8192 bytes (no 16384 cell).
has(recs, "hash", {"engine": "software", "alg": "sha1", "bytes": 1024, "kbps": "97153.70", "cpb": "10.29"},
    "good: software sha1 1024 bytes: 97153.70 kB/s, 10.29 cycles/byte")
ok(find_record(recs, "hash", {"engine": "phe", "bytes": 16384}) is None and
   find_record(recs, "hash", {"engine": "phe", "bytes": 8192, "cpb": "1.24", "emulated": 1}) is not None,
   "good: phe sha1 measured up to its max_len only")
has(recs, "cost", {"engine": "phe", "alg": "sha1", "dir": "digest", "fixed_cycles": 2000,
                   "cycles_per_byte": "1.00", "breakeven_bytes": 189},
    "good: @cost phe sha1: faster from 189 bytes (1700 / 9 = 188.9)")
hrows = bench_table(out, r"^# bench: hashes.*1000s of bytes per second")
ok(len(hrows) == 3 and hrows[1][0] == "phe:sha1(emulated)" and hrows[1][1][5] == "-",
   "good: hash table rows algorithm-major, emulated labelled, - past max_len",
   lines_of("%s %s" % (r[0], " ".join(r[1])) for r in hrows))

# RNG: 4 cycles per byte at 1 GHz. Montmul: 1000 cycles per 256 bits.
has(recs, "rng", {"source": "modelrng", "bytes_per_s": 250000000, "emulated": 0},
    "good: @rng modelrng 250000000 bytes/s")
has(recs, "montmul", {"engine": "pmm", "bits": 1024, "ops_per_s": 250000, "cycles_per_op": "4000.00",
                      "emulated": 1},
    "good: @montmul pmm 1024 bits: 250000 ops/s, 4000.00 cycles/op")
has(recs, "montmul", {"engine": "software", "bits": 1024, "ops_per_s": 333333, "cycles_per_op": "3000.00",
                      "emulated": 0, "path": "integer"},
    "good: @montmul software 1024 bits beside the multiplier: 333333 ops/s, 3000.00 cycles/op, path=integer")
ok(bool([l for l in out if re.search(r"^ok \d+ - bench: montmul operations per second measured for 1 engine$", l)]),
   "good: the montmul section counts the multipliers, not software")

ok(not [r for r in recs if r[0] == "cost" and f(r[1], "fit") != "ok"],
   "good: every @cost says fit=ok (exact models)")
good_recs = grep(r"^# @", out)

# ---- interruptions while the counts are chosen ----
# tests/kernel/run/test_bench_model.c stretches single operations of software SHA-1
# and SHA-256 at 8192 bytes (82220 cycles each; the cell target is 333333
# cycles, reached by 4 operations after doubling to 8).
st, out = run("stretched")
results = grep(r"^(not )?ok \d+ - ", out)
ok(st == 0 and len(results) == 4 and not grep(r"^not ok", results), "stretched: four results, all ok",
   lines_of(results))
st_cells = bench_records(out)
# SHA-1: the 4-operation run (true 328880) is stretched to 528880; timed
# once, it would end the doubling and leave 3 operations (246660 cycles).
has(st_cells, "hash", {"engine": "software", "alg": "sha1", "bytes": 8192, "kbps": "99635.13", "cpb": "10.04",
                       "spread_pct": "0.0", "ops": 4},
    "stretched: a run stretched past the target is timed again: sha1 8192 bytes keeps 4 operations")
# SHA-256: the 2-operation run and its second timing both take 10 ms more;
# the count falls to 1 and the short repetitions (82220 cycles) scale it up.
has(st_cells, "hash", {"engine": "software", "alg": "sha256", "bytes": 8192, "kbps": "99635.13", "cpb": "10.04",
                       "spread_pct": "0.0", "ops": 4},
    "stretched: repetitions far shorter than the target are scaled up: sha256 8192 bytes keeps 4 operations")
st_recs = grep(r"^# @", out)
diff = [i for i in range(len(good_recs)) if (st_recs[i] if i < len(st_recs) else "") != good_recs[i]]
ok(len(st_recs) == len(good_recs) and not diff, "stretched: every record is the same as without the interruptions",
   lines_of("good:      %s\nstretched: %s" % (good_recs[i], st_recs[i] if i < len(st_recs) else "(none)")
            for i in diff[:4]))

# ---- fits that do not deserve a break-even ----
st, out = run("noisy")
recs = bench_shape(out, ok, "noisy")
# Software SHA-1 16 bytes: one repetition of 725 x 460 = 333500 cycles takes 1e6 more.
has(recs, "hash", {"engine": "software", "alg": "sha1", "bytes": 16, "spread_pct": "299.9", "ops": 725},
    "noisy: software sha1 16 bytes spreads 299.9 %")
has(recs, "cost", {"engine": "software", "alg": "sha1", "fixed_cycles": 300, "cycles_per_byte": "10.00",
                   "breakeven_bytes": "none", "vs": "none", "fit": "unreliable"},
    "noisy: @cost software sha1: fit=unreliable (a cell spreads over 25 %)")
ok(bool(grep(r"^# software:sha1 +digest +300 +1 +10\.00 +0\.00  \(the reference, unreliable: spread 299\.9 %\)$",
             out)),
   "noisy: cost table says the reference is unreliable and why", lines_of(grep(r"^# software:sha1 ", out)))
has(recs, "cost", {"engine": "phe", "alg": "sha1", "fixed_cycles": 2000, "breakeven_bytes": "unknown",
                   "vs": "software", "fit": "ok"},
    "noisy: @cost phe sha1: its own fit is ok, the break-even against an unreliable reference unknown")
ok(bool(grep(r"^# phe:sha1 +digest +2000 +1 +1\.00 +0\.00  \(unknown: the software fit is unreliable: "
             r"spread 299\.9 %\) \(emulated\)$", out)),
   "noisy: cost table gives no break-even for phe sha1, and says why", lines_of(grep(r"^# phe:sha1 ", out)))
# kinky: 3 cycles per byte, 4 from 8192 bytes. Each cell weighted by 1 / (0.1 % of its
# cycles)^2 (no spread: the floor), the line is -6.4 +- 8.2 cycles + 3.32 +- 0.23 per byte
# (worked out in floating point; the kernel's integer weights round each sigma to a
# centicycle: -7 +- 9, 3.33 +- 0.23).
has(recs, "cost", {"engine": "kinky", "alg": "aes-128-cbc", "dir": "encrypt", "fixed_cycles": -7,
                   "fixed_err": 9, "cycles_per_byte": "3.33", "cpb_err": "0.23", "breakeven_bytes": "unknown",
                   "vs": "software", "fit": "unreliable"},
    "noisy: @cost kinky: a negative fixed cost makes the fit unreliable, the break-even unknown")
ok(bool(grep(r"^# kinky:aes-128-cbc +encrypt +-7 +9 +3\.33 +0\.23  \(unreliable: negative fixed cost\)$", out)),
   "noisy: cost table row for kinky says unreliable, not a break-even", lines_of(grep(r"^# kinky:aes-128-cbc ", out)))
has(recs, "cost", {"engine": "dmadev", "alg": "aes-128-cbc", "dir": "encrypt", "breakeven_bytes": 251,
                   "fit": "ok"},
    "noisy: the other fits keep their break-even (dmadev from 251 bytes)")

# ---- the cost of choosing the operation counts ----
# bench_ms=1 at 1 GHz: 1e6 cycles of repetitions per cell. Doubling from 1
# costs about as much again per cell; predicting each AES cell from the
# row's smaller sizes leaves about one extra run of the three.
st, out = run("good")
grecs = bench_records(out)
cells = len([r for r in grecs if r[0] in ("cipher", "hash", "montmul", "rng")])
clocks = [m.group(1) for m in (re.search(r"^# model: clock=(\d+)$", l) for l in out) if m]
clock = clocks[0] if clocks else None
ok(clock is not None and cells > 100 and int(clock) <= 1.5 * cells * 1e6,
   "good: the whole run takes at most 1.5 budgets per cell (%d cells, %s cycles)" % (cells, clock or "no"))

# Hash rows are predicted from their smaller sizes as the AES rows are: software SHA-1 at
# 1024 bytes (10540 cycles, 31 operations per run) is timed in exactly its 3 runs, the
# predicted run counting as the first (doubling from 1 would add 1 + 2 + ... + 32 calls).
calls = [m.group(1) for m in (re.search(r"^# model: software sha1 calls_1024=(\d+)$", l) for l in out) if m]
c1024 = calls[0] if calls else None
ok(c1024 is not None and int(c1024) == 3 * 31,
   "good: the sha1 1024-byte cell costs its 3 runs of 31 digests, no doubling (%s calls)" % (c1024 or "none"))

# ---- scope: bench=quick measures AES-128 and AES-256 CBC; bench=full every key size ----
st, out = run("wide")
wrecs = bench_records(out)
w192 = [r for r in wrecs if r[0] == "cipher" and num(r[1].get("key_bits")) == 192]
w256 = [r for r in wrecs if r[0] == "cipher" and f(r[1], "engine") == "wide" and num(r[1].get("key_bits")) == 256]
ok(st == 0 and not w192 and len(w256) == 6, "wide: bench=quick measures the AES-256 CBC row (6 cells) but not AES-192",
   lines_of(r[2] for r in w192))
ok(bool(grep(r"^# bench: scope: bench=quick: AES-128 in every mode .*AES-256 in CBC; bench=full adds AES-192 ", out)),
   "wide: the scope line says what bench=quick leaves out and that bench=full measures it")
st, out = run("full")
frecs = bench_records(out)
f192 = [r for r in frecs if r[0] == "cipher" and f(r[1], "engine") == "wide" and num(r[1].get("key_bits")) == 192]
ok(st == 0 and len(f192) == 6, "full: bench=full measures the AES-192 row too (6 cells)")
ok("# bench: scope: every key size, mode and direction each engine claims" in out,
   "full: the scope line says every key size")

# ---- failures ----
st, out = run("engine-error")
ok(bool(grep(r"^not ok 1 - bench: cipher table measured for 4 AES engines", out)),
   "engine-error: an engine error makes the cipher result not ok", lines_of(grep(r"^(not )?ok", out)))
ok("# bench: broken:aes-128-cbc encrypt 1024 bytes failed: engine error -4 (hardware timeout)" in out,
   "engine-error: the failing cell is named with the error")
brow = [r for r in bench_table(out, r"^# bench: AES.*1000s of bytes per second") if r[0] == "broken:aes-128-cbc"]
ok(len(brow) == 1 and bool(re.search(r"^\S+k \S+k \S+k failed failed failed$", " ".join(brow[0][1]))),
   'engine-error: the table shows the measured cells and "failed"', lines_of(" ".join(r[1]) for r in brow))
ok(bool(grep(r"^ok 2 - bench: hash table", out)), "engine-error: the other results stay ok")
ok("# @cipher engine=broken alg=aes-128-cbc dir=encrypt variant=separate-aligned emulated=0 reps=3 bytes=16,64,256 "
   "kbps=137931.03,390243.90,719101.12 spread_pct=0.0,0.0,0.0 ops=2874,2033,936" in out,
   "engine-error: the row record lists the sizes measured before the failure, and only those",
   lines_of(grep(r"^# @cipher engine=broken ", out)))

# Running two DMA contexts at once is documented by no source: a failing
# :dual-context row is a finding, never the table's failure.
st, out = run("dual-error")
ok(bool(grep(r"^ok 1 - bench: cipher table measured for ", out)),
   "dual-error: a failing :dual-context row leaves the cipher result ok", lines_of(grep(r"^(not )?ok", out)))
ok("# bench: dmadev:aes-128-cbc:dual-context(emulated): finding, not judged: engine error -4 (hardware timeout) "
   "(two DMA contexts at once is documented by no source; the driver's log says why)" in out,
   "dual-error: one line says the row is a finding, with the first error", lines_of(grep(r"dual-context", out)))
ok(bool(grep(r"^# @finding driver=dmadev test=dmadev:aes-128-cbc:dual-context\(emulated\) outcome=failed "
              r"detail=engine\\x20error\\x20-4", out)),
   "dual-error: and a @finding record")

st, out = run("zero-cycles")
ok(bool(grep(r"^not ok 1 - bench: cipher table", out)), "zero-cycles: a run of zero cycles makes the result not ok")
ok(bool(grep(r"^# bench: frozen:aes-128-ecb encrypt 16 bytes failed: a timed run took zero cycles", out)),
   "zero-cycles: the cell says it took zero cycles")
ok(not grep(r"^# @cipher engine=frozen ", out) and bool(grep(r"^# @cipher engine=software ", out)),
   "zero-cycles: a row with no measured size has no record (the others keep theirs)")

st, out = run("off")
r = grep(r"^(not )?ok", out)
ok(len(r) == 1 and bool(re.search(r"^ok 1 - bench: .* # SKIP bench=off$", r[0])) and
   not grep(r"^# (bench:|@(cipher|hash|cost|rng))", out),
   "off: bench=off gives one SKIP and no tables or records", lines_of(r))

tap.done()
