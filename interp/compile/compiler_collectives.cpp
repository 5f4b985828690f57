// Compiler collectives (compiler_collectives.h): the code-state exchange at a compile.
#include "interp/compile/compiler_collectives.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "backends/dist/collectives.h"
#include "backends/dist/world.h"
#include "interp/compile/compile_trace.h"
#include "interp/compile/compiled_frame.h"
#include "interp/compile/compiler_state.h"
#include "interp/compile/pgo.h"

namespace tessel::interp {

using nlohmann::json;

namespace {

// The wire form of a code state: {"x.shape[0]": 10, "n": null} (null: dynamic, "?").
std::string encode(const CodeState& state) {
  json j = json::object();
  for (const auto& [source, v] : state.values) j[source] = v ? json(*v) : json();
  return j.dump();
}

std::map<std::string, std::optional<double>> decode(const std::string& text) {
  std::map<std::string, std::optional<double>> out;
  json j = json::parse(text);
  for (auto& [source, v] : j.items())
    out[source] = v.is_null() ? std::nullopt : std::optional<double>(v.get<double>());
  return out;
}

}  // namespace

void exchangeCodeState(FrameObj& frame, CodeState& state, int compileId, int firstLine) {
  CompilerState& cs = frame.state;
  if (!cs.config.compiler_collectives || backends::dist::worldSize() == 1) return;
  const int rank = backends::dist::rank(), size = backends::dist::worldSize();
  std::string what = "the compiler collective of " + frame.name() + " (" + frame.location() +
                     (firstLine ? ", the region at line " + std::to_string(firstLine) : "") + ")";
  std::vector<std::string> texts = backends::dist::allGatherText(encode(state), what);
  std::vector<std::map<std::string, std::optional<double>>> states;
  for (const std::string& t : texts) states.push_back(decode(t));
  // A source is dynamic everywhere when one rank saw it vary or two ranks saw different values.
  // A source only some ranks have (calls of different structure) is left to each rank.
  std::vector<std::string> madeDynamic;
  std::string details;
  for (auto& [source, mine] : state.values) {
    bool differs = false;
    std::string values;
    for (size_t r = 0; r < states.size(); ++r) {
      auto it = states[r].find(source);
      if (it == states[r].end()) continue;
      if (!it->second || it->second != mine) differs = true;
      values += (values.empty() ? "rank " : ", rank ") + std::to_string(r) + ": " +
                sourceValueText(it->second);
    }
    if (!differs || !mine) continue;
    mine = std::nullopt;
    madeDynamic.push_back(source);
    details += (details.empty() ? "" : "; ") + source + " (" + values + ")";
  }
  cs.log.write(LogCategory::Dynamic, frame.frameId, compileId,
               "compiler collective: rank " + std::to_string(rank) + " of " + std::to_string(size) +
                   " exchanged the code state of " + frame.name() +
                   (madeDynamic.empty() ? "; the ranks agree, nothing becomes dynamic"
                                        : "; dynamic on every rank: " + details));
  if (cs.trace) {
    json ranks = json::array();
    for (size_t r = 0; r < states.size(); ++r) {
      CodeState s;
      s.values = states[r];
      ranks.push_back(codeStateJson(s));
    }
    cs.trace->compilerCollective(frame, compileId, rank, size, ranks, madeDynamic);
  }
}

}  // namespace tessel::interp
