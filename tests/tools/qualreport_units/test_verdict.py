"""tools/cqreport/verdict.py: a boot's verdict and the log's."""

import unittest

from helpers import log, report
from cqreport import parse, verdict


def boot_of(lines):
    boot = parse.Boot(1, 1)
    for l in parse.split_lines(log(lines[1:])):
        boot.take(l)
    return boot


class VerdictTest(unittest.TestCase):
    def test_pass(self):
        self.assertEqual(verdict.boot_verdict(boot_of(report())), "PASS")

    def test_incomplete(self):
        self.assertEqual(verdict.boot_verdict(boot_of(report()[:-1])), "INCOMPLETE")

    def test_pass_beside_not_ok(self):
        """a PASS verdict line beside a not ok is INCONSISTENT"""
        b = boot_of(report(results=["ok 1 - a", "not ok 2 - b"], verdict="# cryptoqual: PASS (2 ok, 0 not ok, 0 skipped)"))
        self.assertEqual(verdict.boot_verdict(b), "INCONSISTENT")

    def test_missing_unexplained(self):
        """a result missing where no damaged line stands is a contradiction"""
        lines = report(results=["ok 1 - a", "ok 2 - b", "ok 3 - c"])
        del lines[lines.index("ok 2 - b")]
        b = boot_of(lines)
        self.assertEqual(verdict.unexplained_missing(b, 3), [2])

    def test_log_verdict_failure_elsewhere(self):
        """a failure line outside the reported boot makes a PASS boot FAIL"""
        b = boot_of(report())
        v, why = verdict.log_verdict("PASS", b, [(10**6, "not ok", "not ok 1 - x")], None, False)
        self.assertEqual(v, "FAIL")
        self.assertTrue(why)

    def test_log_verdict_emulated(self):
        b = boot_of(report())
        self.assertEqual(verdict.log_verdict("PASS", b, [], {"profile": "c7", "records": 1}, False)[0], "EMULATED")
        self.assertEqual(verdict.log_verdict("PASS", b, [], {"profile": "c7", "records": 1}, True)[0], "PASS")


if __name__ == "__main__":
    unittest.main()
