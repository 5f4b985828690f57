// Instance and device creation, device selection and the validation messenger.
#include "backends/vulkan/context.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef TESSEL_SANITIZED
#include <dlfcn.h>
#include <link.h>
#endif

#include "backends/vulkan/counters.h"
#include "backends/vulkan/vk_check.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool envFlag(const char* name) {
  const char* v = std::getenv(name);
  return v && std::strcmp(v, "0") != 0 && *v;
}

// Counts every warning and error and prints it: zero messages is part of passing the tests.
VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    counters().validationMessages.fetch_add(1);
    std::fprintf(stderr, "tessel vulkan validation: %s\n", data->pMessage);
  }
  return VK_FALSE;
}

bool layerAvailable(const char* layer) {
  uint32_t n = 0;
  if (vkEnumerateInstanceLayerProperties(&n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(n);
  if (vkEnumerateInstanceLayerProperties(&n, layers.data()) != VK_SUCCESS) return false;
  for (const auto& l : layers)
    if (std::strcmp(l.layerName, layer) == 0) return true;
  return false;
}

#ifdef TESSEL_SANITIZED
// Note [Pinned Vulkan drivers]: the loader unloads the driver (ICD: lavapipe's
// libvulkan_lvp.so) at vkDestroyInstance. The driver leaves allocations of its own behind (one
// made under pthread_once at vkEnumeratePhysicalDevices; blocks lost while it made our
// pipelines and memory), and LeakSanitizer's report at exit would show them at
// "<unknown module>" addresses that no suppression can name. Sanitized builds keep the
// loaded drivers and layers mapped (RTLD_NODELETE), so tools/lsan.supp names them by module.
void pinVulkanDrivers() {
  std::vector<std::string> names;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        const char* name = info->dlpi_name;
        if (name && (std::strstr(name, "libvulkan_") || std::strstr(name, "libVkLayer_")))
          static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  // Outside the iteration: dlopen takes the loader lock that dl_iterate_phdr holds.
  for (const std::string& n : names) dlopen(n.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}
#endif

VkInstance makeInstance(bool validation) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessel";
  app.apiVersion = VK_API_VERSION_1_2;
  std::vector<const char*> layers, extensions;
  if (validation) {
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance instance = VK_NULL_HANDLE;
  check(vkCreateInstance(&info, nullptr, &instance), "vkCreateInstance");
#ifdef TESSEL_SANITIZED
  pinVulkanDrivers();
#endif
  return instance;
}

std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance) {
  uint32_t n = 0;
  check(vkEnumeratePhysicalDevices(instance, &n, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devs(n);
  check(vkEnumeratePhysicalDevices(instance, &n, devs.data()), "vkEnumeratePhysicalDevices");
  return devs;
}

const char* typeName(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

bool hasExtension(VkPhysicalDevice dev, const char* ext) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(dev, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vkEnumerateDeviceExtensionProperties(dev, nullptr, &n, exts.data());
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, ext) == 0) return true;
  return false;
}

int computeQueueFamily(VkPhysicalDevice dev) {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(dev, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fams(n);
  vkGetPhysicalDeviceQueueFamilyProperties(dev, &n, fams.data());
  for (uint32_t i = 0; i < n; ++i)
    if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return int(i);
  return -1;
}

// Why a device cannot run Tessel's kernels, or "" when it can.
std::string unusableReason(VkPhysicalDevice dev) {
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(dev, &p);
  VkPhysicalDeviceFeatures f;
  vkGetPhysicalDeviceFeatures(dev, &f);
  if (p.apiVersion < VK_API_VERSION_1_2) return "needs Vulkan 1.2";
  if (computeQueueFamily(dev) < 0) return "has no compute queue";
  if (!hasExtension(dev, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
    return "lacks VK_KHR_push_descriptor";
  if (!f.shaderInt64) return "lacks shaderInt64";
  if (!f.shaderStorageBufferArrayDynamicIndexing)
    return "lacks shaderStorageBufferArrayDynamicIndexing";
  if (p.limits.maxPushConstantsSize < 128) return "has under 128 bytes of push constants";
  return "";
}

}  // namespace

std::vector<VulkanDeviceInfo> availableVulkanDevices() {
  std::vector<VulkanDeviceInfo> out;
  try {
    VkInstance instance = makeInstance(false);
    int i = 0;
    for (VkPhysicalDevice dev : physicalDevices(instance)) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(dev, &p);
      out.push_back({i++, p.deviceName, typeName(p.deviceType)});
    }
    vkDestroyInstance(instance, nullptr);
  } catch (const UserError&) {
    // No loader or driver: no devices.
  }
  return out;
}

std::unique_ptr<VulkanContext> VulkanContext::create() {
  std::unique_ptr<VulkanContext> ctx(new VulkanContext);
  ctx->validation_ = envFlag("TESSEL_VULKAN_VALIDATE") && layerAvailable(kValidationLayer);
  if (envFlag("TESSEL_VULKAN_VALIDATE") && !ctx->validation_)
    std::fprintf(stderr, "tessel vulkan: TESSEL_VULKAN_VALIDATE=1 but %s is not installed\n",
                 kValidationLayer);
  ctx->instance_ = makeInstance(ctx->validation_);
  if (ctx->validation_) {
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = onValidationMessage;
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(ctx->instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (create) check(create(ctx->instance_, &info, nullptr, &ctx->messenger_),
                      "vkCreateDebugUtilsMessengerEXT");
  }

  std::vector<VkPhysicalDevice> devs = physicalDevices(ctx->instance_);
  if (devs.empty()) throwUserError(ErrorKind::DeviceError, "vulkan: no Vulkan device found");
  int chosen = -1;
  if (const char* env = std::getenv("TESSEL_VULKAN_DEVICE")) {
    chosen = std::atoi(env);
    if (chosen < 0 || chosen >= int(devs.size()))
      throwUserError(ErrorKind::DeviceError,
                     "vulkan: TESSEL_VULKAN_DEVICE=" + std::string(env) + " but there are " +
                         std::to_string(devs.size()) + " devices");
    std::string why = unusableReason(devs[chosen]);
    if (!why.empty())
      throwUserError(ErrorKind::DeviceError, "vulkan: device " + std::to_string(chosen) + " " + why);
  } else {
    for (int pass = 0; pass < 2 && chosen < 0; ++pass)
      for (int i = 0; i < int(devs.size()) && chosen < 0; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devs[i], &p);
        bool wanted = pass == 1 || p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
        if (wanted && unusableReason(devs[i]).empty()) chosen = i;
      }
    if (chosen < 0)
      throwUserError(ErrorKind::DeviceError,
                     "vulkan: no usable device (device 0 " + unusableReason(devs[0]) + ")");
  }
  ctx->physical_ = devs[chosen];
  vkGetPhysicalDeviceProperties(ctx->physical_, &ctx->props_);
  vkGetPhysicalDeviceMemoryProperties(ctx->physical_, &ctx->memProps_);
  ctx->name_ = ctx->props_.deviceName;
  ctx->queueFamily_ = uint32_t(computeQueueFamily(ctx->physical_));

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = ctx->queueFamily_;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkPhysicalDeviceFeatures features{};
  features.shaderInt64 = VK_TRUE;
  features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
  const char* extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.pEnabledFeatures = &features;
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = extensions;
  check(vkCreateDevice(ctx->physical_, &info, nullptr, &ctx->device_), "vkCreateDevice");
  vkGetDeviceQueue(ctx->device_, ctx->queueFamily_, 0, &ctx->queue_);
  ctx->pushDescriptorSet = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(ctx->device_, "vkCmdPushDescriptorSetKHR"));
  TESSEL_ASSERT(ctx->pushDescriptorSet, "VK_KHR_push_descriptor enabled but not loadable");
  return ctx;
}

VulkanContext::~VulkanContext() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

}  // namespace tessel::backends::vulkan
