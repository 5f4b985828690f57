// Philox known-answer vectors and PyTorch-style printing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "backends/cpu/isa_clones.h"
#include "backends/cpu/random_bits.h"
#include "backends/format.h"
#include "backends/rng.h"

namespace tessel::backends {
namespace {

// Known-answer tests from Random123's kat_vectors for philox4x32_10.
TEST(Philox, KnownAnswers) {
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}),
            (std::array<uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(
      philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
      (std::array<uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
      (std::array<uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(Philox, SeedRestartsTheStream) {
  seed(7);
  PhiloxStream a = reserveRandom(10);
  PhiloxStream b = reserveRandom(1);
  EXPECT_EQ(a.base, 0u);
  EXPECT_EQ(b.base, 3u);  // 10 words take 3 blocks
  seed(7);
  EXPECT_EQ(reserveRandom(4).block(0), a.block(0));
}

Tensor floats(std::vector<float> v, Dims shape) {
  return Tensor::fromData(std::span<const float>(v), shape);
}

// Note [Vectorized Philox]: the batched words are philox4x32_10's, counter by counter, across
// lane-chunk edges (64), a counter crossing 2^32 and keys with both halves set.
// Both paths of philoxWords: the AVX-512 one where the CPU has it (Note [Philox on AVX-512]),
// and the portable one.
void expectOneAtATimeWords() {
  for (uint64_t key : {uint64_t{0}, uint64_t{42}, uint64_t{0x123456789abcdefULL}}) {
    PhiloxStream s{key, 0xFFFFFFF0ULL};  // counters cross 2^32: the high word changes
    for (int count : {1, 3, 15, 16, 17, 33, 64, 65, 200}) {
      std::vector<uint32_t> words(4 * size_t(count));
      cpu::philoxWords(s, 5, count, words.data());
      for (int j = 0; j < count; ++j) {
        std::array<uint32_t, 4> w = s.block(5 + uint64_t(j));
        for (int k = 0; k < 4; ++k)
          ASSERT_EQ(words[4 * j + k], w[k]) << "key " << key << " counter " << j << " word " << k;
      }
    }
  }
}
TEST(Philox, BatchedWordsAreTheOneAtATimeWords) {
  if (!cpu::avx512PathsEnabled()) std::printf("no AVX-512 here: the portable path only\n");
  expectOneAtATimeWords();
  cpu::ScopedPortableKernels portable;
  EXPECT_FALSE(cpu::avx512PathsEnabled());
  expectOneAtATimeWords();
}

TEST(Format, FloatsIntsBools) {
  EXPECT_EQ(formatTensor(floats({1, 2, 3, 4}, {2, 2})), "tensor([[1., 2.],\n        [3., 4.]])");
  EXPECT_EQ(formatTensor(floats({1.5f, -2.25f}, {2})), "tensor([ 1.5000, -2.2500])");
  EXPECT_EQ(formatTensor(floats({1e-5f, 1.f}, {2})), "tensor([1.0000e-05, 1.0000e+00])");
  EXPECT_EQ(formatTensor(floats({3.5f}, {})), "tensor(3.5000)");
  std::vector<int32_t> ints = {1, -20, 300};
  EXPECT_EQ(formatTensor(Tensor::fromData(std::span<const int32_t>(ints), {3})),
            "tensor([  1, -20, 300])");
  std::vector<bool> bs = {true, false};
  EXPECT_EQ(formatTensor(Tensor::fromBools(bs, {2})), "tensor([ true, false])");
}

TEST(Format, NonFiniteAndZeros) {
  EXPECT_EQ(formatTensor(floats({0, 0}, {2})), "tensor([0., 0.])");
  EXPECT_EQ(formatTensor(floats({1, NAN, INFINITY}, {3})), "tensor([1., nan, inf])");
}

TEST(Format, Empty) {
  EXPECT_EQ(formatTensor(floats({}, {0})), "tensor([])");
  EXPECT_EQ(formatTensor(Tensor::empty({0, 3}, DType::I32)), "tensor([], shape=[0, 3], dtype=i32)");
}

TEST(Format, ThreeDimsBlankLineBetweenBlocks) {
  EXPECT_EQ(formatTensor(floats({1, 2, 3, 4}, {2, 1, 2})),
            "tensor([[[1., 2.]],\n\n        [[3., 4.]]])");
}

TEST(Format, SummarizesLargeTensors) {
  std::vector<float> v(2000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i + 1000);
  EXPECT_EQ(formatTensor(floats(v, {2000})),
            "tensor([1000., 1001., 1002.,  ..., 2997., 2998., 2999.], shape=[2000])");
  EXPECT_EQ(formatTensor(floats(v, {1000, 2})),
            "tensor([[1000., 1001.],\n        [1002., 1003.],\n        [1004., 1005.],\n"
            "        ...,\n        [2994., 2995.],\n        [2996., 2997.],\n"
            "        [2998., 2999.]], shape=[1000, 2])");
  // Like PyTorch, a span of more than 1000x switches to scientific notation.
  v[0] = 1;
  EXPECT_EQ(formatTensor(floats(v, {2000})).substr(0, 30), "tensor([1.0000e+00, 1.0010e+03");
}

TEST(Format, WrapsLongRows) {
  std::vector<float> v(30);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i) + 0.5f;
  std::string s = formatTensor(floats(v, {30}));
  // Width 7 + 2 per element: (80 - 7) / 9 = 8 elements per line.
  EXPECT_EQ(s.substr(0, 80),
            "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n");
}

}  // namespace
}  // namespace tessel::backends
