# Ops whose formula uses a data-dependent size on the tpu (flip and roll subtract from the
# length, var divides by it, nll_loss and cross_entropy count rows, pad crops it): the bounded
# size is computed on the tpu from its symbol. Values as the cpu and PyTorch 1.13 give them.
let x = tensor([3.0, -1.0, 2.0]).to("tpu")
print(flip(x[x > 0.0], [0]).tolist(), roll(x[x > 0.0], 1).tolist())  # expect: [2.0, 3.0] [2.0, 3.0]
let y = tensor([0.7, -1.0, 2.0]).to("tpu")
print(var(y[y > 0.0], dim = [0], correction = 2).item())          # expect: inf
let z = tensor([1.4, -0.2, 1.2, 0.2]).to("tpu")
print(round(nll_loss(z[z > 0.0], tensor(1)).item(), 4))           # expect: -1.2
print(round(cross_entropy(unique(tensor([1.0, 2.0, 1.0]).to("tpu")).unsqueeze(0), tensor([1])).item(), 4))  # expect: 0.3133
print(pad(x[x > 0.0], [0, -1]).tolist(), pad(x[x > 0.0], [1, -2]).tolist())  # expect: [3.0] [0.0]

# A pending op's failure belongs to its own results: a function's dropped locals do not fail
# a later, unrelated statement.
fn p1(v) {
  let w = 2 ** v
  return 0
}
p1(tensor([-1, 2]).to("tpu"))
print((tensor([1.0]).to("tpu") + 1.0).tolist())                  # expect: [2.0]

# Losses of two data-dependent sizes equal at run time (PyTorch/XLA test/ds): a run-time
# check, no error at record time and no size warning.
let a = tensor([1.0, -2.0, 3.0]).to("tpu")
let b = tensor([2.0, 5.0, -1.0]).to("tpu")
print(mse_loss(a[a > 0.0], b[b > 0.0]).item(), l1_loss(a[a > 0.0], b[b > 0.0]).item(), smooth_l1_loss(a[a > 0.0], b[b > 0.0]).item())  # expect: 2.5 1.5 1.0
print(round(binary_cross_entropy_with_logits(a[a > 0.0], b[b > 0.0]).item(), 4))  # expect: -6.3191

# Cropping more than a data-dependent size holds fails when the program runs.
print(pad(x[x > 5.0], [0, -1]).tolist())  # expect error: ValueError: pad(): padding (0, -1) of dim 0 of size u0 crops more than the dim holds, with u0 = 0 at run time
