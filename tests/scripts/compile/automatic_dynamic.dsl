# compiler.md policy 6: sizes 10, 20, 30, 40 give 2 compiles; the second is dynamic.
@compile
fn f(x) { return x * x.shape[0] }
for n in [10, 20, 30, 40] { f(rand([n])) }
print(stats(f)["compiles"], stats(f)["cache_hits"])  # expect: 2 2
print(stats(f)["guards"])                            # expect: ["x.shape[0] >= 2"]

# Bools stay specialized; a size that varies becomes dynamic: 3 compiles. The reason is the
# newest entry's first failing guard.
@compile
fn g(b, y) {
  if b { return y * 2 }
  return y * y
}
g(true, ones([2])); g(false, ones([2])); g(true, ones([3])); g(true, ones([4]))
print(stats(g)["compiles"])                          # expect: 3
print(stats(g)["reasons"])                           # expect: ["b: expected true, got false", "b: expected false, got true"]
