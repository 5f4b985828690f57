// TpuProgram and the memory planner: buffers share bytes only when their lifetimes allow,
// programs size every buffer at its bound, run without allocating, match the cpu, and refuse
// sizes with no bound and programs larger than the device.
#include "backends/backend.h"
#include "backends/tpu/memory_plan.h"
#include "backends/tpu/program.h"
#include "compile_test_util.h"

namespace tessel::backends::tpu {
namespace {

using graph::GraphBuilder;
using graph::ValueId;
using graph::testing::eager;
using graph::testing::Fill;
using graph::testing::randomTensor;
using graph::testing::sameTensor;
using shapes::OpAttrs;
using shapes::OpKind;
using shapes::SymInt;

bool overlaps(const MemoryPlan& p, const std::vector<BufferRequest>& r, size_t a, size_t b) {
  return p.offsets[a] < p.offsets[b] + r[b].bytes && p.offsets[b] < p.offsets[a] + r[a].bytes;
}

TEST(MemoryPlan, BuffersLiveTogetherNeverShareBytesAndOthersDo) {
  std::vector<BufferRequest> r = {{1000, 0, 1}, {500, 1, 2}, {1000, 2, 3}, {200, 3, 4}};
  MemoryPlan p = planMemory(r);
  EXPECT_FALSE(overlaps(p, r, 0, 1));
  EXPECT_FALSE(overlaps(p, r, 1, 2));
  EXPECT_FALSE(overlaps(p, r, 2, 3));
  EXPECT_EQ(p.offsets[0], p.offsets[2]);  // 0 dies before 2 is made: same bytes
  EXPECT_EQ(p.bytes, 1024u + 512u);
  EXPECT_GE(p.bytes, peakLiveBytes(r));
  for (uint64_t o : p.offsets) EXPECT_EQ(o % kPlanAlign, 0u);
}

TEST(MemoryPlan, RandomLifetimesGiveValidPlansNearThePeak) {
  std::mt19937 rng(3);
  for (int round = 0; round < 50; ++round) {
    std::vector<BufferRequest> r;
    for (int i = 0; i < 40; ++i) {
      int first = int(rng() % 30);
      r.push_back({uint64_t(rng() % 5000 + 1), first, first + int(rng() % 6)});
    }
    MemoryPlan p = planMemory(r);
    for (size_t a = 0; a < r.size(); ++a)
      for (size_t b = a + 1; b < r.size(); ++b)
        if (r[a].first <= r[b].last && r[b].first <= r[a].last) {
          ASSERT_FALSE(overlaps(p, r, a, b)) << a << " " << b;
        }
    EXPECT_GE(p.bytes, peakLiveBytes(r));
    EXPECT_LE(p.bytes, 2 * peakLiveBytes(r));
  }
}

Tensor onTpu(const Tensor& t) {
  registerTpuBackend();
  return toDevice(t, Device::Tpu);
}

// x: f32[s0 <= 64, 8] -> relu(x @ w).sum(1), nonzero(x > 0) and x[x > 0] * 2.
struct BoundedGraph {
  shapes::ShapeEnv env;
  shapes::ScopedShapeEnv scope{&env};
  GraphBuilder b{&env};
  Tensor w;
  BoundedGraph() {
    std::mt19937 rng(9);
    w = randomTensor(rng, {8, 4}, Fill::Float);
    shapes::SymbolOptions o;
    o.dynamic = shapes::DimDynamic::Dynamic;
    o.max = 64;
    SymInt s0 = env.createSymbol("x.shape[0]", 10, o);
    ValueId x = b.input("x", {s0, 8}, DType::F32);
    OpAttrs sum;
    sum.dims = {1};
    b.output(b.op(OpKind::Sum, {b.op(OpKind::Relu, {b.op(OpKind::Matmul, {x, b.constant(w)})})}, sum));
    ValueId pos = b.op(OpKind::Gt, {x, b.constant(Tensor::scalar(0, DType::F32))});
    b.output(b.op(OpKind::Nonzero, {pos}));
    b.output(b.op(OpKind::Mul, {b.op(OpKind::MaskedSelect, {x, pos}),
                                b.constant(Tensor::scalar(2, DType::F32))}));
    OpAttrs dim0;
    dim0.dim = 0;  // softmax over rows: the kernel makes transposed temporaries (scratch)
    b.output(b.op(OpKind::Exp, {b.op(OpKind::Softmax, {x}, dim0)}));
  }
};

TEST(TpuProgram, RunsEverySizeWithinItsBoundsLikeTheCpuWithoutAllocating) {
  BoundedGraph g;
  auto program = compileForTpu(g.b.build(), {}, "bounded");
  // Bounds: 64 rows; nonzero of 64*8 elements: <= 512 rows; masked_select: <= 512.
  ASSERT_EQ(program->outputBounds().size(), 4u);
  EXPECT_EQ(program->outputBounds()[0], (DimBounds{64}));
  EXPECT_EQ(program->outputBounds()[1], (DimBounds{512, -1}));
  EXPECT_EQ(program->outputBounds()[2], (DimBounds{512}));
  EXPECT_GT(program->record().arenaBytes, 0u);
  EXPECT_GE(program->record().arenaBytes, program->record().boundBytes);
  std::mt19937 rng(1);
  const uint64_t before = tpuStats().runAllocations;
  for (int64_t n : {10, 64, 1, 0, 33}) {
    Tensor x = randomTensor(rng, {n, 8}, Fill::Float);
    std::vector<Tensor> got = program->run({onTpu(x)}, std::vector<int64_t>{n});
    OpAttrs sum;
    sum.dims = {1};
    Tensor pos = eager(OpKind::Gt, {x, Tensor::scalar(0, DType::F32)});
    EXPECT_TRUE(sameTensor(toDevice(got[0], Device::Cpu),
                           eager(OpKind::Sum, {eager(OpKind::Relu, {eager(OpKind::Matmul, {x, g.w})})}, sum), 0));
    EXPECT_TRUE(sameTensor(toDevice(got[1], Device::Cpu), eager(OpKind::Nonzero, {pos}), 0));
    EXPECT_TRUE(sameTensor(toDevice(got[2], Device::Cpu),
                           eager(OpKind::Mul, {eager(OpKind::MaskedSelect, {x, pos}),
                                               Tensor::scalar(2, DType::F32)}), 0));
    OpAttrs dim0;
    dim0.dim = 0;
    EXPECT_TRUE(sameTensor(toDevice(got[3], Device::Cpu),
                           eager(OpKind::Exp, {eager(OpKind::Softmax, {x}, dim0)}), 0));
    for (const Tensor& t : got) EXPECT_EQ(t.device(), Device::Tpu);
  }
  EXPECT_EQ(tpuStats().runAllocations, before) << "a program run allocated outside its plan";
  EXPECT_GT(tpuStats().paddingRatio, 0.0);
}

TEST(TpuProgram, ASizeWithNoBoundIsADeviceErrorAtCompileTime) {
  shapes::ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  shapes::SymbolOptions o;
  o.dynamic = shapes::DimDynamic::Dynamic;
  ValueId x = b.input("x", {env.createSymbol("x.shape[0]", 10, o)}, DType::F32);
  b.output(b.op(OpKind::Exp, {x}));
  try {
    compileForTpu(b.build(), {}, "unbounded");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::DeviceError);
    EXPECT_NE(std::string(e.what()).find("no upper bound"), std::string::npos) << e.what();
  }
}

TEST(TpuProgram, AProgramLargerThanTheDeviceIsADeviceErrorNamingTheBytes) {
  shapes::ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  ValueId x = b.input("x", {1024, 1024}, DType::F32);
  b.output(b.op(OpKind::Exp, {b.op(OpKind::Exp, {x})}));
  const uint64_t saved = tpuConfig().memoryBytes;
  tpuConfig().memoryBytes = 1 << 20;
  try {
    compileForTpu(b.build(), {}, "big");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::DeviceError);
    EXPECT_NE(std::string(e.what()).find("'big' needs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("config.tpu_memory_bytes"), std::string::npos);
  }
  tpuConfig().memoryBytes = saved;
}

}  // namespace
}  // namespace tessel::backends::tpu
