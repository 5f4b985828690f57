# Ops on tensors with bounded dynamic dims on the tpu, after pytorch/xla
# test/ds/test_dynamic_shapes.py: shape ops carry bounds, and values equal PyTorch's (computed
# on real sizes; each section also checks against the same ops on the cpu where XLA does).

# test_t_copy: nonzero of a [2, 6] input with 7 nonzeros is [<=12, 2]; .T is [2, <=12].
let src = tensor([[1, 0, 0, 5, 0, 6], [1, 3, 2, 0, 0, 1]])
let t2 = nonzero(src.to("tpu"))
print(str(t2.shape[0]), str(t2.shape[1]))        # expect: <=12 2
let t2t = t2.T
print(t2t.shape, t2t.shape[0], int(t2t.shape[1]))  # expect: shape([2, <=12]) 2 7
print(t2t.tolist())                              # expect: [[0, 0, 0, 1, 1, 1, 1], [0, 3, 5, 0, 1, 2, 5]]
print(transpose(t2, 0, 1).shape)                 # expect: shape([2, <=12])

# test_unsqueeze_copy_dynamism
let t2u = unsqueeze(t2, 0)
print(t2u.ndim, t2u.shape, t2u.shape[1] == 7)    # expect: 3 shape([1, <=12, 2]) true
print((t2u.to("cpu") == unsqueeze(nonzero(src), 0)).all().item())  # expect: true

# test_nonzero_correctness
let a1 = tensor([[1, 0, 0, 5, 0, 6]])
let a2 = nonzero(a1.to("tpu"))
print(a2.tolist(), (a2.to("cpu") == nonzero(a1)).all().item())  # expect: [[0, 0], [0, 3], [0, 5]] true

# test_nonzero_cast: nonzero of a [5, 2] of ones cast to int then float (10 rows).
let nc = nonzero(ones([5, 2]).to("tpu").to(i32)).to(f32)
sync()
print(nc.shape, nc.dtype, nc.sum().item())       # expect: shape([<=10, 2]) f32 25.0

# test_expand_symint_correctness: expand [5, 2] to [n, 5, 2] with n = 2 (<=10).
let m3 = nonzero(tensor([[0, 0], [0, 0], [0, 0], [1, 1], [0, 0]]).to("tpu"))
let ex = ones([5, 2]).to("tpu").expand([m3.shape[0], 5, 2])
print(ex.shape, ex.to("cpu").shape)              # expect: shape([<=10, 5, 2]) shape([2, 5, 2])
print((ex.to("cpu") == ones([5, 2]).expand([2, 5, 2])).all().item())  # expect: true

# test_view_copy_symint_with_static_input_dyn_input_shape: a static [2, 3] viewed as [n] with
# n = 6 (<=6): the reshape makes n == 6, so the bound is 6.
let v6 = nonzero(tensor([1, 1, 3, 5, 1, 6]).to("tpu"))
let r6 = ones([2, 3]).to("tpu").reshape([v6.shape[0]])
print(r6.shape, int(r6.shape[0]), r6.tolist())   # expect: shape([<=6]) 6 [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
# A static [2, 2] viewed as [n] with n = 4 (<=6): PyTorch accepts it (XLA rejects it because the
# bounds differ); the bound becomes 4.
let v4 = nonzero(tensor([1, 0, 3, 5, 0, 6]).to("tpu"))
let r4 = ones([2, 2]).to("tpu").reshape([v4.shape[0]])
print(r4.shape, r4.tolist())                     # expect: shape([<=4]) [1.0, 1.0, 1.0, 1.0]

# test_view_copy_symint_with_static_input_dyn_input_shape2: [2, 3] viewed as nonzero's shape
# [<=3, 2] with real [3, 2].
let v32 = nonzero(tensor([[1, 1, 3]]).to("tpu"))
let r32 = ones([2, 3]).to("tpu").reshape(v32.shape)
print(v32.shape, r32.shape, r32.shape[0] == 3)   # expect: shape([<=3, 2]) shape([<=3, 2]) true
print(r32.tolist())                              # expect: [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]

# test_view_copy_symint_with_dyn_input_static_input_shape: a [<=6, 1] with real [6, 1] viewed
# as [2, 3]. PyTorch accepts it (XLA does not support it).
let d6 = nonzero(tensor([1, 1, 3, 5, 1, 6]).to("tpu"))
print(d6.reshape([2, 3]).shape, d6.reshape([2, 3]).tolist())  # expect: shape([2, 3]) [[0, 1, 2], [3, 4, 5]]

# test_view_copy_symint_with_dyn_input_dyn_input_shape: [<=7, 1] (real 5) viewed as another
# [<=7] size with real 5.
let t4 = nonzero(tensor([1, 0, 3, 5, 0, 6, 7]).to("tpu"))
let t8 = nonzero(tensor([1, 0, 3, 5, 0, 6, 7]).to("tpu"))
let t9 = t8.reshape([t4.shape[0]])
print(t9.shape, int(t9.shape[0]), t9.tolist())   # expect: shape([<=7]) 5 [0, 2, 3, 5, 6]
print(reshape(t8, [-1]).shape, flatten(t8).shape)  # expect: shape([<=7]) shape([<=7])

# test_add_dyn_with_static_broadcastable / test_sub_dyn_with_static_broadcastable:
# [<=6, 2] (real [4, 2]) with a static [1, 2].
let b2 = nonzero(tensor([[1, 0, 3, 5, 0, 6]]).to("tpu"))
let b3 = tensor([[1, 1]]).to("tpu")
let sum4 = b2 + b3
print(sum4.shape, int(sum4.shape[0]), sum4.shape[1])  # expect: shape([<=6, 2]) 4 2
print(sum4.tolist())                             # expect: [[1, 1], [1, 3], [1, 4], [1, 6]]
print((b2 - b3).shape, (b2 - b3).tolist())       # expect: shape([<=6, 2]) [[-1, -1], [-1, 1], [-1, 2], [-1, 4]]
print((b3 - b2).tolist())                        # expect: [[1, 1], [1, -1], [1, -2], [1, -4]]
let bc = nonzero(tensor([[1, 0, 3, 5, 0, 6]]))
print(((b2 + b3).to("cpu") == bc + tensor([[1, 1]])).all().item())  # expect: true

# test_add_two_dynamic_tensors: a data-dependent size is never taken to be 1 (docs/tpu.md, as
# XLA, which rejects the pair): [4, 2] + [<=1, 2] whose real size is 1 fails when it runs, a
# ShapeError naming both; [4, 2] + [4, 2] from two nonzeros is elementwise.
let one = nonzero(tensor([[1]]).to("tpu"))
print(one.shape)                                 # expect: shape([<=1, 2])
try { print((b2 + one).tolist()) } except ShapeError as e { print(e.message) }  # expect: add: shapes [4, 2] (traced as [s0, 2]) and [u0, 2] are not broadcastable (4 != u0 at dim 0), with u0 = 1, s0 = 4 at run time
let b6 = nonzero(tensor([[1, 0, 3, 5, 0, 6]]).to("tpu"))
let twice = b2 + b6
print(twice.shape, twice.tolist())               # expect: shape([<=6, 2]) [[0, 0], [0, 4], [0, 6], [0, 10]]
print((b2 - b6).tolist())                        # expect: [[0, 0], [0, 0], [0, 0], [0, 0]]

# test_clone / test_abs / test_fill_ (tensors are immutable: fill_ is x * 0 + 1).
let c1 = nonzero(tensor([1, 0, 3, 5, 0, 6]).to("tpu"))
let cl = c1 * 1
print(cl.shape, int(cl.shape[0]), cl.shape[1], cl.tolist())  # expect: shape([<=6, 1]) 4 1 [[0], [2], [3], [5]]
print(abs(c1).shape, abs(c1 - 3).tolist())       # expect: shape([<=6, 1]) [[3], [1], [0], [2]]
let filled = c1 * 0 + 1
print(filled.shape, filled.tolist())             # expect: shape([<=6, 1]) [[1], [1], [1], [1]]

# Empty results: nonzero of all zeros has 0 rows (bound 12); reductions follow PyTorch
# (sum of nothing is 0, mean of nothing is nan), shape ops keep the bound.
let z = nonzero(zeros([3, 4]).to("tpu"))
print(z.shape, int(z.shape[0]), z.tolist())      # expect: shape([<=12, 2]) 0 []
print(z.to("cpu").shape, z.T.shape, z.T.tolist())  # expect: shape([0, 2]) shape([2, <=12]) [[], []]
let zf = z.to(f32)
print(zf.sum().item(), zf.sum(dim = 0).tolist(), zf.mean().item())  # expect: 0.0 [0.0, 0.0] nan
let pz = zf @ ones([2, 3]).to("tpu")
print(pz.shape, pz.tolist(), pz.sum().item())    # expect: shape([<=12, 3]) [] 0.0
let none_sel = masked_select(arange(5).to("tpu"), arange(5).to("tpu") > 10)
print(none_sel.shape, none_sel.tolist(), cat([none_sel, none_sel]).shape)  # expect: shape([<=5]) [] shape([<=10])

# cat of dynamic tensors: the bounds add.
let k1 = nonzero(tensor([[1, 0], [0, 0], [0, 0], [0, 0], [0, 0]]).to("tpu")).to(f32)
let ct = cat([k1, k1, ones([3, 2]).to("tpu")], 0)
print(ct.shape, int(ct.shape[0]), ct.tolist())   # expect: shape([<=23, 2]) 5 [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]
print(cat([k1, k1], 1).shape, stack([k1, k1]).shape, stack([k1, k1], 1).shape)  # expect: shape([<=10, 4]) shape([2, <=10, 2]) shape([<=10, 2, 2])
let mixed = cat([masked_select(tensor([1, 0, 2]).to("tpu"), tensor([1, 0, 2]).to("tpu") > 0), nonzero(tensor([0, 7]).to("tpu")).reshape([-1])])
print(mixed.shape, mixed.tolist())               # expect: shape([<=5]) [1, 2, 1]

# Broadcasting a dynamic batch with static operands, slicing and reductions over the dynamic
# dim. x = nonzero of [[1, 0, 2], [0, 3, 0]] as floats: [[0, 0], [0, 2], [1, 1]].
let x = nonzero(tensor([[1, 0, 2], [0, 3, 0]]).to("tpu")).to(f32)
print(x.shape, (x * tensor([10.0, 1.0]).to("tpu")).tolist())  # expect: shape([<=6, 2]) [[0.0, 0.0], [0.0, 2.0], [10.0, 1.0]]
let col = x[:, 0:1]
let outer = col * tensor([[1.0, 2.0, 3.0]]).to("tpu")
print(col.shape, outer.shape, outer.tolist())    # expect: shape([<=6, 1]) shape([<=6, 3]) [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]
print(x[:, 1].shape, x[:, 1].tolist(), x[-1].tolist())  # expect: shape([<=6]) [0.0, 2.0, 1.0] [1.0, 1.0]
print(x[1:].shape, x[1:].tolist(), x[:2].shape, x[::2].shape)  # expect: shape([<=5, 2]) [[0.0, 2.0], [1.0, 1.0]] shape([<=2, 2]) shape([<=3, 2])
let sq = unsqueeze(x[:, 1], 1) * unsqueeze(x[:, 1], 0)
print(sq.shape, sq.tolist())                     # expect: shape([<=6, <=6]) [[0.0, 0.0, 0.0], [0.0, 4.0, 2.0], [0.0, 2.0, 1.0]]
print(where(x > 0.5, x, -1.0).tolist())          # expect: [[-1.0, -1.0], [-1.0, 2.0], [1.0, 1.0]]
print(x.sum(dim = 0).tolist(), x.sum(dim = 1).shape, x.sum(dim = 1).tolist())  # expect: [1.0, 3.0] shape([<=6]) [0.0, 2.0, 2.0]
print(x.mean(dim = 0).tolist(), x.mean().item()) # expect: [0.3333333432674408, 1.0] 0.6666666865348816
print(x.sum(dim = 0, keepdim = true).shape, x.sum(dim = 1, keepdim = true).shape)  # expect: shape([1, 2]) shape([<=6, 1])
print(x.max().item(), x.argmax(dim = 0).tolist(), x.min(dim = 1)[0].tolist())  # expect: 2.0 [2, 1] [0.0, 0.0, 1.0]
print(index_select(x, 0, tensor([2, 0]).to("tpu")).tolist())  # expect: [[1.0, 1.0], [0.0, 0.0]]
print(softmax(x, 1).shape, softmax(x, 0).sum(dim = 0).tolist())  # expect: shape([<=6, 2]) [1.0, 1.0]

# matmul / linear on a dynamic batch: [<=10, 2] rows through a 2 -> 10 layer (all 0.01).
let w = full([10, 2], 0.01).to("tpu")
let b = full([10], 0.01).to("tpu")
let xb = nonzero(tensor([[1, 0], [1, 1], [0, 0], [0, 0], [0, 0]]).to("tpu")).to(f32)
let h = linear(xb, w, b)
print(xb.tolist(), h.shape)                      # expect: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]] shape([<=10, 10])
print((h == xb @ w.T + b).all().item(), (matmul(xb, w.T)).shape)  # expect: true shape([<=10, 10])
print(round(h[0, 0].item(), 6), round(h[1, 0].item(), 6), round(h[2, 9].item(), 6))  # expect: 0.01 0.02 0.03
print((h.to("cpu") == linear(xb.to("cpu"), full([10, 2], 0.01), full([10], 0.01))).all().item())  # expect: true
let hh = h.T @ h
print(hh.shape, round(hh[0, 0].item(), 6))       # expect: shape([10, 10]) 0.0014

# The other data-dependent ops of XLA_EXPERIMENTAL (seed 000): masked_scatter keeps the input's
# shape, unique gives a bounded size.
let xs = tensor([1.0, -2.0, 3.0, -4.0]).to("tpu")
print(masked_scatter(xs, xs > 0, tensor([10.0, 20.0, 30.0, 40.0]).to("tpu")).tolist())  # expect: [10.0, -2.0, 20.0, -4.0]
let uq = unique(tensor([3, 1, 3, 2, 1]).to("tpu"))
print(uq.shape, uq.tolist(), int(uq.shape[0]))   # expect: shape([<=5]) [1, 2, 3] 3
