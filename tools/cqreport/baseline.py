"""The baseline: reading (and checking) a hand-edited one, and making
one from the logs of good boxes (docs/qualreport.md, "baseline")."""

import json
import re
import sys

from .common import BASELINE_SCHEMA, median
from .parse import CELL_KEYS, load_log

class BaselineError(Exception):
    pass


def load_baseline(path):
    try:
        with open(path, encoding="utf-8") as f:
            base = json.load(f)
    except (OSError, ValueError) as e:
        raise BaselineError("%s: %s" % (path, e))
    if not isinstance(base, dict):
        raise BaselineError("%s: not a JSON object" % path)
    known = {"schema", "description", "require_tests", "require_pci", "require_identity", "figures"}
    for k in base:
        if k not in known:
            raise BaselineError("%s: unknown key '%s' (known: %s)" % (path, k, ", ".join(sorted(known))))
    for i, fig in enumerate(base.get("figures", [])):
        where = "%s: figures[%d]" % (path, i)
        if not isinstance(fig, dict) or "record" not in fig or "field" not in fig:
            raise BaselineError(where + ": needs 'record' and 'field'")
        limits = [k for k in ("min_ratio", "max_ratio", "min", "max", "equals") if k in fig]
        if not limits and not fig.get("info"):
            raise BaselineError(where + ": needs one of min_ratio, max_ratio, min, max, equals (or \"info\": true)")
        if fig.get("info") and not isinstance(fig.get("baseline"), (int, float)):
            raise BaselineError(where + ": an informational figure needs a numeric 'baseline'")
        if ("min_ratio" in fig or "max_ratio" in fig) and not isinstance(fig.get("baseline"), (int, float)):
            raise BaselineError(where + ": a ratio needs a numeric 'baseline'")
        if not isinstance(fig.get("match", {}), dict):
            raise BaselineError(where + ": 'match' must be an object")
    for t in base.get("require_tests", []):
        if not (isinstance(t, str) or (isinstance(t, dict) and "regex" in t)):
            raise BaselineError("%s: require_tests entries are strings (name prefixes) or {\"regex\": ...}" % path)
    return base


RE_MEASURED = re.compile(r"^(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]+)?)(?:/[0-9]+[KMG]?)?[,;:]?$")


def stable_prefix(name):
    """A test name without what a box measured: trailing parenthesised
    details ("(2096.011 MHz)", the vectors' sources) are stripped, and the
    name is cut before its first word that is a number or an address
    ("throughput 5466395 bytes/s", "BAR0 0xa0000000/16K", "found 6
    functions"), so that the same test on another box of the same model, or
    on another boot, matches. Measured values belong in the @ records."""
    cut = name
    while cut.endswith(")"):
        depth, i = 0, len(cut) - 1
        while i >= 0:       # the parenthesis that opens the last one, nested ones included
            depth += {")": 1, "(": -1}.get(cut[i], 0)
            if depth == 0:
                break
            i -= 1
        if i <= 0:
            break
        cut = cut[:i].rstrip()
    words = cut.split(" ")
    for i, w in enumerate(words):
        if i > 0 and RE_MEASURED.match(w):
            cut = " ".join(words[:i]).rstrip(",;:")
            break
    return cut or name



NOISY_SPREAD = 0.25
NOISY_BATCH = 0.50


def rng_roles(doc):
    """The RNG sources of a log that carry no verdict of their own: known-bad
    test modes (`rng: SOURCE is a known-bad test mode ...`) and sources whose
    statistics failed in a box that passed (informational)."""
    bad = set()
    for t in doc["tests"]:
        m = re.match(r"^rng: (\S+) is a known-bad ", t["name"])
        if m:
            bad.add(m.group(1))
    for r in doc["figures"].get("rng", []):
        if r.get("verdict") not in (None, "pass"):
            bad.add(r.get("source"))
    return bad


def cmd_baseline(args):
    docs = []
    for path in args.logs:
        try:
            doc = load_log(path, args.boot, args.allow_emulated)
        except (OSError, ValueError) as e:
            print("qualreport: %s: %s" % (path, getattr(e, "strerror", None) or e), file=sys.stderr)
            return 2
        if doc["verdict"] != "PASS":
            print("qualreport: %s: verdict %s: a baseline comes from boxes that passed" % (path, doc["verdict"]),
                  file=sys.stderr)
            return 1
        docs.append(doc)
    # Tests: the stable names that were ok in every log of the batch.
    per_log = []
    for doc in docs:
        names = []
        for t in doc["tests"]:
            p = stable_prefix(t["name"])
            if t["status"] == "ok" and p not in names:
                names.append(p)
        per_log.append(names)
    tests = [n for n in per_log[0] if all(n in other for other in per_log[1:])]
    dropped = sorted({n for names in per_log for n in names} - set(tests))
    if dropped:
        print("qualreport: baseline: %d test name(s) not ok in every log left out: %s"
              % (len(dropped), "; ".join(dropped[:5]) + (" ..." if len(dropped) > 5 else "")), file=sys.stderr)
    # Figures: one per cell measured in every log, the batch's median as
    # the baseline and a tolerance that every log of the batch meets.
    figures = []
    skip_rng = set().union(*(rng_roles(d) for d in docs))
    for rtype, field in (("cipher", "kbps"), ("hash", "kbps"), ("montmul", "ops_per_s"),
                         ("rng", "bench_bytes_per_s")):
        spread_key = "bench_spread_pct" if rtype == "rng" else "spread_pct"
        cells = {}
        for k, doc in enumerate(docs):
            for r in doc["figures"].get(rtype, []):
                if not isinstance(r.get(field), (int, float)):
                    continue
                if rtype == "rng" and r.get("source") in skip_rng:
                    continue
                keys = [x for x in CELL_KEYS[rtype] if x in r]
                match = tuple((x, r[x]) for x in keys)
                cells.setdefault(match, {})[k] = r
        for match, by_log in cells.items():
            if len(by_log) != len(docs):
                continue
            values = [r[field] for r in by_log.values()]
            mid = median(values)
            own = max((r.get(spread_key) or 0) for r in by_log.values()) / 100.0
            batch = (max(values) - min(values)) / mid if mid else float("inf")
            fig = {"record": rtype, "match": dict(match), "field": field, "baseline": mid,
                   "batch": {"logs": len(values), "min": min(values), "max": max(values),
                             "spread_pct": round(own * 100, 1)}}
            if own > NOISY_SPREAD or batch > NOISY_BATCH or not mid:
                fig["info"] = True
            else:
                margin = max(1.0 - args.min_ratio, own)
                fig["min_ratio"] = round(min(values) / mid * (1.0 - margin), 4)
            figures.append(fig)
    for r in docs[0]["figures"].get("rng", []):
        src = r.get("source")
        # "pass" for a source judged as full entropy; "info" for a source
        # that is only characterised (docs/rng-verdict.md): kept as it was.
        for want in ("pass", "info"):
            if "verdict" in r and src and src not in skip_rng and all(
                    any(x.get("source") == src and x.get("verdict") == want for x in d["figures"].get("rng", []))
                    for d in docs):
                figures.append({"record": "rng", "match": {"source": src}, "field": "verdict", "equals": want})
    first = docs[0]
    base = {"schema": BASELINE_SCHEMA,
            "description": "from %s (%s, image %s)" % (
                ", ".join(d["box"] for d in docs), first["identity"]["version"], first["identity"]["image_sha256"]),
            "require_tests": tests, "require_pci": [], "require_identity": {}, "figures": figures}
    if args.same_image:
        images = {d["identity"]["image_sha256"] for d in docs}
        if len(images) > 1:
            print("qualreport: --same-image: the logs come from %d different images" % len(images), file=sys.stderr)
            return 1
        base["require_identity"]["image_sha256"] = first["identity"]["image_sha256"]
    text = json.dumps(base, indent=1) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    n_info = sum(1 for f in figures if f.get("info"))
    print("qualreport: baseline from %d log(s): %d required test(s), %d figure(s) (%d informational: "
          "too noisy to judge)" % (len(docs), len(tests), len(figures), n_info), file=sys.stderr)
    return 0


