# Helpers of every test binary, included before the layers (backends/graph and backends/vulkan
# add their test suites themselves, before tests/CMakeLists.txt runs).

# tessel_test_defaults(TARGET): links tests/test_environment.cpp, the environment defaults
# (lavapipe settings, the validation layer, a cache dir in the build tree) set before main,
# and accepts designated initializers that name only some members ({.shape = ...}), which
# -Wextra's missing-field-initializers would flag in every test.
function(tessel_test_defaults target)
  target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/test_environment.cpp)
  target_compile_options(${target} PRIVATE -Wno-missing-field-initializers)
  target_compile_definitions(${target} PRIVATE
    TESSEL_TEST_CACHE_DIR="${PROJECT_BINARY_DIR}/test-cache")
endfunction()
