# Trains a small MLP on synthetic data (an XOR-like pattern) with Adam; the loss falls.
import nn

seed(42)
let n = 512
let x = randn([n, 2])
# Class 1 where the two coordinates have the same sign.
let labels = ((x[:, 0] * x[:, 1]) > 0).to(i32)

let params = nn.mlp_init([2, 32, 32, 2])
let opt = nn.adam_init(params)

fn loss_fn(params, x, labels) {
  return cross_entropy(nn.mlp_apply(params, x), labels)
}
let step = value_and_grad(loss_fn)

let first = none
let last = none
for epoch in range(301) {
  let (loss, grads) = step(params, x, labels)
  let (p, o) = nn.adam_step(params, grads, opt, lr = 0.01)
  params = p
  opt = o
  if first == none { first = loss.item() }
  last = loss.item()
  if epoch % 100 == 0 { print("epoch", epoch, "loss", round(last, 4)) }
}
let accuracy = (nn.mlp_apply(params, x).argmax(dim = 1) == labels).to(f32).mean().item()
print("accuracy", round(accuracy, 3))
assert last < first / 4, "the loss should fall"
