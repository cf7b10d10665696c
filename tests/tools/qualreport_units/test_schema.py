"""tools/cqreport/schema.py and docs/schemas: every JSON document
qualreport writes meets its schema (the box document of a report, of a
NO-REPORT log and of an unreadable one; compare --json; history --json),
and the schemas reject what they must."""

import contextlib
import io
import json
import os
import sys
import types
import unittest

from helpers import log, report, scratch
from cqreport import compare, db, parse, schema

TMP, path, tearDownModule = scratch()


SOAK = report(results=["ok 1 - cpu: x", "not ok 2 - kat: geode-sb aes-128-cbc encrypt \\# 3", "# soak: 1 passes",
                       "# soak: pass 1 done at t=1.0: 1 ok, 0 not ok in this pass",
                       "# @soak pass=1 ok=1 not_ok=0 seconds=1.0 t=2.0", "ok 3 - soak: 1 passes run"],
              head=["# options: console=default passes=1", "# @identity version=v1 emulate=none rtc=2026-01-02T03:04:05 "
                    "sys_product=ALIX\\x202D3 sys_serial=CQ\\x2042 asset=absent tag=batch-7 box=CQ_42 t=0.1"])


class DocumentTest(unittest.TestCase):
    def test_documents(self):
        """a report (a soak with a not ok), a NO-REPORT log, a cut log and an unreadable one"""
        docs = [parse.parse_log(log(SOAK), "a", "a.log"),
                parse.parse_log(b"garbage\r\n", "n", "n.log"),
                parse.parse_log(log(SOAK[:-3]), "c", "c.log"),
                parse.read_log(os.path.join(TMP, "missing.log"))]
        for d in docs:
            self.assertEqual(schema.errors(d, "cryptoqual-qualreport-1"), [], d["log"])
        self.assertEqual(set(docs[1]), set(docs[0]), "a NO-REPORT document has every key")
        self.assertEqual(set(docs[1]["integrity"]), set(docs[0]["integrity"]))
        self.assertEqual(docs[3]["read_error"], "No such file or directory")
        self.assertEqual(docs[2]["stopped"]["line"], len(SOAK) - 3)

    def test_schema_catches(self):
        """the document schema is no rubber stamp: a wrong type and a missing key fail"""
        d = parse.parse_log(log(SOAK), "a", "a.log")
        bad = dict(d, verdict="MAYBE")
        self.assertTrue(schema.errors(bad, "cryptoqual-qualreport-1"))
        del bad["problems"]
        self.assertTrue(any("problems" in e for e in schema.errors(bad, "cryptoqual-qualreport-1")))

    def test_compare_and_history_json(self):
        """compare --json and history --json meet their schemas"""
        logs = [path("a.log", log(SOAK)), path("b.log", log(report())), os.path.join(TMP, "gone.log")]
        base = path("base.json", json.dumps({"schema": "cryptoqual-baseline-1",
                                             "require_tests": ["cpu: "]}).encode())
        out = io.StringIO()
        args = types.SimpleNamespace(baseline=base, logs=logs, boot="last", allow_emulated=False, json=True)
        with contextlib.redirect_stdout(out):
            self.assertEqual(compare.cmd_compare(args), 1)
        j = json.loads(out.getvalue())
        self.assertEqual(schema.errors(j, "cryptoqual-qualreport-1-compare"), [])
        self.assertEqual(j["passed"] + j["failed"], 3)
        dbp = os.path.join(TMP, "h.db")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            db.cmd_ingest(types.SimpleNamespace(logs=logs, db=dbp, batch=None, allow_emulated=False))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(db.cmd_history(types.SimpleNamespace(box="CQ_42", db=dbp, json=True)), 0)
        j = json.loads(out.getvalue())
        self.assertEqual(schema.errors(j, "cryptoqual-qualreport-1-history"), [])
        self.assertEqual(j["boxes"][0]["runs"][0]["first_not_ok"], "not ok 2 - kat: geode-sb aes-128-cbc encrypt # 3")

    def test_compare_not_compared(self):
        """a bench=quick boot against a bench=full baseline: PASS, the figures it does not measure named once
        under the table and each a not-compared check in --json, which meets its schema"""
        from test_compare import QUICK_ALGS, full_baseline
        base = path("full.json", json.dumps(full_baseline()).encode())
        logp = path("quick.log", log(report(head=["# options: console=ttyS0,115200 bench=quick"], records=[
            "# @cipher engine=aesni alg=%s dir=encrypt variant=separate-aligned emulated=0 reps=3 bytes=16,8192 "
            "kbps=1016.0,9192.0 spread_pct=0.0,0.0 ops=10,10 t=1.0" % a for a in QUICK_ALGS])))
        args = types.SimpleNamespace(baseline=base, logs=[logp], boot="last", allow_emulated=False, json=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(compare.cmd_compare(args), 0)
        text = out.getvalue()
        self.assertEqual(text.count("not compared"), 1, text)
        self.assertIn("quick: 4 figure(s) not compared: bench=quick does not measure them", text)
        args.json = True
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(compare.cmd_compare(args), 0)
        j = json.loads(out.getvalue())
        self.assertEqual(schema.errors(j, "cryptoqual-qualreport-1-compare"), [])
        self.assertEqual(sum(1 for c in j["boxes"][0]["checks"] if c["kind"] == "not-compared"), 4)
        self.assertEqual(j["boxes"][0]["figures"], "4/4")
        self.assertEqual(len(j["boxes"][0]["notes"]), 1)


if __name__ == "__main__":
    unittest.main()
