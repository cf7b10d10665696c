"""Checks of the benchmark's output shape, shared by tests/boot/bench-tables.t,
tests/boot/bench-determinism.t and tests/kernel/run/bench-model.t
(`sys.path` gets tests/boot, then `import bench_shape`), and the boot
tests' start (start_boot_test) and boot (bench_boot). The layout and
records are those of docs/report-format.md and kernel/run/bench.h; the
expectations are written here independently of the kernel's code.

A record is a tuple (type, {key: value}, line); type and the dict are None
for a "# @" line that does not parse. Values stay strings as printed;
num() reads one as a number where a check compares magnitudes."""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import taplib as tap  # noqa: E402

BENCH_HEADER = "type 16 bytes 64 bytes 256 bytes 1024 bytes 8192 bytes 16384 bytes"
# openssl speed's columns: "%7d bytes", 13 characters each.
BENCH_HEADER_RE = re.compile(
    r"^# type {9,}16 bytes {5}64 bytes {4}256 bytes {3}1024 bytes {3}8192 bytes {2}16384 bytes$")

# The keys each record type must carry (docs/report-format.md). @cipher and
# @hash are one record per table row: bytes, kbps, spread_pct and ops are
# comma-separated lists, one entry per measured size.
BENCH_KEYS = {
    "calibration": "tsc_hz pit_hz pmtimer_hz disagreement_ppm".split(),
    "cipher": "engine alg dir variant emulated reps bytes kbps spread_pct ops".split(),
    "cost": ("engine alg dir fixed_cycles fixed_err cycles_per_byte cpb_err breakeven_bytes vs fit "
             "emulated").split(),
    "hash": "engine alg emulated reps bytes kbps spread_pct ops".split(),
    "rng": "source bytes bytes_per_s emulated".split(),
    "montmul": "engine bits ops_per_s cycles_per_op emulated".split(),
}
BENCH_LISTS = ["bytes", "kbps", "spread_pct", "ops"]

_NUM_RE = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def num(value):
    """The number a printed value starts with (0 for None or no number)."""
    m = _NUM_RE.match(value or "")
    return float(m.group(1)) if m else 0.0


def bench_records(lines):
    """Parses "# @TYPE k=v ..." lines into records, a None record for each
    line that starts "# @" but does not parse (a key given twice, or no
    key=value pairs). A row record (@cipher, @hash) becomes one record per
    cell, its lists split, with what the record leaves to the reader worked
    out: mode and key_bits from the alg (aes-128-cfb: cfb128), and
    cpb = tsc_hz / (kbps x 1000) when an @calibration record came first. A
    row whose lists differ in length does not parse."""
    recs = []
    hz = 0.0
    for line in lines:
        if not line.startswith("# @"):
            continue
        m = re.match(r"^# @([a-z]+)((?: [a-z0-9_]+=[^ =]+)+)$", line)
        if not m:
            recs.append((None, None, line))
            continue
        rtype, rest = m.group(1), m.group(2)
        kv = {}
        dup = False
        for pair in rest[1:].split(" "):
            k, v = pair.split("=", 1)
            dup = dup or k in kv
            kv[k] = v
        if dup:
            recs.append((None, None, line))
            continue
        if rtype == "calibration":
            hz = num(kv.get("tsc_hz"))
        if rtype not in ("cipher", "hash"):
            recs.append((rtype, kv, line))
            continue
        lists = {k: (kv[k].split(",") if kv.get(k, "") != "" else []) for k in BENCH_LISTS}
        n = len(lists["bytes"])
        if not n or any(len(lists[k]) != n for k in BENCH_LISTS):
            recs.append((None, None, line))
            continue
        for i in range(n):
            cell = dict(kv)
            for k in BENCH_LISTS:
                cell[k] = lists[k][i]
            a = re.match(r"^aes-(\d+)-([a-z0-9]+)$", cell.get("alg", ""))
            if rtype == "cipher" and a:
                cell["key_bits"] = a.group(1)
                cell["mode"] = "cfb128" if a.group(2) == "cfb" else a.group(2)
            if hz and re.match(r"^\d+\.\d+$", cell["kbps"]) and num(cell["kbps"]) > 0:
                cell["cpb"] = "%.2f" % (hz / (num(cell["kbps"]) * 1000))
            recs.append((rtype, cell, line))
    return recs


def bench_table(lines, title_re):
    """The rows of the first table whose title line matches title_re (a
    search): a list of (name, [six cells]) from the header to the first
    line that is not a row; [] without such a table or header."""
    title = re.compile(title_re)
    for i, line in enumerate(lines):
        if not title.search(line):
            continue
        if not (lines[i + 1] if i + 1 < len(lines) else "").startswith("# type "):
            return []
        rows = []
        for row in lines[i + 2:]:
            f = row.split()
            if not (len(f) == 8 and f[0] == "#" and ":" in f[1]):
                break
            rows.append((f[1], f[2:8]))
        return rows
    return []


def _g(rec, key):
    """A record's value for key, "" when it has none."""
    return rec.get(key, "") or ""


def bench_shape(lines, ok, label):
    """Runs the shape checks over a log, each reported through
    ok(cond, name, why). Returns the parsed records (bench_records)."""
    headers = [l for l in lines if l.startswith("# type ")]
    ok(len(headers) >= 3, "%s: table headers present (%d)" % (label, len(headers)))
    bad = [h for h in headers if re.sub(r" +", " ", re.sub(r"^# ", "", h, count=1)) != BENCH_HEADER]
    ok(not bad, "%s: every header reads '%s'" % (label, BENCH_HEADER), "\n".join(bad))
    bad = [h for h in headers if not BENCH_HEADER_RE.search(h)]
    ok(not bad, "%s: headers in openssl speed's 13-character columns" % label, "\n".join(bad))

    kb = bench_table(lines, r"^# bench: AES.*1000s of bytes per second")
    ok(len(kb) > 0, "%s: AES kB/s table has rows (%d)" % (label, len(kb)))
    main = [r for r in kb
            if re.search(r"^[a-z0-9-]+:aes-(128|192|256)-(ecb|cbc|cfb|ofb|ctr)(\(emulated\))?$", r[0])]
    bad = ["%s %s" % (r[0], " ".join(r[1])) for r in main
           if any(not re.search(r"^\d+\.\d\dk$", c) for c in r[1])]
    ok(bool(main) and not bad, "%s: every engine:aes-NNN-mode row has six NNNN.NNk figures" % label,
       "\n".join(bad))
    bad = ["%s %s" % (r[0], " ".join(r[1])) for r in kb
           if any(not re.search(r"^(\d+\.\d\dk|-|failed)$", c) for c in r[1])]
    ok(not bad, "%s: every kB/s cell is NNNN.NNk, - or failed" % label, "\n".join(bad))
    cpb = bench_table(lines, r"^# bench: AES.*cycles per byte")
    ok(len(cpb) == len(kb), "%s: cycles-per-byte table has the same rows" % label)

    recs = bench_records(lines)
    bad = [r[2] for r in recs if r[0] is None]
    ok(not bad, "%s: every # @ line parses as key=value pairs" % label, "\n".join(bad))
    missing = []
    for r in recs:
        if r[0] is None or r[0] not in BENCH_KEYS:
            continue
        m = [k for k in BENCH_KEYS[r[0]] if k not in r[1]]
        if m:
            missing.append("%s (missing %s)" % (r[2], " ".join(m)))
    ok(not missing, "%s: every record has its documented keys" % label, "\n".join(missing))

    cipher = [r for r in recs if r[0] == "cipher"]
    bad = []
    for r in cipher:
        k = r[1]
        if not (re.search(r"^\d+\.\d\d$", _g(k, "kbps")) and re.search(r"^\d+\.\d$", _g(k, "spread_pct")) and
                re.search(r"^(16|64|256|1024|8192|16384)$", _g(k, "bytes")) and
                re.search(r"^[1-9]\d*$", _g(k, "ops")) and re.search(r"^(encrypt|decrypt)$", _g(k, "dir")) and
                re.search(r"^[01]$", _g(k, "emulated")) and re.search(r"^[1-9]\d*$", _g(k, "reps"))):
            bad.append(r[2])
    ok(bool(cipher) and not bad,
       "%s: @cipher cells are well formed (kbps, spread_pct, ops per size)" % label, "\n".join(bad))
    # One record per row: no two records for the same engine, alg, dir and variant.
    rows = {}
    for r in cipher:
        key = " ".join(_g(r[1], k) for k in ("engine", "alg", "dir", "variant"))
        rows.setdefault(key, set()).add(r[2])
    bad = [k for k in sorted(rows) if len(rows[k]) > 1]
    ok(not bad, "%s: one @cipher record per table row" % label, "\n".join(bad))

    # One @cost per separate-aligned (engine, alg, dir), with a break-even
    # (unknown when this fit or the reference's is unreliable).
    def eadkey(r):
        return " ".join(_g(r[1], k) for k in ("engine", "alg", "dir"))
    want = {eadkey(r) for r in cipher if _g(r[1], "variant") == "separate-aligned"}
    have = {}
    for r in recs:
        if r[0] == "cost":
            have[eadkey(r)] = r[1]
    nocost = [k for k in sorted(want) if k not in have]
    ok(bool(want) and not nocost, "%s: a @cost record per engine, algorithm and direction" % label,
       "\n".join(nocost))
    # The reference of (alg, dir): the software baseline, vperm where it has
    # the row (a CPU with SSSE3), else software (kernel/run/bench_print.c).
    def baseline(k):
        _, alg, d = k.split(" ")
        return "vperm" if "vperm %s %s" % (alg, d) in have else "software"
    bad = []
    for k in sorted(have):
        c = have[k]
        be, vs = _g(c, "breakeven_bytes"), _g(c, "vs")
        b = baseline(k)
        if not (re.search(r"^(\d+|always|never|below_\d+|unknown)$", be) and vs == b or
                be == "none" and vs == "none" and k.startswith(b + " ")):
            bad.append("%s breakeven_bytes=%s vs=%s" % (k, be, vs))
    ok(not bad, "%s: every @cost has a break-even against the software baseline (none for the baseline itself)"
       % label, "\n".join(bad))
    bad = []
    for k in sorted(have):
        c = have[k]
        fit = _g(c, "fit")
        if (not re.search(r"^(ok|unreliable)$", fit) or
                fit == "unreliable" and _g(c, "vs") != "none" and _g(c, "breakeven_bytes") != "unknown"):
            bad.append("%s fit=%s breakeven_bytes=%s" % (k, fit, _g(c, "breakeven_bytes")))
    ok(not bad, "%s: every @cost says fit=ok or fit=unreliable, and an unreliable fit has no break-even"
       % label, "\n".join(bad))
    # fit=ok only for a fixed cost of 0 or more known within max(fixed / 4, 16 x cycles per
    # byte) (docs/report-format.md); a break-even is never at or below the smallest size.
    bad = []
    for k in sorted(have):
        c = have[k]
        fixed, err, cpb_v = _g(c, "fixed_cycles"), _g(c, "fixed_err"), _g(c, "cycles_per_byte")
        bound = max(num(fixed) / 4, 16 * num(cpb_v))
        if _g(c, "fit") == "ok" and (num(fixed) < 0 or not re.search(r"^\d+$", err) or num(err) > bound + 1):
            bad.append("%s fixed_cycles=%s fixed_err=%s cycles_per_byte=%s" % (k, fixed, err, cpb_v))
    ok(not bad, "%s: no @cost with fit=ok has a negative or imprecise fixed cost" % label, "\n".join(bad))
    bad = []
    for k in sorted(have):
        m = re.search(r"^(?:below_)?(\d+)$", _g(have[k], "breakeven_bytes"))
        if m and int(m.group(1)) <= 16:
            bad.append("%s breakeven_bytes=%s" % (k, have[k]["breakeven_bytes"]))
    ok(not bad, "%s: no break-even at or below 16 bytes" % label, "\n".join(bad))
    return recs


def read_lines(path):
    """A serial log's lines, each without its \\n and a CR before it (a last
    line without \\n stays as it is)."""
    with open(path, "rb") as f:
        lines = f.read().decode("latin-1").split("\n")
    last = lines.pop()
    return [l[:-1] if l.endswith("\r") else l for l in lines] + ([last] if last else [])


def start_boot_test():
    """A boot test's start: "TAP version 13", then the image to boot
    (CQ_KERNEL, else CQ_BUILD/cryptoqual.elf); without one the whole test
    SKIPs."""
    kernel = os.environ.get("CQ_KERNEL", os.path.join(os.environ.get("CQ_BUILD", "build"), "cryptoqual.elf"))
    tap.start()
    if not os.path.isfile(kernel):
        tap.skip_all("no kernel at %s (run make)" % kernel)
    return kernel


def bench_boot(kernel, opts, *args):
    """Boots the kernel through scripts/boot-qemu.sh OPTS (a string of
    options): (boot-qemu exit status, its one-line verdict, the serial
    log's lines without CR)."""
    fd, log = tempfile.mkstemp()
    os.close(fd)
    try:
        p = subprocess.run(["scripts/boot-qemu.sh"] + opts.split() + ["--log", log, "--", kernel] + list(args),
                           stdout=subprocess.PIPE)
        verdict = p.stdout.decode("latin-1")
        if verdict.endswith("\n"):
            verdict = verdict[:-1]
        return p.returncode, verdict, read_lines(log)
    finally:
        os.unlink(log)
