// Native stack checks: deep recursion in the user's program (or a very deep expression) becomes
// a LimitError instead of a stack overflow, whatever thread the embedder runs Tessel on.
#pragma once

#include <cstddef>

#include "interp/syntax/source.h"

namespace tessel::interp {

/// Bytes of native stack Tessel leaves unused as a safety margin.
inline constexpr size_t kStackMargin = 256 * 1024;

/// Computes the current thread's limit (pthread_getattr_np); stackLimit() caches it.
char* computeStackLimit();

/// The current thread's cached limit; constant-initialized, so reading it is one TLS load.
inline thread_local char* tlsStackLimit = nullptr;

/// The lowest address the current thread's stack may grow to before Tessel stops recursing.
inline char* stackLimit() {
  char* limit = tlsStackLimit;
  if (!limit) [[unlikely]]
    limit = tlsStackLimit = computeStackLimit();
  return limit;
}

/// True when the native stack is nearly exhausted (for code that reports the error itself).
inline bool stackNearlyExhausted() {
  char marker;
  return &marker < stackLimit();
}

[[noreturn, gnu::cold]] void stackExhausted(const Span& span);

/// Throws a LimitError at `span` when the native stack is nearly exhausted.
inline void checkStack(const Span& span) {
  if (stackNearlyExhausted()) [[unlikely]]
    stackExhausted(span);
}

}  // namespace tessel::interp
