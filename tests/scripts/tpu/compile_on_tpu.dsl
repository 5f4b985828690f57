# @compile(backend = "tpu"): dynamic sizes get a power-of-two bucket as their bound, a larger
# size recompiles with the next bucket, and results equal the cpu's.
@compile(backend = "tpu", dynamic = true)
fn f(x) { return relu(x * 2.0 - 1.0).sum(dim = 1) }
print(f(ones([3, 4])).tolist())   # expect: [4.0, 4.0, 4.0]
print(f(ones([4, 4])).device)     # expect: tpu
print(stats(f)["compiles"])       # expect: 1
print(f(ones([9, 4])).shape)      # expect: shape([<=16])
print(stats(f)["compiles"])       # expect: 2
let x = tensor([[1.0, 0.0], [2.0, 3.0]]).to("tpu")
print(f(x).tolist())              # expect: [1.0, 8.0]
# Results of a compiled tpu function are bounded tensors like eager tpu results: a dynamic size
# carries its bucket's bound, a data-dependent one the op's.
@compile(backend = "tpu", dynamic = true)
fn nz(x) { return nonzero(x) }
let r = nz(tensor([[1, 0], [2, 3]]))
print(r.shape, int(r.shape[0]), r.tolist())   # expect: shape([<=4, 2]) 3 [[0, 0], [1, 0], [1, 1]]
print(f(ones([5, 4])).shape)                  # expect: shape([<=16])
# (5 rows run in the entry compiled for 9, whose bucket is 16.)
# A where fact is a bound: no bucket, one program for every size it allows, and a size past it
# is the signature's ShapeError.
@compile(backend = "tpu")
fn mlp(x: f32[B, 4], w: f32[4, H]) -> f32[B, H] where B >= 1, B <= 40 {
  return relu(x @ w)
}
print(mlp(ones([3, 4]), ones([4, 2])).shape)    # expect: shape([<=40, <=2])
print(mlp(ones([33, 4]), ones([4, 2])).shape, stats(mlp)["compiles"])  # expect: shape([<=40, <=2]) 1
mlp(ones([41, 4]), ones([4, 2]))  # expect error: ShapeError: mlp(): constraint 'B <= 40' does not hold
