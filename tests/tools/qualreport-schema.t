#!/usr/bin/env python3
"""Hand-edited baselines (docs/qualreport.md, "compare: the baseline"):
Debian's python3-hypothesis makes malformed baselines from a good one
(values of the wrong type, unknown and missing keys, regular expressions
Python cannot compile, PCI IDs that are not VVVV:DDDD, limits out of
range, a set without models, text that is not JSON), and each goes
through `qualreport compare` and `html` as the command line runs them
(cli.main in this process, stderr captured): exit 2 with exactly one
message that names the file and a key, or, when the schema lets the edit
through, an ordinary judgement (exit 0 or 1); never a traceback.
Derandomized; QUALREPORT_EXAMPLES (default 300) examples. TAP version 13;
SKIPs without python3-hypothesis."""

import contextlib
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import debian_python, skip_all  # noqa: E402

debian_python("jsonschema")
try:
    debian_python("hypothesis")
    from hypothesis import given, settings, HealthCheck, strategies as st
except ImportError:
    skip_all("no python3-hypothesis (Debian package python3-hypothesis; scripts/install-deps.sh)")

from qualreport_lib import ok, done, start, write, TMP  # noqa: E402
from cqreport import cli  # noqa: E402

start()
EXAMPLES = int(os.environ.get("QUALREPORT_EXAMPLES", "300"))

# A small real-looking log in the documented line forms (docs/report-format.md).
LOG = "\r\n".join([
    "TAP version 13", "# cryptoqual v1 image-sha256=" + "ab" * 32, "# cpu.vendor=AuthenticAMD", "# cpu.family=5",
    "# cpu.model=10", "# pci: 00:01.2 1022:2082 10.10.00 rev 00 BAR0=mem32:0xa0000000/16K Encryption",
    "# @identity version=v1 emulate=none sys_serial=SN-1 box=SN-1 t=0.1",
    "ok 1 - cpu: CPUID identity decoded",
    "# @cipher engine=geode-sb alg=aes-128-cbc dir=encrypt variant=separate-aligned emulated=0 reps=3 "
    "bytes=16,8192 kbps=1000.00,37000.00 spread_pct=0.0,0.0 ops=10,10 t=1.0",
    "# @rng source=geode-trng/tsel3 bytes=250000 verdict=pass emulated=0 t=1.0",
    "ok 2 - kat: geode-sb aes-128-cbc encrypt", "1..2", "# cryptoqual: PASS (2 ok, 0 not ok, 0 skipped)", ""])
LOG_PATH = write("box.log", LOG.encode())

GOOD = {
    "schema": "cryptoqual-baseline-1",
    "description": "net5501",
    "model": {"cpu.vendor": "AuthenticAMD", "cpu.family": 5, "cpu.model": 10, "product": None},
    "require_tests": ["kat: geode-sb aes-128-cbc encrypt", {"regex": "^cpu: "}],
    "require_pci": ["1022:2082"],
    "require_identity": {"cpu.vendor": "AuthenticAMD", "version": "v1"},
    "figures": [
        {"record": "cipher", "match": {"engine": "geode-sb", "alg": "aes-128-cbc", "bytes": 8192, "dir": "encrypt"},
         "field": "kbps", "baseline": 37000, "min_ratio": 0.9},
        {"record": "rng", "match": {"source": "geode-trng/tsel3"}, "field": "verdict", "equals": "pass"},
        {"record": "cipher", "match": {"bytes": 16, "engine": "geode-sb", "alg": "aes-128-cbc"}, "field": "kbps",
         "baseline": 1000, "info": True}],
}

# Values of every JSON type, and the edits a hand makes.
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False, width=32),
                    st.text(max_size=12), st.sampled_from(["(", "[a-", "*x", "1234", "12:34", "kat", "1022:2082",
                                                           "cryptoqual-baseline-2", "", "\\", "\x00"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=6)
KEYS = ["schema", "description", "model", "require_tests", "require_pci", "require_identity", "figures",
        "figurse", "regex", "record", "field", "match", "baseline", "min_ratio", "max_ratio", "min", "max",
        "equals", "info", "name", "cpu.vendor", "cpu.family", "product", "bytes", "batch"]


def paths(node, here=()):
    """Every (path, value) of a JSON tree, the root first."""
    yield here, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, here + (i,))


def edit(doc, path, how, value, key):
    """doc with one hand edit at path: replace the value, drop the key,
    add a key, or wrap the value in a list."""
    doc = json.loads(json.dumps(doc))
    if not path:
        return value if how == "replace" else doc
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if how == "replace":
        parent[last] = value
    elif how == "drop":
        del parent[last]
    elif how == "add" and isinstance(parent[last], dict):
        parent[last][key] = value
    elif how == "wrap":
        parent[last] = [parent[last]]
    return doc


@st.composite
def malformed(draw):
    base = GOOD
    if draw(st.booleans()):
        base = {"schema": "cryptoqual-baseline-set-1", "baselines": [GOOD]}
    doc = base
    for _ in range(draw(st.integers(1, 3))):
        spots = list(paths(doc))
        path, _ = draw(st.sampled_from(spots))
        doc = edit(doc, path, draw(st.sampled_from(["replace", "drop", "add", "wrap"])), draw(values),
                   draw(st.sampled_from(KEYS)))
    text = json.dumps(doc)
    if draw(st.integers(0, 9)) == 0:
        text = text[:draw(st.integers(0, len(text)))]      # cut: not JSON any more
    return text


def main(argv):
    """cli.main(argv) in this process: (exit status, stdout, stderr, exception or None)."""
    out, err = io.StringIO(), io.StringIO()
    exc = None
    status = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as e:
            status = e.code
        except Exception as e:  # noqa: BLE001 (any exception is the failure looked for)
            exc = e
    return status, out.getvalue(), err.getvalue(), exc


seen = {"rejected": 0, "accepted": 0}
bad = []


def check(text, command):
    path = write("edited.json", text.encode("utf-8", "surrogatepass"))
    if command == "compare":
        status, out, err, exc = main(["compare", path, LOG_PATH])
    else:
        status, out, err, exc = main(["html", LOG_PATH, "--baseline", path, "-o", os.path.join(TMP, "p.html")])
    lines = [l for l in err.splitlines() if l]
    if exc is not None or "Traceback" in err:
        bad.append((text, command, "exception %r" % exc))
    elif status == 2:
        seen["rejected"] += 1
        m = re.match(r"^qualreport: (.+?): (.+)$", lines[0]) if len(lines) == 1 else None
        if not m or m.group(1) != path or not re.match(r"^(.+?): .|^not JSON|^not a baseline", m.group(2)):
            bad.append((text, command, "not one message naming the file and a key: %r" % err))
    elif status in (0, 1):
        seen["accepted"] += 1
        if command == "compare" and not re.search(r"\d+ box\(es\): \d+ passed, \d+ failed", out):
            bad.append((text, command, "accepted, but no judgement: %r %r" % (out[-300:], err[-300:])))
    else:
        bad.append((text, command, "exit %r" % status))


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(malformed(), st.sampled_from(["compare", "compare", "compare", "html"]))
def property_malformed(text, command):
    check(text, command)


status, out, err, exc = main(["compare", write("good.json", json.dumps(GOOD).encode()), LOG_PATH])
ok(status == 0 and exc is None and "1 box(es): 1 passed" in out, "the good baseline passes the box", (out, err))
for name, doc, key in (
        ("a regex Python cannot compile", dict(GOOD, require_tests=[{"regex": "("}]), "require_tests[0].regex"),
        ("a PCI ID that is a number", dict(GOOD, require_pci=[1234]), "require_pci[0]"),
        ("require_tests as one string", dict(GOOD, require_tests="kat"), "require_tests"),
        ("no schema", {k: v for k, v in GOOD.items() if k != "schema"}, "schema")):
    p = write("case.json", json.dumps(doc).encode())
    status, out, err, exc = main(["compare", p, LOG_PATH])
    ok(status == 2 and exc is None and err.startswith("qualreport: %s: %s: " % (p, key)) and err.count("\n") == 1,
       "%s: exit 2, one message naming the file and %s" % (name, key), err)
property_malformed()
ok(not bad, "%d malformed baselines through compare and html: %d rejected with one message, %d judged, "
   "no traceback" % (seen["rejected"] + seen["accepted"] + len(bad), seen["rejected"], seen["accepted"]),
   "\n".join("%s %s: %s" % (c, t[:200], why) for t, c, why in bad[:5]))
ok(seen["rejected"] > EXAMPLES // 2 and seen["accepted"] > 0,
   "the edits both break the schema and pass it (%d rejected, %d judged)" % (seen["rejected"], seen["accepted"]))
done()
