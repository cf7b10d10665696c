"""A boot's verdict from its verdict line, plan and results
(docs/qualreport.md, "Verdicts"). The functions take a parse.Boot."""


def boot_verdict(b):
    """PASS only when the verdict line says PASS and nothing in this boot
    contradicts it; a verdict line that disagrees with the results or the
    plan makes the boot INCONSISTENT whatever else is damaged
    (docs/qualreport.md, "Verdicts")."""
    s = b.summary
    if s is None:
        return "INCOMPLETE"
    b.inconsistent = contradictions(b)
    if b.inconsistent:
        return "INCONSISTENT"
    if s["crashed"] is not None or b.bail_out is not None:
        return "CRASH"
    if s["verdict"] == "PASS" and s.get("partial"):
        return "PARTIAL"        # options skipped or shrank a stage: only what ran qualified
    return s["verdict"]


def contradictions(b):
    """Sentences, one per way the verdict line, the plan and the results
    of this boot disagree. Damage (garbled, cut or unrecognised lines)
    explains only results that are missing where a damaged line stands."""
    s = b.summary
    why = []
    total = s["ok"] + s["not_ok"] + s["skipped"]
    if s["verdict"] == "PASS":
        if s["not_ok"] != 0:
            why.append("the verdict line says PASS with %d not ok" % s["not_ok"])
        if s["crashed"] is not None:
            why.append("the verdict line says PASS and crashed")
        if b.bail_out is not None:
            why.append("'Bail out!' before a PASS verdict line")
        bad = [n for n, t in b.tests.items() if t["status"] == "not ok"]
        if bad:
            why.append("PASS, but test(s) %s are not ok" % ", ".join(str(n) for n in sorted(bad)))
    elif s["not_ok"] == 0 and s["crashed"] is None and b.bail_out is None:
        why.append("the verdict line says FAIL with 0 not ok and no crash")
    if b.conflicts:
        why.append("%d conflicting line(s) in the report" % len(b.conflicts))
    counts = b.counts()
    for key, label in (("ok", "ok"), ("not_ok", "not ok"), ("skipped", "skipped")):
        if counts[key] > s[key]:
            why.append("%d %s result(s), but the verdict line counts %d" % (counts[key], label, s[key]))
    if b.plan is not None and b.plan != total:
        why.append("the plan 1..%d disagrees with the verdict line's %d results" % (b.plan, total))
    limit = min(total, b.plan) if b.plan is not None else total
    beyond = sorted(n for n in b.tests if n > limit or n < 1)
    if beyond:
        why.append("result(s) numbered outside 1..%d: %s" % (limit, ", ".join(str(n) for n in beyond[:10])))
    lost = unexplained_missing(b, total)
    if lost:
        why.append("result(s) %s missing with no damaged line where they belong"
                   % ", ".join(str(n) for n in lost[:10]))
    return why


def unexplained_missing(b, expected):
    """The numbers in 1..expected without a result line that no damaged
    line (garbled, cut, unrecognised) between their neighbours can
    account for: each damaged line explains at most one result."""
    missing = [n for n in range(1, expected + 1) if n not in b.tests]
    if not missing:
        return []
    present = sorted(b.result_line.items())
    end = b.summary_line if b.summary_line is not None else b.last_line + 1
    used = set()
    lost = []
    for n in missing:
        lo = max((l for k, l in present if k < n), default=b.start_line)
        hi = min((l for k, l in present if k > n), default=end)
        lo, hi = min(lo, hi), max(lo, hi)
        c = next((x for x in b.damaged if lo < x < hi and x not in used), None)
        if c is None:
            lost.append(n)
        else:
            used.add(c)
    return lost


def log_verdict(boot_verdict_, b, marks, emulated, allow_emulated):
    """The box's verdict for the log from its reported boot's own verdict:
    a failure line anywhere else in the log (another boot, a boot whose
    start marker was lost, noise; or a garbled one inside a PASS boot)
    makes a PASS or INCONSISTENT boot FAIL, and a PASS of the emulation
    image is EMULATED unless allow_emulated. marks are (line number, what,
    text) of every failure line. Returns (verdict, [problem sentences])."""
    v = boot_verdict_
    problems = []
    end = b.summary_line if b.summary_line is not None else b.last_line
    elsewhere = [m for m in marks if not b.start_line < m[0] <= end]
    if v in ("PASS", "PARTIAL") and marks and not elsewhere:
        elsewhere = marks       # a garbled failure line inside a PASS boot
    if v in ("PASS", "PARTIAL", "INCONSISTENT") and elsewhere:
        v = "FAIL"
        n, what, text = elsewhere[0]
        problems.append("%d failure line(s) elsewhere in the log, first at line %d (%s: '%s'): "
                        "the box failed in this log" % (len(elsewhere), n, what, text[:120].encode(
                            "ascii", "backslashreplace").decode("ascii")))
    if v in ("PASS", "PARTIAL") and emulated and not allow_emulated:
        v = "EMULATED"
        problems.append(emulated_problem(emulated))
    return v, problems


def emulated_problem(emulated):
    """The problem sentence of a run of the emulation image read as EMULATED."""
    return ("a run of the emulation image (emulate=%s, %d record(s) emulated=1): not a real "
            "box (--allow-emulated reads it as one)" % (emulated["profile"], emulated["records"]))


def reread_emulated(doc, allow_emulated):
    """A stored box document (the history keeps every run as its log says
    it, a passing run of the emulation image EMULATED) read as
    log_verdict reads a log: with allow_emulated an EMULATED document
    becomes its boot's own PASS or PARTIAL, its emulation problem gone;
    without, a passing document of the emulation image (one stored by an
    older qualreport under --allow-emulated) becomes EMULATED. Changes doc
    in place and returns it; a document of a real box is left as it is."""
    if not doc.get("emulated") or not doc.get("boot"):
        return doc
    text = emulated_problem(doc["emulated"])
    if allow_emulated and doc["verdict"] == "EMULATED":
        doc["verdict"] = doc["boot"]["verdict"]
        doc["problems"] = [p for p in doc["problems"] if p != text]
    elif not allow_emulated and doc["verdict"] in ("PASS", "PARTIAL"):
        doc["verdict"] = "EMULATED"
        doc["problems"] = doc["problems"] + [text]
    return doc


def soak_passes(b):
    """The passes of a soak boot (docs/qualreport.md, "Soak logs"), [] for
    a boot of one pass: pass 0 (the first run) and the soak's passes 1..
    as the kernel numbers them, each with its first line, result counts
    (a soak pass prints only its not ok results: its ok count comes from
    its @soak record), the first failing result and its verdict (FAIL when
    a result or the pass's RNG statistics failed, or its @soak record
    counts a not ok; INCOMPLETE for the last pass of a boot without its
    verdict line; else PASS)."""
    soak = {r.get("pass"): r for r in b.records.get("soak", []) if isinstance(r.get("pass"), int)}
    numbers = sorted(set(b.pass_first_line) | set(b.test_pass.values()) | set(b.later_records) | set(soak))
    if len(numbers) < 2:
        return []
    out = []
    for n in numbers:
        mine = [b.tests[t] for t, p in sorted(b.test_pass.items()) if p == n]
        c = {"ok": 0, "not ok": 0, "skip": 0}
        for t in mine:
            c[t["status"]] += 1
        rec = soak.get(n) if n >= 1 else None
        if rec is not None:
            if isinstance(rec.get("ok"), int):
                c["ok"] = max(c["ok"], rec["ok"])
            if isinstance(rec.get("not_ok"), int):
                c["not ok"] = max(c["not ok"], rec["not_ok"])
        bad = [t for t in mine if t["status"] == "not ok"]
        rng_bad = [r.get("source") for r in b.later_records.get(n, {}).get("rng", []) if r.get("verdict") == "fail"]
        why = None
        if bad:
            why = "not ok %d - %s" % (bad[0]["number"], bad[0]["name"])
        elif rng_bad:
            why = "@rng source=%s verdict=fail" % rng_bad[0]
        elif c["not ok"]:
            why = "@soak not_ok=%d" % c["not ok"]
        out.append({"pass": n, "first_line": b.pass_first_line.get(n), "ok": c["ok"], "not_ok": c["not ok"],
                    "skipped": c["skip"], "verdict": "FAIL" if why else "PASS", "first_failure": why})
    if out and b.summary is None and out[-1]["verdict"] == "PASS":
        out[-1]["verdict"] = "INCOMPLETE"
    return out


def worst_pass(passes):
    """The first pass that did not pass (the one a failure started in), or None."""
    return next((p for p in passes if p["verdict"] != "PASS"), None)
