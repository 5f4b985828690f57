// The layout sweep: every case of every op (op_cases.h) run again with one input replaced by a
// view of the same values in another layout, which must give the result of the contiguous
// input on the same device. Kernels once stepped a view's offset in bytes instead of elements
// and read storage before the view; tests that fed fresh tensors only never saw it.
//
// The layouts (Note [Layout sweep]):
//  - offset:     the values start 5 elements into their storage (a[5:] of a longer buffer);
//  - transposed: the last two dims swapped in memory (x.T.contiguous().T);
//  - stepped:    every other element of a buffer twice as long along the last dim (x[..., ::2]);
//  - expanded:   stride 0 along dim 0 (x[:1].expand(x.shape)); its contiguous twin is the
//                reference, since its values differ from x's.
// Each view is built on the cpu and moved as a whole buffer, then viewed on the device, so the
// device kernel sees the strides and offset (a copy to the device would make it contiguous).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>

#include "backends/backend.h"
#include "backends/dispatch.h"
#include "backends/rng.h"
#include "shapes/user_error.h"
#include "tests/backends/compare_values.h"
#include "tests/backends/op_cases.h"

namespace tessel::backends::testing {

enum class Layout { Offset, Transposed, Stepped, Expanded };

inline const char* layoutName(Layout l) {
  switch (l) {
    case Layout::Offset: return "offset";
    case Layout::Transposed: return "transposed";
    case Layout::Stepped: return "stepped";
    case Layout::Expanded: return "expanded";
  }
  return "?";
}

inline shapes::OpAttrs dimAttrs(int64_t dim) {
  shapes::OpAttrs a;
  a.dim = dim;
  return a;
}

/// `x` (a contiguous cpu tensor) in layout `l` on `device`, with the values it stands for as a
/// contiguous cpu tensor in `values`; nullopt where the layout does not apply (rank too small).
inline std::optional<Tensor> inLayout(const Tensor& x, Layout l, Device device, Tensor& values) {
  const int64_t rank = x.ndim();
  const Dims& shape = x.shape();
  values = x;
  auto onDevice = [&](const Tensor& t) { return device == Device::Cpu ? t : toDevice(t, device); };
  switch (l) {
    case Layout::Offset: {
      // A buffer of 5 + n elements (the first 5 repeat the first value; any value would do).
      const int64_t n = x.numel();
      if (n == 0) return std::nullopt;
      Tensor flat = x.reshape(Dims{n});
      Tensor head = flat.slice(0, 0, 1, 1).expand(Dims{5}).contiguous();
      Tensor buf = dispatch(shapes::OpKind::Cat, std::vector<Tensor>{head, flat}, dimAttrs(0))[0];
      Tensor dev = onDevice(buf);
      return Tensor::view(dev.storage(), shape, contiguousStrides(shape), dev.offset() + 5,
                          x.dtype());
    }
    case Layout::Transposed: {
      if (rank < 2) return std::nullopt;
      Tensor swapped = x.transpose(rank - 2, rank - 1).contiguous();
      return onDevice(swapped).transpose(rank - 2, rank - 1);
    }
    case Layout::Stepped: {
      if (rank < 1 || x.numel() == 0) return std::nullopt;
      // [..., 2n]: x's values at the even positions of the last dim.
      Tensor twice = dispatch(shapes::OpKind::Stack, std::vector<Tensor>{x, x}, dimAttrs(rank))[0];
      Dims wide = shape;
      wide[rank - 1] *= 2;
      Tensor dev = onDevice(twice.reshape(wide));
      return dev.slice(rank - 1, 0, wide[rank - 1], 2);
    }
    case Layout::Expanded: {
      if (rank < 1 || shape[0] < 2) return std::nullopt;
      Tensor first = x.slice(0, 0, 1, 1);
      values = first.expand(shape).contiguous();
      return onDevice(first.contiguous()).expand(shape);
    }
  }
  return std::nullopt;
}

struct SweepOutcome {
  std::optional<Tensor> value;  // on the cpu
  std::optional<ErrorKind> error;
  std::string message;
};

inline SweepOutcome runCase(shapes::OpKind op, const std::vector<Tensor>& in,
                            const shapes::OpAttrs& attrs, Device device) {
  SweepOutcome o;
  try {
    Tensor out = dispatch(op, in, attrs, device)[0];
    o.value = device == Device::Cpu ? out : toDevice(out, Device::Cpu);
  } catch (const UserError& e) {
    o.error = e.kind();
    o.message = e.what();
  }
  return o;
}

/// Runs every case of `op` on `device` with each input in each layout against the contiguous
/// input. Floats may differ by a sum's reassociation (a strided row is summed in another order).
inline void sweepLayouts(shapes::OpKind op, Device device) {
  Gen g(4321 + uint32_t(op));
  const std::vector<Case> cases = casesFor(op, g);
  int compared = 0;
  for (const Case& c : cases) {
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      for (Layout l : {Layout::Offset, Layout::Transposed, Layout::Stepped, Layout::Expanded}) {
        Tensor values;
        std::optional<Tensor> view = inLayout(c.inputs[i].contiguous(), l, device, values);
        if (!view) continue;
        SCOPED_TRACE(std::string(shapes::opName(op)) + " " + describe(c) + "input " +
                     std::to_string(i) + " " + layoutName(l));
        std::vector<Tensor> ref, got;
        for (size_t j = 0; j < c.inputs.size(); ++j) {
          const Tensor& t = j == i ? values : c.inputs[j];
          ref.push_back(device == Device::Cpu ? t : toDevice(t, device));
          got.push_back(j == i ? *view : ref.back());
        }
        const RngState rng = rngState();
        SweepOutcome want = runCase(op, ref, c.attrs, device);
        setRngState(rng);  // random ops draw the same numbers for both
        SweepOutcome have = runCase(op, got, c.attrs, device);
        ASSERT_EQ(want.error.has_value(), have.error.has_value())
            << "contiguous: " << want.message << " | view: " << have.message;
        if (want.error) {
          EXPECT_EQ(*want.error, *have.error) << want.message << " | " << have.message;
          continue;
        }
        ++compared;
        ASSERT_EQ(want.value->shape(), have.value->shape());
        ASSERT_EQ(want.value->dtype(), have.value->dtype());
        // Floats: a strided row may be summed in another order.
        const double tol = want.value->dtype() == DType::F32
                               ? 1e-4 * std::max(1.0, double(values.numel()) / 1000.0)
                               : 0.0;
        expectCloseElements(*want.value, *have.value, tol, tol, "contiguous", "view");
      }
    }
  }
  (void)compared;  // creation ops have no inputs to lay out
}

}  // namespace tessel::backends::testing
