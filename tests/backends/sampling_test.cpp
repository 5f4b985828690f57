// randperm, multinomial, bernoulli: distributions that a wrong kernel fails (frequencies
// against the probabilities, permutations, no repeats without replacement, zero-probability
// categories never drawn), reproducibility under seed(), and the value errors.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "backends/cpu/sampling_keys.h"
#include "backends/rng.h"
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

OpAttrs count(int64_t n, bool replacement = false) {
  OpAttrs a = shapeAttr({n});
  a.scalars = {replacement ? 1.0 : 0.0};
  return a;
}

std::vector<int64_t> randperm(int64_t n) {
  return run(OpKind::Randperm, {}, shapeAttr({n})).toInts();
}

TEST(Sampling, RandpermIsAPermutationReproducibleUnderSeed) {
  for (int64_t n : {0, 1, 2, 7, 1000}) {
    seed(5);
    std::vector<int64_t> p = randperm(n);
    std::vector<int64_t> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(sorted[size_t(i)], i) << "n = " << n;
    seed(5);
    EXPECT_EQ(randperm(n), p);
  }
  seed(5);
  const std::vector<int64_t> a = randperm(1000);
  seed(6);
  EXPECT_NE(randperm(1000), a);
  // Consecutive draws continue the stream: different permutations.
  seed(5);
  randperm(1000);
  EXPECT_NE(randperm(1000), a);
  EXPECT_EQ(run(OpKind::Randperm, {}, shapeAttr({4})).dtype(), DType::I32);
}

TEST(Sampling, RandpermIsUniform) {
  // Each of the 6 permutations of 3 elements about 1/6 of the time; position 0 of a 10-
  // permutation holds each value about 1/10 of the time.
  seed(11);
  std::map<std::vector<int64_t>, int> seen;
  const int draws = 30000;
  for (int i = 0; i < draws; ++i) ++seen[randperm(3)];
  ASSERT_EQ(seen.size(), 6u);
  for (const auto& [perm, c] : seen) EXPECT_NEAR(c / double(draws), 1.0 / 6, 0.015);
  std::vector<int> first(10);
  for (int i = 0; i < draws; ++i) ++first[size_t(randperm(10)[0])];
  for (int c : first) EXPECT_NEAR(c / double(draws), 0.1, 0.012);
}

TEST(Sampling, MultinomialWithReplacementFollowsTheProbabilities) {
  seed(3);
  // Unnormalized weights; category 2 has none and must never be drawn.
  const std::vector<float> w = {1, 3, 0, 6};
  const int64_t n = 200000;
  Tensor out = run(OpKind::Multinomial, {F(w)}, count(n, true));
  EXPECT_EQ(out.dtype(), DType::I32);
  EXPECT_EQ(out.shape(), (Dims{n}));
  std::vector<int64_t> hist(4);
  for (int64_t v : out.toInts()) ++hist[size_t(v)];
  EXPECT_EQ(hist[2], 0);
  for (size_t c = 0; c < 4; ++c) EXPECT_NEAR(hist[c] / double(n), w[c] / 10.0, 0.005) << c;
  // 2-D: one distribution per row.
  Tensor rows = run(OpKind::Multinomial, {F({0, 1, 0, 1, 0, 0}, {2, 3})}, count(50, true));
  EXPECT_EQ(rows.shape(), (Dims{2, 50}));
  std::vector<int64_t> r = rows.toInts();
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(r[size_t(i)], 1);
    EXPECT_EQ(r[size_t(50 + i)], 0);
  }
}

TEST(Sampling, MultinomialWithoutReplacementNeverRepeats) {
  seed(8);
  // With n = number of nonzero categories every nonzero category appears once, zeros never.
  for (int i = 0; i < 200; ++i) {
    std::vector<int64_t> d =
        run(OpKind::Multinomial, {F({0.5f, 0, 2, 1, 0, 0.1f})}, count(4)).toInts();
    std::sort(d.begin(), d.end());
    ASSERT_EQ(d, (std::vector<int64_t>{0, 2, 3, 5}));
  }
  // First draw follows p; the second, given the first, follows the renormalized rest:
  // P(first = 0) = 0.6, P(second = 0) = 0.3 * 0.6 / 0.7 + 0.1 * 0.6 / 0.9 (= 0.324).
  const int rows = 40000;
  std::vector<float> p;
  for (int i = 0; i < rows; ++i) p.insert(p.end(), {0.6f, 0.3f, 0.1f});
  std::vector<int64_t> d = run(OpKind::Multinomial, {F(p, {rows, 3})}, count(2)).toInts();
  int first0 = 0, second0 = 0;
  for (int i = 0; i < rows; ++i) {
    ASSERT_NE(d[size_t(2 * i)], d[size_t(2 * i + 1)]);
    first0 += d[size_t(2 * i)] == 0;
    second0 += d[size_t(2 * i + 1)] == 0;
  }
  EXPECT_NEAR(first0 / double(rows), 0.6, 0.01);
  EXPECT_NEAR(second0 / double(rows), 0.3 * 0.6 / 0.7 + 0.1 * 0.6 / 0.9, 0.01);
}

TEST(Sampling, MultinomialErrors) {
  expectUserError([] { run(OpKind::Multinomial, {F({0.5f, -0.1f, 1})}, count(1, true)); },
                  ErrorKind::ValueError);
  expectUserError([] { run(OpKind::Multinomial, {F({0, 0, 0})}, count(1, true)); },
                  ErrorKind::ValueError);
  expectUserError([] { run(OpKind::Multinomial, {F({1, NAN})}, count(1, true)); },
                  ErrorKind::ValueError);
  // Three categories but only two with mass: at most two draws without replacement.
  expectUserError([] { run(OpKind::Multinomial, {F({1, 0, 1})}, count(3)); },
                  ErrorKind::ValueError);
  EXPECT_EQ(run(OpKind::Multinomial, {F({1, 0, 1})}, count(2)).numel(), 2);
  // More samples than categories: refused by the shape rule, with replacement allowed.
  expectUserError([] { run(OpKind::Multinomial, {F({1, 1})}, count(3)); }, ErrorKind::ValueError);
  EXPECT_EQ(run(OpKind::Multinomial, {F({1, 1})}, count(3, true)).numel(), 3);
  expectUserError([] { run(OpKind::Multinomial, {F({1, 1}, {1, 1, 2})}, count(1)); },
                  ErrorKind::ShapeError);
  expectUserError([] { run(OpKind::Multinomial, {I({1, 1})}, count(1)); }, ErrorKind::TypeError);
  expectUserError([] { run(OpKind::Randperm, {}, shapeAttr({-2})); }, ErrorKind::ValueError);
}

TEST(Sampling, BernoulliMeanIsP) {
  seed(4);
  const int64_t n = 100000;
  for (float p : {0.0f, 0.1f, 0.5f, 0.93f, 1.0f}) {
    Tensor pt = run(OpKind::Full, {}, [&] {
      OpAttrs a = shapeAttr({n});
      a.scalars = {p};
      return a;
    }());
    Tensor out = run(OpKind::Bernoulli, {pt});
    EXPECT_EQ(out.dtype(), DType::F32);
    double mean = 0;
    std::set<double> values;
    for (double v : out.toDoubles()) mean += v / n, values.insert(v);
    EXPECT_NEAR(mean, p, 0.006) << p;
    for (double v : values) EXPECT_TRUE(v == 0.0 || v == 1.0);
  }
  // Per-element probabilities, in p's shape.
  Tensor out = run(OpKind::Bernoulli, {F({1, 0, 1, 0, 1, 1}, {2, 3})});
  EXPECT_EQ(out.shape(), (Dims{2, 3}));
  EXPECT_EQ(out.toDoubles(), (std::vector<double>{1, 0, 1, 0, 1, 1}));
  seed(9);
  const std::vector<double> a = run(OpKind::Bernoulli, {F({0.5f, 0.5f, 0.5f, 0.5f})}).toDoubles();
  seed(9);
  EXPECT_EQ(run(OpKind::Bernoulli, {F({0.5f, 0.5f, 0.5f, 0.5f})}).toDoubles(), a);
  expectUserError([] { run(OpKind::Bernoulli, {F({0.5f, 1.5f})}); }, ErrorKind::ValueError);
  expectUserError([] { run(OpKind::Bernoulli, {I({1})}); }, ErrorKind::TypeError);
}

// Pearson's statistic of observed counts against expected ones.
double chiSquare(const std::vector<double>& observed, const std::vector<double>& expected) {
  double s = 0;
  for (size_t i = 0; i < observed.size(); ++i) {
    const double d = observed[i] - expected[i];
    s += d * d / expected[i];
  }
  return s;
}

// Chi-square checks with fixed seeds: not flaky (the draws are a pure function of the seed),
// and a bound far above the statistic's range for the degrees of freedom (its 1 - 1e-6
// quantile), so only a wrong distribution fails.
TEST(Sampling, RandpermChiSquareOverAllPermutationsOf4) {
  seed(21);
  std::map<std::vector<int64_t>, double> seen;
  const int draws = 24000;
  for (int i = 0; i < draws; ++i) ++seen[randperm(4)];
  ASSERT_EQ(seen.size(), 24u);
  std::vector<double> obs, exp;
  for (const auto& [perm, c] : seen) obs.push_back(c), exp.push_back(draws / 24.0);
  EXPECT_LT(chiSquare(obs, exp), 75.0);  // 23 degrees of freedom
}

TEST(Sampling, MultinomialWithReplacementChiSquare) {
  seed(22);
  // Weights over three decades, a zero, and a subnormal one (drawn about never).
  const std::vector<float> w = {1, 5, 0, 20, 0.5f, 100, 3, 1e-40f, 7, 60};
  double total = 0;
  for (float v : w) total += v;
  const int64_t n = 300000;
  std::vector<double> obs(w.size()), exp(w.size());
  for (int64_t v : run(OpKind::Multinomial, {F(w)}, count(n, true)).toInts()) ++obs[size_t(v)];
  EXPECT_EQ(obs[2], 0);
  std::vector<double> o, e;
  for (size_t c = 0; c < w.size(); ++c)
    if (w[c] > 1e-30f) o.push_back(obs[c]), e.push_back(n * w[c] / total);
  EXPECT_LT(chiSquare(o, e), 50.0);  // 8 degrees of freedom
  // Consecutive draws are independent: the 2 x 2 table of (draw < 5, next draw < 5).
  const std::vector<int64_t> d = run(OpKind::Multinomial, {F({1, 1, 1, 1, 1, 1, 1, 1, 1, 1})},
                                     count(100000, true)).toInts();
  std::vector<double> pairs(4);
  for (size_t i = 0; i + 1 < d.size(); i += 2) ++pairs[size_t(2 * (d[i] < 5) + (d[i + 1] < 5))];
  EXPECT_LT(chiSquare(pairs, std::vector<double>(4, 50000 / 4.0)), 30.0);
}

TEST(Sampling, MultinomialWithoutReplacementChiSquareOfOrderedPairs) {
  // Two draws from 4 categories: P(i then j) = p_i p_j / (1 - p_i), PyTorch's distribution.
  seed(23);
  const std::vector<float> p = {0.1f, 0.2f, 0.3f, 0.4f};
  const int rows = 60000;
  std::vector<float> probs;
  for (int i = 0; i < rows; ++i) probs.insert(probs.end(), p.begin(), p.end());
  const std::vector<int64_t> d = run(OpKind::Multinomial, {F(probs, {rows, 4})}, count(2)).toInts();
  std::vector<double> obs(16), exp(16);
  for (int i = 0; i < rows; ++i) ++obs[size_t(4 * d[size_t(2 * i)] + d[size_t(2 * i + 1)])];
  std::vector<double> o, e;
  for (size_t i = 0; i < 4; ++i)
    for (size_t j = 0; j < 4; ++j) {
      if (i == j) {
        EXPECT_EQ(obs[4 * i + j], 0) << "a category drawn twice";
        continue;
      }
      o.push_back(obs[4 * i + j]);
      e.push_back(rows * p[i] * p[j] / (1 - p[i]));
    }
  EXPECT_LT(chiSquare(o, e), 60.0);  // 11 degrees of freedom
  // A full draw of many categories is a permutation of the nonzero ones, and the first draw
  // of a long row follows p (the keys' integer arithmetic across weights of many scales).
  std::vector<float> wide(1000);
  for (size_t c = 0; c < wide.size(); ++c) wide[c] = c % 7 == 0 ? 0.0f : float(1 + c % 13);
  std::vector<int64_t> all = run(OpKind::Multinomial, {F(wide)}, count(857)).toInts();
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
  for (int64_t c : all) EXPECT_NE(c % 7, 0);
  const std::vector<float> scales = {1e-30f, 3e-30f, 1e20f, 3e20f};  // 1 : 3 within each pair
  std::vector<double> first(4);
  for (int i = 0; i < 20000; ++i)
    ++first[size_t(run(OpKind::Multinomial, {F({scales[0], scales[1]})}, count(1)).toInts()[0])];
  EXPECT_LT(chiSquare({first[0], first[1]}, {5000, 15000}), 25.0);
  for (int i = 0; i < 20000; ++i)
    ++first[size_t(2 + run(OpKind::Multinomial, {F({scales[2], scales[3]})}, count(1)).toInts()[0])];
  EXPECT_LT(chiSquare({first[2], first[3]}, {5000, 15000}), 25.0);
}

TEST(Sampling, BernoulliChiSquare) {
  seed(24);
  const int64_t n = 50000;
  std::vector<float> p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) p[size_t(i)] = float(i % 5) / 4.0f;  // 0, .25, .5, .75, 1
  const std::vector<double> d = run(OpKind::Bernoulli, {F(p)}).toDoubles();
  std::vector<double> ones(5);
  for (int64_t i = 0; i < n; ++i) ones[size_t(i % 5)] += d[size_t(i)];
  EXPECT_EQ(ones[0], 0);
  EXPECT_EQ(ones[4], n / 5);
  for (size_t c = 1; c < 4; ++c) {
    const double m = n / 5.0, q = double(c) / 4;
    EXPECT_LT(chiSquare({ones[c], m - ones[c]}, {m * q, m * (1 - q)}), 25.0) << c;
  }
}

// The integer pieces of Note [Exact sampling keys] against double arithmetic.
TEST(Sampling, ExactKeysFollowTheirFormulas) {
  using namespace cpu::sampling;
  for (uint32_t x : {1u, 2u, 3u, 1000u, 123456789u, 0x80000000u, 0xffffffffu}) {
    const double want = std::log2(double(x)) * 67108864.0;
    EXPECT_NEAR(double(log2Fixed(x)), want, 8.0) << x;
  }
  EXPECT_EQ(expFixed(~0u), 0u);
  EXPECT_EQ(expFixed(0), 32u << 26);
  // raceKey orders pairs as -ln(u) / p does, apart from near-ties.
  uint64_t state = 88172645463325252ull;
  auto next = [&] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
  };
  int agree = 0;
  const int pairs = 20000;
  for (int i = 0; i < pairs; ++i) {
    const uint32_t w1 = uint32_t(next()), w2 = uint32_t(next());
    const float p1 = float(std::ldexp(1.0 + double(next() % 1000) / 1000, int(next() % 200) - 100));
    const float p2 = float(std::ldexp(1.0 + double(next() % 1000) / 1000, int(next() % 200) - 100));
    const double k1 = -std::log((double(w1) + 1) / 4294967296.0) / p1;
    const double k2 = -std::log((double(w2) + 1) / 4294967296.0) / p2;
    agree += (raceKey(w1, bitsOf(p1)) < raceKey(w2, bitsOf(p2))) == (k1 < k2);
  }
  EXPECT_GE(agree, pairs - 2);
  EXPECT_GT(raceKey(0, bitsOf(1e-45f)), raceKey(0, bitsOf(1e-44f)));  // subnormals keep order
  EXPECT_LT(raceKey(0, bitsOf(3e38f)), kNeverKey);
  // Quantized weights keep their ratios to 24 bits; 2^-32 below the row's largest is 0.
  const uint32_t emax = bitsOf(8.0f) >> 23;
  EXPECT_EQ(quantized(bitsOf(8.0f), emax), 0x80000000u);
  EXPECT_EQ(quantized(bitsOf(3.0f), emax), 0x30000000u);
  EXPECT_EQ(quantized(bitsOf(8.0f * 0x1p-33f), emax), 0u);
  for (uint64_t total : {uint64_t{1}, uint64_t{12345}, uint64_t{1} << 40, (uint64_t{1} << 62) + 7})
    for (uint32_t w : {0u, 1u, 0x80000000u, 0xffffffffu}) {
      const uint64_t t = drawTarget(w, total);
      EXPECT_LT(t, total);
      EXPECT_EQ(t, uint64_t((static_cast<unsigned __int128>(total) * w) >> 32));
    }
}

// Note [Race key candidates]: drawing few of many categories computes exact keys for the
// candidates only; the draws equal the n smallest of every exact key (made here from the same
// words, read back through randint over [0, 2^32)), over weights of every scale.
TEST(Sampling, RaceCandidatesGiveTheDrawsOfEveryExactKey) {
  using namespace cpu::sampling;
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
  };
  for (auto [rows, k, n] : std::vector<std::array<int64_t, 3>>{
           {1, 100000, 1}, {4, 5000, 7}, {3, 2000, 100}, {2, 700, 80}}) {
    std::vector<float> w(size_t(rows * k));
    for (float& v : w)
      v = next() % 5 == 0 ? 0.0f
                          : float(std::ldexp(1.0 + double(next() % 1000) / 1000,
                                             int(next() % 240) - 130));
    OpAttrs words = shapeAttr({rows * k});
    words.dtype = DType::I32;
    words.scalars = {0.0, 4294967296.0};
    seed(61 + uint64_t(k));
    const std::vector<int64_t> bits = run(OpKind::Randint, {}, words).toInts();
    seed(61 + uint64_t(k));
    const std::vector<int64_t> got =
        run(OpKind::Multinomial, {F(w, {rows, k})}, count(n)).toInts();
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<uint64_t> all;
      for (int64_t c = 0; c < k; ++c) {
        const float p = w[size_t(r * k + c)];
        if (p > 0)
          all.push_back(uint64_t(raceKey(uint32_t(bits[size_t(r * k + c)]), bitsOf(p))) << 32 |
                        uint64_t(c));
      }
      std::sort(all.begin(), all.end());
      for (int64_t d = 0; d < n; ++d)
        ASSERT_EQ(got[size_t(r * n + d)], int64_t(uint32_t(all[size_t(d)])))
            << "row " << r << " draw " << d << " of " << k;
    }
  }
}

}  // namespace
}  // namespace tessel::backends::testing
