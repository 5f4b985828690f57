// GraphExecutable: what every backend's executable shares.
#include "backends/graph/executable.h"

namespace tessel::graph {

std::string GraphExecutable::explain() const {
  return graph().toString() + "stats: " + stats().toString() + "\n";
}

}  // namespace tessel::graph
