#!/usr/bin/env python3
"""Unit tests of each module of tools/cqreport (the package behind
tools/qualreport): tests/tools/qualreport_units/test_MODULE.py, run
through unittest, one TAP result per test method (TAP version 13)."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "qualreport_units"))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import taplib as tap  # noqa: E402
from qualreport_lib import debian_python  # noqa: E402

debian_python("jsonschema")
tap.start()
loader = unittest.TestLoader()
for name in sorted(os.listdir(os.path.join(HERE, "qualreport_units"))):
    if name.startswith("test_") and name.endswith(".py"):
        tap.diag("module %s" % name[5:-3])
        tap.run_unittest(loader.loadTestsFromName(name[:-3]))
tap.done()
