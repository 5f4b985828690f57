# one_hot on the tpu: with num_classes the width is static; with -1 it is max(x) + 1, data-
# dependent, and a compiled program needs a bound for its static memory: a check() fact on the
# result's last size. One program serves every length and width under the bounds.
@compile(backend = "tpu")
fn enc(x: i32[N]) where N >= 2, N <= 64 {
  let y = one_hot(x)
  check(y.shape[-1] <= 16)
  return (y.to(f32).sum(dim = 0), one_hot(x, 6))
}
let (counts, fixed) = enc(tensor([2, 0, 2]))
print(counts.tolist(), fixed.shape[1], fixed.sum(dim = 0).tolist())  # expect: [1.0, 0.0, 2.0] 6 [1, 0, 2, 0, 0, 0]
let (c2, f2) = enc(tensor([4, 1, 1, 0, 5]))
print(c2.tolist(), f2.device, stats(enc)["compiles"])  # expect: [1.0, 2.0, 0.0, 0.0, 1.0, 1.0] tpu 1
print(enc(tensor([1, 7])))  # expect error: ValueError: one_hot(): class values must be smaller than num_classes = 6
