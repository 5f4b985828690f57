"""PNG from plot.save (interp/plot/png.cpp): with librsvg in the build, `tessel` saves a line
chart and a heat map as .png, and this test checks the PNG signature, the 640x400 size of the
IHDR chunk, and (with PIL, where /usr/bin/python3 has it) that the pixels are not one colour
and show the series' colour; a missing folder is an IOError naming it. Built without librsvg,
a .png path must be the ValueError that names the library.

usage: png_test.py path/to/tessel HAVE_RSVG(0|1)
"""
import os
import struct
import subprocess
import sys
import tempfile

TESSEL, HAVE_RSVG = sys.argv[1], sys.argv[2] == "1"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checklist import check, finish  # noqa: E402


def run(script, tmp):
    path = os.path.join(tmp, "s.dsl")
    with open(path, "w") as f:
        f.write(script.replace("{dir}", tmp))
    return subprocess.run([TESSEL, path], capture_output=True, text=True,
                          env=dict(os.environ, TESSEL_PGO="0"))


def check_png(path, name):
    with open(path, "rb") as f:
        data = f.read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{name} starts with the PNG signature")
    check(data[12:16] == b"IHDR", f"{name}'s first chunk is IHDR")
    width, height = struct.unpack(">II", data[16:24])
    check((width, height) == (640, 400), f"{name} is 640x400 ({width}x{height})")
    try:
        from PIL import Image
    except ImportError:
        print(f"skipped: no PIL for /usr/bin/python3: {name}'s pixels are not read back")
        return None
    image = Image.open(path).convert("RGB")
    colours = set(image.getdata())
    check(len(colours) > 5, f"{name} is not one colour ({len(colours)} colours)")
    return colours


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if not HAVE_RSVG:
            r = run('import plot\nplot.save(plot.line([1, 2]), "{dir}/a.png")\n', tmp)
            check(r.returncode != 0 and "needs librsvg (Debian: librsvg2-dev)" in r.stderr,
                  "without librsvg a .png path is an error naming it: " + r.stderr[-500:])
            return finish("png")
        r = run("""import plot
let f = plot.line([3.0, 2.0, 1.5, 1.2], label = "train", title = "loss")
plot.save(f, "{dir}/line.png")
plot.save(plot.image(arange(0, 12).reshape([3, 4])), "{dir}/HEAT.PNG")
try { plot.save(f, "{dir}/missing/x.png") } except IOError as e { print("IOError: " + e.message) }
""", tmp)
        check(r.returncode == 0, "the script saves its PNGs: " + r.stderr[-2000:])
        check("IOError" in r.stdout and "missing/x.png" in r.stdout
              and "No such file or directory" in r.stdout,
              f"a missing folder is an IOError naming the path ({r.stdout.strip()})")
        colours = check_png(os.path.join(tmp, "line.png"), "line.png")
        if colours is not None:
            near = any(sum(abs(a - b) for a, b in zip(p, (0x1f, 0x77, 0xb4))) < 30
                       for p in colours)
            check(near and (255, 255, 255) in colours,
                  "the line is drawn in the first series colour on white")
        check_png(os.path.join(tmp, "HEAT.PNG"), "HEAT.PNG (the extension in any case)")
    return finish("png")



if __name__ == "__main__":
    sys.exit(main())
