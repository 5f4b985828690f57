// tessel::Tensor: plain buffers in and out, DLPack in (zero-copy, strided, offset, deleter)
// and out (freed by the caller), and tensors crossing into scripts.
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>

#include <numeric>

#include "tessel/tessel.h"

namespace {

using tessel::Error;
using tessel::Interpreter;
using tessel::Tensor;
using tessel::Value;

/// A DLPack tensor over caller-owned memory that counts its deleter's calls.
struct Producer {
  std::vector<int64_t> shape, strides;
  int* deleted;
  DLManagedTensor managed{};

  static DLManagedTensor* make(void* data, DLDataType type, std::vector<int64_t> shape,
                               std::vector<int64_t> strides, uint64_t byteOffset, int* deleted) {
    auto* p = new Producer{std::move(shape), std::move(strides), deleted};
    DLTensor& t = p->managed.dl_tensor;
    t.data = data;
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = static_cast<int>(p->shape.size());
    t.dtype = type;
    t.shape = p->shape.data();
    t.strides = p->strides.empty() ? nullptr : p->strides.data();
    t.byte_offset = byteOffset;
    p->managed.manager_ctx = p;
    p->managed.deleter = [](DLManagedTensor* self) {
      auto* owner = static_cast<Producer*>(self->manager_ctx);
      ++*owner->deleted;
      delete owner;
    };
    return &p->managed;
  }
};

constexpr DLDataType kF32{kDLFloat, 32, 1};

std::vector<float> values(const Tensor& t) {
  std::vector<float> out(static_cast<size_t>(t.numel()));
  t.copyTo(std::span<float>(out));
  return out;
}

TEST(ApiTensor, FromDataAndCopyTo) {
  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  Tensor t = Tensor::fromData(std::span<const float>(data), {2, 3});
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.dtype(), "f32");
  EXPECT_EQ(t.device(), "cpu");
  EXPECT_EQ(values(t), data);
  std::vector<int32_t> ints = {7, 8};
  Tensor i = Tensor::fromData(std::span<const int32_t>(ints), {2});
  EXPECT_EQ(i.dtype(), "i32");
  bool flags[] = {true, false, true};
  Tensor b = Tensor::fromData(std::span<const bool>(flags), {3});
  EXPECT_EQ(b.dtype(), "bool");
  bool back[3];
  b.copyTo(std::span<bool>(back));
  EXPECT_TRUE(back[0] && !back[1] && back[2]);
  // Misuse is a clear error.
  EXPECT_THROW(Tensor::fromData(std::span<const float>(data), {4}), Error);
  EXPECT_THROW(Tensor::fromData(std::span<const float>(data), {-2, -3}), Error);
  std::vector<int32_t> wrongType(6);
  EXPECT_THROW(t.copyTo(std::span<int32_t>(wrongType)), Error);
  std::vector<float> wrongSize(5);
  EXPECT_THROW(t.copyTo(std::span<float>(wrongSize)), Error);
}

TEST(ApiTensor, TensorsGoThroughScripts) {
  Interpreter vm;
  vm.run("fn predict(x, w) { return (x @ w).relu() }");
  std::vector<float> x = {1, -2, 3, 4}, w = {1, 0, 0, 1};
  Value y = vm.call("predict", {Tensor::fromData(std::span<const float>(x), {2, 2}),
                                Tensor::fromData(std::span<const float>(w), {2, 2})});
  ASSERT_TRUE(y.isTensor());
  EXPECT_EQ(values(y.asTensor()), (std::vector<float>{1, 0, 3, 4}));
  EXPECT_EQ(y.typeName(), "tensor");
}

TEST(ApiTensor, DLPackInIsZeroCopyAndHonoursStridesAndOffset) {
  // A 3x4 row-major buffer; the tensor is its transposed 2x3 corner, starting at element 1:
  // t[i][j] = buf[1 + i + 4 * j].
  std::vector<float> buf(12);
  std::iota(buf.begin(), buf.end(), 0.0f);
  int deleted = 0;
  {
    Value v = Tensor::fromDLPack(
        Producer::make(buf.data(), kF32, {2, 3}, {1, 4}, sizeof(float), &deleted));
    Tensor t = v.asTensor();
    EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(values(t), (std::vector<float>{1, 5, 9, 2, 6, 10}));
    buf[5] = 100;  // zero-copy: the tensor sees the producer's memory
    EXPECT_EQ(values(t)[1], 100);
    Interpreter vm;
    vm.set("t", v);
    EXPECT_DOUBLE_EQ(vm.run("t.sum().item()").asFloat(), 1 + 100 + 9 + 2 + 6 + 10);
    EXPECT_EQ(deleted, 0) << "still referenced";
  }
  EXPECT_EQ(deleted, 1) << "the deleter runs once the last reference is gone";
}

TEST(ApiTensor, DLPackInOutlivesItsValueWhileAScriptHoldsIt) {
  std::vector<float> buf = {1, 2, 3};
  int deleted = 0;
  Interpreter vm;
  vm.set("kept", Tensor::fromDLPack(Producer::make(buf.data(), kF32, {3}, {}, 0, &deleted)));
  EXPECT_EQ(deleted, 0);
  EXPECT_DOUBLE_EQ(vm.run("kept.sum().item()").asFloat(), 6.0);
  vm.run("kept = none");
  EXPECT_EQ(deleted, 1);
}

TEST(ApiTensor, DLPackInConvertsOtherDtypesAndReleasesAtOnce) {
  std::vector<double> f64 = {0.5, 1.5};
  int deleted = 0;
  Tensor t = Tensor::fromDLPack(Producer::make(f64.data(), DLDataType{kDLFloat, 64, 1}, {2}, {},
                                               0, &deleted))
                 .asTensor();
  EXPECT_EQ(deleted, 1) << "converted: nothing borrowed";
  EXPECT_EQ(t.dtype(), "f32");
  EXPECT_EQ(values(t), (std::vector<float>{0.5f, 1.5f}));
  std::vector<int64_t> i64 = {1, -2, 3};
  Tensor i = Tensor::fromDLPack(
                 Producer::make(i64.data(), DLDataType{kDLInt, 64, 1}, {3}, {}, 0, &deleted))
                 .asTensor();
  EXPECT_EQ(i.dtype(), "i32");
  std::vector<int32_t> back(3);
  i.copyTo(std::span<int32_t>(back));
  EXPECT_EQ(back, (std::vector<int32_t>{1, -2, 3}));
  // A value that does not fit in i32 is an error, and the producer is still released.
  std::vector<int64_t> big = {int64_t{1} << 40};
  try {
    Tensor::fromDLPack(Producer::make(big.data(), DLDataType{kDLInt, 64, 1}, {1}, {}, 0, &deleted));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "OverflowError");
    EXPECT_NE(e.message().find("does not fit in i32"), std::string::npos);
  }
  EXPECT_EQ(deleted, 3);
}

TEST(ApiTensor, DLPackInRejectsWhatItCannotRead) {
  std::vector<float> buf(4);
  int deleted = 0;
  DLManagedTensor* gpu = Producer::make(buf.data(), kF32, {4}, {}, 0, &deleted);
  gpu->dl_tensor.device = DLDevice{kDLCUDA, 0};
  EXPECT_THROW(Tensor::fromDLPack(gpu), Error);
  EXPECT_THROW(Tensor::fromDLPack(Producer::make(buf.data(), DLDataType{kDLFloat, 16, 1}, {4},
                                                 {}, 0, &deleted)),
               Error);
  EXPECT_THROW(Tensor::fromDLPack(nullptr), Error);
  EXPECT_EQ(deleted, 2) << "released on every error";
}

TEST(ApiTensor, DLPackInCopiesLayoutsKernelsDoNotTake) {
  std::vector<float> buf = {1, 2, 3, 4};
  int deleted = 0;
  // Reversed: negative stride, starting at the last element.
  Tensor t = Tensor::fromDLPack(Producer::make(buf.data(), kF32, {4}, {-1}, 3 * sizeof(float),
                                               &deleted))
                 .asTensor();
  EXPECT_EQ(values(t), (std::vector<float>{4, 3, 2, 1}));
  EXPECT_EQ(deleted, 1);
}

TEST(ApiTensor, DLPackOutIsOwnedByTheCaller) {
  DLManagedTensor* out;
  {
    Interpreter vm;
    Tensor t = vm.run("tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).transpose(0, 1)").asTensor();
    out = t.toDLPack();
  }  // the interpreter and the Tensor are gone; the DLPack view keeps the data
  const DLTensor& d = out->dl_tensor;
  EXPECT_EQ(d.device.device_type, kDLCPU);
  EXPECT_EQ(d.dtype.code, kDLFloat);
  EXPECT_EQ(d.dtype.bits, 32);
  ASSERT_EQ(d.ndim, 2);
  EXPECT_EQ(d.shape[0], 3);
  EXPECT_EQ(d.shape[1], 2);
  const auto* data = static_cast<const float*>(d.data) + d.byte_offset / sizeof(float);
  // Element [i][j] of the transposed tensor is original[j][i].
  EXPECT_EQ(data[2 * d.strides[0] + 1 * d.strides[1]], 6.0f);
  EXPECT_EQ(data[0 * d.strides[0] + 1 * d.strides[1]], 4.0f);
  out->deleter(out);  // ASan checks that this frees everything
}

TEST(ApiTensor, DLPackRoundTripShareMemory) {
  std::vector<int32_t> buf = {1, 2, 3, 4, 5, 6};
  int deleted = 0;
  Tensor t = Tensor::fromDLPack(Producer::make(buf.data(), DLDataType{kDLInt, 32, 1}, {2, 3}, {},
                                               0, &deleted))
                 .asTensor();
  DLManagedTensor* out = t.toDLPack();
  EXPECT_EQ(out->dl_tensor.data, buf.data()) << "cpu data is shared, not copied";
  t = Tensor::fromData(std::span<const int32_t>(buf), {6});
  EXPECT_EQ(deleted, 0) << "the export still holds the producer";
  out->deleter(out);
  EXPECT_EQ(deleted, 1);
}

TEST(ApiTensor, TensorsCrossThreads) {
  std::vector<float> data(1000, 1.0f);
  Tensor t = Tensor::fromData(std::span<const float>(data), {1000});
  double sums[2] = {0, 0};
  std::thread a([&] {
    Interpreter vm;
    vm.set("t", t);
    sums[0] = vm.run("(t * 2).sum().item()").asFloat();
  });
  std::thread b([&] {
    Interpreter vm;
    vm.set("t", t);
    sums[1] = vm.run("(t * 3).sum().item()").asFloat();
  });
  a.join();
  b.join();
  EXPECT_DOUBLE_EQ(sums[0], 2000);
  EXPECT_DOUBLE_EQ(sums[1], 3000);
}

}  // namespace
