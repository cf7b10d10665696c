"""tools/cqreport/html.py: escaping, verdict order, throughput cells."""

import contextlib
import io
import json
import os
import re
import shutil
import types
import unittest

from helpers import log, report, scratch
from cqreport import html, parse

TMP, write, tearDownModule = scratch()
CELL = ("# @cipher engine=geode-sb alg=aes-128-cbc dir=encrypt variant=separate-aligned emulated=0 reps=3 "
        "bytes=16,8192 kbps=1000.00,%s spread_pct=0.0,0.0 ops=10,10 t=1.0")


def box(serial, kbps="37000.00", results=None, cut=False):
    lines = report(results=results, records=[CELL % kbps], head=[
        "# @identity version=v1 emulate=none sys_serial=%s box=%s t=0.1" % (serial, serial),
        "# options: console=default bench=quick"])
    return log(lines[:-3] if cut else lines)


class HtmlTest(unittest.TestCase):
    def test_escape(self):
        self.assertEqual(html.html_escape('<a href="x">&'), "&lt;a href=&quot;x&quot;&gt;&amp;")

    def test_printable(self):
        self.assertEqual(html.printable("a\x01b"), "a\\x01b")

    def test_worst_verdict(self):
        self.assertEqual(html.box_verdict([{"verdict": "PASS"}, {"verdict": "INCOMPLETE"}, {"verdict": "FAIL"}]),
                         "INCOMPLETE")

    def test_cells(self):
        d = parse.parse_log(log(report(records=[
            "# @hash engine=software alg=sha256 emulated=0 reps=3 bytes=8192 kbps=2000.00 spread_pct=0.0 ops=1 t=1"])),
            "b", "b.log")
        self.assertEqual(html.throughput_cells(d), {("hash", "software", "sha256"): {8192: 2.0}})

    def test_failing_line_of_a_syslog_file(self):
        """the failing lines shown from a collector's per-box syslog file are its serial log's, as numbered"""
        lines = report(results=["ok 1 - cpu: x", "not ok 2 - kat: geode-sb aes-128-cbc encrypt"])
        order = list(range(1, len(lines) + 1))
        order[4], order[5] = order[5], order[4]          # two lines arrived out of order
        data = b"".join(b'[meta sequenceId="%d"] %s\n' % (n, lines[n - 1].encode()) for n in order)
        out = os.path.join(TMP, "syslog.html")
        args = types.SimpleNamespace(logs=[write("SN-L.log", data)], output=out, baseline=None, boot="last",
                                     allow_emulated=False, title=None, db=None)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            html.cmd_html(args)
        hits = re.findall(r'<span class="hit">(.*?)</span>', open(out, encoding="utf-8").read())
        self.assertEqual(len(hits), 1, hits)
        self.assertTrue(hits[0].endswith("  not ok 2 - kat: geode-sb aes-128-cbc encrypt"), hits)


@unittest.skipUnless(shutil.which("gnuplot"), "no gnuplot (Debian package gnuplot-nox)")
class PageTest(unittest.TestCase):
    def test_headline_order_and_details(self):
        """the headline counts baseline results (a PASS verdict that fails the baseline counts as failed),
        rows worst first, an incomplete box says where it stopped, options and the box's log shown"""
        logs = [write("a.log", box("SN-A")), write("b.log", box("SN-B", kbps="20000.00")),
                write("c.log", box("SN-C", cut=True)),
                write("d.log", box("SN-D", results=["ok 1 - cpu: x", "not ok 2 - kat: geode-sb aes-128-cbc encrypt"]))]
        base = write("base.json", json.dumps({"schema": "cryptoqual-baseline-1", "figures": [
            {"record": "cipher", "match": {"engine": "geode-sb", "bytes": 8192}, "field": "kbps",
             "baseline": 37000, "min_ratio": 0.9}]}).encode())
        out = os.path.join(TMP, "p.html")
        args = types.SimpleNamespace(logs=logs, output=out, baseline=base, boot="last", allow_emulated=False,
                                     title=None, db=None)
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(html.cmd_html(args), 1)
        page = open(out, encoding="utf-8").read()
        self.assertIn("<b>4 boxes: 1 passed, 3 failed</b>", page)
        order = re.findall(r'<tr id="box-\d+" data-box="([^"]+)"', page)
        self.assertEqual(order, ["SN-C", "SN-D", "SN-B", "SN-A"])
        for want in ("c.log: stopped before its first stage ended, last line 9", "options: console=default bench=quick",
                     "log a.log", "<ul class=\"legend\">"):
            self.assertTrue(want in page, want)


if __name__ == "__main__":
    unittest.main()
