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

    def test_failed_cell_left_out(self):
        """a kbps=0 cell (failed) has no place on a log axis: left out, not a gnuplot error"""
        d = parse.parse_log(log(report(records=[ROW.replace("kbps=1000.00,37000.00", "kbps=0,37000.00")
                                                % ("encrypt", "separate-aligned")])), "b", "b.log")
        s = plot.plot_series([d], ("cipher",), "encrypt")
        self.assertEqual(s["geode-sb aes-128-cbc"][2], [(8192, 37.0)])

    def test_thinned_tics(self):
        """size labels at least 4x apart, the largest always labelled: 8K and 16K never overlap"""
        self.assertEqual(plot.thinned_tics([16, 64, 256, 1024, 8192, 16384]),
                         "set xtics ('16' 16, '64' 64, '256' 256, '1K' 1024, '' 8192 1, '16K' 16384)")

    def test_boxes_counted_by_key(self):
        """two runs of one box are two lines but one box"""
        d = parse.parse_log(log(report(records=[ROW % ("encrypt", "separate-aligned")])), "b", "b.log")
        s = plot.plot_series([d, dict(d, box="b")], ("cipher",), "encrypt")
        self.assertEqual(len(s), 2)
        self.assertEqual(len({v[4] for v in s.values()}), 1)

    def test_quote(self):
        self.assertEqual(plot.gnuplot_quote("it's"), "'it''s'")


if __name__ == "__main__":
    unittest.main()
