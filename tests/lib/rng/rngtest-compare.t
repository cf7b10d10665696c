#!/usr/bin/env python3
"""build/host/rngtest-host against Debian's rngtest (rng-tools5) and ent on
the same bytes: the FIPS 140-2 counts must be identical, and ent's figures
identical as ent prints them (normal and terse output, byte and bit mode).
Inputs: a fixed-seed PRNG file, /dev/urandom, a 55 %-ones generator, the
self-check sources (all-zero, fixed word, 16-bit LFSR, replayed 2 KiB
block) and blocks on which rngtest's counting differs from FIPS 140-2's
description (rngtest.h), plus a few tiny files for ent.
Sizes: 4 bytes (rngtest's seed word) + whole 2500-byte blocks + a tail,
chosen so no denominator of ent's figures is made of 2s and 5s only (then
no exact decimal ties; see lib/rng/ent.h).
Env: CQ_BUILD (build folder, default "build")."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import taplib as tap  # noqa: E402

BUILD = os.environ.get("CQ_BUILD", "build")
TOOL = os.path.join(BUILD, "host", "rngtest-host")

tap.start()
if not shutil.which("rngtest"):
    tap.skip_all("rngtest (Debian rng-tools5) not installed")
if not shutil.which("ent"):
    tap.skip_all("ent (Debian ent) not installed")


def die(msg):
    """The run cannot go on: said on stderr, no plan, exit 255 (prove fails the file)."""
    sys.stderr.write(msg + "\n")
    sys.exit(255)


if not os.access(TOOL, os.X_OK):
    die("%s not built" % TOOL)

DIR = tempfile.mkdtemp()
tap.at_done(lambda: shutil.rmtree(DIR, ignore_errors=True))


def run(cmd):
    """A shell command's output (stdout and stderr)."""
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.stdout.decode("latin-1")


def gen(name, args):
    path = "%s/%s.bin" % (DIR, name)
    if subprocess.run("%s --gen %s > %s" % (TOOL, args, path), shell=True).returncode != 0:
        die("generator %s failed" % args)
    return path


IN = {}
IN["prng"] = gen("prng", "prng --bytes 2501241 --seed 12345")
IN["urandom"] = "%s/urandom.bin" % DIR
if subprocess.run("head -c 2501241 /dev/urandom > %s" % IN["urandom"], shell=True).returncode != 0:
    die("no /dev/urandom")
IN["biased55"] = gen("biased55", "biased55 --bytes 2501241 --seed 99")
IN["zero"] = gen("zero", "bad-zero --bytes 250004")
IN["pattern32"] = gen("pattern32", "bad-pattern32 --bytes 250104")
IN["lfsr16"] = gen("lfsr16", "bad-lfsr16 --bytes 500004")
IN["repeat2k"] = gen("repeat2k", "bad-repeat2k --bytes 500017")
IN["edge"] = gen("edge", "fips-edge --bytes 500004 --seed 7")
FILES = "prng urandom biased55 zero pattern32 lfsr16 repeat2k edge".split()


def is_(got, want, name):
    return tap.ok(got == want, name, "     got: %r\nexpected: %r" % (got, want))


def like(got, pattern, name):
    return tap.ok(re.search(pattern, got) is not None, name, "%r\ndoes not match %r" % (got, pattern))


# ---- rngtest ----

COUNTER_RE = re.compile(r"^rngtest: (bits received from input|FIPS 140-2 (successes|failures)|"
                        r"FIPS 140-2\(2001-10-10\) [A-Za-z ]+): \d+$")


def counters(text):
    """The counter lines of rngtest's report, in order."""
    return "\n".join(l for l in text.split("\n") if COUNTER_RE.search(l)) + "\n"


OURS = {}
for name in FILES:
    f = IN[name]
    want = counters(run("rngtest < %s" % f))
    OURS[name] = run("%s < %s" % (TOOL, f))
    got = counters(OURS[name])
    like(want, r"successes: \d+", "%s: rngtest printed its counters" % name)
    is_(got, want, "%s: FIPS 140-2 counts identical to rngtest" % name)

# The edge file is only a test if counting as FIPS 140-2 describes gives other numbers.
strict, loose = counters(run("%s --strict < %s" % (TOOL, IN["edge"]))), counters(run("rngtest < %s" % IN["edge"]))
tap.ok(strict != loose, "fips-edge: strict FIPS 140-2 counting differs from rngtest on these blocks",
       "both:\n" + strict)
# rngtest -c N stops after N blocks; so does a file cut to 4 + N * 2500 bytes.
is_(counters(run("head -c 250004 %s | %s" % (IN["urandom"], TOOL))),
    counters(run("rngtest -c 100 < %s" % IN["urandom"])),
    "urandom: first 100 blocks identical to rngtest -c 100")
like(OURS["biased55"], r"(?m)Monobit: 1000$", "biased55: every block fails monobit")
like(OURS["zero"], r"(?m)Continuous run: 100$", "zero: every block fails the continuous test")

# ---- ent ----


def first(pattern, text, groups=1):
    """The groups of pattern's first match in text (None for each without one)."""
    m = re.search(pattern, text)
    return m.groups() if m else (None,) * groups


def ent_fields(text):
    """ent's normal output -> its figures as printed."""
    f = {}
    f["entropy"], f["unit"] = first(r"Entropy = (\S+) bits per (byte|bit)\.", text, 2)
    f["compression"], = first(r"by (\d+) percent\.", text)
    f["samples"], f["chisq"] = first(r"Chi square distribution for (\d+) samples is (-?nan|\d+\.\d+)", text, 2)
    f["mean"], = first(r"Arithmetic mean value of data \w+ is (\S+) ", text)
    f["pi"], f["pi_error"] = first(r"Monte Carlo value for Pi is (\S+) \(error (\S+) percent\)", text, 2)
    f["scc"], = first(r"Serial correlation coefficient is (\S+)", text)
    return f


def terse(text):
    """The data line of ent -t."""
    line, = first(r"(?m)^(?:ent-terse: )?(1,.*)$", text)
    return line if line is not None else "(none)"


TINY = []
for tname, data in (("empty", b""), ("one", b"a"), ("five", b"abcde"), ("six", b"abcdef"),
                    ("equal", b"\xff" * 4099), ("counter", bytes(range(256)) * 41),
                    # exact decimal ties of the mean: 127.03125 (a double: printed to even),
                    # 127.01875 (not a double: printed as its nearest double, 127.0187)
                    ("tie32", b"\x7f" * 31 + b"\x80"), ("tie160", b"\x7f" * 159 + b"\x82")):
    path = "%s/%s.bin" % (DIR, tname)
    with open(path, "wb") as fh:
        fh.write(data)
    IN[tname] = path
    TINY.append(tname)

for name in FILES + TINY:
    f = IN[name]
    for mode in ("", "-b"):
        label = "%s (ent -b)" % name if mode else name
        flag = " --bits" if mode else ""
        ours = run("%s%s < %s" % (TOOL, flag, f)) if mode or not OURS.get(name) else OURS[name]
        want = ent_fields(run("ent %s %s" % (mode, f)))
        got = ent_fields("\n".join(l[len("ent: "):] for l in ours.split("\n") if l.startswith("ent: ")))
        tap.ok(want["entropy"] is not None, "%s: ent printed its figures" % label)
        is_(got, want, "%s: entropy, compression, chi-square, mean, pi, serial correlation as ent prints them" % label)
        is_(terse(ours), terse(run("ent -t %s %s" % (mode, f))), "%s: ent -t line identical" % label)

tap.done()
