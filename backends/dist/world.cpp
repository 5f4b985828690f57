// Joining and leaving the world (world.h).
#include "backends/dist/world.h"

#include <cstdlib>
#include <mutex>

#include "backends/dist/transport.h"

namespace tessel::backends::dist {

// Note [Joining the world]
// `tessel script.dsl` must behave exactly as before MPI existed: no MPI call that could fail,
// print, or wait for a launcher. So a process joins an MPI world only when an MPI launcher
// started it, which its environment tells before any MPI call (Open MPI's mpirun sets
// OMPI_COMM_WORLD_SIZE, PMIx launchers PMIX_RANK, MPICH's hydra PMI_RANK); otherwise, or in a
// build without MPI, it is a world of one whose collectives are local copies, and dist.info()
// says why. Joining happens once, at first use (the `tessel` command asks at start-up, so its
// compile trace and its logs know the rank from the first line).

namespace {
std::once_flag gJoined;
WorldInfo gWorld;
std::mutex gLeaving;
bool gLeft = false;
}  // namespace

DistConfig& distConfig() {
  static DistConfig config;
  return config;
}

bool builtWithMpi() {
#ifdef TESSEL_HAVE_MPI
  return true;
#else
  return false;
#endif
}

bool launchedByMpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (const char* v = std::getenv(name); v && *v) return true;
  return false;
}

const WorldInfo& world() {
  std::call_once(gJoined, [] {
    if (!builtWithMpi()) {
      gWorld.info =
          "a world of one: this build has no MPI (Open MPI's libopenmpi-dev was not "
          "found when it was configured; TESSEL_MPI=OFF)";
    } else if (!launchedByMpirun()) {
      gWorld.info =
          "a world of one: not started by mpirun (mpirun -n N tessel script.dsl "
          "starts a world of N)";
    } else {
      transport::join(gWorld);
      // An embedding app has no finalize() to call: leave the world when the process ends.
      if (gWorld.mpi) std::atexit(finalize);
    }
  });
  return gWorld;
}

void finalize() {
  std::lock_guard lock(gLeaving);
  if (gLeft || !gWorld.mpi) return;
  gLeft = true;
  transport::leave();
}

void abortWorld(int status, const std::string& message) {
  if (!gWorld.mpi || gWorld.size == 1) return;
  transport::notifyAndAbort(status, message);
}

}  // namespace tessel::backends::dist
