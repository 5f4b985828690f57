"""The SVG of plot figures (interp/plot/svg.cpp): `tessel` saves figures with plot.save, this
test parses each as XML and counts its elements (polyline points, histogram bars, image
pixels, legend entries), then opens them in headless Chromium and checks the screenshot shows
the series' colours on a white page. The rendering is skipped, saying so, without Chromium.

usage: svg_test.py path/to/tessel
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TESSEL = sys.argv[1]
NS = "{http://www.w3.org/2000/svg}"

SCRIPT = """
import plot
let f = plot.line([3.0, 2.0, 1.5, 1.2, 1.1, 1.05], label = "train", title = "loss <&>",
                  xlabel = "step", ylabel = "loss")
plot.line([3.2, 2.4, math.nan, 1.6, 1.5, 1.5], label = "val", fig = f)
plot.save(f, "{dir}/lines.svg")
plot.save(plot.hist(arange(0, 100), bins = 7), "{dir}/hist.svg")
plot.save(plot.scatter([1, 2, 3, 4], [1, 4, 9, 16], logy = true), "{dir}/scatter.svg")
plot.save(plot.image(arange(0, 12).reshape([3, 4])), "{dir}/heat.svg")
plot.save(plot.image(ones([3, 300, 200])), "{dir}/big.svg")
"""

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checklist import check, finish  # noqa: E402


def points(polyline):
    return [tuple(map(float, p.split(","))) for p in polyline.get("points").split()]


def by_class(root, tag, cls):
    return [e for e in root.iter(NS + tag) if cls in (e.get("class") or "").split()]


def render(svgs, tmp):
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                     if shutil.which(n)), None)
    if not chromium:
        print("skipped: chromium is not installed: the SVGs were parsed, not rendered")
        return
    try:
        from PIL import Image
    except ImportError:
        Image = None
    for name in svgs:
        png = os.path.join(tmp, name + ".png")
        subprocess.run(["timeout", "120", chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--user-data-dir=" + os.path.join(tmp, "profile"), "--hide-scrollbars",
                        "--window-size=640,400", "--screenshot=" + png,
                        "file://" + os.path.join(tmp, name + ".svg")],
                       capture_output=True, env=dict(os.environ, HOME=tmp))
        if not os.path.exists(png):
            check(False, f"chromium wrote a screenshot of {name}.svg")
            continue
        if Image is None:
            check(os.path.getsize(png) > 3000, f"{name}.svg renders to more than a blank page")
            continue
        pixels = Image.open(png).convert("RGB").getdata()
        colours = set(pixels)
        white = sum(1 for p in pixels if p == (255, 255, 255))
        check(len(colours) > 5 and white < len(pixels), f"{name}.svg renders (not blank: "
              f"{len(colours)} colours, {len(pixels) - white} non-white pixels)")
        if name == "lines":
            # The two series in matplotlib's first two colours (anti-aliased: near them).
            def near(c):
                return any(sum(abs(a - b) for a, b in zip(p, c)) < 30 for p in colours)
            check(near((0x1f, 0x77, 0xb4)) and near((0xff, 0x7f, 0x0e)),
                  "the lines are drawn in the series' colours")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "plots.dsl")
        with open(script, "w") as f:
            f.write(SCRIPT.replace("{dir}", tmp))
        run = subprocess.run([TESSEL, script], capture_output=True, text=True,
                             env=dict(os.environ, TESSEL_PGO="0"))
        check(run.returncode == 0, "the script saves its figures: " + run.stderr[-2000:])
        names = ["lines", "hist", "scatter", "heat", "big"]
        roots = {}
        for n in names:
            try:
                roots[n] = ET.parse(os.path.join(tmp, n + ".svg")).getroot()
            except (ET.ParseError, OSError) as e:
                check(False, f"{n}.svg is well-formed XML ({e})")
        if len(roots) != len(names):
            return finish("svg")
        r = roots["lines"]
        check(r.tag == NS + "svg" and r.get("width") == "640", "the root is a 640-wide <svg>")
        lines = by_class(r, "polyline", "line")
        # The NaN splits "val" in two: 6 points of train, then 2 and 3 of val.
        check([len(points(p)) for p in lines] == [6, 2, 3], "one polyline per unbroken run, "
              f"with a point per value ({[len(points(p)) for p in lines]})")
        xs = [x for x, _ in points(lines[0])]
        check(xs == sorted(xs) and len(set(xs)) == 6, "the points go left to right")
        ys = [y for _, y in points(lines[0])]
        check(ys == sorted(ys), "a falling loss goes down the page (y grows downward)")
        legend = [t.text for g in by_class(r, "g", "legend") for t in g.iter(NS + "text")]
        check(legend == ["train", "val"], f"the legend names the series ({legend})")
        titles = [t.text for t in by_class(r, "text", "title")]
        check(titles == ["loss <&>"], "the title is escaped and kept")
        check([t.text for t in by_class(r, "text", "xlabel")] == ["step"], "the x label")
        bars = by_class(roots["hist"], "rect", "bar")
        check(len(bars) == 7, f"a bar per bin ({len(bars)})")
        heights = [float(b.get("height")) for b in bars]
        check(all(h > 0 for h in heights), "every bin of 0..99 has values")
        dots = list(by_class(roots["scatter"], "g", "scatter")[0].iter(NS + "circle"))
        check(len(dots) == 4, f"a circle per point ({len(dots)})")
        cys = [float(c.get("cy")) for c in dots]
        gaps = [cys[i] - cys[i + 1] for i in range(3)]
        check(gaps[0] > gaps[1] > gaps[2] > 0, "on a log axis squares rise by less each step")
        ticks = [t.text for t in by_class(roots["scatter"], "text", "tick-label")]
        check("10" in ticks, f"a log axis is labelled at powers of ten ({ticks})")
        pixels = by_class(roots["heat"], "rect", "pixel")
        check(len(pixels) == 12, f"a rect per pixel of a small image ({len(pixels)})")
        check(len({p.get("fill") for p in pixels}) == 12, "a heat map shades each value apart")
        big = by_class(roots["big"], "rect", "pixel")
        check(0 < len(big) <= 128 * 128, f"a large image is drawn in blocks ({len(big)} rects)")
        check({p.get("fill") for p in big} == {"#ffffff"}, "RGB ones are white")
        render(names, tmp)
    return finish("svg")



if __name__ == "__main__":
    sys.exit(main())
