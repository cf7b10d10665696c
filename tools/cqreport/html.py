"""The fleet page: one self-contained static HTML file (docs/qualreport.md,
"html")."""

import os
import shutil
import sys
import tempfile

from .baseline import BaselineError, load_baseline
from .collector import is_syslog_file, syslog_to_serial
from .common import median, short_size
from .compare import judge_run, why_of
from .parse import read_log, split_lines, stopped_phrase
from .plot import PREFERRED_VARIANT, render_panels

VERDICT_ORDER = ("NO-REPORT", "INCOMPLETE", "CRASH", "INCONSISTENT", "FAIL", "EMULATED", "PARTIAL", "PASS")
HTML_CSS = """
body { font: 14px sans-serif; margin: 1em 2em; color: #222; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #eee; cursor: pointer; max-width: 9em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.v-PASS { background: #b8e6b8; } td.v-FAIL, td.v-CRASH { background: #f4a6a6; }
td.v-INCONSISTENT, td.v-INCOMPLETE, td.v-NO-REPORT { background: #f7d08a; }
td.v-EMULATED { background: #c9c3f0; }
span.emu { background: #c9c3f0; padding: 0 4px; font-size: 85%; }
div.info { font-size: 80%; color: #555; max-width: 26em; }
span.partial { font-size: 80%; display: block; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1.5em; font-size: 90%; }
ul.legend span { display: inline-block; width: 2.5em; height: 0; vertical-align: middle; margin-right: 0.4em; }
div.plots { display: flex; flex-wrap: wrap; gap: 8px; }
div.plots figure { margin: 0; }
td.failures { min-width: 20em; max-width: 36em; font-size: 85%; overflow-wrap: anywhere; }
pre { background: #f6f6f6; padding: 4px; overflow-x: auto; }
pre .hit { background: #f4a6a6; display: block; }
"""
# Sorting by a click on a column head; `#sort=N` (column number from 0)
# in the address sorts on load (the headless test uses it). Each cell's
# data-key is its sort key: a number, or text.
HTML_JS = """
function cqSort(col) {
  var body = document.querySelector('#boxes tbody');
  var rows = Array.prototype.slice.call(body.rows);
  var th = document.querySelectorAll('#boxes th')[col];
  var dir = th.getAttribute('data-dir') === 'asc' ? -1 : 1;
  th.setAttribute('data-dir', dir === 1 ? 'asc' : 'desc');
  rows.sort(function (a, b) {
    var x = a.cells[col].getAttribute('data-key'), y = b.cells[col].getAttribute('data-key');
    var nx = parseFloat(x), ny = parseFloat(y);
    if (!isNaN(nx) && !isNaN(ny)) return dir * (nx - ny);
    return dir * (x < y ? -1 : x > y ? 1 : 0);
  });
  rows.forEach(function (r) { body.appendChild(r); });
}
window.addEventListener('load', function () {
  var heads = document.querySelectorAll('#boxes th');
  for (var i = 0; i < heads.length; i++)
    heads[i].addEventListener('click', cqSort.bind(null, i));
  var m = /sort=(\\d+)/.exec(location.hash);
  if (m) cqSort(parseInt(m[1], 10));
  var imgs = document.querySelectorAll('img.plot'), n = 0;
  for (var j = 0; j < imgs.length; j++) if (imgs[j].complete && imgs[j].naturalWidth > 0) n++;
  document.body.setAttribute('data-plots-loaded', n);
  var cell = document.querySelector('#boxes tbody td.verdict');
  if (cell) {
    var r = cell.getBoundingClientRect();
    document.body.setAttribute('data-first-verdict', [r.left, r.top, r.width, r.height].map(Math.round).join(','));
  }
});
"""


def html_escape(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def printable(text, limit=300):
    """One line of a log as safe text: not printable ASCII as \\xNN."""
    return "".join(c if " " <= c <= "~" else "\\x%02x" % ord(c) for c in text[:limit])


def box_verdict(runs):
    """The worst verdict among a box's runs (VERDICT_ORDER)."""
    return min((r["verdict"] for r in runs), key=lambda v: VERDICT_ORDER.index(v) if v in VERDICT_ORDER else 0)


def throughput_cells(doc):
    """{(kind, engine, alg): {bytes: MB/s}} of one document: @cipher encrypt
    cells of the separate-aligned variant (or without a variant) and @hash
    cells."""
    cells = {}
    for kind in ("cipher", "hash"):
        for r in doc["figures"].get(kind, []):
            if not isinstance(r.get("bytes"), int) or not isinstance(r.get("kbps"), (int, float)):
                continue
            if kind == "cipher" and (r.get("dir", "encrypt") != "encrypt"
                                     or r.get("variant", PREFERRED_VARIANT) != PREFERRED_VARIANT):
                continue
            if r["kbps"] <= 0:
                continue        # a failed cell: nothing to draw on a logarithmic axis
            cells.setdefault((kind, r.get("engine", "?"), r.get("alg", "?")), {})[r["bytes"]] = r["kbps"] / 1000.0
    return cells


def fleet_panels(boxes):
    """{(kind, engine, alg): {bytes: ([real boxes' MB/s], [emulated boxes' MB/s])}},
    one value per box (the median of its runs)."""
    panels = {}
    for b in boxes:
        per = {}
        for doc in b["docs"]:
            for key, cells in throughput_cells(doc).items():
                for n, v in cells.items():
                    per.setdefault(key, {}).setdefault(n, []).append(v)
        for key, cells in per.items():
            for n, vs in cells.items():
                slot = panels.setdefault(key, {}).setdefault(n, ([], []))
                slot[1 if b["emulated"] else 0].append(median(vs))
    return panels


def baseline_throughput(base):
    """{(kind, engine, alg): {bytes: (baseline MB/s, lowest passing MB/s or None)}}."""
    out = {}
    for f in (base or {}).get("figures", []):
        m = f.get("match", {})
        if f.get("record") not in ("cipher", "hash") or f.get("field") != "kbps" or "bytes" not in m:
            continue
        if f["record"] == "cipher" and (m.get("dir", "encrypt") != "encrypt"
                                        or m.get("variant", PREFERRED_VARIANT) != PREFERRED_VARIANT):
            continue
        if not isinstance(f.get("baseline"), (int, float)):
            continue
        low = f["baseline"] * f["min_ratio"] / 1000.0 if "min_ratio" in f else None
        out.setdefault((f["record"], m.get("engine", "?"), m.get("alg", "?")), {})[m["bytes"]] = (
            f["baseline"] / 1000.0, low)
    return out


def log_lines(path):
    """The lines of the log at path numbered as parse numbered them: a
    collector's per-box syslog file as its serial log (its notes were
    printed when it was parsed); [] when it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return []
    return split_lines(syslog_to_serial(data)[0] if is_syslog_file(data) else data)


def load_runs(args, bases):
    """The documents the page is made of, each with its checks: from the
    logs, or with --db each box's last run in the history database (and
    its number of runs there)."""
    runs = []
    if getattr(args, "db", None):
        from .db import DbError, connect, latest_documents
        from .verdict import reread_emulated
        try:
            db = connect(args.db, create=False)
        except DbError as e:
            raise RuntimeError(str(e))
        for doc, n in latest_documents(db):
            reread_emulated(doc, args.allow_emulated)   # as the logs themselves are read
            doc["_runs_in_db"] = n
            runs.append(doc)
        db.close()
    else:
        runs = [read_log(path, args.boot, args.allow_emulated) for path in args.logs]
    for doc in runs:
        doc["_checks"], doc["_baseline"] = judge_run(doc, bases) if bases else ([], None)
    return runs


def baseline_result(docs):
    """FAIL when any run of the box fails its baseline checks, else PASS."""
    return "FAIL" if any(not d["_checks"] or not all(c[0] for c in d["_checks"]) for d in docs) else "PASS"


def verdict_rank(v):
    return VERDICT_ORDER.index(v) if v in VERDICT_ORDER else 0


def info_html(doc):
    """The box's model, BIOS, image, date, options and log file, small,
    under its name."""
    i = doc.get("box_info") or {}
    parts = [i.get("model") or doc.get("model_name") or "model unknown",
             "BIOS %s" % (i.get("bios") or "unknown"), "image %s" % (i.get("version") or "unknown"),
             i.get("date") or "date unknown", "log %s" % os.path.basename(doc["log"])]
    if i.get("serial") and i.get("serial") != doc["box"]:
        parts.insert(0, "serial %s" % i["serial"])
    if i.get("tag"):
        parts.append("tag %s" % i["tag"])
    text = "; ".join(html_escape(printable(p, 120)) for p in parts)
    if doc.get("options"):
        text += "<br>options: %s" % html_escape(printable(doc["options"], 200))
    return "<div class=\"info\">%s</div>" % text


LEGEND = (("min-max of the real boxes", "border-top: 8px solid #9ecae1"),
          ("their median", "border-top: 2px solid #08519c"),
          ("emulated boxes' median", "border-top: 2px dashed #6a51a3"),
          ("baseline", "border-top: 1px dotted #000000"),
          ("lowest value the baseline passes", "border-top: 1px dashed #d62728"))


def cmd_html(args):
    import base64
    bases = None
    if args.baseline:
        try:
            bases = load_baseline(args.baseline)
        except BaselineError as e:
            print("qualreport: %s" % e, file=sys.stderr)
            return 2
    try:
        runs = load_runs(args, bases)
    except RuntimeError as e:
        print("qualreport: %s" % e, file=sys.stderr)
        return 2
    boxes = {}
    for d in runs:
        boxes.setdefault(d["box_key"], []).append(d)
    fleet = [{"box": ds[0]["box"], "key": k, "docs": ds, "verdict": box_verdict(ds),
              "runs": sum(d.get("_runs_in_db", 1) for d in ds),
              "result": baseline_result(ds) if bases else None,
              "emulated": any(d.get("emulated") for d in ds)} for k, ds in boxes.items()]
    # Worst first: failing the baseline, then the verdict order, then by name.
    fleet.sort(key=lambda b: (0 if b["result"] == "FAIL" else 1, verdict_rank(b["verdict"]), b["box"]))
    panels = fleet_panels(fleet)
    base_tp = {}
    for base, _ in (bases.entries if bases else []):
        for k, v in baseline_throughput(base).items():
            base_tp.setdefault(k, v)
    # Columns: one per engine, its 8 KiB (or largest) throughput, aes-128-cbc
    # or sha256 when it has them.
    columns = []
    for kind, engine, alg in sorted(panels):
        if (kind, engine) in [(c[0], c[1]) for c in columns]:
            continue
        algs = sorted(a for k, e, a in panels if (k, e) == (kind, engine))
        pick = next((a for a in ("aes-128-cbc", "sha256") if a in algs), algs[0])
        sizes = sorted(panels[(kind, engine, pick)])
        size = 8192 if 8192 in sizes else sizes[-1]
        columns.append((kind, engine, pick, size))
    svgs = []
    if panels:
        gnuplot = shutil.which("gnuplot")
        if not gnuplot:
            print("qualreport: gnuplot not found (Debian package gnuplot-nox)", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory(prefix="qualreport.") as tmp:
            try:
                svgs = render_panels(panels, base_tp, tmp, gnuplot)
            except RuntimeError as e:
                print("qualreport: %s" % e, file=sys.stderr)
                return 2
    h = []
    n_logs = sum(b["runs"] for b in fleet)
    title = args.title or "cryptoqual fleet report: %d box%s, %d run%s" % (
        len(fleet), "" if len(fleet) == 1 else "es", n_logs, "" if n_logs == 1 else "s")
    counts = {}
    for b in fleet:
        counts[b["verdict"]] = counts.get(b["verdict"], 0) + 1
    verdicts = ", ".join("%d %s" % (counts[v], v) for v in VERDICT_ORDER if v in counts)
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
    h.append("<title>%s</title><style>%s</style><script>%s</script></head><body>"
             % (html_escape(title), HTML_CSS, HTML_JS))
    h.append("<h1>%s</h1>" % html_escape(title))
    if bases:
        n_fail = sum(1 for b in fleet if b["result"] == "FAIL")
        h.append("<p id=\"summary\" data-passed=\"%d\" data-failed=\"%d\"><b>%d box%s: %d passed, %d failed</b> "
                 "against the baseline %s; verdicts: %s</p>" % (
                     len(fleet) - n_fail, n_fail, len(fleet), "" if len(fleet) == 1 else "es", len(fleet) - n_fail,
                     n_fail, html_escape(args.baseline), verdicts))
    else:
        h.append("<p id=\"summary\"><b>%d box%s</b>: %s</p>" % (len(fleet), "" if len(fleet) == 1 else "es", verdicts))
    h.append("<table id=\"boxes\"><thead><tr><th>box</th><th>runs</th><th>verdict</th>")
    if bases:
        h.append("<th>baseline</th>")
    for kind, engine, alg, size in columns:
        h.append("<th>%s %s %s (MB/s)</th>" % (html_escape(engine), html_escape(alg), short_size(size)))
    h.append("<th>failures</th></tr></thead><tbody>")
    details = []
    for bi, b in enumerate(fleet):
        v = b["verdict"]
        last = b["docs"][-1]
        partial = [d["summary"]["partial"] for d in b["docs"] if d.get("summary") and d["summary"].get("partial")]
        h.append("<tr id=\"box-%d\" data-box=\"%s\"><td class=\"box\" data-key=\"%s\">%s%s%s</td>"
                 "<td class=\"num\" data-key=\"%d\">%d</td>"
                 % (bi, html_escape(b["box"]), html_escape(b["box"]), html_escape(b["box"]),
                    " <span class=\"emu\">emulated</span>" if b["emulated"] else "", info_html(last),
                    b["runs"], b["runs"]))
        h.append("<td class=\"verdict v-%s\" data-key=\"%d\">%s%s</td>" % (
            v, verdict_rank(v), v,
            "<span class=\"partial\">partial: %s</span>" % html_escape(printable(partial[-1], 120)) if partial else ""))
        if bases:
            failed = sum(1 for d in b["docs"] if not d["_checks"] or not all(c[0] for c in d["_checks"]))
            h.append("<td class=\"v-%s result\" data-key=\"%d\">%s</td>" % (b["result"], failed, b["result"]))
        for kind, engine, alg, size in columns:
            vals = []
            for d in b["docs"]:
                x = throughput_cells(d).get((kind, engine, alg), {}).get(size)
                if x is not None:
                    vals.append(x)
            if vals:
                h.append("<td class=\"num\" data-key=\"%g\">%.2f</td>" % (median(vals), median(vals)))
            else:
                h.append("<td class=\"num\" data-key=\"-1\">-</td>")
        items = []
        lines_shown = []
        for ri, d in enumerate(b["docs"]):
            if d.get("stopped"):
                s = d["stopped"]
                items.append("%s: %s, last line %d: %s" % (
                    html_escape(os.path.basename(d["log"])), html_escape(stopped_phrase(s)), s["line"],
                    html_escape(printable(s["text"], 120))))
            for t in d.get("tests", []):
                if t["status"] == "not ok":
                    anchor = "L-%d-%d-%d" % (bi, ri, t["line"])
                    items.append("<a href=\"#%s\">%s line %d: not ok %d - %s</a>" % (
                        anchor, html_escape(os.path.basename(d["log"])), t["line"], t["number"],
                        html_escape(printable(t["name"], 120))))
                    lines_shown.append((ri, t["line"], anchor))
            if d["verdict"] != "PASS":
                for p in d.get("problems", [])[:2]:
                    items.append(html_escape(printable(p, 160)))
            bad = why_of(d["_checks"]) if bases else []
            if bad:
                items.append("%d of %d baseline check(s) failed, first: %s" % (
                    len(bad), len(d["_checks"]), html_escape(printable(bad[0], 160))))
            for w in d.get("kernel_warnings", [])[:3]:
                items.append("warning: %s" % html_escape(printable(w, 160)))
        h.append("<td class=\"failures\" data-key=\"%d\">%s</td></tr>" % (
            len(items), "<br>".join(items[:6]) + (" (+%d more)" % (len(items) - 6) if len(items) > 6 else "")))
        if lines_shown:
            details.append("<details id=\"log-%d\" open><summary>%s: failing lines</summary>" % (
                bi, html_escape(b["box"])))
            cache = {}
            for ri, n, anchor in lines_shown:
                path = b["docs"][ri]["log"]
                if path not in cache:
                    cache[path] = log_lines(path)
                lines = cache[path]
                ctx = lines[max(0, n - 4): n + 3]
                if not ctx:
                    ctx = []
                details.append("<pre id=\"%s\">%s</pre>" % (anchor, "".join(
                    ("<span class=\"hit\">%s</span>" if l.number == n else "%s\n") % html_escape(
                        "%6d  %s" % (l.number, printable(l.text))) for l in ctx) or html_escape(
                    "(the log %s is not at hand)" % path)))
            details.append("</details>")
    h.append("</tbody></table>")
    h.append("<h2>Throughput against buffer size</h2><p>Per engine and algorithm (encrypt, %s), one value per "
             "box (the median of its runs).</p>" % PREFERRED_VARIANT)
    legend = [LEGEND[0], LEGEND[1]]
    if any(b["emulated"] for b in fleet):
        legend.append(LEGEND[2])
    if base_tp:
        legend += [LEGEND[3], LEGEND[4]]
    h.append("<ul class=\"legend\">%s</ul><div class=\"plots\">" % "".join(
        "<li><span style=\"%s\"></span>%s</li>" % (style, html_escape(text)) for text, style in legend))
    for (kind, engine, alg), svg in svgs:
        h.append("<figure><img class=\"plot\" alt=\"%s %s throughput\" data-engine=\"%s\" src=\"data:image/svg+xml;"
                 "base64,%s\"></figure>" % (html_escape(engine), html_escape(alg), html_escape(engine),
                                            base64.b64encode(svg).decode("ascii")))
    if not svgs:
        h.append("<p>No @cipher or @hash records in these logs.</p>")
    h.append("</div>")
    if details:
        h.append("<h2>Failing lines</h2>")
        h += details
    h.append("</body></html>\n")
    with open(args.output, "w", encoding="utf-8") as f:
        f.write("\n".join(h))
    print("qualreport: wrote %s (%d box(es), %d run(s), %d plot(s))" % (args.output, len(fleet), n_logs, len(svgs)))
    if bases:
        return 0 if all(b["result"] == "PASS" for b in fleet) else 1
    return 0 if all(b["verdict"] == "PASS" for b in fleet) else 1
