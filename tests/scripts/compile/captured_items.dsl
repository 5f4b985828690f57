# A captured .item() of an int tensor is an unbacked scalar (PyTorch's unbacked SymInt under
# capture_scalar_outputs), not a 0-d tensor: it sizes values, feeds check() under fullgraph and
# shape arithmetic exactly as without capture, with no graph break
# (Note [Captured items] in backends/graph/executor_base.h).
config.capture_scalar_outputs = true

# test/dynamo/test_misc.py, test_unbacked_arange_in_bounds: a padding mask from the longest length.
@compile(fullgraph = true)
fn padding_mask(lengths) {
  let longest = lengths.max().item()
  let row = arange(0, longest)
  return (row < lengths.unsqueeze(-1)).to(f32)
}
print(padding_mask(tensor([5, 4, 4, 4])).shape)  # expect: shape([4, 5])
print(padding_mask(tensor([2, 3])).tolist())  # expect: [[1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]
# Two compiles: the first call specializes the batch of 4, the second makes it dynamic (automatic
# dynamic); the number itself never recompiles.
print(stats(padding_mask)["compiles"], stats(padding_mask)["graph_breaks"])  # expect: 2 0
print(padding_mask(tensor([1, 7, 2])).sum().item(), stats(padding_mask)["compiles"])  # expect: 10.0 2

# The motivating example: a size from arithmetic on the number.
@compile(fullgraph = true)
fn half(n) {
  let k = n.item()
  return zeros([(k - 1) // 2])
}
print(half(tensor(9)).shape, half(tensor(4)).shape, half(tensor(1)).shape)  # expect: shape([4]) shape([1]) shape([0])
print(stats(half)["compiles"])  # expect: 1

# The number in shape arithmetic: a view whose size it gives, and a returned int.
@compile(fullgraph = true)
fn take(x, n) {
  let k = n.item()
  check(k >= 0)
  check(k <= x.shape[0])
  return [x[:k].sum(), k * 2]
}
print(take(arange(0, 10).to(f32), tensor(4)))  # expect: [tensor(6.), 8]
print(take(arange(0, 10).to(f32), tensor(10)))  # expect: [tensor(45.), 20]
print(stats(take)["compiles"])  # expect: 1

# A float item stays a number the graph computes (a 0-d value inside), as before.
@compile(fullgraph = true)
fn mean_of(x) { return x.mean().item() * 2 }
print(mean_of(tensor([1.0, 2.0])))  # expect: 3.0

# test_misc.py, test_sym_and_terms: check() facts decide later branches on the number, and a
# value that breaks the check fails at run time. (`and` of two conditions needs the first's
# value, as Python's does; sym_and's terms are separate checks here.)
@compile(fullgraph = true)
fn terms(xs) {
  let u0 = xs[0].item()
  let u1 = xs[1].item()
  check(u0 >= 3)
  check(u0 <= 10)
  check(u1 >= 2)
  let n = 0
  if u0 >= 3 { n = n + 1 }
  if u0 <= 11 { n = n + 1 }
  if u1 >= 1 { n = n + 1 }
  return u0 + u1 + n
}
print(terms(tensor([5, 6])), terms(tensor([8, 7])))  # expect: 14 18
print(stats(terms)["compiles"])  # expect: 1
terms(tensor([9, 0]))  # expect error: AssertionError: runtime assert failed: u1 >= 2 (u1 = 0)
