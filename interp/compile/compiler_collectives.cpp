// Compiler collectives (compiler_collectives.h): the code-state exchange at a compile.
#include "interp/compile/compiler_collectives.h"

#include <nlohmann/json.hpp>
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

// The wire form of a code state is the PGO profile's ({"x.shape[0]": 10, "n": "?"}).
CodeState decode(const std::string& text) {
  CodeState state;
  std::string why;
  const bool ok = codeStateFromJson(json::parse(text), state, why);
  TESSEL_ASSERT(ok, "a rank sent a malformed code state: " + why);
  return state;
}

}  // namespace

void exchangeCodeState(FrameObj& frame, CodeState& state, int compileId, int firstLine) {
  CompilerState& cs = frame.state;
  if (!cs.config.compiler_collectives || backends::dist::worldSize() == 1) return;
  const int rank = backends::dist::rank(), size = backends::dist::worldSize();
  std::string what = "the compiler collective of " + frame.name() + " (" + frame.location() +
                     (firstLine ? ", the region at line " + std::to_string(firstLine) : "") + ")";
  std::vector<std::string> texts = backends::dist::allGatherText(codeStateJson(state).dump(), what);
  std::vector<CodeState> states;
  for (const std::string& t : texts) states.push_back(decode(t));
  // A source is dynamic everywhere when one rank saw it vary or two ranks saw different values.
  // A source only some ranks have (calls of different structure) is left to each rank.
  std::vector<std::string> madeDynamic;
  std::string details;
  for (auto& [source, mine] : state.values) {
    bool differs = false;
    std::string values;
    for (size_t r = 0; r < states.size(); ++r) {
      auto it = states[r].values.find(source);
      if (it == states[r].values.end()) continue;
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
    for (const CodeState& s : states) ranks.push_back(codeStateJson(s));
    cs.trace->compilerCollective(frame, compileId, rank, size, ranks, madeDynamic);
  }
}

}  // namespace tessel::interp
