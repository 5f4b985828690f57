# The MLP of pytorch/xla test/ds/test_dynamic_shape_models.py (seed 000) on the tpu: a 2-10-1
# Feedforward (linear, relu, linear, sigmoid; every weight and bias 0.01) under binary
# cross-entropy, fed by nonzero() on the device, so the batch is a bounded dynamic size.
# Expected losses and gradients are computed by hand from the real rows (float64, rounded).

fn make_params(device) {
  return {"w1": full([10, 2], 0.01).to(device), "b1": full([10], 0.01).to(device),
          "w2": full([1, 10], 0.01).to(device), "b2": full([1], 0.01).to(device)}
}
fn forward(p, x) { return sigmoid(linear(relu(linear(x, p["w1"], p["b1"])), p["w2"], p["b2"])) }
# torch.nn.BCELoss (mean reduction).
fn bce(q, y) { return -(y * log(q) + (1.0 - y) * log(1.0 - q)).mean() }
fn loss_fn(p, x, y) { return bce(squeeze(forward(p, x), 1), y) }

# create_dynamic_test_data(5, 2, num_non_zeros = k): the first k entries (row-major) of a
# [5, 2] grid and of a [10] vector are 1; x = nonzero(grid) as floats ([<=10, 2], k rows),
# y = nonzero(vector) as floats, squeezed ([<=10], values 0 .. k-1).
fn data(k) {
  let grid = (arange(10) < k).to(i32).reshape([5, 2]).to("tpu")
  let vec = (arange(10) < k).to(i32).to("tpu")
  return (nonzero(grid).to(f32), squeeze(nonzero(vec).to(f32), 1))
}

# test_forward_pass_dynamic_input_correctness: k = 1: x = [[0, 0]], y = [0];
# loss = -log(1 - sigmoid(0.011)) = 0.69866..., the same on both runs.
let (x1, y1) = data(1)
print(x1.shape, y1.shape, x1.tolist(), y1.tolist())  # expect: shape([<=10, 2]) shape([<=10]) [[0.0, 0.0]] [0.0]
let yp = forward(make_params("tpu"), x1)
print(yp.shape, squeeze(yp, 1).shape)            # expect: shape([<=10, 1]) shape([<=10])
let losses = []
for i in range(2) {
  let (x, y) = data(1)
  let l = loss_fn(make_params("tpu"), x, y)
  sync()
  losses.append(round(l.item(), 5))
}
print(losses)                                    # expect: [0.69866, 0.69866]

# test_forward_pass_dynamic_input_compile_once: k = 0 .. 9 nonzeros (k = 0 is an empty batch,
# whose mean is nan); after the first iteration nothing compiles.
let after_first = -1
for k in range(10) {
  let (x, y) = data(k)
  let l = loss_fn(make_params("tpu"), x, y)
  sync()
  if k == 0 { after_first = stats()["tpu"]["compilations"] }
  print(k, round(l.item(), 5))
}
# expect: 0 nan
# expect: 1 0.69866
# expect: 2 0.69291
# expect: 3 0.687
# expect: 4 0.68042
# expect: 5 0.67387
# expect: 6 0.66658
# expect: 7 0.65938
# expect: 8 0.65142
# expect: 9 0.64356
print(stats()["tpu"]["compilations"] - after_first)  # expect: 0

# test_backward_pass_with_dynamic_input: k = 2: x = [[0, 0], [0, 1]], y = [0, 1]. With
# p = sigmoid(z), dz = (p - y) / 2: grad b2 = sum(dz) = 0.002875, grad w2 = sum(dz * h)
# = -0.0024563, grad b1 = 0.01 * sum(dz) = 2.875e-05, grad w1[:, 0] = 0 (x[:, 0] is 0),
# grad w1[:, 1] = 0.01 * dz[1] = -0.002485. One SGD step (lr = 1) lowers the loss to 0.692769.
let (x2, y2) = data(2)
let p = make_params("tpu")
let (l2, g) = value_and_grad(loss_fn)(p, x2, y2)
print(l2.shape, g["w1"].shape, g["b1"].shape, g["w2"].shape, g["b2"].shape)  # expect: shape([]) shape([10, 2]) shape([10]) shape([1, 10]) shape([1])
print(g["w1"].device, round(l2.item(), 6))       # expect: tpu 0.692914
print(round(g["b2"].item(), 6), round(g["w2"][0, 3].item(), 7), round(g["b1"][7].item(), 8))  # expect: 0.002875 -0.0024563 2.875e-05
print(g["w1"][:, 0].tolist() == [0.0] * 10, round(g["w1"][4, 1].item(), 6))  # expect: true -0.002485
let stepped = {"w1": p["w1"] - g["w1"], "b1": p["b1"] - g["b1"], "w2": p["w2"] - g["w2"], "b2": p["b2"] - g["b2"]}
sync()
let (x3, y3) = data(2)
print(round(loss_fn(stepped, x3, y3).item(), 6))  # expect: 0.692769
# The gradient with respect to the dynamic input keeps its bound.
let gx = grad(fn (x) { return (x * x).sum() })(x2)
print(gx.shape, gx.tolist())                     # expect: shape([<=10, 2]) [[0.0, 0.0], [0.0, 2.0]]
# The same step on the cpu gives the same numbers.
let (lc, gc) = value_and_grad(loss_fn)(make_params("cpu"), x2.to("cpu"), y2.to("cpu"))
print(lc.item() == l2.item(), abs(gc["w1"] - g["w1"].to("cpu")).max().item() < 1e-7)  # expect: true true

# A training loop with one sync per step (the seed's table): sizes change every step, one
# program serves them all after the first step, and nothing allocates while programs run.
let params = make_params("tpu")
let first_loss = 0.0
let last_loss = 0.0
let compiled = -1
for step in range(6) {
  let (x, y) = data(1 + (3 * step) % 7)
  let (l, gr) = value_and_grad(loss_fn)(params, x, y * 0.0 + 1.0)
  params = {"w1": params["w1"] - 0.5 * gr["w1"], "b1": params["b1"] - 0.5 * gr["b1"],
            "w2": params["w2"] - 0.5 * gr["w2"], "b2": params["b2"] - 0.5 * gr["b2"]}
  sync()
  if step == 0 { compiled = stats()["tpu"]["compilations"] }
  if step == 0 { first_loss = l.item() }
  last_loss = l.item()
}
print(stats()["tpu"]["compilations"] - compiled, stats()["tpu"]["run_allocations"])  # expect: 0 0
print(last_loss < first_loss)                    # expect: true

# Backward through the data-dependent ops themselves: masked_select and x[mask] scatter their
# gradient back to the selected places; a matmul over nonzero's rows sums the rows.
let xv = tensor([1.0, -2.0, 3.0, -4.0]).to("tpu")
let gs = grad(fn (x) { return (masked_select(x, x > 0) ** 2).sum() })(xv)
print(gs.shape, gs.tolist())                     # expect: shape([4]) [2.0, 0.0, 6.0, 0.0]
print(grad(fn (x) { return (x[x > 0] * 3.0).mean() })(xv).tolist())  # expect: [1.5, 0.0, 1.5, 0.0]
# rows = [[0, 0], [2, 0], [2, 1]] (<=6): d/dw sum(rows @ w) = column sums of rows, broadcast.
let wv = tensor([[1.0, 2.0], [3.0, 4.0]]).to("tpu")
let rows = nonzero(tensor([[1, 0], [0, 0], [1, 1]]).to("tpu")).to(f32)
print(grad(fn (w) { return (rows @ w).sum() })(wv).tolist())  # expect: [[4.0, 4.0], [1.0, 1.0]]
# d/drows mean(relu(rows @ w - 1)): row 0 is inactive; the others get [1, 1] / 6 @ w.T.
let gr = grad(fn (r) { return relu(r @ wv - 1.0).mean() })(rows)
print(gr.shape, gr.tolist())                     # expect: shape([<=6, 2]) [[0.0, 0.0], [0.5, 1.1666667461395264], [0.5, 1.1666667461395264]]
