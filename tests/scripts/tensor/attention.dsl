# scaled_dot_product_attention: torch.nn.functional's semantics on small cases
# whose results are known, against the unfused formula, and its gradient.
fn unfused(q, k, v, mask) { return softmax((q @ k.transpose(-2, -1)) / sqrt(float(q.shape[-1])) + mask, -1) @ v }

let v = tensor([[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]])
# Equal scores: the mean of the values. Causal: query t sees keys 0..t (top-left aligned).
print(scaled_dot_product_attention(zeros([2, 4]), zeros([3, 4]), v).tolist())  # expect: [[2.0, 20.0], [2.0, 20.0]]
print(scaled_dot_product_attention(zeros([4, 4]), zeros([3, 4]), v, is_causal = true).tolist())  # expect: [[1.0, 10.0], [1.5, 15.0], [2.0, 20.0], [2.0, 20.0]]
# A bool mask says which keys take part; a row without any is NaN, as PyTorch's softmax gives.
let m = tensor([[true, false, true], [false, false, false]])
print(scaled_dot_product_attention(zeros([2, 4]), zeros([3, 4]), v, m).tolist())  # expect: [[2.0, 20.0], [nan, nan]]
# No keys at all: zeros (an empty sum); no queries: an empty result.
print(scaled_dot_product_attention(zeros([2, 4]), zeros([0, 4]), zeros([0, 3])).tolist())  # expect: [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
print(scaled_dot_product_attention(zeros([0, 4]), zeros([3, 4]), v).shape)  # expect: shape([0, 2])
# Against the formula: batch dims broadcast, T != S, Dv != D, an additive mask over the heads.
seed(1)
let q = randn([2, 3, 5, 4])
let k = randn([3, 7, 4])
let vv = randn([1, 7, 6])
let add = randn([2, 1, 5, 7])
print(abs(scaled_dot_product_attention(q, k, vv, add) - unfused(q, k, vv, add)).max().item() < 1e-5)  # expect: true
print(abs(scaled_dot_product_attention(q, k, vv, scale = 0.3) - unfused(q * (0.3 * 2.0), k, vv, 0.0)).max().item() < 1e-5)  # expect: true
# Gradients of q, k and v equal the formula's.
let w = randn([2, 3, 5, 6])
let gf = grad(fn (q, k, v) { return (scaled_dot_product_attention(q, k, v, add) * w).sum() }, argnums = [0, 1, 2])(q, k, vv)
let gu = grad(fn (q, k, v) { return (unfused(q, k, v, add) * w).sum() }, argnums = [0, 1, 2])(q, k, vv)
print([abs(gf[i] - gu[i]).max().item() < 1e-4 for i in range(3)], gf[1].shape, gf[2].shape)  # expect: [true, true, true] shape([3, 7, 4]) shape([1, 7, 6])
# The kernel's exp (the faster softmax step): a NaN score stays NaN in its row only; a
# key 500 above the rest takes all the weight (the others' exp is exactly 0); over several
# tiles of 64 keys, with the running max growing from tile to tile, it equals the formula.
let qn = tensor([[1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0]])
print(scaled_dot_product_attention(qn / qn, zeros([3, 4]), v).tolist())  # expect: [[2.0, 20.0], [nan, nan]]
let kd = tensor([[100.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
print(scaled_dot_product_attention(tensor([[10.0, 0.0, 0.0, 0.0]]), kd, v).tolist())  # expect: [[1.0, 10.0]]
let qt = randn([2, 150, 16]) * 2.0
let kt = randn([2, 200, 16]) + arange(200).reshape([200, 1]) * 0.05
let vt = randn([2, 200, 24])
print(abs(scaled_dot_product_attention(qt, kt, vt) - unfused(qt, kt, vt, 0.0)).max().item() < 1e-5)  # expect: true
let wt = randn([2, 150, 24])
let gft = grad(fn (q, k, v) { return (scaled_dot_product_attention(q, k, v) * wt).sum() }, argnums = [0, 1, 2])(qt, kt, vt)
let gut = grad(fn (q, k, v) { return (unfused(q, k, v, 0.0) * wt).sum() }, argnums = [0, 1, 2])(qt, kt, vt)
print([abs(gft[i] - gut[i]).max().item() < 1e-4 for i in range(3)])  # expect: [true, true, true]
# Key tiles narrower than 64 (16, 32 or 48 keys when fewer remain; Note [Key tile width]): short
# sequences, a last partial tile, causal, and a key-padding mask that keeps S, S - 3 or 1 keys,
# forward and gradients against the formula (-1e9 for a masked key).
seed(2)
let narrow = []
for n in [[14, 14], [25, 25], [7, 40], [80, 80], [70, 97]] {
  let q = randn([3, n[0], 16])
  let k = randn([3, n[1], 16])
  let v = randn([3, n[1], 8])
  let w = randn([3, n[0], 8])
  let keep = arange(n[1])[none, :] < tensor([n[1], n[1] - 3, 1])[:, none, none]
  let causal = where(arange(n[1])[none, :] > arange(n[0])[:, none], -1e9, 0.0)
  let pad = where(keep, 0.0, -1e9)
  let fused = fn (q, k, v) { return scaled_dot_product_attention(q, k, v, is_causal = true) + scaled_dot_product_attention(q, k, v, keep) }
  let formula = fn (q, k, v) { return unfused(q, k, v, causal) + unfused(q, k, v, pad) }
  let gf = grad(fn (q, k, v) { return (fused(q, k, v) * w).sum() }, argnums = [0, 1, 2])(q, k, v)
  let gu = grad(fn (q, k, v) { return (formula(q, k, v) * w).sum() }, argnums = [0, 1, 2])(q, k, v)
  narrow = narrow + [abs(fused(q, k, v) - formula(q, k, v)).max().item() < 1e-5 and all([abs(gf[i] - gu[i]).max().item() < 1e-4 for i in range(3)])]
}
print(narrow)  # expect: [true, true, true, true, true]
