// display(value): showing a value richly where the host can (Note [Rich display]).
#pragma once

#include <ostream>

#include "interp/values/objects.h"

namespace tessel::interp {

// Note [Rich display]
// A host that can show more than text (the Jupyter kernel, kernel/) sets as the interpreter's
// output a RichOutput: an ostream print() writes to as to any other, which also takes whole
// values. display(v) hands v to it; anywhere else display prints v's repr on the output, as the
// REPL echoes it. The interpreter itself knows nothing of notebooks or MIME types.
class RichOutput : public std::ostream {
 public:
  explicit RichOutput(std::streambuf* buffer) : std::ostream(buffer) {}
  /// Shows `value` (the kernel publishes a display_data message).
  virtual void display(const Value& value) = 0;
};

/// Adds display() to the prelude.
void registerDisplayBuiltins(ModuleObj& prelude);

}  // namespace tessel::interp
