# Writes along a dim keep symbolic sizes on the tpu: one program serves every size under the
# bound, with static memory (no allocation while it runs).
@compile(backend = "tpu")
fn pool(x: f32[N, 4], seg: i32[N]) where N >= 2, N <= 64 {
  let sums = index_add(zeros([3, 4]), 0, seg, x)
  return (sums, scatter_reduce(zeros([3, 4]), 0, seg.unsqueeze(1).expand([N, 4]), x, "amax", include_self = false))
}
let (s, m) = pool(ones([5, 4]), tensor([0, 2, 2, 0, 1]))
print(s.tolist())  # expect: [[2.0, 2.0, 2.0, 2.0], [1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0]]
print(m.tolist()[1], s.device)  # expect: [1.0, 1.0, 1.0, 1.0] tpu
let (s2, m2) = pool(ones([40, 4]) * 2.0, zeros([40], dtype = i32))
print(s2.tolist()[0], stats(pool)["compiles"], stats()["tpu"]["run_allocations"])  # expect: [80.0, 80.0, 80.0, 80.0] 1 0
