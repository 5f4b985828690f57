// A figure as an SVG document: what a notebook shows (the "image/svg+xml" rich form) and what
// plot.save writes. Elements carry classes (series, bar, pixel, legend, tick) that tests count.
#pragma once

#include <string>

#include "interp/plot/figure.h"

namespace tessel::plot {

/// The SVG text of `f`, `width` by `height` pixels.
std::string renderSvg(const Figure& f, int width = 640, int height = 400);

/// An <img> element that shows `svg` (as a base64 data URI): the form of a figure that survives
/// HTML sanitizers, such as nbconvert's, which strip an inline <svg>'s children.
std::string svgImgTag(const std::string& svg, int width, int height);

/// Images larger than this on a side are shown averaged over blocks of pixels, so that a
/// 1024x1024 image is not a million SVG rectangles.
constexpr int64_t kMaxImageSide = 128;

}  // namespace tessel::plot
