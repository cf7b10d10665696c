"""Judging boxes against a baseline (or a baseline set, one per model):
the checks, one row per box, the table and --json (docs/qualreport.md,
"compare")."""

import json
import os
import re
import sys

from .baseline import BaselineError, load_baseline, mode_measures
from .common import SCHEMA
from .parse import bench_mode, read_log

# Where a failed check stands in a box's WHY list, telling reasons first
# (docs/qualreport.md, "compare"): a log that cannot be read, holds no
# report, stopped before its verdict or contradicts itself, a soak's first
# failing pass (with its first not ok), and no baseline for the model; then the box's own not ok results by number,
# throughput shortfalls at 8 KiB (the largest first), other shortfalls,
# the other checks, the verdict.
RANK_STOPPED = 0
RANK_NO_BASELINE = 0
RANK_NOT_OK = 1
RANK_SHORT_8K = 2
RANK_SHORT = 3
RANK_OTHER = 4
RANK_VERDICT = 5
TELLING_BYTES = 8192


def figure_label(fig):
    if "name" in fig:
        return fig["name"]
    m = fig.get("match", {})
    return "@%s %s %s" % (fig["record"], " ".join("%s=%s" % (k, m[k]) for k in m), fig["field"])


def not_compared(doc, base, fig):
    """Why a figure is not compared for this run (a phrase), or None: the
    run has no record of its cell and its bench= level does not measure
    that cell while every level the baseline's figures came from
    (bench_modes) does. A baseline without bench_modes, a run without an
    `# options:` line, or a cell the run's level measures: None (a
    missing record fails)."""
    modes = base.get("bench_modes")
    run = bench_mode(doc)
    if not modes or run is None or mode_measures(run, fig) is not False:
        return None
    if not all(mode_measures(m, fig) is True for m in modes):
        return None
    match = fig.get("match", {})
    if any(all(r.get(k) == v for k, v in match.items()) for r in doc["figures"].get(fig["record"], [])):
        return None
    return "bench=%s does not measure it (the baseline's figures come from bench=%s)" % (run, "/".join(modes))


def check_figure(doc, fig):
    """Returns (ok, detail, ratio) for one baseline figure against a box
    document; ratio is value / baseline for a ratio limit, else None."""
    label = figure_label(fig)
    records = doc["figures"].get(fig["record"], [])
    match = fig.get("match", {})
    found = [r for r in records if all(r.get(k) == v for k, v in match.items())]
    if not found:
        return False, "%s: missing" % label, None
    if len(found) > 1:
        keys = sorted({k for r in found for k in r if k not in match and len({str(x.get(k)) for x in found}) > 1})
        return False, "%s: ambiguous, %d records match (they differ in %s)" % (
            label, len(found), ", ".join(keys)), None
    value = found[0].get(fig["field"])
    if value is None:
        return False, "%s: the record has no '%s'" % (label, fig["field"]), None
    if fig.get("info"):
        # Too noisy to judge (docs/qualreport.md, "baseline"): how far the
        # box is from the batch, as information.
        if isinstance(value, (int, float)) and fig["baseline"]:
            return True, "%s: %s (%.1f%% of the batch's %s; information, not checked)" % (
                label, value, 100.0 * value / fig["baseline"], fig["baseline"]), None
        return True, "%s: %s (information, not checked)" % (label, value), None
    why = []
    if "equals" in fig and value != fig["equals"]:
        why.append("is %s, wanted %s" % (value, fig["equals"]))
    if any(k in fig for k in ("min_ratio", "max_ratio", "min", "max")) and not isinstance(value, (int, float)):
        return False, "%s: '%s' is not a number" % (label, value), None
    if "min" in fig and value < fig["min"]:
        why.append("%s < min %s" % (value, fig["min"]))
    if "max" in fig and value > fig["max"]:
        why.append("%s > max %s" % (value, fig["max"]))
    ratio = None
    if "min_ratio" in fig or "max_ratio" in fig:
        ratio = value / fig["baseline"] if fig["baseline"] else float("inf")
        if "min_ratio" in fig and ratio < fig["min_ratio"]:
            why.append("%s is %.1f%% of baseline %s (minimum %.1f%%)"
                       % (value, ratio * 100, fig["baseline"], fig["min_ratio"] * 100))
        if "max_ratio" in fig and ratio > fig["max_ratio"]:
            why.append("%s is %.1f%% of baseline %s (maximum %.1f%%)"
                       % (value, ratio * 100, fig["baseline"], fig["max_ratio"] * 100))
    if why:
        return False, "%s: %s" % (label, "; ".join(why)), ratio
    return True, "%s: %s%s" % (label, value, "" if ratio is None else " (%.1f%%)" % (ratio * 100)), ratio


def test_matches(entry, name):
    if isinstance(entry, dict):
        return re.search(entry["regex"], name) is not None
    return name.startswith(entry)


def verdict_checks(doc):
    """The checks every box gets, baseline or not: its verdict, its earlier
    boots, and each not ok result by number and name."""
    checks = []
    v = doc["verdict"]
    if doc.get("read_error"):
        checks.append((False, "log", "cannot read the log: %s" % doc["read_error"], (RANK_STOPPED, 0)))
    elif v == "NO-REPORT":
        checks.append((False, "verdict", "no report in the log", (RANK_STOPPED, 0)))
    elif v == "INCOMPLETE":
        stopped = doc.get("stopped") or {}
        where = ("in stage %s" % stopped["stage"]) if stopped.get("stage") else (
            "after stage %s" % stopped["after_stage"]) if stopped.get("after_stage") else "before its first stage ended"
        checks.append((False, "verdict", "incomplete: no verdict line (cut off or hung %s, last line %s)"
                       % (where, stopped.get("line")), (RANK_STOPPED, 0)))
    elif v != "PASS":
        worst = next((p for p in doc.get("passes") or [] if p["pass"] == doc.get("worst_pass")), None)
        checks.append((False, "verdict", "verdict %s%s" % (v, " (soak: pass %d of %d first: %s)" % (
            worst["pass"], len(doc["passes"]) - 1, worst["first_failure"] or worst["verdict"]) if worst else ""),
            (RANK_STOPPED if v == "INCONSISTENT" or worst else RANK_VERDICT, 0)))
    else:
        checks.append((True, "verdict", "PASS", (RANK_VERDICT, 0)))
    for e in doc.get("earlier_boots", []):
        if e["verdict"] != "PASS":
            checks.append((False, "reboot", "earlier boot %d (line %d) ended %s"
                           % (e["index"], e["first_line"], e["verdict"]), (RANK_VERDICT, 1)))
    for t in doc.get("tests", []):
        if t["status"] == "not ok":
            checks.append((False, "not-ok", "not ok %d - %s%s" % (
                t["number"], t["name"], " (%s)" % t["fault"] if t.get("fault") else ""), (RANK_NOT_OK, t["number"])))
    return checks


def judge(doc, base):
    """Applies a baseline to a box document: a list of (ok, kind, detail,
    rank) checks, rank ordering the failed ones in the WHY list. base None:
    the box has no baseline (the caller adds why)."""
    checks = verdict_checks(doc)
    if doc["verdict"] == "NO-REPORT" or base is None:
        return checks
    for entry in base.get("require_tests", []):
        label = entry if isinstance(entry, str) else "/%s/" % entry["regex"]
        hits = [t for t in doc["tests"] if test_matches(entry, t["name"])]
        if not hits:
            checks.append((False, "test", "required test '%s' missing" % label, (RANK_OTHER, 0)))
        elif any(t["status"] != "ok" for t in hits):
            bad = [t for t in hits if t["status"] != "ok"][0]
            checks.append((False, "test", "required test '%s' is %s%s" % (
                label, bad["status"], " (%s)" % bad["skip"] if bad["skip"] else ""), (RANK_OTHER, 0)))
        else:
            checks.append((True, "test", label, (RANK_OTHER, 0)))
    ids = {p["id"] for p in (doc["identity"] or {}).get("pci", [])}
    for want in base.get("require_pci", []):
        have = want.lower() in ids
        checks.append((have, "pci", "PCI device %s %s" % (want, "present" if have else "missing"), (RANK_OTHER, 1)))
    for key, want in base.get("require_identity", {}).items():
        have = identity_value(doc, key)
        checks.append((have == want, "identity", "%s is %s%s" % (key, have, "" if have == want else ", wanted %s" % want),
                       (RANK_OTHER, 2)))
    for fig in base.get("figures", []):
        why_not = not_compared(doc, base, fig)
        if why_not:
            checks.append((True, "not-compared", "%s: not compared: %s" % (figure_label(fig), why_not),
                           (RANK_OTHER, 3)))
            continue
        ok, detail, ratio = check_figure(doc, fig)
        if ratio is not None:
            rank = (RANK_SHORT_8K if fig.get("match", {}).get("bytes") == TELLING_BYTES else RANK_SHORT, ratio)
        else:
            rank = (RANK_OTHER, 3)
        checks.append((ok, "figure", detail, rank))
    return checks


def why_of(checks):
    """The failed checks' details, the telling reasons first (see RANK_*)."""
    bad = [c for c in checks if not c[0]]
    return [c[2] for c in sorted(bad, key=lambda c: c[3])]


def identity_value(doc, key):
    ident = doc.get("identity") or {}
    if key.startswith("cpu."):
        return ident.get("cpu", {}).get(key[4:])
    return ident.get(key)


def judge_run(doc, bases):
    """One run against a BaselineSet (or None: verdicts only): its checks,
    and the label of the baseline used (None when none fits)."""
    if bases is None:
        return judge(doc, None), None
    if doc["verdict"] == "NO-REPORT":
        return judge(doc, None), None
    base, where = bases.choose(doc)
    if base is None:
        return judge(doc, None) + [(False, "baseline", where, (RANK_NO_BASELINE, 0))], None
    return judge(doc, base), base.get("description") or where


NOTE_LABELS = 3    # figures named in a run's "not compared" note


def notes_of(checks):
    """What a run was not judged on, in one line each (the box table's
    notes): the figures its bench= level does not measure, the first few
    by name (--json has each as a not-compared check)."""
    skipped = [c[2] for c in checks if c[1] == "not-compared"]
    if not skipped:
        return []
    label, _, why = skipped[0].partition(": not compared: ")
    names = [c.partition(": not compared: ")[0] for c in skipped]
    return ["%d figure(s) not compared: %s: %s%s" % (
        len(skipped), why.replace("measure it", "measure them"), "; ".join(names[:NOTE_LABELS]),
        " ..." if len(names) > NOTE_LABELS else "")]


def run_result(doc, checks, label):
    figs = [c for c in checks if c[1] == "figure"]
    s = doc.get("summary")
    return {
        "box": doc["box"], "box_key": doc["box_key"], "log": doc["log"], "verdict": doc["verdict"],
        "tests": "%d/%d/%d" % (s["ok"], s["not_ok"], s["skipped"]) if s else "-",
        "figures": (sum(1 for c in figs if c[0]), len(figs)),
        "result": "PASS" if all(c[0] for c in checks) else "FAIL",
        "why": why_of(checks), "notes": notes_of(checks), "baseline": label,
        "model_name": doc.get("model_name"), "box_info": doc.get("box_info"),
        "checks": [{"ok": c[0], "kind": c[1], "detail": c[2]} for c in checks]}


def cmd_compare(args):
    try:
        bases = load_baseline(args.baseline)
    except BaselineError as e:
        print("qualreport: %s" % e, file=sys.stderr)
        return 2
    runs = []
    for path in args.logs:
        doc = read_log(path, args.boot, args.allow_emulated)
        checks, label = judge_run(doc, bases)
        runs.append(run_result(doc, checks, label))
    out = group_runs(runs)
    failed = sum(1 for b in out if b["result"] != "PASS")
    if args.json:
        json.dump({"schema": SCHEMA + "-compare", "baseline": args.baseline, "boxes": out,
                   "passed": len(out) - failed, "failed": failed}, sys.stdout, indent=1)
        print()
    else:
        print_table(out)
    return 1 if failed else 0


def group_runs(runs):
    """One entry per box (docs/qualreport.md, "Boxes"): the runs of logs that
    share a box key, in argument order; a box passes when every run does."""
    boxes = {}
    for r in runs:
        boxes.setdefault(r["box_key"], []).append(r)
    out = []
    for key, rs in boxes.items():
        many = len(rs) > 1
        why, notes = [], []
        for r in rs:
            why += [("%s: %s" % (os.path.basename(r["log"]), w)) if many else w for w in r["why"]]
            notes += [("%s: %s" % (os.path.basename(r["log"]), n)) if many else n for n in r.get("notes", [])]
        verdicts = []
        for r in rs:
            if r["verdict"] not in verdicts:
                verdicts.append(r["verdict"])
        last = rs[-1]
        out.append({
            "box": rs[0]["box"], "box_key": key, "log": rs[0]["log"], "logs": [r["log"] for r in rs],
            "runs": len(rs), "verdict": ",".join(verdicts), "tests": last["tests"],
            "figures": "%d/%d" % (sum(r["figures"][0] for r in rs), sum(r["figures"][1] for r in rs)),
            "result": "PASS" if all(r["result"] == "PASS" for r in rs) else "FAIL", "why": why, "notes": notes,
            "model_name": last.get("model_name"), "box_info": last.get("box_info"),
            "baseline": last.get("baseline"),
            "checks": [dict(c, log=r["log"]) for r in rs for c in r["checks"]],
            "run_results": [{"log": r["log"], "verdict": r["verdict"], "result": r["result"]} for r in rs]})
    return out


WHY_LIMIT = 12     # failing checks listed per box under the table


def table(heads, cells):
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(heads)]
    fmt = "  ".join("%%-%ds" % w for w in widths[:-1]) + "  %s"
    return [(fmt % heads).rstrip()] + [(fmt % c).rstrip() for c in cells]


def info_cells(r):
    """BOX MODEL BIOS IMAGE DATE LOG of a box (the box table's second part)."""
    i = r.get("box_info") or {}
    logs = ", ".join(os.path.basename(x) for x in r.get("logs", [r.get("log", "")]))
    return (r["box"], i.get("model") or r.get("model_name") or "-", i.get("bios") or "-", i.get("version") or "-",
            i.get("date") or "-", logs)


def print_table(rows):
    heads = ("BOX", "RUNS", "VERDICT", "TESTS ok/not/skip", "FIGURES", "RESULT", "WHY")
    cells = [(r["box"], str(r["runs"]), r["verdict"], r["tests"], r["figures"], r["result"],
              (r["why"][0] + (" (+%d more)" % (len(r["why"]) - 1) if len(r["why"]) > 1 else ""))
              if r["why"] else "") for r in rows]
    for line in table(heads, cells):
        print(line)
    for r in rows:
        if len(r["why"]) > 1:
            print("%s:" % r["box"])
            for w in r["why"][:WHY_LIMIT]:
                print("  - %s" % w)
            if len(r["why"]) > WHY_LIMIT:
                print("  - ... and %d more (--json lists them all)" % (len(r["why"]) - WHY_LIMIT))
    for r in rows:
        for n in r.get("notes", []):
            print("%s: %s" % (r["box"], n))
    print()
    for line in table(("BOX", "MODEL", "BIOS", "IMAGE", "DATE", "LOG"), [info_cells(r) for r in rows]):
        print(line)
    n_fail = sum(1 for r in rows if r["result"] != "PASS")
    print("%d box(es): %d passed, %d failed" % (len(rows), len(rows) - n_fail, n_fail))
