"""Throughput plots with gnuplot: the PNG of `plot` and the small SVG
panels of the fleet page."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from .common import median, short_size
from .parse import load_log

PREFERRED_VARIANT = "separate-aligned"


def thinned_tics(sizes, factor=4):
    """gnuplot xtics for sizes on a logarithmic axis: a label only where it
    stands at least factor times the previous label (and always on the
    largest, dropping the label before it when too close), a tick without
    a label elsewhere, so that "8K" and "16K" never overlap."""
    labelled = []
    for n in sizes:
        if not labelled or n >= labelled[-1] * factor:
            labelled.append(n)
    if sizes and labelled[-1] != sizes[-1]:
        if len(labelled) > 1 and sizes[-1] < labelled[-1] * factor:
            labelled.pop()
        labelled.append(sizes[-1])
    return "set xtics (%s)" % ", ".join(
        ("'%s' %d" % (short_size(n), n)) if n in labelled else ("'' %d 1" % n) for n in sizes)


def plot_series(docs, kinds, want_dir):
    """Groups throughput records into lines:
    {label: (engine, alg, [(bytes, MB/s), ...], box, box_key)}; two logs of
    one box (the same identity) are two lines, named by their log. Cells
    of 0 or less (a failed operation) have no place on a logarithmic axis
    and are left out."""
    labels = box_labels(docs)
    raw = {}
    box_keys = {}
    for i, d in enumerate(docs):
        box = labels[i]
        for kind in kinds:
            for r in d["figures"].get(kind, []):
                if not isinstance(r.get("bytes"), int) or not isinstance(r.get("kbps"), (int, float)):
                    continue
                if want_dir != "any" and r.get("dir", want_dir) != want_dir:
                    continue
                if r["kbps"] <= 0:
                    continue
                key = (box, r.get("engine", "?"), r.get("alg", "?"),
                       r.get("dir", ""), r.get("variant", ""))
                raw.setdefault(key, {})[r["bytes"]] = r["kbps"] / 1000.0
                box_keys[box] = d["box_key"]
    # One line per engine and algorithm: the preferred variant when present.
    chosen = {}
    for key in sorted(raw):
        line = key[:4]
        if line not in chosen or key[4] == PREFERRED_VARIANT:
            chosen[line] = key
    series = {}
    for line, key in chosen.items():
        box, engine, alg, d, variant = key
        label = " ".join(x for x in (box, engine, alg) if x)
        if want_dir == "any" and d:
            label += " " + d
        if variant and variant != PREFERRED_VARIANT:
            label += " (%s)" % variant
        series[label] = (engine, alg, sorted(raw[key].items()), box, box_keys[box])
    return series


PLOT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
                "#e377c2", "#7f7f7f", "#bcbd22", "#000080", "#800000", "#008080", "#808000")
PLOT_POINTS = (7, 5, 9, 11, 13, 3, 1)    # filled circle, square, triangles, diamond, star, plus


def gnuplot_quote(s):
    return "'" + s.replace("'", "''") + "'"


BAND_ABOVE = 6      # more boxes than this: one band per algorithm instead of a line per box
BAND_ALGS = 8       # ... and with more algorithms than this, only DEFAULT_BAND_ALGS unless --alg
DEFAULT_BAND_ALGS = r"^(aes-128-|sha)"


def box_labels(docs):
    """The name of each document's box on its lines: "" for a single log,
    else the box, with its position in the arguments when two logs share a
    name (two runs of one box are two lines)."""
    names = [d["box"] for d in docs]
    if len(docs) == 1:
        return [""]
    return [n if names.count(n) == 1 else "%s#%d" % (n, i + 1) for i, n in enumerate(names)]


def legend_panel(entries):
    """The gnuplot commands of the multiplot's last panel: no axes, only
    the legend, one entry per (title, style); so no panel is squeezed by
    a legend of its own."""
    plots = ["NaN with %s title %s" % (style, gnuplot_quote(title)) for title, style in entries]
    return ["unset title", "unset xlabel", "unset ylabel", "unset border", "unset tics", "unset grid",
            "unset logscale", "set xrange [0:1]", "set yrange [0:1]",
            "set key center center vertical Left reverse font 'sans,10' samplen 3 spacing 1.2 maxrows %d"
            % max(1, (len(entries) + 1) // 2 if len(entries) > 14 else len(entries)),
            "plot " + ", ".join(plots)]


def cmd_plot(args):
    docs = []
    for path in args.logs:
        try:
            docs.append(load_log(path, args.boot, args.allow_emulated))
        except (OSError, ValueError) as e:
            print("qualreport: %s: %s" % (path, getattr(e, "strerror", None) or e), file=sys.stderr)
            return 2
    kinds = ("cipher", "hash") if args.record == "all" else (args.record,)
    series = plot_series(docs, kinds, args.dir)
    n_boxes = len({d["box_key"] for d in docs})
    alg_filter = args.alg
    if alg_filter is None and n_boxes > BAND_ABOVE and len({v[1] for v in series.values()}) > BAND_ALGS:
        alg_filter = DEFAULT_BAND_ALGS      # a band per algorithm: keep the panels readable
    if alg_filter:
        series = {k: v for k, v in series.items() if re.search(alg_filter, v[1])}
    if not series:
        print("qualreport: no @%s records with bytes and kbps in %s: nothing to plot"
              % ("/@".join(kinds), ", ".join(args.logs)), file=sys.stderr)
        return 1
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("qualreport: gnuplot not found (Debian package gnuplot-nox)", file=sys.stderr)
        return 2
    labels = box_labels(docs)
    emulated = {labels[i] for i, d in enumerate(docs) if d.get("emulated")}
    # Emulated boxes' lines grey (with many boxes: their median dashed)
    # beside real ones; a fleet of emulated boxes only is drawn as one.
    grey = emulated if len(emulated) < len(set(labels)) else set()
    unique = []
    for d in docs:
        if d["box"] not in unique:
            unique.append(d["box"])
    title = args.title or ("cryptoqual throughput: %s" % ", ".join(unique) if n_boxes <= BAND_ABOVE
                           else "cryptoqual throughput: %d boxes (min-max band, median line)%s" % (
                               n_boxes, "; algorithms /%s/ (--alg)" % alg_filter if alg_filter else ""))
    engines = sorted({v[0] for v in series.values()})
    algs = sorted({v[1] for v in series.values()})
    # One panel per engine and one for the legend, two to a row.
    cols = 2
    rows = (len(engines) + 1 + cols - 1) // cols
    width, height = 1400, max(640, 420 * rows + 60)
    legend = [(alg, "linespoints lw 2 pt 7 lc rgb '%s'" % PLOT_COLOURS[i % len(PLOT_COLOURS)])
              for i, alg in enumerate(algs)]
    with tempfile.TemporaryDirectory(prefix="qualreport.") as tmp:
        script = ["set terminal TERMINAL noenhanced size %d,%d font 'sans,10'" % (width, height),
                  "set output %s" % gnuplot_quote(args.output),
                  "set multiplot layout %d,%d title %s" % (rows, cols, gnuplot_quote(title)),
                  "set logscale x 2", "set logscale y 10", "set format x '%g'",
                  "set xlabel 'buffer size (bytes)'", "set ylabel 'MB/s (10^6 bytes/s)'",
                  "set grid xtics ytics mytics", "unset key"]
        drawn = 0
        kind_word = "line"
        all_boxes = sorted({v[3] for v in series.values()})
        if n_boxes <= BAND_ABOVE:
            # Colour says the algorithm, point shape and dash the box.
            for b_i, box in enumerate(all_boxes):
                legend.append((box + (" (emulated)" if box in emulated else ""),
                               "linespoints lw 2 lc rgb '%s' pt %d dt %d" % (
                                   "#999999" if box in grey else "#000000",
                                   PLOT_POINTS[b_i % len(PLOT_POINTS)], b_i % 5 + 1)))
        else:
            legend.append(("%s: min-max band, median line" % ("real boxes" if grey else "boxes"),
                           "filledcurves lc rgb '#cccccc'"))
            if grey:
                legend.append(("emulated boxes: median", "lines lw 1 dt 2 lc rgb '#000000'"))
        for e_i, engine in enumerate(engines):
            mine = {label: v for label, v in series.items() if v[0] == engine}
            sizes = sorted({x for v in mine.values() for x, _ in v[2]})
            plots = []
            if n_boxes <= BAND_ABOVE:
                # A line per box and algorithm: colour by algorithm, dash and
                # point shape by box, emulated boxes grey.
                for i, (label, (eng, alg, points, box, _)) in enumerate(sorted(mine.items())):
                    data = os.path.join(tmp, "e%d-%d.dat" % (e_i, i))
                    with open(data, "w") as f:
                        for x, y in points:
                            f.write("%d %.6f\n" % (x, y))
                    b = all_boxes.index(box)
                    colour = "#999999" if box in grey else PLOT_COLOURS[algs.index(alg) % len(PLOT_COLOURS)]
                    plots.append("%s using 1:2 with linespoints lw 2 lc rgb '%s' pt %d dt %d notitle"
                                 % (gnuplot_quote(data), colour, PLOT_POINTS[b % len(PLOT_POINTS)], b % 5 + 1))
                    drawn += 1
            else:
                # Too many boxes for a line each: per algorithm the real
                # boxes' min-max band and median, emulated boxes' median dashed.
                kind_word = "band"
                for a_i, alg in enumerate(sorted({v[1] for v in mine.values()})):
                    colour = PLOT_COLOURS[algs.index(alg) % len(PLOT_COLOURS)]
                    real, emu = {}, {}
                    for label, (eng, al, points, box, _) in mine.items():
                        if al == alg:
                            for x, y in points:
                                (emu if box in grey else real).setdefault(x, []).append(y)
                    data = os.path.join(tmp, "e%d-a%d.dat" % (e_i, a_i))
                    with open(data, "w") as f:
                        for x in sorted(set(real) | set(emu)):
                            r, m = real.get(x), emu.get(x)
                            f.write("%d %s %s %s %s\n" % (x, *(("%.6f" % v) if v is not None else "NaN" for v in (
                                min(r) if r else None, median(r) if r else None, max(r) if r else None,
                                median(m) if m else None))))
                    if real:
                        plots.append("%s using 1:2:4 with filledcurves lc rgb '%s' fs transparent solid 0.25 "
                                     "notitle" % (gnuplot_quote(data), colour))
                        plots.append("%s using 1:3 with linespoints lw 2 pt 7 ps 0.6 lc rgb '%s' notitle"
                                     % (gnuplot_quote(data), colour))
                        drawn += 1
                    if emu:
                        plots.append("%s using 1:5 with lines lw 1 dt 2 lc rgb '%s' notitle"
                                     % (gnuplot_quote(data), colour))
            n_here = len({v[4] for v in mine.values()})
            script += ["set title %s" % gnuplot_quote("%s (%d box%s)" % (engine, n_here, "" if n_here == 1 else "es")),
                       thinned_tics(sizes),
                       "set xrange [%g:%g]" % (sizes[0] / 1.5, sizes[-1] * 1.5),
                       "plot " + ", \\\n     ".join(plots)]
        script += legend_panel(legend)
        script += ["unset multiplot", ""]
        for term in ("pngcairo", "png"):
            path = os.path.join(tmp, "plot.gp")
            with open(path, "w") as f:
                f.write("\n".join(script).replace("TERMINAL", term, 1))
            r = subprocess.run([gnuplot, path], capture_output=True, text=True)
            if r.returncode == 0 and os.path.exists(args.output) and os.path.getsize(args.output) > 0:
                break
        else:
            print("qualreport: gnuplot failed:\n%s" % r.stderr, file=sys.stderr)
            return 2
    if n_boxes <= BAND_ABOVE:
        for label, (_, _, points, _, _) in sorted(series.items()):
            print("%s: %s" % (label, " ".join("%d:%.2f" % p for p in points)))
        # What each box is (docs/qualreport.md, "Boxes").
        for d in docs:
            i = d.get("box_info") or {}
            print("box %s: %s; BIOS %s; image %s; %s; log %s" % (
                d["box"], i.get("model") or d.get("model_name") or "model unknown", i.get("bios") or "unknown",
                i.get("version") or "unknown", i.get("date") or "date unknown", os.path.basename(d["log"])))
    print("qualreport: wrote %s (%d %s(s)) in %d panel(s), one per engine, and one legend" % (
        args.output, drawn, kind_word, len(engines)))
    return 0


def render_panels(panels, base_tp, tmp, gnuplot, width=330, height=230):
    """One small SVG per panel, all drawn by one gnuplot run: the real
    boxes' min-max band and median, emulated boxes' median dashed, the
    baseline and its lowest passing value; no legend (the page shows one
    for all panels), size labels thinned. A panel with nothing to draw is
    left out. Returns [(key, svg bytes)]."""
    script = ["set terminal svg size %d,%d font 'sans,9' background '#ffffff'" % (width, height),
              "set logscale x 2", "set logscale y 10", "set format x '%g'", "set grid xtics ytics",
              "unset key", "set xlabel 'bytes' offset 0,0.5",
              "set ylabel 'MB/s' offset 1.5,0", "set lmargin 8", "set bmargin 3"]
    outs = []
    for i, (key, cells) in enumerate(sorted(panels.items())):
        kind, engine, alg = key
        sizes = sorted(cells)
        data = os.path.join(tmp, "p%d.dat" % i)
        real = [n for n in sizes if cells[n][0]]
        emu = [n for n in sizes if cells[n][1]]
        bl = base_tp.get(key, {})
        with open(data, "w") as f:
            for n in sizes:
                r, e = cells[n]
                b = bl.get(n, (None, None))
                row = [n] + ([min(r), median(r), max(r)] if r else [float("nan")] * 3) + \
                    [median(e) if e else float("nan"), b[0] if b[0] else float("nan"),
                     b[1] if b[1] else float("nan")]
                f.write(" ".join("%g" % x if x == x else "NaN" for x in row) + "\n")
        out = os.path.join(tmp, "p%d.svg" % i)
        nreal = max((len(cells[n][0]) for n in sizes), default=0)
        nemu = max((len(cells[n][1]) for n in sizes), default=0)
        title = "%s %s (%d box%s%s)" % (engine, alg, nreal, "" if nreal == 1 else "es",
                                        ", %d emulated" % nemu if nemu else "")
        plots = []
        if real:
            plots.append("%s using 1:2:4 with filledcurves lc rgb '#9ecae1' fs transparent solid 0.6 "
                         "title 'min-max'" % gnuplot_quote(data))
            plots.append("%s using 1:3 with linespoints lw 2 pt 7 ps 0.5 lc rgb '#08519c' title 'median'"
                         % gnuplot_quote(data))
        if emu:
            plots.append("%s using 1:5 with linespoints lw 2 dt 2 pt 6 ps 0.6 lc rgb '#6a51a3' "
                         "title 'emulated'" % gnuplot_quote(data))
        if any(bl.get(n, (None, None))[0] for n in sizes):
            plots.append("%s using 1:6 with lines lw 1 dt 3 lc rgb '#000000' title 'baseline'" % gnuplot_quote(data))
        if any(bl.get(n, (None, None))[1] for n in sizes):
            plots.append("%s using 1:7 with lines lw 1 dt 4 lc rgb '#d62728' title 'limit'" % gnuplot_quote(data))
        if not plots:
            continue
        outs.append((key, out))
        script += ["set output %s" % gnuplot_quote(out), "set title %s noenhanced" % gnuplot_quote(title),
                   "set xrange [%g:%g]" % (sizes[0] / 1.5, sizes[-1] * 1.5), thinned_tics(sizes),
                   "plot " + ", ".join(plots), "unset output"]
    path = os.path.join(tmp, "panels.gp")
    with open(path, "w") as f:
        f.write("\n".join(script) + "\n")
    r = subprocess.run([gnuplot, path], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("gnuplot failed: %s" % r.stderr.strip()[:500])
    result = []
    for key, out in outs:
        with open(out, "rb") as f:
            result.append((key, f.read()))
    return result


