// Parity: every op of op_list.def on the tpu against the cpu (backends.md, "tpu").
// - As programs: the cases of tests/backends/graph/op_parity_cases.h compiled by compileForTpu with
//   n, m <= 64, against the cpu graph executor, unfused and fused, at several sizes.
// - Lazily, with bounded inputs: every input dim of size n is made on the tpu by nonzero (so
//   its size is an unbacked symbol bounded by the raw row count), the case is recorded op by
//   op as eager tpu code is, and one sync runs it; the cpu runs the same case eagerly on the
//   same rows. Sizes include empty and size-1 dims (lazy segments are size-oblivious).
// - Every elementwise op and every reduction on every dtype pair, lazily, with errors that
//   match the cpu's in kind.
// No run of any of these may allocate: stats()["tpu"]["run_allocations"] stays 0.
#include <gtest/gtest.h>

#include "backends/backend.h"
#include "backends/rng.h"
#include "backends/tpu/lazy.h"
#include "backends/tpu/program.h"
#include "op_parity_cases.h"
#include "tests/backends/pool_cases.h"

namespace tessel::graph::testing {
namespace {

using backends::Device;
using backends::toDevice;
using backends::tpu::LazyOperand;
using backends::tpu::LazyTensor;
using backends::tpu::recordOp;

Tensor onTpu(const Tensor& t) {
  backends::tpu::registerTpuBackend();
  return toDevice(t, Device::Tpu);
}

Tensor onCpu(const Tensor& t) {
  return toDevice(t, Device::Cpu);
}

class TpuParity : public ::testing::Test {
 protected:
  void SetUp() override {
    backends::tpu::registerTpuBackend();
    allocationsBefore_ = backends::tpu::tpuStats().runAllocations;
  }
  void TearDown() override {
    EXPECT_EQ(backends::tpu::tpuStats().runAllocations, allocationsBefore_)
        << "a tpu program allocated while it ran";
  }
  uint64_t allocationsBefore_ = 0;
};

// ---- Programs --------------------------------------------------------------------------------

// bincount's size (max(x) + 1) has no bound a program can plan for without a fact the case
// cannot add; it is tested on the tpu with check() (tests/scripts/tpu/jagged_on_tpu.dsl).
bool needsAFact(OpKind op) {
  return op == OpKind::Bincount;
}

void checkProgram(OpKind op, const Case& build, bool fuse) {
  if (needsAFact(op)) return;
  static constexpr std::array<int64_t, 2> kSizes[] = {{6, 4},  {9, 3},   {2, 7},
                                                      {17, 5}, {33, 64}, {64, 2}};
  CaseGraph c(build, fuse, 64);
  auto tpu = backends::tpu::compileForTpu(c.graph, c.options, std::string(shapes::opName(op)));
  const int ran = compareWithCpuExecutor(
      op, build, fuse, c, *tpu, kSizes, onTpu, [&](const Tensor& got, const Tensor& want) {
        EXPECT_EQ(got.device(), Device::Tpu);
        EXPECT_TRUE(sameTensor(onCpu(got), want, 0)) << c.graph.toString();
      });
  EXPECT_GE(ran, 3) << "too few sizes admitted by the guards";
}

TEST_F(TpuParity, EveryOpAsAProgramMatchesTheCpuExecutor) {
  expectEveryOpHasACase();
  checkEveryCase(checkProgram, false);
}

TEST_F(TpuParity, EveryElementwiseOpMatchesWhenFused) {
  checkEveryCase(checkProgram, true);
}

// ---- Lazy, with inputs bounded by nonzero ----------------------------------------------------

/// How a bounded input's rows are chosen on the tpu.
enum class Bounded { No, ByNonzero, ByMaskedSelect };

/// Applies ops to lazy tpu tensors. When bounded, n is the unbacked size of the rows a mask
/// keeps (nonzero(mask)[:, 0], or masked_select(row numbers, mask)) and every input dim of
/// size n holds those rows; `cpuInputs` are the same inputs made on the cpu, for the reference.
class LazyHarness final : public Harness {
 public:
  LazyHarness(uint32_t seed, int64_t rawRows, int64_t cols, double keep, Bounded how)
      : rng(seed), rawRows_(rawRows) {
    const bool bounded = how != Bounded::No;
    m = cols;
    std::vector<bool> mask(rawRows);
    std::vector<int32_t> rows;
    for (int64_t r = 0; r < rawRows; ++r) {
      mask[r] = std::uniform_real_distribution<double>(0, 1)(rng) < keep;
      if (mask[r]) rows.push_back(int32_t(r));
    }
    realRows = bounded ? int64_t(rows.size()) : rawRows;
    if (!bounded) {
      n = rawRows;
      return;
    }
    rows_ = Tensor::fromData(std::span<const int32_t>(rows), {int64_t(rows.size())});
    LazyOperand m0{LazyTensor::fromData(onTpu(Tensor::fromBools(mask, {rawRows}))), {}};
    if (how == Bounded::ByNonzero) {
      auto nz = recordOp(OpKind::Nonzero, std::span(&m0, 1), {});
      OpAttrs col = dim(1);
      col.index = SymInt(0);
      LazyOperand nzOp{nz, {}};
      index_ = recordOp(OpKind::Select, std::span(&nzOp, 1), col);
    } else {
      std::vector<int32_t> all(rawRows);
      for (int64_t r = 0; r < rawRows; ++r) all[r] = int32_t(r);
      LazyOperand args[] = {
          {LazyTensor::fromData(onTpu(Tensor::fromData(std::span<const int32_t>(all), {rawRows}))),
           {}},
          m0};
      index_ = recordOp(OpKind::MaskedSelect, args, {});
    }
    n = index_->shape()[0];
  }

  int input(const std::string&, SymShape shape, DType, Fill fill) override {
    Dims raw;
    for (const SymInt& s : shape) raw.push_back(s.isSymbolic() ? rawRows_ : s.constant());
    Tensor data = randomTensor(rng, raw, fill);
    Tensor cpu = data;
    auto lazy = LazyTensor::fromData(onTpu(data));
    for (size_t d = 0; d < shape.size() && index_; ++d) {
      if (!shape[d].isSymbolic()) continue;
      cpu = eager(OpKind::IndexSelect, {cpu, rows_}, dim(int64_t(d)));
      LazyOperand args[] = {{lazy, {}}, {index_, {}}};
      lazy = recordOp(OpKind::IndexSelect, args, dim(int64_t(d)));
    }
    cpuInputs.push_back(cpu);
    values.push_back(lazy);
    return int(values.size() - 1);
  }
  int op(OpKind op, std::vector<int> args, const OpAttrs& attrs) override {
    std::vector<LazyOperand> operands;
    for (int a : args) operands.push_back({values[a], {}});
    values.push_back(recordOp(op, operands, attrs));
    return int(values.size() - 1);
  }

  std::mt19937 rng;
  int64_t realRows = 0;
  std::vector<Tensor> cpuInputs;
  std::vector<std::shared_ptr<LazyTensor>> values;

 private:
  int64_t rawRows_;
  Tensor rows_;                         ///< kept row numbers, on the cpu
  std::shared_ptr<LazyTensor> index_;   ///< the same, pending on the tpu
};

/// Eager cpu dispatch on given inputs (the LazyHarness's cpuInputs, in order).
class ReplayHarness final : public Harness {
 public:
  explicit ReplayHarness(std::vector<Tensor> in) : given_(std::move(in)) {}
  int input(const std::string&, SymShape, DType, Fill) override {
    values.push_back(given_.at(next_++));
    return int(values.size() - 1);
  }
  int op(OpKind op, std::vector<int> args, const OpAttrs& attrs) override {
    std::vector<Tensor> in;
    for (int a : args) in.push_back(values[a]);
    values.push_back(eager(op, in, attrs));
    return int(values.size() - 1);
  }
  std::vector<Tensor> values;

 private:
  std::vector<Tensor> given_;
  size_t next_ = 0;
};

struct LazySize {
  int64_t rawRows, cols;
  double keep;
};

// Rows kept: about all, half, none, one of one; columns: several, one, none.
constexpr LazySize kLazySizes[] = {{6, 4, 1.0}, {9, 3, 0.5}, {17, 5, 0.7}, {5, 4, 0.0},
                                   {1, 1, 1.0}, {4, 1, 0.6}, {3, 0, 1.0}};

void checkLazy(OpKind op, const Case& build, Bounded bounded) {
  if (needsAFact(op)) return;
  int ran = 0;
  for (const LazySize& s : kLazySizes) {
    SCOPED_TRACE(std::string(shapes::opName(op)) + " at rows=" + std::to_string(s.rawRows) +
                 ", m=" + std::to_string(s.cols) + " keep " + std::to_string(s.keep) +
                 (bounded == Bounded::ByNonzero        ? " (bounded by nonzero)"
                  : bounded == Bounded::ByMaskedSelect ? " (bounded by masked_select)"
                                                       : ""));
    const uint32_t seed = 99 + uint32_t(s.rawRows * 31 + s.cols);
    std::unique_ptr<LazyHarness> lazy;
    Tensor got;
    const uint64_t executionsBefore = backends::tpu::tpuStats().executions;
    ErrorKind tpuErr = errorOf([&] {
      lazy = std::make_unique<LazyHarness>(seed, s.rawRows, s.cols, s.keep, bounded);
      backends::seed(7);
      const int r = build(*lazy);
      backends::seed(7);
      got = lazy->values[r]->data();
    });
    if (!lazy) continue;  // the cpu side needs the inputs the harness made
    ReplayHarness cpu(lazy->cpuInputs);
    cpu.n = lazy->realRows;
    cpu.m = s.cols;
    Tensor want;
    backends::seed(7);
    ErrorKind cpuErr = errorOf([&] { want = cpu.values[build(cpu)]; });
    ASSERT_EQ(tpuErr, cpuErr);
    if (cpuErr != ErrorKind::Interrupted) continue;
    ++ran;
    EXPECT_GT(backends::tpu::tpuStats().executions, executionsBefore) << "no program ran";
    EXPECT_EQ(got.device(), Device::Tpu);
    EXPECT_TRUE(sameTensor(onCpu(got), want, 0));
  }
  EXPECT_GE(ran, 3) << "too few sizes ran without an error";
}

TEST_F(TpuParity, EveryOpRecordedLazilyMatchesCpuEager) {
  checkEveryCase([](OpKind op, const Case& c, bool) { checkLazy(op, c, Bounded::No); }, false);
}

TEST_F(TpuParity, EveryOpOnInputsBoundedByNonzeroMatchesCpuEager) {
  checkEveryCase([](OpKind op, const Case& c, bool) { checkLazy(op, c, Bounded::ByNonzero); },
                 false);
}

TEST_F(TpuParity, EveryOpOnInputsBoundedByMaskedSelectMatchesCpuEager) {
  checkEveryCase(
      [](OpKind op, const Case& c, bool) { checkLazy(op, c, Bounded::ByMaskedSelect); }, false);
}

// ---- Every dtype ------------------------------------------------------------------------------

Tensor tensorOf(std::mt19937& rng, const Dims& shape, DType t) {
  return randomTensor(rng, shape, t == DType::F32 ? Fill::Float
                                  : t == DType::I32 ? Fill::Int
                                                    : Fill::Bool);
}

// One op on given cpu inputs: eagerly on the cpu and lazily on the tpu, same result or same
// kind of error.
void expectSameOnTpu(OpKind op, const std::vector<Tensor>& in, const OpAttrs& attrs,
                     const std::string& what) {
  SCOPED_TRACE(std::string(shapes::opName(op)) + " " + what);
  Tensor want, got;
  ErrorKind cpuErr = errorOf([&] { want = eager(op, in, attrs); });
  ErrorKind tpuErr = errorOf([&] {
    std::vector<LazyOperand> operands;
    for (const Tensor& t : in) operands.push_back({LazyTensor::fromData(onTpu(t)), {}});
    got = recordOp(op, operands, attrs)->data();
  });
  ASSERT_EQ(tpuErr, cpuErr);
  if (cpuErr == ErrorKind::Interrupted) {
    EXPECT_TRUE(sameTensor(onCpu(got), want, 0));
  }
}

TEST_F(TpuParity, ElementwiseOpsOnEveryDtypeMatchCpuEager) {
  const DType kDTypes[] = {DType::F32, DType::I32, DType::Bool};
  const std::vector<std::vector<Dims>> shapes = {{{2, 3}, {2, 3}}, {{3, 1}, {1, 4}}, {{0, 3}, {3}},
                                                 {{}, {5}}};
  std::mt19937 rng(5);
  int checked = 0;
  for (OpKind op : allOps()) {
    const auto cat = shapes::opCategory(op);
    const int arity = cat == shapes::OpCategory::Unary    ? 1
                      : cat == shapes::OpCategory::Binary ? 2
                      : cat == shapes::OpCategory::Ternary ? 3
                                                            : 0;
    if (arity == 0) continue;
    for (const auto& pair : shapes)
      for (DType a : kDTypes)
        for (DType b : kDTypes) {
          if (arity == 1 && b != a) continue;
          std::vector<Tensor> in = {tensorOf(rng, pair[0], a)};
          if (arity >= 2) in.push_back(tensorOf(rng, pair[1], b));
          if (arity == 3) in.insert(in.begin(), tensorOf(rng, pair[0], DType::Bool));
          expectSameOnTpu(op, in, {},
                          std::string(shapes::name(a)) + "/" + std::string(shapes::name(b)));
          ++checked;
        }
  }
  EXPECT_GT(checked, 100);
}

TEST_F(TpuParity, ReductionsOnEveryDtypeMatchCpuEager) {
  using K = OpKind;
  std::mt19937 rng(6);
  for (K op : {K::Sum, K::Mean, K::Max, K::Min, K::Argmax, K::Argmin, K::All, K::Any})
    for (DType t : {DType::F32, DType::I32, DType::Bool})
      for (const Dims& shape : std::vector<Dims>{{3, 4}, {1, 5}, {0, 2}, {}})
        for (const OpAttrs& a : {dims({}), dims({0}, true), dims({-1})}) {
          if (shape.empty() && !a.dims.empty()) continue;
          expectSameOnTpu(op, {tensorOf(rng, shape, t)}, a, std::string(shapes::name(t)));
        }
}

TEST_F(TpuParity, ScansOnEveryDtypeMatchCpuEager) {
  using K = OpKind;
  std::mt19937 rng(7);
  for (K op : {K::Cumsum, K::Cumprod})
    for (DType t : {DType::F32, DType::I32, DType::Bool})
      for (const Dims& shape : std::vector<Dims>{{3, 4}, {1, 5}, {0, 2}, {}})
        for (int64_t d : {0, -1}) {
          expectSameOnTpu(op, {tensorOf(rng, shape, t)}, dim(d), std::string(shapes::name(t)));
        }
}

// conv2d and its backward ops (the cpu's oneDNN kernels in the planned arena): odd sizes,
// every option, an empty batch, size-1 dims, and a kernel larger than the padded input.
TEST_F(TpuParity, ConvolutionsMatchCpuEager) {
  using K = OpKind;
  std::mt19937 rng(9);
  struct Config {
    Dims x, w;
    int64_t stride, pad, dilation, groups;
  };
  for (const Config& k : std::vector<Config>{{{2, 3, 7, 9}, {4, 3, 3, 3}, 1, 1, 1, 1},
                                             {{1, 4, 9, 6}, {6, 2, 3, 2}, 2, 1, 2, 2},
                                             {{0, 3, 5, 5}, {2, 3, 3, 3}, 1, 0, 1, 1},
                                             {{3, 1, 1, 1}, {1, 1, 1, 1}, 1, 0, 1, 1},
                                             {{1, 2, 2, 2}, {2, 2, 3, 3}, 1, 0, 1, 1}}) {
    OpAttrs a;
    a.conv.stride = {k.stride, k.stride};
    a.conv.padBegin = a.conv.padEnd = {k.pad, k.pad};
    a.conv.dilation = {k.dilation, k.dilation};
    a.conv.groups = k.groups;
    Dims y = {k.x[0], k.w[0], 1, 1};
    for (int i = 0; i < 2; ++i)
      y[2 + i] = std::max<int64_t>(
          1, (k.x[2 + i] + 2 * k.pad - k.dilation * (k.w[2 + i] - 1) - 1) / k.stride + 1);
    Tensor x = tensorOf(rng, k.x, DType::F32), w = tensorOf(rng, k.w, DType::F32);
    Tensor gy = tensorOf(rng, y, DType::F32);
    const std::string what = "x " + std::to_string(k.x[2]) + "x" + std::to_string(k.x[3]);
    expectSameOnTpu(K::Conv2d, {x, w, tensorOf(rng, {k.w[0]}, DType::F32)}, a, what);
    a.shape = SymShape(k.x.begin(), k.x.end());
    expectSameOnTpu(K::Conv2dBackwardInput, {gy, w}, a, what);
    a.shape = SymShape(k.w.begin(), k.w.end());
    expectSameOnTpu(K::Conv2dBackwardWeight, {gy, x}, a, what);
  }
}

TEST_F(TpuParity, SortsOnEveryDtypeMatchCpuEager) {
  using K = OpKind;
  std::mt19937 rng(8);
  for (DType t : {DType::F32, DType::I32, DType::Bool})
    for (const Dims& shape : std::vector<Dims>{{3, 4}, {1, 5}, {0, 2}, {}, {2, 700}})
      for (int64_t d : {0, -1}) {
        OpAttrs a = dim(d);
        a.descending = d == 0;
        expectSameOnTpu(K::Argsort, {tensorOf(rng, shape, t)}, a, std::string(shapes::name(t)));
        const int64_t n = shape.empty() ? 1 : shape[d == 0 ? 0 : shape.size() - 1];
        a.stop = SymInt(std::min<int64_t>(n, 2));
        expectSameOnTpu(K::Topk, {tensorOf(rng, shape, t)}, a, std::string(shapes::name(t)));
      }
  OpAttrs right;
  right.right = true;
  expectSameOnTpu(K::Searchsorted, {tensorOf(rng, {2, 6}, DType::I32), tensorOf(rng, {2, 3}, DType::I32)},
                  right, "batched");
}

}  // namespace
}  // namespace tessel::graph::testing

namespace tessel::graph::testing {
namespace {

// Pooling and resizing lazily on the tpu against cpu eager, every case of the
// shared list (odd sizes, windows, empty batches, errors of the same kind).
TEST_F(TpuParity, PoolingCasesMatchCpuEager) {
  std::mt19937 rng(26);
  for (OpKind op : {OpKind::MaxPool2d, OpKind::AvgPool2d, OpKind::AdaptiveAvgPool2d,
                    OpKind::Interpolate, OpKind::MaxPool2dBackward, OpKind::AvgPool2dBackward,
                    OpKind::AdaptiveAvgPool2dBackward, OpKind::InterpolateBackward,
                    OpKind::MaxPool2dDoubleBackward})
    for (const backends::testing::PoolCase& c : backends::testing::poolCases(
             op, [&](const Dims& s) { return tensorOf(rng, s, DType::F32); }))
      expectSameOnTpu(op, c.inputs, c.attrs, c.what);
}

}  // namespace
}  // namespace tessel::graph::testing
