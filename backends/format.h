// Printing tensors the way PyTorch does (docs/tensors.md, "Printing").
#pragma once

#include <string>
#include <vector>

#include "backends/tensor.h"

namespace tessel::backends {

/// Print options, PyTorch's defaults.
struct PrintOptions {
  int precision = 4;         // digits after the point (fixed) or of the mantissa (scientific)
  int64_t threshold = 1000;  // more elements than this are summarized with "..."
  int64_t edgeItems = 3;     // elements kept at each end of a summarized dim
  int lineWidth = 80;        // a row wraps past this many characters
};

/// "tensor([[1., 2.],\n        [3., 4.]])". See docs/tensors.md for the rules.
std::string formatTensor(const Tensor& t, const PrintOptions& options = {});

/// What formatTensor shows of a tensor, for renderers other than text (the notebook's HTML
/// table, kernel/): for each dim the indices printed, -1 standing for the "..." of a
/// summarized dim, and the text of each printed element (unpadded, in formatTensor's format),
/// row-major over those indices.
struct PrintedElements {
  std::vector<std::vector<int64_t>> indices;
  std::vector<std::string> texts;
};
PrintedElements printedElements(const Tensor& t, const PrintOptions& options = {});

}  // namespace tessel::backends
