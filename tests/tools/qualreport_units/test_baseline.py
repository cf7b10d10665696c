"""tools/cqreport/baseline.py: reading a baseline, stable names."""

import json
import os
import tempfile
import unittest

from cqreport import baseline


def write_json(obj):
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as f:
        f.write(obj if isinstance(obj, str) else json.dumps(obj))
    return path


class LoadTest(unittest.TestCase):
    def test_good(self):
        p = write_json({"schema": "cryptoqual-baseline-1", "require_tests": ["kat: x", {"regex": "^rng"}]})
        self.assertEqual(baseline.load_baseline(p)["require_tests"][0], "kat: x")

    def test_unknown_key(self):
        p = write_json({"figurse": []})
        with self.assertRaises(baseline.BaselineError) as e:
            baseline.load_baseline(p)
        self.assertIn(p, str(e.exception))
        self.assertIn("figurse", str(e.exception))

    def test_not_json(self):
        with self.assertRaises(baseline.BaselineError):
            baseline.load_baseline(write_json("TAP version 13\n"))


class StableTest(unittest.TestCase):
    def test_stable_prefix(self):
        self.assertEqual(baseline.stable_prefix("pci: enumeration found 6 functions, a host bridge"),
                         "pci: enumeration found")
        self.assertEqual(baseline.stable_prefix("rng: rdrand 90b-markov (H=0.99 (limit 0.98))"),
                         "rng: rdrand 90b-markov")


if __name__ == "__main__":
    unittest.main()
