# Division of a data-dependent size by itself, as PyTorch simplifies it
# (pytorch/pytorch test/test_dynamic_shapes.py, the floordiv simplifications of unbacked
# symbols): once the size is known to be at least 1, u0 // u0 is 1, 2 * u0 // u0 is 2 and
# u0 % u0 is 0, so branches on them are decided without a data-dependent error, under
# fullgraph too. Without the fact, u0 could be 0, where Tessel's total division gives 0.
@compile(fullgraph = true)
fn f(x) {
  let n = nonzero(x).shape[0]
  check(n >= 1)
  let a = 10 if n // n == 1 else -10
  let b = 20 if (2 * n) // n == 2 else -20
  let c = 30 if (3 * n) % n == 0 else -30
  return x.sum() + a + b + c
}
print(f(tensor([1.0, 0.0, 2.0])))   # expect: tensor(63.)
print(f(tensor([0.0, 0.0, 5.0, 1.0, 1.0])))   # expect: tensor(67.)
print(stats(f)["compiles"], stats(f)["graph_breaks"])   # expect: 2 0

@compile(fullgraph = true)
fn g(x) {
  let n = nonzero(x).shape[0]
  if n // n == 1 { return x + 1.0 }  # expect error: DataDependentError
  return x
}
g(tensor([1.0]))
