# The audit of hidden specializations: each construct that turns a traced size into
# a constant either stays symbolic or specializes with a guard at the user's line, logged
# under TESSEL_LOGS=dynamic ("eval ... [guard added] at f.dsl:L") and listed in
# stats(f)["guards"] (docs/compile.md, "Which sizes are symbols"). PyTorch specializes the same
# constructs (guard_int), except int() and round() of an int, which stay symbolic here.

# Symbolic: int(), round(), min/max/abs of sizes, float arithmetic on them.
@compile(dynamic = true)
fn symbolic(x) {
  let n = x.shape[0]
  return zeros([int(n) + round(n) + min(n, 100) + abs(n)]).sum() + x.sum() * (n / 2)
}
print(symbolic(ones([4])), symbolic(ones([9])))   # expect: tensor(8.) tensor(40.5000)
print(stats(symbolic)["compiles"], stats(symbolic)["guards"])   # expect: 1 ["x.shape[0] >= 2"]

# Specialized, each with its guard: range(n) (the loop is unrolled), a list of n items,
# indexing a list with a size, a float of a size in a branch.
@compile(dynamic = true)
fn loop(x) {
  let s = 0
  for i in range(x.shape[0]) { s = s + i }
  return x * s
}
loop(ones([3]))
print(stats(loop)["guards"])                      # expect: ["x.shape[0] == 3"]

@compile(dynamic = true)
fn listed(x) { return x * len([0] * x.shape[0]) }
listed(ones([5]))
print(stats(listed)["guards"])                    # expect: ["x.shape[0] == 5"]

let table = [10, 20, 30, 40, 50]
@compile(dynamic = true)
fn lookup(x) { return x * table[x.shape[0]] }
lookup(ones([2]))
print(stats(lookup)["guards"])                    # expect: ["x.shape[0] == 2", "global table is the same object"]

@compile(dynamic = true)
fn branch(x) {
  if 1.0 / x.shape[0] > 0.2 { return x * 2 }
  return x
}
branch(ones([4]))
print(stats(branch)["guards"])                    # expect: ["x.shape[0] == 4"]
