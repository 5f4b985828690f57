// Kernels give the same values on strided views as on contiguous copies of them: this covers
// the loop-plan coalescing (cpu/loops.h) and the reduction layouts (cpu/reduce.cpp).
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

std::vector<Tensor> views() {
  Tensor base = iota({4, 5, 6});
  return {base,
          base.transpose(0, 2),
          base.permute(Dims{1, 2, 0}),
          base.slice(0, 1, 4, 2),
          base.slice(2, 1, 6, 2).transpose(1, 2),
          base.select(1, 3).unsqueeze(1).expand(Dims{4, 3, 6}),
          base.slice(1, 0, 5, 3).slice(2, 0, 6, 4)};
}

TEST(Layouts, UnaryAndBinaryMatchContiguous) {
  for (const Tensor& v : views()) {
    Tensor c = v.contiguous();
    EXPECT_EQ(run(OpKind::Exp, {v}).toDoubles(), run(OpKind::Exp, {c}).toDoubles());
    EXPECT_EQ(run(OpKind::Mul, {v, v}).toDoubles(), run(OpKind::Mul, {c, c}).toDoubles());
    EXPECT_EQ(run(OpKind::Sub, {v, c}).toDoubles(), std::vector<double>(c.numel(), 0.0));
    // Broadcast against the last row.
    Tensor row = c.select(0, 0).select(0, 0);
    EXPECT_EQ(run(OpKind::Add, {v, row}).toDoubles(), run(OpKind::Add, {c, row}).toDoubles());
  }
}

TEST(Layouts, ReductionsMatchContiguous) {
  for (const Tensor& v : views()) {
    Tensor c = v.contiguous();
    for (Dims dims : {Dims{}, Dims{0}, Dims{1}, Dims{2}, Dims{0, 2}, Dims{1, 2}, Dims{0, 1}}) {
      for (OpKind op : {OpKind::Sum, OpKind::Max, OpKind::Argmin, OpKind::Any}) {
        if (op == OpKind::Argmin && dims.size() > 1) continue;
        EXPECT_EQ(run(op, {v}, dimsAttr(dims)).toDoubles(),
                  run(op, {c}, dimsAttr(dims)).toDoubles())
            << shapes::opName(op);
      }
      expectValues(run(OpKind::Mean, {v}, dimsAttr(dims, true)),
                   run(OpKind::Mean, {c}, dimsAttr(dims, true)).toDoubles());
    }
  }
}

TEST(Layouts, MatmulSoftmaxCatMatchContiguous) {
  Tensor a = iota({3, 4}), b = iota({5, 4});
  Tensor bt = b.transpose(0, 1);  // a strided [4, 5]
  EXPECT_EQ(run(OpKind::Matmul, {a, bt}).toDoubles(),
            run(OpKind::Matmul, {a, bt.contiguous()}).toDoubles());
  Tensor s = iota({4, 6}).slice(1, 0, 6, 2);
  expectValues(run(OpKind::Softmax, {s}, dimAttr(0)),
               run(OpKind::Softmax, {s.contiguous()}, dimAttr(0)).toDoubles());
  Tensor c = dispatch(OpKind::Cat, std::vector<Tensor>{s, s.transpose(0, 1).transpose(0, 1)},
                      dimAttr(1))[0];
  Tensor cc =
      dispatch(OpKind::Cat, std::vector<Tensor>{s.contiguous(), s.contiguous()}, dimAttr(1))[0];
  EXPECT_EQ(c.toDoubles(), cc.toDoubles());
}

}  // namespace
}  // namespace tessel::backends::testing
