# Jagged ops on the tpu: segment_reduce keeps symbolic sizes; repeat_interleave is bounded by
# output_size, or by a check() fact on its result (the solver's maximum of sum(repeats));
# bincount by a check() fact. One program serves every size under the bounds, with static
# memory (no allocation while it runs).
@compile(backend = "tpu")
fn center(values: f32[N, 3], lengths: i32[S]) where N >= 2, N <= 64, S >= 2, S <= 16 {
  let m = segment_reduce(values, "mean", lengths = lengths, initial = 0.0)
  return values - repeat_interleave(m, lengths, dim = 0, output_size = values.shape[0])
}
print(center(arange(15.0).reshape([5, 3]), tensor([2, 0, 3])).tolist()[0])  # expect: [-1.5, -1.5, -1.5]
let c = center(ones([40, 3]), tensor([10, 30]))
print(c.device, c.abs().sum().item(), stats(center)["compiles"])  # expect: tpu 0.0 1
@compile(backend = "tpu")
fn expand(x: f32[N], r: i32[N]) where N >= 2, N <= 64 {
  let y = repeat_interleave(x, r)
  check(y.shape[0] <= 256)
  let b = bincount(r, minlength = 4)
  check(b.shape[0] <= 64)
  return (y * 2.0, b)
}
let (y, b) = expand(arange(3.0), tensor([1, 0, 2]))
print(y.tolist(), y.shape, b.tolist())  # expect: [0.0, 4.0, 4.0] shape([<=256]) [1, 1, 1, 0]
let (y2, b2) = expand(arange(5.0), tensor([3, 3, 0, 1, 2]))
print(y2.shape[0] == 9, b2.tolist(), stats(expand)["compiles"])  # expect: true [1, 1, 1, 2] 1
print(stats()["tpu"]["run_allocations"])  # expect: 0
