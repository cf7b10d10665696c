#!/usr/bin/env python3
"""A property of tools/qualreport's parser (docs/qualreport.md, "Verdicts"),
tested with Debian's python3-hypothesis: random damage to real logs never
yields PASS for a log whose clean version fails. Real logs from QEMU: a
FAIL (selftest=fault-in-test), a crash (selftest=fault-outside) and a PASS
(a 1 ms benchmark), the PASS one as a source of pasted lines and as the other boot
of two-boot logs. Damage, up to six operations in a row: garbage bytes into
a line, any bytes anywhere, a line lost, repeated or swapped with another,
a line of the PASS log pasted in or over one (its verdict line
over any), the capture cut, the line
ends changed. Derandomized, so every run tries the same examples. Prints
TAP version 13; SKIPs without python3-hypothesis."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import ok, diag, done, start, skip_all, load_tool, boot, debian_python, KERNEL  # noqa: E402

try:
    # Debian's package is for Debian's python3: another python3 first in
    # PATH (a virtualenv, pyenv) does not see it.
    debian_python("hypothesis")
    from hypothesis import given, settings, assume, strategies as st, HealthCheck
except ImportError:
    skip_all("no python3-hypothesis (Debian package python3-hypothesis; scripts/install-deps.sh)")
start()
if not os.path.exists(KERNEL):
    skip_all("no kernel at %s (run make)" % KERNEL)

QR = load_tool()
EXAMPLES = int(os.environ.get("QUALREPORT_EXAMPLES", "400"))
PASS = boot("pass", ["bench_ms=1"], cpu="max")     # bench=off would make it PARTIAL
FAIL = boot("fail", ["selftest=fault-in-test", "bench=off"], cpu="pentium,+cmov")
CRASH = boot("crash", ["selftest=fault-outside", "bench=off"], cpu="pentium,+cmov")
PASS_LINES = PASS.split(b"\r\n")
PASS_VERDICT = [ln for ln in PASS_LINES if ln.lstrip(b"# ").startswith(b"cryptoqual: PASS")][0]
NOT_PRINTABLE = [b for b in range(256) if not (0x20 <= b <= 0x7e or b in (0x09, 0x0a, 0x0d))]

ok(QR.parse_log(FAIL, "f", "f.log")["verdict"] == "FAIL" and QR.parse_log(CRASH, "c", "c.log")["verdict"] == "CRASH"
   and QR.parse_log(PASS, "p", "p.log")["verdict"] == "PASS", "the clean logs read FAIL, CRASH and PASS")

# One damage operation: (kind, a, b, bytes); a and b are fractions that
# pick a line or a byte position in whatever the log is by then.
OPS = st.tuples(
    st.sampled_from(["garble", "bytes", "lose", "repeat", "swap", "paste", "paste-over", "paste-verdict", "cut",
                     "ends"]),
    st.floats(0, 1), st.floats(0, 1),
    st.binary(min_size=1, max_size=8))


def damage(data, ops):
    """Applies ops in order; a change of line ends applies last, so that the
    other operations' lines stay the log's lines."""
    ends = None
    for kind, a, b, raw in ops:
        lines = data.split(b"\r\n")
        i = min(int(a * len(lines)), len(lines) - 1)
        j = min(int(b * len(lines)), len(lines) - 1)
        if kind == "garble":
            junk = bytes(NOT_PRINTABLE[x % len(NOT_PRINTABLE)] for x in raw)
            cut = int(b * len(lines[i]))
            lines[i] = lines[i][:cut] + junk + lines[i][cut:]
        elif kind == "bytes":
            pos = int(a * len(data))
            data = data[:pos] + raw + data[pos:]
            continue
        elif kind == "lose":
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "paste":
            lines.insert(i, PASS_LINES[min(int(b * len(PASS_LINES)), len(PASS_LINES) - 1)])
        elif kind == "paste-over":
            lines[i] = PASS_LINES[min(int(b * len(PASS_LINES)), len(PASS_LINES) - 1)]
        elif kind == "paste-verdict":
            lines[i] = PASS_VERDICT
        elif kind == "cut":
            data = data[: int(a * len(data))]
            continue
        elif kind == "ends":
            ends = [b"\n", b"\r", b"\n\r"][int(a * 2.99)]
            continue
        data = b"\r\n".join(lines)
    return data.replace(b"\r\n", ends) if ends else data


FAILED_EXAMPLES = []


def check_never_pass(label, clean, ops, boot_choice="last"):
    try:
        d = QR.parse_log(damage(clean, ops), "box", "box.log", boot_choice)
    except ValueError:
        return "no such boot"       # --boot last-complete with none complete
    if d["verdict"] == "PASS":
        FAILED_EXAMPLES.append((label, boot_choice, ops, d["problems"][:4]))
    return d["verdict"]


def property_test(label, clean, choices=("last", "last-complete")):
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(OPS, min_size=1, max_size=6))
    def prop(ops):
        for c in choices:
            assert check_never_pass(label, clean, ops, c) != "PASS"
    try:
        prop()
        ok(True, "%s: %d random damages, none reads PASS (--boot %s)" % (label, EXAMPLES, ", ".join(choices)))
    except AssertionError:
        lab, choice, ops, problems = FAILED_EXAMPLES[-1]
        ok(False, "%s: random damage never reads PASS" % label,
           "--boot %s, damage %r\nproblems: %s" % (choice, ops, problems))


property_test("FAIL log (selftest=fault-in-test)", FAIL)
property_test("crashed log (selftest=fault-outside)", CRASH)


# Two boots in one log, one of them failed: the box failed. Losing lines can
# erase a boot's every trace of failure (its 'not ok' line, its verdict and
# its start), after which the log is honestly a PASS; so here at most two
# lines are lost.
def few_losses(ops):
    return sum(1 for op in ops if op[0] == "lose") <= 2


for label, clean in (("a PASS boot, then a FAIL boot", PASS + FAIL), ("a FAIL boot, then a PASS boot", FAIL + PASS)):
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(OPS, min_size=1, max_size=6))
    def prop2(ops):
        assume(few_losses(ops))
        d = QR.parse_log(damage(clean, ops), "box", "box.log")
        checks = QR.judge(d, {})
        if all(c[0] for c in checks):
            FAILED_EXAMPLES.append((label, "compare", ops, d["problems"][:4]))
            raise AssertionError
    try:
        prop2()
        ok(True, "%s: %d random damages, compare never passes the box" % (label, EXAMPLES))
    except AssertionError:
        lab, choice, ops, problems = FAILED_EXAMPLES[-1]
        ok(False, "%s: random damage never passes compare" % label, "damage %r\nproblems: %s" % (ops, problems))

# The damage is real damage: a fair share (over a fifth) of the damaged
# PASS logs stop reading PASS, so the operations are not no-ops.
verdicts = {}


@settings(max_examples=200, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(st.lists(OPS, min_size=1, max_size=3))
def tally(ops):
    v = QR.parse_log(damage(PASS, ops), "box", "box.log")["verdict"]
    verdicts[v] = verdicts.get(v, 0) + 1


tally()
diag("damaged PASS logs: %s" % verdicts)
ok(verdicts.get("PASS", 0) > 0 and sum(verdicts.values()) - verdicts.get("PASS", 0) > 40,
   "the damage operations change verdicts (damaged PASS logs: %s)" % verdicts)
done()
