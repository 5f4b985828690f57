// Collectives on tensors across the ranks of the world (backends.md, "Distributed (MPI)"):
// the C++ side of the `dist` module and of compiler collectives.
//
// Every function here is collective: every rank calls the same ones in the same order (SPMD).
// None hangs: a rank that does not arrive within distConfig().timeoutSeconds, or that reported
// a failure, is a DeviceError naming it; ranks that disagree (a different collective, dtype,
// shape, op or source) all raise the same ValueError naming the ranks and what each has
// (Note [Headers first] in collectives.cpp). Inputs are cpu tensors (the interpreter stages
// other devices through the host); results are new tensors.
#pragma once

#include <string>
#include <vector>

#include "backends/tensor.h"

namespace tessel::backends::dist {

enum class ReduceOp : uint8_t { Sum, Max, Min, Mean };
/// "sum", "max", "min", "mean"; nullopt for another name.
std::optional<ReduceOp> reduceOpFromName(std::string_view name);
std::string_view reduceOpName(ReduceOp op);

/// The elementwise reduction of every rank's `t` (same dtype and shape everywhere). On bool,
/// sum and max are "any", min is "all"; mean is f32 only (a TypeError otherwise).
Tensor allReduce(const Tensor& t, ReduceOp op);
/// Rank `src`'s `t` on every rank (same dtype and shape everywhere).
Tensor broadcast(const Tensor& t, int src);
/// Every rank's `t`, in rank order: same dtype and rank, sizes free to differ.
std::vector<Tensor> allGather(const Tensor& t);
/// Returns once every rank has called it.
void barrier();
/// Every rank's `mine`, in rank order (compiler collectives exchange code states with it).
/// `what` names the exchange in errors.
std::vector<std::string> allGatherText(const std::string& mine, const std::string& what);

/// How many collectives this process has run (for logs and tests).
uint64_t collectiveCount();

}  // namespace tessel::backends::dist
