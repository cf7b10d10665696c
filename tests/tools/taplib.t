#!/usr/bin/env python3
"""tests/taplib.py, the Python tests' TAP writer: the plan and exit status
of done() and skip_all(), and the at_done() cleanup (a test's temporary
folder) run exactly once however the test ends: done(), skip_all(), or an
uncaught error. Each case is a child python3 writing the folder's path
on stderr. Prints TAP version 13."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import taplib as tap  # noqa: E402

CHILD = r"""
import os, shutil, sys, tempfile
sys.path.insert(0, %r)
import taplib as tap
d = tempfile.mkdtemp(prefix="cq-taplib-t.")
runs = []
tap.at_done(lambda: (runs.append(1), shutil.rmtree(d), sys.stderr.write("cleanup %%d\n" %% len(runs))))
sys.stderr.write("dir " + d + "\n")
tap.start()
tap.ok(%s, "a result")
%s
"""

CASES = [
    ("done() after a pass", "True", "tap.done()", 0, "1..1"),
    ("done() after a failure", "False", "tap.done()", 1, "1..1"),
    ("skip_all()", "True", "tap.skip_all('nothing here')", 0, "1..0 # SKIP nothing here"),
    ("an uncaught error", "True", "raise RuntimeError('boom')", 1, None),
]

tap.start()
for name, value, end, status, plan in CASES:
    r = subprocess.run([sys.executable, "-c", CHILD % (os.path.join(HERE, ".."), value, end)],
                       capture_output=True, text=True, timeout=60)
    dirs = [ln[4:] for ln in r.stderr.splitlines() if ln.startswith("dir ")]
    cleanups = [ln for ln in r.stderr.splitlines() if ln.startswith("cleanup ")]
    tap.ok(r.returncode == status, "%s: exit status %d" % (name, status), r.stdout + r.stderr)
    if plan is not None:
        tap.ok(r.stdout.splitlines()[-1:] == [plan], "%s: the last line is the plan %r" % (name, plan), r.stdout)
    tap.ok(len(dirs) == 1 and not os.path.exists(dirs[0]),
           "%s: the at_done() cleanup removed the temporary folder" % name, r.stderr)
    tap.ok(cleanups == ["cleanup 1"], "%s: the cleanup ran exactly once" % name, r.stderr)
tap.done()
