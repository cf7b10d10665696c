"""Synthetic logs in the line forms of docs/report-format.md for the unit
tests of tools/cqreport (one test file per module)."""

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))

SHA = "ab" * 32


def report(results=None, records=(), verdict=None, head=(), tap="TAP version 13", version="v1-test"):
    """One boot's report as text lines (no line ends)."""
    results = results if results is not None else [
        "ok 1 - cpu: CPUID identity decoded (AuthenticAMD family 5 model 10 stepping 2)",
        "ok 2 - kat: geode-sb aes-128-cbc encrypt"]
    n_ok = sum(1 for r in results if r.startswith("ok") and "# SKIP" not in r and "# finding" not in r)
    n_ok += sum(1 for r in results if r.startswith("ok") and "# finding" in r)
    n_not = sum(1 for r in results if r.startswith("not ok"))
    n_skip = sum(1 for r in results if "# SKIP" in r)
    if verdict is None:
        verdict = "# cryptoqual: %s (%d ok, %d not ok, %d skipped)" % (
            "FAIL" if n_not else "PASS", n_ok, n_not, n_skip)
    lines = [tap, "# cryptoqual %s image-sha256=%s" % (version, SHA), "# cpu.vendor=AuthenticAMD",
             "# cpu.family=5", "# cpu.model=10"] + list(head)
    lines += results[:1] + list(records) + results[1:]
    lines += ["1..%d" % sum(1 for r in results if not r.startswith("#")), verdict]
    return lines


def log(*boots, end="\r\n"):
    """Bytes of a capture holding the given boots (lists of lines)."""
    return "".join(l + end for b in boots for l in b).encode("latin-1")


def scratch():
    """A test module's temporary folder and its hooks, as (folder, write,
    tearDownModule): write(name, data) puts the bytes in folder/name and
    returns the path; tearDownModule removes the folder."""
    folder = tempfile.mkdtemp(prefix="qualreport-unit.")

    def write(name, data):
        p = os.path.join(folder, name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    return folder, write, lambda: shutil.rmtree(folder, ignore_errors=True)
