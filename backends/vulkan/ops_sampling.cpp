// randperm, multinomial, bernoulli on the vulkan backend: the cpu kernels on host copies, the
// result uploaded. They draw the same Philox words in the same order as on the cpu, so both
// backends give the same numbers under one seed(). (A device kernel is future work: randperm's
// Fisher-Yates and multinomial's draws without replacement are sequential per row.)
#include "backends/cpu/kernels.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"

namespace tessel::backends::vulkan {

Tensor runSampling(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                   const OpSignature& sig) {
  std::vector<Tensor> host;
  for (const Tensor& t : in) host.push_back(toCpu(t));
  return toVulkan(cpu::runSampling(op, host, attrs, sig));
}

}  // namespace tessel::backends::vulkan
