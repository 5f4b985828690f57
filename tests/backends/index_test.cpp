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
