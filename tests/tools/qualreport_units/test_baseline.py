"""tools/cqreport/baseline.py: reading a baseline, a baseline set or a
directory of them (one message naming the file and key for a bad one),
stable names, one baseline per model."""

import contextlib
import io
import json
import os
import tempfile
import types
import unittest

from helpers import log, report, scratch
from cqreport import baseline, parse

TMP, _, tearDownModule = scratch()


def write_json(obj, name=None, folder=TMP):
    fd, path = tempfile.mkstemp(suffix=".json", dir=folder) if name is None else (None, os.path.join(folder, name))
    with (os.fdopen(fd, "w") if fd is not None else open(path, "w")) as f:
        f.write(obj if isinstance(obj, str) else json.dumps(obj))
    return path


GOOD = {"schema": "cryptoqual-baseline-1", "require_tests": ["kat: x", {"regex": "^rng"}]}


class LoadTest(unittest.TestCase):
    def test_good(self):
        s = baseline.load_baseline(write_json(GOOD))
        self.assertEqual(len(s.entries), 1)
        self.assertEqual(s.entries[0][0]["require_tests"][0], "kat: x")

    def bad(self, obj, *words):
        p = write_json(obj)
        with self.assertRaises(baseline.BaselineError) as e:
            baseline.load_baseline(p)
        text = str(e.exception)
        self.assertTrue(text.startswith(p + ": "), text)
        self.assertNotIn("\n", text)
        for w in words:
            self.assertIn(w, text)
        return text

    def test_unknown_key(self):
        self.bad(dict(GOOD, figurse=[]), "figurse: unknown key")

    def test_hand_edits(self):
        """the hand edits docs/qualreport.md invites, each one message naming the key"""
        self.bad(dict(GOOD, require_tests=[{"regex": "("}]), "require_tests[0].regex", "regex")
        self.bad(dict(GOOD, require_pci=[1234]), "require_pci[0]", "VVVV:DDDD")
        self.bad(dict(GOOD, require_tests="kat"), "require_tests", "array")
        self.bad(dict(GOOD, schema="cryptoqual-baseline-2"), "schema", "cryptoqual-baseline-1")
        self.bad({"require_tests": []}, "schema: missing")
        self.bad(dict(GOOD, figures=[{"record": "cipher", "field": "kbps"}]), "figures[0]", "needs a limit")
        self.bad(dict(GOOD, figures=[{"record": "cipher", "field": "kbps", "min_ratio": 0.9}]), "figures[0]",
                 "numeric baseline")
        self.bad(dict(GOOD, model={"cpu": "x"}), "model.cpu")

    def test_not_json(self):
        text = self.bad("TAP version 13\nok 1 - x\n", "not JSON", "serial log", "baseline comes first")
        self.assertIn("line 1 column 1", text)

    def test_broken_json(self):
        """a baseline cut short is a JSON error naming the file, not a serial log"""
        text = self.bad('{"schema": "cryptoqual-baseline-1",', "not JSON", "line 1 column 36")
        self.assertNotIn("serial log", text)

    def test_set_and_directory(self):
        """a set file, or a directory of baselines and sets: every entry, each from its file"""
        a = dict(GOOD, model={"cpu.vendor": "AuthenticAMD"})
        b = dict(GOOD, model={"cpu.vendor": "CentaurHauls"})
        folder = tempfile.mkdtemp(dir=TMP)
        write_json(a, "a.json", folder)
        write_json({"schema": "cryptoqual-baseline-set-1", "baselines": [b]}, "b.json", folder)
        s = baseline.load_baseline(folder)
        self.assertEqual([e[0]["model"]["cpu.vendor"] for e in s.entries], ["AuthenticAMD", "CentaurHauls"])
        self.bad({"schema": "cryptoqual-baseline-set-1", "baselines": [GOOD]}, "baselines[0].model",
                 "names its model")


class StableTest(unittest.TestCase):
    def test_stable_prefix(self):
        self.assertEqual(baseline.stable_prefix("pci: enumeration found 6 functions, a host bridge"),
                         "pci: enumeration found")
        self.assertEqual(baseline.stable_prefix("rng: rdrand 90b-markov (H=0.99 (limit 0.98))"),
                         "rng: rdrand 90b-markov")


class MakeTest(unittest.TestCase):
    def test_one_per_model(self):
        """logs of two models make a set of two baselines, each with its model"""
        amd = parse.parse_log(log(report()), "a", "a.log")
        via = parse.parse_log(log([l.replace("AuthenticAMD", "CentaurHauls").replace("family=5", "family=6")
                                   for l in report()]), "v", "v.log")
        paths = [write_json("", "amd.log"), write_json("", "via.log")]
        with open(paths[0], "wb") as f:
            f.write(log(report()))
        with open(paths[1], "wb") as f:
            f.write(log([l.replace("AuthenticAMD", "CentaurHauls").replace("family=5", "family=6") for l in report()]))
        out = os.path.join(TMP, "set.json")
        args = types.SimpleNamespace(logs=paths, boot="last", allow_emulated=False, min_ratio=0.9, same_image=False,
                                     output=out)
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(baseline.cmd_baseline(args), 0)
        s = baseline.load_baseline(out)
        self.assertEqual(sorted(e[0]["model"]["cpu.vendor"] for e in s.entries), ["AuthenticAMD", "CentaurHauls"])
        self.assertEqual(s.choose(via)[0]["model"]["cpu.family"], 6)
        self.assertEqual(s.choose(amd)[0]["model"]["cpu.family"], 5)
        folder = os.path.join(TMP, "per-model") + os.sep
        args.output = folder
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(baseline.cmd_baseline(args), 0)
        self.assertEqual(len(os.listdir(folder)), 2)


class OptionTestsTest(unittest.TestCase):
    def test_soak_and_expect_left_out(self):
        """tests that only passes=/duration= (soak) or expect= make are not required: an ordinary boot passes"""
        extra = ["ok 3 - expect: geode-sb present (expect=)", "ok 4 - soak: 2 passes run"]
        soak = parse.parse_log(log(report(results=[
            "ok 1 - cpu: CPUID identity decoded (AuthenticAMD family 5 model 10 stepping 2)",
            "ok 2 - kat: geode-sb aes-128-cbc encrypt"] + extra)), "s", "s.log")
        plain = parse.parse_log(log(report()), "p", "p.log")
        base, notes = baseline.make_baseline([soak, soak], 0.9)
        self.assertEqual(base["require_tests"], ["cpu: CPUID identity decoded", "kat: geode-sb aes-128-cbc encrypt"])
        self.assertIn("2 test name(s) that only a run option makes left out: expect: geode-sb present (expect=); "
                      "soak (passes= or duration=)", notes[0])
        from cqreport import compare
        checks = compare.judge(plain, base)
        self.assertTrue(all(c[0] for c in checks), [c for c in checks if not c[0]])


class BenchLevelsTest(unittest.TestCase):
    def setUp(self):
        from test_compare import FULL_ALGS, QUICK_ALGS, bench_doc
        self.full = [bench_doc("full", FULL_ALGS, "f%d" % i) for i in range(2)]
        self.quick = bench_doc("quick", QUICK_ALGS, "q")
        self.bench_doc, self.quick_algs = bench_doc, QUICK_ALGS

    def test_levels_recorded(self):
        """the baseline names the bench= level its figures came from, and says it"""
        base, notes = baseline.make_baseline(self.full, 0.9)
        self.assertEqual(base["bench_modes"], ["full"])
        self.assertEqual(len(base["figures"]), 8)
        self.assertTrue(notes[-1].endswith("measured with bench=full"), notes)
        self.assertEqual(baseline.load_baseline(write_json(base)).entries[0][0]["bench_modes"], ["full"])

    def test_mixed_levels(self):
        """logs of two levels: the cells every log measured, both levels named, what was left out said; a
        bench=quick boot must then show every figure"""
        base, notes = baseline.make_baseline(self.full + [self.quick], 0.9)
        self.assertEqual(base["bench_modes"], ["quick", "full"])
        self.assertEqual(sorted({f["match"]["alg"] for f in base["figures"]}), list(self.quick_algs))
        self.assertIn("logs of 2 bench= levels (bench=quick: 1 log(s), bench=full: 2 log(s)): figures only for the "
                      "cells every log measured, 4 cell(s) some logs did not measure left out", "\n".join(notes))
        from cqreport import compare
        short = self.bench_doc("quick", self.quick_algs[:1])
        bad = [c[2] for c in compare.judge(short, base) if not c[0]]
        self.assertEqual(len(bad), 2, bad)
        self.assertTrue(all(x.endswith(": missing") for x in bad), bad)

    def test_level_unknown(self):
        """a log without `# options:`: no bench_modes (every figure required), and said"""
        base, notes = baseline.make_baseline(self.full + [self.bench_doc(None, self.quick_algs[:1] + (
            "aes-192-cbc", "aes-256-ctr"))], 0.9)
        self.assertNotIn("bench_modes", base)
        self.assertIn("1 log(s) without an '# options:' line (bench= level unknown): no bench_modes recorded",
                      "\n".join(notes))

    def test_schema(self):
        """bench_modes is checked: a level the kernel has not is one message naming the key"""
        LoadTest.bad(self, dict(GOOD, bench_modes=["fast"]), "bench_modes[0]", "a bench= level is off, quick or full")
        LoadTest.bad(self, dict(GOOD, bench_modes=[]), "bench_modes")


class RefusedTest(unittest.TestCase):
    def run_baseline(self, paths, allow=False):
        args = types.SimpleNamespace(logs=paths, boot="last", allow_emulated=allow, min_ratio=0.9, same_image=False,
                                     output=os.path.join(TMP, "refused.json"))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = baseline.cmd_baseline(args)
        return rc, err.getvalue()

    def test_every_refused_log_named(self):
        """three emulated logs: each named, and --allow-emulated offered; with it they make a baseline"""
        emu = [l.replace("# cpu.model=10", "# cpu.model=10\n# @identity version=v1 emulate=net5501 box=E%d t=0.1")
               for l in report()]
        paths = [write_json("", "emu%d.log" % i) for i in range(3)]
        for i, p in enumerate(paths):
            with open(p, "w") as f:
                f.write("\n".join(emu).replace("%d", str(i)) + "\n")
        rc, err = self.run_baseline(paths)
        self.assertEqual(rc, 1)
        for p in paths:
            self.assertIn("%s: verdict EMULATED" % p, err)
        self.assertIn("3 of 3 log(s) refused; 3 of them runs of the emulation image: --allow-emulated takes them", err)
        self.assertEqual(self.run_baseline(paths, allow=True)[0], 0)

    def test_json_is_no_log(self):
        """a JSON document given as a log: said to be JSON, exit 2, no word of a serial speed"""
        rc, err = self.run_baseline([write_json(GOOD, "good.json")])
        self.assertEqual(rc, 2)
        self.assertIn("good.json: a JSON document (cryptoqual-baseline-1), not a serial log", err)
        self.assertNotIn("speed", err)


if __name__ == "__main__":
    unittest.main()
