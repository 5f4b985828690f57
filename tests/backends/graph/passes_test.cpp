// The passes: dead-code elimination, constant folding and elementwise fusion, each checked
// for what it removes and for results equal to eager execution.
#include "backends/graph/constant_folding.h"
#include "backends/graph/dead_code.h"
#include "backends/graph/elementwise_fusion.h"
#include "backends/graph/fused_program.h"
#include "backends/graph/zero_padded_cats.h"
#include "backends/rng.h"
#include "compile_test_util.h"

namespace tessel::graph::testing {
namespace {

size_t countKind(const Graph& g, ValueKind k) {
  size_t n = 0;
  for (const Value& v : g.values()) n += v.kind == k ? 1 : 0;
  return n;
}

TEST(DeadCode, RemovesValuesNoOutputNeeds) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 5);
  ValueId x = e.b.input("x", {s0}, DType::F32);
  ValueId unusedInput = e.b.input("y", {s0}, DType::F32);
  ValueId dead1 = e.b.op(OpKind::Exp, {x});
  e.b.op(OpKind::Sin, {dead1});
  ValueId live = e.b.op(OpKind::Neg, {x});
  e.b.output(live);
  Graph g = eliminateDeadCode(e.b.build());
  EXPECT_EQ(g.numNodes(), 1u);
  EXPECT_EQ(g.inputs().size(), 2u);  // the call signature stays
  EXPECT_EQ(g.value(g.inputs()[1]).name, "y");
  EXPECT_EQ(g.value(g.outputs()[0]).op, OpKind::Neg);
  (void)unusedInput;
}

TEST(DeadCode, KeepsRandomOpsSoTheRandomStreamMatchesEager) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 5);
  OpAttrs shape;
  shape.shape = {s0};
  e.b.op(OpKind::Rand, {}, shape);  // dead, but it advances the stream
  e.b.output(e.b.op(OpKind::Randn, {}, shape));
  CpuGraphExecutor exe(e.b.build());
  EXPECT_EQ(exe.graph().numNodes(), 2u);
  for (int64_t n : {5, 9}) {
    backends::seed(3);
    OpAttrs a;
    a.shape = {n};
    eager(OpKind::Rand, {}, a);
    Tensor want = eager(OpKind::Randn, {}, a);
    backends::seed(3);
    EXPECT_TRUE(sameTensor(exe.run({}, std::vector<int64_t>{n})[0], want, 0));
  }
}

TEST(DeadCode, KeepsTheProducerOfAnUnbackedSizeALiveValueReads) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 5);
  ValueId x = e.b.input("x", {s0}, DType::F32);
  ValueId nz = e.b.op(OpKind::Nonzero, {x});  // its output is not used, its size is
  OpAttrs full;
  full.shape = {e.b.shape(nz)[0]};
  full.scalars = {1};
  e.b.output(e.b.op(OpKind::Full, {}, full));
  CpuGraphExecutor exe(e.b.build());
  EXPECT_EQ(exe.graph().numNodes(), 2u);
  Tensor in = Tensor::fromData(std::vector<float>{0, 1, 2, 0, 3, 4, 0}, {7});
  EXPECT_EQ(exe.run({in})[0].shape(), Dims{4});
}

TEST(ConstantFolding, FoldsOpsOnConstantsWithTheEagerKernels) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 5);
  ValueId x = e.b.input("x", {s0, 3}, DType::F32);
  // A closed-over weight, transposed and scaled at trace time: all constant work.
  Tensor w = Tensor::fromData(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  OpAttrs t;
  t.dims = {0, 1};
  ValueId wt = e.b.op(OpKind::Transpose, {e.b.constant(w)}, t);
  ValueId scaled = e.b.op(OpKind::Mul, {wt, e.b.constant(Tensor::scalar(0.5, DType::F32))});
  OpAttrs full;
  full.shape = {2};
  full.scalars = {1};
  ValueId bias = e.b.op(OpKind::Full, {}, full);
  ValueId y = e.b.op(OpKind::Add, {e.b.op(OpKind::Matmul, {x, scaled}), bias});
  e.b.output(y);
  Graph g = e.b.build();
  Graph folded = foldConstants(g);
  EXPECT_EQ(folded.numNodes(), 2u);  // matmul, add
  CpuGraphExecutor exe(g);
  EXPECT_EQ(exe.stats().constantsFolded, 3u);
  EXPECT_EQ(exe.graph().numNodes(), 2u);
  EXPECT_EQ(countKind(exe.graph(), ValueKind::Constant), 2u);  // folded weight and bias only
  for (int64_t n : {5, 11}) {
    std::mt19937 rng(n);
    Tensor in = randomTensor(rng, {n, 3}, Fill::Float);
    OpAttrs ones;
    ones.shape = {2};
    ones.scalars = {1};
    Tensor want =
        eager(OpKind::Add,
              {eager(OpKind::Matmul, {in, eager(OpKind::Mul, {eager(OpKind::Transpose, {w}, t),
                                                              Tensor::scalar(0.5, DType::F32)})}),
               eager(OpKind::Full, {}, ones)});
    EXPECT_TRUE(sameTensor(exe.run({in})[0], want, 0));
  }
}

TEST(ConstantFolding, LeavesRandomSymbolicHugeAndFailingOpsAlone) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 5);
  OpAttrs r;
  r.shape = {3};
  ValueId rnd = e.b.op(OpKind::Rand, {}, r);  // random: never folded
  OpAttrs big;
  big.shape = {1000, 1000};
  ValueId huge = e.b.op(OpKind::Full, {}, big);  // would become a 4 MB constant
  OpAttrs sym;
  sym.shape = {s0};
  ValueId symbolic = e.b.op(OpKind::Full, {}, sym);  // symbolic size
  ValueId zero = e.b.constant(Tensor::scalar(0, DType::I32));
  ValueId bad = e.b.op(OpKind::FloorDiv, {e.b.constant(Tensor::scalar(4, DType::I32)), zero});
  for (ValueId v : {rnd, huge, symbolic, bad}) e.b.output(v);
  Graph g = foldConstants(e.b.build());
  EXPECT_EQ(g.numNodes(), 4u);
  // The division by zero surfaces when the graph runs, as it would eagerly.
  CpuGraphExecutor exe(g);
  EXPECT_EQ(errorOf([&] { exe.run({}, std::vector<int64_t>{5}); }), ErrorKind::ZeroDivisionError);
}

// A chain of 20 elementwise ops over [s0, 16] with a broadcast row and a scalar.
Graph chain20(Env& e, ValueId* xOut = nullptr) {
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 64);
  ValueId x = e.b.input("x", {s0, 16}, DType::F32);
  ValueId row = e.b.input("row", {16}, DType::F32);
  ValueId half = e.b.constant(Tensor::scalar(0.5, DType::F32));
  ValueId v = x;
  const OpKind ops[] = {OpKind::Mul, OpKind::Add, OpKind::Tanh, OpKind::Sub, OpKind::Exp};
  for (int i = 0; i < 20; ++i) {
    OpKind op = ops[i % 5];
    if (shapes::opCategory(op) == shapes::OpCategory::Unary)
      v = e.b.op(op, {v});
    else
      v = e.b.op(op, {v, i % 2 ? row : half});
  }
  e.b.output(v);
  if (xOut) *xOut = x;
  return e.b.build();
}

Tensor eagerChain20(const Tensor& x, const Tensor& row) {
  Tensor half = Tensor::scalar(0.5, DType::F32);
  Tensor v = x;
  const OpKind ops[] = {OpKind::Mul, OpKind::Add, OpKind::Tanh, OpKind::Sub, OpKind::Exp};
  for (int i = 0; i < 20; ++i) {
    OpKind op = ops[i % 5];
    v = shapes::opCategory(op) == shapes::OpCategory::Unary ? eager(op, {v})
                                                            : eager(op, {v, i % 2 ? row : half});
  }
  return v;
}

TEST(Fusion, ATwentyOpChainBecomesOneNodeAndOneAllocation) {
  Env e;
  Graph g = chain20(e);
  CompileOptions off;
  off.fusion = false;
  CpuGraphExecutor plain(g, off), fused(g);
  EXPECT_EQ(plain.graph().numNodes(), 20u);
  EXPECT_EQ(fused.graph().numNodes(), 1u);
  EXPECT_EQ(fused.stats().fusedGroups, 1u);
  EXPECT_EQ(fused.stats().fusedOps, 20u);
  for (int64_t n : {64, 3, 1000}) {
    std::mt19937 rng(n);
    Tensor x = randomTensor(rng, {n, 16}, Fill::Float), row = randomTensor(rng, {16}, Fill::Float);
    Tensor want = eagerChain20(x, row);
    EXPECT_TRUE(sameTensor(plain.run({x, row})[0], want, 0));
    EXPECT_TRUE(sameTensor(fused.run({x, row})[0], want, 0));
    EXPECT_EQ(plain.runStats().allocations, 20u);
    EXPECT_EQ(fused.runStats().allocations, 1u);
    EXPECT_EQ(fused.runStats().bytesAllocated, uint64_t(n) * 16 * 4);
  }
  // A long chain needs only a few registers (they are reused).
  CpuFusedKernel k(fused.graph().value(fused.graph().outputs()[0]).fused);
  EXPECT_LE(k.numFloatRegs(), 6);
}

TEST(Fusion, FusesDagsWithSharedOperandsAndMixedDtypes) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 7), s1 = dynamicSize(e.env, "x.shape[1]", 5);
  ValueId x = e.b.input("x", {s0, s1}, DType::F32);
  ValueId k = e.b.input("k", {s0, s1}, DType::I32);
  ValueId m = e.b.input("m", {s0, 1}, DType::Bool);
  ValueId a = e.b.op(OpKind::Exp, {x});
  ValueId bsum = e.b.op(OpKind::Add, {a, k});      // f32 + i32
  ValueId c = e.b.op(OpKind::Gt, {bsum, a});       // bool, a used twice
  ValueId d = e.b.op(OpKind::LogicalAnd, {c, m});  // broadcast bool
  ValueId w = e.b.op(OpKind::Where, {d, bsum, k});
  OpAttrs toInt;
  toInt.dtype = DType::I32;
  ValueId out = e.b.op(
      OpKind::Mod, {e.b.op(OpKind::Cast, {w}, toInt), e.b.constant(Tensor::scalar(3, DType::I32))});
  e.b.output(out);
  CpuGraphExecutor exe(e.b.build());
  EXPECT_EQ(exe.graph().numNodes(), 1u) << exe.explain();
  for (auto [n0, n1] : {std::pair<int64_t, int64_t>{7, 5}, {33, 17}, {2, 600}}) {
    std::mt19937 rng(n0 * n1);
    Tensor tx = randomTensor(rng, {n0, n1}, Fill::Float),
           tk = randomTensor(rng, {n0, n1}, Fill::Int);
    Tensor tm = randomTensor(rng, {n0, 1}, Fill::Bool);
    Tensor ea = eager(OpKind::Exp, {tx});
    Tensor eb = eager(OpKind::Add, {ea, tk});
    Tensor ed = eager(OpKind::LogicalAnd, {eager(OpKind::Gt, {eb, ea}), tm});
    Tensor ew = eager(OpKind::Where, {ed, eb, tk});
    Tensor want =
        eager(OpKind::Mod, {eager(OpKind::Cast, {ew}, toInt), Tensor::scalar(3, DType::I32)});
    EXPECT_TRUE(sameTensor(exe.run({tx, tk, tm})[0], want, 0));
  }
}

TEST(Fusion, StopsAtValuesUsedOutsideAndAtBroadcastProducers) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 6);
  ValueId x = e.b.input("x", {s0, 8}, DType::F32);
  ValueId row = e.b.input("row", {8}, DType::F32);
  ValueId er = e.b.op(OpKind::Sin, {e.b.op(OpKind::Exp, {row})});  // [8]: broadcast later
  ValueId t = e.b.op(OpKind::Mul, {e.b.op(OpKind::Add, {x, er}), x});
  OpAttrs sum;
  sum.dims = {1};
  ValueId s = e.b.op(OpKind::Sum, {t}, sum);  // t is used by a reduction and is an output
  ValueId u = e.b.op(OpKind::Neg, {e.b.op(OpKind::Relu, {t})});
  e.b.output(s);
  e.b.output(u);
  e.b.output(t);
  CpuGraphExecutor exe(e.b.build());
  // {exp, sin} on [8], {add, mul} producing t, {relu, neg}: three groups, plus the sum.
  EXPECT_EQ(exe.stats().fusedGroups, 3u) << exe.explain();
  EXPECT_EQ(exe.graph().numNodes(), 4u) << exe.explain();
  std::mt19937 rng(1);
  Tensor tx = randomTensor(rng, {6, 8}, Fill::Float), tr = randomTensor(rng, {8}, Fill::Float);
  Tensor et = eager(OpKind::Mul,
                    {eager(OpKind::Add, {tx, eager(OpKind::Sin, {eager(OpKind::Exp, {tr})})}), tx});
  std::vector<Tensor> got = exe.run({tx, tr});
  EXPECT_TRUE(sameTensor(got[0], eager(OpKind::Sum, {et}, sum), 0));
  EXPECT_TRUE(sameTensor(got[1], eager(OpKind::Neg, {eager(OpKind::Relu, {et})}), 0));
  EXPECT_TRUE(sameTensor(got[2], et, 0));
}

TEST(Fusion, HandlesStridedInputsAndTilesThatCrossRows) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 37), s1 = dynamicSize(e.env, "x.shape[1]", 19);
  ValueId x = e.b.input("x", {s0, s1}, DType::F32);
  ValueId col = e.b.input("col", {s0, 1}, DType::F32);
  ValueId y = e.b.input("y", {s1, s0}, DType::F32);
  OpAttrs t;
  t.dims = {0, 1};
  ValueId yt = e.b.op(OpKind::Transpose, {y}, t);  // a strided view
  ValueId two = e.b.constant(Tensor::scalar(2, DType::F32));
  ValueId r = e.b.op(OpKind::Pow, {e.b.op(OpKind::Sub, {e.b.op(OpKind::Mul, {x, col}), yt}), two});
  e.b.output(r);
  CpuGraphExecutor exe(e.b.build());
  EXPECT_EQ(exe.stats().fusedGroups, 1u);
  for (auto [n0, n1] : {std::pair<int64_t, int64_t>{37, 19}, {3, 700}, {600, 3}, {2, 2}}) {
    std::mt19937 rng(n0 + n1);
    Tensor tx = randomTensor(rng, {n0, n1}, Fill::Float),
           tc = randomTensor(rng, {n0, 1}, Fill::Float);
    Tensor ty = randomTensor(rng, {n1, n0}, Fill::Float);
    Tensor want = eager(
        OpKind::Pow,
        {eager(OpKind::Sub, {eager(OpKind::Mul, {tx, tc}), eager(OpKind::Transpose, {ty}, t)}),
         Tensor::scalar(2, DType::F32)});
    EXPECT_TRUE(sameTensor(exe.run({tx, tc, ty})[0], want, 0));
  }
}

TEST(Fusion, IntegerDivisionByZeroRaisesLikeEager) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 5);
  ValueId a = e.b.input("a", {s0}, DType::I32), b = e.b.input("b", {s0}, DType::I32);
  e.b.output(e.b.op(OpKind::Neg, {e.b.op(OpKind::FloorDiv, {e.b.op(OpKind::Abs, {a}), b})}));
  CpuGraphExecutor exe(e.b.build());
  EXPECT_EQ(exe.stats().fusedGroups, 1u);
  Tensor ta = Tensor::fromData(std::vector<int32_t>{1, 2, 3, 4, 5}, {5});
  Tensor tb = Tensor::fromData(std::vector<int32_t>{1, 2, 0, 4, 5}, {5});
  EXPECT_EQ(errorOf([&] { eager(OpKind::FloorDiv, {ta, tb}); }), ErrorKind::ZeroDivisionError);
  EXPECT_EQ(errorOf([&] { exe.run({ta, tb}); }), ErrorKind::ZeroDivisionError);
  Tensor ok = Tensor::fromData(std::vector<int32_t>{-2, 2, 3, -4, 5}, {5});
  EXPECT_TRUE(
      sameTensor(exe.run({ta, ok})[0],
                 eager(OpKind::Neg, {eager(OpKind::FloorDiv, {eager(OpKind::Abs, {ta}), ok})}), 0));
}

TEST(Fusion, PassesCanBeTurnedOff) {
  Env e;
  Graph g = chain20(e);
  CompileOptions none;
  none.deadCode = none.constantFolding = none.zeroPaddedCats = none.fusion = false;
  CpuGraphExecutor exe(g, none);
  EXPECT_TRUE(exe.stats().passes.empty());
  EXPECT_EQ(exe.graph().numNodes(), 20u);
  Graph direct = fuseElementwise(g);
  EXPECT_EQ(direct.numNodes(), 1u);
  EXPECT_EQ(countKind(direct, ValueKind::Constant), 1u);  // inlined, dead, not yet removed
  EXPECT_EQ(countKind(eliminateDeadCode(direct), ValueKind::Constant), 0u);
}

// The gradient of three selects of one value (a transformer's q, k and v): each is zeros with
// the part's gradient in its place, and their sum is the cat of the parts.
TEST(ZeroPaddedCats, ASumOfSelectGradientsBecomesOneCat) {
  Env e;
  SymInt s0 = dynamicSize(e.env, "x.shape[0]", 3);
  std::vector<ValueId> parts;
  for (const char* name : {"a", "b", "c"}) parts.push_back(e.b.input(name, {1, s0, 2}, DType::F32));
  auto zeros = [&](int64_t n) {
    OpAttrs f;
    f.shape = {n, s0, 2};
    f.scalars = {0.0};
    return e.b.op(OpKind::Full, {}, f);
  };
  OpAttrs cat0;
  cat0.dim = 0;
  ValueId ga = e.b.op(OpKind::Cat, {parts[0], zeros(2)}, cat0);
  ValueId gb = e.b.op(OpKind::Cat, {zeros(1), parts[1], zeros(1)}, cat0);
  ValueId gc = e.b.op(OpKind::Cat, {zeros(2), parts[2]}, cat0);
  e.b.output(e.b.op(OpKind::Add, {e.b.op(OpKind::Add, {ga, gb}), gc}));
  Graph g = e.b.build();
  CpuGraphExecutor exe(g);
  EXPECT_EQ(exe.graph().numNodes(), 1u) << exe.graph().toString();
  const Value& out = exe.graph().value(exe.graph().outputs()[0]);
  EXPECT_EQ(out.op, OpKind::Cat);
  EXPECT_EQ(out.args.size(), 3u);
  CompileOptions off;
  off.zeroPaddedCats = false;
  CpuGraphExecutor plain(g, off);
  std::mt19937 rng(5);
  for (int64_t n : {3, 1, 6}) {
    std::vector<Tensor> in;
    for (int i = 0; i < 3; ++i) in.push_back(randomTensor(rng, {1, n, 2}, Fill::Float));
    Tensor want = plain.run(in)[0];
    EXPECT_EQ(want.shape(), (Dims{3, n, 2}));
    EXPECT_TRUE(sameTensor(exe.run(in)[0], want, 0));
  }
}

// Where both sides have a part that is not zeros at one position, or the cats run along
// different dims, the add stays.
TEST(ZeroPaddedCats, KeepsSumsWhosePartsOverlap) {
  Env e;
  ValueId a = e.b.input("a", {2, 3}, DType::F32);
  ValueId b = e.b.input("b", {2, 3}, DType::F32);
  OpAttrs f;
  f.shape = {1, 3};
  f.scalars = {0.0};
  OpAttrs cat0;
  cat0.dim = 0;
  ValueId x = e.b.op(OpKind::Cat, {a, e.b.op(OpKind::Full, {}, f)}, cat0);  // [a; 0]
  ValueId y = e.b.op(OpKind::Cat, {e.b.op(OpKind::Full, {}, f), b}, cat0);  // [0; b]
  e.b.output(e.b.op(OpKind::Add, {x, y}));  // rows 1: a[1] + b[0]
  Graph g = sumZeroPaddedCats(e.b.build());
  size_t adds = 0;
  for (const Value& v : g.values()) adds += v.kind == ValueKind::Op && v.op == OpKind::Add;
  EXPECT_EQ(adds, 1u);
}

TEST(CompileStats, RecordsPassTimingsAndNodeCounts) {
  Env e;
  Graph g = chain20(e);
  CpuGraphExecutor exe(g);
  const CompileStats& s = exe.stats();
  EXPECT_EQ(s.nodesBefore, 20u);
  EXPECT_EQ(s.nodesAfter, 1u);
  ASSERT_GE(s.passes.size(), 4u);
  EXPECT_EQ(s.passes[0].name, "dce");
  EXPECT_EQ(s.passes[1].name, "constant_folding");
  EXPECT_EQ(s.passes[2].name, "zero_padded_cats");
  EXPECT_EQ(s.passes[3].name, "fusion");
  EXPECT_EQ(s.passes[3].nodesBefore, 20u);
  EXPECT_EQ(s.passes[3].nodesAfter, 1u);
  for (const PassStats& p : s.passes) EXPECT_GE(p.ms, 0.0);
  EXPECT_GE(s.passesMs, 0.0);
  const std::string text = s.toString();
  EXPECT_NE(text.find("nodes 20 -> 1"), std::string::npos) << text;
  EXPECT_NE(text.find("1 fused groups of 20 ops"), std::string::npos) << text;
}

}  // namespace
}  // namespace tessel::graph::testing
