// Finds the current thread's stack bounds once per thread (pthread_getattr_np).
#include "interp/stack_guard.h"

#include <pthread.h>

#include "interp/diagnostics.h"

namespace tessel::interp {

char* stackLimit() {
  thread_local char* limit = [] {
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
      return &marker - (1 << 20) + kStackMargin;
    }
    return static_cast<char*>(base) + kStackMargin;
  }();
  return limit;
}

void stackExhausted(Span span) {
  raise(ErrorKind::LimitError, "maximum recursion depth exceeded (native stack exhausted)", span);
}

}  // namespace tessel::interp
