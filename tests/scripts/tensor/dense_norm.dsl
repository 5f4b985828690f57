# Normalization, one_hot, creation, einsum and amax/amin, PyTorch's semantics; values
# rounded to 4 places (the devices round the last bits differently).
fn r4(t) { return [round(v, 4) for v in t.reshape([-1]).tolist()] }
let x = arange(24.0).reshape([2, 4, 3]) / 10.0 - 0.5
print(r4(group_norm(x, 2)[0, 0]), r4(group_norm(x, 4, arange(4.0), ones([4]))[1, 3]))  # expect: [-1.4636, -0.8782, -0.2927] [-2.6715, 1.0, 4.6715]
print(r4(rms_norm(tensor([[3.0, 4.0], [0.0, 0.0]]), [2])), r4(rms_norm(x, 3, eps = 0.5)[0, 0]))  # expect: [0.8485, 1.1314, 0.0, 0.0] [-0.6124, -0.4899, -0.3674]
# batch_norm: evaluation mode normalizes by the running statistics; training mode returns the new ones.
let rm = zeros([4])
let rv = ones([4])
print(r4(batch_norm(x, rm + 1.0, rv * 4.0, eps = 0.0)[0, 0]))  # expect: [-0.75, -0.7, -0.65]
let (y, m, v) = batch_norm(x, rm, rv, arange(4.0), ones([4]), training = true)
print(r4(m), r4(v), r4(y[1, 2]))  # expect: [0.02, 0.05, 0.08, 0.11] [0.944, 0.944, 0.944, 0.944] [2.6514, 2.9817, 3.312]
print(r4(grad(fn (w) { return (batch_norm(x, rm, rv, w, training = true)[0] * x).sum() })(ones([4]))))  # expect: [3.6331, 3.6331, 3.6331, 3.6331]
# A compiled training step threads batch_norm's running statistics through its results: one
# graph for every batch and image size, equal to the eager step.
fn step(img, w, m, v) {
  let (y, m2, v2) = batch_norm(img, m, v, w, training = true, momentum = 0.5)
  return ((group_norm(y, 2) * img).mean(), m2, v2)
}
let cstep = compile(step)
let (m0, v0) = (zeros([4]), ones([4]))
for (n, h) in [(2, 3), (3, 5), (4, 2), (2, 6)] {
  let img = sin(arange(n * 4 * h * h * 1.0)).reshape([n, 4, h, h])
  let (loss, m1, v1) = cstep(img, ones([4]), m0, v0)
  let (le, me, ve) = step(img, ones([4]), m0, v0)
  assert abs(loss.item() - le.item()) < 1e-5 and (m1 - me).abs().max().item() < 1e-5 and (v1 - ve).abs().max().item() < 1e-5
  m0 = m1
  v0 = v1
}
print(r4(m0), stats(cstep)["compiles"] <= 2)  # expect: [0.0276, -0.0146, -0.0121, 0.0149] true
# one_hot: num_classes = -1 is max(x) + 1, a data-dependent width (unbacked under @compile).
print(one_hot(tensor([2, 0, 1])).tolist(), one_hot(tensor([[1], [0]]), 3).tolist())  # expect: [[0, 0, 1], [1, 0, 0], [0, 1, 0]] [[[0, 1, 0]], [[1, 0, 0]]]
@compile
fn encode(labels) {
  let y = one_hot(labels)
  check(y.shape[-1] <= 16)  # a bound for the tpu's static memory
  return y.to(f32).sum(dim = 0)
}
print(encode(tensor([0, 2, 2])).tolist(), encode(tensor([4, 1, 1, 0])).tolist())  # expect: [1.0, 0.0, 2.0] [1.0, 2.0, 0.0, 0.0, 1.0]
# Creation: linspace (steps may be a symbolic size), *_like keep x's shape, dtype and device.
print(linspace(0.0, 1.0, 5).tolist(), linspace(-1.0, 1.0, 1).tolist(), linspace(3.0, 4.0, 0).shape)  # expect: [0.0, 0.25, 0.5, 0.75, 1.0] [-1.0] shape([0])
@compile
fn grid(v) { return linspace(-1.0, 1.0, v.shape[0]) * v }
print(grid(ones([3])).tolist(), grid(ones([5])).tolist(), stats(grid)["compiles"] <= 2)  # expect: [-1.0, 0.0, 1.0] [-1.0, -0.5, 0.0, 0.5, 1.0] true
print(full_like(tensor([1, 2]), 2.7).tolist(), zeros_like(x).shape, ones_like(tensor([1.5]), dtype = i32).tolist())  # expect: [2, 2] shape([2, 4, 3]) [1]
print(randn_like(x).shape, randn_like(x).dtype, x.device == zeros_like(x).device)  # expect: shape([2, 4, 3]) f32 true
# einsum: explicit and implicit outputs, ellipsis, diagonals, a chain contracted cheapest first.
let a = arange(6.0).reshape([2, 3])
print(einsum("ij,jk->ik", a, ones([3, 2])).tolist(), einsum("ij->ji", a).shape)  # expect: [[3.0, 3.0], [12.0, 12.0]] shape([3, 2])
print(einsum("ii", arange(9.0).reshape([3, 3])).item(), einsum("i,j", tensor([1.0, 2.0]), tensor([3.0, 4.0, 5.0])).tolist())  # expect: 12.0 [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]
print(einsum("b...d,bkd->b...k", ones([2, 3, 4]), ones([2, 5, 4])).shape, einsum("...i,i", a, tensor([1.0, 0.0, -1.0])).tolist())  # expect: shape([2, 3, 5]) [-2.0, -2.0]
print(einsum("ab,bc,cd->ad", ones([2, 50]), ones([50, 50]), ones([50, 3])).tolist())  # expect: [[2500.0, 2500.0, 2500.0], [2500.0, 2500.0, 2500.0]]
print(grad(fn (p) { return einsum("ij,ij->", p, a) })(ones([2, 3])).tolist())  # expect: [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
print(r4(amax(x, [0, 2])), x.amin(1).shape, a.amax().item())  # expect: [0.9, 1.2, 1.5, 1.8] shape([2, 3]) 5.0
print(einsum("ij,jk->ik", a, ones([2, 2])))  # expect error: ShapeError: einsum(): subscript j has size 2 in operand 1 (shape [2, 2]), which does not broadcast with its size 3 elsewhere in "ij,jk->ik"
