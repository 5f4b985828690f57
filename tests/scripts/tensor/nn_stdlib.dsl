# stdlib/nn.dsl: init helpers, linear layers, an MLP, SGD and Adam steps; the loss falls.
import nn
seed(0)
let x = randn([64, 3])
let y = (x @ tensor([[1.0], [-2.0], [0.5]]) + 0.3)
let p = nn.mlp_init([3, 8, 1])
print(len(p), p[0]["w"].shape, p[0]["b"].shape, p[1]["w"].shape)  # expect: 2 shape([8, 3]) shape([8]) shape([1, 8])
fn loss(p) { return mse_loss(nn.mlp_apply(p, x), y) }
let first = loss(p).item()
let sgd = p
for i in range(50) { sgd = nn.sgd_step(sgd, grad(loss)(sgd), lr = 0.05) }
print(loss(sgd).item() < first / 2)                # expect: true
let adam = p
let state = nn.adam_init(p)
for i in range(50) {
  let (a, s) = nn.adam_step(adam, grad(loss)(adam), state, lr = 0.02)
  adam = a
  state = s
}
print(state["t"].item(), loss(adam).item() < first / 2)  # expect: 50.0 true
print(nn.zeros_like(x).shape, nn.xavier_uniform(4, 2).shape)  # expect: shape([64, 3]) shape([2, 4])
print(nn.tree_map(fn (t) { return t.shape[0] }, {"a": ones([2]), "b": [ones([5])]}))  # expect: {"a": 2, "b": [5]}
