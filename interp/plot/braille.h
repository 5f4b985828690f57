// A figure as Unicode text for terminals: the series drawn in braille dots (2 x 4 per
// character, Note [Braille charts]), an image in shades, with the axes' min and max.
#pragma once

#include <string>

#include "interp/plot/figure.h"

namespace tessel::plot {

/// The chart of `f` in `cols` x `rows` characters of plot area, plus its axes and labels,
/// one line per row, each ending in '\n' but the last.
std::string renderBraille(const Figure& f, int cols = 60, int rows = 15);

}  // namespace tessel::plot
