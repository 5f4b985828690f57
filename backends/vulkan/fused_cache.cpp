// Fused-kernel cache: shaderc compilation, the on-disk SPIR-V cache, pipeline creation.
#include "backends/vulkan/fused_cache.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "backends/vulkan/counters.h"
#include "backends/vulkan/runtime.h"
#include "shapes/user_error.h"

#if defined(TESSEL_HAVE_SHADERC)
#include <shaderc/shaderc.hpp>
#endif

namespace tessel::backends::vulkan {

namespace {

// Cache file: magic, text length (u64), the text (compared on load: a hash collision reads as
// a miss), then the SPIR-V words.
constexpr char kMagic[8] = {'T', 'S', 'L', 'S', 'P', 'V', '1', '\n'};

bool readCacheFile(const std::string& path, const std::string& glsl, std::vector<uint32_t>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (data.size() < 16 || std::memcmp(data.data(), kMagic, 8) != 0) return false;
  uint64_t len;
  std::memcpy(&len, data.data() + 8, 8);
  if (len != glsl.size() || data.size() < 16 + len) return false;
  if (data.compare(16, len, glsl) != 0) return false;
  const size_t rest = data.size() - 16 - len;
  if (rest == 0 || rest % 4 != 0) return false;
  out.resize(rest / 4);
  std::memcpy(out.data(), data.data() + 16 + len, rest);
  return out[0] == 0x07230203u;  // SPIR-V magic
}

bool writeCacheFile(const std::string& dir, const std::string& path, const std::string& glsl,
                    const std::vector<uint32_t>& words) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return false;
  // Written to a temporary name and renamed: concurrent processes never read half a file.
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return false;
    const uint64_t len = glsl.size();
    f.write(kMagic, 8);
    f.write(reinterpret_cast<const char*>(&len), 8);
    f.write(glsl.data(), std::streamsize(len));
    f.write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size() * 4));
    if (!f) return false;
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return !ec;
}

}  // namespace

FusedPipeline::~FusedPipeline() {
  if (pipeline_ != VK_NULL_HANDLE) vkDestroyPipeline(rt_->context().device(), pipeline_, nullptr);
}

bool fusedCodegenAvailable() {
#if defined(TESSEL_HAVE_SHADERC)
  return true;
#else
  return false;
#endif
}

FusedKernelCache& FusedKernelCache::instance() {
  // Its pipelines hold the runtime, so the device outlives them whatever the exit order.
  static FusedKernelCache cache;
  return cache;
}

std::string FusedKernelCache::directory() {
  if (const char* d = std::getenv("TESSEL_CACHE_DIR"); d && *d) return std::string(d) + "/vulkan";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tessel/vulkan";
  return "";
}

std::string FusedKernelCache::key(const std::string& glsl) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : glsl) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<uint32_t> FusedKernelCache::spirv(const std::string& glsl) {
  const std::string dir = directory();
  const std::string path = dir.empty() ? "" : dir + "/fused-" + key(glsl) + ".spv";
  std::vector<uint32_t> words;
  if (!path.empty() && readCacheFile(path, glsl, words)) {
    ++stats_.shadersFromDisk;
    return words;
  }
#if defined(TESSEL_HAVE_SHADERC)
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
  options.SetOptimizationLevel(shaderc_optimization_level_performance);
  shaderc::SpvCompilationResult r =
      compiler.CompileGlslToSpv(glsl, shaderc_compute_shader, "fused.comp", options);
  if (r.GetCompilationStatus() != shaderc_compilation_status_success)
    throwUserError(ErrorKind::DeviceError,
                   "vulkan: a generated fused kernel does not compile (an internal error): " +
                       r.GetErrorMessage() + "\n" + glsl);
  words.assign(r.cbegin(), r.cend());
  ++stats_.shadersCompiled;
  if (!path.empty() && !writeCacheFile(dir, path, glsl, words)) ++stats_.diskWriteFailures;
  return words;
#else
  throwUserError(ErrorKind::DeviceError, "vulkan: built without shaderc; fused kernels cannot be compiled");
#endif
}

std::shared_ptr<const FusedPipeline> FusedKernelCache::pipeline(const std::string& glsl) {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = pipelines_.find(glsl); it != pipelines_.end()) {
    ++stats_.memoryHits;
    return it->second;
  }
  std::vector<uint32_t> words = spirv(glsl);
  const std::shared_ptr<Runtime>& rt = Runtime::instance();
  VkDevice dev = rt->context().device();
  VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mi.codeSize = words.size() * sizeof(uint32_t);
  mi.pCode = words.data();
  VkShaderModule module;
  check(vkCreateShaderModule(dev, &mi, nullptr, &module), "vkCreateShaderModule(fused)");
  UniqueShaderModule owned(dev, module);
  VkComputePipelineCreateInfo pi{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pi.stage.module = module;
  pi.stage.pName = "main";
  pi.layout = rt->kernels().layout();
  VkPipeline p;
  check(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pi, nullptr, &p),
        "vkCreateComputePipelines(fused)");
  counters().pipelinesCreated.fetch_add(1);
  ++stats_.pipelinesBuilt;
  auto fp = std::make_shared<const FusedPipeline>(rt, p);
  pipelines_.emplace(glsl, fp);
  return fp;
}

void FusedKernelCache::clearMemory() {
  std::lock_guard<std::mutex> lock(mu_);
  pipelines_.clear();
}

FusedCacheStats FusedKernelCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

}  // namespace tessel::backends::vulkan
