// The built-in `plot` module (docs/notebook.md, "Plots"): figures of lines, points,
// histograms and images, shown as SVG in a notebook and as braille charts in a terminal.
#pragma once

#include "interp/values/value.h"

namespace tessel::interp {

/// A new `plot` module; the first call also registers the figures' SVG rich form
/// (Note [Rich display]).
Value makePlotModule();

}  // namespace tessel::interp
