"""tools/cqreport/compare.py: checks of a document against a baseline."""

import unittest

from helpers import log, report
from cqreport import compare, parse

CELL = ("# @cipher engine=geode-sb alg=aes-128-cbc dir=encrypt variant=separate-aligned emulated=0 reps=3 "
        "bytes=16,8192 kbps=%s,%s spread_pct=0.0,0.0 ops=10,10 t=1.0")


def doc(lo=1000.0, hi=37000.0, results=None):
    return parse.parse_log(log(report(results=results, records=[CELL % (lo, hi)])), "b", "b.log")


FIG = {"record": "cipher", "match": {"engine": "geode-sb", "alg": "aes-128-cbc", "bytes": 8192}, "field": "kbps",
       "baseline": 37000, "min_ratio": 0.9}


class CheckTest(unittest.TestCase):
    def test_figure_within(self):
        ok, detail = compare.check_figure(doc(hi=34000.0), FIG)
        self.assertTrue(ok, detail)

    def test_figure_below(self):
        ok, detail = compare.check_figure(doc(hi=30000.0), FIG)
        self.assertFalse(ok)
        self.assertIn("of baseline 37000", detail)

    def test_required_test(self):
        base = {"require_tests": ["kat: geode-sb"]}
        d = doc(results=["ok 1 - cpu: x", "not ok 2 - kat: geode-sb aes-128-cbc encrypt"])
        checks = compare.judge(d, base)
        self.assertFalse(all(c[0] for c in checks))

    def test_group_runs(self):
        """two runs of one box key are one box; it passes only when both do"""
        runs = [{"box": "a", "box_key": "k", "log": "1.log", "verdict": "PASS", "tests": "1/0/0",
                 "figures": (1, 1), "result": "PASS", "why": [], "checks": []},
                {"box": "a", "box_key": "k", "log": "2.log", "verdict": "FAIL", "tests": "1/1/0",
                 "figures": (0, 1), "result": "FAIL", "why": ["x"], "checks": []}]
        out = compare.group_runs(runs)
        self.assertEqual(len(out), 1)
        self.assertEqual(out[0]["result"], "FAIL")
        self.assertEqual(out[0]["runs"], 2)


if __name__ == "__main__":
    unittest.main()
