// Finds the current thread's stack bounds once per thread (pthread_getattr_np).
#include "interp/syntax/stack_guard.h"

#include <pthread.h>

#include <cstdint>

#include "interp/syntax/diagnostics.h"

namespace tessel::interp {

char* computeStackLimit() {
  pthread_attr_t attr;
  void* base = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
  }
  if (!base || size <= 2 * kStackMargin) {
    // Unknown bounds: assume 1 MiB below here, which every platform thread provides.
    char marker;
    auto here = reinterpret_cast<uintptr_t>(&marker);
    return reinterpret_cast<char*>(here - (1 << 20) + kStackMargin);
  }
  return static_cast<char*>(base) + kStackMargin;
}

void stackExhausted(const Span& span) {
  raise(ErrorKind::LimitError, "maximum recursion depth exceeded (native stack exhausted)", span);
}

}  // namespace tessel::interp
