#!/usr/bin/env python3
"""A notebook executed on tessel-kernel by `jupyter nbconvert --execute` (Debian
python3-nbconvert), its HTML checked for the cells' outputs and opened in headless Chromium
(the screenshot must hold more than a blank page's). Exits 77 (skipped), saying why, where
nbconvert or Chromium is missing.

usage: notebook_test.py path/to/tessel-kernel [screenshot.png]
(with a second argument, the page's screenshot is kept there: docs/images/notebook.png)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

KERNEL = os.path.realpath(sys.argv[1])

try:
    import nbconvert  # noqa: F401
    import nbclient  # noqa: F401
except ImportError:
    print("skipped: nbconvert is not installed (Debian: python3-nbconvert)")
    sys.exit(77)
CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)
if not CHROMIUM:
    print("skipped: chromium is not installed: the notebook's page was not opened")
    sys.exit(77)

CELLS = [
    "let x = arange(6).reshape([2, 3])\nx",
    'print("sum is", x.sum().item())',
    "display(x * 10)\nx.shape",
    "let y = x + ones([4])",  # a ShapeError: the notebook goes on (--allow-errors)
    'print("after the error", x[1, 2].item())',
    # A figure shows as SVG (the plot module's rich form); one that fails to draw is an error
    # and the next cell runs.
    'import plot\nlet fig = plot.line([2.3, 1.6, 1.2, 0.95, 0.8, 0.72, 0.68, 0.66], label = "train",'
    ' title = "training loss", xlabel = "epoch")\nplot.line([2.4, 1.8, 1.5, 1.35, 1.3, 1.28, 1.3,'
    ' 1.33], label = "val", fig = fig)',
    "plot.line(zeros([2, 3, 4]))",
    'print("still here")',
]


def notebook():
    cells = [{"cell_type": "code", "execution_count": None, "id": f"cell-{i}", "metadata": {},
              "outputs": [], "source": c} for i, c in enumerate(CELLS)]
    return {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "tessel", "display_name": "Tessel",
                                        "language": "tessel"},
                         "language_info": {"name": "tessel"}}}


def main():
    failures = []

    def check(condition, what):
        print(("ok   " if condition else "FAIL ") + what, flush=True)
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, JUPYTER_DATA_DIR=os.path.join(tmp, "data"),
                   JUPYTER_RUNTIME_DIR=os.path.join(tmp, "runtime"), HOME=tmp)
        subprocess.run([KERNEL, "install", "--user"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        path = os.path.join(tmp, "tour.ipynb")
        with open(path, "w") as f:
            json.dump(notebook(), f)
        run = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "html", "--execute",
                              "--allow-errors", "--ExecutePreprocessor.timeout=120", path],
                             env=env, capture_output=True, text=True, timeout=300)
        check(run.returncode == 0, "nbconvert --execute succeeds: " + run.stderr[-2000:])
        page = os.path.join(tmp, "tour.html")
        html = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
        check("<table class=\"tessel-tensor\"" in html and "shape [2, 3]" in html,
              "the tensor result is a table with its shape")
        check("sum is 15" in html, "print output is in the page")
        check("<td>50</td>" in html, "display(x * 10) shows its table")
        check("ShapeError" in html and "not broadcastable" in html, "the error is shown")
        check("after the error 5" in html, "cells after an error run")
        check("data:image/svg+xml;base64,PHN2Zy" in html, "a figure shows as SVG")
        check("plot.line(): ys must be 1-D" in html and "still here" in html,
              "a figure that cannot be drawn is an error, and the notebook goes on")

        blank = os.path.join(tmp, "blank.html")
        with open(blank, "w") as f:
            f.write("<!DOCTYPE html><html><body></body></html>")
        shots = {}
        for name, target in (("page", page), ("blank", blank)):
            png = os.path.join(tmp, name + ".png")
            subprocess.run(["timeout", "120", CHROMIUM, "--headless", "--no-sandbox",
                            "--disable-gpu", "--user-data-dir=" + os.path.join(tmp, "profile"),
                            "--hide-scrollbars", "--window-size=1000,1300",
                            "--screenshot=" + png, "file://" + target],
                           capture_output=True, env=env)
            shots[name] = os.path.getsize(png) if os.path.exists(png) else 0
            if name == "page" and len(sys.argv) > 2 and shots[name]:
                shutil.copy(png, sys.argv[2])
        check(shots["page"] > 0 and shots["page"] > 3 * shots["blank"],
              f"the page's screenshot is not blank ({shots['page']} vs {shots['blank']} bytes)")
    if failures:
        print(f"{len(failures)} failed: " + "; ".join(failures))
        return 1
    print("notebook checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
