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


# bench= levels (docs/cmdline.md): quick measures AES-128 and AES-256 CBC,
# full AES-192 and the other AES-256 modes too.
ROW = ("# @cipher engine=aesni alg=%s dir=encrypt variant=separate-aligned emulated=0 reps=3 "
       "bytes=%s kbps=%s spread_pct=%s ops=%s t=1.0")
QUICK_ALGS = ("aes-128-cbc", "aes-256-cbc")
FULL_ALGS = QUICK_ALGS + ("aes-192-cbc", "aes-256-ctr")


def bench_doc(mode, algs, name="b", sizes=None):
    """A box's document with one @cipher row per algorithm (sizes: alg ->
    the sizes of its row, 16 and 8192 by default), booted with bench=mode
    (None: a log without an `# options:` line)."""
    records = []
    for a in algs:
        b = (sizes or {}).get(a, (16, 8192))
        records.append(ROW % (a, ",".join(map(str, b)), ",".join(str(1000.0 + n) for n in b),
                              ",".join("0.0" for _ in b), ",".join("10" for _ in b)))
    head = ["# options: console=ttyS0,115200 bench=%s bench_ms=default rng_bytes=default seed=default "
            "on_finish=halt" % mode] if mode else []
    return parse.parse_log(log(report(records=records, head=head)), name, name + ".log")


def full_baseline():
    base, _ = baseline.make_baseline([bench_doc("full", FULL_ALGS, "f1"), bench_doc("full", FULL_ALGS, "f2")], 0.9)
    return base


class BenchLevelTest(unittest.TestCase):
    def failed(self, d, base):
        return [c[2] for c in compare.judge(d, base) if not c[0]]

    def test_other_level_not_compared(self):
        """a bench=quick boot against a baseline of bench=full boots: the AES-192 and AES-256 CTR figures are
        no failure, each a not-compared check, named in one note; the figures it measures are compared"""
        base = full_baseline()
        d = bench_doc("quick", QUICK_ALGS)
        checks = compare.judge(d, base)
        self.assertEqual([c[2] for c in checks if not c[0]], [])
        skipped = [c[2] for c in checks if c[1] == "not-compared"]
        self.assertEqual(len(skipped), 4, skipped)
        self.assertTrue(all("alg=aes-192-cbc" in x or "alg=aes-256-ctr" in x for x in skipped), skipped)
        self.assertIn("not compared: bench=quick does not measure it (the baseline's figures come from bench=full)",
                      skipped[0])
        r = compare.run_result(d, checks, "x")
        self.assertEqual(r["result"], "PASS")
        self.assertEqual(r["figures"], (4, 4))
        self.assertEqual(len(r["notes"]), 1)
        self.assertTrue(r["notes"][0].startswith(
            "4 figure(s) not compared: bench=quick does not measure them (the baseline's figures come from "
            "bench=full): @cipher engine=aesni alg=aes-192-cbc"), r["notes"][0])
        self.assertTrue(r["notes"][0].endswith(" ..."), r["notes"][0])

    def test_same_level_missing_fails(self):
        """a figure missing from a boot of the baseline's own level, or of a log without `# options:`, fails"""
        base = full_baseline()
        bad = self.failed(bench_doc("full", QUICK_ALGS + ("aes-192-cbc",)), base)
        self.assertEqual(len(bad), 2, bad)
        self.assertTrue(all("alg=aes-256-ctr" in x and x.endswith(": missing") for x in bad), bad)
        self.assertEqual(len(self.failed(bench_doc(None, QUICK_ALGS), base)), 4)

    def test_cell_the_level_measures_fails(self):
        """a bench=quick boot that lacks a cell bench=quick measures (AES-128 CBC at 8 KiB) fails on it"""
        bad = self.failed(bench_doc("quick", QUICK_ALGS, sizes={"aes-128-cbc": (16,)}), full_baseline())
        self.assertEqual(len(bad), 1, bad)
        self.assertIn("alg=aes-128-cbc", bad[0])
        self.assertIn("bytes=8192", bad[0])
        self.assertTrue(bad[0].endswith(": missing"))

    def test_baseline_without_levels(self):
        """a baseline without bench_modes (older, or hand-made) requires every figure as before"""
        base = full_baseline()
        del base["bench_modes"]
        self.assertEqual(len(self.failed(bench_doc("quick", QUICK_ALGS), base)), 4)

    def test_mode_measures(self):
        """what each bench= level measures, as docs/cmdline.md says"""
        cell = {"record": "cipher", "field": "kbps", "match": {"engine": "x", "variant": "separate-aligned"}}

        def at(mode, **match):
            return baseline.mode_measures(mode, dict(cell, match=dict(cell["match"], **match)))
        self.assertTrue(at("quick", alg="aes-256-cbc"))
        self.assertFalse(at("quick", alg="aes-256-ctr"))
        self.assertFalse(at("quick", key_bits=192))
        self.assertTrue(at("quick", alg="aes-192-cbc", variant="in-place"))
        self.assertIsNone(at("quick"))
        self.assertFalse(at("off", alg="aes-128-cbc"))
        self.assertIsNone(at("fast", alg="aes-128-cbc"))
        self.assertTrue(baseline.mode_measures("quick", {"record": "hash", "field": "kbps", "match": {}}))
        self.assertTrue(baseline.mode_measures("off", {"record": "rng", "field": "verdict", "match": {}}))
        self.assertFalse(baseline.mode_measures("off", {"record": "rng", "field": "bench_bytes_per_s", "match": {}}))


if __name__ == "__main__":
    unittest.main()
