// CpuGraphExecutor: one graph, many sizes; symbol binding from values or from input sizes;
// symbolic attributes; argument errors; data-dependent sizes followed by other ops.
#include "compile_test_util.h"

namespace tessel::graph::testing {
namespace {

// relu(x @ w + b).sum(dims=[1]) with a closed-over weight and bias.
TEST(Executor, OneGraphServesEverySizeItsGuardsAdmit) {
  Env e;
  std::mt19937 rng(5);
  Tensor w = randomTensor(rng, {8, 4}, Fill::Float), bias = randomTensor(rng, {4}, Fill::Float);
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 10);
  ValueId x = e.b.input("x", {s0, 8}, DType::F32);
  ValueId h = e.b.op(
      OpKind::Relu,
      {e.b.op(OpKind::Add, {e.b.op(OpKind::Matmul, {x, e.b.constant(w)}), e.b.constant(bias)})});
  OpAttrs sum;
  sum.dims = {1};
  e.b.output(e.b.op(OpKind::Sum, {h}, sum));
  e.b.output(h);
  CpuGraphExecutor exe(e.b.build());
  shapes::GuardProgram guards = e.env.compileGuards();
  for (int64_t n : {10, 3, 100, 2, 1000}) {
    std::vector<int64_t> src{n};
    ASSERT_TRUE(guards.passes(src));
    Tensor tx = randomTensor(rng, {n, 8}, Fill::Float);
    Tensor eh = eager(OpKind::Relu, {eager(OpKind::Add, {eager(OpKind::Matmul, {tx, w}), bias})});
    std::vector<Tensor> got = exe.run({tx}, guards.bindSymbols(src));
    ASSERT_EQ(got.size(), 2u);
    EXPECT_TRUE(sameTensor(got[0], eager(OpKind::Sum, {eh}, sum), 0));
    EXPECT_TRUE(sameTensor(got[1], eh, 0));
  }
  EXPECT_EQ(exe.runStats().runs, 5u);
}

TEST(Executor, BindsSymbolsFromInputSizesWhenNoValuesAreGiven) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 4), s1 = dynamicSize(e.env, "y.shape[1]", 6);
  ValueId x = e.b.input("x", {s0, 3}, DType::F32);
  ValueId y = e.b.input("y", {3, s1}, DType::F32);
  e.b.output(e.b.op(OpKind::Matmul, {x, y}));
  CpuGraphExecutor exe(e.b.build());
  std::mt19937 rng(1);
  for (auto [n, m] : {std::pair<int64_t, int64_t>{4, 6}, {7, 2}, {50, 33}}) {
    Tensor tx = randomTensor(rng, {n, 3}, Fill::Float), ty = randomTensor(rng, {3, m}, Fill::Float);
    EXPECT_TRUE(sameTensor(exe.run({tx, ty})[0], eager(OpKind::Matmul, {tx, ty}), 0));
  }
}

TEST(Executor, SymbolicAttributesAreEvaluatedPerRun) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 6);
  ValueId x = e.b.input("x", {s0, 8}, DType::F32);
  OpAttrs rs;
  rs.shape = {s0 * SymInt(2), 4};
  ValueId r = e.b.op(OpKind::Reshape, {x}, rs);
  OpAttrs sl;
  sl.dim = 0;
  sl.start = SymInt(1);
  sl.stop = s0;
  ValueId s = e.b.op(OpKind::Slice, {r}, sl);
  OpAttrs ar;
  ar.stop = s0 - SymInt(1);
  ar.dtype = DType::F32;
  ValueId col = e.b.op(OpKind::Reshape, {e.b.op(OpKind::Arange, {}, ar)}, [&] {
    OpAttrs a;
    a.shape = {s0 - SymInt(1), 1};
    return a;
  }());
  e.b.output(e.b.op(OpKind::Mul, {s, col}));
  CpuGraphExecutor exe(e.b.build());
  std::mt19937 rng(2);
  for (int64_t n : {6, 3, 40}) {
    Tensor tx = randomTensor(rng, {n, 8}, Fill::Float);
    OpAttrs ers, esl = sl, ear = ar, ecol;
    ers.shape = {2 * n, 4};
    esl.stop = SymInt(n);
    ear.stop = SymInt(n - 1);
    ecol.shape = {n - 1, 1};
    Tensor want =
        eager(OpKind::Mul, {eager(OpKind::Slice, {eager(OpKind::Reshape, {tx}, ers)}, esl),
                            eager(OpKind::Reshape, {eager(OpKind::Arange, {}, ear)}, ecol)});
    Tensor got = exe.run({tx})[0];
    EXPECT_EQ(got.shape(), (Dims{n - 1, 4}));
    EXPECT_TRUE(sameTensor(got, want, 0));
  }
}

TEST(Executor, ArgumentErrorsAreUserErrors) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 4);
  ValueId x = e.b.input("x", {s0, 8}, DType::F32);
  ValueId y = e.b.input("y", {s0}, DType::F32);
  e.b.output(e.b.op(OpKind::Add, {x, e.b.op(OpKind::Unsqueeze, {y}, [] {
                                    OpAttrs a;
                                    a.dim = 1;
                                    return a;
                                  }())}));
  CpuGraphExecutor exe(e.b.build());
  std::mt19937 rng(3);
  Tensor x5 = randomTensor(rng, {5, 8}, Fill::Float), y5 = randomTensor(rng, {5}, Fill::Float);
  Tensor y6 = randomTensor(rng, {6}, Fill::Float), x57 = randomTensor(rng, {5, 7}, Fill::Float);
  EXPECT_EQ(errorOf([&] { exe.run({x5, y6}); }), ErrorKind::ShapeError);   // s0 disagrees
  EXPECT_EQ(errorOf([&] { exe.run({x57, y5}); }), ErrorKind::ShapeError);  // static 8
  EXPECT_EQ(errorOf([&] { exe.run({x5}); }), ErrorKind::ValueError);       // input count
  EXPECT_EQ(errorOf([&] {
              exe.run({x5, randomTensor(rng, {5}, Fill::Int)});
            }),
            ErrorKind::TypeError);
  // Values given for the symbols must agree with the inputs.
  EXPECT_EQ(errorOf([&] { exe.run({x5, y5}, std::vector<int64_t>{6}); }), ErrorKind::ShapeError);
  try {
    exe.run({x5, y6});
  } catch (const UserError& err) {
    EXPECT_EQ(std::string(err.what()), "graph input y: expected shape [s0], got [6]");
  }
  EXPECT_EQ(errorOf([&] { exe.run({x5, y5}); }), ErrorKind::Interrupted);  // still usable
}

TEST(Executor, SymbolsThatNoSizeBindsMustBePassed) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 4);
  ValueId x = e.b.input("x", {s0 * SymInt(2)}, DType::F32);  // 2*s0 cannot bind s0
  e.b.output(e.b.op(OpKind::Neg, {x}));
  CpuGraphExecutor exe(e.b.build());
  Tensor t = Tensor::fromData(std::vector<float>{1, 2, 3, 4, 5, 6}, {6});
  EXPECT_EQ(errorOf([&] { exe.run({t}); }), ErrorKind::ValueError);
  EXPECT_TRUE(sameTensor(exe.run({t}, std::vector<int64_t>{3})[0], eager(OpKind::Neg, {t}), 0));
}

TEST(Executor, OutputsMayBeInputsConstantsOrRepeated) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 4);
  ValueId x = e.b.input("x", {s0}, DType::F32);
  ValueId c = e.b.constant(Tensor::scalar(3, DType::I32));
  ValueId n = e.b.op(OpKind::Neg, {x});
  for (ValueId v : {x, c, n, n}) e.b.output(v);
  CpuGraphExecutor exe(e.b.build());
  Tensor t = Tensor::fromData(std::vector<float>{1, 2, 3}, {3});
  std::vector<Tensor> got = exe.run({t});
  ASSERT_EQ(got.size(), 4u);
  EXPECT_TRUE(sameTensor(got[0], t, 0));
  EXPECT_EQ(got[1].item(), 3);
  EXPECT_TRUE(sameTensor(got[2], eager(OpKind::Neg, {t}), 0));
  EXPECT_EQ(got[2].id(), got[3].id());
}

TEST(Executor, ViewsAllocateNothingAndIntermediatesAreReleased) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 4);
  ValueId x = e.b.input("x", {s0, 6}, DType::F32);
  OpAttrs t;
  t.dims = {0, 1};
  ValueId v = e.b.op(OpKind::Transpose, {x}, t);
  OpAttrs sum;
  sum.dims = {0};
  e.b.output(e.b.op(OpKind::Sum, {e.b.op(OpKind::Exp, {v})}, sum));
  CpuGraphExecutor exe(e.b.build());
  Tensor tx = randomTensor(*std::make_unique<std::mt19937>(4), {9, 6}, Fill::Float);
  Tensor want = eager(OpKind::Sum, {eager(OpKind::Exp, {eager(OpKind::Transpose, {tx}, t)})}, sum);
  EXPECT_TRUE(sameTensor(exe.run({tx})[0], want, 1e-6));
  EXPECT_EQ(exe.runStats().kernelCalls, 3u);
  EXPECT_EQ(exe.runStats().allocations, 2u);  // exp and sum; the transpose is a view
}

// masked_select gives an unbacked size u0; the ops after it run on [u0]-shaped data.
TEST(DataDependent, UnbackedSizesBindAtRunTimeAndFeedLaterOps) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 10);
  ValueId x = e.b.input("x", {s0}, DType::F32);
  ValueId mask = e.b.op(OpKind::Gt, {x, e.b.constant(Tensor::scalar(0, DType::F32))});
  ValueId sel = e.b.op(OpKind::MaskedSelect, {x, mask});
  ValueId y = e.b.op(OpKind::Exp,
                     {e.b.op(OpKind::Mul, {sel, e.b.constant(Tensor::scalar(2, DType::F32))})});
  OpAttrs ar;  // arange(u0): a symbolic attribute with an unbacked symbol
  ar.stop = e.b.shape(sel)[0];
  ar.dtype = DType::F32;
  ValueId z = e.b.op(OpKind::Add, {y, e.b.op(OpKind::Arange, {}, ar)});
  e.b.output(z);
  e.b.output(e.b.op(OpKind::Sum, {z}));
  CpuGraphExecutor exe(e.b.build());
  EXPECT_NE(exe.graph().toString().find("f32[u0] = masked_select"), std::string::npos);
  std::mt19937 rng(9);
  for (int64_t n : {10, 3, 257}) {
    Tensor tx = randomTensor(rng, {n}, Fill::Float);
    Tensor es =
        eager(OpKind::MaskedSelect, {tx, eager(OpKind::Gt, {tx, Tensor::scalar(0, DType::F32)})});
    OpAttrs ear;
    ear.stop = SymInt(es.numel());
    ear.dtype = DType::F32;
    Tensor ez = eager(
        OpKind::Add, {eager(OpKind::Exp, {eager(OpKind::Mul, {es, Tensor::scalar(2, DType::F32)})}),
                      eager(OpKind::Arange, {}, ear)});
    std::vector<Tensor> got = exe.run({tx});
    EXPECT_TRUE(sameTensor(got[0], ez, 0));
    EXPECT_TRUE(sameTensor(got[1], eager(OpKind::Sum, {ez}), 0));
  }
  // Everything selected and nothing selected.
  Tensor neg = Tensor::fromData(std::vector<float>{-1, -2, -3}, {3});
  EXPECT_EQ(exe.run({neg})[0].shape(), Dims{0});
}

TEST(DataDependent, RuntimeAssertsCheckUnbackedSizesAgainstEachOther) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 6);
  ValueId x = e.b.input("x", {s0}, DType::F32);
  ValueId m1 = e.b.input("m1", {s0}, DType::Bool), m2 = e.b.input("m2", {s0}, DType::Bool);
  ValueId a = e.b.op(OpKind::MaskedSelect, {x, m1});
  ValueId b = e.b.op(OpKind::MaskedSelect, {x, m2});
  e.b.output(e.b.op(OpKind::Add, {a, b}));  // [u0] + [u1]: u0 == u1 is checked at run time
  Graph g = e.b.build();
  // u0 <= s0 and u1 <= s0 from the ops' ranges, and u0 == u1 from the broadcast.
  ASSERT_EQ(g.runtimeAsserts().size(), 3u) << g.toString();
  EXPECT_NE(g.toString().find("runtime_assert u0 == u1"), std::string::npos) << g.toString();
  CpuGraphExecutor exe(g);
  Tensor tx = Tensor::fromData(std::vector<float>{1, 2, 3, 4, 5, 6}, {6});
  Tensor ma = Tensor::fromBools({1, 0, 1, 0, 1, 0}, {6}),
         mb = Tensor::fromBools({0, 1, 0, 1, 0, 1}, {6});
  Tensor mc = Tensor::fromBools({1, 1, 1, 1, 0, 0}, {6});
  EXPECT_TRUE(
      sameTensor(exe.run({tx, ma, mb})[0], Tensor::fromData(std::vector<float>{3, 7, 11}, {3}), 0));
  // The failure is the broadcast's own error, as eager gives it.
  EXPECT_EQ(errorOf([&] { exe.run({tx, ma, mc}); }), ErrorKind::ShapeError);
  EXPECT_EQ(errorOf([&] {
              eager(OpKind::Add,
                    {eager(OpKind::MaskedSelect, {tx, ma}), eager(OpKind::MaskedSelect, {tx, mc})});
            }),
            ErrorKind::ShapeError);
}

TEST(DataDependent, NonzeroAndUniqueFollowedByIndexingOps) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 5), s1 = dynamicSize(e.env, "x.shape[1]", 4);
  ValueId x = e.b.input("x", {s0, s1}, DType::I32);
  ValueId nz = e.b.op(OpKind::Nonzero, {x});  // [u0, 2]
  OpAttrs col;
  col.dim = 1;
  col.index = 0;
  ValueId rows = e.b.op(OpKind::Select, {nz}, col);  // [u0]
  OpAttrs d0;
  d0.dim = 0;
  ValueId picked = e.b.op(OpKind::IndexSelect, {x, rows}, d0);  // [u0, s1]
  ValueId uniq = e.b.op(OpKind::Unique, {picked});              // [u1]
  e.b.output(picked);
  e.b.output(e.b.op(OpKind::Neg, {uniq}));
  CpuGraphExecutor exe(e.b.build());
  std::mt19937 rng(11);
  for (auto [n, m] : {std::pair<int64_t, int64_t>{5, 4}, {2, 9}, {30, 3}}) {
    Tensor tx = randomTensor(rng, {n, m}, Fill::Int);
    Tensor enz = eager(OpKind::Nonzero, {tx});
    Tensor ep = eager(OpKind::IndexSelect, {tx, eager(OpKind::Select, {enz}, col)}, d0);
    std::vector<Tensor> got = exe.run({tx});
    EXPECT_TRUE(sameTensor(got[0], ep, 0));
    EXPECT_TRUE(sameTensor(got[1], eager(OpKind::Neg, {eager(OpKind::Unique, {ep})}), 0));
  }
}

}  // namespace
}  // namespace tessel::graph::testing
