# Anonymous fn expressions are values.
let double = fn (x) { return x * 2 }
print(double(4), type(double), double)   # expect: 8 function <fn <lambda>>
print((fn (a, b = 3) { return a * b })(2))   # expect: 6
print(sorted(["ccc", "a", "bb"], key = fn (s) { return len(s) }))   # expect: ["a", "bb", "ccc"]
let ops = {"add": fn (a, b) { return a + b }, "mul": fn (a, b) { return a * b }}
print(ops["add"](2, 3), ops["mul"](2, 3))   # expect: 5 6
let compose = fn (f, g) { return fn (x) { return f(g(x)) } }
print(compose(double, fn (x) { return x + 1 })(5))   # expect: 12
let multiline = fn (x) {
  let y = x + 1
  return y * y
}
print(multiline(2))                      # expect: 9
print(max([3, -7, 5], key = fn (v) { return v * v }))   # expect: -7
let noArgs = fn () { return "hi" }
print(noArgs())                          # expect: hi
