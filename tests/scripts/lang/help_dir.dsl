# help() and dir() (language.md, "Built-ins"): the docs of built-ins, methods, modules and
# functions written in Tessel (the comment above the fn), and the names a value has.
help(len)
# expect: len(value)
# expect:     The number of items of a string (in characters), list, tuple, dict or range, or the size
# expect:     of a tensor's first dim (a shape's rank).
help("str.zfill")
# expect: str.zfill(width)
# expect:     The string padded on the left with zeros to `width` characters, after a sign if any.
help("  x  ".strip)
# expect: str.strip(chars = none)
# expect:     The string without leading and trailing whitespace (or characters of `chars`).
help(math.floor)
# expect: math.floor(x)
# expect:     The largest int not above `x` (an int).

# Squares a number.
# Works on tensors too.
@compile
fn square(x) { return x * x }
help(square)
# expect: square(x)
# expect:     Squares a number.
# expect:     Works on tensors too.

fn bare(a, b = 2) { return a }
help(bare)
# expect: bare(a, b = 2)
# expect:     (no documentation)
import vision
help(vision.box_area)
# expect: vision.box_area(boxes)
# expect:     Areas of [n, 4] boxes in (x1, y1, x2, y2) format.
print(dir("")[:5])             # expect: ["count", "endswith", "find", "format", "isalpha"]
print(dir([]))                 # expect: ["append", "copy", "count", "extend", "index", "insert", "pop", "reverse", "sort"]
print(dir({}))                 # expect: ["get", "items", "keys", "values"]
print(dir(math)[-4:])          # expect: ["pi", "sin", "sqrt", "tanh"]
print(dir(ones([2]).shape))    # expect: ["rank"]
print("T" in dir(ones([2])), "matmul" in dir(ones([2])), "append" in dir(ones([2])))   # expect: true true false
print(dir(ValueError("x")))    # expect: ["col", "file", "kind", "line", "message"]
print(dir(3), "help" in dir(), "dir" in dir())   # expect: [] true true
help("str.strp")   # expect error: NameError: help: no documentation for 'str.strp' (did you mean 'str.strip'?)
