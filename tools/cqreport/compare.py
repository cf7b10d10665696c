"""Judging boxes against a baseline: the checks, one row per box, the
table and --json (docs/qualreport.md, "compare")."""

import json
import os
import re
import sys

from .baseline import BaselineError, load_baseline
from .common import SCHEMA, box_name
from .parse import load_log

def figure_label(fig):
    if "name" in fig:
        return fig["name"]
    m = fig.get("match", {})
    return "@%s %s %s" % (fig["record"], " ".join("%s=%s" % (k, m[k]) for k in m), fig["field"])


def check_figure(doc, fig):
    """Returns (ok, detail) for one baseline figure against a box document."""
    label = figure_label(fig)
    records = doc["figures"].get(fig["record"], [])
    match = fig.get("match", {})
    found = [r for r in records if all(r.get(k) == v for k, v in match.items())]
    if not found:
        return False, "%s: missing" % label
    if len(found) > 1:
        keys = sorted({k for r in found for k in r if k not in match and len({str(x.get(k)) for x in found}) > 1})
        return False, "%s: ambiguous, %d records match (they differ in %s)" % (label, len(found), ", ".join(keys))
    value = found[0].get(fig["field"])
    if value is None:
        return False, "%s: the record has no '%s'" % (label, fig["field"])
    if fig.get("info"):
        # Too noisy to judge (docs/qualreport.md, "baseline"): how far the
        # box is from the batch, as information.
        if isinstance(value, (int, float)) and fig["baseline"]:
            return True, "%s: %s (%.1f%% of the batch's %s; information, not checked)" % (
                label, value, 100.0 * value / fig["baseline"], fig["baseline"])
        return True, "%s: %s (information, not checked)" % (label, value)
    why = []
    if "equals" in fig and value != fig["equals"]:
        why.append("is %s, wanted %s" % (value, fig["equals"]))
    if any(k in fig for k in ("min_ratio", "max_ratio", "min", "max")) and not isinstance(value, (int, float)):
        return False, "%s: '%s' is not a number" % (label, value)
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
        return False, "%s: %s" % (label, "; ".join(why))
    return True, "%s: %s%s" % (label, value, "" if ratio is None else " (%.1f%%)" % (ratio * 100))


def test_matches(entry, name):
    if isinstance(entry, dict):
        return re.search(entry["regex"], name) is not None
    return name.startswith(entry)


def judge(doc, base):
    """Applies a baseline to a box document: list of (ok, kind, detail)."""
    checks = []
    v = doc["verdict"]
    if v == "NO-REPORT":
        checks.append((False, "verdict", "no report in the log"))
    elif v == "INCOMPLETE":
        checks.append((False, "verdict", "incomplete: the log has no verdict line (cut off or hung)"))
    elif v != "PASS":
        worst = next((p for p in doc.get("passes") or [] if p["pass"] == doc.get("worst_pass")), None)
        checks.append((False, "verdict", "verdict %s%s" % (v, " (soak: pass %d of %d first: %s)" % (
            worst["pass"], len(doc["passes"]), worst["first_failure"] or worst["verdict"]) if worst else "")))
    else:
        checks.append((True, "verdict", "PASS"))
    for e in doc.get("earlier_boots", []):
        if e["verdict"] != "PASS":
            checks.append((False, "reboot", "earlier boot %d (line %d) ended %s"
                           % (e["index"], e["first_line"], e["verdict"])))
    if doc["verdict"] == "NO-REPORT":
        return checks
    for entry in base.get("require_tests", []):
        label = entry if isinstance(entry, str) else "/%s/" % entry["regex"]
        hits = [t for t in doc["tests"] if test_matches(entry, t["name"])]
        if not hits:
            checks.append((False, "test", "required test '%s' missing" % label))
        elif any(t["status"] != "ok" for t in hits):
            bad = [t for t in hits if t["status"] != "ok"][0]
            checks.append((False, "test", "required test '%s' is %s%s" % (
                label, bad["status"], " (%s)" % bad["skip"] if bad["skip"] else "")))
        else:
            checks.append((True, "test", label))
    ids = {p["id"] for p in (doc["identity"] or {}).get("pci", [])}
    for want in base.get("require_pci", []):
        checks.append((want.lower() in ids, "pci", "PCI device %s %s" % (want, "present" if want.lower() in ids else "missing")))
    for key, want in base.get("require_identity", {}).items():
        have = identity_value(doc, key)
        checks.append((have == want, "identity", "%s is %s%s" % (key, have, "" if have == want else ", wanted %s" % want)))
    for fig in base.get("figures", []):
        ok, detail = check_figure(doc, fig)
        checks.append((ok, "figure", detail))
    return checks


def identity_value(doc, key):
    ident = doc.get("identity") or {}
    if key.startswith("cpu."):
        return ident.get("cpu", {}).get(key[4:])
    return ident.get(key)


def cmd_compare(args):
    try:
        base = load_baseline(args.baseline)
    except BaselineError as e:
        print("qualreport: baseline: %s" % e, file=sys.stderr)
        return 2
    runs = []
    for path in args.logs:
        try:
            doc = load_log(path, args.boot, args.allow_emulated)
            checks = judge(doc, base)
        except OSError as e:
            doc = unreadable_doc(path)
            checks = [(False, "log", "cannot read: %s" % e.strerror)]
        except ValueError as e:
            doc = unreadable_doc(path)
            checks = [(False, "log", str(e))]
        figs = [c for c in checks if c[1] == "figure"]
        s = doc.get("summary")
        runs.append({
            "box": doc["box"], "box_key": doc["box_key"], "log": path, "verdict": doc["verdict"],
            "tests": "%d/%d/%d" % (s["ok"], s["not_ok"], s["skipped"]) if s else "-",
            "figures": (sum(1 for c in figs if c[0]), len(figs)),
            "result": "PASS" if all(c[0] for c in checks) else "FAIL",
            "why": [c[2] for c in checks if not c[0]],
            "checks": [{"ok": c[0], "kind": c[1], "detail": c[2]} for c in checks]})
    out = group_runs(runs)
    failed = sum(1 for b in out if b["result"] != "PASS")
    if args.json:
        json.dump({"schema": SCHEMA + "-compare", "baseline": args.baseline, "boxes": out,
                   "failed": failed}, sys.stdout, indent=1)
        print()
    else:
        print_table(out)
    return 1 if failed else 0


def unreadable_doc(path):
    name = box_name(path)
    return {"box": name, "box_key": "file:" + name, "verdict": "NO-REPORT", "summary": None, "tests": []}


def group_runs(runs):
    """One entry per box (docs/qualreport.md, "Boxes"): the runs of logs that
    share a box key, in argument order; a box passes when every run does."""
    boxes = {}
    for r in runs:
        boxes.setdefault(r["box_key"], []).append(r)
    out = []
    for key, rs in boxes.items():
        many = len(rs) > 1
        why = []
        for r in rs:
            why += [("%s: %s" % (os.path.basename(r["log"]), w)) if many else w for w in r["why"]]
        verdicts = []
        for r in rs:
            if r["verdict"] not in verdicts:
                verdicts.append(r["verdict"])
        out.append({
            "box": rs[0]["box"], "box_key": key, "log": rs[0]["log"], "logs": [r["log"] for r in rs],
            "runs": len(rs), "verdict": ",".join(verdicts), "tests": rs[-1]["tests"],
            "figures": "%d/%d" % (sum(r["figures"][0] for r in rs), sum(r["figures"][1] for r in rs)),
            "result": "PASS" if all(r["result"] == "PASS" for r in rs) else "FAIL", "why": why,
            "checks": [dict(c, log=r["log"]) for r in rs for c in r["checks"]],
            "run_results": [{"log": r["log"], "verdict": r["verdict"], "result": r["result"]} for r in rs]})
    return out


WHY_LIMIT = 12     # failing checks listed per box under the table


def print_table(rows):
    heads = ("BOX", "RUNS", "VERDICT", "TESTS ok/not/skip", "FIGURES", "RESULT", "WHY")
    cells = [(r["box"], str(r["runs"]), r["verdict"], r["tests"], r["figures"], r["result"],
              (r["why"][0] + (" (+%d more)" % (len(r["why"]) - 1) if len(r["why"]) > 1 else ""))
              if r["why"] else "") for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(heads)]
    fmt = "  ".join("%%-%ds" % w for w in widths[:-1]) + "  %s"
    print((fmt % heads).rstrip())
    for c in cells:
        print((fmt % c).rstrip())
    for r in rows:
        if len(r["why"]) > 1:
            print("%s:" % r["box"])
            for w in r["why"][:WHY_LIMIT]:
                print("  - %s" % w)
            if len(r["why"]) > WHY_LIMIT:
                print("  - ... and %d more (--json lists them all)" % (len(r["why"]) - WHY_LIMIT))
    n_fail = sum(1 for r in rows if r["result"] != "PASS")
    print("%d box(es): %d passed, %d failed" % (len(rows), len(rows) - n_fail, n_fail))


# ---- baseline ----
