// tessel::load and tessel::save: the prelude's load and save for the app (tessel.h), over
// the same code (interp/natives/file_values.h), without the file policy (the app chose the path).
#include <new>

#include "api/api_internal.h"
#include "backends/device.h"
#include "interp/natives/file_values.h"
#include "shapes/user_error.h"

namespace tessel {

namespace {

template <class F>
auto translated(F&& body) {
  try {
    return body();
  } catch (const UserError& e) {
    throw api::errorWithoutLocation(errorKindName(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    throw api::errorWithoutLocation("DeviceError", "out of memory");
  }
}

}  // namespace

Value load(const std::string& path, std::string_view device) {
  std::optional<backends::Device> d = backends::deviceFromName(device);
  if (!d)
    throw api::errorWithoutLocation("ValueError", "load: device names no device: '" +
                                                      std::string(device) + "' (cpu, vulkan, tpu)");
  return translated([&] { return api::wrap(interp::loadValue(path, d)); });
}

void save(const std::string& path, const Value& value, bool compress) {
  translated([&] { interp::saveValue(path, api::unwrap(value), compress); });
}

}  // namespace tessel
