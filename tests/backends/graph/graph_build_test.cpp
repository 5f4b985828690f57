// GraphBuilder and printing: signatures from the shape rules, errors at build time, text form.
#include "backends/graph/fused_program.h"
#include "backends/graph/graph_print.h"
#include "compile_test_util.h"

namespace tessel::graph::testing {
namespace {

Tensor ones(Dims shape) {
  std::vector<float> v(backends::numelOf(shape), 1.0f);
  return Tensor::fromData(std::span<const float>(v), shape);
}

TEST(GraphBuild, SignaturesComeFromShapeRules) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b;  // picks up the installed env
  EXPECT_EQ(b.env(), &env);
  SymInt s0 = dynamicSize(env, "x.shape[0]", 5);
  ValueId x = b.input("x", {s0, 8}, DType::F32);
  ValueId w = b.constant(ones({8}));
  ValueId y = b.op(OpKind::Add, {x, w});
  OpAttrs sum;
  sum.dims = {1};
  ValueId z = b.op(OpKind::Sum, {y}, sum);
  ValueId c = b.op(OpKind::Gt, {z, b.constant(Tensor::scalar(0, DType::I32))});
  b.output(c);
  EXPECT_EQ(shapes::toString(b.shape(y)), "[s0, 8]");
  EXPECT_EQ(shapes::toString(b.shape(z)), "[s0]");
  EXPECT_EQ(b.dtype(c), DType::Bool);
  Graph g = b.build();
  EXPECT_EQ(g.numNodes(), 3u);
  EXPECT_EQ(g.inputs(), std::vector<ValueId>{x});
  EXPECT_EQ(g.outputs(), std::vector<ValueId>{c});
  EXPECT_EQ(g.numSymbols(), 1u);
  EXPECT_EQ(g.toString(),
            "%0: f32[s0, 8] = input x\n"
            "%1: f32[8] = constant [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]\n"
            "%2: f32[s0, 8] = add(%0, %1)\n"
            "%3: f32[s0] = sum(%2, dims=[1])\n"
            "%4: i32[] = constant 0\n"
            "%5: bool[s0] = gt(%3, %4)\n"
            "return %5\n");
}

TEST(GraphBuild, ShapeMismatchIsAShapeErrorAtBuildTimeAndAppendsNothing) {
  ShapeEnv env;
  GraphBuilder b(&env);  // not installed on the thread: the builder installs it per rule
  SymInt s0 = dynamicSize(env, "x.shape[0]", 5);
  ValueId x = b.input("x", {s0, 8}, DType::F32);
  ValueId v = b.input("v", {7}, DType::F32);
  const size_t before = b.size();
  EXPECT_EQ(errorOf([&] { b.op(OpKind::Add, {x, v}); }), ErrorKind::ShapeError);
  ValueId w = b.input("w", {4, 5}, DType::F32);
  EXPECT_EQ(errorOf([&] { b.op(OpKind::Matmul, {x, w}); }), ErrorKind::ShapeError);
  EXPECT_EQ(b.size(), before + 1);
  // Other rule errors keep their kinds: a float mask is a TypeError, a bad dim an IndexError.
  EXPECT_EQ(errorOf([&] { b.op(OpKind::MaskedSelect, {x, x}); }), ErrorKind::TypeError);
  OpAttrs bad;
  bad.dim = 5;
  EXPECT_EQ(errorOf([&] { b.op(OpKind::Softmax, {x}, bad); }), ErrorKind::IndexError);
}

TEST(GraphBuild, SymbolicMismatchBecomesAGuardOrAnError) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b;
  SymInt s0 = dynamicSize(env, "x.shape[0]", 5), s1 = dynamicSize(env, "y.shape[0]", 5);
  SymInt s2 = dynamicSize(env, "z.shape[0]", 6);
  ValueId x = b.input("x", {s0}, DType::F32), y = b.input("y", {s1}, DType::F32);
  ValueId z = b.input("z", {s2}, DType::F32);
  const size_t guardsBefore = env.guards().size();
  ValueId sum = b.op(OpKind::Add, {x, y});  // hints agree: guarded equal
  EXPECT_GT(env.guards().size(), guardsBefore);
  EXPECT_EQ(b.shape(sum).size(), 1u);
  // Hints disagree (5 vs 6): the rule's require fails at trace time.
  EXPECT_EQ(errorOf([&] { b.op(OpKind::Add, {x, z}); }), ErrorKind::ShapeError);
}

TEST(GraphBuild, DataDependentOpsGetUnbackedSizes) {
  ShapeEnv env;
  GraphBuilder b(&env);
  SymInt s0 = dynamicSize(env, "x.shape[0]", 5);
  ValueId x = b.input("x", {s0, 3}, DType::F32);
  ValueId nz = b.op(OpKind::Nonzero, {x});
  ASSERT_EQ(b.shape(nz).size(), 2u);
  EXPECT_TRUE(b.shape(nz)[0].hasUnbacked());
  EXPECT_EQ(b.shape(nz)[0].toString(), "u0");
  EXPECT_EQ(b.shape(nz)[1].maybeConstant(), 2);
  // With the size known (eager callers), no symbol is created.
  OpAttrs known;
  known.outputSize = 4;
  EXPECT_EQ(shapes::toString(b.shape(b.op(OpKind::Unique, {x}, known))), "[4]");
}

TEST(GraphBuild, PrintsAttributesPerOp) {
  ShapeEnv env;
  GraphBuilder b(&env);
  SymInt s0 = dynamicSize(env, "x.shape[0]", 5);
  ValueId x = b.input("x", {s0, 8}, DType::F32);
  OpAttrs sl;
  sl.dim = 0;
  sl.start = SymInt(1);
  sl.stop = s0 - SymInt(1);
  b.output(b.op(OpKind::Slice, {x}, sl));
  OpAttrs rs;
  rs.shape = {s0 * SymInt(2), 4};
  b.output(b.op(OpKind::Reshape, {x}, rs));
  OpAttrs full;
  full.shape = {s0};
  full.scalars = {2.5};
  b.output(b.op(OpKind::Full, {}, full));
  const std::string text = b.build().toString();
  EXPECT_NE(text.find("%1: f32[s0 - 2, 8] = slice(%0, dim=0, start=1, stop=s0 - 1, step=1)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("= reshape(%0, shape=[2*s0, 4])"), std::string::npos) << text;
  EXPECT_NE(text.find("%3: f32[s0] = full(shape=[s0], value=2.5, dtype=f32)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("return %1, %2, %3"), std::string::npos) << text;
}

TEST(GraphBuild, FusedValuesPrintTheirProgram) {
  ShapeEnv env;
  GraphBuilder b(&env);
  SymInt s0 = dynamicSize(env, "x.shape[0]", 5);
  ValueId x = b.input("x", {s0}, DType::F32);
  ValueId two = b.constant(Tensor::scalar(2, DType::F32));
  b.output(b.op(OpKind::Exp, {b.op(OpKind::Mul, {x, two})}));
  CpuGraphExecutor exe(b.build());
  EXPECT_EQ(exe.graph().toString(),
            "%0: f32[s0] = input x\n"
            "%1: f32[s0] = fused(%0) {\n"
            "    $0: f32 = load %0\n"
            "    $1: f32 = 2.0\n"
            "    $2: f32 = mul($0, $1)\n"
            "    $3: f32 = exp($2)\n"
            "  }\n"
            "return %1\n");
  EXPECT_NE(exe.explain().find("stats: nodes 2 -> 1"), std::string::npos) << exe.explain();
}

TEST(GraphBuild, ValueKindsHaveNames) {
  EXPECT_STREQ(valueKindName(ValueKind::Input), "Input");
  EXPECT_STREQ(valueKindName(ValueKind::Fused), "Fused");
  EXPECT_EQ(formatScalar(3, DType::I32), "3");
  EXPECT_EQ(formatScalar(1, DType::Bool), "true");
  EXPECT_EQ(formatType({SymInt(2), SymInt(3)}, DType::F32), "f32[2, 3]");
}

}  // namespace
}  // namespace tessel::graph::testing
