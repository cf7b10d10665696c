"""Reading a serial capture: lines, boots, results, records (the line
forms of docs/report-format.md), and the box document of
docs/qualreport.md."""

import hashlib
import json
import re

from . import verdict as verdict_mod
from .collector import as_serial_log
from .common import SCHEMA, box_name
from .identity import box_identity, box_info, emulation, model_name, model_of, unescape

# ---- line forms of docs/report-format.md ----

TAP_MARKERS = ("TAP version 13", "TAP version 14")   # the image prints 13; older logs have 14
# Terminal control a loader or firmware leaves on a line: CSI sequences
# (ESC [ ... final byte), charset selections (ESC ( B), two-byte escapes.
RE_ESCAPE = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|[()*+][0-9A-Za-z]|[@-Z\\-_])")
RE_RESULT = re.compile(r"^(not )?ok (\d+) - (.*)$")
RE_PLAN = re.compile(r"^1\.\.(\d+)$")
RE_VERDICT = re.compile(
    r"^(?:# )?cryptoqual: (PASS|FAIL) \((\d+) ok, (\d+) not ok, (\d+) skipped(?:; crashed: (.*?))?(?:; partial: (.*))?\)$")
RE_BAIL = re.compile(r"^Bail out!(?: (.*))?$")
RE_BUILD = re.compile(r"^# cryptoqual (\S+) image-sha256=([0-9a-f]{64})$")
RE_CPU = re.compile(r"^# cpu\.([A-Za-z0-9_.]+)=(.*)$")
RE_PCI = re.compile(r"^# pci: (.*)$")
RE_PCI_ROW = re.compile(
    r"^([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7]) ([0-9a-fA-F]{4}):([0-9a-fA-F]{4}) "
    r"([0-9a-fA-F]{2})\.([0-9a-fA-F]{2})\.([0-9a-fA-F]{2}) rev ([0-9a-fA-F]{2})(?: (.*))?$")
RE_RECORD = re.compile(r"^# @([a-z0-9_]+)(?: (.*))?$")
RE_PAIR = re.compile(r"^([a-z0-9_]+)=(\S*)$")
RE_WARNING = re.compile(r"^# warning: (.*)$")
RE_OPTIONS = re.compile(r"^# options: (.*)$")
RE_HEARTBEAT = re.compile(r"^# heartbeat: t=\S+ stage=(\S+)$")
# Soak (docs/cmdline.md passes=, duration=): the line that starts the soak
# loop and the one that ends each of its passes. A log whose records carry
# no pass= is cut into passes by these lines. Passes are numbered as the
# kernel numbers them: 0 is the first run, 1.. the soak's passes.
RE_SOAK_START = re.compile(r"^# soak: (?:up to )?(\d+) pass(?:es)?\b|^# soak: passes for ")
RE_SOAK_DONE = re.compile(r"^# soak: pass (\d+) done\b")
# Record types printed once per run even in a soak: never per pass.
RUN_RECORDS = ("soak", "run", "stage", "identity", "nic", "calibration")
RE_INT = re.compile(r"^-?[0-9]+$")
RE_DEC = re.compile(r"^-?[0-9]+\.[0-9]+$")

# The fields that name a record's cell (docs/report-format.md, "one record
# per"): two records of a type with the same cell are the same measurement.
CELL_KEYS = {
    "calibration": (),
    "identity": (),
    "cipher": ("engine", "alg", "dir", "variant", "bytes"),
    "cost": ("engine", "alg", "dir"),
    "hash": ("engine", "alg", "bytes"),
    "rng": ("source",),
    "montmul": ("engine", "bits"),
    "finding": ("driver", "test"),
}

# @cipher and @hash are one record per table row: these fields are lists,
# one entry per measured size (docs/report-format.md). A record of the older
# form, one per cell, has a single value in each and reads the same way.
ROW_RECORDS = ("cipher", "hash")
ROW_LISTS = ("bytes", "kbps", "spread_pct", "ops")
RE_AES_ALG = re.compile(r"^aes-(128|192|256)-([a-z0-9]+)$")


def row_cells(fields, tsc_hz=None):
    """The cells of a row record: one dict per entry of its lists, the
    other fields copied into each; None when the lists differ in length.
    What a per-cell record used to print is worked out again: mode and
    key_bits from an AES alg (aes-128-cfb is cfb128), and with the boot's
    tsc_hz, cpb (tsc_hz / (kbps x 1000), two decimals) and cycles (of one
    repetition: ops x bytes x cpb, twice bytes for a dual-context row)."""
    lists = {}
    for key in ROW_LISTS:
        if key in fields:
            lists[key] = [number_or_text(v) for v in str(fields[key]).split(",")]
    if not lists:
        return [fields]
    n = len(next(iter(lists.values())))
    if any(len(v) != n for v in lists.values()):
        return None
    m = RE_AES_ALG.match(str(fields.get("alg", "")))
    cells = []
    for i in range(n):
        cell = dict(fields)
        for key, values in lists.items():
            cell[key] = values[i]
        if m:
            cell.setdefault("key_bits", int(m.group(1)))
            cell.setdefault("mode", "cfb128" if m.group(2) == "cfb" else m.group(2))
        kbps, nbytes, ops = cell.get("kbps"), cell.get("bytes"), cell.get("ops")
        if isinstance(tsc_hz, int) and tsc_hz > 0 and isinstance(kbps, (int, float)) and kbps > 0 \
                and "cpb" not in fields:
            cell["cpb"] = round(tsc_hz / (kbps * 1000.0), 2)
            if isinstance(nbytes, int) and isinstance(ops, int):
                per_op = 2 * nbytes if cell.get("variant") == "dual-context" else nbytes
                cell["cycles"] = int(round(ops * per_op * tsc_hz / (kbps * 1000.0)))
        cells.append(cell)
    return cells


def number_or_text(value):
    """A record value: int for decimal integers, float for decimals, else str."""
    if RE_INT.match(value):
        return int(value)
    if RE_DEC.match(value):
        return float(value)
    return value


# ---- reading a serial capture ----

class Line:
    """One line of a capture: its number (1-based), its text, and whether it
    is clean printable ASCII (the only thing the kernel prints)."""

    __slots__ = ("number", "text", "clean", "terminated")

    @classmethod
    def of_text(cls, number, text):
        """A clean, terminated line of the given text (part of a capture line)."""
        return cls(number, text.encode("latin-1"), True)

    def __init__(self, number, raw, terminated):
        self.number = number
        self.terminated = terminated
        # Idle serial lines and line breaks read as NUL: strip them at the
        # ends only; a NUL inside a line may have replaced a character.
        raw = raw.strip(b"\x00")
        self.clean = all(0x20 <= b <= 0x7e or b == 0x09 for b in raw)
        self.text = raw.decode("latin-1").rstrip(" \t")


def marker_line(line):
    """Whether a line starts a report (docs/qualreport.md, "Reading a
    capture"): None when not; "" when the line is the marker `TAP version
    13` (or 14) once terminal escapes and bytes that are not printable
    (loader and firmware noise) are dropped; the verdict line's text when
    a whole verdict line stands glued before the marker (the earlier boot's
    line end lost at a reset). Any other text before the marker (a command
    line that ends in it) makes no boot."""
    text = line.text
    if "TAP version 1" not in text:
        return None
    plain = "".join(c for c in RE_ESCAPE.sub("", text) if " " <= c <= "~").strip()
    for marker in TAP_MARKERS:
        if plain == marker:
            return ""
        if plain.endswith(marker):
            before = plain[: -len(marker)].rstrip()
            if RE_VERDICT.match(before):
                return before
    return None


def verdict_before_noise(text):
    """The verdict line's text when a line is a whole, clean verdict line
    followed only by terminal escapes and bytes that are not printable (the
    next boot's loader noise after a lost line end); None otherwise."""
    m = re.match(r"^((?:# )?cryptoqual: [ -~]*?\))((?:\x1b\[[0-9;?]*[A-Za-z]|[^ -~])+)$", text)
    if m and RE_VERDICT.match(m.group(1)):
        return m.group(1)
    return None


def split_lines(data):
    """Splits a capture on \\r\\n, \\n or \\r (GRUB ends lines \\n\\r, the
    kernel \\r\\n); the last piece is unterminated when the capture stopped
    in the middle of a line."""
    pieces = re.split(rb"\r\n|\r|\n", data)
    lines = []
    for i, raw in enumerate(pieces):
        last = i == len(pieces) - 1
        if last and raw == b"":
            break
        lines.append(Line(i + 1, raw, not last))
    return lines


# ---- one boot: the lines from a `TAP version 14` to the next ----

class Boot:
    def __init__(self, index, start_line):
        self.index = index
        self.start_line = start_line
        self.version = None
        self.image_sha256 = None
        self.cpu = {}
        self.pci = []
        self.tests = {}            # number -> test dict
        self.test_lines = {}       # number -> text of the line that gave it
        self.plan = None
        self.summary = None
        self.bail_out = None
        self.records = {}          # type -> [fields]
        self.record_seen = {}      # (type, cell) -> fields
        self.kernel_warnings = []
        self.problems = []
        self.lines = 0             # non-empty lines taken
        self.last_line = start_line
        self.garbled = []          # line numbers
        self.duplicates = 0
        self.conflicts = []
        self.stray = []            # line numbers of unrecognised non-# lines
        self.after_verdict = 0
        self.inconsistent = []
        self.result_line = {}      # number -> line number of its first result line
        self.damaged = []          # line numbers that may have been result lines
        self.summary_line = None
        self.summary_text = None
        self.options = None         # the `# options:` line's text
        self.stages_done = []       # @stage names, in order
        self.heartbeat_stage = None  # the stage a heartbeat named after the last @stage
        self.last_text = ""         # the last non-empty line taken
        # Soak passes: the pass the next line belongs to (0: the first
        # run, 1..: the soak's passes, by position or the records' own
        # pass=N), where each pass starts, each result's pass, and the
        # records of a cell measured again in a later pass (the
        # document's figures keep the first run's).
        self.pass_no = 0
        self.explicit_pass = False
        self.soak_total = None
        self.pass_first_line = {0: start_line}
        self.test_pass = {}
        self.later_records = {}     # pass -> type -> [fields]
        self.cell_first_pass = {}   # (type, cell) -> pass

    def enter_pass(self, n, line_number):
        self.pass_no = n
        self.pass_first_line.setdefault(n, line_number)

    def problem(self, text):
        self.problems.append(text)

    def take(self, line):
        """Interprets one line of this boot's report."""
        text = line.text
        self.last_line = line.number
        if text:
            self.lines += 1
            self.last_text = text
        if self.summary is not None:
            # The verdict is the last line; an identical repeat of it is a
            # duplicate, a different verdict line a conflict. Anything else
            # (a later boot whose start was lost) is counted here, and its
            # failures are found by failure_mark() over the whole log.
            if text and line.clean and RE_VERDICT.match(text):
                if text == self.summary_text:
                    self.duplicates += 1
                else:
                    self.conflicts.append("line %d: a second verdict line '%s' after '%s'"
                                          % (line.number, text, self.summary_text))
            elif text:
                self.after_verdict += 1
            return
        if not line.clean:
            glued = verdict_before_noise(text)
            if glued is None:
                if text:
                    self.garbled.append(line.number)
                    if not text.startswith("#"):
                        self.damaged.append(line.number)
                return
            # The kernel's next boot starts with a blank line, so a reset
            # that lost this verdict's line end leaves only the loader's
            # noise glued after it: the whole verdict is still there.
            line = Line.of_text(line.number, glued)
            text = glued
        if not line.terminated and not RE_VERDICT.match(text):
            # The capture stopped inside this line: it may be cut short.
            self.problem("line %d is cut off: ignored" % line.number)
            if text and not text.startswith("#"):
                self.damaged.append(line.number)
            return
        if not text:
            return
        m = RE_RESULT.match(text)
        if m:
            self.take_result(line, m)
            return
        m = RE_VERDICT.match(text)
        if m:
            self.summary = {
                "verdict": m.group(1), "ok": int(m.group(2)), "not_ok": int(m.group(3)),
                "skipped": int(m.group(4)), "crashed": m.group(5), "partial": m.group(6)}
            self.summary_text = text
            self.summary_line = line.number
            return
        m = RE_PLAN.match(text)
        if m:
            self.plan = int(m.group(1))
            return
        m = RE_BAIL.match(text)
        if m:
            self.bail_out = m.group(1) or ""
            return
        if not text.startswith("#"):
            self.stray.append(line.number)
            self.damaged.append(line.number)
            return
        m = RE_BUILD.match(text)
        if m:
            self.version, self.image_sha256 = m.group(1), m.group(2)
            return
        m = RE_CPU.match(text)
        if m:
            value = m.group(2)
            self.cpu[m.group(1)] = int(value) if RE_INT.match(value) else value
            return
        m = RE_RECORD.match(text)
        if m:
            self.take_record(line, m.group(1), m.group(2) or "")
            return
        m = RE_SOAK_DONE.match(text)
        if m:
            # Pass K is done: pass K + 1 starts (the kernel numbers its soak
            # passes from 1, as its records' pass=K). After the soak's last
            # pass the run's end is the first run's (pass 0).
            if self.soak_total is not None and int(m.group(1)) >= self.soak_total:
                self.pass_no = 0
            else:
                self.enter_pass(int(m.group(1)) + 1, line.number + 1)
            return
        m = RE_SOAK_START.match(text)
        if m and self.pass_no == 0:
            self.soak_total = int(m.group(1)) if m.group(1) else None
            if not self.explicit_pass:
                self.enter_pass(1, line.number + 1)
            return
        m = RE_OPTIONS.match(text)
        if m:
            self.options = m.group(1)
            return
        m = RE_HEARTBEAT.match(text)
        if m:
            self.heartbeat_stage = m.group(1)
            return
        m = RE_PCI.match(text)
        if m:
            self.take_pci(line, m.group(1))
            return
        m = RE_WARNING.match(text)
        if m:
            self.kernel_warnings.append(m.group(1))

    def take_result(self, line, m):
        number = int(m.group(2))
        rest = m.group(3)
        test = {"number": number, "status": "not ok" if m.group(1) else "ok",
                "name": rest, "skip": None, "fault": None, "line": line.number, "pass": self.pass_no}
        if " # SKIP" in rest:
            name, _, reason = rest.partition(" # SKIP")
            test["name"], test["skip"] = name, reason.strip()
            if test["status"] == "ok":
                test["status"] = "skip"
        elif " # fault: " in rest:
            name, _, fault = rest.partition(" # fault: ")
            test["name"], test["fault"] = name, fault
        elif " # timeout: " in rest:
            # the watchdog stopped it (kernel/platform/watchdog.h)
            name, _, why = rest.partition(" # timeout: ")
            test["name"], test["fault"] = name, "timeout: " + why
        # The kernel escapes names (docs/report-format.md, "Echoed text":
        # \# for '#', \xNN); the document holds the text itself.
        test["name"] = unescape(test["name"])
        if test["skip"] is not None:
            test["skip"] = unescape(test["skip"])
        old = self.test_lines.get(number)
        if old is not None:
            if old == line.text:
                self.duplicates += 1
            else:
                self.conflicts.append("test %d: line %d says '%s' after '%s'"
                                      % (number, line.number, line.text, old))
                if test["status"] == "not ok":
                    self.tests[number] = test   # a failure is never hidden
            return
        self.test_lines[number] = line.text
        # The soak's own result ("soak: 3 passes run") closes the run: pass 0's.
        if test["name"].startswith("soak: "):
            test["pass"] = 0
        self.test_pass[number] = test["pass"]
        self.result_line[number] = line.number
        self.tests[number] = test

    def take_record(self, line, rtype, body):
        fields = {}
        for token in body.split(" ") if body else []:
            if not token:
                continue
            m = RE_PAIR.match(token)
            if not m:
                self.problem("line %d: malformed @%s record (token '%s'): ignored"
                             % (line.number, rtype, token))
                return
            fields[m.group(1)] = number_or_text(m.group(2))
        if rtype in ROW_RECORDS:
            cal = (self.records.get("calibration") or [{}])[-1]
            cells = row_cells(fields, cal.get("tsc_hz"))
            if cells is None:
                self.problem("line %d: malformed @%s record (lists of different lengths): ignored"
                             % (line.number, rtype))
                return
            for cell in cells:
                self.take_cell(line, rtype, cell)
            return
        self.take_cell(line, rtype, fields)

    def take_cell(self, line, rtype, fields):
        keys = CELL_KEYS.get(rtype)
        per_pass = rtype not in RUN_RECORDS
        if rtype == "stage":
            self.stages_done.append(fields.get("name"))
            self.heartbeat_stage = None
            if fields.get("name") == "soak":
                self.pass_no = 0        # the soak is over: the rest is the run's end
        if per_pass and isinstance(fields.get("pass"), int) and fields["pass"] >= 1:
            # The kernel names the soak pass of each record (pass=K, from 1).
            if not self.explicit_pass or fields["pass"] != self.pass_no:
                self.explicit_pass = True
                self.enter_pass(fields["pass"], line.number)
        bare = {k: v for k, v in fields.items() if k != "pass"} if per_pass else fields
        cell = tuple(bare.get(k) for k in keys) if keys is not None else tuple(sorted(bare.items()))
        if rtype == "rng":
            cell += (rng_kind(fields),)
        first = self.cell_first_pass.setdefault((rtype, cell), self.pass_no) if per_pass else None
        if per_pass and first != self.pass_no:
            # The same cell measured again in a later soak pass: that
            # pass's figure, no conflict with the first.
            seen = self.record_seen.get((rtype, cell, self.pass_no))
            if seen is not None and seen == fields:
                self.duplicates += 1
                return
            if seen is not None:
                self.conflicts.append("@%s %s: line %d differs from an earlier record of pass %d"
                                      % (rtype, " ".join("%s=%s" % kv for kv in zip(keys or (), cell)),
                                         line.number, self.pass_no))
            self.record_seen[(rtype, cell, self.pass_no)] = fields
            self.later_records.setdefault(self.pass_no, {}).setdefault(rtype, []).append(fields)
            return
        seen = self.record_seen.get((rtype, cell))
        if seen is not None:
            if seen == fields:
                self.duplicates += 1
                return
            self.conflicts.append("@%s %s: line %d differs from an earlier record"
                                  % (rtype, " ".join("%s=%s" % kv for kv in zip(keys or (), cell)),
                                     line.number))
        else:
            self.record_seen[(rtype, cell)] = fields
        self.records.setdefault(rtype, []).append(fields)

    def take_pci(self, line, row):
        if row.startswith("BB:DD.F"):
            return      # the column header
        m = RE_PCI_ROW.match(row)
        if not m:
            self.problem("line %d: unrecognised PCI row: ignored" % line.number)
            return
        g = [x.lower() if i < 9 else x for i, x in enumerate(m.groups())]
        entry = {"bdf": "%s:%s.%s" % (g[0], g[1], g[2]), "id": "%s:%s" % (g[3], g[4]),
                 "vendor": g[3], "device": g[4], "class": "%s.%s.%s" % (g[5], g[6], g[7]),
                 "rev": g[8], "bars": {}, "bus": None, "name": ""}
        words = (g[9] or "").split(" ")
        name = []
        for w in words:
            if re.match(r"^BAR[0-9]=", w) and not name:
                k, _, v = w.partition("=")
                entry["bars"][k] = v
            elif w.startswith("bus=") and not name:
                entry["bus"] = w[4:]
            elif w:
                name.append(w)
        entry["name"] = " ".join(name)
        if any(p["bdf"] == entry["bdf"] for p in self.pci):
            if any(p == entry for p in self.pci):
                self.duplicates += 1
            else:
                self.conflicts.append("pci %s: line %d differs from an earlier row"
                                      % (entry["bdf"], line.number))
            return
        self.pci.append(entry)

    # -- conclusions --

    def complete(self):
        return self.summary is not None

    def verdict(self):
        return verdict_mod.boot_verdict(self)

    def counts(self):
        c = {"ok": 0, "not_ok": 0, "skipped": 0}
        for t in self.tests.values():
            c[{"ok": "ok", "not ok": "not_ok", "skip": "skipped"}[t["status"]]] += 1
        return c

    def missing_results(self):
        expected = self.plan
        if expected is None and self.summary is not None:
            s = self.summary
            expected = s["ok"] + s["not_ok"] + s["skipped"]
        if expected is None:
            return []
        return [n for n in range(1, expected + 1) if n not in self.tests]

    def brief(self):
        return {"index": self.index, "first_line": self.start_line,
                "verdict": self.verdict(), "complete": self.complete(),
                "summary": self.summary_out()}

    def summary_out(self):
        if self.summary is None:
            return None
        s = dict(self.summary)
        del s["verdict"]
        return s


RE_BENCH_OPTION = re.compile(r"(?:^| )bench=(\S+)")


def bench_mode(doc):
    """The run's bench= level ('off', 'quick', 'full'; docs/cmdline.md) as
    its `# options:` line gives it (the options in force: the kernel prints
    bench= always), or None for a log without that line (an older image)
    or a document without a report."""
    m = RE_BENCH_OPTION.search(doc.get("options") or "")
    return m.group(1) if m else None


def rng_kind(fields):
    """An @rng record is either a source's statistics (with a verdict) or
    its benchmark (reps, no verdict): docs/report-format.md."""
    return "bench" if "verdict" not in fields and "reps" in fields else "stats"


def merge_rng(records):
    """One figure per RNG source: the statistics record's keys as printed,
    the benchmark record's keys prefixed with bench_ (docs/qualreport.md)."""
    merged = {}
    for r in records:
        m = merged.setdefault(r.get("source"), {"source": r.get("source")})
        if rng_kind(r) == "bench":
            m.update({"bench_" + k: v for k, v in r.items() if k != "source"})
        else:
            m.update(r)
    return list(merged.values())


RE_MARK = re.compile(r"(not ok \d+(?: |$))|(Bail out!)|(cryptoqual: FAIL)")


def failure_mark(line):
    """What in this line says a box failed ('not ok N', 'Bail out!', a FAIL
    verdict), wherever it stands: in a boot whose start marker was lost, in
    noise, after garbage on a garbled line. None for a clean comment line
    (the kernel's diagnostics quote test names), or a line without one."""
    text = line.text
    if line.clean and text.startswith("#"):
        # The verdict is a comment line: a FAIL one still counts.
        m = RE_VERDICT.match(text)
        return "a FAIL verdict line" if m and m.group(1) == "FAIL" else None
    m = RE_MARK.search(text)
    if not m:
        return None
    return "not ok" if m.group(1) else "Bail out!" if m.group(2) else "a FAIL verdict line"



def parse_log(data, name, path, boot_choice="last", allow_emulated=False):
    """Parses one capture (bytes) into the box document of docs/qualreport.md.
    A log from the emulation image is EMULATED instead of PASS unless
    allow_emulated."""
    lines = split_lines(data)
    boots = []
    noise = 0
    problems = []
    current = None
    marks = []
    for line in lines:
        mark = failure_mark(line)
        if mark:
            marks.append((line.number, mark, line.text))
        glued = marker_line(line)
        if glued is not None:
            if glued:
                # The verdict line whose line end was lost at a reset: it
                # is the earlier boot's, the marker starts the next.
                m2 = failure_mark(Line.of_text(line.number, glued))
                if m2 and not mark:
                    marks.append((line.number, m2, glued))
                if current is not None:
                    current.take(Line.of_text(line.number, glued))
                else:
                    noise += 1
            elif current is not None and current.lines == 0:
                current.duplicates += 1     # a repeated first line, not a reboot
                continue
            current = Boot(len(boots) + 1, line.number)
            boots.append(current)
            continue
        if current is None:
            if line.text:
                noise += 1
            continue
        current.take(line)
    if lines and not lines[-1].terminated and lines[-1].text:
        problems.append("the capture ends inside line %d" % lines[-1].number)

    ident = box_identity(boots)
    emulated = emulation(boots)
    doc = {"schema": SCHEMA, "box": ident[1] if ident else name,
           "box_key": "%s:%s" % ident if ident else "file:" + name, "log_name": name,
           "log": path, "read_error": None, "boots": len(boots), "emulated": emulated}
    if not boots:
        info = box_info([], None)
        doc.update(empty_document(name, path))
        doc.update({"emulated": emulated, "box_info": dict(info, log_name=name),
                    "integrity": dict(doc["integrity"], lines=len(lines), noise_lines_before_report=noise,
                                      unterminated_last_line=bool(lines and not lines[-1].terminated)),
                    "problems": problems + [
                        "no '%s' line: no report in this log (wrong serial speed, or the box "
                        "never booted the image)" % "TAP version 13"]})
        return doc

    chosen = select_boot(boots, boot_choice)
    if chosen is None:
        raise ValueError("--boot %s: the log has %d boot(s)%s" % (
            boot_choice, len(boots), "" if boot_choice != "last-complete" else ", none complete"))
    b = chosen
    verdict = b.verdict()
    identity = {"version": b.version, "image_sha256": b.image_sha256, "cpu": b.cpu, "pci": b.pci,
                "record": None}
    figures = {k: v for k, v in b.records.items() if k != "identity"}
    if "rng" in figures:
        figures["rng"] = merge_rng(figures["rng"])
    if "identity" in b.records:
        identity["record"] = b.records["identity"][-1]
    problems += b.problems
    if b.garbled:
        problems.append("%d garbled line(s) ignored (bytes that are not printable ASCII: noise or a "
                        "serial speed mismatch), first at line %d" % (len(b.garbled), b.garbled[0]))
    if b.duplicates:
        problems.append("%d duplicated line(s) ignored" % b.duplicates)
    problems += ["conflict: " + c for c in b.conflicts]
    problems += b.inconsistent
    missing = b.missing_results()
    if missing and b.complete():
        problems.append("result line(s) missing or unreadable: %s" % ", ".join(str(n) for n in missing))
    stopped = None
    if not b.complete():
        stopped = {"after_stage": b.stages_done[-1] if b.stages_done else None,
                   "stage": b.heartbeat_stage, "line": b.last_line,
                   "text": printable_text(b.last_text, 160)}
        problems.append("no verdict line: the log is cut off or the box hung (%s; the boot's last line is %d: '%s')"
                        % (stopped_phrase(stopped), b.last_line, stopped["text"]))
    if b.stray:
        problems.append("%d unrecognised line(s) inside the report, first at line %d"
                        % (len(b.stray), b.stray[0]))
    if b.after_verdict:
        problems.append("%d line(s) after the verdict line ignored" % b.after_verdict)
    earlier = [x.brief() for x in boots if x.index < b.index]
    later = [x.brief() for x in boots if x.index > b.index]
    for e in earlier:
        if e["verdict"] != "PASS":
            problems.append("earlier boot %d (line %d) ended %s" % (e["index"], e["first_line"], e["verdict"]))
    for e in later:
        problems.append("later boot %d (line %d, %s) not reported: --boot %s"
                        % (e["index"], e["first_line"], e["verdict"], boot_choice))
    passes = verdict_mod.soak_passes(b)
    worst = verdict_mod.worst_pass(passes)
    if worst is not None:
        problems.append("soak: pass %d of %d is the first that did not pass (%s%s)" % (
            worst["pass"], len(passes) - 1, worst["verdict"],
            ": " + worst["first_failure"] if worst["first_failure"] else ""))
    boot_verdict = verdict
    verdict, more = verdict_mod.log_verdict(verdict, b, marks, emulated, allow_emulated)
    problems += more
    info = dict(box_info(boots, b), log_name=name)
    model = model_of(identity, info)
    nxt = next((x.start_line for x in boots if x.index == b.index + 1), None)
    own = lines[b.start_line - 1: (nxt - 1) if nxt else len(lines)]
    doc.update({
        "verdict": verdict,
        "complete": b.complete(),
        "boot": {"index": b.index, "first_line": b.start_line, "verdict": boot_verdict,
                 "sha256": hashlib.sha256("\n".join(l.text for l in own).encode("latin-1")).hexdigest()},
        "box_info": info,
        "model": model,
        "model_name": model_name(model),
        "identity": identity,
        "options": b.options,
        "summary": b.summary_out(),
        "plan": b.plan,
        "bail_out": b.bail_out,
        "stopped": stopped,
        "passes": passes,
        "worst_pass": worst["pass"] if worst else None,
        "tests": [b.tests[n] for n in sorted(b.tests)],
        "figures": figures,
        "kernel_warnings": b.kernel_warnings,
        "earlier_boots": earlier,
        "later_boots": later,
        "integrity": {"lines": len(lines), "noise_lines_before_report": noise,
                      "garbled_lines": len(b.garbled), "duplicate_lines": b.duplicates,
                      "conflicts": len(b.conflicts), "missing_results": missing,
                      "unterminated_last_line": bool(lines and not lines[-1].terminated)},
        "problems": problems,
    })
    return doc


def printable_text(text, limit=300):
    """A line of a log as safe text: what is not printable ASCII as \\xNN, cut at limit."""
    return "".join(c if " " <= c <= "~" else "\\x%02x" % ord(c) for c in text[:limit])


def stopped_phrase(stopped):
    """Where a boot without its verdict stopped, as a phrase: 'in stage
    rng', 'after stage kat', 'before its first stage ended'."""
    if stopped.get("stage"):
        return "stopped in stage %s" % stopped["stage"]
    if stopped.get("after_stage"):
        return "stopped after stage %s" % stopped["after_stage"]
    return "stopped before its first stage ended"


def empty_document(name, path, read_error=None):
    """The keys of a document about a log that holds no report (NO-REPORT),
    or that could not be read (read_error says why): every key of
    docs/qualreport.md present, so a fleet's documents line up."""
    return {
        "schema": SCHEMA, "box": name, "box_key": "file:" + name, "log_name": name, "log": path,
        "read_error": read_error, "boots": 0, "emulated": None,
        "verdict": "NO-REPORT", "complete": False, "boot": None,
        "box_info": {"asset": None, "tag": None, "serial": None, "board_serial": None, "mac": None,
                     "model": None, "bios": None, "version": None, "date": None, "emulate": None,
                     "log_name": name},
        "model": {"cpu.vendor": None, "cpu.family": None, "cpu.model": None, "product": None},
        "model_name": "unknown model",
        "identity": {"version": None, "image_sha256": None, "cpu": {}, "pci": [], "record": None},
        "options": None, "summary": None, "plan": None, "bail_out": None, "stopped": None,
        "passes": [], "worst_pass": None, "tests": [], "figures": {}, "kernel_warnings": [],
        "earlier_boots": [], "later_boots": [],
        "integrity": {"lines": 0, "noise_lines_before_report": 0, "garbled_lines": 0, "duplicate_lines": 0,
                      "conflicts": 0, "missing_results": [], "unterminated_last_line": False},
        "problems": ["cannot read the log: %s" % read_error] if read_error else [],
    }


def unreadable_document(path, reason):
    """The document of a log that could not be read or parsed as asked
    (a missing file, --boot N past its boots): NO-REPORT, read_error the
    reason; it keeps its place among the others."""
    return empty_document(box_name(path), path, reason)


def select_boot(boots, choice):
    if choice == "last":
        return boots[-1]
    if choice == "last-complete":
        done = [b for b in boots if b.complete()]
        return done[-1] if done else None
    n = int(choice)
    return boots[n - 1] if 1 <= n <= len(boots) else None


def not_a_serial_log(data):
    """Why the bytes of a file are no serial log, or None: a JSON document
    (a baseline, parse's output: text that starts with '{' or '[' and
    parses as JSON, or starts like JSON and does not) is not a capture of
    the serial console, which would be NO-REPORT and blamed on the serial
    speed."""
    head = data.lstrip(b" \t\r\n\xef\xbb\xbf")
    if not head[:1] in (b"{", b"["):
        return None
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except ValueError as e:
        if not re.match(rb'[{\[]\s*["{\[\]}]', head) or b"TAP version 1" in data:
            return None
        return ("a JSON document cut or damaged (line %d column %d: %s), not a serial log"
                % (getattr(e, "lineno", 0), getattr(e, "colno", 0), getattr(e, "msg", str(e))))
    kind = doc.get("schema") if isinstance(doc, dict) else None
    if kind is None and isinstance(doc, list) and doc and isinstance(doc[0], dict):
        kind = doc[0].get("schema")
    return "a JSON document%s, not a serial log" % (" (%s)" % printable_text(str(kind), 60) if kind else "")


def load_log(path, boot_choice="last", allow_emulated=False):
    """The document of the log at path (parse_log); raises OSError when it
    cannot be read, ValueError for a --boot it does not have or a file
    that is no serial log (not_a_serial_log)."""
    with open(path, "rb") as f:
        raw = f.read()
    wrong = not_a_serial_log(raw)
    if wrong:
        raise ValueError(wrong)
    data = as_serial_log(raw, path)   # a collector's per-box syslog file, or the log itself
    return parse_log(data, box_name(path), path, boot_choice, allow_emulated)


def read_log(path, boot_choice="last", allow_emulated=False):
    """load_log, but a log that cannot be read is a document too
    (unreadable_document): one document per path, in order."""
    try:
        return load_log(path, boot_choice, allow_emulated)
    except OSError as e:
        return unreadable_document(path, e.strerror or str(e))
    except ValueError as e:
        return unreadable_document(path, str(e))


