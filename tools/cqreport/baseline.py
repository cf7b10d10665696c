"""The baseline: reading (and checking) a hand-edited one, and making
one from the logs of good boxes (docs/qualreport.md, "baseline")."""

import json
import os
import re
import sys

from . import schema
from .common import BASELINE_SCHEMA, median
from .parse import CELL_KEYS, RE_AES_ALG, bench_mode, load_log

class BaselineError(Exception):
    """A baseline that cannot be used: str() is the one message, naming
    the file and the key (exit status 2)."""


SET_SCHEMA = "cryptoqual-baseline-set-1"


def read_json(path):
    """The JSON in path; BaselineError naming the file when it cannot be
    read or is not JSON, with the JSON error's place (a serial log given
    where the baseline goes, as in `compare LOG LOG`, says so)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BaselineError("%s: %s" % (path, e.strerror or e))
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise BaselineError("%s: not a baseline: not UTF-8 text (byte %d)" % (path, e.start))
    except ValueError as e:
        hint = ""
        if b"TAP version 1" in data[:65536] and data.lstrip()[:1] not in (b"{", b"["):
            hint = ": it looks like a serial log; the baseline comes first (compare BASELINE.json LOG...)"
        raise BaselineError("%s: not JSON (line %d column %d: %s)%s" % (
            path, getattr(e, "lineno", 0), getattr(e, "colno", 0), getattr(e, "msg", str(e)), hint))


class BaselineSet:
    """The baselines of a fleet: one per model (docs/qualreport.md,
    "Baseline sets"). Each entry is (baseline, where it came from); a
    baseline without "model" (one hand-made file) applies to every box."""

    def __init__(self, entries, source):
        self.entries = entries
        self.source = source

    def choose(self, doc):
        """(baseline, its label) for the box of doc: the baseline whose
        model keys all equal the box's, the one with the most keys when
        several do; (None, "no baseline for MODEL") when none does."""
        best, best_n = None, -1
        have = doc.get("model") or {}
        for base, where in self.entries:
            model = base.get("model")
            if model is None:
                n = 0
            elif all(have.get(k) == v for k, v in model.items()):
                n = len(model)
            else:
                continue
            if n > best_n:
                best, best_n = (base, where), n
        if best is None:
            return None, "no baseline for %s" % doc.get("model_name", "this model")
        return best


def load_one(path):
    """The baselines in one file: a baseline, or a set of them."""
    doc = read_json(path)
    kind = doc.get("schema") if isinstance(doc, dict) else None
    try:
        if kind == SET_SCHEMA:
            schema.check(doc, SET_SCHEMA, path)
            return [(b, "%s baselines[%d]" % (path, i)) for i, b in enumerate(doc["baselines"])]
        schema.check(doc, BASELINE_SCHEMA, path)
    except schema.SchemaError as e:
        raise BaselineError(str(e))
    return [(doc, path)]


def load_baseline(path):
    """The BaselineSet at path: a baseline file, a baseline set file, or a
    directory whose *.json files are baselines or sets. BaselineError (one
    message naming the file and the key) when any is unusable."""
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
        if not names:
            raise BaselineError("%s: a directory without *.json baselines" % path)
        entries = []
        for n in names:
            entries += load_one(os.path.join(path, n))
    else:
        entries = load_one(path)
    return BaselineSet(entries, path)


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



# Tests that only a run option makes: a boot without the option has none,
# so a baseline that required them would fail every ordinary boot of the
# model. `soak: N passes run` comes from passes= or duration=, `expect:
# NAME present (expect=)` from expect= (the engine's own KAT and
# cross-check results stay required); kernel/run/main.c prints both.
OPTION_TESTS = (("soak", re.compile(r"^soak(?::|$)"), "passes= or duration="),
                ("expect", re.compile(r"^expect: "), "expect="))


def option_test(stable):
    """The option (as the docs name it) that alone makes a test of this
    stable name, or None for a test every boot runs."""
    return next((opt for _, rx, opt in OPTION_TESTS if rx.match(stable)), None)


# The bench= levels (docs/cmdline.md), each measuring what the ones
# before it do and more: off nothing; quick AES-128 in every mode and
# direction and AES-256 in CBC (kernel/run/bench_aes.c in_quick_scope; the
# in-place, unaligned and dual-context rows, the hashes, RNG throughput and
# montmul as full measures them); full every key size and mode.
BENCH_MODES = ("off", "quick", "full")
BENCH_RECORDS = ("cipher", "cost", "hash", "montmul")


def bench_figure(fig):
    """Whether a baseline figure is a benchmark's (it exists only when the
    run's bench= level measures its cell): @cipher, @cost, @hash, @montmul
    and the @rng bench_ fields."""
    return fig["record"] in BENCH_RECORDS or (fig["record"] == "rng" and fig["field"].startswith("bench_"))


def mode_measures(mode, fig):
    """Whether a boot with bench=mode measures the cell of a baseline
    figure: True, False, or None when that cannot be told (a level this
    tool does not know, an AES figure whose match names no key size)."""
    if not bench_figure(fig):
        return True
    if mode not in BENCH_MODES:
        return None
    if mode != "quick":
        return mode == "full"
    match = fig.get("match") or {}
    if fig["record"] not in ("cipher", "cost") or match.get("variant", "separate-aligned") != "separate-aligned":
        return True
    alg = RE_AES_ALG.match(str(match.get("alg", "")))
    if "alg" in match and not alg:
        return True         # a hash's @cost
    bits = match.get("key_bits", int(alg.group(1)) if alg else None)
    aes_mode = match.get("mode", alg.group(2) if alg else None)
    if bits == 128:
        return True
    if bits == 256 and aes_mode is not None:
        return aes_mode == "cbc"
    return False if bits == 192 else None


def bench_modes_note(docs, cells_left_out):
    """The bench= levels of a batch's logs for the baseline's bench_modes
    (None when a log has no `# options:` line: then every figure is
    required of every run, as a baseline without the key), and a note for
    stderr when they are not all one."""
    modes = [bench_mode(d) for d in docs]
    if any(m is None for m in modes):
        n = sum(1 for m in modes if m is None)
        return None, ("%d log(s) without an '# options:' line (bench= level unknown): no bench_modes recorded, "
                      "every figure is required of every run" % n)
    known = sorted(set(modes), key=lambda m: (BENCH_MODES.index(m) if m in BENCH_MODES else len(BENCH_MODES), m))
    if len(known) == 1:
        return known, None
    return known, ("logs of %d bench= levels (%s): figures only for the cells every log measured, %d cell(s) "
                   "some logs did not measure left out; a run of any of these levels must show every figure" % (
                       len(known), ", ".join("bench=%s: %d log(s)" % (m, modes.count(m)) for m in known),
                       cells_left_out))


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


def make_baseline(docs, min_ratio):
    """A baseline from the documents of good boxes of one model
    (docs/qualreport.md, "baseline"), and the messages for stderr."""
    notes = []
    # Tests: the stable names that were ok in every log of the batch.
    per_log = []
    for doc in docs:
        names = []
        for t in doc["tests"]:
            p = stable_prefix(t["name"])
            if t["status"] == "ok" and p not in names:
                names.append(p)
        per_log.append(names)
    optional = sorted({n for names in per_log for n in names if option_test(n)})
    if optional:
        notes.append("%d test name(s) that only a run option makes left out: %s" % (
            len(optional), "; ".join("%s (%s)" % (n, option_test(n)) for n in optional[:5])
            + (" ..." if len(optional) > 5 else "")))
    per_log = [[n for n in names if not option_test(n)] for names in per_log]
    tests = [n for n in per_log[0] if all(n in other for other in per_log[1:])]
    dropped = sorted({n for names in per_log for n in names} - set(tests))
    if dropped:
        notes.append("%d test name(s) not ok in every log left out: %s"
                     % (len(dropped), "; ".join(dropped[:5]) + (" ..." if len(dropped) > 5 else "")))
    # Figures: one per cell measured in every log, the batch's median as
    # the baseline and a tolerance that every log of the batch meets.
    figures = []
    left_out = 0
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
                left_out += 1
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
                margin = max(1.0 - min_ratio, own)
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
    model = {k: v for k, v in first["model"].items() if v is not None or k == "product"}
    base = {"schema": BASELINE_SCHEMA,
            "description": "%s: from %s (%s, image %s)" % (
                first["model_name"], ", ".join(d["box"] for d in docs), first["identity"]["version"],
                first["identity"]["image_sha256"]),
            "model": model}
    modes, note = bench_modes_note(docs, left_out)
    if modes:
        base["bench_modes"] = modes
    if note:
        notes.append(note)
    base.update({"require_tests": tests, "require_pci": [], "require_identity": {}, "figures": figures})
    n_info = sum(1 for f in figures if f.get("info"))
    notes.append("baseline for %s from %d log(s): %d required test(s), %d figure(s) (%d informational: "
                 "too noisy to judge)%s" % (first["model_name"], len(docs), len(tests), len(figures), n_info,
                                            " measured with bench=%s" % "/".join(modes) if modes else ""))
    return base, notes


def slug(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-").lower() or "model"


def cmd_baseline(args):
    docs = []
    refused = []
    for path in args.logs:
        try:
            doc = load_log(path, args.boot, args.allow_emulated)
        except (OSError, ValueError) as e:
            print("qualreport: %s: %s" % (path, getattr(e, "strerror", None) or e), file=sys.stderr)
            return 2
        if doc["verdict"] != "PASS":
            refused.append((path, doc["verdict"]))
        docs.append(doc)
    if refused:
        # Every refused log, so that one run shows the operator all of them.
        for path, verdict in refused:
            print("qualreport: %s: verdict %s: a baseline comes from boxes that passed" % (path, verdict),
                  file=sys.stderr)
        emulated = sum(1 for _, v in refused if v == "EMULATED")
        print("qualreport: baseline: %d of %d log(s) refused%s" % (
            len(refused), len(args.logs),
            "; %d of them runs of the emulation image: --allow-emulated takes them as real boxes" % emulated
            if emulated else ""), file=sys.stderr)
        return 1
    if args.same_image:
        images = {d["identity"]["image_sha256"] for d in docs}
        if len(images) > 1:
            print("qualreport: --same-image: the logs come from %d different images" % len(images), file=sys.stderr)
            return 1
    # One baseline per model (docs/qualreport.md, "Baseline sets").
    by_model = {}
    for d in docs:
        by_model.setdefault(json.dumps(d["model"], sort_keys=True), []).append(d)
    bases = []
    for group in by_model.values():
        base, notes = make_baseline(group, args.min_ratio)
        if args.same_image:
            base["require_identity"]["image_sha256"] = group[0]["identity"]["image_sha256"]
        for n in notes:
            print("qualreport: baseline: %s" % n, file=sys.stderr)
        bases.append((base, group[0]["model_name"]))
    out = args.output
    if out and (os.path.isdir(out) or out.endswith(os.sep)):
        os.makedirs(out, exist_ok=True)
        for base, name in bases:
            with open(os.path.join(out, slug(name) + ".json"), "w", encoding="utf-8") as f:
                f.write(json.dumps(base, indent=1) + "\n")
        print("qualreport: wrote %d baseline(s) into %s" % (len(bases), out), file=sys.stderr)
        return 0
    if len(bases) == 1:
        result = bases[0][0]
    else:
        result = {"schema": SET_SCHEMA,
                  "description": "%d models: %s" % (len(bases), "; ".join(name for _, name in bases)),
                  "baselines": [b for b, _ in bases]}
    text = json.dumps(result, indent=1) + "\n"
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
