// The cpu evaluation of a FusedProgram: one pass over the output in tiles of kTile elements,
// each instruction a tight loop over a tile held in small register buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "backends/graph/fused_program.h"
#include "backends/tensor.h"

namespace tessel::graph {

// Note [Tiled fused evaluation]
// Each temporary of a fused program lives in a register of kTile elements (float, or int32
// for i32 and bool), never in a full-size tensor. For each tile of the output (row-major
// order) the loads gather their operand's elements (stride 1, stride 0 for broadcasting, or
// any stride, segment by segment over the coalesced dims), then every instruction runs as one
// loop over the tile (the switch on the op is outside the element loop, so loops vectorize),
// and the result register is stored. Registers are reused once their temporary is dead, so a
// long chain needs a few kilobytes and stays in L1. Each instruction computes exactly as the
// eager kernel of its op does (same compute dtype, same formulas, the same ISA-cloned exp,
// log and sigmoid rows), so fused results equal eager ones.
class CpuFusedKernel {
 public:
  static constexpr int64_t kTile = 1024;

  /// What a run works out from the shapes and strides of its operands before its tile loop:
  /// the coalesced loop dims, each operand's strides along them, and which temporaries hold
  /// one element. Equal operand shapes and strides give an equal launch, so a caller that
  /// knows them in advance prepares it once (Note [Prepared runs] in executable.h).
  struct Launch {
    backends::Dims dims;                  // outer..inner, size-1 dims dropped, merged
    std::vector<backends::Dims> strides;  // per input, along `dims` (0: broadcast)
    backends::Dims outStrides;            // the output's, along `dims`
    std::vector<uint8_t> oneElement;      // per instruction (pow's x * x rule)
    int64_t total = 0;                    // output elements
  };

  explicit CpuFusedKernel(std::shared_ptr<const FusedProgram> program);
  /// Fills `out` (fresh, contiguous, the fused value's shape and dtype) from `inputs`, each
  /// broadcastable to out's shape.
  void run(std::span<const backends::Tensor> inputs, const backends::Tensor& out) const;
  /// The launch of a run on `inputs` into an output of `outShape` (reuses `launch`'s memory).
  void prepare(std::span<const backends::Tensor> inputs, const backends::Dims& outShape,
               Launch& launch) const;
  /// run() with a launch prepare() made for operands of these very shapes and strides; `out`
  /// is fresh and contiguous, as for run().
  void runPrepared(const Launch& launch, std::span<const backends::Tensor> inputs,
                   const backends::Tensor& out) const;

  const FusedProgram& program() const { return *program_; }
  int numFloatRegs() const { return numRegs_[0]; }
  int numIntRegs() const { return numRegs_[1]; }

 private:
  std::shared_ptr<const FusedProgram> program_;
  std::vector<int> reg_;     ///< register of each instruction in its file
  std::vector<int> loads_;   ///< the Load instructions, in order
  int numRegs_[2] = {0, 0};  ///< float file, int file
};

}  // namespace tessel::graph
