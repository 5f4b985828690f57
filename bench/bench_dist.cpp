// dist.all_reduce's bandwidth against Open MPI's own MPI_Allreduce, in the same run on the same
// ranks (docs/perf.md, "dist"). Not a Google Benchmark program: every rank must run
// exactly the same iterations, which an adaptive iteration count cannot promise.
//
//   mpirun --allow-run-as-root -n 2 build/bench/bench_dist [repetitions]
//
// Each size runs `reps` rounds; a round times a loop of bare MPI_Allreduce (float sum into a
// buffer allocated once) and then a loop of backends::dist::allReduce (headers first, a new
// tensor per call: what dist.all_reduce does under the interpreter's staging). Medians of the
// rounds; bandwidth is the message size over the time of one call (algorithm bandwidth).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "backends/dist/collectives.h"
#include "backends/dist/world.h"

namespace dist = tessel::backends::dist;
using tessel::backends::Tensor;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double secondsPerCall(int iters, F&& call) {
  MPI_Barrier(MPI_COMM_WORLD);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) call();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The slowest rank's time is the collective's.
  MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return s / iters;
}

}  // namespace

int main(int argc, char** argv) {
  const dist::WorldInfo& w = dist::world();
  if (w.size < 2) {
    std::fprintf(stderr, "bench_dist: run it under mpirun -n 2 (%s)\n", w.info.c_str());
    return 2;
  }
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  if (w.rank == 0)
    std::printf("%d ranks, %s\n%10s %12s %10s %12s %10s %7s\n", w.size, w.info.c_str(), "bytes",
                "MPI us", "MPI GB/s", "dist us", "dist GB/s", "ratio");
  for (size_t bytes = 1024; bytes <= (size_t{64} << 20); bytes *= 4) {
    const int64_t count = static_cast<int64_t>(bytes / sizeof(float));
    std::vector<float> data(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) data[i] = static_cast<float>((i * 7 + w.rank) % 13);
    Tensor in = Tensor::fromData(std::span<const float>(data), {count});
    std::vector<float> out(static_cast<size_t>(count));
    const int iters = static_cast<int>(std::clamp<size_t>((size_t{256} << 20) / bytes, 10, 20000));
    std::vector<double> mpi, ours;
    for (int r = 0; r < reps; ++r) {
      mpi.push_back(secondsPerCall(iters, [&] {
        MPI_Allreduce(data.data(), out.data(), static_cast<int>(count), MPI_FLOAT, MPI_SUM,
                      MPI_COMM_WORLD);
      }));
      ours.push_back(secondsPerCall(iters, [&] {
        Tensor t = dist::allReduce(in, dist::ReduceOp::Sum);
        (void)t;
      }));
    }
    const double m = median(mpi), d = median(ours);
    if (w.rank == 0)
      std::printf("%10zu %12.2f %10.3f %12.2f %10.3f %7.2f\n", bytes, m * 1e6, bytes / m / 1e9,
                  d * 1e6, bytes / d / 1e9, m / d);
  }
  dist::finalize();
  return 0;
}
