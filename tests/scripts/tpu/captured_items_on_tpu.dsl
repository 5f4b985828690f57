# A captured .item() on the tpu (Note [Captured items] in backends/graph/executor_base.h): an
# unbacked int whose check() facts bound the sizes it makes, so one program with static memory
# serves every value under the bound; without a bound the tpu says which size has none.
config.capture_scalar_outputs = true
@compile(backend = "tpu", fullgraph = true)
fn padding_mask(lengths: i32[B]) where B >= 1, B <= 8 {
  let longest = lengths.max().item()
  check(longest >= 0)
  check(longest <= 64)
  return (arange(0, longest) < lengths.unsqueeze(-1)).to(f32)
}
let m = padding_mask(tensor([2, 3]))
print(m.shape, m.tolist())  # expect: shape([<=8, <=64]) [[1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]
let m2 = padding_mask(tensor([5, 4, 40]))
print(m2.shape[1] == 40, m2.sum().item(), stats(padding_mask)["compiles"])  # expect: true 49.0 1
print(stats()["tpu"]["run_allocations"])  # expect: 0
@compile(backend = "tpu", fullgraph = true)
fn unbounded(n) { return zeros([n.item()]) }
unbounded(tensor(3))  # expect error: has no upper bound, and the tpu plans memory at its bounds (bound the data-dependent value: check(u0 <= N) once it is made)
