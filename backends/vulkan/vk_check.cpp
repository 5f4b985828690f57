// VkResult names and the one place Vulkan failures become DeviceErrors.
#include "backends/vulkan/vk_check.h"

#include <string>

#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

const char* resultName(VkResult result) {
  switch (result) {
#define TESSEL_VK_RESULT(r) \
  case r:                   \
    return #r;
    TESSEL_VK_RESULT(VK_SUCCESS)
    TESSEL_VK_RESULT(VK_NOT_READY)
    TESSEL_VK_RESULT(VK_TIMEOUT)
    TESSEL_VK_RESULT(VK_INCOMPLETE)
    TESSEL_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    TESSEL_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    TESSEL_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    TESSEL_VK_RESULT(VK_ERROR_DEVICE_LOST)
    TESSEL_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    TESSEL_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    TESSEL_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    TESSEL_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    TESSEL_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    TESSEL_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    TESSEL_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    TESSEL_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    TESSEL_VK_RESULT(VK_ERROR_UNKNOWN)
    TESSEL_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
#undef TESSEL_VK_RESULT
    default:
      return "VkResult(unknown)";
  }
}

void check(VkResult result, std::string_view context) {
  if (result == VK_SUCCESS) return;
  throwUserError(ErrorKind::DeviceError, "vulkan: " + std::string(context) + ": " +
                                             resultName(result) + " (" +
                                             std::to_string(int(result)) + ")");
}

}  // namespace tessel::backends::vulkan
