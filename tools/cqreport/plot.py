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


def plot_series(docs, kinds, want_dir):
    """Groups throughput records into lines:
    {label: (engine, alg, [(bytes, MB/s), ...], box)}; two logs of one box
    (the same identity) are two lines, named by their log."""
    names = [d["box"] for d in docs]
    raw = {}
    for i, d in enumerate(docs):
        # Name the box on each line when there are several; logs with the
        # same file name get their position in the argument list.
        box = "" if len(docs) == 1 else names[i] if names.count(names[i]) == 1 else "%s#%d" % (names[i], i + 1)
        for kind in kinds:
            for r in d["figures"].get(kind, []):
                if not isinstance(r.get("bytes"), int) or not isinstance(r.get("kbps"), (int, float)):
                    continue
                if want_dir != "any" and r.get("dir", want_dir) != want_dir:
                    continue
                key = (box, r.get("engine", "?"), r.get("alg", "?"),
                       r.get("dir", ""), r.get("variant", ""))
                raw.setdefault(key, {})[r["bytes"]] = r["kbps"] / 1000.0
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
        series[label] = (engine, alg, sorted(raw[key].items()), box)
    return series


PLOT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
                "#e377c2", "#7f7f7f", "#bcbd22", "#000080", "#800000", "#008080", "#808000")
PLOT_POINTS = (7, 5, 9, 11, 13, 3, 1)    # filled circle, square, triangles, diamond, star, plus


def gnuplot_quote(s):
    return "'" + s.replace("'", "''") + "'"


BAND_ABOVE = 6      # more boxes than this: one band per algorithm instead of a line per box
BAND_ALGS = 8       # ... and with more algorithms than this, only DEFAULT_BAND_ALGS unless --alg
DEFAULT_BAND_ALGS = r"^(aes-128-|sha)"


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
    emulated = {d["box"] for d in docs if d.get("emulated")}
    title = args.title or ("cryptoqual throughput: %s" % ", ".join(d["box"] for d in docs) if n_boxes <= BAND_ABOVE
                           else "cryptoqual throughput: %d boxes (min-max band, median line)%s" % (
                               n_boxes, "; algorithms /%s/ (--alg)" % alg_filter if alg_filter else ""))
    engines = sorted({v[0] for v in series.values()})
    algs = sorted({v[1] for v in series.values()})
    cols = 1 if len(engines) == 1 else 2
    rows = (len(engines) + cols - 1) // cols
    width, height = 1024 if cols == 1 else 1400, max(640, 420 * rows + 60)
    with tempfile.TemporaryDirectory(prefix="qualreport.") as tmp:
        script = ["set terminal TERMINAL noenhanced size %d,%d font 'sans,10'" % (width, height),
                  "set output %s" % gnuplot_quote(args.output),
                  "set multiplot layout %d,%d title %s" % (rows, cols, gnuplot_quote(title)),
                  "set logscale x 2", "set logscale y 10", "set format x '%g'",
                  "set xlabel 'buffer size (bytes)'", "set ylabel 'MB/s (10^6 bytes/s)'",
                  "set grid xtics ytics mytics",
                  # The legend outside the plot, beside it: it never covers a line.
                  "set key outside right top vertical font 'sans,8' samplen 2 spacing 0.9"]
        drawn = 0
        kind_word = "line"
        for e_i, engine in enumerate(engines):
            mine = {label: v for label, v in series.items() if v[0] == engine}
            sizes = sorted({x for v in mine.values() for x, _ in v[2]})
            plots = []
            if n_boxes <= BAND_ABOVE:
                # A line per box and algorithm: colour by algorithm, dash and
                # point shape by box, emulated boxes grey.
                boxes = sorted({v[3] for v in mine.values()})
                for i, (label, (eng, alg, points, box)) in enumerate(sorted(mine.items())):
                    data = os.path.join(tmp, "e%d-%d.dat" % (e_i, i))
                    with open(data, "w") as f:
                        for x, y in points:
                            f.write("%d %.6f\n" % (x, y))
                    b = boxes.index(box)
                    colour = "#999999" if box in emulated else PLOT_COLOURS[algs.index(alg) % len(PLOT_COLOURS)]
                    key = " ".join(w for w in label.split(" ") if w != engine)    # the panel names the engine
                    if box in emulated:
                        key += " (emulated)"
                    plots.append("%s using 1:2 with linespoints lw 2 lc rgb '%s' pt %d dt %d title %s"
                                 % (gnuplot_quote(data), colour, PLOT_POINTS[b % len(PLOT_POINTS)], b % 5 + 1,
                                    gnuplot_quote(key)))
                    drawn += 1
            else:
                # Too many boxes for a line each: per algorithm the real
                # boxes' min-max band and median, emulated boxes' median dashed.
                kind_word = "band"
                for a_i, alg in enumerate(sorted({v[1] for v in mine.values()})):
                    colour = PLOT_COLOURS[algs.index(alg) % len(PLOT_COLOURS)]
                    real, emu = {}, {}
                    for label, (eng, al, points, box) in mine.items():
                        if al == alg:
                            for x, y in points:
                                (emu if box in emulated else real).setdefault(x, []).append(y)
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
                        plots.append("%s using 1:3 with linespoints lw 2 pt 7 ps 0.6 lc rgb '%s' title %s"
                                     % (gnuplot_quote(data), colour, gnuplot_quote(alg)))
                        drawn += 1
                    if emu:
                        plots.append("%s using 1:5 with lines lw 1 dt 2 lc rgb '%s' title %s"
                                     % (gnuplot_quote(data), colour, gnuplot_quote(alg + " (emulated)")))
            script += ["set title %s" % gnuplot_quote("%s (%d box%s)" % (
                           engine, len({v[3] for v in mine.values()}),
                           "" if len({v[3] for v in mine.values()}) == 1 else "es")),
                       "set xtics (%s)" % ", ".join("'%s' %d" % (short_size(x), x) for x in sizes),
                       "set xrange [%g:%g]" % (sizes[0] / 1.5, sizes[-1] * 1.5),
                       "plot " + ", \\\n     ".join(plots)]
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
        for label, (_, _, points, _) in sorted(series.items()):
            print("%s: %s" % (label, " ".join("%d:%.2f" % p for p in points)))
    print("qualreport: wrote %s (%d %s(s)) in %d panel(s), one per engine" % (args.output, drawn, kind_word,
                                                                             len(engines)))
    return 0



def render_panels(panels, base_tp, tmp, gnuplot, width=330, height=230):
    """One small SVG per panel, all drawn by one gnuplot run: the real
    boxes' min-max band and median, emulated boxes' median dashed, the
    baseline and its lowest passing value. Returns [(key, svg bytes)]."""
    script = ["set terminal svg size %d,%d font 'sans,9' background '#ffffff'" % (width, height),
              "set logscale x 2", "set logscale y 10", "set format x '%g'", "set grid xtics ytics",
              "set key bottom right font 'sans,8' samplen 2", "set xlabel 'bytes' offset 0,0.5",
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
        outs.append((key, out))
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
        if bl:
            plots.append("%s using 1:6 with lines lw 1 dt 3 lc rgb '#000000' title 'baseline'" % gnuplot_quote(data))
            if any(v[1] for v in bl.values()):
                plots.append("%s using 1:7 with lines lw 1 dt 4 lc rgb '#d62728' title 'limit'" % gnuplot_quote(data))
        script += ["set output %s" % gnuplot_quote(out), "set title %s noenhanced" % gnuplot_quote(title),
                   "set xrange [%g:%g]" % (sizes[0] / 1.5, sizes[-1] * 1.5),
                   "set xtics (%s)" % ", ".join("'%s' %d" % (short_size(n), n) for n in sizes),
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


