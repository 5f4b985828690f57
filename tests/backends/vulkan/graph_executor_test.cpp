// VulkanGraphExecutor: a fused 20-op chain is one dispatch, 100 sizes build no pipeline, the
// disk cache serves a second executor after the in-memory cache is cleared, mixed graphs
// (matmul, reductions, broadcasting, strided inputs, data-dependent sizes, rank > 4, more
// operands than a kernel binds) equal the cpu executor, and errors equal the cpu's.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "backends/vulkan/fused_cache.h"
#include "backends/vulkan/graph_executor.h"
#include "backends/vulkan/ops.h"
#include "tests/backends/graph/compile_test_util.h"
#include "tests/backends/vulkan/graph_chain.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::graph::testing {
namespace {

using backends::vulkan::FusedKernelCache;
using backends::vulkan::VulkanGraphExecutor;
using backends::vulkan::toCpu;
using backends::vulkan::toVulkan;
using backends::vulkan::vulkanStats;

// The generated kernels go to a cache directory of this test binary, not ~/.cache.
class CacheDirEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (const char* d = std::getenv("TESSEL_CACHE_DIR"); d && *d) return;
    const std::string dir = "/tmp/tessel-vulkan-graph-test-" + std::to_string(::getuid());
    setenv("TESSEL_CACHE_DIR", dir.c_str(), 1);
  }
};
const auto* const kCacheEnv = ::testing::AddGlobalTestEnvironment(new CacheDirEnvironment);

class VulkanGraph : public backends::vulkan::VulkanTest {};

std::vector<Tensor> onVulkan(const std::vector<Tensor>& ts) {
  std::vector<Tensor> r;
  for (const Tensor& t : ts) r.push_back(toVulkan(t));
  return r;
}

void expectSame(const std::vector<Tensor>& got, const std::vector<Tensor>& want,
                double tol = 2e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].device(), backends::Device::Vulkan);
    EXPECT_TRUE(sameTensor(toCpu(got[i]), want[i], tol)) << "output " << i;
  }
}

TEST_F(VulkanGraph, TwentyOpChainIsOneDispatch) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 1000);
  ValueId x = b.input("x", {n}, DType::F32);
  b.output(elementwiseChain20(b, x));
  Graph g = b.build();
  ASSERT_EQ(g.numNodes(), 20u);
  VulkanGraphExecutor vk(g);
  CpuGraphExecutor cpu(g);
  EXPECT_EQ(vk.stats().fusedGroups, 1u);
  EXPECT_EQ(vk.stats().fusedOps, 20u);
  EXPECT_EQ(vk.generatedKernels(), 1u);
  std::mt19937 rng(1);
  for (int64_t size : {1000, 1, 0, 70000}) {
    SCOPED_TRACE(size);
    Tensor in = randomTensor(rng, {size}, Fill::Float);
    Tensor dev = toVulkan(in);
    backends::vulkan::synchronize();
    const uint64_t submits = vulkanStats().submits;
    std::vector<Tensor> got = vk.run({dev});
    EXPECT_EQ(vk.runStats().kernelCalls, 1u);
    EXPECT_EQ(vk.vulkanRunStats().dispatches, size == 0 ? 0u : 1u);
    EXPECT_EQ(vk.vulkanRunStats().fusedKernels, size == 0 ? 0u : 1u);
    EXPECT_EQ(vk.vulkanRunStats().submits, 0u);  // nothing waits until the result is read
    expectSame(got, cpu.run({in}), 1e-5);
    EXPECT_EQ(vulkanStats().submits, submits + (size == 0 ? 0 : 1));  // one command buffer
  }
}

// Note [Barrier elision]: two branches that only share an input record no barrier between
// their kernels; a kernel reading another's output gets one.
TEST_F(VulkanGraph, IndependentBranchesShareNoBarrier) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 1000);
  ValueId x = b.input("x", {n}, DType::F32);
  ValueId one = b.constant(Tensor::scalar(1.0, DType::F32));
  ValueId left = b.op(OpKind::Sin, {b.op(OpKind::Add, {b.op(OpKind::Mul, {x, x}), one})});
  ValueId right = b.op(OpKind::Exp, {b.op(OpKind::Neg, {b.op(OpKind::Tanh, {x})})});
  b.output(left);
  b.output(right);
  Graph g = b.build();
  VulkanGraphExecutor vk(g);
  CpuGraphExecutor cpu(g);
  ASSERT_EQ(vk.generatedKernels(), 2u);
  std::mt19937 rng(5);
  for (int64_t size : {1000, 70000}) {
    SCOPED_TRACE(size);
    Tensor in = randomTensor(rng, {size}, Fill::Float);
    Tensor dev = toVulkan(in);
    backends::vulkan::synchronize();
    const uint64_t barriers = vulkanStats().barriers;
    std::vector<Tensor> got = vk.run({dev});
    EXPECT_EQ(vk.vulkanRunStats().dispatches, 2u);
    EXPECT_EQ(vk.vulkanRunStats().submits, 0u);
    EXPECT_EQ(vk.vulkanRunStats().barriers, 0u);
    EXPECT_EQ(vulkanStats().barriers, barriers);
    expectSame(got, cpu.run({in}), 1e-5);
  }
  // A dependent step (a reduction of one branch) does get a barrier.
  GraphBuilder b2(&env);
  ValueId x2 = b2.input("x", {n}, DType::F32);
  ValueId y2 = b2.op(OpKind::Sin, {b2.op(OpKind::Mul, {x2, x2})});
  b2.output(b2.op(OpKind::Sum, {y2}));
  b2.output(b2.op(OpKind::Cos, {x2}));
  Graph g2 = b2.build();
  VulkanGraphExecutor vk2(g2);
  CpuGraphExecutor cpu2(g2);
  Tensor in = randomTensor(rng, {4096}, Fill::Float);
  Tensor dev = toVulkan(in);
  backends::vulkan::synchronize();
  std::vector<Tensor> got = vk2.run({dev});
  EXPECT_GE(vk2.vulkanRunStats().dispatches, 3u);
  EXPECT_GE(vk2.vulkanRunStats().barriers, 1u);
  EXPECT_LT(vk2.vulkanRunStats().barriers, vk2.vulkanRunStats().dispatches - 1);
  expectSame(got, cpu2.run({in}), 1e-3);
}

TEST_F(VulkanGraph, HundredSizesBuildNoPipeline) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 8), m = dynamicSize(env, "m", 5);
  ValueId x = b.input("x", {n, m}, DType::F32);
  ValueId row = b.input("row", {m}, DType::F32);
  ValueId w = b.input("w", {m, SymInt(3)}, DType::F32);
  ValueId y = b.op(OpKind::Exp, {b.op(OpKind::Neg, {b.op(OpKind::Mul, {x, row})})});
  ValueId z = b.op(OpKind::Sum, {b.op(OpKind::Tanh, {b.op(OpKind::Add, {y, x})})}, [] {
    OpAttrs a;
    a.dims = {1};
    return a;
  }());
  b.output(z);
  b.output(b.op(OpKind::Matmul, {y, w}));
  Graph g = b.build();
  VulkanGraphExecutor vk(g);
  CpuGraphExecutor cpu(g);
  std::mt19937 rng(2);
  auto inputs = [&](int64_t nn, int64_t mm) {
    return std::vector<Tensor>{randomTensor(rng, {nn, mm}, Fill::Float),
                               randomTensor(rng, {mm}, Fill::Float),
                               randomTensor(rng, {mm, 3}, Fill::Float)};
  };
  // Warm-up: builds every pipeline this graph uses (fused and eager kernels).
  vk.run(onVulkan(inputs(8, 5)));
  const uint64_t pipelines = vulkanStats().pipelinesCreated;
  const auto cache = FusedKernelCache::instance().stats();
  for (int i = 0; i < 100; ++i) {
    const int64_t nn = 1 + (i * 37) % 97, mm = 1 + (i * 11) % 13;
    std::vector<Tensor> in = inputs(nn, mm);
    std::vector<Tensor> got = vk.run(onVulkan(in));
    if (i % 10 == 0) expectSame(got, cpu.run(in), 1e-4);
  }
  EXPECT_EQ(vulkanStats().pipelinesCreated, pipelines);
  EXPECT_EQ(FusedKernelCache::instance().stats().pipelinesBuilt, cache.pipelinesBuilt);
  EXPECT_EQ(FusedKernelCache::instance().stats().shadersCompiled, cache.shadersCompiled);
}

// Runs a one-kernel graph with input `walked` (holding size + slack elements) sliced from
// each of `starts`, and checks the result equals the cpu executor's, the kernel takes the linear
// path except from offset `misaligned`, and no pipeline is built.
void expectAtOffsets(VulkanGraphExecutor& vk, CpuGraphExecutor& cpu, const std::vector<Tensor>& in,
                     size_t walked, int64_t size, std::initializer_list<int64_t> starts,
                     int64_t misaligned, double tol) {
  const std::vector<Tensor> dev = onVulkan(in);
  const uint64_t pipelines = vulkanStats().pipelinesCreated;
  for (int64_t start : starts) {
    SCOPED_TRACE(start);
    std::vector<Tensor> hostIn = in, devIn = dev;
    hostIn[walked] = in[walked].slice(0, start, start + size, 1).contiguous();
    devIn[walked] = dev[walked].slice(0, start, start + size, 1);
    std::vector<Tensor> got = vk.run(devIn);
    EXPECT_EQ(vk.vulkanRunStats().fusedKernels, 1u);
    // (one element: every dim of size 1 is dropped, the strided loop runs it)
    EXPECT_EQ(vk.vulkanRunStats().fusedLinear, start != misaligned && size > 1 ? 1u : 0u);
    expectSame(got, cpu.run(hostIn), tol);
  }
  EXPECT_EQ(vulkanStats().pipelinesCreated, pipelines);
}

// Note [Fused linear path]: contiguous operands (and broadcast scalars) at offsets that are
// multiples of 8 (4) take the chunked 8 (4) words-a-step loop, with the tail elements one by
// one; an operand at another offset takes the strided loop of the same pipeline. All equal cpu.
TEST_F(VulkanGraph, LinearPathAndStridedPathAgree) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 1000);
  ValueId x = b.input("x", {n}, DType::F32);
  ValueId y = b.input("y", {n}, DType::F32);
  ValueId s = b.input("s", {}, DType::F32);  // a broadcast operand (stride 0)
  ValueId i = b.input("i", {n}, DType::I32);
  ValueId two = b.constant(Tensor::scalar(2.0, DType::F32));
  ValueId half = b.constant(Tensor::scalar(0.5, DType::F32));
  ValueId t = b.op(OpKind::Mul, {b.op(OpKind::Add, {b.op(OpKind::Mul, {x, two}), y}), half});
  b.output(b.op(OpKind::Add, {b.op(OpKind::Sub, {t, s}), b.op(OpKind::Cast, {i}, [] {
                                OpAttrs a;
                                a.dtype = DType::F32;
                                return a;
                              }())}));
  Graph g = b.build();
  VulkanGraphExecutor vk(g);
  CpuGraphExecutor cpu(g);
  ASSERT_EQ(vk.generatedKernels(), 1u);
  std::mt19937 rng(9);
  for (int64_t size : {1, 3, 4, 7, 1000, 1027, 70001, 262147}) {
    SCOPED_TRACE(size);
    std::vector<Tensor> in = {randomTensor(rng, {size + 4}, Fill::Float),
                              randomTensor(rng, {size}, Fill::Float),
                              randomTensor(rng, {}, Fill::Float),
                              randomTensor(rng, {size}, Fill::Int)};
    // x from offset 0 (8 words a step), 4 (4 words), then 1 (not a multiple of 4: strided).
    expectAtOffsets(vk, cpu, in, 0, size, {0, 4, 1}, 1, 1e-5);
  }
}

// Note [Fused linear path] with bool operands and results (Note [Linear bool operands] in
// elementwise.comp): a bool input walked at offsets 0 (8 bytes a step), 4 (4 bytes) and 3
// (strided), a broadcast bool scalar, and both a bool result and an f32 result of where with
// a bool condition. All equal cpu, with ragged tails, and the aligned runs take the linear path.
TEST_F(VulkanGraph, LinearPathWithBoolOperandsAndResults) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 1000);
  ValueId x = b.input("x", {n}, DType::F32);
  ValueId y = b.input("y", {n}, DType::F32);
  ValueId m = b.input("m", {n}, DType::Bool);
  ValueId c = b.input("c", {}, DType::Bool);  // broadcast (stride 0)
  ValueId half = b.constant(Tensor::scalar(0.5, DType::F32));
  // A bool result: (x > 0.5 and not m) or (y < 0.5 and c).
  ValueId mask = b.op(OpKind::LogicalOr,
                      {b.op(OpKind::LogicalAnd, {b.op(OpKind::Gt, {x, half}), b.op(OpKind::LogicalNot, {m})}),
                       b.op(OpKind::LogicalAnd, {b.op(OpKind::Lt, {y, half}), c})});
  b.output(mask);
  // An f32 result from a bool condition: where(m, x * 2, y).
  Graph g = b.build();
  GraphBuilder b2(&env);
  ValueId x2 = b2.input("x", {n}, DType::F32);
  ValueId y2 = b2.input("y", {n}, DType::F32);
  ValueId m2 = b2.input("m", {n}, DType::Bool);
  b2.output(b2.op(OpKind::Where, {m2, b2.op(OpKind::Mul, {x2, b2.constant(Tensor::scalar(2.0, DType::F32))}), y2}));
  Graph g2 = b2.build();
  for (const Graph* graph : {&g, &g2}) {
    const bool withScalar = graph == &g;
    VulkanGraphExecutor vk(*graph);
    CpuGraphExecutor cpu(*graph);
    ASSERT_EQ(vk.generatedKernels(), 1u);
    std::mt19937 rng(21);
    for (int64_t size : {1, 7, 8, 9, 1000, 1027, 70001}) {
      SCOPED_TRACE(size);
      std::vector<Tensor> in = {randomTensor(rng, {size}, Fill::Float),
                                randomTensor(rng, {size}, Fill::Float),
                                randomTensor(rng, {size + 8}, Fill::Bool)};
      if (withScalar) in.push_back(randomTensor(rng, {}, Fill::Bool));
      expectAtOffsets(vk, cpu, in, 2, size, {0, 4, 3}, 3, 1e-6);
    }
  }
}

TEST_F(VulkanGraph, DiskCacheServesASecondExecutor) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 16);
  ValueId x = b.input("x", {n}, DType::F32);
  // A scalar unique to this process run, so the kernel text is new to the disk cache.
  const double unique = double(::getpid() % 100000) / 100000.0 + 0.25;
  ValueId c = b.constant(Tensor::scalar(unique, DType::F32));
  b.output(b.op(OpKind::Sin, {b.op(OpKind::Add, {b.op(OpKind::Mul, {x, x}), c})}));
  Graph g = b.build();
  FusedKernelCache& cache = FusedKernelCache::instance();
  const auto s0 = cache.stats();
  auto first = std::make_unique<VulkanGraphExecutor>(g);
  const auto s1 = cache.stats();
  EXPECT_EQ(s1.shadersCompiled, s0.shadersCompiled + 1);
  EXPECT_EQ(s1.pipelinesBuilt, s0.pipelinesBuilt + 1);
  const std::string file = FusedKernelCache::directory() + "/fused-" +
                           FusedKernelCache::key(first->kernelSource(0)) + ".spv";
  EXPECT_TRUE(std::filesystem::exists(file)) << file;
  // Same text again: served from memory.
  VulkanGraphExecutor again(g);
  EXPECT_EQ(cache.stats().memoryHits, s1.memoryHits + 1);
  // In-memory cache cleared: the second executor loads the SPIR-V from disk, compiles nothing.
  cache.clearMemory();
  VulkanGraphExecutor second(g);
  const auto s2 = cache.stats();
  EXPECT_EQ(s2.shadersCompiled, s1.shadersCompiled);
  EXPECT_EQ(s2.shadersFromDisk, s1.shadersFromDisk + 1);
  EXPECT_EQ(s2.pipelinesBuilt, s1.pipelinesBuilt + 1);
  Tensor in = Tensor::fromData(std::span<const float>(std::vector<float>{1, 2, 3}), {3});
  expectSame(second.run({toVulkan(in)}), {toCpu(first->run({toVulkan(in)})[0])}, 0);
  expectSame(second.run({toVulkan(in)}), CpuGraphExecutor(g).run({in}), 1e-5);
  // A corrupt file reads as a miss and is rewritten.
  first.reset();
  cache.clearMemory();
  { std::ofstream(file, std::ios::trunc) << "junk"; }
  VulkanGraphExecutor third(g);
  EXPECT_EQ(cache.stats().shadersCompiled, s2.shadersCompiled + 1);
}

TEST_F(VulkanGraph, BroadcastStridedAndMixedDtypes) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 6), m = dynamicSize(env, "m", 4);
  ValueId xt = b.input("xt", {m, n}, DType::F32);  // transposed below: a strided operand
  ValueId col = b.input("col", {n, SymInt(1)}, DType::F32);
  ValueId k = b.input("k", {m}, DType::I32);
  ValueId mask = b.input("mask", {n, m}, DType::Bool);
  ValueId x = b.op(OpKind::Transpose, {xt}, [] {
    OpAttrs a;
    a.dims = {0, 1};
    return a;
  }());
  ValueId kf = b.op(OpKind::Cast, {k}, [] {
    OpAttrs a;
    a.dtype = DType::F32;
    return a;
  }());
  ValueId y = b.op(OpKind::Add, {b.op(OpKind::Mul, {x, col}), kf});
  ValueId sel = b.op(OpKind::Where, {mask, y, b.op(OpKind::Neg, {x})});
  ValueId gt = b.op(OpKind::Gt, {sel, col});                      // bool
  ValueId ki = b.op(OpKind::Add, {b.op(OpKind::Mul, {k, k}), gt});  // i32
  b.output(b.op(OpKind::FloorDiv, {ki, b.constant(Tensor::scalar(3, DType::I32))}));
  b.output(b.op(OpKind::LogicalAnd, {gt, mask}));
  Graph g = b.build();
  VulkanGraphExecutor vk(g);
  CpuGraphExecutor cpu(g);
  EXPECT_GE(vk.generatedKernels(), 1u) << vk.explain();
  std::mt19937 rng(3);
  // Both schedulings of the strided path (Note [Fused strided runs]): runs of the innermost
  // dim (a CPU device; rows of 300 and 129 split into several runs, the last one short) and
  // one element per invocation (a GPU).
  for (bool gpu : {false, true}) {
    backends::vulkan::setRowsInWorkgroupsForTesting(gpu);
    for (auto [nn, mm] : {std::pair<int64_t, int64_t>{6, 4}, {1, 1}, {0, 5}, {300, 7}, {7, 300},
                          {130, 129}}) {
      SCOPED_TRACE((gpu ? "gpu " : "cpu device ") + std::to_string(nn) + "x" + std::to_string(mm));
      std::vector<Tensor> in{randomTensor(rng, {mm, nn}, Fill::Float),
                             randomTensor(rng, {nn, 1}, Fill::Float),
                             randomTensor(rng, {mm}, Fill::Int),
                             randomTensor(rng, {nn, mm}, Fill::Bool)};
      expectSame(vk.run(onVulkan(in)), cpu.run(in), 0);
      // (an empty result with integer floordiv runs op by op: cpu checks every divisor)
      if (nn > 0) {
        EXPECT_EQ(vk.vulkanRunStats().fusedFallbacks, 0u);
      }
    }
  }
  backends::vulkan::setRowsInWorkgroupsForTesting(std::nullopt);
}

TEST_F(VulkanGraph, IntegerDivisionByZeroRaisesLikeCpu) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 6);
  ValueId a = b.input("a", {n}, DType::I32), d = b.input("d", {n}, DType::I32);
  b.output(b.op(OpKind::Neg, {b.op(OpKind::Mod, {b.op(OpKind::Add, {a, a}), d})}));
  Graph g = b.build();
  VulkanGraphExecutor vk(g);
  CpuGraphExecutor cpu(g);
  EXPECT_EQ(vk.generatedKernels(), 1u);
  std::vector<int32_t> av{1, 2, 3, 4, 5, 6}, dv{1, 2, 0, 3, 4, 5};
  Tensor at = Tensor::fromData(std::span<const int32_t>(av), {6});
  Tensor dt = Tensor::fromData(std::span<const int32_t>(dv), {6});
  std::string cpuMsg, vkMsg;
  try { cpu.run({at, dt}); } catch (const UserError& e) { cpuMsg = e.what(); }
  EXPECT_EQ(errorOf([&] { vk.run({toVulkan(at), toVulkan(dt)}); }), ErrorKind::ZeroDivisionError);
  try { vk.run({toVulkan(at), toVulkan(dt)}); } catch (const UserError& e) { vkMsg = e.what(); }
  EXPECT_EQ(vkMsg, cpuMsg);
  dv[2] = -7;
  dt = Tensor::fromData(std::span<const int32_t>(dv), {6});
  expectSame(vk.run({toVulkan(at), toVulkan(dt)}), cpu.run({at, dt}), 0);
}

TEST_F(VulkanGraph, DataDependentSizesThenFusedOps) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 10);
  ValueId x = b.input("x", {n}, DType::F32);
  ValueId mask = b.op(OpKind::Gt, {x, b.constant(Tensor::scalar(0, DType::F32))});
  ValueId sel = b.op(OpKind::MaskedSelect, {x, mask});  // f32[u0]
  ValueId y = b.op(OpKind::Sqrt, {b.op(OpKind::Add, {b.op(OpKind::Mul, {sel, sel}), sel})});
  b.output(y);
  b.output(b.op(OpKind::Sum, {y}, {}));
  Graph g = b.build();
  VulkanGraphExecutor vk(g);
  CpuGraphExecutor cpu(g);
  std::mt19937 rng(4);
  for (int64_t size : {10, 1, 0, 4097}) {
    Tensor in = randomTensor(rng, {size}, Fill::Float);
    expectSame(vk.run({toVulkan(in)}), cpu.run({in}), 1e-4);
  }
}

TEST_F(VulkanGraph, HighRankAndManyOperands) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 3);
  // Rank 5 with a permuted operand: no dims merge, a host loop over the leading one.
  ValueId p = b.input("p", {SymInt(2), n, SymInt(3), SymInt(2), SymInt(3)}, DType::F32);
  ValueId q = b.input("q", {SymInt(3), SymInt(2), SymInt(3), n, SymInt(2)}, DType::F32);
  ValueId qp = b.op(OpKind::Permute, {q}, [] {
    OpAttrs a;
    a.dims = {4, 3, 0, 1, 2};
    return a;
  }());
  b.output(b.op(OpKind::Exp, {b.op(OpKind::Sub, {p, qp})}));
  // Seven operands: more than a generated kernel takes; runs op by op.
  std::vector<ValueId> ins;
  for (int i = 0; i < 7; ++i) ins.push_back(b.input("v" + std::to_string(i), {n}, DType::F32));
  ValueId acc = ins[0];
  for (int i = 1; i < 7; ++i) acc = b.op(i % 2 ? OpKind::Add : OpKind::Mul, {acc, ins[i]});
  b.output(b.op(OpKind::Tanh, {acc}));
  Graph g = b.build();
  VulkanGraphExecutor vk(g);
  CpuGraphExecutor cpu(g);
  std::mt19937 rng(5);
  // (Not n = 0: CpuFusedKernel asserts its output is contiguous, and the empty rank-5 result
  // of the cpu executor is not; reported.)
  for (int64_t nn : {3, 1, 2}) {
    SCOPED_TRACE(nn);
    std::vector<Tensor> in{randomTensor(rng, {2, nn, 3, 2, 3}, Fill::Float),
                           randomTensor(rng, {3, 2, 3, nn, 2}, Fill::Float)};
    for (int i = 0; i < 7; ++i) in.push_back(randomTensor(rng, {nn}, Fill::Float));
    expectSame(vk.run(onVulkan(in)), cpu.run(in), 1e-5);
  }
  EXPECT_EQ(vk.generatedKernels(), 1u) << vk.explain();
}

TEST_F(VulkanGraph, ArgumentErrors) {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt n = dynamicSize(env, "n", 4);
  ValueId x = b.input("x", {n}, DType::F32), y = b.input("y", {n}, DType::F32);
  b.output(b.op(OpKind::Add, {x, y}));
  b.output(x);  // an output that is an input
  Graph g = b.build();
  auto exe = backends::vulkan::compileForVulkan(g);
  Tensor a = toVulkan(Tensor::fromData(std::span<const float>(std::vector<float>{1, 2, 3, 4}), {4}));
  Tensor c = toVulkan(Tensor::fromData(std::span<const float>(std::vector<float>{1, 2, 3}), {3}));
  Tensor cpuA = toCpu(a);
  EXPECT_EQ(errorOf([&] { exe->run({a}); }), ErrorKind::ValueError);
  EXPECT_EQ(errorOf([&] { exe->run({a, c}); }), ErrorKind::ShapeError);
  EXPECT_EQ(errorOf([&] { exe->run({cpuA, a}); }), ErrorKind::DeviceError);
  std::vector<Tensor> out = exe->run({a, a});
  EXPECT_EQ(out[1].storage(), a.storage());
  EXPECT_EQ(toCpu(out[0]).toDoubles(), (std::vector<double>{2, 4, 6, 8}));
}

}  // namespace
}  // namespace tessel::graph::testing
