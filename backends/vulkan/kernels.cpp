// Pipeline creation from the SPIR-V embedded at build time (CMakeLists.txt, glslc).
#include "backends/vulkan/kernels.h"

#include <vector>

#include "backends/vulkan/context.h"
#include "backends/vulkan/counters.h"
#include "backends/vulkan/shaders/ew_ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct SpirvEntry {
  const char* name;
  std::vector<uint32_t> words;
};

const std::vector<SpirvEntry>& spirvTable() {
  static const std::vector<SpirvEntry> table = {
#include "spirv_table.inc"
  };
  return table;
}

}  // namespace

Kernels::Kernels(const VulkanContext& ctx) : ctx_(ctx) {
  VkDevice dev = ctx.device();
  VkDescriptorSetLayoutBinding binding{};
  binding.binding = 0;
  binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  binding.descriptorCount = kBuffersPerKernel;
  binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutCreateInfo si{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  si.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  si.bindingCount = 1;
  si.pBindings = &binding;
  VkDescriptorSetLayout setLayout;
  check(vkCreateDescriptorSetLayout(dev, &si, nullptr, &setLayout), "vkCreateDescriptorSetLayout");
  setLayout_ = UniqueSetLayout(dev, setLayout);

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes};
  VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  li.setLayoutCount = 1;
  li.pSetLayouts = &setLayout;
  li.pushConstantRangeCount = 1;
  li.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  check(vkCreatePipelineLayout(dev, &li, nullptr, &layout), "vkCreatePipelineLayout");
  layout_ = UniquePipelineLayout(dev, layout);
}

VkPipeline Kernels::get(std::string_view name, uint32_t variant) {
  auto it = pipelines_.find(std::make_pair(std::string(name), variant));
  if (it != pipelines_.end()) return it->second.get();
  if (name == "elementwise" || name.starts_with("elementwise_op")) {
    // Whether an elementwise op takes the strided, linear or linear vec4/vec8 path depends on
    // shapes and offsets (Note [Linear elementwise]), so all four are built together: a
    // shape change never compiles a pipeline.
    const uint32_t base = variant & ~(EW_LINEAR | EW_VEC4 | EW_VEC8);
    for (uint32_t v : {base, base | EW_LINEAR, base | EW_LINEAR | EW_VEC4, base | EW_LINEAR | EW_VEC8})
      if (v != variant && !pipelines_.count(std::make_pair(std::string(name), v))) create(name, v);
  }
  if (name == "matmul" || name == "matmul_int") {
    // The aligned (vec4 tile fill) and general variants depend on shapes: built together.
    const uint32_t other = variant ^ 1u;
    if (!pipelines_.count(std::make_pair(std::string(name), other))) create(name, other);
  }
  return create(name, variant);
}

VkPipeline Kernels::create(std::string_view name, uint32_t variant) {
  auto key = std::make_pair(std::string(name), variant);

  const SpirvEntry* entry = nullptr;
  for (const SpirvEntry& e : spirvTable())
    if (name == e.name) entry = &e;
  TESSEL_ASSERT(entry, "no embedded shader named " + std::string(name));
  VkDevice dev = ctx_.device();
  VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mi.codeSize = entry->words.size() * sizeof(uint32_t);
  mi.pCode = entry->words.data();
  VkShaderModule module;
  check(vkCreateShaderModule(dev, &mi, nullptr, &module),
        "vkCreateShaderModule(" + std::string(name) + ")");
  UniqueShaderModule owned(dev, module);

  VkSpecializationMapEntry specEntry{0, 0, sizeof(uint32_t)};
  VkSpecializationInfo spec{1, &specEntry, sizeof(uint32_t), &variant};
  VkComputePipelineCreateInfo pi{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pi.stage.module = module;
  pi.stage.pName = "main";
  pi.stage.pSpecializationInfo = &spec;
  pi.layout = layout_.get();
  VkPipeline pipeline;
  check(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pi, nullptr, &pipeline),
        "vkCreateComputePipelines(" + std::string(name) + ")");
  counters().pipelinesCreated.fetch_add(1);
  return pipelines_.emplace(std::move(key), UniquePipeline(dev, pipeline)).first->second.get();
}

}  // namespace tessel::backends::vulkan
