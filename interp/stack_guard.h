// Native stack checks: deep recursion in the user's program (or a very deep expression) becomes
// a LimitError instead of a stack overflow, whatever thread the embedder runs Tessel on.
#pragma once

#include <cstddef>

#include "interp/source.h"

namespace tessel::interp {

/// Bytes of native stack Tessel leaves unused as a safety margin.
inline constexpr size_t kStackMargin = 256 * 1024;

/// The lowest address the current thread's stack may grow to before Tessel stops recursing.
char* stackLimit();

/// Throws a LimitError at `span` when the native stack is nearly exhausted.
inline void checkStack(Span span) {
  char marker;
  if (&marker < stackLimit()) [[unlikely]] {
    extern void stackExhausted(Span span);
    stackExhausted(span);
  }
}

}  // namespace tessel::interp
