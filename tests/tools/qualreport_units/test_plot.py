"""tools/cqreport/plot.py: lines of the plot, gnuplot quoting."""

import unittest

from helpers import log, report
from cqreport import parse, plot

ROW = ("# @cipher engine=geode-sb alg=aes-128-cbc dir=%s variant=%s emulated=0 reps=3 "
       "bytes=16,8192 kbps=1000.00,37000.00 spread_pct=0.0,0.0 ops=10,10 t=1.0")


class SeriesTest(unittest.TestCase):
    def test_one_line_per_engine_alg(self):
        d = parse.parse_log(log(report(records=[ROW % ("encrypt", "separate-aligned"),
                                                ROW % ("encrypt", "separate-unaligned"),
                                                ROW % ("decrypt", "separate-aligned")])), "b", "b.log")
        s = plot.plot_series([d], ("cipher",), "encrypt")
        self.assertEqual(list(s), ["geode-sb aes-128-cbc"])
        self.assertEqual(s["geode-sb aes-128-cbc"][2], [(16, 1.0), (8192, 37.0)])

    def test_quote(self):
        self.assertEqual(plot.gnuplot_quote("it's"), "'it''s'")


if __name__ == "__main__":
    unittest.main()
