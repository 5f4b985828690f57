# A small CNN trained over images whose height, width and batch change at every step:
# conv2d (padding 1) -> relu -> conv2d (stride 2, groups 2) -> relu -> mean over the image ->
# linear -> cross_entropy. One compiled step (the forward, the backward through conv2d's two
# backward ops, an SGD update) serves every size: output sizes such as (H + 2 - 3) // 2 + 1
# are expressions of the input's symbols, so it compiles once, and it matches eager autodiff.
import nn

fn max_diff(a, b) {
  let m = 0.0
  for (k, v) in a.items() { m = max(m, abs(v - b[k]).max().item()) }
  return m
}

fn net(p, x) {
  let h = relu(conv2d(x, p["w1"], p["b1"], padding = 1))
  h = relu(conv2d(h, p["w2"], p["b2"], stride = 2, padding = 1, groups = 2))
  return linear(h.mean(dim = [2, 3]), p["w3"], p["b3"])
}

fn loss_fn(p, x, y) { return cross_entropy(net(p, x), y) }

fn train_step(p, x, y) {
  let (loss, g) = value_and_grad(loss_fn)(p, x, y)
  return (loss, nn.sgd_step(p, g, lr = 0.1))
}
# Every size a symbol of its own (without duck sizing, a 3x3 kernel and 3 input channels, or a
# square first image, would share a symbol and recompile when they part).
config.duck_shape = false
let step = compile(train_step, dynamic = true)

seed(0)
let init = {"w1": randn([8, 3, 3, 3]) * 0.3, "b1": zeros([8]), "w2": randn([8, 4, 3, 3]) * 0.2,
            "b2": zeros([8]), "w3": randn([3, 8]) * 0.5, "b3": zeros([3])}
let pc = init
let pe = init
let worst = 0.0
for (n, h, w) in [(4, 28, 28), (3, 17, 23), (5, 9, 12), (2, 31, 8), (4, 28, 28)] {
  let x = randn([n, 3, h, w])
  let y = randint(0, 3, [n])
  let (lc, nc) = step(pc, x, y)
  let (le, ne) = train_step(pe, x, y)
  worst = max(worst, abs(lc.item() - le.item()), max_diff(nc, ne))
  pc = nc
  pe = ne
}
print(worst < 1e-4)                                           # expect: true
print(max_diff(pc, init) > 0.001)                             # expect: true
print(stats(step)["compiles"], stats(step)["cache_hits"])     # expect: 1 4
# The output size is a symbolic expression of the input's height and width.
let cconv = compile(fn (x, w) { return conv2d(x, w, stride = 2, padding = 1) }, dynamic = true)
print(cconv(randn([2, 3, 17, 23]), randn([4, 3, 3, 3])).shape)  # expect: shape([2, 4, 9, 12])
print(cconv(randn([3, 3, 8, 5]), randn([4, 3, 3, 3])).shape)    # expect: shape([3, 4, 4, 3])
print(stats(cconv)["compiles"])                                 # expect: 1
