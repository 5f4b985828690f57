// The collectives of backends/dist in one process of a world (label `dist`): CTest runs this
// binary alone (a world of one) and under `mpirun -n 2` and `-n 4`, where every rank runs every
// test in the same order, so each collective here is matched on every rank. Expected values
// are computed from the rank and the world size, so one test holds for every world.
#include "backends/dist/collectives.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "backends/dist/world.h"
#include "shapes/user_error.h"

using namespace tessel;
using namespace tessel::backends;
namespace d = tessel::backends::dist;

namespace {

int R() {
  return d::rank();
}
int N() {
  return d::worldSize();
}

// A collective that must raise `kind` on every rank, with every fragment in its message.
template <class F>
void expectError(ErrorKind kind, F&& body, std::initializer_list<std::string> fragments) {
  try {
    body();
    ADD_FAILURE() << "no error on rank " << R();
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    for (const std::string& f : fragments)
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos)
          << "rank " << R() << ": '" << f << "' not in: " << e.what();
  }
}

TEST(DistWorld, MatchesTheLauncher) {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  EXPECT_EQ(N(), size && d::builtWithMpi() ? std::atoi(size) : 1);
  EXPECT_GE(R(), 0);
  EXPECT_LT(R(), N());
  EXPECT_EQ(d::world().mpi, size != nullptr && d::builtWithMpi());
  // dist.info() says why a world is of one.
  const std::string& info = d::world().info;
  if (!d::builtWithMpi())
    EXPECT_EQ(info.rfind("a world of one: this build has no MPI", 0), 0u) << info;
  else if (!size)
    EXPECT_EQ(info.rfind("a world of one: not started by mpirun", 0), 0u) << info;
  else
    EXPECT_NE(info.find("rank " + std::to_string(R()) + " of " + size), std::string::npos) << info;
}

TEST(DistAllReduce, F32EveryOp) {
  // Rank r holds [r + 1, -(r + 1), 0.5].
  const float v = static_cast<float>(R() + 1), n = static_cast<float>(N());
  Tensor t = Tensor::fromData(std::vector<float>{v, -v, 0.5f}, {3});
  EXPECT_EQ(d::allReduce(t, d::ReduceOp::Sum).toDoubles(),
            (std::vector<double>{n * (n + 1) / 2, -n * (n + 1) / 2, 0.5 * n}));
  EXPECT_EQ(d::allReduce(t, d::ReduceOp::Max).toDoubles(), (std::vector<double>{n, -1, 0.5}));
  EXPECT_EQ(d::allReduce(t, d::ReduceOp::Min).toDoubles(), (std::vector<double>{1, -n, 0.5}));
  std::vector<double> mean = d::allReduce(t, d::ReduceOp::Mean).toDoubles();
  EXPECT_FLOAT_EQ(mean[0], (n + 1) / 2);
  EXPECT_FLOAT_EQ(mean[1], -(n + 1) / 2);
  EXPECT_FLOAT_EQ(mean[2], 0.5);
}

TEST(DistAllReduce, I32AndBool) {
  Tensor i = Tensor::fromData(std::vector<int32_t>{R(), 7}, {2, 1});
  Tensor sum = d::allReduce(i, d::ReduceOp::Sum);
  EXPECT_EQ(sum.dtype(), DType::I32);
  EXPECT_EQ(sum.shape(), (Dims{2, 1}));
  EXPECT_EQ(sum.toInts(), (std::vector<int64_t>{N() * (N() - 1) / 2, 7 * N()}));
  EXPECT_EQ(d::allReduce(i, d::ReduceOp::Max).toInts(), (std::vector<int64_t>{N() - 1, 7}));
  EXPECT_EQ(d::allReduce(i, d::ReduceOp::Min).toInts(), (std::vector<int64_t>{0, 7}));
  expectError(ErrorKind::TypeError, [&] { d::allReduce(i, d::ReduceOp::Mean); },
              {"\"mean\" needs an f32 tensor, not i32"});
  // Bools: sum and max are "any", min is "all". Rank 0 alone holds true in the first place.
  Tensor b = Tensor::fromBools({R() == 0, true, false}, {3});
  EXPECT_EQ(d::allReduce(b, d::ReduceOp::Sum).toInts(), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(d::allReduce(b, d::ReduceOp::Max).toInts(), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(d::allReduce(b, d::ReduceOp::Min).toInts(),
            (std::vector<int64_t>{N() == 1 ? 1 : 0, 1, 0}));
}

TEST(DistAllReduce, ScalarsEmptyAndStridedInputs) {
  Tensor s = Tensor::scalar(2.0, DType::F32);
  Tensor r = d::allReduce(s, d::ReduceOp::Sum);
  EXPECT_EQ(r.ndim(), 0);
  EXPECT_EQ(r.item(), 2.0 * N());
  Tensor e = Tensor::empty({0, 3}, DType::F32);
  EXPECT_EQ(d::allReduce(e, d::ReduceOp::Sum).shape(), (Dims{0, 3}));
  // A transposed view is reduced in its logical order.
  Tensor m = Tensor::fromData(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}).transpose(0, 1);
  EXPECT_EQ(d::allReduce(m, d::ReduceOp::Max).toDoubles(), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

TEST(DistAllReduce, ResultIsANewTensor) {
  Tensor t = Tensor::fromData(std::vector<float>{1, 2}, {2});
  Tensor r = d::allReduce(t, d::ReduceOp::Sum);
  EXPECT_NE(r.storage().get(), t.storage().get());
  EXPECT_EQ(t.toDoubles(), (std::vector<double>{1, 2}));  // the input is unchanged
}

TEST(DistBroadcast, FromEverySource) {
  for (int src = 0; src < N(); ++src) {
    Tensor t = Tensor::fromData(std::vector<int32_t>{R(), R() * 10, 3}, {3});
    Tensor b = d::broadcast(t, src);
    EXPECT_EQ(b.toInts(), (std::vector<int64_t>{src, src * 10, 3})) << "src " << src;
    EXPECT_NE(b.storage().get(), t.storage().get());
  }
  Tensor f = Tensor::fromBools({R() == 0}, {1});
  EXPECT_EQ(d::broadcast(f, 0).toInts(), (std::vector<int64_t>{1}));
  expectError(
      ErrorKind::ValueError, [&] { d::broadcast(f, N()); },
      {"src = " + std::to_string(N()) + " is not a rank of this world of " + std::to_string(N())});
}

TEST(DistAllGather, UnevenSizesInRankOrder) {
  // Rank r holds r + 1 elements of value r, as a [r + 1, 2] matrix: sizes differ across ranks.
  std::vector<float> mine(static_cast<size_t>(2 * (R() + 1)), static_cast<float>(R()));
  Tensor t = Tensor::fromData(mine, {R() + 1, 2});
  std::vector<Tensor> all = d::allGather(t);
  ASSERT_EQ(static_cast<int>(all.size()), N());
  for (int r = 0; r < N(); ++r) {
    EXPECT_EQ(all[r].shape(), (Dims{r + 1, 2}));
    EXPECT_EQ(all[r].dtype(), DType::F32);
    EXPECT_EQ(all[r].toDoubles(), std::vector<double>(2 * (r + 1), r));
  }
  // An empty part, and i32 and bool.
  Tensor e = Tensor::fromData(std::vector<int32_t>(static_cast<size_t>(R() % 2), 5), {R() % 2});
  std::vector<Tensor> parts = d::allGather(e);
  for (int r = 0; r < N(); ++r) EXPECT_EQ(parts[r].numel(), r % 2);
  std::vector<Tensor> bools = d::allGather(Tensor::fromBools({R() == 1}, {1}));
  for (int r = 0; r < N(); ++r) EXPECT_EQ(bools[r].toInts()[0], r == 1 ? 1 : 0);
}

TEST(DistAllGather, Text) {
  std::vector<std::string> all = d::allGatherText(std::string(R(), 'x'), "test");
  ASSERT_EQ(static_cast<int>(all.size()), N());
  for (int r = 0; r < N(); ++r) EXPECT_EQ(all[r], std::string(r, 'x'));
}

// Payloads above the inline limit (8 KiB, Note [Small payloads inline]) go through MPI's own
// collectives after the headers; the results are the same.
TEST(DistLarge, PayloadsThroughMpiCollectives) {
  const int64_t n = 5000;  // 20 KB of f32 or i32
  std::vector<float> f(n);
  std::vector<int32_t> i(n);
  for (int64_t k = 0; k < n; ++k) {
    f[k] = static_cast<float>(k % 7 + R());
    i[k] = static_cast<int32_t>(k * (R() + 1));
  }
  Tensor tf = Tensor::fromData(f, {n}), ti = Tensor::fromData(i, {n});
  std::vector<double> sum = d::allReduce(tf, d::ReduceOp::Sum).toDoubles();
  std::vector<int64_t> max = d::allReduce(ti, d::ReduceOp::Max).toInts();
  for (int64_t k = 0; k < n; ++k) {
    ASSERT_EQ(sum[k], N() * (k % 7) + N() * (N() - 1) / 2) << k;
    ASSERT_EQ(max[k], k * N()) << k;
  }
  EXPECT_EQ(d::broadcast(ti, N() - 1).toInts()[n - 1], (n - 1) * N());
  // Rank r gathers [r * 3000] elements: some parts inline-sized, others not.
  Tensor part =
      Tensor::fromData(std::vector<int32_t>(static_cast<size_t>(R() * 3000), R()), {R() * 3000});
  std::vector<Tensor> parts = d::allGather(part);
  for (int r = 0; r < N(); ++r) {
    ASSERT_EQ(parts[r].numel(), r * 3000);
    if (r) {
      EXPECT_EQ(parts[r].toInts().back(), r);
    }
  }
  std::vector<std::string> texts = d::allGatherText(std::string(R() * 5000, 'a' + R()), "test");
  for (int r = 0; r < N(); ++r) EXPECT_EQ(texts[r], std::string(r * 5000, 'a' + r));
}

TEST(DistBarrier, Returns) {
  uint64_t before = d::collectiveCount();
  d::barrier();
  EXPECT_EQ(d::collectiveCount(), before + 1);
}

// Ranks that disagree all raise the same ValueError, and the world goes on working.
TEST(DistErrors, MismatchesRaiseOnEveryRankAndTheWorldGoesOn) {
  if (N() == 1) GTEST_SKIP() << "a world of one cannot disagree with itself";
  const std::string last = std::to_string(N() - 1);
  Tensor byRank = Tensor::empty({2, R() == N() - 1 ? 4 : 3}, DType::F32);
  expectError(ErrorKind::ValueError, [&] { d::allReduce(byRank, d::ReduceOp::Sum); },
              {"dist.all_reduce: the dtypes or shapes differ across ranks", "f32 [2, 3]",
               "rank " + last + " has f32 [2, 4]"});
  Tensor dtypes = R() == 0 ? Tensor::empty({2}, DType::I32) : Tensor::empty({2}, DType::F32);
  expectError(ErrorKind::ValueError, [&] { d::broadcast(dtypes, 0); },
              {"rank 0 has i32 [2]", "f32 [2]"});
  Tensor same = Tensor::empty({2}, DType::F32);
  expectError(ErrorKind::ValueError,
              [&] { d::allReduce(same, R() == 0 ? d::ReduceOp::Max : d::ReduceOp::Sum); },
              {"the ops differ", "rank 0 has \"max\""});
  expectError(ErrorKind::ValueError, [&] { d::broadcast(same, R() == 0 ? 1 : 0); },
              {"the sources differ", "rank 0 has src = 1"});
  // all_gather takes different sizes, not different ranks (numbers of dims).
  Tensor ndims = R() == 0 ? Tensor::empty({2}, DType::F32) : Tensor::empty({1, 2}, DType::F32);
  expectError(
      ErrorKind::ValueError, [&] { d::allGather(ndims); },
      {"dist.all_gather: the dtypes or ranks (numbers of dims) differ", "f32 [2]", "f32 [1, 2]"});
  // Different collectives at the same point.
  expectError(
      ErrorKind::ValueError,
      [&] {
        if (R() == 0)
          d::barrier();
        else
          d::allReduce(same, d::ReduceOp::Sum);
      },
      {"the ranks are in different collectives", "rank 0 is in dist.barrier", "dist.all_reduce"});
  // After all that, a collective works.
  Tensor one = Tensor::fromData(std::vector<float>{1}, {1});
  EXPECT_EQ(d::allReduce(one, d::ReduceOp::Sum).item(), N());
}

}  // namespace
