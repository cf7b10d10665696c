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


if __name__ == "__main__":
    unittest.main()
