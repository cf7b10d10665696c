"""tools/cqreport/html.py: escaping, verdict order, throughput cells."""

import unittest

from helpers import log, report
from cqreport import html, parse


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


if __name__ == "__main__":
    unittest.main()
