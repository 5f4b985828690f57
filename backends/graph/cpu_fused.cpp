// CpuFusedKernel: register allocation and the tiled evaluation loop (Note [Tiled fused
// evaluation] in cpu_fused.h). The op rows are cpu_fused_ops.cpp (the table's own elementwise ops)
// and backends/cpu/defined_rows.cpp (those of ops/elementwise.ops).
#include "backends/graph/cpu_fused.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "backends/cpu/binary_math.h"
#include "backends/cpu/isa_clones.h"
#include "backends/cpu/loops.h"
#include "backends/cpu/defined_rows.h"
#include "backends/graph/cpu_fused_ops.h"
#include "shapes/elementwise_defs.h"
#include "shapes/user_error.h"

// The tile loops are compute-bound once fused (each instruction streams tiles from L1), so
// run() is compiled for several ISA levels like the eager exp/log rows (Note [ISA clones] in
// backends/cpu/isa_clones.h). -ffp-contract=off (CMakeLists.txt) keeps the AVX2/AVX-512 clones
// from contracting a * b + c into an FMA, so every clone rounds like the eager kernels.

namespace tessel::graph {

using backends::Dims;
using backends::Tensor;
using shapes::DType;
using shapes::OpKind;
using Kind = FusedInstr::Kind;

namespace {

int fileOf(DType t) {
  return t == DType::F32 ? 0 : 1;
}

// ---- Conversions, as castTo in backends/cpu/unary.cpp -------------------------------------

inline int32_t floatToI32(float v) {
  if (!(v == v)) return 0;
  if (v >= 2147483647.0f) return std::numeric_limits<int32_t>::max();
  if (v <= -2147483648.0f) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

/// One tile of registers and conversion scratch for a run.
struct Frame {
  float* f;     // float file: numRegs[0] tiles
  int32_t* i;   // int file: numRegs[1] tiles
  float* fs;    // 4 float scratch tiles (arguments, then a result computed in f32 for a bool)
  int32_t* is;  // 3 int scratch tiles
};

struct Operand {
  const float* f = nullptr;
  const int32_t* i = nullptr;  // i32 or bool (0/1)
  DType dtype = DType::F32;
};

const float* asF32(const Operand& a, float* scratch, int64_t n) {
  if (a.dtype == DType::F32) return a.f;
  for (int64_t k = 0; k < n; ++k) scratch[k] = static_cast<float>(a.i[k]);
  return scratch;
}
const int32_t* asI32(const Operand& a, int32_t* scratch, int64_t n) {
  if (a.dtype != DType::F32) return a.i;  // bool registers hold 0/1 already
  for (int64_t k = 0; k < n; ++k) scratch[k] = floatToI32(a.f[k]);
  return scratch;
}
const int32_t* asBool(const Operand& a, int32_t* scratch, int64_t n) {
  if (a.dtype == DType::Bool) return a.i;
  if (a.dtype == DType::F32)
    for (int64_t k = 0; k < n; ++k) scratch[k] = a.f[k] != 0.0f;
  else
    for (int64_t k = 0; k < n; ++k) scratch[k] = a.i[k] != 0;
  return scratch;
}

// ---- Loads and stores ----------------------------------------------------------------------

// Fills dst[0, n) with the elements of one operand for output elements [t0, t0 + n): walks
// the coalesced dims segment by segment along the innermost one (stride 1, 0 or any).
// `idx` is scratch for nd indices.
template <class In, class Reg>
inline void gatherTile(const In* base, const int64_t* dims, const int64_t* strides, int64_t nd,
                       int64_t t0, int64_t n, Reg* __restrict dst, int64_t* idx) {
  if (nd == 1) {  // one segment: no nd index to work out (most small elementwise bodies)
    const In* __restrict p = base + t0 * strides[0];
    const int64_t s = strides[0];
    if (s == 1) {
      for (int64_t k = 0; k < n; ++k) dst[k] = static_cast<Reg>(p[k]);
    } else if (s == 0) {
      std::fill_n(dst, n, static_cast<Reg>(*p));
    } else {
      for (int64_t k = 0; k < n; ++k) dst[k] = static_cast<Reg>(p[k * s]);
    }
    return;
  }
  int64_t rem = t0, off = 0;
  for (int64_t d = nd - 1; d >= 0; --d) {
    idx[d] = rem % dims[d];
    rem /= dims[d];
    off += idx[d] * strides[d];
  }
  const int64_t inner = dims[nd - 1], s = strides[nd - 1];
  for (int64_t pos = 0; pos < n;) {
    const int64_t seg = std::min(n - pos, inner - idx[nd - 1]);
    const In* __restrict p = base + off;
    Reg* __restrict o = dst + pos;
    if (s == 1) {
      for (int64_t k = 0; k < seg; ++k) o[k] = static_cast<Reg>(p[k]);
    } else if (s == 0) {
      const Reg v = static_cast<Reg>(*p);
      for (int64_t k = 0; k < seg; ++k) o[k] = v;
    } else {
      for (int64_t k = 0; k < seg; ++k) o[k] = static_cast<Reg>(p[k * s]);
    }
    pos += seg;
    off += seg * s;
    idx[nd - 1] += seg;
    for (int64_t d = nd - 1; d > 0 && idx[d] == dims[d]; --d) {
      idx[d] = 0;
      off += strides[d - 1] - dims[d] * strides[d];
      ++idx[d - 1];
    }
  }
}

using Launch = CpuFusedKernel::Launch;

// The stride of input t along output dim d: 0 where t broadcasts (as broadcastStrides).
int64_t broadcastStride(const Tensor& t, size_t nd, size_t d) {
  const size_t td = static_cast<size_t>(t.ndim());
  if (d < nd - td) return 0;
  const size_t i = d - (nd - td);
  return t.shape()[i] == 1 ? 0 : t.strides()[i];
}

// Coalesced loop dims over the output and every input (strides in elements).
void planLoops(const Dims& shape, std::span<const Tensor> inputs, Launch& p) {
  Dims& outPlan = p.outStrides;
  p.dims.clear();
  outPlan.clear();
  p.strides.resize(inputs.size());
  for (Dims& s : p.strides) s.clear();
  const size_t nd = shape.size();
  for (const Tensor& t : inputs)
    TESSEL_ASSERT(static_cast<size_t>(t.ndim()) <= nd, "broadcast to fewer dims");
  // Contiguous output strides, innermost last, computed from the outside in.
  int64_t outStride = 1;
  for (size_t d = 0; d < nd; ++d) outStride *= shape[d];
  for (size_t d = 0; d < nd; ++d) {
    outStride = shape[d] == 0 ? 0 : outStride / shape[d];
    if (shape[d] == 1) continue;
    if (!p.dims.empty()) {
      bool merge = outPlan.back() == outStride * shape[d];
      for (size_t k = 0; k < inputs.size() && merge; ++k)
        merge = p.strides[k].back() == broadcastStride(inputs[k], nd, d) * shape[d];
      if (merge) {
        p.dims.back() *= shape[d];
        outPlan.back() = outStride;
        for (size_t k = 0; k < inputs.size(); ++k)
          p.strides[k].back() = broadcastStride(inputs[k], nd, d);
        continue;
      }
    }
    p.dims.push_back(shape[d]);
    outPlan.push_back(outStride);
    for (size_t k = 0; k < inputs.size(); ++k)
      p.strides[k].push_back(broadcastStride(inputs[k], nd, d));
  }
  if (p.dims.empty()) {  // one element
    p.dims.push_back(1);
    for (auto& s : p.strides) s.push_back(0);
  }
}

}  // namespace

CpuFusedKernel::CpuFusedKernel(std::shared_ptr<const FusedProgram> program)
    : program_(std::move(program)) {
  const auto& code = program_->code;
  const int n = static_cast<int>(code.size());
  TESSEL_ASSERT(n > 0, "empty fused program");
  std::vector<int> lastUse(n, -1);
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < code[i].numArgs(); ++a) lastUse[code[i].args[a]] = i;
  lastUse[n - 1] = n;  // the result lives to the store
  for (int i = 0; i < n; ++i)
    if (code[i].kind == Kind::Load) loads_.push_back(i);
  // Loads run at the start of every tile and scalars are filled once per run, so both get
  // their registers first; then a linear scan over the ops per file. A result never shares a
  // register with its operands (the loops use __restrict); scalars are never freed.
  std::vector<int> freeRegs[2];
  reg_.assign(n, -1);
  for (int i = 0; i < n; ++i)
    if (code[i].kind != Kind::Op) reg_[i] = numRegs_[fileOf(code[i].dtype)]++;
  for (int i = 0; i < n; ++i) {
    if (code[i].kind != Kind::Op) continue;
    const int f = fileOf(code[i].dtype);
    if (!freeRegs[f].empty()) {
      reg_[i] = freeRegs[f].back();
      freeRegs[f].pop_back();
    } else {
      reg_[i] = numRegs_[f]++;
    }
    for (int a = 0; a < code[i].numArgs(); ++a) {
      const int x = code[i].args[a];
      bool last = lastUse[x] == i;
      for (int b = 0; b < a; ++b) last = last && code[i].args[b] != x;  // free once
      if (last && code[x].kind != Kind::Scalar) freeRegs[fileOf(code[x].dtype)].push_back(reg_[x]);
    }
    if (lastUse[i] < 0) freeRegs[f].push_back(reg_[i]);
  }
}

// Note [Fused runs do not allocate]
// A cache-hit call of a small compiled function is mostly this kernel's fixed cost, so a run
// fills per-thread scratch (vectors that keep their capacity) instead of fresh vectors: the plan
// of a 4-element a * b + c had cost more instructions in malloc and free than in its loop. A
// caller that knows the operands' shapes and strides in advance skips even that: it prepares
// the launch once and calls runPrepared() (Note [Prepared runs] in executable.h).
void CpuFusedKernel::run(std::span<const Tensor> inputs, const Tensor& out) const {
  TESSEL_ASSERT(out.isContiguous(), "fused: output must be contiguous");
  thread_local Launch launch;
  prepare(inputs, out.shape(), launch);
  runPrepared(launch, inputs, out);
}

void CpuFusedKernel::prepare(std::span<const Tensor> inputs, const Dims& outShape,
                             Launch& launch) const {
  const auto& code = program_->code;
  TESSEL_ASSERT(inputs.size() == program_->numInputs, "fused: wrong operand count");
  launch.total = backends::numelOf(outShape);
  // Which temporaries hold one-element values (pow's x * x rule).
  launch.oneElement.assign(code.size(), 0);
  for (size_t x = 0; x < code.size(); ++x) {
    const FusedInstr& ins = code[x];
    if (ins.kind == Kind::Load) launch.oneElement[x] = inputs[ins.input].numel() == 1;
    if (ins.kind == Kind::Op) launch.oneElement[x] = launch.total == 1;
    if (ins.kind == Kind::Scalar) launch.oneElement[x] = 1;
  }
  planLoops(outShape, inputs, launch);
}

TESSEL_ISA_CLONES void CpuFusedKernel::runPrepared(const Launch& launch,
                                                   std::span<const Tensor> inputs,
                                                   const Tensor& out) const {
  const auto& code = program_->code;
  const int64_t total = launch.total;
  if (total == 0) return;

  thread_local std::vector<float> fbuf;
  thread_local std::vector<int32_t> ibuf;
  fbuf.resize(size_t(numRegs_[0] + 4) * kTile);
  ibuf.resize(size_t(numRegs_[1] + 3) * kTile);
  Frame fr{fbuf.data(), ibuf.data(), fbuf.data() + numRegs_[0] * kTile,
           ibuf.data() + numRegs_[1] * kTile};
  // Note [Operands in place]: a load whose tile is one stride-1 run of an f32 or i32 input is
  // read where it lies, and the last instruction writes straight into the output, so a tile
  // of a contiguous elementwise body costs no copy in and no copy out (an SGD update, p - lr *
  // g, is two loads and two ops per element: the copies had been half its time).
  thread_local std::vector<const void*> inPlace;  // per instruction, for the current tile
  inPlace.assign(code.size(), nullptr);
  auto operand = [&](int x) {
    Operand o;
    o.dtype = code[x].dtype;
    if (o.dtype == DType::F32)
      o.f = inPlace[x] ? static_cast<const float*>(inPlace[x]) : fr.f + reg_[x] * kTile;
    else
      o.i = inPlace[x] ? static_cast<const int32_t*>(inPlace[x]) : fr.i + reg_[x] * kTile;
    return o;
  };
  const int last = static_cast<int>(code.size()) - 1;
  const bool resultInPlace =
      code[last].kind == Kind::Op &&
      ((out.dtype() == DType::F32 && code[last].dtype == DType::F32) ||
       (out.dtype() == DType::I32 && code[last].dtype == DType::I32));

  // Scalars fill their registers once per run, as far as the first tile reaches.
  const int64_t filled = std::min(kTile, total);
  for (size_t x = 0; x < code.size(); ++x) {
    const FusedInstr& ins = code[x];
    if (ins.kind != Kind::Scalar) continue;
    if (ins.dtype == DType::F32)
      std::fill_n(fr.f + reg_[x] * kTile, filled, static_cast<float>(ins.scalar));
    else
      std::fill_n(fr.i + reg_[x] * kTile, filled,
                  ins.dtype == DType::Bool ? int32_t(ins.scalar != 0) : int32_t(ins.scalar));
  }
  const std::vector<uint8_t>& oneElement = launch.oneElement;
  const int64_t nd = static_cast<int64_t>(launch.dims.size());
  thread_local Dims idx;  // gatherTile's nd index, set afresh at every gather
  idx.resize(nd);

  for (int64_t t0 = 0; t0 < total; t0 += kTile) {
    const int64_t n = std::min(kTile, total - t0);
    for (int x : loads_) {
      const FusedInstr& ins = code[x];
      const Tensor& t = inputs[ins.input];
      const int64_t* st = launch.strides[ins.input].data();
      if (nd == 1 && st[0] == 1 && t.dtype() != DType::Bool) {
        inPlace[x] = t.dtype() == DType::F32 ? static_cast<const void*>(t.data<float>() + t0)
                                             : static_cast<const void*>(t.data<int32_t>() + t0);
        continue;
      }
      switch (t.dtype()) {
        case DType::F32:
          gatherTile(t.data<float>(), launch.dims.data(), st, nd, t0, n, fr.f + reg_[x] * kTile,
                     idx.data());
          break;
        case DType::I32:
          gatherTile(t.data<int32_t>(), launch.dims.data(), st, nd, t0, n, fr.i + reg_[x] * kTile,
                     idx.data());
          break;
        case DType::Bool:
          gatherTile(t.data<uint8_t>(), launch.dims.data(), st, nd, t0, n, fr.i + reg_[x] * kTile,
                     idx.data());
          break;
      }
    }

    for (size_t x = 0; x < code.size(); ++x) {
      const FusedInstr& ins = code[x];
      if (ins.kind != Kind::Op) continue;
      const DType od = ins.dtype;
      float* of = od == DType::F32 ? fr.f + reg_[x] * kTile : nullptr;
      int32_t* oi = od == DType::F32 ? nullptr : fr.i + reg_[x] * kTile;
      if (resultInPlace && static_cast<int>(x) == last) {
        if (od == DType::F32)
          of = out.data<float>() + t0;
        else
          oi = out.data<int32_t>() + t0;
      }
      const Operand a = operand(ins.args[0]);
      if (const shapes::ElementwiseDef* d = shapes::elementwiseDef(ins.op)) {
        // An op of ops/elementwise.ops, in the dtype its definition computes in.
        const int na = ins.numArgs();
        DType promoted = operand(ins.args[0]).dtype;
        for (int j = 1; j < na; ++j) promoted = shapes::promote(promoted, operand(ins.args[j]).dtype);
        if (shapes::computeDType(*d, promoted) == DType::F32) {
          const float* args[3] = {};
          for (int j = 0; j < na; ++j) args[j] = asF32(operand(ins.args[j]), fr.fs + j * kTile, n);
          float* res = od == DType::F32 ? of : fr.fs + 3 * kTile;
          backends::cpu::definedRowF(ins.op, args, res, n);
          if (od != DType::F32)  // a test (isnan) of f32 values
            for (int64_t k = 0; k < n; ++k) oi[k] = res[k] != 0.0f;
        } else {
          const int32_t* args[3] = {};
          for (int j = 0; j < na; ++j) args[j] = asI32(operand(ins.args[j]), fr.is + j * kTile, n);
          backends::cpu::definedRowI(ins.op, args, oi, n);
          if (od == DType::Bool) fusedToBool(oi, n);
        }
        continue;
      }
      switch (shapes::opCategory(ins.op)) {
        case shapes::OpCategory::Binary: {
          const Operand b = operand(ins.args[1]);
          if (shapes::isComparison(ins.op)) {
            if (shapes::promote(a.dtype, b.dtype) == DType::F32)
              fusedCompareF(ins.op, asF32(a, fr.fs, n), asF32(b, fr.fs + kTile, n), oi, n);
            else
              fusedCompareI(ins.op, asI32(a, fr.is, n), asI32(b, fr.is + kTile, n), oi, n);
            break;
          }
          if (od == DType::F32) {
            const float* bf = asF32(b, fr.fs + kTile, n);
            const bool two = ins.op == OpKind::Pow && oneElement[ins.args[1]] && bf[0] == 2.0f;
            fusedFloatArith(ins.op, asF32(a, fr.fs, n), bf, of, n, two);
          } else {
            fusedIntArith(ins.op, asI32(a, fr.is, n), asI32(b, fr.is + kTile, n), oi, n);
            if (od == DType::Bool) fusedToBool(oi, n);
          }
          break;
        }
        case shapes::OpCategory::Ternary: {
          const Operand b = operand(ins.args[1]), c = operand(ins.args[2]);
          if (ins.op == OpKind::Where) {
            const int32_t* cond = asBool(a, fr.is + 2 * kTile, n);
            if (od == DType::F32) {
              const float* x1 = asF32(b, fr.fs, n);
              const float* x2 = asF32(c, fr.fs + kTile, n);
              for (int64_t k = 0; k < n; ++k) of[k] = cond[k] ? x1[k] : x2[k];
            } else {
              const int32_t* x1 = od == DType::Bool ? asBool(b, fr.is, n) : asI32(b, fr.is, n);
              const int32_t* x2 =
                  od == DType::Bool ? asBool(c, fr.is + kTile, n) : asI32(c, fr.is + kTile, n);
              for (int64_t k = 0; k < n; ++k) oi[k] = cond[k] ? x1[k] : x2[k];
            }
            break;
          }
          TESSEL_ASSERT(ins.op == OpKind::Clamp, "fused: unknown ternary op");
          auto clamp = [](auto v, auto l, auto h) { return backends::cpu::clampValue(v, l, h); };
          if (od == DType::F32) {
            const float* v = asF32(a, fr.fs, n);
            const float* l = asF32(b, fr.fs + kTile, n);
            const float* h = asF32(c, fr.fs + 2 * kTile, n);
            for (int64_t k = 0; k < n; ++k) of[k] = clamp(v[k], l[k], h[k]);
          } else {
            const int32_t* v = asI32(a, fr.is, n);
            const int32_t* l = asI32(b, fr.is + kTile, n);
            const int32_t* h = asI32(c, fr.is + 2 * kTile, n);
            for (int64_t k = 0; k < n; ++k) oi[k] = clamp(v[k], l[k], h[k]);
            if (od == DType::Bool) fusedToBool(oi, n);
          }
          break;
        }
        default: {
          TESSEL_ASSERT(ins.op == OpKind::Cast, "fused: not an elementwise op");
          if (od == DType::F32) {
            std::memcpy(of, asF32(a, fr.fs, n), sizeof(float) * n);
          } else {
            const int32_t* v = od == DType::Bool ? asBool(a, fr.is, n) : asI32(a, fr.is, n);
            std::memcpy(oi, v, sizeof(int32_t) * n);
          }
          break;
        }
      }
    }

    const int r = last;
    if (resultInPlace) continue;
    switch (out.dtype()) {
      case DType::F32:
        std::memcpy(out.data<float>() + t0, fr.f + reg_[r] * kTile, sizeof(float) * n);
        break;
      case DType::I32:
        std::memcpy(out.data<int32_t>() + t0, fr.i + reg_[r] * kTile, sizeof(int32_t) * n);
        break;
      case DType::Bool: {
        const int32_t* v = fr.i + reg_[r] * kTile;
        uint8_t* o = out.data<uint8_t>() + t0;
        for (int64_t k = 0; k < n; ++k) o[k] = static_cast<uint8_t>(v[k]);
        break;
      }
    }
  }
}

}  // namespace tessel::graph
