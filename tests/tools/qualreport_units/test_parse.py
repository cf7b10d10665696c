"""tools/cqreport/parse.py: lines, boots, results, records."""

import unittest

from helpers import log, report
from cqreport import parse


class LinesTest(unittest.TestCase):
    def test_line_ends(self):
        """\\r\\n, \\n, \\r and \\n\\r all end a line; the last piece is unterminated"""
        ls = parse.split_lines(b"a\r\nb\nc\rd")
        self.assertEqual([l.text for l in ls], ["a", "b", "c", "d"])
        self.assertEqual([l.terminated for l in ls], [True, True, True, False])

    def test_garbled(self):
        """a byte outside printable ASCII makes the line garbled; NULs at the ends do not"""
        ls = parse.split_lines(b"\x00ok 1 - x\x00\r\nok 2 - \xff\r\n")
        self.assertTrue(ls[0].clean)
        self.assertFalse(ls[1].clean)


class RecordsTest(unittest.TestCase):
    def test_row_record(self):
        """a row record gives one cell per list entry, mode and key_bits from alg"""
        cells = parse.row_cells({"engine": "x", "alg": "aes-128-cfb", "bytes": "16,8192", "kbps": "1.5,2.5"})
        self.assertEqual([(c["bytes"], c["kbps"], c["mode"], c["key_bits"]) for c in cells],
                         [(16, 1.5, "cfb128", 128), (8192, 2.5, "cfb128", 128)])

    def test_row_lists_differ(self):
        """lists of different lengths are no cells at all"""
        self.assertIsNone(parse.row_cells({"bytes": "16,64", "kbps": "1.0"}))

    def test_numbers(self):
        self.assertEqual([parse.number_or_text(v) for v in ("12", "-3", "1.50", "1e3", "x")],
                         [12, -3, 1.5, "1e3", "x"])

    def test_document(self):
        """a clean report: PASS, its tests, records, identity"""
        d = parse.parse_log(log(report(records=["# @calibration tsc_hz=500 pit_hz=500 pmtimer_hz=0 "
                                                "disagreement_ppm=0 t=0.1"])), "b", "b.log")
        self.assertEqual(d["verdict"], "PASS")
        self.assertEqual(len(d["tests"]), 2)
        self.assertEqual(d["figures"]["calibration"][0]["tsc_hz"], 500)
        self.assertEqual(d["identity"]["cpu"]["vendor"], "AuthenticAMD")

    def test_failure_mark(self):
        """'not ok N' anywhere but in a clean comment marks a failure"""
        mk = lambda t: parse.failure_mark(parse.split_lines(t)[0])
        self.assertEqual(mk(b"noise not ok 3 - x\r\n"), "not ok")
        self.assertIsNone(mk(b"# the test 'not ok 3' quoted\r\n"))
        self.assertEqual(mk(b"# cryptoqual: FAIL (1 ok, 1 not ok, 0 skipped)\r\n"), "a FAIL verdict line")


if __name__ == "__main__":
    unittest.main()
