// joinWorld, abortWorld, leaveWorld: the process's MPI world (backends/dist/world.h) for apps
// that run scripts under mpirun, as the `tessel` command does.
#include "backends/dist/world.h"

#include "tessel/tessel.h"

namespace tessel {

void joinWorld() {
  // Started alone the world is one process and needs no joining (Note [Joining the world]).
  if (backends::dist::launchedByMpirun()) backends::dist::world();
}

void abortWorld(int status, const std::string& message) {
  backends::dist::abortWorld(status, message);
}

void leaveWorld() {
  backends::dist::finalize();
}

}  // namespace tessel
