// SVG to PNG through librsvg and cairo (png.h); without them (TESSEL_HAVE_RSVG unset) only the
// error that names the missing library.
#include "interp/plot/png.h"

#include "shapes/user_error.h"

#ifdef TESSEL_HAVE_RSVG
#include <cairo.h>
#include <librsvg/rsvg.h>
#endif

namespace tessel::plot {

#ifdef TESSEL_HAVE_RSVG

namespace {

cairo_status_t appendBytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

bool pngAvailable() {
  return true;
}

std::string svgToPng(const std::string& svg, int width, int height, const std::string& what) {
  GError* error = nullptr;
  RsvgHandle* handle =
      rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error);
  if (!handle) {
    std::string message = error ? error->message : "unknown error";
    if (error) g_error_free(error);
    throwUserError(ErrorKind::ValueError, what + ": librsvg cannot read the SVG: " + message);
  }
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  cairo_t* cr = cairo_create(surface);
  RsvgRectangle viewport{0, 0, static_cast<double>(width), static_cast<double>(height)};
  bool drawn = rsvg_handle_render_document(handle, cr, &viewport, &error);
  std::string message = !drawn && error ? error->message : "";
  if (error) g_error_free(error);
  cairo_destroy(cr);
  g_object_unref(handle);
  std::string png;
  cairo_status_t status =
      drawn ? cairo_surface_write_to_png_stream(surface, appendBytes, &png) : CAIRO_STATUS_SUCCESS;
  cairo_surface_destroy(surface);
  if (!drawn)
    throwUserError(ErrorKind::ValueError, what + ": librsvg cannot draw the SVG: " + message);
  if (status != CAIRO_STATUS_SUCCESS)
    throwUserError(ErrorKind::ValueError,
                   what + ": cairo cannot encode the PNG: " + cairo_status_to_string(status));
  return png;
}

#else

bool pngAvailable() {
  return false;
}

std::string svgToPng(const std::string&, int, int, const std::string& what) {
  throwUserError(ErrorKind::ValueError,
                 what +
                     ": writing PNG needs librsvg (Debian: librsvg2-dev), and Tessel was built "
                     "without it; save as .svg (a browser or `rsvg-convert` turns it into PNG)");
}

#endif

}  // namespace tessel::plot
