# A named dimension whose where-range includes 1 is one symbol over the whole range, as a
# torch.export Dim("DX", min=1, max=2) is (pytorch/pytorch test/export/test_export.py, the
# dynamic-dim tests with min=1): no 0/1 specialization, so size 1 and size 2 share a graph.
@compile
fn f(x: f32[DX, 3]) where DX >= 1, DX <= 2 {
  return x.sum(dim = 0) * x.shape[0]
}
print(f(ones([1, 3])))               # expect: tensor([1., 1., 1.])
print(f(ones([2, 3])))               # expect: tensor([4., 4., 4.])
print(f(ones([1, 3])))               # expect: tensor([1., 1., 1.])
print(stats(f)["compiles"])          # expect: 1
print(stats(f)["guards"])            # expect: ["x.shape[1] == 3"]

# Without a where-clause the named dimension still covers 0 and 1.
@compile
fn g(x: f32[N]) { return x + 1.0 }
g(ones([1]))
g(ones([0]))
g(ones([5]))
print(stats(g)["compiles"])          # expect: 1
