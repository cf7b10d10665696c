"""tools/cqreport/parse.py: lines, boots, results, records."""

import os
import shutil
import tempfile
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

    def test_names_unescaped(self):
        """the kernel's \\# and \\xNN in a test name are the text itself in the document"""
        d = parse.parse_log(log(report(results=["ok 1 - cpu: x", "not ok 2 - geode-sb: rdmsr raised \\#GP at C:\\x5cX"])),
                            "b", "b.log")
        self.assertEqual(d["tests"][1]["name"], "geode-sb: rdmsr raised #GP at C:\\X")

    def test_options_and_where_it_stopped(self):
        lines = report(head=["# options: console=default bench=quick", "# @stage name=boot seconds=0.2 t=0.2",
                             "# heartbeat: t=10.2 stage=rng"])
        d = parse.parse_log(log(lines[:-2]), "b", "b.log")
        self.assertEqual(d["options"], "console=default bench=quick")
        self.assertEqual(d["verdict"], "INCOMPLETE")
        self.assertEqual(d["stopped"], {"after_stage": "boot", "stage": "rng", "line": len(lines) - 2,
                                        "text": lines[-3]})
        self.assertTrue(any("stopped in stage rng" in p for p in d["problems"]), d["problems"])
        self.assertIsNone(parse.parse_log(log(lines), "b", "b.log")["stopped"])

    def test_boot_fingerprint(self):
        """a boot's sha256 covers its own lines: the same boot in another capture has the same one"""
        a = parse.parse_log(log(report()), "a", "a.log")
        b = parse.parse_log(b"BIOS noise\r\n" + log(["garbage"], report()), "b", "b.log")
        c = parse.parse_log(log(report(results=["ok 1 - cpu: y"])), "c", "c.log")
        self.assertEqual(a["boot"]["sha256"], b["boot"]["sha256"])
        self.assertNotEqual(a["boot"]["sha256"], c["boot"]["sha256"])

    def test_json_is_no_log(self):
        """a JSON document (a baseline, parse's own output, one cut short) is no serial log: a read error
        that says so, never NO-REPORT blamed on the serial speed; a log is still a log"""
        folder = tempfile.mkdtemp()
        try:
            for name, data, want in (
                    ("b.json", b'{\n "schema": "cryptoqual-baseline-1",\n "figures": []\n}\n',
                     "a JSON document (cryptoqual-baseline-1), not a serial log"),
                    ("docs.json", b'[\n {"schema": "cryptoqual-qualreport-1"}\n]\n',
                     "a JSON document (cryptoqual-qualreport-1), not a serial log"),
                    ("cut.json", b'{\n "schema": "cryptoqual-baseline-1",',
                     "a JSON document cut or damaged (line 2 column 36")):
                path = os.path.join(folder, name)
                with open(path, "wb") as f:
                    f.write(data)
                d = parse.read_log(path)
                self.assertTrue(d["read_error"] and d["read_error"].startswith(want), d["read_error"])
                self.assertFalse(any("speed" in p for p in d["problems"]), d["problems"])
            self.assertIsNone(parse.not_a_serial_log(log(report())))
            self.assertIsNone(parse.not_a_serial_log(b"{garbage at a wrong speed}\r\n" + log(report())))
        finally:
            shutil.rmtree(folder)

    def test_failure_mark(self):
        """'not ok N' anywhere but in a clean comment marks a failure"""
        mk = lambda t: parse.failure_mark(parse.split_lines(t)[0])
        self.assertEqual(mk(b"noise not ok 3 - x\r\n"), "not ok")
        self.assertIsNone(mk(b"# the test 'not ok 3' quoted\r\n"))
        self.assertEqual(mk(b"# cryptoqual: FAIL (1 ok, 1 not ok, 0 skipped)\r\n"), "a FAIL verdict line")


if __name__ == "__main__":
    unittest.main()
