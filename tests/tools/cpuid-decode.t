#!/usr/bin/env python3
"""cpuid-decode over every dump in $CQ_SHARED/data/cpuid, checked against
what the CPUs' documentation says, plus its error handling (usage,
unreadable, malformed and unusable dumps) and --help.
Env: CQ_BUILD (build folder, default "build"), CQ_SHARED (default ../shared)."""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import taplib as tap  # noqa: E402

BUILD = os.environ.get("CQ_BUILD", "build")
SHARED = os.environ.get("CQ_SHARED") or os.path.realpath("../shared")
TOOL = os.path.join(BUILD, "host", "cpuid-decode")
DIR = os.path.join(SHARED, "data", "cpuid")

tap.start()
if not os.path.isdir(DIR):
    tap.skip_all("no dumps in %s" % DIR)

# The keys cpuid_kv() must print first, in this order.
REQUIRED = ("vendor family model stepping brand cmov sse2 aesni rdrand rdseed padlock.rng padlock.ace "
            "padlock.ace2 padlock.phe padlock.pmm padlock.phe2").split()

NONE = {"padlock." + u: "absent" for u in ("rng", "ace", "ace2", "phe", "pmm", "phe2")}

# Expected values per dump file. Sources:
# - Geode LX: AMD Geode LX Processors Data Book, CPUID chapter (signature
#   0x5A2 = family 5 model 10; CMOV and MMX, no SSE; brand "Geode(TM)
#   Integrated Processor by AMD PCS").
# - VIA: PadLock Programming Guide (CPUID 0xC0000001 EDX); Linux /proc/cpuinfo
#   of a C7 6.10.9 reads "rng rng_en ace ace_en ace2 ace2_en phe phe_en pmm
#   pmm_en". Samuel 2 (C5B) has no PadLock and no CMOV; Nehemiah stepping 8
#   has the RNG and ACE; Nano has RNG, AES and SHA (no PMM); its ACE2 is
#   reported present but not enabled.
# - Ivy Bridge: Intel SDM vol. 4 (06_3AH); AES-NI and RDRAND, RDSEED only
#   from Broadwell on, no SHA extensions.
# - Zhaoxin KaiXian KX-7000: a real part reports vendor CentaurHauls and
#   family 7 (shared/notes/via-padlock.md); signature 0x607B1 gives model
#   0x6B = 107 (the extended model counts from family 6 on: Linux
#   arch/x86/lib/cpu.c x86_model()), stepping 1. Its brand string is
#   right-aligned ("ZHAOXIN KaiXian KX-7000" after the leading blanks).
#   CPUID 0xC0000001 EDX 0x1EC03DFF: RNG, ACE, PHE, PMM present and enabled,
#   ACE2 present but not enabled (bit 9 clear), PHE2 (bits 25/26, Zhaoxin)
#   present and enabled. Leaf 1 ECX has AES-NI and RDRAND, leaf 7 EBX RDSEED
#   and SHA.
EXPECT = {
    "AuthenticAMD00005A2_GeodeLX_CPUID.txt": dict(
        NONE, vendor="AuthenticAMD", family=5, model=10, stepping=2,
        brand="Geode(TM) Integrated Processor by AMD PCS",
        cmov=1, mmx=1, sse=0, sse2=0, tsc=1, msr=1, aesni=0, rdrand=0, rdseed=0),
    "CentaurHauls0000673_C5B_Samuel2_CPUID.txt": dict(
        NONE, vendor="CentaurHauls", family=6, model=7, stepping=3, brand="VIA Samuel 2",
        cmov=0, mmx=1, sse=0, sse2=0, aesni=0, rdrand=0, rdseed=0),
    "CentaurHauls0000698_C5P_Nehemiah_CPUID.txt": dict(
        NONE, vendor="CentaurHauls", family=6, model=9, stepping=8, brand="VIA Nehemiah",
        cmov=1, sse=1, sse2=0, aesni=0, rdrand=0,
        **{"padlock.rng": "enabled", "padlock.ace": "enabled"}),
    "CentaurHauls00006A9_C5J_Esther_CPUID.txt": {
        "vendor": "CentaurHauls", "family": 6, "model": 10, "stepping": 9,
        "brand": "VIA Esther processor 1500MHz", "cmov": 1, "sse2": 1, "aesni": 0, "rdrand": 0,
        "padlock.rng": "enabled", "padlock.ace": "enabled", "padlock.ace2": "enabled",
        "padlock.phe": "enabled", "padlock.pmm": "enabled", "padlock.phe2": "absent"},
    "CentaurHauls00006F2_CNA_Isaiah_CPUID.txt": {
        "vendor": "CentaurHauls", "family": 6, "model": 15, "stepping": 2,
        "brand": "VIA CNA processor 1800MHz", "cmov": 1, "sse2": 1, "aesni": 0, "rdrand": 0, "rdseed": 0,
        "sha": 0,
        "padlock.rng": "enabled", "padlock.ace": "enabled", "padlock.ace2": "present",
        "padlock.phe": "enabled", "padlock.pmm": "absent", "padlock.phe2": "absent"},
    "GenuineIntel00306A9_IvyBridge_CPUID.txt": dict(
        NONE, vendor="GenuineIntel", family=6, model=58, stepping=9,
        brand="Intel(R) Core(TM) i7-3770K CPU @ 3.50GHz",
        cmov=1, sse2=1, aesni=1, pclmulqdq=1, rdrand=1, rdseed=0, sha=0, hypervisor=0),
    "CentaurHauls00607B1_KX7000_CPUID.txt": {
        "vendor": "CentaurHauls", "family": 7, "model": 107, "stepping": 1,
        "brand": "ZHAOXIN KaiXian KX-7000", "cmov": 1, "sse2": 1, "aesni": 1, "rdrand": 1, "rdseed": 1,
        "sha": 1, "hypervisor": 0,
        "padlock.rng": "enabled", "padlock.ace": "enabled", "padlock.ace2": "present",
        "padlock.phe": "enabled", "padlock.pmm": "enabled", "padlock.phe2": "enabled"},
}


def run_tool(*args):
    """(exit status, stdout lines, stderr text) of the tool."""
    p = subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines = p.stdout.decode("latin-1").split("\n")
    if lines[-1] == "":
        lines.pop()
    return p.returncode, lines, p.stderr.decode("latin-1")


def is_(got, want, name, why=None):
    """Equal as strings (None only equals None); the two shown on failure."""
    same = (got is None and want is None) or (got is not None and want is not None and str(got) == str(want))
    return tap.ok(same, name, "     got: %r\nexpected: %r%s" % (got, want, "\n" + why if why else ""))


def like(got, pattern, name, why=None):
    return tap.ok(got is not None and re.search(pattern, got) is not None, name,
                  "%r\ndoes not match %r%s" % (got, pattern, "\n" + why if why else ""))


def check_dump(name):
    want = EXPECT[name]
    status, lines, err = run_tool("--kv", os.path.join(DIR, name))
    is_(status, 0, "%s: exit status" % name, err)
    keys = [l.split("=", 1)[0] for l in lines]
    keys = (keys + [None] * len(REQUIRED))[:len(REQUIRED)]
    tap.ok(keys == REQUIRED, "%s: key order" % name, "\n".join(lines))
    got = dict(l.split("=", 1) if "=" in l else (l, None) for l in lines)
    for key in sorted(want):
        is_(got.get(key), want[key], "%s: %s" % (name, key))


TMP = tempfile.mkdtemp()
tap.at_done(lambda: __import__("shutil").rmtree(TMP, ignore_errors=True))


def write_temp(text):
    fd, path = tempfile.mkstemp(dir=TMP)
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    return path


def check_fails(name, stderr_re, *args):
    status, lines, err = run_tool(*args)
    is_(status, 2, "%s: exit status 2" % name)
    like(err, stderr_re, "%s: message" % name, "stderr: " + err)


if not os.access(TOOL, os.X_OK):
    tap.ok(False, "%s is built" % TOOL)
    tap.done()

files = sorted(f for f in os.listdir(DIR) if os.path.isfile(os.path.join(DIR, f)))
tap.ok(len(files) > 0, "dumps found in %s" % DIR)
for name in files:
    if name not in EXPECT:
        tap.ok(False, "%s has expectations in this test" % name)
        continue
    check_dump(name)
for name in sorted(EXPECT):
    tap.ok(name in files, "%s is in %s" % (name, DIR))

check_fails("no arguments", r"usage")
check_fails("no --kv", r"usage", os.path.join(DIR, files[0] if files else ""))
check_fails("missing file", r"nonexistent.*No such file", "--kv", os.path.join(DIR, "nonexistent"))
check_fails("malformed line", r":3: malformed CPUID line", "--kv",
            write_temp("x\nCPUID 00000000: 00000001-68747541-444D4163-69746E65\n"
                       "CPUID 00000001: 000005A2-00000400-00000000\n"))
check_fails("no CPUID lines", r"no CPUID lines", "--kv", write_temp("just text\n"))
# Leaf 0 or leaf 1 missing: nothing to decode, not family=0 with exit 0.
only0 = write_temp("CPUID 00000000: 00000001-68747541-444D4163-69746E65\n")
check_fails("a dump without leaf 1",
            r"(?m)^cpuid-decode: " + re.escape(only0) + r": no CPUID leaf 1: not a usable dump$", "--kv", only0)
only1 = write_temp("CPUID 00000001: 000005A2-00000400-00000000-0088A93D\n")
check_fails("a dump without leaf 0",
            r"(?m)^cpuid-decode: " + re.escape(only1) + r": no CPUID leaf 0: not a usable dump$", "--kv", only1)
status, lines, err = run_tool("--kv", only0)
tap.ok(not lines, "a dump without leaf 1: no KEY=VALUE lines", "\n".join(lines))
for opt in ("--help", "-h"):
    status, lines, err = run_tool(opt)
    is_(status, 0, "%s: exit status 0" % opt)
    like(lines[0] if lines else "", r"^usage: cpuid-decode --kv DUMP$", "%s: the usage on stdout" % opt)
    is_(err, "", "%s: nothing on stderr" % opt)

tap.done()
