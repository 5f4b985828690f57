// What `tessel report` derives from the compiles of a trace: frames (one per function or
// region), and within a frame the groups of similar graphs (seed "Compare Graphs").
#pragma once

#include <string>
#include <vector>

#include "repl/report/trace.h"

namespace tessel::repl::report {

/// One frame of one process: a compiled function, or one region of a function with graph
/// breaks. Compiles are sorted by start time.
struct FrameView {
  size_t process = 0;  ///< index into Trace::processes
  std::string key;     ///< identity within the process
  std::string label;   ///< "f (f.dsl:3)", "f (f.dsl:3) region lines 5-7"
  std::vector<const CompileRecord*> compiles;
  const FrameSummary* summary = nullptr;  ///< from frame_summary, when the process wrote one
};

/// Frames of every process, each process's in the order of their first compile.
std::vector<FrameView> framesOf(const Trace& trace);
/// "f (dir/f.dsl:3)", plus " region lines a-b" for a region; with `shortFile`, the file
/// without its folders ("f (f.dsl:3)").
std::string frameLabel(const CompileRecord& c, bool shortFile = false);
/// "dir/f.dsl:6:8" without its folders: "f.dsl:6:8" (the page shows these, with the full
/// text as a tooltip).
std::string withoutFolders(const std::string& path);

/// How one compile saw a source: a constant (a static size, a specialization) or a symbol.
struct SourceSeen {
  bool known = false;  ///< false: this compile says nothing about the source
  bool dynamic = false;
  std::string value;   ///< the constant, or the symbol's hint
  std::string symbol;  ///< s0 when dynamic
};

/// A source whose compiles disagree: different constants or hints, static in one compile and
/// dynamic in another. `seen` is parallel to the group's members.
struct VaryingSource {
  std::string source;
  std::vector<SourceSeen> seen;
  /// Where the program specialized it in some member although it was a symbol there (a
  /// `range(n)`, an `int(n)`): making it dynamic would not remove the recompiles; that line
  /// would have to change. Empty when every pin came from the source being static.
  SourceLine specializedAt;
};

/// Graphs of one frame with the same sequence of tensor ops (similarityOps) and number of
/// inputs: candidates for one dynamic graph.
struct SimilarGroup {
  std::vector<const CompileRecord*> members;
  size_t tensorOps = 0;
  std::vector<VaryingSource> varying;
  /// Members whose recompile reason names a source that is not among `varying` (a bool, a
  /// type, a size that did not vary here), with that source: dynamic shapes do not remove
  /// those recompiles.
  std::vector<std::pair<const CompileRecord*, std::string>> otherReasons;
  /// "3 graphs with the same 4 ops and 1 input: ..." with the advice that follows from it.
  std::string summary() const;
  /// The line that makes the varying sources dynamic from the start, or "" when none.
  std::string dynamicSourcesLine() const;
};

/// Groups of two or more similar graphs of `frame`, in the order of their first compile.
std::vector<SimilarGroup> similarGroups(const FrameView& frame);

/// The ops of a graph that depend on its tensor inputs, read from its text: what stays when
/// sizes become symbols. A dynamic graph computes some sizes with ops of its own
/// (`arange(start=s0, ...)` where the static graph has `constant 10`); those depend on no
/// input and are left out, so the static and the dynamic graph compare equal (Note [Similar
/// graphs]). Falls back to the event's `ops` when the text has no op lines.
std::vector<std::string> similarityOps(const GraphRecord& g);

/// The source a recompile reason names: "x.shape[0]" for "x.shape[0]: expected 10, got 20"
/// and for "s0 <= 30 failed (s0 = 40 from x.shape[0])", "" when it names none.
std::string reasonSource(const std::string& reason);

}  // namespace tessel::repl::report
