// Indexing by tensors: index_select and gather. Indices are data, so their range is checked
// here (an IndexError naming the op, the index and the size) rather than by the shape rule.
#include <cstring>

#include "backends/cpu/kernels.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

// Reads the indices as int64 and wraps negatives NumPy-style (-1 is the last element).
std::vector<int64_t> checkedIndices(OpKind op, const Tensor& idx, int64_t size, int64_t dim) {
  std::vector<int64_t> v = idx.toInts();
  for (int64_t& i : v) {
    if (i < -size || i >= size)
      throwUserError(ErrorKind::IndexError, std::string(shapes::opName(op)) + ": index " +
                                                std::to_string(i) + " is out of range for dim " +
                                                std::to_string(dim) + " of size " +
                                                std::to_string(size));
    if (i < 0) i += size;
  }
  return v;
}

Tensor indexSelect(const Tensor& input, int64_t dim, const Tensor& idx, const OpSignature& sig) {
  const Tensor x = input.contiguous();
  std::vector<int64_t> index = checkedIndices(OpKind::IndexSelect, idx, x.size(dim), dim);
  Tensor out = emptyLike(sig);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
  for (int64_t d = dim + 1; d < x.ndim(); ++d) inner *= x.size(d);
  const size_t es = elementSize(x.dtype());
  const char* src = x.data<char>();
  char* dst = out.data<char>();
  const int64_t n = x.size(dim), k = static_cast<int64_t>(index.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < k; ++i)
      std::memcpy(dst + ((o * k + i) * inner) * es, src + ((o * n + index[i]) * inner) * es,
                  inner * es);
  return out;
}

template <class T>
void gatherTyped(const Tensor& x, int64_t dim, const std::vector<int64_t>& index,
                 const Tensor& out) {
  // out[i0..ik] = x[i0.. index[i] ..ik]: walk the output row-major with x's strides.
  const Dims& shape = out.shape();
  const int64_t rank = out.ndim();
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  Dims pos(rank, 0);
  const int64_t n = out.numel();
  for (int64_t e = 0; e < n; ++e) {
    int64_t off = 0;
    for (int64_t d = 0; d < rank; ++d) off += (d == dim ? index[e] : pos[d]) * x.strides()[d];
    dst[e] = src[off];
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++pos[d] < shape[d]) break;
      pos[d] = 0;
    }
  }
}

}  // namespace

Tensor runIndexOp(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& sig) {
  if (op == OpKind::SegmentReduce) return runSegmentReduce(in, attrs, sig);
  if (op != OpKind::IndexSelect && op != OpKind::Gather) return runScatter(op, in, attrs, sig);
  const Tensor& x = in[0];
  const int64_t dim = wrapDim(attrs.dim, std::max<int64_t>(x.ndim(), 1));
  if (x.ndim() == 0) {
    // A 0-d tensor indexes like a 1-element vector (PyTorch); only index 0 (or -1) is valid.
    Tensor v = x.unsqueeze(0);
    Tensor r = runIndexOp(op, std::vector<Tensor>{v, in[1].reshape(Dims{in[1].numel()})}, attrs,
                          OpSignature{{in[1].numel()}, sig.dtype});
    return r.reshape(concreteShape(sig.shape));
  }
  if (op == OpKind::IndexSelect) return indexSelect(x, dim, in[1], sig);
  TESSEL_ASSERT(op == OpKind::Gather, "not an index op");
  std::vector<int64_t> index = checkedIndices(op, in[1], x.size(dim), dim);
  Tensor out = emptyLike(sig);
  visitDType(x.dtype(), [&](auto t) { gatherTyped<decltype(t)>(x, dim, index, out); });
  return out;
}

}  // namespace tessel::backends::cpu
