// Frames of a trace and their groups of similar graphs (report_frames.h).
#include "repl/report/frames.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "repl/report/pgo.h"

namespace tessel::repl::report {

namespace {

/// Regions get their own view even if the producer gives them their function's frame_id:
/// their graphs are of different code, so grouping them with the function's would mislead.
std::string frameKey(const CompileRecord& c) {
  std::string key = c.frameId >= 0 ? "#" + std::to_string(c.frameId)
                                   : c.frame + "@" + c.file + ":" + std::to_string(c.line);
  if (c.region)
    key += "/" + std::to_string(c.region->first) + "-" + std::to_string(c.region->second);
  return key;
}

/// A guard `SOURCE == N` pins SOURCE to N in that compile: that is how static sizes and
/// specializations appear among guards (texts use source names, not symbols).
bool pinnedByGuard(const std::string& text, std::string& source, std::string& value) {
  static const std::regex pin(R"(^\s*(\S.*?)\s*==\s*(-?[0-9][0-9.eE+-]*)\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, pin)) return false;
  source = m[1];
  value = m[2];
  return true;
}

/// What one compile says about each source: symbols first (dynamic), then pins, which win
/// (a symbol specialized to a constant is no longer dynamic).
std::map<std::string, SourceSeen> sourcesOf(const CompileRecord& c) {
  std::map<std::string, SourceSeen> seen;
  for (const SymbolRecord& s : c.symbols)
    if (!s.source.empty()) seen[s.source] = {true, true, s.hint, s.symbol};
  for (const GuardRecord& g : c.guards) {
    // Globals are guarded by value too, but no dynamic shape can make them vary.
    std::string source, value;
    if (g.kind != "global" && pinnedByGuard(g.text, source, value))
      seen[source] = {true, false, value, ""};
  }
  for (const SpecializationRecord& s : c.specializations)
    if (!s.source.empty()) seen[s.source] = {true, false, s.value, ""};
  return seen;
}

bool differ(const SourceSeen& a, const SourceSeen& b) {
  return a.dynamic != b.dynamic || a.value != b.value;
}

std::vector<VaryingSource> varyingSources(const std::vector<const CompileRecord*>& members) {
  std::vector<std::map<std::string, SourceSeen>> perMember;
  std::vector<std::string> order;  // sources in the order the compiles name them
  for (const CompileRecord* c : members) {
    perMember.push_back(sourcesOf(*c));
    for (const auto& [source, s] : perMember.back())
      if (std::find(order.begin(), order.end(), source) == order.end()) order.push_back(source);
  }
  std::vector<VaryingSource> out;
  for (const std::string& source : order) {
    VaryingSource v;
    v.source = source;
    const SourceSeen* first = nullptr;
    bool varies = false;
    for (auto& m : perMember) {
      auto it = m.find(source);
      v.seen.push_back(it == m.end() ? SourceSeen{} : it->second);
      if (!v.seen.back().known) continue;
      if (first && differ(*first, v.seen.back())) varies = true;
      if (!first) first = &it->second;
    }
    if (!varies) continue;
    // Replays what marking it dynamic would do: a member where it was a symbol and the
    // program specialized it anyway would have compiled the same way.
    for (const CompileRecord* c : members)
      for (const SpecializationRecord& sp : c->specializations)
        if (sp.source == source && v.specializedAt.at.empty()) v.specializedAt = sp.where;
    out.push_back(std::move(v));
  }
  return out;
}

/// Members whose reason names a source that none of the varying sources is.
std::vector<std::pair<const CompileRecord*, std::string>> otherReasons(
    const std::vector<const CompileRecord*>& members, const std::vector<VaryingSource>& varying) {
  std::vector<std::pair<const CompileRecord*, std::string>> out;
  for (const CompileRecord* c : members) {
    std::string source = reasonSource(c->reason);
    bool covered = std::any_of(varying.begin(), varying.end(),
                               [&](const VaryingSource& v) { return v.source == source; });
    if (!source.empty() && !covered) out.push_back({c, source});
  }
  return out;
}

std::string plural(size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string withoutFolders(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string frameLabel(const CompileRecord& c, bool shortFile) {
  std::string label = (c.frame.empty() ? "<unnamed>" : c.frame);
  if (!c.file.empty())
    label +=
        " (" + (shortFile ? withoutFolders(c.file) : c.file) + ":" + std::to_string(c.line) + ")";
  if (c.region)
    label +=
        " region lines " + std::to_string(c.region->first) + "-" + std::to_string(c.region->second);
  return label;
}

std::vector<FrameView> framesOf(const Trace& trace) {
  std::vector<FrameView> frames;
  for (size_t p = 0; p < trace.processes.size(); ++p) {
    const Process& proc = trace.processes[p];
    std::vector<const CompileRecord*> compiles;
    for (const CompileRecord& c : proc.compiles) compiles.push_back(&c);
    std::stable_sort(compiles.begin(), compiles.end(),
                     [](auto* a, auto* b) { return a->startUs < b->startUs; });
    size_t firstOfProcess = frames.size();
    for (const CompileRecord* c : compiles) {
      std::string key = frameKey(*c);
      auto it = std::find_if(frames.begin() + firstOfProcess, frames.end(),
                             [&](const FrameView& f) { return f.key == key; });
      if (it == frames.end()) {
        frames.push_back({p, key, frameLabel(*c), {}, nullptr});
        it = frames.end() - 1;
      }
      it->compiles.push_back(c);
    }
    for (const FrameSummary& s : proc.frameSummaries)
      for (auto f = frames.begin() + firstOfProcess; f != frames.end(); ++f)
        if (f->key == "#" + std::to_string(s.frameId)) f->summary = &s;
  }
  return frames;
}

// Note [Similar graphs]
// Seed 002 ("Compare Graphs"): two graphs are similar when they have the same sequence of
// tensor operations and the same tensor inputs; "variations may exist in integer inputs that
// could be inlined in the specialized version or arithmetic computations that only exist in the
// dynamic version". The trace's `ops` lists every op, so a graph made dynamic has more of them
// than its static twin (`x * x.shape[0]`: `mul` static; `arange`, `reshape`, `mul` dynamic,
// the first two turning s0 into a tensor). similarityOps therefore keeps only the ops that
// depend on a graph input: the trace's `tensor_ops`, or for older traces, read from the text (`%2: f32[s0] = mul(%0, %1)`), and
// names fused kernels without their size (`fused`), as a folded size can join or leave one.
std::vector<std::string> similarityOps(const GraphRecord& g) {
  if (g.hasTensorOps) return g.tensorOps;  // the producer says which ops those are
  static const std::regex line(R"(^%(\d+)[^=]*= ([A-Za-z_][A-Za-z0-9_]*)(.*)$)");
  static const std::regex operand(R"(%(\d+))");
  std::set<std::string> dependent;  // values that depend on an input
  std::vector<std::string> ops;
  std::istringstream in(g.code);
  bool parsed = false;
  for (std::string text; std::getline(in, text);) {
    std::smatch m;
    if (!std::regex_match(text, m, line)) continue;  // fused bodies, return, blank lines
    parsed = true;
    std::string value = m[1], name = m[2], rest = m[3];
    bool depends = name == "input";
    for (std::sregex_iterator it(rest.begin(), rest.end(), operand), end; it != end && !depends;
         ++it)
      depends = dependent.count((*it)[1]) > 0;
    if (!depends) continue;
    dependent.insert(value);
    if (name != "input") ops.push_back(name);
  }
  return parsed ? ops : g.ops;
}

std::string reasonSource(const std::string& reason) {
  static const std::regex expected(R"(^(\S+): expected )");
  static const std::regex symbolFrom(R"(\bfrom ([^()\s]+)\)\s*$)");
  std::smatch m;
  if (std::regex_search(reason, m, expected) || std::regex_search(reason, m, symbolFrom))
    return m[1];
  return "";
}

std::vector<SimilarGroup> similarGroups(const FrameView& frame) {
  std::vector<SimilarGroup> groups;
  std::vector<std::pair<std::vector<std::string>, int64_t>> keys;
  for (const CompileRecord* c : frame.compiles) {
    if (!c->graph) continue;
    std::pair key{similarityOps(*c->graph), c->graph->inputs};
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      groups.push_back({});
      it = keys.end() - 1;
    }
    groups[it - keys.begin()].members.push_back(c);
    groups[it - keys.begin()].tensorOps = it->first.size();
  }
  std::erase_if(groups, [](const SimilarGroup& g) { return g.members.size() < 2; });
  for (SimilarGroup& g : groups) {
    g.varying = varyingSources(g.members);
    g.otherReasons = otherReasons(g.members, g.varying);
  }
  return groups;
}

std::string SimilarGroup::summary() const {
  const GraphRecord& g = *members.front()->graph;
  std::string ids;
  for (const CompileRecord* c : members) ids += (ids.empty() ? "" : ", ") + c->id;
  std::string s = plural(members.size(), "graph") + " (" + ids + ") with the same " +
                  plural(tensorOps, "tensor op") + " and " +
                  plural(static_cast<size_t>(g.inputs), "input") + ": ";
  std::string others;
  for (const auto& [c, source] : otherReasons)
    others += " " + c->id + " recompiled because of " + source + " (" + c->reason +
              "), which dynamic shapes do not cover.";
  if (varying.empty())
    return s +
           "no size differs in their symbols or guards, so dynamic shapes will not merge "
           "them; compare their recompile reasons and guards (a global, a constant or a "
           "type may differ)." +
           others;
  std::string names, pinned;
  for (const VaryingSource& v : varying) {
    names += (names.empty() ? "" : ", ") + v.source;
    if (!v.specializedAt.at.empty())
      pinned += " " + v.source + " is specialized by the program at " + v.specializedAt.at +
                (v.specializedAt.code.empty() ? "" : " (" + v.specializedAt.code + ")") +
                ", where it was already a symbol: making it dynamic would not remove these "
                "recompiles; that line needs a concrete value.";
  }
  const std::string line = dynamicSourcesLine();
  if (line.empty()) return s + "sizes vary (" + names + ")." + pinned + others;
  s += "sizes vary (" + names + "), so one dynamic graph could serve them all. Consider " + line;
  std::string marks;
  for (const VaryingSource& v : varying) {
    std::string tensor;
    int64_t dim;
    if (v.specializedAt.at.empty() && tensorDim(v.source, tensor, dim))
      marks += (marks.empty() ? "" : ", ") +
               ("mark_dynamic(" + tensor + ", " + std::to_string(dim) + ")");
  }
  if (!marks.empty()) s += " or " + marks + " before the call";
  return s + "." + pinned + others;
}

std::string SimilarGroup::dynamicSourcesLine() const {
  // Only sources that marking dynamic helps: a specialized one would compile the same.
  std::vector<std::string> names;
  for (const VaryingSource& v : varying)
    if (v.specializedAt.at.empty()) names.push_back(v.source);
  return dynamicSourcesAssignment(names);
}

}  // namespace tessel::repl::report
