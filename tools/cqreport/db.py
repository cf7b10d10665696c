"""The fleet's history in SQLite (Python's sqlite3): every boot of every
box, ingested from serial logs, queryable with SQL (docs/qualreport.md,
"Fleet history"). The schema is versioned (meta.schema_version); a
database of another version is refused, never rewritten."""

import datetime
import hashlib
import json
import os
import sqlite3
import sys

from .collector import as_serial_log
from .common import SCHEMA, box_name
from .parse import not_a_serial_log, parse_log
from .verdict import reread_emulated

SCHEMA_VERSION = 1

# One statement per table; docs/qualreport.md shows the same text.
DDL = """
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS boxes (
  box_id     INTEGER PRIMARY KEY,
  box_key    TEXT NOT NULL UNIQUE,   -- kind:name, as the document's box_key
  name       TEXT NOT NULL,          -- the box key (asset, serial, mac-HEX) or the log file's name
  model      TEXT,                   -- the model's name (model_name)
  first_seen TEXT,                   -- earliest run date (the box's clock) or ingest time
  last_seen  TEXT
);
CREATE TABLE IF NOT EXISTS runs (
  run_id       INTEGER PRIMARY KEY,
  box_id       INTEGER NOT NULL REFERENCES boxes(box_id),
  fingerprint  TEXT NOT NULL UNIQUE, -- sha256 of the boot's lines: the same boot ingested twice is one run
  log          TEXT NOT NULL,        -- the log's absolute path at ingest
  log_name     TEXT NOT NULL,
  boot_index   INTEGER,              -- 1.. within its log; NULL for a log without a report
  batch        TEXT,                 -- --batch, else the run's tag= option
  started      TEXT,                 -- the box's clock at the run (@identity rtc=), else NULL
  ingested     TEXT NOT NULL,        -- UTC time of the ingest, ISO 8601
  verdict      TEXT NOT NULL,        -- the boot's own verdict (EMULATED for the emulation image)
  log_verdict  TEXT NOT NULL,        -- the log's verdict as parse (without --allow-emulated) reports it
  complete     INTEGER NOT NULL,
  ok           INTEGER,
  not_ok       INTEGER,
  skipped      INTEGER,
  partial      TEXT,
  version      TEXT,
  image_sha256 TEXT,
  emulate      TEXT,
  asset        TEXT,
  tag          TEXT,
  serial       TEXT,
  mac          TEXT,
  bios         TEXT,
  model        TEXT,
  document     TEXT NOT NULL         -- the box document (docs/schemas/qualreport.schema.json) as JSON
);
CREATE TABLE IF NOT EXISTS results (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id),
  number  INTEGER NOT NULL,
  name    TEXT NOT NULL,
  status  TEXT NOT NULL,             -- ok, not ok, skip
  skip    TEXT,
  fault   TEXT,
  pass    INTEGER NOT NULL,          -- 0 the first run, 1.. soak passes
  PRIMARY KEY (run_id, number)
);
CREATE TABLE IF NOT EXISTS figures (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id),
  record  TEXT NOT NULL,             -- cipher, hash, rng, montmul, cost, calibration, ...
  engine  TEXT,
  alg     TEXT,
  dir     TEXT,
  variant TEXT,
  bytes   INTEGER,
  source  TEXT,                      -- an @rng record's source
  bits    INTEGER,                   -- a @montmul record's bits
  field   TEXT NOT NULL,             -- kbps, cpb, bench_bytes_per_s, ops_per_s, ...
  value   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS findings (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id),
  kind    TEXT NOT NULL,             -- not-ok, warning, problem
  text    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_box ON runs(box_id);
CREATE INDEX IF NOT EXISTS figures_cell ON figures(record, engine, alg, bytes, field);
"""

CELL_COLUMNS = ("engine", "alg", "dir", "variant", "bytes", "source", "bits")


class DbError(Exception):
    pass


def connect(path, create=True):
    """The database at path, its schema made when new; DbError for a file
    that is no such database or another schema version."""
    if not create and not os.path.exists(path):
        raise DbError("%s: no such database (qualreport ingest LOG... --db %s makes one)" % (path, path))
    try:
        db = sqlite3.connect(path)
        db.execute("PRAGMA foreign_keys = ON")
        have = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
        if have:
            row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if not row or row[0] != str(SCHEMA_VERSION):
                raise DbError("%s: schema version %s, this qualreport reads version %d"
                              % (path, row[0] if row else "unknown", SCHEMA_VERSION))
        elif db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise DbError("%s: an SQLite database, but not a qualreport history (no meta table)" % path)
        else:
            db.executescript(DDL)
            db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            db.commit()
    except sqlite3.DatabaseError as e:
        raise DbError("%s: %s" % (path, e))
    return db


def fingerprint(doc, data_sha):
    """What makes a run the same run: its boot's lines (boot.sha256), or
    for a log without a report the whole file's bytes."""
    if doc.get("boot"):
        return "boot:" + doc["boot"]["sha256"]
    return "log:" + data_sha


def own_verdict(doc):
    """The boot's own verdict; a PASS or PARTIAL boot of the emulation
    image is EMULATED, so that no emulated run reads as a real box's PASS."""
    if not doc.get("boot"):
        return doc["verdict"]
    v = doc["boot"]["verdict"]
    return "EMULATED" if v in ("PASS", "PARTIAL") and doc.get("emulated") else v


def same_boot(a, b):
    """Whether two documents are copies of one boot: a serial capture, the
    TFTP upload, a collector's per-box syslog file cut at its first gap
    (docs/network.md). The same box and image, the same @identity and
    @calibration records, and no TAP result that differs where both have
    one. The calibration is measured at every boot, so it tells two boots
    of a box apart even when the box's clock reads the same time at each
    (a CMOS clock that lost its battery); a copy cut before its @identity
    record is named after its file, no box, and matches nothing."""
    if not a.get("boot") or not b.get("boot") or a["box_key"] != b["box_key"]:
        return False
    ia, ib = a.get("identity") or {}, b.get("identity") or {}
    cal_a, cal_b = a["figures"].get("calibration"), b["figures"].get("calibration")
    if not ia.get("record") or ia.get("image_sha256") != ib.get("image_sha256") or \
            ia["record"] != ib.get("record") or not cal_a or cal_a != cal_b:
        return False
    tb = {t["number"]: t for t in b["tests"]}
    return all(t == tb[t["number"]] for t in a["tests"] if t["number"] in tb)


def fuller(a, b):
    """Whether copy a of a boot says more than copy b: whole rather than cut, else more results."""
    return (bool(a["complete"]), len(a["tests"])) > (bool(b["complete"]), len(b["tests"]))


def delete_run(db, run_id):
    for table in ("results", "figures", "findings", "runs"):
        db.execute("DELETE FROM %s WHERE run_id = ?" % table, (run_id,))


def ingest_doc(db, doc, data_sha, batch, now):
    """Stores one run; returns "new", "old" (that boot is there already,
    as this copy or a fuller one) or "replaced" (a cut copy of that boot
    gave way to this fuller one)."""
    fp = fingerprint(doc, data_sha)
    if db.execute("SELECT 1 FROM runs WHERE fingerprint = ?", (fp,)).fetchone():
        return "old"
    replaced = False
    info = doc["box_info"]
    for run_id, stored in db.execute(
            "SELECT r.run_id, r.document FROM runs r JOIN boxes b ON b.box_id = r.box_id "
            "WHERE b.box_key = ? AND r.image_sha256 IS ? AND r.started IS ?",
            (doc["box_key"], (doc.get("identity") or {}).get("image_sha256"), info.get("date"))).fetchall():
        stored = json.loads(stored)
        if not same_boot(doc, stored):
            continue
        if not fuller(doc, stored):
            return "old"
        delete_run(db, run_id)
        replaced = True
    started = info.get("date")
    seen = started or now
    row = db.execute("SELECT box_id, first_seen, last_seen FROM boxes WHERE box_key = ?", (doc["box_key"],)).fetchone()
    if row:
        box_id = row[0]
        db.execute("UPDATE boxes SET model = coalesce(?, model), first_seen = min(first_seen, ?), "
                   "last_seen = max(last_seen, ?) WHERE box_id = ?", (doc["model_name"], seen, seen, box_id))
    else:
        box_id = db.execute("INSERT INTO boxes (box_key, name, model, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)",
                            (doc["box_key"], doc["box"], doc["model_name"], seen, seen)).lastrowid
    s = doc.get("summary") or {}
    run_id = db.execute(
        "INSERT INTO runs (box_id, fingerprint, log, log_name, boot_index, batch, started, ingested, verdict, "
        "log_verdict, complete, ok, not_ok, skipped, partial, version, image_sha256, emulate, asset, tag, serial, "
        "mac, bios, model, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (box_id, fp, doc["log"], doc["log_name"], (doc.get("boot") or {}).get("index"),
         batch or info.get("tag"), started, now, own_verdict(doc), doc["verdict"], int(doc["complete"]),
         s.get("ok"), s.get("not_ok"), s.get("skipped"), s.get("partial"), info.get("version"),
         (doc.get("identity") or {}).get("image_sha256"), info.get("emulate"), info.get("asset"), info.get("tag"),
         info.get("serial"), info.get("mac"), info.get("bios"), doc["model_name"], json.dumps(doc))).lastrowid
    db.executemany("INSERT INTO results (run_id, number, name, status, skip, fault, pass) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(run_id, t["number"], t["name"], t["status"], t["skip"], t["fault"], t.get("pass", 0))
                    for t in doc["tests"]])
    figs = []
    for rtype, records in doc["figures"].items():
        for r in records:
            cell = tuple(r.get(c) if isinstance(r.get(c), (str, int)) else None for c in CELL_COLUMNS)
            for k, v in r.items():
                if k in CELL_COLUMNS or k in ("t", "pass") or isinstance(v, bool) or not isinstance(v, (int, float)):
                    continue
                figs.append((run_id, rtype) + cell + (k, float(v)))
    db.executemany("INSERT INTO figures (run_id, record, engine, alg, dir, variant, bytes, source, bits, field, value) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", figs)
    finds = [(run_id, "not-ok", "not ok %d - %s" % (t["number"], t["name"]))
             for t in doc["tests"] if t["status"] == "not ok"]
    finds += [(run_id, "warning", w) for w in doc["kernel_warnings"]]
    finds += [(run_id, "problem", p) for p in doc["problems"]]
    db.executemany("INSERT INTO findings (run_id, kind, text) VALUES (?, ?, ?)", finds)
    return "replaced" if replaced else "new"


def ingest(db, path, batch=None, now=None):
    """Every boot of the log at path as runs of its box: ({"new": N, "old":
    N, "replaced": N} as ingest_doc counts them, read error or None). The
    file is read and a per-box syslog file turned into its serial log once
    (its notes printed once), then parsed for each boot. A run is stored
    as its log says it (a passing run of the emulation image EMULATED,
    whatever --allow-emulated says: readers decide), under the log's
    absolute path."""
    now = now or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return {}, e.strerror or str(e)
    wrong = not_a_serial_log(data)
    if wrong:
        return {}, wrong
    sha = hashlib.sha256(data).hexdigest()
    text, name, where = as_serial_log(data, path), box_name(path), os.path.abspath(path)
    last = parse_log(text, name, where, "last")
    docs = [parse_log(text, name, where, str(i)) for i in range(1, last["boots"])] + [last]
    counts = {"new": 0, "old": 0, "replaced": 0}
    for d in docs:
        counts[ingest_doc(db, d, sha, batch, now)] += 1
    return counts, None


def cmd_ingest(args):
    try:
        db = connect(args.db)
    except DbError as e:
        print("qualreport: %s" % e, file=sys.stderr)
        return 2
    status = 0
    if getattr(args, "allow_emulated", False):
        print("qualreport: ingest --allow-emulated: the history stores every run as its log says (a passing "
              "run of the emulation image EMULATED); html --db FILE --allow-emulated reads them as real boxes",
              file=sys.stderr)
    total = {"new": 0, "old": 0, "replaced": 0}
    with db:
        fixed = mark_emulated(db)
        for path in args.logs:
            counts, err = ingest(db, path, args.batch)
            if err:
                print("qualreport: %s: %s" % (path, err), file=sys.stderr)
                status = 2
            for k, n in counts.items():
                total[k] += n
    boxes, runs = db.execute("SELECT (SELECT count(*) FROM boxes), (SELECT count(*) FROM runs)").fetchone()
    print("qualreport: %s: %d new run(s), %d already there%s%s, from %d log(s); %d box(es), %d run(s) in all"
          % (args.db, total["new"], total["old"],
             ", %d run(s) replaced by a fuller copy of the same boot" % total["replaced"] if total["replaced"] else "",
             ", %d emulated run(s) stored as a pass now EMULATED" % fixed if fixed else "",
             len(args.logs), boxes, runs))
    db.close()
    return status


def mark_emulated(db):
    """Runs of the emulation image that an older qualreport stored as a
    pass (ingest --allow-emulated) made EMULATED, as ingest stores them
    now: their verdict, log_verdict, document and problem. Returns their
    number."""
    fixed = 0
    rows = db.execute("SELECT run_id, document FROM runs WHERE verdict IN ('PASS', 'PARTIAL') "
                      "OR log_verdict IN ('PASS', 'PARTIAL')").fetchall()
    for run_id, text in rows:
        doc = json.loads(text)
        if not doc.get("emulated") or not doc.get("boot"):
            continue
        before = list(doc["problems"])
        reread_emulated(doc, False)
        db.execute("UPDATE runs SET verdict = ?, log_verdict = ?, document = ? WHERE run_id = ?",
                   (own_verdict(doc), doc["verdict"], json.dumps(doc), run_id))
        db.executemany("INSERT INTO findings (run_id, kind, text) VALUES (?, 'problem', ?)",
                       [(run_id, p) for p in doc["problems"] if p not in before])
        fixed += 1
    return fixed


def box_runs(db, box):
    """The runs of a box named by its key, its box_key or a log name, oldest first."""
    rows = db.execute(
        "SELECT b.box_id FROM boxes b WHERE b.name = ? OR b.box_key = ? "
        "UNION SELECT r.box_id FROM runs r WHERE r.log_name = ?", (box, box, box)).fetchall()
    ids = sorted({r[0] for r in rows})
    return ids


def cmd_history(args):
    try:
        db = connect(args.db, create=False)
    except DbError as e:
        print("qualreport: %s" % e, file=sys.stderr)
        return 2
    ids = box_runs(db, args.box)
    if not ids:
        print("qualreport: %s: no box %s (a box key, box_key or log name)" % (args.db, args.box), file=sys.stderr)
        return 1
    out = []
    for box_id in ids:
        b = db.execute("SELECT name, box_key, model FROM boxes WHERE box_id = ?", (box_id,)).fetchone()
        runs = db.execute(
            "SELECT run_id, started, ingested, batch, log, boot_index, verdict, ok, not_ok, skipped, partial, version "
            "FROM runs WHERE box_id = ? ORDER BY coalesce(started, ingested), run_id", (box_id,)).fetchall()
        items = []
        for r in runs:
            first = db.execute("SELECT text FROM findings WHERE run_id = ? AND kind = 'not-ok' ORDER BY rowid LIMIT 1",
                               (r[0],)).fetchone()
            items.append({"run_id": r[0], "started": r[1], "ingested": r[2], "batch": r[3], "log": r[4],
                          "boot": r[5], "verdict": r[6], "ok": r[7], "not_ok": r[8], "skipped": r[9],
                          "partial": r[10], "version": r[11], "first_not_ok": first[0] if first else None})
        out.append({"box": b[0], "box_key": b[1], "model": b[2], "runs": items})
    if args.json:
        json.dump({"schema": SCHEMA + "-history", "db": args.db, "boxes": out}, sys.stdout, indent=1)
        print()
        return 0
    for b in out:
        print("%s (%s): %d run(s)" % (b["box"], b["model"] or "unknown model", len(b["runs"])))
        for r in b["runs"]:
            print("  %-19s  %-12s  %-12s  %s  boot %s  %s" % (
                r["started"] or r["ingested"], r["batch"] or "-", r["verdict"],
                "%s/%s/%s" % (r["ok"], r["not_ok"], r["skipped"]) if r["ok"] is not None else "-",
                r["boot"] if r["boot"] is not None else "-", os.path.basename(r["log"])) +
                  ("  first: %s" % r["first_not_ok"] if r["first_not_ok"] else ""))
    return 0


def latest_documents(db):
    """Each box's last run's document (by the box's clock, then ingest
    order), and the number of runs per box_key."""
    rows = db.execute(
        "SELECT r.document, (SELECT count(*) FROM runs x WHERE x.box_id = r.box_id) FROM runs r "
        "WHERE r.run_id = (SELECT run_id FROM runs x WHERE x.box_id = r.box_id "
        "ORDER BY coalesce(x.started, x.ingested) DESC, x.run_id DESC LIMIT 1) ORDER BY r.box_id").fetchall()
    return [(json.loads(d), n) for d, n in rows]
