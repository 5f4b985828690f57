# cumsum, cumprod and diff keep symbolic sizes: one graph serves every length (no
# recompile), also through their gradients and on the tpu (bounds come from the input's).
@compile(dynamic = true)
fn running_mean(x) {
  let n = x.shape[0]
  return (cumsum(x, 0) / (arange(n) + 1).unsqueeze(1), diff(cumprod(x, 1), dim = 1))
}
let (m, d) = running_mean(tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
print(m.tolist(), d.tolist())  # expect: [[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]] [[1.0], [9.0], [25.0]]
print(running_mean(ones([7, 2]))[0].shape, running_mean(ones([2, 5]))[1].shape)  # expect: shape([7, 2]) shape([2, 4])
print(stats(running_mean)["compiles"])  # expect: 1

# Compiled gradients against eager ones, at several sizes, with one compile.
let vg = value_and_grad(fn (x) { return (cumprod(x, 1) * cumsum(x, 0)).sum() + diff(x, dim = 0).max() })
let cvg = compile(fn (x) { return vg(x) }, dynamic = true)
seed(3)
let worst = 0.0
for n in [3, 5, 9] {
  let x = randn([n, 4])
  let (cv, cg) = cvg(x)
  let (ev, eg) = vg(x)
  worst = max(worst, abs(cv - ev).item(), abs(cg - eg).max().item())
}
print(worst < 1e-4, stats(cvg)["compiles"])  # expect: true 1

# On the tpu: one program for every length under the bound.
@compile(backend = "tpu")
fn tpu_scan(x: f32[N]) where N >= 2, N <= 64 {
  return (cumsum(x, 0), diff(x))
}
let (s, t) = tpu_scan(tensor([1.0, 2.0, 3.0]))
print(s.shape, s.tolist(), t.tolist())  # expect: shape([<=64]) [1.0, 3.0, 6.0] [1.0, 1.0]
print(tpu_scan(ones([50]))[0].tolist()[49], stats(tpu_scan)["compiles"])  # expect: 50.0 1
