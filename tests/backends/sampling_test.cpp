// randperm, multinomial, bernoulli: distributions that a wrong kernel fails (frequencies
// against the probabilities, permutations, no repeats without replacement, zero-probability
// categories never drawn), reproducibility under seed(), and the value errors.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

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

}  // namespace
}  // namespace tessel::backends::testing
