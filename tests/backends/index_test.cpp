// index_select, gather and the data-dependent ops (nonzero, masked_select/scatter, unique).
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

TEST(Index, IndexSelect) {
  Tensor x = iota({3, 2});
  expectValues(run(OpKind::IndexSelect, {x, I({2, 0, 2})}, dimAttr(0)), {4, 5, 0, 1, 4, 5});
  expectValues(run(OpKind::IndexSelect, {x, I({1})}, dimAttr(1)), {1, 3, 5});
  expectValues(run(OpKind::IndexSelect, {x, I({-1})}, dimAttr(0)), {4, 5});  // wraps
  expectUserError(
      [&] {
        run(OpKind::IndexSelect, {x, I({3})}, dimAttr(0));
      },
      ErrorKind::IndexError, {"index_select", "3", "size 3"});
}

TEST(Index, Gather) {
  Tensor x = F({1, 2, 3, 4}, {2, 2});
  Tensor idx = I({0, 0, 1, 0}, {2, 2});
  expectValues(run(OpKind::Gather, {x, idx}, dimAttr(1)), {1, 1, 4, 3});
  expectValues(run(OpKind::Gather, {x, idx}, dimAttr(0)), {1, 2, 3, 2});
  expectUserError(
      [&] {
        run(OpKind::Gather, {x, I({0, 2}, {2, 1})}, dimAttr(1));
      },
      ErrorKind::IndexError, {"gather"});
  expectUserError(
      [&] {
        run(OpKind::Gather, {x, F({0, 0}, {2, 1})}, dimAttr(1));
      },
      ErrorKind::TypeError);
}

TEST(Index, IndexAddAndIndexCopy) {
  Tensor x = F({1, 1, 1, 1, 1, 1}, {3, 2});
  Tensor src = F({1, 2, 3, 4, 5, 6}, {3, 2});
  // Duplicate indices accumulate; alpha scales the source.
  expectValues(run(OpKind::IndexAdd, {x, I({2, 0, 2}), src}, dimAttr(0)), {4, 5, 1, 1, 7, 9});
  OpAttrs half = dimAttr(0);
  half.scalars = {0.5};
  expectValues(run(OpKind::IndexAdd, {x, I({1}), F({4, 8}, {1, 2})}, half), {1, 1, 3, 5, 1, 1});
  expectValues(run(OpKind::IndexCopy, {x, I({1}), F({7, 8, 9}, {3, 1})}, dimAttr(1)),
               {1, 7, 1, 8, 1, 9});
  expectValues(run(OpKind::IndexAdd, {I({1, 2, 3}), I({0, 0}), I({5, 6})}, dimAttr(0)), {12, 2, 3});
  expectUserError([&] { run(OpKind::IndexAdd, {x, I({3}), F({1, 1}, {1, 2})}, dimAttr(0)); },
                  ErrorKind::IndexError, {"index_add", "index 3", "dim 0", "size 3"});
  expectUserError([&] { run(OpKind::IndexCopy, {x, I({-1}), F({1, 1}, {1, 2})}, dimAttr(0)); },
                  ErrorKind::IndexError, {"index_copy", "index -1"});
  expectUserError([&] { run(OpKind::IndexAdd, {x, I({0}), F({1, 1, 1}, {1, 3})}, dimAttr(0)); },
                  ErrorKind::ShapeError, {"index_add"});
  expectUserError([&] { run(OpKind::IndexAdd, {x, I({0}), I({1, 1}, {1, 2})}, dimAttr(0)); },
                  ErrorKind::TypeError, {"index_add", "dtype"});
}

TEST(Index, ScatterFamily) {
  Tensor x = F({0, 0, 0, 0, 0, 0}, {2, 3});
  Tensor idx = I({2, 0, 0, 1}, {2, 2});
  Tensor src = F({1, 2, 3, 4}, {2, 2});
  expectValues(run(OpKind::Scatter, {x, I({2, 0, 1, 2}, {2, 2}), src}, dimAttr(1)),
               {2, 0, 1, 0, 3, 4});
  expectValues(run(OpKind::ScatterAdd, {x, idx, src}, dimAttr(1)), {2, 0, 1, 3, 4, 0});
  expectValues(run(OpKind::Scatter, {x, I({1}, {1, 1}), F({5}, {})}, dimAttr(0)),
               {0, 0, 0, 5, 0, 0});  // a scalar source
  OpAttrs a = dimAttr(1);
  Tensor ones = F({1, 1, 1, 1, 1, 1}, {2, 3});
  Tensor s2 = F({2, 3, 4, 5}, {2, 2});
  Tensor idx2 = I({1, 1, 0, 0}, {2, 2});
  auto reduce = [&](shapes::ScatterMode m, bool self) {
    a.scatterMode = m;
    a.includeSelf = self;
    return run(OpKind::ScatterReduce, {ones, idx2, s2}, a);
  };
  using M = shapes::ScatterMode;
  expectValues(reduce(M::Sum, true), {1, 6, 1, 10, 1, 1});
  expectValues(reduce(M::Sum, false), {1, 5, 1, 9, 1, 1});
  expectValues(reduce(M::Prod, true), {1, 6, 1, 20, 1, 1});
  expectValues(reduce(M::Mean, true), {1, 2, 1, 10.0 / 3, 1, 1});
  expectValues(reduce(M::Mean, false), {1, 2.5, 1, 4.5, 1, 1});
  expectValues(reduce(M::Amax, true), {1, 3, 1, 5, 1, 1});
  expectValues(reduce(M::Amin, false), {1, 2, 1, 4, 1, 1});
  // Integer means floor, as PyTorch's.
  a.scatterMode = M::Mean;
  a.includeSelf = false;
  expectValues(run(OpKind::ScatterReduce, {I({0, 0}), I({0, 0}), I({-1, -2})}, dimAttr(0)),
               {-3, 0});
  expectValues(run(OpKind::ScatterReduce, {I({0, 0}, {1, 2}), I({0, 0}, {1, 2}), I({-1, -2}, {1, 2})}, a),
               {-2, 0});
  expectUserError([&] { run(OpKind::ScatterAdd, {x, I({3}, {1, 1}), F({1}, {1, 1})}, dimAttr(1)); },
                  ErrorKind::IndexError, {"scatter_add", "index 3", "dim 1", "size 3"});
  expectUserError([&] { run(OpKind::ScatterAdd, {x, I({0, 1, 2, 0}, {1, 4}), F({1, 2, 3, 4}, {1, 4})}, dimAttr(0)); },
                  ErrorKind::ShapeError, {"scatter_add", "larger than input"});
  expectUserError([&] { run(OpKind::Scatter, {x, I({0}, {1}), F({1}, {1})}, dimAttr(0)); },
                  ErrorKind::ShapeError, {"scatter", "rank"});
}

TEST(DataDependent, Nonzero) {
  Tensor x = F({0, 1, 2, 0}, {2, 2});
  Tensor n = run(OpKind::Nonzero, {x});
  EXPECT_EQ(n.shape(), (Dims{2, 2}));
  EXPECT_EQ(n.toInts(), (std::vector<int64_t>{0, 1, 1, 0}));
  EXPECT_EQ(run(OpKind::Nonzero, {F({0, 0})}).shape(), (Dims{0, 1}));
}

TEST(DataDependent, MaskedSelectAndScatter) {
  Tensor x = iota({2, 3});
  Tensor mask = B({true, false, true}, {3});  // broadcast over rows
  expectValues(run(OpKind::MaskedSelect, {x, mask}), {0, 2, 3, 5});
  Tensor full = B({false, true, false, true, false, false}, {2, 3});
  Tensor s = run(OpKind::MaskedScatter, {x, full, F({10, 20, 30})});
  expectValues(s, {0, 10, 2, 20, 4, 5});
  expectUserError([&] { run(OpKind::MaskedScatter, {x, full, F({10})}); }, ErrorKind::ValueError);
  expectUserError(
      [&] {
        run(OpKind::MaskedSelect, {x, B({true, false})});
      },
      ErrorKind::ShapeError, {"masked_select"});
}

TEST(DataDependent, Unique) {
  Tensor u = run(OpKind::Unique, {I({3, 1, 3, 2, 1})});
  EXPECT_EQ(u.dtype(), DType::I32);
  EXPECT_EQ(u.toInts(), (std::vector<int64_t>{1, 2, 3}));
  expectValues(run(OpKind::Unique, {F({2.5f, -1, 2.5f}, {3, 1})}), {-1, 2.5});
}

}  // namespace
}  // namespace tessel::backends::testing
