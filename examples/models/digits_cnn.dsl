# A small convolutional network on the 1,797 handwritten digits (8x8 pixels, 0-16) that Debian's
# python3-sklearn ships as digits.csv.gz. Mini-batches of 64 shuffled images, the last one of
# each epoch smaller: the compiled training step serves both batch sizes (it compiles at most
# twice: once, then once more with the batch size made dynamic).
#   tessel examples/models/digits_cnn.dsl [path/to/digits.csv.gz]
#   TESSEL_EXAMPLE_EPOCHS=2 tessel examples/models/digits_cnn.dsl   (fewer epochs: the test suite)
import nn

let path = args[0] if len(args) > 0 else "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
let epochs = int(env("TESSEL_EXAMPLE_EPOCHS", "30"))
let batch = 64

let table = load_csv(path)
let images = (table[:, :64] / 16.0).reshape([-1, 1, 8, 8])
let labels = table[:, 64].to(i32)
print(images.shape[0], "digits of", images.shape[2], "x", images.shape[3], "pixels")

# A fixed shuffle, then 1,497 images to train on and 300 to validate with.
seed(0)
let order = randperm(images.shape[0])
let images_shuffled = index_select(images, 0, order)
let labels_shuffled = index_select(labels, 0, order)
let x_train = images_shuffled[:1497]
let y_train = labels_shuffled[:1497]
let x_val = images_shuffled[1497:]
let y_val = labels_shuffled[1497:]

# conv 3x3 (1 -> 16) + relu, conv 3x3 (16 -> 32) + relu, 2x2 max pool, linear 512 -> 64, linear 64 -> 10.
fn conv_init(c_in, c_out, k) {
  let bound = 1.0 / sqrt(float(c_in * k * k))
  return {"w": nn.uniform([c_out, c_in, k, k], bound), "b": nn.uniform([c_out], bound)}
}
fn init() {
  return {"c1": conv_init(1, 16, 3), "c2": conv_init(16, 32, 3),
          "f1": nn.linear_init(32 * 4 * 4, 64), "f2": nn.linear_init(64, 10)}
}
fn forward(p, x) {
  let h = relu(conv2d(x, p["c1"]["w"], p["c1"]["b"], padding = 1))
  h = relu(conv2d(h, p["c2"]["w"], p["c2"]["b"], padding = 1))
  h = max_pool2d(h, 2)
  h = relu(nn.linear_apply(p["f1"], h.flatten(1)))
  return nn.linear_apply(p["f2"], h)
}
fn loss_fn(p, x, y) { return cross_entropy(forward(p, x), y) }

@compile
fn train_step(p, opt, x, y) {
  let (loss, grads) = value_and_grad(loss_fn)(p, x, y)
  let (p2, opt2) = nn.adam_step(p, grads, opt, lr = 0.002)
  return (p2, opt2, loss)
}

fn accuracy(p, x, y) { return (forward(p, x).argmax(dim = 1) == y).to(f32).mean().item() }

let params = init()
let opt = nn.adam_init(params)
let n = x_train.shape[0]
for epoch in range(epochs) {
  let perm = randperm(n)
  let total = 0.0
  for start in range(0, n, batch) {
    let rows = perm[start:min(start + batch, n)]
    let (p, o, loss) = train_step(params, opt, index_select(x_train, 0, rows), index_select(y_train, 0, rows))
    params = p
    opt = o
    total += loss.item() * rows.shape[0]
  }
  if epoch % 5 == 0 or epoch == epochs - 1 {
    print(f"epoch {epoch:2d}  loss {total / n:.4f}  validation accuracy {accuracy(params, x_val, y_val):.3f}")
  }
}
let val_accuracy = accuracy(params, x_val, y_val)
print(f"validation accuracy {val_accuracy:.3f} on {x_val.shape[0]} digits")
print("compiles:", stats(train_step)["compiles"])

# A checkpoint of the parameters, written and read back.
let ckpt = env("TMPDIR", "/tmp") + "/tessel_digits_cnn.safetensors"
save(ckpt, nn.tree_map(fn (t) { return t.to("cpu") }, params))
let back = load(ckpt, device = "cpu")
let same = bool((back["c1"]["w"] == params["c1"]["w"].to("cpu")).all().item())
print("checkpoint round trip:", same)
# What the test suite checks when it runs this example on each device.
assert same and stats(train_step)["compiles"] <= 2 and (epochs < 20 or val_accuracy >= 0.97)
