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

    def test_partial(self):
        """a PASS whose options skipped or shrank a stage is PARTIAL, its own state"""
        b = boot_of(report(verdict="# cryptoqual: PASS (2 ok, 0 not ok, 0 skipped; partial: bench=off)"))
        self.assertEqual(verdict.boot_verdict(b), "PARTIAL")
        b = boot_of(report(results=["not ok 1 - a"],
                           verdict="# cryptoqual: FAIL (0 ok, 1 not ok, 0 skipped; partial: bench=off)"))
        self.assertEqual(verdict.boot_verdict(b), "FAIL")

    def test_log_verdict_partial(self):
        """a failure elsewhere makes a PARTIAL boot FAIL; the emulation image's is EMULATED"""
        b = boot_of(report())
        self.assertEqual(verdict.log_verdict("PARTIAL", b, [(10**6, "not ok", "not ok 1 - x")], None, False)[0],
                         "FAIL")
        self.assertEqual(verdict.log_verdict("PARTIAL", b, [], {"profile": "c7", "records": 1}, False)[0],
                         "EMULATED")
        self.assertEqual(verdict.log_verdict("PARTIAL", b, [], None, False)[0], "PARTIAL")

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


class SoakTest(unittest.TestCase):
    def soak(self, second="ok 3 - rng: x fips-monobit"):
        lines = report(results=["ok 1 - cpu: x", "ok 2 - rng: x fips-monobit", "# soak: 1 passes",
                                second, "# soak: pass 1 done at t=1.0: 1 ok, 0 not ok in this pass",
                                "ok 4 - soak: 1 passes run"])
        return parse.parse_log(log(lines), "b", "b.log")

    def test_passes_by_position(self):
        """without pass=, the soak lines count the passes; the soak's own result is the first run's"""
        d = self.soak()
        self.assertEqual([(p["pass"], p["ok"], p["verdict"]) for p in d["passes"]], [(0, 3, "PASS"), (1, 1, "PASS")])
        self.assertIsNone(d["worst_pass"])

    def test_failure_in_pass_2(self):
        lines = report(results=["ok 1 - cpu: x", "ok 2 - rng: x fips-monobit", "# soak: 1 passes",
                                "not ok 3 - rng: x fips-monobit", "# soak: pass 1 done at t=1.0",
                                "ok 4 - soak: 1 passes run"])
        d = parse.parse_log(log(lines), "b", "b.log")
        self.assertEqual(d["verdict"], "FAIL")
        self.assertEqual(d["worst_pass"], 1)
        self.assertEqual(d["passes"][1]["first_failure"], "not ok 3 - rng: x fips-monobit")

    def test_quiet_soak(self):
        """a soak pass prints no ok lines: its counts come from its @soak record, a not ok from its line"""
        lines = report(results=["ok 1 - cpu: x", "ok 2 - rng: x fips-monobit", "# soak: 2 passes",
                                "# @rng source=x bytes=2500 verdict=pass pass=1 t=1.0",
                                "# soak: pass 1 done at t=1.0: 1 ok, 0 not ok in this pass",
                                "not ok 3 - rng: x fips-monobit (9 of 99 blocks)",
                                "# @rng source=x bytes=2500 verdict=fail pass=2 t=2.0",
                                "# soak: pass 2 done at t=2.0: 0 ok, 1 not ok in this pass",
                                "# @soak pass=1 ok=1 not_ok=0 seconds=1.0 t=2.0",
                                "# @soak pass=2 ok=0 not_ok=1 seconds=1.0 t=2.0",
                                "ok 4 - soak: 2 passes run"])
        d = parse.parse_log(log(lines), "b", "b.log")
        self.assertEqual([(p["pass"], p["ok"], p["not_ok"], p["verdict"]) for p in d["passes"]],
                         [(0, 3, 0, "PASS"), (1, 1, 0, "PASS"), (2, 0, 1, "FAIL")])
        self.assertEqual(d["worst_pass"], 2)
        self.assertTrue(any("pass 2 of 2 is the first" in p for p in d["problems"]), d["problems"])
        self.assertEqual([t["pass"] for t in d["tests"]], [0, 0, 2, 0])

    def test_soak_record_counts_failure(self):
        """a pass whose @soak record counts a not ok fails even when its line was lost"""
        lines = report(results=["ok 1 - cpu: x", "# soak: 1 passes",
                                "# soak: pass 1 done at t=1.0: 1 ok, 1 not ok in this pass",
                                "# @soak pass=1 ok=1 not_ok=1 seconds=1.0 t=2.0", "ok 2 - soak: 1 passes run"])
        d = parse.parse_log(log(lines), "b", "b.log")
        self.assertEqual(d["worst_pass"], 1)
        self.assertEqual(d["passes"][1]["first_failure"], "@soak not_ok=1")

    def test_one_pass(self):
        self.assertEqual(parse.parse_log(log(report()), "b", "b.log")["passes"], [])


if __name__ == "__main__":
    unittest.main()
