// Elementwise fusion (Note [Fusion groups] in elementwise_fusion.h).
#include "backends/graph/elementwise_fusion.h"

#include <algorithm>
#include <unordered_map>

#include "backends/graph/fused_program.h"
#include "backends/graph/graph_rewriter.h"

namespace tessel::graph {

namespace {

constexpr int kNoGroup = -1;

struct Analysis {
  std::vector<int> uses;        ///< operand uses plus output uses, per value
  std::vector<uint8_t> output;  ///< is a graph output
};

Analysis analyze(const Graph& g) {
  Analysis a{std::vector<int>(g.size(), 0), std::vector<uint8_t>(g.size(), 0)};
  for (const Value& v : g.values())
    for (ValueId x : v.args) ++a.uses[x];
  for (ValueId o : g.outputs()) {
    ++a.uses[o];
    a.output[o] = 1;
  }
  return a;
}

bool fusibleOp(const Value& v) {
  return v.kind == ValueKind::Op && isElementwise(v.op);
}

// Grows the group of `root` with a worklist; members get group id `gid`. A candidate whose
// uses are not all inside yet is looked at again when another user of it joins.
std::vector<ValueId> growGroup(const Graph& g, const Analysis& an, ValueId root, int gid,
                               std::vector<int>& group) {
  std::vector<ValueId> members{root};
  group[root] = gid;
  const SymShape& shape = g.value(root).shape;
  std::unordered_map<ValueId, int> inside;  // uses of a value by members
  std::vector<ValueId> work;
  auto join = [&](ValueId m) {
    for (ValueId x : g.value(m).args) {
      ++inside[x];
      work.push_back(x);
    }
  };
  join(root);
  while (!work.empty()) {
    const ValueId p = work.back();
    work.pop_back();
    const Value& pv = g.value(p);
    if (group[p] != kNoGroup || !fusibleOp(pv) || an.output[p]) continue;
    if (inside[p] != an.uses[p] || !shapes::sameShape(pv.shape, shape)) continue;
    group[p] = gid;
    members.push_back(p);
    join(p);
  }
  std::sort(members.begin(), members.end());  // ids are topological
  return members;
}

// The program of a group; `leaves` receives the operands it loads (old ids).
FusedProgram buildProgram(const Graph& g, const std::vector<ValueId>& members,
                          std::vector<ValueId>& leaves) {
  FusedProgram p;
  std::unordered_map<ValueId, int32_t> temp;  // old id -> instruction
  auto operand = [&](ValueId x) -> int32_t {
    if (auto it = temp.find(x); it != temp.end()) return it->second;
    const Value& xv = g.value(x);
    FusedInstr ins;
    ins.dtype = xv.dtype;
    if (xv.kind == ValueKind::Constant && xv.constant.numel() == 1) {
      ins.kind = FusedInstr::Kind::Scalar;
      ins.scalar = xv.constant.item();
    } else {
      ins.kind = FusedInstr::Kind::Load;
      ins.input = static_cast<uint32_t>(leaves.size());
      leaves.push_back(x);
    }
    p.code.push_back(ins);
    return temp[x] = static_cast<int32_t>(p.code.size() - 1);
  };
  for (ValueId m : members) {
    const Value& v = g.value(m);
    FusedInstr ins;
    ins.kind = FusedInstr::Kind::Op;
    ins.op = v.op;
    ins.dtype = v.dtype;
    for (size_t i = 0; i < v.args.size() && i < 3; ++i) ins.args[i] = operand(v.args[i]);
    p.code.push_back(ins);
    temp[m] = static_cast<int32_t>(p.code.size() - 1);
  }
  p.numInputs = static_cast<uint32_t>(leaves.size());
  return p;
}

}  // namespace

Graph fuseElementwise(const Graph& g) {
  const Analysis an = analyze(g);
  std::vector<int> group(g.size(), kNoGroup);
  std::vector<std::vector<ValueId>> groups;
  for (ValueId id = static_cast<ValueId>(g.size()); id-- > 0;) {
    if (group[id] != kNoGroup || !fusibleOp(g.value(id))) continue;
    groups.push_back(growGroup(g, an, id, static_cast<int>(groups.size()), group));
  }

  GraphRewriter rw(g);
  for (ValueId id = 0; id < g.size(); ++id) {
    const int gid = group[id];
    if (gid == kNoGroup || groups[gid].size() < 2) {
      rw.copy(id);
      continue;
    }
    if (id != groups[gid].back()) continue;  // emitted with the root, the largest id
    std::vector<ValueId> leaves;
    auto program = std::make_shared<FusedProgram>(buildProgram(g, groups[gid], leaves));
    Value f;
    f.kind = ValueKind::Fused;
    f.shape = g.value(id).shape;
    f.dtype = g.value(id).dtype;
    f.fused = std::move(program);
    for (ValueId leaf : leaves) f.args.push_back(rw.mapped(leaf));
    rw.replace(id, std::move(f));
  }
  return rw.finish();
}

}  // namespace tessel::graph
