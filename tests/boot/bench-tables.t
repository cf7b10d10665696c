#!/usr/bin/env python3
"""Boot test: the benchmark under QEMU -cpu max (software, AES-NI, RDRAND,
RDSEED): openssl-speed tables, cost model with break-even sizes, hash and
RNG tables, parseable records; and bench=off skips it all. The figures
themselves are not judged (TCG timing says nothing about hardware).
Env: CQ_KERNEL, CQ_BUILD (bench_shape.start_boot_test)."""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_shape import bench_boot, bench_shape, bench_table, start_boot_test, tap  # noqa: E402

KERNEL = start_boot_test()

all_ok = True


def check(cond, name, why=None):
    """tap.ok, remembering a failure (the serial log is shown at the end)."""
    global all_ok
    if not tap.ok(cond, name, why):
        all_ok = False
    return cond


def grep(pattern, lines):
    r = re.compile(pattern)
    return [l for l in lines if r.search(l)]


def rec_is(r, rtype, **want):
    return r[0] == rtype and all(r[1].get(k) == v for k, v in want.items())


t0 = time.time()
status, verdict, log = bench_boot(KERNEL, "--cpu max --timeout 240", "verbose")   # every grid: verbose
tap.diag("bench (verbose): %s, %.1f s" % (verdict, time.time() - t0))
check(status == 0, "bench: the -cpu max boot ends in PASS (boot-qemu exit %d)" % status)
check(bool(grep(r"^# bench: clock: TSC at \d+\.\d{3} MHz", log)), "bench: the clock line gives the TSC in MHz")
res = grep(r"^(not )?ok \d+ - bench: ", log)
check(bool(grep(r"^ok \d+ - bench: cipher table measured for 3 AES engines ", res)),
      "bench: cipher table measured for 3 AES engines (software, aesni, vperm)", "\n".join(res))
check(bool(grep(r"^ok \d+ - bench: hash table measured for \d+ hash engines", res)), "bench: hash table ok",
      "\n".join(res))
# QEMU's TCG has RDRAND; RDSEED only in some versions: expect what CPUID said.
sources = ["rdrand"] + (["rdseed"] if "# cpu.rdseed=1" in log else [])
nsrc = len(sources)
check(bool(grep(r"^ok \d+ - bench: RNG throughput measured for %d sources?$" % nsrc, res)),
      "bench: RNG throughput for %d source%s (%s)" % (nsrc, "" if nsrc == 1 else "s", " ".join(sources)),
      "\n".join(res))
recs = bench_shape(log, check, "max")

kb = bench_table(log, r"^# bench: AES.*1000s of bytes per second")
rows = dict(kb)
for row in ("software:aes-128-cbc aesni:aes-128-cbc software:aes-256-cbc aesni:aes-256-cbc "
            "software:aes-128-ctr aesni:aes-128-ctr "
            "software:aes-128-cbc:decrypt aesni:aes-128-cbc:decrypt software:aes-128-cbc:inplace").split():
    c = rows.get(row)
    check(c is not None and not [x for x in c if not re.search(r"^\d+\.\d\dk$", x)],
          "bench: row %s has six NNNN.NNk figures" % row, " ".join(c) if c is not None else "no such row")
check(not [r for r in kb if re.search(r"^aesni:aes-\d+-(cfb|ofb)", r[0])],
      "bench: no aesni row for a mode it does not claim (CFB, OFB)")
hashes = bench_table(log, r"^# bench: hashes.*1000s of bytes per second")
check(any(r[0] == "software:sha1" for r in hashes) and any(r[0] == "software:sha256" for r in hashes),
      "bench: hash table has software:sha1 and software:sha256")
cost = next((r for r in recs if rec_is(r, "cost", engine="aesni", alg="aes-128-cbc", dir="encrypt")), None)
# TCG timing is noisy: the fit may be unreliable, and then says so instead.
check(cost is not None and (re.search(r"^(\d+|always|never|below_\d+)$", cost[1].get("breakeven_bytes", "")) and
                            cost[1].get("fit") == "ok" or cost[1].get("breakeven_bytes") == "unknown"),
      "bench: @cost aesni aes-128-cbc encrypt has a break-even against the software baseline (or unknown)")
if cost:
    print(cost[2])
check(bool(grep(r"^# aesni:aes-128-cbc +encrypt +-?\d+ +(\d+|unknown) +-?\d+\.\d\d +(\d+\.\d\d|unknown)  "
                r"(always|never|from \d+ bytes|below \d+ bytes only|\((unreliable|unknown): [^)]+\))", log)),
      "bench: cost table row for aesni:aes-128-cbc with its break-even in words (or why there is none)")
for src in sources:
    r = next((r for r in recs if rec_is(r, "rng", source=src)), None)
    check(r is not None and bool(re.search(r"^[1-9]\d*$", r[1].get("bytes_per_s", ""))),
          "bench: @rng %s in bytes per second" % src)
quick_out = [r[0] for r in kb if re.search(r"^[a-z0-9-]+:aes-(192-|256-(ecb|cfb|ofb|ctr))", r[0])]
check(not quick_out, "bench: bench=quick leaves out AES-192 and AES-256 outside CBC (bench=full measures them)",
      "\n".join(quick_out))
for l in grep(r"^# @cipher engine=(software|aesni) alg=aes-128-cbc dir=encrypt variant=separate-aligned ", log):
    print(l)

status, verdict, off = bench_boot(KERNEL, "--cpu max --timeout 240", "bench=off")
tap.ok(status == 0, "bench=off: the boot ends in PASS (boot-qemu exit %d)" % status)
skip = grep(r"^ok \d+ - bench: .* # SKIP bench=off$", off)
tap.ok(len(skip) == 1, "bench=off: one SKIP line for the benchmark", "\n".join(grep(r"bench", off)))
# The RNG statistics' own @rng record (with fips_blocks=) is not the benchmark's.
leak = [l for l in off if re.search(r"^# (bench: |@(cipher|hash|cost|montmul) )", l) or
        re.search(r"^# @rng (?!.*fips_blocks=)", l) or re.search(r"^(not )?ok \d+ - bench: (?!.*# SKIP)", l)]
tap.ok(not leak, "bench=off: no benchmark tables, records or results", "\n".join(leak))

if not all_ok:
    tap.diag("serial log of the default boot:")
    for l in log:
        print("#   | " + l)
tap.done()
