# f-strings, format() and str.format (language.md, "Strings"): Python's format-spec
# mini-language.
let loss = 0.123456
let step = 42
let name = "mlp"
print(f"{loss:.4f} {step:>5d} {name!r}")        # expect: 0.1235    42 "mlp"
print(f"step={step} {{braces}} {step * 2}")     # expect: step=42 {braces} 84
print(f"{step * 2:08.3f}|{-3:+d}|{1234567:,}|{0.25:.1%}")   # expect: 0084.000|-3|1,234,567|25.0%
print(f"{name:^9}|{name:*<6}|{255:#x}|{255:b}|{3.14159:e}")  # expect:    mlp   |mlp***|0xff|11111111|3.141590e+00
print(f"{2.0}|{1e20}|{true}|{none}|{step!s:>4}|{1234.5:_.1f}")  # expect: 2.0|1e+20|true|none|  42|1_234.5
print(f"{-0.5:=+8.2f}|{7:^5}|{'é':~>3}|{'abcdef':.3}")   # expect: -   0.50|  7  |~~é|abc
# Fields are Tessel expressions: calls, subscripts, comprehensions, ternaries.
let d = {"k": [1, 2]}
print(f"{d['k'][1]} {len(d)} {[x * x for x in range(3)]} {'a' if step > 1 else 'b'}")  # expect: 2 1 [0, 1, 4] a
# A one-element tensor formats as its item when there is a spec; without one it prints.
print(f"{ones([1]).sum():.2f} {ones([2])}")     # expect: 1.00 tensor([1., 1.])
print(format(3.5, ".2f"), format(12, "04d"), repr("q"), repr([1]))   # expect: 3.50 0012 "q" [1]
print("{} and {name}; {{x}}".format(1, name = "n"))   # expect: 1 and n; {x}
print("{1}-{0}|{0!r:>5}".format("a", "b"))      # expect: b-a|  "a"
print("{0:.2f}".format(2))                       # expect: 2.00
print(f"{loss:d}")                               # expect error: ValueError: unknown format code 'd' for float
