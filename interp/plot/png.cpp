// SVG to PNG through librsvg and cairo (png.h), opened at the first PNG (Note [librsvg on
// demand]); without their headers (TESSEL_HAVE_RSVG unset) only the error that names the
// missing library.
#include "interp/plot/png.h"

#include "shapes/user_error.h"

#ifdef TESSEL_HAVE_RSVG
#include <cairo.h>
#include <dlfcn.h>
#include <librsvg/rsvg.h>

#include <type_traits>
#endif

namespace tessel::plot {

#ifdef TESSEL_HAVE_RSVG

namespace {

// Note [librsvg on demand]
// librsvg brings glib, gio, pango, cairo and some forty other libraries; linked, they cost
// every run of tessel ~20 ms and 8 MB at start (measured: 31 -> 72 shared objects) for a
// feature few scripts use. So the build takes only librsvg's headers, and the library is
// opened at the first PNG. dlsym through its handle also finds the glib and cairo functions
// it depends on.
struct Rsvg {
  decltype(&rsvg_handle_new_from_data) newFromData = nullptr;
  decltype(&rsvg_handle_render_document) renderDocument = nullptr;
  decltype(&g_error_free) errorFree = nullptr;
  decltype(&g_object_unref) objectUnref = nullptr;
  decltype(&cairo_image_surface_create) imageSurfaceCreate = nullptr;
  decltype(&cairo_create) create = nullptr;
  decltype(&cairo_destroy) destroy = nullptr;
  decltype(&cairo_surface_write_to_png_stream) writeToPngStream = nullptr;
  decltype(&cairo_surface_destroy) surfaceDestroy = nullptr;
  decltype(&cairo_status_to_string) statusToString = nullptr;
  std::string error;  // why it could not be opened; empty when it was
};

const Rsvg& rsvg() {
  static const Rsvg r = [] {
    Rsvg r;
    void* lib = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      r.error = e ? e : "librsvg-2.so.2 not found";
      return r;
    }
    bool ok = true;
    auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && ok) {
        ok = false;
        r.error = std::string("librsvg-2.so.2 has no ") + name;
      }
    };
    get(r.newFromData, "rsvg_handle_new_from_data");
    get(r.renderDocument, "rsvg_handle_render_document");
    get(r.errorFree, "g_error_free");
    get(r.objectUnref, "g_object_unref");
    get(r.imageSurfaceCreate, "cairo_image_surface_create");
    get(r.create, "cairo_create");
    get(r.destroy, "cairo_destroy");
    get(r.writeToPngStream, "cairo_surface_write_to_png_stream");
    get(r.surfaceDestroy, "cairo_surface_destroy");
    get(r.statusToString, "cairo_status_to_string");
    return r;
  }();
  return r;
}

cairo_status_t appendBytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

bool pngAvailable() {
  return rsvg().error.empty();
}

std::string svgToPng(const std::string& svg, int width, int height, const std::string& what) {
  const Rsvg& r = rsvg();
  if (!r.error.empty())
    throwUserError(ErrorKind::ValueError,
                   what + ": writing PNG needs librsvg (Debian: librsvg2-2), which cannot be "
                          "opened: " + r.error + "; save as .svg instead");
  GError* error = nullptr;
  RsvgHandle* handle =
      r.newFromData(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error);
  if (!handle) {
    std::string message = error ? error->message : "unknown error";
    if (error) r.errorFree(error);
    throwUserError(ErrorKind::ValueError, what + ": librsvg cannot read the SVG: " + message);
  }
  cairo_surface_t* surface = r.imageSurfaceCreate(CAIRO_FORMAT_ARGB32, width, height);
  cairo_t* cr = r.create(surface);
  RsvgRectangle viewport{0, 0, static_cast<double>(width), static_cast<double>(height)};
  bool drawn = r.renderDocument(handle, cr, &viewport, &error);
  std::string message = !drawn && error ? error->message : "";
  if (error) r.errorFree(error);
  r.destroy(cr);
  r.objectUnref(handle);
  std::string png;
  cairo_status_t status =
      drawn ? r.writeToPngStream(surface, appendBytes, &png) : CAIRO_STATUS_SUCCESS;
  r.surfaceDestroy(surface);
  if (!drawn)
    throwUserError(ErrorKind::ValueError, what + ": librsvg cannot draw the SVG: " + message);
  if (status != CAIRO_STATUS_SUCCESS)
    throwUserError(ErrorKind::ValueError,
                   what + ": cairo cannot encode the PNG: " + r.statusToString(status));
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
