// Graph breaks moved to values/ (values/graph_break.h), below every layer that reports one.
// This header only forwards, for tensors/tensor_bridge.cpp, whose include is updated with the
// next change to that file; do not include it in new code.
#pragma once

#include "interp/values/graph_break.h"
