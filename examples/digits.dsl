# Trains an MLP on a real data set read from a file: the 1797 8x8 handwritten digits that
# Debian's python3-sklearn ships as a gzip CSV (64 pixel columns 0-16, then the label).
#   tessel examples/digits.dsl [path/to/digits.csv.gz]
import nn

let path = args[0] if len(args) > 0 else "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
let table = load_csv(path)
print("read", table.shape[0], "digits of", table.shape[1] - 1, "pixels")
let pixels = table[:, :64] / 16.0
let labels = table[:, 64].to(i32)

# The first 1500 to train on, the rest to test.
let x = pixels[:1500]
let y = labels[:1500]
let x_test = pixels[1500:]
let y_test = labels[1500:]

seed(0)
let params = nn.mlp_init([64, 64, 10])
let opt = nn.adam_init(params)
fn loss_fn(params, x, y) { return cross_entropy(nn.mlp_apply(params, x), y) }
let step = value_and_grad(loss_fn)
for epoch in range(101) {
  let (loss, grads) = step(params, x, y)
  let (p, o) = nn.adam_step(params, grads, opt, lr = 0.01)
  params = p
  opt = o
  if epoch % 50 == 0 { print("epoch", epoch, "loss", round(loss.item(), 3)) }
}
fn accuracy(x, y) { return (nn.mlp_apply(params, x).argmax(dim = 1) == y).to(f32).mean().item() }
print("train accuracy", round(accuracy(x, y), 3))
let test = accuracy(x_test, y_test)
print("test accuracy", round(test, 3))
assert test > 0.85, "an MLP gets well past 85% on held-out digits"
