"""tools/cqreport/compare.py: checks of a document against a baseline."""

import unittest

from helpers import log, report
from cqreport import baseline, compare, parse

CELL = ("# @cipher engine=geode-sb alg=aes-128-cbc dir=encrypt variant=separate-aligned emulated=0 reps=3 "
        "bytes=16,8192 kbps=%s,%s spread_pct=0.0,0.0 ops=10,10 t=1.0")


def doc(lo=1000.0, hi=37000.0, results=None):
    return parse.parse_log(log(report(results=results, records=[CELL % (lo, hi)])), "b", "b.log")


FIG = {"record": "cipher", "match": {"engine": "geode-sb", "alg": "aes-128-cbc", "bytes": 8192}, "field": "kbps",
       "baseline": 37000, "min_ratio": 0.9}


class CheckTest(unittest.TestCase):
    def test_figure_within(self):
        ok, detail, ratio = compare.check_figure(doc(hi=34000.0), FIG)
        self.assertTrue(ok, detail)
        self.assertAlmostEqual(ratio, 34000.0 / 37000)

    def test_figure_below(self):
        ok, detail, ratio = compare.check_figure(doc(hi=30000.0), FIG)
        self.assertFalse(ok)
        self.assertIn("of baseline 37000", detail)

    def test_required_test(self):
        base = {"require_tests": ["kat: geode-sb"]}
        d = doc(results=["ok 1 - cpu: x", "not ok 2 - kat: geode-sb aes-128-cbc encrypt"])
        checks = compare.judge(d, base)
        self.assertFalse(all(c[0] for c in checks))

    def test_why_leads_with_not_ok_then_8k(self):
        """WHY: the first not ok by name, then the largest shortfall at 8 KiB, the verdict last; a not ok
        the baseline does not require is still named"""
        base = {"require_tests": ["cpu: x"], "figures": [
            dict(FIG, match=dict(FIG["match"], bytes=16), baseline=2000),
            FIG, dict(FIG, match=dict(FIG["match"], bytes=8192, engine="geode-sb"), name="8K again")]}
        d = doc(lo=500.0, hi=20000.0, results=["ok 1 - cpu: x", "not ok 2 - geode-sb: DMA timeout after 9 cycles",
                                               "not ok 3 - kat: geode-sb aes-128-cbc encrypt"])
        why = compare.why_of(compare.judge(d, base))
        self.assertEqual(why[0], "not ok 2 - geode-sb: DMA timeout after 9 cycles")
        self.assertEqual(why[1], "not ok 3 - kat: geode-sb aes-128-cbc encrypt")
        self.assertIn("bytes=8192", why[2])
        self.assertIn("54.1%", why[2])
        self.assertIn("bytes=16", why[4])
        self.assertTrue(why[-1].startswith("verdict FAIL"), why)

    def test_no_baseline_for_model(self):
        """a box of a model the set has no baseline for: one line, not a line per figure"""
        bases = baseline.BaselineSet([({"model": {"cpu.vendor": "CentaurHauls"}, "figures": [FIG] * 50}, "s.json")],
                                     "s.json")
        checks, label = compare.judge_run(doc(), bases)
        self.assertIsNone(label)
        self.assertEqual(compare.why_of(checks),
                         ["no baseline for AuthenticAMD family 5 model 10"])

    def test_set_picks_by_model(self):
        """the baseline whose model matches the box, the most specific first"""
        a = {"model": {"cpu.vendor": "AuthenticAMD"}, "description": "any AMD"}
        b = {"model": {"cpu.vendor": "AuthenticAMD", "cpu.family": 5, "cpu.model": 10}, "description": "Geode LX"}
        c = {"model": {"cpu.vendor": "AuthenticAMD", "cpu.family": 5, "cpu.model": 10, "product": "ALIX"},
             "description": "ALIX"}
        bases = baseline.BaselineSet([(a, "a"), (b, "b"), (c, "c")], "set")
        self.assertEqual(bases.choose(doc())[0]["description"], "Geode LX")

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
