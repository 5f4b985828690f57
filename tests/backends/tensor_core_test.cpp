// Tensor handles, views over shared storage, contiguous copies and host conversions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "backends/storage.h"
#include "backends/tensor.h"
#include "shapes/user_error.h"

namespace tessel::backends {
namespace {

Tensor iota(Dims shape) {
  std::vector<float> v(numelOf(shape));
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i);
  return Tensor::fromData(std::span<const float>(v), shape);
}

TEST(TensorCore, FromDataAndToDoubles) {
  Tensor t = iota({2, 3});
  EXPECT_EQ(t.shape(), (Dims{2, 3}));
  EXPECT_EQ(t.strides(), (Dims{3, 1}));
  EXPECT_EQ(t.dtype(), DType::F32);
  EXPECT_EQ(t.device(), Device::Cpu);
  EXPECT_EQ(t.toDoubles(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  std::vector<int32_t> ints = {1, -2};
  Tensor i = Tensor::fromData(std::span<const int32_t>(ints), {2});
  EXPECT_EQ(i.toInts(), (std::vector<int64_t>{1, -2}));
  std::vector<bool> bs = {true, false, true};
  EXPECT_EQ(Tensor::fromBools(bs, {3}).toInts(), (std::vector<int64_t>{1, 0, 1}));
}

TEST(TensorCore, StorageIsAligned) {
  Tensor t = Tensor::empty({17}, DType::F32);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data<float>()) % 64, 0u);
}

/// The VmFlags line of the mapping in /proc/self/smaps that holds `p` ("" if none is found).
std::string vmFlagsAt(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= at && at < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

// Note [Huge pages]: a tensor of 4 MiB or more starts on a 2 MiB boundary, and the kernel holds
// the MADV_HUGEPAGE advice for its pages ("hg" in the mapping's flags); a smaller one does not.
TEST(TensorCore, LargeStorageAsksForHugePages) {
  if (const char* env = std::getenv("TESSEL_HUGE_PAGES"); env && std::string(env) == "0")
    GTEST_SKIP() << "TESSEL_HUGE_PAGES=0 turns the advice off";
  Tensor big = Tensor::empty({5, 1 << 18}, DType::F32);  // 5 MiB
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.data<float>()) % (uintptr_t{2} << 20), 0u);
  const std::string flags = vmFlagsAt(big.data<float>());
  if (flags.empty()) GTEST_SKIP() << "no /proc/self/smaps here";
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  Tensor small = Tensor::empty({1 << 18}, DType::F32);  // 1 MiB: ordinary pages
  EXPECT_EQ(vmFlagsAt(small.data<float>()).find(" hg"), std::string::npos);
}

// A tensor that outlives its thread's small-block cache (a thread_local made before the cache,
// or a static freed after main) must be freed without touching the dead cache. Before the fix
// the block was pushed into the destroyed free list, whose buffer was already freed, and glibc
// aborted on the double free (bench_vulkan_graph's static graphs hit it at exit).
TEST(TensorCoreDeathTest, TensorFreedAfterThreadCacheDies) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        for (int round = 0; round < 200; ++round) {
          std::thread([] {
            thread_local std::optional<Tensor> holder;  // constructed before the cache
            holder.emplace();
            *holder = Tensor::empty({3}, DType::F32);  // the cache is born here, dies first
            Tensor::empty({3}, DType::F32);  // leaves a block (and a buffer) in the free list
          }).join();
          std::vector<Tensor> churn;
          for (int i = 0; i < 64; ++i) churn.push_back(Tensor::empty({i + 1}, DType::F32));
        }
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

// Note [Block cache]: four classes per octave from 64 KiB, 1-MiB steps from 16 MiB.
TEST(TensorCore, StorageSizeClasses) {
  EXPECT_EQ(storageSizeClass(0), 64u);
  EXPECT_EQ(storageSizeClass(100), 128u);
  EXPECT_EQ(storageSizeClass(65535), 65536u);
  EXPECT_EQ(storageSizeClass(65536), 65536u);
  EXPECT_EQ(storageSizeClass(65537), 81920u);          // 1.25 * 64 KiB
  EXPECT_EQ(storageSizeClass(100 * 1024), 114688u);    // 1.75 * 64 KiB
  EXPECT_EQ(storageSizeClass(3 << 20), size_t{3} << 20);
  EXPECT_EQ(storageSizeClass((3 << 20) + 1), size_t{7} << 19);  // 3.5 MiB
  EXPECT_EQ(storageSizeClass((size_t{17} << 20) + 1), size_t{18} << 20);
  for (size_t b = 1; b < (size_t{64} << 20); b = b * 9 / 8 + 1) {
    size_t c = storageSizeClass(b);
    EXPECT_GE(c, b);
    EXPECT_EQ(c % 64, 0u);
    if (b >= 65536) {
      EXPECT_LE(c, b + b / 4) << b;
    }
  }
}

// A batch size that changes every step: the sizes differ, their classes repeat, and a freed
// block of the class is handed out again instead of fresh (page-faulting) memory.
TEST(TensorCore, NearbySizesReuseACachedBlock) {
  const size_t before = cachedStorageBytes();
  void* first = nullptr;
  {
    Tensor a = Tensor::empty({301, 256}, DType::F32);  // 308,224 bytes: class 327,680
    first = a.data<float>();
    EXPECT_EQ(a.storage()->bytes(), 327680u);
  }
  EXPECT_EQ(cachedStorageBytes(), before + 327680u);
  Tensor b = Tensor::empty({317, 256}, DType::F32);  // 324,608 bytes: the same class
  EXPECT_EQ(b.data<float>(), first);
  EXPECT_EQ(cachedStorageBytes(), before);
}

TEST(TensorCore, ViewsShareStorage) {
  Tensor t = iota({2, 3});
  Tensor tt = t.transpose(0, 1);
  EXPECT_EQ(tt.storage(), t.storage());
  EXPECT_FALSE(tt.isContiguous());
  EXPECT_EQ(tt.toDoubles(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  Tensor s = t.slice(1, 0, 3, 2);
  EXPECT_EQ(s.storage(), t.storage());
  EXPECT_EQ(s.toDoubles(), (std::vector<double>{0, 2, 3, 5}));
  Tensor row = t.select(0, 1);
  EXPECT_EQ(row.toDoubles(), (std::vector<double>{3, 4, 5}));
  Tensor e = t.select(0, 0).unsqueeze(0).expand(Dims{4, 3});
  EXPECT_EQ(e.strides()[0], 0);
  EXPECT_EQ(e.storage(), t.storage());
  EXPECT_EQ(e.toDoubles().size(), 12u);
  EXPECT_NE(t.alias().id(), t.id());
  Tensor copy = t;
  EXPECT_EQ(copy.id(), t.id());
}

TEST(TensorCore, ContiguousCopiesOnlyWhenNeeded) {
  Tensor t = iota({2, 3});
  EXPECT_EQ(t.contiguous().id(), t.id());
  Tensor c = t.transpose(0, 1).contiguous();
  EXPECT_NE(c.storage(), t.storage());
  EXPECT_TRUE(c.isContiguous());
  EXPECT_EQ(c.toDoubles(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(TensorCore, ReshapeViewsWhenStridesAllow) {
  Tensor t = iota({2, 3, 4});
  Tensor r = t.reshape(Dims{6, 4});
  EXPECT_EQ(r.storage(), t.storage());
  // A slice along the last dim can still merge the leading dims.
  Tensor s = t.slice(2, 0, 2, 1);
  Tensor sr = s.reshape(Dims{6, 2});
  EXPECT_EQ(sr.storage(), t.storage());
  EXPECT_EQ(sr.toDoubles(), s.toDoubles());
  // A transpose cannot be flattened without a copy.
  Tensor tr = t.transpose(0, 2);
  Tensor f = tr.reshape(Dims{24});
  EXPECT_NE(f.storage(), t.storage());
  EXPECT_EQ(f.toDoubles(), tr.toDoubles());
}

// Reshape of many strided views: whether it views or copies, the values are the row-major
// values of the source.
TEST(TensorCore, ReshapeOfStridedViewsKeepsRowMajorOrder) {
  Tensor base = iota({4, 3, 2});
  std::vector<Tensor> views = {base,
                               base.transpose(0, 1),
                               base.permute(Dims{2, 0, 1}),
                               base.slice(0, 1, 4, 2),
                               base.slice(1, 0, 3, 2),
                               base.select(2, 1).unsqueeze(1),
                               base.slice(2, 0, 1, 1)};
  for (const Tensor& v : views) {
    const int64_t n = v.numel();
    for (const Dims& shape : {Dims{n}, Dims{1, n}, Dims{n, 1}, Dims{n / 2, 2}, Dims{2, 1, n / 2}}) {
      if (numelOf(shape) != n) continue;
      Tensor r = v.reshape(shape);
      EXPECT_EQ(r.shape(), shape);
      EXPECT_EQ(r.toDoubles(), v.toDoubles());
    }
  }
}

TEST(TensorCore, EmptyAndScalar) {
  Tensor e = Tensor::empty({0, 3}, DType::F32);
  EXPECT_EQ(e.numel(), 0);
  EXPECT_TRUE(e.toDoubles().empty());
  EXPECT_EQ(e.contiguous().numel(), 0);
  Tensor s = Tensor::scalar(2.5, DType::F32);
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.item(), 2.5);
}

TEST(TensorCore, ItemOfManyIsValueError) {
  try {
    iota({2}).item();
    FAIL();
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ValueError);
  }
}

}  // namespace
}  // namespace tessel::backends
