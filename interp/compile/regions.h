// Graph breaks that resume (compiler.md, "Graph breaks"): how a compiled function whose trace
// broke runs at every call.
//
// Note [Regions]
// A trace that meets a statement it cannot put in a graph (regions' inputs are fake, so
// print, .item(), a branch on data, a change to the caller's list all need what a trace does
// not have) stops before that statement has any effect and throws TracedBreak, naming the
// statements that were running: the statement of the traced block, then those of the loops,
// branches and callees inside it, down to the one that broke. Each of them is marked as
// *broken* on the frame, once and for all.
//
// From then on a call runs the function in the evaluator with a RegionRunner installed. The
// runner receives every block the evaluator runs (the body, loop bodies, branches, callees'
// bodies) and splits it at its broken statements: each maximal run of unbroken statements is
// a *region*, compiled and cached on its own like a whole function (inputs: the local
// variables the region reads; guards over them; outputs: the variables it changes and how it
// ended, so a `return`, `break` or `continue` inside it works). A broken statement is handed
// back to the evaluator and runs eagerly with real tensors; its inner blocks come back to the
// runner, so a loop whose body breaks runs its header eagerly and its body as regions, and a
// callee that breaks is split the same way inside the caller's broken call statement.
//
// So a call replays graph, eager statement, graph, ... and side effects happen at every call,
// with real values: nothing symbolic reaches user-visible state, since only concrete values
// leave a region. A region that breaks while being traced for the first time is simply split
// again: tracing has no side effects, so nothing ran twice.
#pragma once

#include <vector>

#include "interp/compile/compiled_frame.h"
#include "interp/eval/evaluator.h"

namespace tessel::interp {

class Interpreter;

/// One region's cache: its entries (graphs with guards) and automatic-dynamic memory.
struct Region {
  std::vector<std::unique_ptr<Entry>> entries;  // oldest first; checked newest first
  CodeState codeState;
  std::vector<bool> reads;  // the slots its statements may read before writing them
  std::vector<std::string> inputNames;  // of the read slots, in order (for the code state)
  bool eager = false;  // cannot be compiled (recompile_limit, captured variables): runs eagerly
};

/// Installed while a compiled function with breaks runs (Note [Regions]).
class RegionRunner final : public BlockRunner {
 public:
  RegionRunner(Interpreter& interp, FrameObj& frame) : interp_(interp), frame_(frame) {}
  Flow runBlock(const CBlock& block, Frame& f) override;

 private:
  /// Runs statements [begin, end) of `block` as one compiled region; throws TracedBreak when
  /// its first trace breaks (nothing has run then).
  Flow runRegion(const CBlock& block, uint32_t begin, uint32_t end, Frame& f);
  Region& regionFor(const Block& block, uint32_t begin, uint32_t end, const FnProto& proto);
  Interpreter& interp_;
  FrameObj& frame_;
};

/// Every entry of the frame (whole calls and regions), oldest first.
std::vector<const Entry*> frameEntries(const FrameObj& frame);

/// Installs a block runner (or none) for a scope; compiled calls nest.
struct ScopedBlockRunner {
  explicit ScopedBlockRunner(BlockRunner* runner) : saved(traceContext().runner) {
    setBlockRunner(runner);
  }
  ~ScopedBlockRunner() { setBlockRunner(saved); }
  ScopedBlockRunner(const ScopedBlockRunner&) = delete;
  ScopedBlockRunner& operator=(const ScopedBlockRunner&) = delete;
  BlockRunner* saved;
};

/// Calls the frame's function with breaks: the evaluator runs it with a RegionRunner.
Value callWithBreaks(Interpreter& interp, FrameObj& frame, std::span<Value> args, Span site);

}  // namespace tessel::interp
