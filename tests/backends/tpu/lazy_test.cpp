// Lazy tpu tensors when a program fails: the failing result gets its own error, of the kind
// the shape rule gives (a ShapeError naming both shapes for a broadcast of real sizes that
// do not match), and every other result of the same sync is still computed.
#include <gtest/gtest.h>

#include "backends/backend.h"
#include "backends/dispatch.h"
#include "backends/rng.h"
#include "backends/tpu/lazy.h"
#include "compile_test_util.h"

namespace tessel::backends::tpu {
namespace {

using shapes::OpAttrs;
using shapes::OpKind;

std::shared_ptr<LazyTensor> onTpu(std::vector<bool> v) {
  registerTpuBackend();
  return LazyTensor::fromData(
      toDevice(Tensor::fromBools(v, {int64_t(v.size())}), Device::Tpu));
}

Tensor ones(Dims shape) {
  registerTpuBackend();
  return Tensor::fromData(std::vector<float>(numelOf(shape), 1.0f), shape);
}

std::shared_ptr<LazyTensor> record(OpKind op, std::vector<std::shared_ptr<LazyTensor>> args) {
  std::vector<LazyOperand> operands;
  for (auto& a : args) operands.push_back({a, {}});
  return recordOp(op, operands, {});
}

TEST(LazyFailures, ABroadcastOfUnequalRealSizesIsAShapeErrorAndLosesNothingElse) {
  auto a = record(OpKind::Nonzero, {onTpu({true, false, true, true})});   // 3 rows
  auto b = record(OpKind::Nonzero, {onTpu({true, true, false, false, false})});  // 2 rows
  auto sum = record(OpKind::Add, {a, b});  // recorded: u0 == u1 can only be checked at run time
  auto twice = record(OpKind::Add, {a, a});
  try {
    sum->data();
    FAIL() << "expected a ShapeError";
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ShapeError);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("[u0, 1] and [u1, 1]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("u0 = 3, u1 = 2"), std::string::npos) << msg;
  }
  // Asking again gives the same error; the other results of that sync are there.
  EXPECT_EQ(graph::testing::errorOf([&] { sum->data(); }), ErrorKind::ShapeError);
  EXPECT_EQ(toDevice(a->data(), Device::Cpu).toDoubles(), (std::vector<double>{0, 2, 3}));
  EXPECT_EQ(toDevice(b->data(), Device::Cpu).toDoubles(), (std::vector<double>{0, 1}));
  EXPECT_EQ(toDevice(twice->data(), Device::Cpu).toDoubles(), (std::vector<double>{0, 4, 6}));
  // sync() reports the failure of the sync it ran; the next one starts clean. A data-dependent
  // size is never taken to be 1 (size-oblivious broadcasting, docs/tpu.md), so 1 row against
  // 2 fails as 3 against 2 does: the program must not depend on which sizes came.
  auto c = record(OpKind::Nonzero, {onTpu({true, false})});
  auto bad = record(OpKind::Mul, {c, b});
  EXPECT_EQ(graph::testing::errorOf(syncAll), ErrorKind::ShapeError);
  auto d = record(OpKind::Nonzero, {onTpu({true, true, true})});
  auto bad2 = record(OpKind::Mul, {d, record(OpKind::Nonzero, {onTpu({true, true})})});
  EXPECT_EQ(graph::testing::errorOf(syncAll), ErrorKind::ShapeError);
  EXPECT_EQ(graph::testing::errorOf(syncAll), ErrorKind::Interrupted);
  EXPECT_EQ(toDevice(d->data(), Device::Cpu).toDoubles(), (std::vector<double>{0, 1, 2}));
}

// An assert belongs to the op that made it: a reshape that fails takes only its own result.
TEST(LazyFailures, AFailedReshapeLeavesTheResultsThatDoNotNeedIt) {
  auto rows = record(OpKind::Nonzero, {onTpu({true, false, true, true, false, true})});  // 4
  auto good = record(OpKind::Add, {rows, rows});
  OpAttrs reshape;
  reshape.shape = {rows->shape()[0]};
  LazyOperand six{LazyTensor::fromData(toDevice(ones({2, 3}), Device::Tpu)), {}};
  auto bad = recordOp(OpKind::Reshape, std::span(&six, 1), reshape);  // 6 elements as [4]
  EXPECT_EQ(graph::testing::errorOf([&] { bad->data(); }), ErrorKind::ShapeError);
  EXPECT_EQ(toDevice(good->data(), Device::Cpu).toDoubles(), (std::vector<double>{0, 4, 6, 10}));
}

// The device's memory is checked at every run: a cached program that no longer fits fails,
// and runs again once the memory is back.
TEST(LazyFailures, ACachedProgramIsCheckedAgainstTheMemoryAtEveryRun) {
  auto run = [] {
    auto x = LazyTensor::fromData(toDevice(ones({64, 64}), Device::Tpu));
    LazyOperand args[] = {{x, {}}, {x, {}}};
    return recordOp(OpKind::Matmul, args, {})->data();
  };
  run();
  const uint64_t saved = tpuConfig().memoryBytes;
  tpuConfig().memoryBytes = 1024;
  EXPECT_EQ(graph::testing::errorOf(run), ErrorKind::DeviceError);
  tpuConfig().memoryBytes = saved;
  EXPECT_EQ(toDevice(run(), Device::Cpu).toDoubles()[0], 64.0);
}

// A random op on the tpu draws when it is recorded, as eager code reads: seeding or drawing on
// the cpu before the sync does not change its numbers.
TEST(LazyRandom, RandomOpsDrawTheirWordsWhenRecorded) {
  registerTpuBackend();
  OpAttrs shape;
  shape.shape = {6};
  backends::seed(21);
  const Tensor want = backends::call(OpKind::Rand, {}, shape);
  backends::seed(21);
  auto lazy = recordOp(OpKind::Rand, {}, shape);
  backends::seed(99);  // before the sync: must not reach the recorded op
  backends::call(OpKind::Rand, {}, shape);
  EXPECT_EQ(toDevice(lazy->data(), Device::Cpu).toDoubles(), want.toDoubles());
  // The words were reserved: the next draw continues after them, as on the cpu.
  backends::seed(21);
  auto first = recordOp(OpKind::Rand, {}, shape);
  const Tensor next = backends::call(OpKind::Rand, {}, shape);
  backends::seed(21);
  backends::call(OpKind::Rand, {}, shape);
  EXPECT_EQ(next.toDoubles(), backends::call(OpKind::Rand, {}, shape).toDoubles());
  EXPECT_EQ(toDevice(first->data(), Device::Cpu).toDoubles(), want.toDoubles());
}

// The sampling ops recorded on the tpu draw the cpu's numbers and reserve the cpu's word counts
// (multinomial without replacement one per category, graph::randomWordCount): a draw after
// them continues at the same counter on both.
TEST(LazyRandom, SamplingOpsMatchTheCpuAndReserveItsWords) {
  registerTpuBackend();
  std::vector<float> w(300);
  for (size_t i = 0; i < w.size(); ++i) w[i] = i % 7 == 0 ? 0.0f : float(1 + i % 5);
  const Tensor probs = Tensor::fromData(std::span<const float>(w), Dims{3, 100});
  OpAttrs without, with, perm, next;
  without.shape = {40};
  without.scalars = {0.0};
  with.shape = {250};
  with.scalars = {1.0};
  perm.shape = {77};
  next.shape = {5};
  struct Sample {
    OpKind op;
    std::vector<Tensor> in;
    OpAttrs attrs;
  };
  for (const Sample& s : {Sample{OpKind::Multinomial, {probs}, without},
                          Sample{OpKind::Multinomial, {probs}, with},
                          Sample{OpKind::Bernoulli, {backends::call(OpKind::Sigmoid, {probs})}, {}},
                          Sample{OpKind::Randperm, {}, perm}}) {
    SCOPED_TRACE(std::string(shapes::opName(s.op)));
    backends::seed(41);
    const Tensor want = backends::dispatch(s.op, s.in, s.attrs).at(0);
    const Tensor wantNext = backends::call(OpKind::Rand, {}, next);
    backends::seed(41);
    std::vector<LazyOperand> operands;
    for (const Tensor& t : s.in) operands.push_back({nullptr, t});
    auto lazy = recordOp(s.op, operands, s.attrs);
    const Tensor gotNext = backends::call(OpKind::Rand, {}, next);
    EXPECT_EQ(toDevice(lazy->data(), Device::Cpu).toDoubles(), want.toDoubles());
    EXPECT_EQ(gotNext.toDoubles(), wantNext.toDoubles());
  }
}

}  // namespace
}  // namespace tessel::backends::tpu
