// The cache of generated kernels (fused_codegen.h): GLSL text -> SPIR-V (compiled with shaderc,
// kept in memory and on disk under $TESSEL_CACHE_DIR/vulkan/, default ~/.cache/tessel/vulkan/)
// -> compute pipeline (in memory). Keyed by the kernel text, so sizes never build a pipeline.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tessel::backends::vulkan {

class Runtime;

/// Counters of the fused-kernel cache, process wide (tests and stats()).
struct FusedCacheStats {
  uint64_t pipelinesBuilt = 0;    ///< vkCreateComputePipelines for generated kernels
  uint64_t shadersCompiled = 0;   ///< GLSL compiled with shaderc
  uint64_t shadersFromDisk = 0;   ///< SPIR-V loaded from the disk cache
  uint64_t memoryHits = 0;        ///< pipelines found in memory
  uint64_t diskWriteFailures = 0; ///< cache files that could not be written (not an error)
};

/// A pipeline built from generated SPIR-V; keeps the runtime (and so the device) alive.
class FusedPipeline {
 public:
  FusedPipeline(std::shared_ptr<Runtime> rt, VkPipeline p) : rt_(std::move(rt)), pipeline_(p) {}
  ~FusedPipeline();
  FusedPipeline(const FusedPipeline&) = delete;
  FusedPipeline& operator=(const FusedPipeline&) = delete;
  VkPipeline get() const { return pipeline_; }

 private:
  std::shared_ptr<Runtime> rt_;
  VkPipeline pipeline_;
};

/// True when this build can compile GLSL at run time (linked with shaderc).
bool fusedCodegenAvailable();

class FusedKernelCache {
 public:
  static FusedKernelCache& instance();

  /// The pipeline of `glsl`: from memory, else SPIR-V from disk, else compiled (and written to
  /// disk). A DeviceError when the text does not compile (an internal error of codegen).
  std::shared_ptr<const FusedPipeline> pipeline(const std::string& glsl);
  /// Forgets the in-memory SPIR-V and pipelines (executors keep the ones they hold); the next
  /// request goes to disk. For tests.
  void clearMemory();
  FusedCacheStats stats() const;
  /// $TESSEL_CACHE_DIR/vulkan, else $HOME/.cache/tessel/vulkan; "" when neither is known.
  static std::string directory();
  /// 16 hex digits of the FNV-1a hash of the text (the file name stem).
  static std::string key(const std::string& glsl);

 private:
  FusedKernelCache() = default;
  std::vector<uint32_t> spirv(const std::string& glsl);

  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const FusedPipeline>> pipelines_;  // by text
  FusedCacheStats stats_;
};

}  // namespace tessel::backends::vulkan
