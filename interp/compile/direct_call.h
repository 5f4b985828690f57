// The direct path of a cache-hit call: plain arguments straight to a prepared graph run, with
// no allocation but the result's (Note [Direct cache-hit calls]).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "backends/graph/executable.h"
#include "interp/compile/arg_plan.h"
#include "interp/values/objects.h"

namespace tessel::interp {

// Note [Direct cache-hit calls]
// A cache hit of a tiny compiled function (`a * b + c` on 4 elements) did more work around the
// kernel than in it: the arguments bound into a fresh vector, matched against the entry's
// ArgPlan building "" strings, flattened into fresh vectors, the symbols bound into another, the
// executor re-checking every input shape the guards had just checked, and the fused kernel
// re-planning its loops. An entry whose graph can be prepared (Note [Prepared runs] in
// backends/graph/executable.h) and whose arguments are plain tensors and ints gets a
// DirectCall, made at the entry's first run and remade whenever the generic path serves it
// (the inputs' sizes or strides changed). A call with exactly the parameters' positional
// arguments then tries the entries, newest first, on the direct path:
//  - each argument is checked as matchArgs would (a tensor of the same rank and dtype, an int),
//    its sizes collected into scratch that keeps its capacity;
//  - the globals and every guard of the entry are checked, as on the generic path;
//  - the prepared run accepts the inputs only with the same dtypes, devices, sizes and strides
//    it was prepared for (a few compares; this is what stands in for the executor's symbolic
//    re-check), and runs the kernel with its launch planned in advance.
// A check that the generic path would fail too (a guard, a dtype) rejects the entry and the next
// older one is tried, as findEntry does; anything the direct path does not decide (another
// device, which a pinned backend would move; other sizes or strides; an entry without a direct
// path) sends the whole call to the generic path, which decides as it always did. So the direct
// path picks the entry findEntry would, or none. The call still counts as a cache hit (stats(),
// the structured trace).
// An entry of a dynamic graph whose sizes change at every call (a batch that grows) would
// prepare a run for each call and use none; after kMaxUnusedPrepares such runs in a row it
// stops preparing, and its calls go the generic way only.
struct DirectCall {
  static constexpr int kMaxUnusedPrepares = 4;
  std::unique_ptr<graph::PreparedRun> run;  // null: no direct path (yet)
  bool never = false;      // the entry cannot have one (its arguments, result or graph)
  bool used = false;       // `run` served a call
  int unusedPrepares = 0;  // runs prepared in a row that served no call
  // Scratch of the call in progress, emptied after it (its capacity is what is kept).
  FlatArgs flat;
  std::vector<backends::Tensor> outs;
};

struct Entry;
struct FrameObj;

/// The result of `args` (the positional arguments, one per parameter) run through the direct
/// path of the entry findEntry would pick, or nullopt where the generic path must decide.
std::optional<Value> callDirect(FrameObj& frame, std::span<const Value> args);
/// Gives `entry` a direct path for inputs laid out like `flat`'s, where it can have one; called
/// when the generic path ran it.
void prepareDirect(Entry& entry, const FlatArgs& flat);

}  // namespace tessel::interp
