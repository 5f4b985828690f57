// The world of ranks this process belongs to (backends.md, "Distributed (MPI)"). Started by
// `mpirun -n N`, a process joins an Open MPI world of N ranks; started alone, or built without
// MPI, it is a world of one and makes no MPI call at all (Note [Joining the world]).
#pragma once

#include <string>

namespace tessel::backends::dist {

/// Process-wide settings: the world is the process's, not one interpreter's.
struct DistConfig {
  /// config.dist_timeout_s: how long a collective waits for every rank before it gives up.
  double timeoutSeconds = 300;
};
DistConfig& distConfig();

struct WorldInfo {
  int rank = 0;
  int size = 1;
  bool mpi = false;  ///< joined an MPI world (false: a world of one without MPI calls)
  std::string info;  ///< dist.info(): what the world is and why (no MPI in this build, ...)
};

/// The world, joined on first use: MPI_Init_thread when an MPI launcher started this process
/// and the build has MPI. Call it first from the thread that will call finalize().
const WorldInfo& world();
inline int rank() {
  return world().rank;
}
inline int worldSize() {
  return world().size;
}
/// Whether this build has MPI (TESSEL_MPI).
bool builtWithMpi();
/// Whether an MPI launcher started this process, read from its environment (no MPI call).
bool launchedByMpirun();

/// Leaves an MPI world (MPI_Finalize) after the last collective; nothing in a world of one or
/// when never joined. Only the `tessel` command and tests call it; an embedding app's world is
/// finalized at exit.
void finalize();
/// This rank stops with `status` because of `message` (an error that ends the script): the
/// other ranks are told (a collective they wait in, or their next one, raises a DeviceError
/// naming this rank), then the job ends (MPI_Abort). Returns only in a world of one.
void abortWorld(int status, const std::string& message);

}  // namespace tessel::backends::dist
