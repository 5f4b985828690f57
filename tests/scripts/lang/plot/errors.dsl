# Bad input to plot is a clear error at the call, and a failed call leaves its figure as it was.
import plot
fn message(f) {
  try { f() } except ValueError as e { return "ValueError: " + e.message }
  except TypeError as e { return "TypeError: " + e.message }
  except ShapeError as e { return "ShapeError: " + e.message }
}
print(message(fn () { plot.line(zeros([2, 3, 4])) }))
# expect: ShapeError: plot.line(): ys must be 1-D (a list, or a tensor of shape [n]), not a tensor of shape [2, 3, 4]
print(message(fn () { plot.line([]) }))  # expect: ValueError: plot.line(): ys is empty
print(message(fn () { plot.line([1, 2, 3], xs = [1, 2]) }))
# expect: ValueError: plot.line(): xs has 2 values but ys has 3
print(message(fn () { plot.scatter([1, 2], [1]) }))
# expect: ValueError: plot.scatter(): xs has 2 values but ys has 1
print(message(fn () { plot.line([1, "a"]) }))
# expect: TypeError: plot.line(): ys[1] must be a number, not str
print(message(fn () { plot.line("abc") }))
# expect: TypeError: plot.line(): ys must be a list of numbers or a tensor, not str
print(message(fn () { plot.line([-1, 0], logy = true) }))
# expect: ValueError: plot.line(): no point to show (every value is NaN or infinite, or not positive on a log axis)
print(message(fn () { plot.hist([math.nan, math.inf]) }))
# expect: ValueError: plot.hist(): t has no finite value
print(message(fn () { plot.hist([1, 2], bins = 0) }))
# expect: ValueError: plot.hist(): bins must be in [1, 100000], not 0
print(message(fn () { plot.image(zeros([2, 3, 4])) }))
# expect: ShapeError: plot.image(): t must be [H, W] (a heat map) or [3, H, W] (RGB), not [2, 3, 4]
print(message(fn () { plot.image([[1, 2]]) }))
# expect: TypeError: plot.image(): t must be a tensor, not list
let fig = plot.line([1, 2], title = "kept")
print(message(fn () { plot.line([0, -1], logy = true, title = "lost", fig = fig) }))
# expect: ValueError: plot.line(): no point to show (every value is NaN or infinite, or not positive on a log axis)
print(message(fn () { plot.image(zeros([2, 2]), fig = fig) }))
# expect: ValueError: plot.image(): an image is a figure of its own; it cannot share one with other series
print(message(fn () { plot.line([1, 2], fig = [1]) }))
# expect: TypeError: plot.line(): fig must be a figure, not list
print(plot.text(fig, width = 4, height = 2))
# expect:    kept
# expect: 2 ┤⠀⠀⡠⠊
# expect: 1 ┤⡠⠊⠀⠀
# expect:   └────
# expect:    0  1
print(message(fn () { plot.svg(plot.figure()) }))
# expect: ValueError: plot.svg(): fig has nothing to draw yet (plot.line(ys, fig = f) adds a series)
print(message(fn () { plot.save(fig, "out.pdf") }))
# expect: ValueError: plot.save(): cannot tell the format of 'out.pdf' (.svg or .png)
plot.line(ones([1, 5]))   # expect error: ShapeError: plot.line(): ys must be 1-D (a list, or a tensor of shape [n]), not a tensor of shape [1, 5]
