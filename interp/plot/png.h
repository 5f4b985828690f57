// A figure's SVG as PNG, drawn by librsvg on a cairo image surface: what plot.save writes for a
// .png path. librsvg (Debian's librsvg2-dev, which brings cairo) is optional: a build without it
// has no PNG, and says so when asked for one.
#pragma once

#include <string>

namespace tessel::plot {

/// Whether PNG can be written: this build has librsvg's headers (CMake found librsvg-2.0 and
/// cairo with pkg-config) and the library opens.
bool pngAvailable();

/// The bytes of a PNG file of `svg` drawn at `width` x `height` pixels. `what` names the caller
/// in errors: a ValueError when this build has no librsvg (naming the library) or when librsvg
/// cannot read the SVG.
std::string svgToPng(const std::string& svg, int width, int height, const std::string& what);

}  // namespace tessel::plot
