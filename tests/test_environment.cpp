// Environment defaults of every test binary, set before main (values already set win, so a
// developer can still run with, say, TESSEL_VULKAN_VALIDATE=0). CTest cannot pass them:
// gtest_discover_tests (CMake 3.25) turns a PROPERTIES list such as ENVIRONMENT "A=1;B=2" into
// separate arguments, so only the first variable ever reached the tests.
#include <cstdlib>

namespace {

const bool kDefaults = [] {
  setenv("XDG_RUNTIME_DIR", "/tmp", 0);                  // lavapipe needs one
  setenv("LP_NUM_THREADS", "0", 0);                      // tiny dispatches: faster on one thread
  setenv("TESSEL_CACHE_DIR", TESSEL_TEST_CACHE_DIR, 0);  // not the developer's ~/.cache
  setenv("TESSEL_VULKAN_VALIDATE", "1", 0);              // tests run with the validation layer
  // Profiles saved by one test (or an earlier ctest run) would change another's compile counts;
  // the PGO tests turn it on in a cache dir of their own.
  setenv("TESSEL_PGO", "0", 0);
  return true;
}();

}  // namespace
