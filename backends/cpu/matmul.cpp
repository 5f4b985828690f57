// matmul with NumPy semantics (1-D promotion, broadcast batch dims) on sgemm (sgemm.h).
#include <cstring>

#include "backends/cpu/gemm.h"
#include "backends/cpu/kernels.h"
#include "backends/cpu/loops.h"
#include "backends/cpu/sgemm.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

// A matrix operand as BLAS wants it: row-major with a leading dimension, possibly transposed.
struct GemmOperand {
  const float* data;
  bool trans;
  int64_t ld;
};

// Uses the tensor's own strides when they are a row-major or column-major layout (transposed
// views cost nothing), else nullopt and the caller copies.
std::optional<GemmOperand> asOperand(const float* base, int64_t rows, int64_t cols, int64_t rs,
                                     int64_t cs) {
  if (cols == 1) cs = 1;
  if (rows == 1) rs = cols;
  if (cs == 1 && rs >= std::max<int64_t>(cols, 1)) return GemmOperand{base, false, rs};
  if (rs == 1 && cs >= std::max<int64_t>(rows, 1)) return GemmOperand{base, true, cs};
  return std::nullopt;
}

// C[M, N] = A[M, K] @ B[K, N] (+ C when accumulate) for strided 2-D views.
void gemm2d(const Tensor& a, const Tensor& b, float* c, bool accumulate) {
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  if (M == 0 || N == 0) return;
  if (K == 0) {
    if (!accumulate) std::memset(c, 0, sizeof(float) * M * N);
    return;
  }
  Tensor ac = a, bc = b;
  auto oa = asOperand(a.data<float>(), M, K, a.strides()[0], a.strides()[1]);
  if (!oa) ac = a.contiguous(), oa = GemmOperand{ac.data<float>(), false, K};
  auto ob = asOperand(b.data<float>(), K, N, b.strides()[0], b.strides()[1]);
  if (!ob) bc = b.contiguous(), ob = GemmOperand{bc.data<float>(), false, N};
  sgemm(oa->trans, ob->trans, M, N, K, oa->data, oa->ld, ob->data, ob->ld,
        accumulate ? 1.0f : 0.0f, c, N);
}

// Integer matmul: no BLAS for i32, an i-k-j loop that vectorizes over j (wrapping like i32).
void gemmInt(const Tensor& a, const Tensor& b, int32_t* c) {
  Tensor ac = a.contiguous(), bc = b.contiguous();
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  const int32_t* A = ac.data<int32_t>();
  const int32_t* B = bc.data<int32_t>();
  std::memset(c, 0, sizeof(int32_t) * M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k) {
      const uint32_t aik = uint32_t(A[i * K + k]);
      uint32_t* row = reinterpret_cast<uint32_t*>(c + i * N);
      const uint32_t* brow = reinterpret_cast<const uint32_t*>(B + k * N);
      for (int64_t j = 0; j < N; ++j) row[j] += aik * brow[j];
    }
}

// Element offsets of every batch entry of `t` (batch dims first), row-major.
std::vector<int64_t> batchOffsets(const Tensor& t, const Dims& batch) {
  std::vector<int64_t> offsets(numelOf(batch));
  Dims pos(batch.size(), 0);
  for (int64_t& off : offsets) {
    off = 0;
    for (size_t d = 0; d < batch.size(); ++d) off += pos[d] * t.strides()[d];
    for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
      if (++pos[d] < batch[d]) break;
      pos[d] = 0;
    }
  }
  return offsets;
}

// One sgemm per batch entry on pointers into a and b (expanded to [batch..., M, K] and
// [batch..., K, N]): the 2-D layout is the same for every entry, so it is worked out once, and
// broadcast operands (stride 0 batch dims) are never copied.
void batchedGemm(Tensor a, Tensor b, const Dims& batch, float* c) {
  const int64_t r = a.ndim();
  const int64_t M = a.size(r - 2), K = a.size(r - 1), N = b.size(r - 1);
  if (M == 0 || N == 0) return;
  const int64_t nb = numelOf(batch);
  if (K == 0) {
    std::memset(c, 0, sizeof(float) * nb * M * N);
    return;
  }
  auto oa = asOperand(a.data<float>(), M, K, a.strides()[r - 2], a.strides()[r - 1]);
  if (!oa) a = a.contiguous(), oa = GemmOperand{a.data<float>(), false, K};
  auto ob = asOperand(b.data<float>(), K, N, b.strides()[r - 2], b.strides()[r - 1]);
  if (!ob) b = b.contiguous(), ob = GemmOperand{b.data<float>(), false, N};
  const std::vector<int64_t> offA = batchOffsets(a, batch), offB = batchOffsets(b, batch);
  for (int64_t i = 0; i < nb; ++i)
    sgemm(oa->trans, ob->trans, M, N, K, oa->data + offA[i], oa->ld, ob->data + offB[i], ob->ld,
          0.0f, c + i * M * N, N);
}

void batchedIntGemm(const Tensor& a, const Tensor& b, const Dims& batch, int32_t* c) {
  const int64_t r = a.ndim();
  const int64_t M = a.size(r - 2), N = b.size(r - 1);
  const std::vector<int64_t> offA = batchOffsets(a, batch), offB = batchOffsets(b, batch);
  const Dims aShape = {M, a.size(r - 1)}, bShape = {b.size(r - 2), N};
  const Dims aStrides = {a.strides()[r - 2], a.strides()[r - 1]};
  const Dims bStrides = {b.strides()[r - 2], b.strides()[r - 1]};
  for (size_t i = 0; i < offA.size(); ++i)
    gemmInt(Tensor::view(a.storage(), aShape, aStrides, a.offset() + offA[i], a.dtype()),
            Tensor::view(b.storage(), bShape, bStrides, b.offset() + offB[i], b.dtype()),
            c + int64_t(i) * M * N);
}

}  // namespace

void gemmInto(const Tensor& a, const Tensor& b, float* c, bool accumulate) {
  gemm2d(a, b, c, accumulate);
}

Tensor matmul(const Tensor& a0, const Tensor& b0, const OpSignature& sig) {
  DType compute = sig.dtype == DType::F32 ? DType::F32 : DType::I32;
  Tensor a = castTo(a0, compute), b = castTo(b0, compute);
  // NumPy: a 1-D left operand is a row [1, K], a 1-D right operand a column [K, 1]; the
  // added dims are dropped again by the rule's output shape.
  if (a.ndim() == 1) a = a.unsqueeze(0);
  if (b.ndim() == 1) b = b.unsqueeze(1);
  const int64_t M = a.size(a.ndim() - 2), K = a.size(a.ndim() - 1), N = b.size(b.ndim() - 1);

  // Batch shape: NumPy broadcasting of the leading dims.
  Dims batch;
  {
    const int64_t ra = a.ndim() - 2, rb = b.ndim() - 2, r = std::max(ra, rb);
    for (int64_t i = 0; i < r; ++i) {
      int64_t da = i - (r - ra) >= 0 ? a.size(i - (r - ra)) : 1;
      int64_t db = i - (r - rb) >= 0 ? b.size(i - (r - rb)) : 1;
      batch.push_back(da == 1 ? db : da);
    }
  }
  Dims outShape = batch;
  outShape.push_back(M);
  outShape.push_back(N);
  Tensor out = Tensor::empty(outShape, compute);
  const int64_t nb = numelOf(batch);

  // One big gemm when b has no batch dims and a's batch folds into its rows (linear layers).
  if (compute == DType::F32 && b.ndim() == 2 && a.ndim() > 2 && a.isContiguous()) {
    gemm2d(a.reshape(Dims{nb * M, K}), b, out.data<float>(), false);
    return out.reshape(concreteShape(sig.shape));
  }
  Dims fullA = batch, fullB = batch;
  fullA.insert(fullA.end(), {M, K});
  fullB.insert(fullB.end(), {K, N});
  Tensor ea = a.expand(fullA), eb = b.expand(fullB);
  if (compute == DType::F32)
    batchedGemm(ea, eb, batch, out.data<float>());
  else
    batchedIntGemm(ea, eb, batch, out.data<int32_t>());
  Tensor result = out.reshape(concreteShape(sig.shape));
  return castTo(result, sig.dtype);
}

}  // namespace tessel::backends::cpu
