# Pooling and resizing keep symbolic sizes ((H + 2p - k) // s + 1, 2 * H, ...): one compiled
# function serves images of every height and width, its gradient too, and the tpu plans one
# program for every size under the bounds. Results equal eager ones.
fn features(x) {
  let a = max_pool2d(relu(x), 3, stride = 2, padding = 1)
  let b = avg_pool2d(a, 2, stride = 1, padding = 1, count_include_pad = false)
  let up = interpolate(b, scale_factor = 2.0, mode = "bilinear")
  let near = interpolate(x, size = (5, 4))
  return adaptive_avg_pool2d(up, (2, 3)).sum(dim = [2, 3]) + near.mean(dim = [2, 3])
}
let cf = compile(features, dynamic = true)
let vg = value_and_grad(fn (x) { return (features(x) ** 2).sum() })
let cvg = compile(fn (x) { return vg(x) }, dynamic = true)
seed(5)
let worst = 0.0
for (h, w) in [(7, 9), (12, 5), (16, 16), (5, 11)] {
  let x = randn([2, 3, h, w])
  worst = max(worst, abs(cf(x) - features(x)).max().item())
  let (cv, cg) = cvg(x)
  let (ev, eg) = vg(x)
  worst = max(worst, abs(cv - ev).item() / (1 + abs(ev).item()), abs(cg - eg).max().item())
}
print(worst < 1e-4)                                    # expect: true
print(stats(cf)["compiles"], stats(cvg)["compiles"])  # expect: 1 1

# Output sizes are expressions of the input's: an upsampled image at a new size, no recompile.
let up = compile(fn (x) { return interpolate(max_pool2d(x, 2), scale_factor = 1.5) }, dynamic = true)
print(up(ones([1, 1, 8, 6])).shape, up(ones([1, 1, 10, 14])).shape, stats(up)["compiles"])  # expect: shape([1, 1, 6, 4]) shape([1, 1, 7, 10]) 1

# On the tpu: one program for every image size under the bounds.
@compile(backend = "tpu")
fn tpu_pool(x: f32[2, H, W]) where H >= 2, H <= 32, W >= 2, W <= 32 {
  return max_pool2d(x, 2) + avg_pool2d(x, 2)
}
let a = arange(16).reshape([1, 4, 4]) * 1.0
print(tpu_pool(cat([a, a], 0))[1].tolist())  # expect: [[7.5, 11.5], [23.5, 27.5]]
print(tpu_pool(ones([2, 9, 7])).shape, stats(tpu_pool)["compiles"])  # expect: shape([2, <=16, <=16]) 1
