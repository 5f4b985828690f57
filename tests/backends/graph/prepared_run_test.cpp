// CpuGraphExecutor::prepare (Note [Prepared runs]): which graphs get a prepared run, that it
// accepts only inputs laid out as it was prepared for, and that its results equal run()'s.
#include "compile_test_util.h"

namespace tessel::graph::testing {
namespace {

// a * b + c over static [2, 3] inputs: one fused step.
Graph fusedBody(Env& e) {
  ValueId a = e.b.input("a", {2, 3}, DType::F32);
  ValueId b = e.b.input("b", {2, 3}, DType::F32);
  ValueId c = e.b.input("c", {2, 3}, DType::F32);
  e.b.output(e.b.op(OpKind::Add, {e.b.op(OpKind::Mul, {a, b}), c}));
  return e.b.build();
}

TEST(PreparedRun, AOneKernelStaticGraphRunsAsRunDoes) {
  Env e;
  CpuGraphExecutor exe(fusedBody(e));
  ASSERT_EQ(exe.graph().numNodes(), 1u);
  std::mt19937 rng(3);
  std::vector<Tensor> in;
  for (int i = 0; i < 3; ++i) in.push_back(randomTensor(rng, {2, 3}, Fill::Float));
  std::unique_ptr<PreparedRun> prepared = exe.prepare(in);
  ASSERT_NE(prepared, nullptr);
  for (int call = 0; call < 3; ++call) {
    std::vector<Tensor> now;
    for (int i = 0; i < 3; ++i) now.push_back(randomTensor(rng, {2, 3}, Fill::Float));
    ASSERT_TRUE(prepared->accepts(now));
    std::vector<Tensor> outs;
    prepared->run(now, outs);
    ASSERT_EQ(outs.size(), 1u);
    EXPECT_TRUE(sameTensor(outs[0], exe.run(now)[0], 0));
    EXPECT_TRUE(
        sameTensor(outs[0], eager(OpKind::Add, {eager(OpKind::Mul, {now[0], now[1]}), now[2]}), 0));
  }
}

TEST(PreparedRun, AcceptsOnlyTheShapesDtypesAndStridesItWasPreparedFor) {
  Env e;
  CpuGraphExecutor exe(fusedBody(e));
  std::mt19937 rng(4);
  std::vector<Tensor> in;
  for (int i = 0; i < 3; ++i) in.push_back(randomTensor(rng, {2, 3}, Fill::Float));
  std::unique_ptr<PreparedRun> prepared = exe.prepare(in);
  ASSERT_NE(prepared, nullptr);
  // A transposed [3, 2] tensor seen as [2, 3]: the same shape, other strides.
  std::vector<Tensor> strided = in;
  strided[1] = randomTensor(rng, {3, 2}, Fill::Float).transpose(0, 1);
  EXPECT_FALSE(prepared->accepts(strided));
  std::vector<Tensor> wider = in;
  wider[2] = randomTensor(rng, {2, 4}, Fill::Float);
  EXPECT_FALSE(prepared->accepts(wider));
  std::vector<Tensor> ints = in;
  ints[0] = randomTensor(rng, {2, 3}, Fill::Int);
  EXPECT_FALSE(prepared->accepts(ints));
  EXPECT_FALSE(prepared->accepts(std::span<const Tensor>(in).first(2)));
  // Prepared for the strided layout, it computes with those strides.
  std::unique_ptr<PreparedRun> forStrided = exe.prepare(strided);
  ASSERT_NE(forStrided, nullptr);
  ASSERT_TRUE(forStrided->accepts(strided));
  std::vector<Tensor> outs;
  forStrided->run(strided, outs);
  EXPECT_TRUE(sameTensor(outs[0], exe.run(strided)[0], 0));
}

TEST(PreparedRun, SymbolicSizesArePinnedByThePreparedInputs) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 4);
  ValueId x = e.b.input("x", {s0, 2}, DType::F32);
  OpAttrs rs;
  rs.shape = {s0 * SymInt(2)};
  e.b.output(e.b.op(OpKind::Reshape, {x}, rs));
  CpuGraphExecutor exe(e.b.build());
  std::mt19937 rng(5);
  std::vector<Tensor> four = {randomTensor(rng, {4, 2}, Fill::Float)};
  std::unique_ptr<PreparedRun> prepared = exe.prepare(four);
  ASSERT_NE(prepared, nullptr);
  std::vector<Tensor> five = {randomTensor(rng, {5, 2}, Fill::Float)};
  EXPECT_FALSE(prepared->accepts(five));
  std::vector<Tensor> again = {randomTensor(rng, {4, 2}, Fill::Float)};
  ASSERT_TRUE(prepared->accepts(again));
  std::vector<Tensor> outs;
  prepared->run(again, outs);
  EXPECT_TRUE(sameTensor(outs[0], exe.run(again)[0], 0));
  EXPECT_EQ(outs[0].shape(), Dims({8}));
}

TEST(PreparedRun, ASymbolTheInputsDoNotBindGetsNone) {
  Env e;
  // n comes with the call (an int argument): inputs of one size may meet several values of it.
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 12), n = dynamicSize(e.env, "n", 3);
  ValueId x = e.b.input("x", {s0}, DType::F32);
  OpAttrs rs;
  rs.shape = {n, -1};
  e.b.output(e.b.op(OpKind::Reshape, {x}, rs));
  CpuGraphExecutor exe(e.b.build());
  std::mt19937 rng(8);
  std::vector<Tensor> in = {randomTensor(rng, {12}, Fill::Float)};
  EXPECT_EQ(exe.prepare(in), nullptr);
}

TEST(PreparedRun, GraphsOfSeveralStepsHaveNone) {
  Env e;
  ValueId x = e.b.input("x", {4, 4}, DType::F32);
  ValueId m = e.b.op(OpKind::Matmul, {x, x});
  e.b.output(e.b.op(OpKind::Exp, {m}));
  CpuGraphExecutor exe(e.b.build());
  ASSERT_EQ(exe.graph().numNodes(), 2u);
  std::mt19937 rng(6);
  std::vector<Tensor> in = {randomTensor(rng, {4, 4}, Fill::Float)};
  EXPECT_EQ(exe.prepare(in), nullptr);
}

TEST(PreparedRun, OutputsMayBeInputsAndStepsMayTakeThemInAnyOrder) {
  Env e;
  ValueId a = e.b.input("a", {3}, DType::F32);
  ValueId b = e.b.input("b", {3}, DType::F32);
  e.b.output(e.b.op(OpKind::Sub, {b, a}));
  e.b.output(a);
  CpuGraphExecutor exe(e.b.build());
  std::mt19937 rng(7);
  std::vector<Tensor> in = {randomTensor(rng, {3}, Fill::Float),
                            randomTensor(rng, {3}, Fill::Float)};
  std::unique_ptr<PreparedRun> prepared = exe.prepare(in);
  ASSERT_NE(prepared, nullptr);
  std::vector<Tensor> outs;
  prepared->run(in, outs);
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_TRUE(sameTensor(outs[0], eager(OpKind::Sub, {in[1], in[0]}), 0));
  EXPECT_EQ(outs[1].id(), in[0].id());
  EXPECT_EQ(exe.runStats().allocations, 1u);
}

}  // namespace
}  // namespace tessel::graph::testing
