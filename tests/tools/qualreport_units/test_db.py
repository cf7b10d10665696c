"""tools/cqreport/db.py: the fleet history in SQLite: ingest is
idempotent (the same boot twice is one run, a log that grew adds only its
new boots), every boot of a log is a run, the documented queries of
docs/qualreport.md answer, a database of another schema version is
refused."""

import contextlib
import io
import json
import os
import re
import shutil
import sqlite3
import types
import unittest

from helpers import log, report, scratch
from cqreport import db, html, parse

TMP, write, tearDownModule = scratch()
DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "qualreport.md")


def box(serial, fail=False, kbps=37000.0, tag="batch-1", emulate="none"):
    results = ["ok 1 - cpu: x", ("not ok" if fail else "ok") + " 2 - kat: geode-sb aes-128-cbc encrypt"]
    return report(results=results, head=[
        "# @identity version=v1 emulate=%s rtc=2026-01-0%dT00:00:00 sys_serial=%s tag=%s box=%s t=0.1"
        % (emulate, 1 if tag == "batch-1" else 2, serial, tag, serial),
        "# @cipher engine=geode-sb alg=aes-128-cbc dir=encrypt variant=separate-aligned emulated=0 reps=3 "
        "bytes=16,8192 kbps=1000.00,%.2f spread_pct=0.0,0.0 ops=10,10 t=1.0" % kbps])


def documented_sql(title):
    """The SQL block under the docs' paragraph that starts with title."""
    text = open(DOC, encoding="utf-8").read()
    i = text.index(title)
    m = re.search(r"```sql\n(.*?)```", text[i:], re.S)
    return m.group(1)


def ingest(paths, dbp, batch=None):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return db.cmd_ingest(types.SimpleNamespace(logs=paths, db=dbp, batch=batch, allow_emulated=False))


class IngestTest(unittest.TestCase):
    def test_idempotent_and_queries(self):
        dbp = os.path.join(TMP, "fleet.db")
        paths = [write("b%d.log" % i, log(box("SN-%02d" % i, fail=i in (2, 5)))) for i in range(6)]
        self.assertEqual(ingest(paths, dbp), 0)
        self.assertEqual(ingest(paths, dbp), 0)
        con = sqlite3.connect(dbp)
        self.assertEqual(con.execute("SELECT count(*) FROM runs").fetchone()[0], 6)
        self.assertEqual(con.execute("SELECT count(*) FROM boxes").fetchone()[0], 6)
        failed = [r[0] for r in con.execute(documented_sql("Boxes whose last run failed"))]
        self.assertEqual(failed, ["SN-02", "SN-05"])
        # A later batch: SN-02 fixed, SN-03 now failing and slower.
        later = [write("c%d.log" % i, log(box("SN-%02d" % i, fail=i == 3, kbps=30000.0, tag="batch-2")))
                 for i in (2, 3)]
        ingest(later, dbp)
        failed = [r[0] for r in con.execute(documented_sql("Boxes whose last run failed"))]
        self.assertEqual(failed, ["SN-03", "SN-05"])
        trend = con.execute(documented_sql("A figure's trend across batches")).fetchall()
        self.assertEqual([(r[0], r[1]) for r in trend], [("batch-1", 6), ("batch-2", 2)])
        self.assertEqual(trend[1][2], 30000.0)
        self.assertEqual(con.execute("SELECT count(*) FROM findings WHERE kind = 'not-ok'").fetchone()[0], 3)

    def test_every_boot_and_growing_log(self):
        """a log of two boots is two runs; the same log grown by a third boot adds one"""
        dbp = os.path.join(TMP, "boots.db")
        two = log(box("SN-A"), box("SN-A", fail=True))
        ingest([write("grow.log", two)], dbp)
        ingest([write("grow.log", two + log(box("SN-A", kbps=36000.0)))], dbp)
        con = sqlite3.connect(dbp)
        rows = con.execute("SELECT boot_index, verdict FROM runs ORDER BY run_id").fetchall()
        self.assertEqual(rows, [(1, "PASS"), (2, "FAIL"), (3, "PASS")])

    def test_syslog_file_read_once(self):
        """a per-box syslog file of three boots, the first with a gap: three runs, its note printed once"""
        dbp = os.path.join(TMP, "syslog.db")
        boots = [box("SN-S"), box("SN-S", fail=True), box("SN-S", kbps=36000.0)]
        data = b"".join(b'[meta sequenceId="%d"] %s\n' % (n, line.encode())
                        for k, b in enumerate(boots) for n, line in enumerate(b, 1) if (k, n) != (0, 4))
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            rc = db.cmd_ingest(types.SimpleNamespace(logs=[write("SN-S.log", data)], db=dbp, batch=None,
                                                     allow_emulated=False))
        self.assertEqual(rc, 0)
        self.assertEqual(sqlite3.connect(dbp).execute("SELECT count(*) FROM runs").fetchone()[0], 3)
        self.assertEqual(err.getvalue().count("missing"), 1, err.getvalue())

    @unittest.skipUnless(shutil.which("gnuplot"), "no gnuplot (Debian package gnuplot-nox)")
    def test_html_from_db(self):
        """html --db: one row per box, its last run (by the box's clock), its number of runs"""
        dbp = os.path.join(TMP, "page.db")
        ingest([write("p1.log", log(box("SN-P", fail=True))), write("q1.log", log(box("SN-Q")))], dbp)
        ingest([write("p2.log", log(box("SN-P", tag="batch-2")))], dbp)
        out = os.path.join(TMP, "db.html")
        args = types.SimpleNamespace(logs=[], db=dbp, output=out, baseline=None, boot="last", allow_emulated=False,
                                     title=None)
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(html.cmd_html(args), 0)
        page = open(out, encoding="utf-8").read()
        self.assertEqual(sorted(re.findall(r'<tr id="box-\d+" data-box="([^"]+)"', page)), ["SN-P", "SN-Q"])
        self.assertIn("<b>2 boxes</b>: 2 PASS", page)
        self.assertIn('<td class="num" data-key="2">2</td>', page)

    def test_emulated_never_a_pass(self):
        """a passing run of the emulation image is stored EMULATED with or without --allow-emulated, so the
        documented query lists it; a second ingest with the flag changes nothing and says why"""
        dbp = os.path.join(TMP, "emu.db")
        emu = [write("e%d.log" % i, log(box("SN-E%d" % i, emulate="net5501"))) for i in range(2)]
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            self.assertEqual(db.cmd_ingest(types.SimpleNamespace(logs=emu, db=dbp, batch=None, allow_emulated=True)), 0)
        self.assertIn("html --db FILE --allow-emulated", err.getvalue())
        con = sqlite3.connect(dbp)
        self.assertEqual(con.execute("SELECT verdict, log_verdict FROM runs").fetchall(), [("EMULATED", "EMULATED")] * 2)
        self.assertEqual(ingest(emu + [write("r.log", log(box("SN-R")))], dbp), 0)
        rows = con.execute("SELECT name, verdict, log_verdict FROM runs JOIN boxes USING (box_id) ORDER BY name")
        self.assertEqual(rows.fetchall(), [("SN-E0", "EMULATED", "EMULATED"), ("SN-E1", "EMULATED", "EMULATED"),
                                           ("SN-R", "PASS", "PASS")])
        failed = [r[0] for r in con.execute(documented_sql("Boxes whose last run failed"))]
        self.assertEqual(failed, [])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(db.cmd_history(types.SimpleNamespace(box="SN-E0", db=dbp, json=False)), 0)
        self.assertIn("EMULATED", out.getvalue())
        self.assertNotIn("PASS", out.getvalue())

    def test_emulated_pass_of_an_older_ingest_made_emulated(self):
        """a run an older qualreport stored as PASS under --allow-emulated is EMULATED after the next ingest"""
        dbp = os.path.join(TMP, "emu-old.db")
        path = write("old.log", log(box("SN-O", emulate="c7")))
        ingest([path], dbp)
        con = sqlite3.connect(dbp)
        doc = parse.parse_log(open(path, "rb").read(), "old", path, allow_emulated=True)
        con.execute("UPDATE runs SET verdict = 'PASS', log_verdict = 'PASS', document = ?", (json.dumps(doc),))
        con.execute("DELETE FROM findings")
        con.commit()
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(db.cmd_ingest(types.SimpleNamespace(logs=[path], db=dbp, batch=None,
                                                                 allow_emulated=False)), 0)
        self.assertIn("1 emulated run(s) stored as a pass now EMULATED", out.getvalue())
        verdict, log_verdict, text = con.execute("SELECT verdict, log_verdict, document FROM runs").fetchone()
        self.assertEqual((verdict, log_verdict, json.loads(text)["verdict"]), ("EMULATED", "EMULATED", "EMULATED"))
        self.assertEqual(con.execute("SELECT count(*) FROM findings WHERE text LIKE 'a run of the emulation%'")
                         .fetchone()[0], 1)

    def test_log_is_absolute(self):
        """runs.log is the log's absolute path, whatever path ingest was given"""
        dbp = os.path.join(TMP, "abs.db")
        write("rel.log", log(box("SN-ABS")))
        here = os.getcwd()
        try:
            os.chdir(TMP)
            self.assertEqual(ingest(["rel.log"], dbp), 0)
        finally:
            os.chdir(here)
        stored = sqlite3.connect(dbp).execute("SELECT log, document FROM runs").fetchone()
        want = os.path.join(os.path.realpath(TMP), "rel.log")
        self.assertEqual(os.path.realpath(stored[0]), want)
        self.assertTrue(os.path.isabs(stored[0]), stored[0])
        self.assertEqual(json.loads(stored[1])["log"], stored[0])

    def test_json_is_no_log(self):
        """a JSON document given to ingest is refused as one (exit 2), nothing stored"""
        dbp = os.path.join(TMP, "json.db")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            rc = db.cmd_ingest(types.SimpleNamespace(logs=[write("b.json", b'{"schema": "cryptoqual-baseline-1"}')],
                                                     db=dbp, batch=None, allow_emulated=False))
        self.assertEqual(rc, 2)
        self.assertIn("a JSON document (cryptoqual-baseline-1), not a serial log", err.getvalue())
        self.assertEqual(sqlite3.connect(dbp).execute("SELECT count(*) FROM runs").fetchone()[0], 0)

    @unittest.skipUnless(shutil.which("gnuplot"), "no gnuplot (Debian package gnuplot-nox)")
    def test_html_from_db_allow_emulated(self):
        """html --db reads emulated runs as html LOG... does: EMULATED, or with --allow-emulated PASS"""
        dbp = os.path.join(TMP, "page-emu.db")
        logs = [write("pe%d.log" % i, log(box("SN-PE%d" % i, emulate="net5501"))) for i in range(2)]
        ingest(logs, dbp)
        heads = []
        for source in ({"db": dbp, "logs": []}, {"db": None, "logs": logs}):
            for allow in (False, True):
                out = os.path.join(TMP, "emu.html")
                args = types.SimpleNamespace(output=out, baseline=None, boot="last", allow_emulated=allow,
                                             title=None, **source)
                with contextlib.redirect_stdout(io.StringIO()):
                    rc = html.cmd_html(args)
                page = open(out, encoding="utf-8").read()
                heads.append((rc, re.search(r"<b>2 boxes</b>: ([^<]*)", page).group(1)))
        self.assertEqual(heads, [(1, "2 EMULATED"), (0, "2 PASS")] * 2)

    def test_other_version_refused(self):
        dbp = os.path.join(TMP, "old.db")
        con = sqlite3.connect(dbp)
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("INSERT INTO meta VALUES ('schema_version', '99')")
        con.commit()
        with self.assertRaises(db.DbError) as e:
            db.connect(dbp)
        self.assertIn("schema version 99", str(e.exception))
        self.assertEqual(ingest([write("x.log", log(box("SN-X")))], dbp), 2)


if __name__ == "__main__":
    unittest.main()
