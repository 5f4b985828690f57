# plot figures printed as braille charts (Note [Braille charts]): lines, several series with a
# legend, points, a histogram, a log axis, heat maps and colour images.
import plot
let fig = plot.line([0, 1, 4, 9, 16], label = "x^2", title = "squares")
print(type(fig), isinstance(fig, "figure"))  # expect: figure true
print(plot.text(fig, width = 10, height = 3))
# expect:     squares
# expect: 16 ┤⠀⠀⠀⠀⠀⠀⠀⠀⡠⠊
# expect:    │⠀⠀⠀⠀⠀⢀⠤⠊⠀⠀
# expect:  0 ┤⣀⡠⠤⠔⠊⠁⠀⠀⠀⠀
# expect:    └──────────
# expect:     0        4
# expect:     series: x^2
# A second series on the same figure: fig = fig adds to it and returns it.
let same = plot.line(tensor([16, 9, 4, 1, 0]), label = "down", fig = fig)
print(same == fig)  # expect: true
print(plot.text(fig, width = 10, height = 3))
# expect:     squares
# expect: 16 ┤⠑⢄⠀⠀⠀⠀⠀⠀⡠⠊
# expect:    │⠀⠀⠑⠤⣀⢀⠤⠊⠀⠀
# expect:  0 ┤⣀⡠⠤⠔⠊⠑⠢⠤⢄⣀
# expect:    └──────────
# expect:     0        4
# expect:     series: x^2, down
print(plot.text(plot.scatter([1, 2, 3], [3, 1, 2]), width = 10, height = 2))
# expect: 3 ┤⠁⠀⠀⠀⠀⠀⠀⠀⠀⠀
# expect: 1 ┤⠀⠀⠀⠀⠀⡀⠀⠀⠀⠈
# expect:   └──────────
# expect:    1        3
# Bins over [min, max] as torch.histc: counts 3, 1 and 2.
print(plot.text(plot.hist([1, 1, 1, 2, 3, 3], bins = 3), width = 6, height = 2))
# expect: 3 ┤⣿⣿⠀⢠⣤⡄
# expect: 0 ┤⣿⣿⣶⣾⣿⡇
# expect:   └──────
# expect:    1    3
print(plot.text(plot.line([1, 10, 100, 1000], logy = true), width = 8, height = 2))
# expect: 1000 ┤⠀⠀⠀⠀⣀⠤⠒⠉
# expect:    1 ┤⣀⠤⠒⠉⠀⠀⠀⠀
# expect:      └────────
# expect:       0      3
# xs given; a NaN is a gap in the line, not an error.
print(plot.text(plot.line([1.0, math.nan, 3.0], xs = [10, 20, 30]), width = 6, height = 2))
# expect: 3 ┤⠀⠀⠀⠀⠀⠈
# expect: 1 ┤⡀⠀⠀⠀⠀⠀
# expect:   └──────
# expect:    10  30
# A heat map scales from min (blank) to max (full); RGB floats are in [0, 1].
print(plot.text(plot.image(tensor([[0.0, 1.0], [0.5, 0.25]])), width = 4))
# expect: 0 ┤  ██
# expect: 2 ┤▒▒░░
# expect:   └────
# expect:    0  2
print(plot.text(plot.image(ones([3, 2, 2])), width = 4))
# expect: 0 ┤████
# expect: 2 ┤████
# expect:   └────
# expect:    0  2
print(plot.figure(title = "empty"))  # expect: <figure: empty>
