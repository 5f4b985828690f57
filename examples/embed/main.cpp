// examples/embed: an app that embeds Tessel through <tessel/tessel.h> alone. It loads a model,
// calls it on batches of every size built in C++ buffers, reads the probabilities back, and
// shows how a script error reaches the app. Usage: embed [model.dsl]
#include <tessel/tessel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#ifndef EMBED_MODEL
#define EMBED_MODEL "model.dsl"  // CMakeLists.txt names the one next to this file
#endif

namespace {

constexpr int64_t kFeatures = 4;
constexpr int64_t kClasses = 3;

// `rows` inputs as an app has them: a row-major buffer of floats.
std::vector<float> makeBatch(int64_t rows) {
  std::vector<float> data(static_cast<size_t>(rows * kFeatures));
  for (size_t i = 0; i < data.size(); ++i) data[i] = std::sin(0.37f * static_cast<float>(i + rows));
  return data;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string model = argc > 1 ? argv[1] : EMBED_MODEL;
  try {
    tessel::Interpreter vm;
    vm.runFile(model);  // defines predict

    bool ok = true;
    for (int64_t rows : {1, 2, 5, 8, 17, 64}) {
      std::vector<float> batch = makeBatch(rows);
      tessel::Tensor x = tessel::Tensor::fromData(batch, {rows, kFeatures});  // a copy
      tessel::Tensor probs = vm.call("predict", {x}).asTensor();

      std::vector<float> out(static_cast<size_t>(probs.numel()));
      probs.copyTo(out);
      // Each row is a distribution over the classes: check it, and note the likeliest class.
      double worst = 0;
      std::string classes;
      for (int64_t r = 0; r < rows; ++r) {
        const float* row = &out[static_cast<size_t>(r * kClasses)];
        double sum = row[0] + row[1] + row[2];
        worst = std::max(worst, std::abs(sum - 1.0));
        if (r < 8) classes += " " + std::to_string(std::max_element(row, row + kClasses) - row);
      }
      bool good = probs.shape() == std::vector<int64_t>{rows, kClasses} && worst < 1e-5;
      ok = ok && good;
      std::printf("batch %2lld -> %s [%lld, %lld], rows sum to 1%s, classes%s%s\n",
                  static_cast<long long>(rows), probs.dtype().c_str(),
                  static_cast<long long>(probs.shape()[0]), static_cast<long long>(kClasses),
                  good ? "" : " NOT", classes.c_str(), rows > 8 ? " ..." : "");
    }
    // @compile builds a graph for the first size and one dynamic graph for every later size
    // (in later runs one graph from the start: PGO remembers that the size varies).
    std::printf("graphs compiled: %lld\n",
                static_cast<long long>(vm.run("stats(predict)[\"compiles\"]").asInt()));

    // Errors in scripts arrive as tessel::Error; the interpreter stays usable afterwards.
    try {
      std::vector<float> wrong(2 * 3);
      vm.call("predict", {tessel::Tensor::fromData(wrong, {2, 3})});
      ok = false;
    } catch (const tessel::Error& e) {
      std::string where = e.file().substr(e.file().find_last_of('/') + 1);
      std::printf("caught %s (%s:%d): %s\n", e.kind().c_str(), where.c_str(), e.line(),
                  e.message().c_str());
    }
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
  } catch (const tessel::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());  // file:line:col: Kind: message, the line, a caret
    return 1;
  }
}
