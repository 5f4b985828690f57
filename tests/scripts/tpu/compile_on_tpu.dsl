# @compile(backend = "tpu"): dynamic sizes get a power-of-two bucket as their bound, a larger
# size recompiles with the next bucket, and results equal the cpu's.
@compile(backend = "tpu", dynamic = true)
fn f(x) { return relu(x * 2.0 - 1.0).sum(dim = 1) }
print(f(ones([3, 4])).tolist())   # expect: [4.0, 4.0, 4.0]
print(f(ones([4, 4])).device)     # expect: tpu
print(stats(f)["compiles"])       # expect: 1
print(f(ones([9, 4])).shape)      # expect: shape([9])
print(stats(f)["compiles"])       # expect: 2
let x = tensor([[1.0, 0.0], [2.0, 3.0]]).to("tpu")
print(f(x).tolist())              # expect: [1.0, 8.0]
