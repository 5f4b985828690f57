// Matching a call's arguments against an entry's ArgPlan.
#include "interp/compile/arg_plan.h"

#include <cmath>

#include "interp/tensors/device_support.h"
#include "interp/values/objects.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/tensors/tensor_value.h"

namespace tessel::interp {
namespace {

std::string got(const Value& v) {
  return std::string(typeName(v.type()));
}

std::string matchNode(const ArgNode& node, const Value& v, FlatArgs& flat,
                      std::optional<backends::Device> pinned) {
  switch (node.kind) {
    case ArgNode::Kind::Tensor: {
      if (!v.is(Type::Tensor) || isFake(v)) return node.path + ": expected a tensor, got " + got(v);
      const Tensor& t = asTensor(v);
      if (t.ndim() != node.rank)
        return node.path + ".ndim: expected " + std::to_string(node.rank) + ", got " +
               std::to_string(t.ndim());
      if (t.dtype() != node.dtype)
        return node.path + ".dtype: expected " + std::string(shapes::name(node.dtype)) + ", got " +
               std::string(shapes::name(t.dtype()));
      if (t.device() != node.device && !pinned)
        return node.path + ".device: expected " + std::string(backends::deviceName(node.device)) +
               ", got " + std::string(backends::deviceName(t.device()));
      for (const DimMark& m : v.as<TensorObj>()->marks) {
        const size_t d = &m - v.as<TensorObj>()->marks.data();
        if ((m.kind == DimMark::Kind::Dynamic || m.kind == DimMark::Kind::Unbacked) &&
            d < node.staticDims.size() && node.staticDims[d])
          return node.path + ".shape[" + std::to_string(d) +
                 "] is marked dynamic now, and this entry compiled it static";
      }
      for (int64_t d = 0; d < node.rank; ++d)
        if (!node.unbackedDims[d]) flat.sources.push_back(t.size(d));
      flat.inputs.push_back(pinned ? onDevice(t, *pinned) : t);
      return "";
    }
    case ArgNode::Kind::Int:
      if (!v.is(Type::Int)) return node.path + ": expected an int, got " + got(v);
      flat.sources.push_back(v.asInt());
      return "";
    case ArgNode::Kind::Float:
      if (!v.is(Type::Float)) return node.path + ": expected a float, got " + got(v);
      if (!sameFloat(v.asFloat(), node.expected.asFloat()))
        return node.path + ": expected " + repr(node.expected) + ", got " + repr(v);
      return "";
    case ArgNode::Kind::FloatSym:
      if (!v.is(Type::Float)) return node.path + ": expected a float, got " + got(v);
      if (std::isnan(v.asFloat()))
        return node.path + ": nan is specialized (a NaN float is never an input)";
      flat.floats.push_back(v.asFloat());
      return "";
    case ArgNode::Kind::Exact:
      if (v.type() != node.expected.type() || !valuesEqual(v, node.expected))
        return node.path + ": expected " + repr(node.expected) + ", got " + repr(v);
      return "";
    case ArgNode::Kind::Unbound:
      if (!v.is(Type::Undefined)) return node.path + ": expected no value yet, got " + got(v);
      return "";
    case ArgNode::Kind::Function: {
      auto* want = node.expected.as<FunctionObj>();
      if (!v.is(Type::Function) || v.as<FunctionObj>()->proto != want->proto ||
          v.as<FunctionObj>()->module.get() != want->module.get())
        return node.path + ": expected the function " + want->proto->name +
               " (the same code as when compiled), got " + repr(v);
      auto* fn = v.as<FunctionObj>();
      size_t i = 0;
      for (const Ref<CellObj>& cell : fn->upvalues) {
        std::string r = matchNode(node.children[i++], cell->value, flat, pinned);
        if (!r.empty()) return r;
      }
      for (const Value& d : fn->defaults) {
        std::string r = matchNode(node.children[i++], d, flat, pinned);
        if (!r.empty()) return r;
      }
      return "";
    }
    case ArgNode::Kind::Identity:
      if (!v.isHeap() || v.asObject() != node.expected.asObject())
        return node.path + ": expected the same " + std::string(typeName(node.expected.type())) +
               " as when compiled, got " + repr(v);
      return "";
    case ArgNode::Kind::List:
    case ArgNode::Kind::Tuple: {
      Type want = node.kind == ArgNode::Kind::List ? Type::List : Type::Tuple;
      if (!v.is(want))
        return node.path + ": expected a " + std::string(typeName(want)) + ", got " + got(v);
      const auto& items = want == Type::List ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
      if (items.size() != node.children.size())
        return "len(" + node.path + "): expected " + std::to_string(node.children.size()) +
               ", got " + std::to_string(items.size());
      for (size_t i = 0; i < items.size(); ++i) {
        std::string r = matchNode(node.children[i], items[i], flat, pinned);
        if (!r.empty()) return r;
      }
      return "";
    }
    case ArgNode::Kind::Dict: {
      if (!v.is(Type::Dict)) return node.path + ": expected a dict, got " + got(v);
      auto* d = v.as<DictObj>();
      if (d->entries.size() != node.keys.size())
        return "len(" + node.path + "): expected " + std::to_string(node.keys.size()) + ", got " +
               std::to_string(d->entries.size());
      for (size_t i = 0; i < node.keys.size(); ++i) {
        Value* item = d->find(node.keys[i]);
        if (!item) return node.path + ": missing key " + quoteString(node.keys[i]);
        std::string r = matchNode(node.children[i], *item, flat, pinned);
        if (!r.empty()) return r;
      }
      return "";
    }
  }
  return "";
}

bool holds(const GlobalGuard& g) {
  const Value& now = g.module->globals[g.slot];
  return g.byIdentity ? (now.isHeap() && now.asObject() == g.expected.asObject())
                      : (now.type() == g.expected.type() && valuesEqual(now, g.expected));
}

}  // namespace

std::string matchGlobals(const std::vector<GlobalGuard>& globals) {
  for (const GlobalGuard& g : globals)
    if (!holds(g))
      return "global '" + g.name + "': expected " +
             (g.byIdentity ? "the same object as when compiled" : repr(g.expected)) + ", got " +
             repr(g.module->globals[g.slot]);
  return "";
}

bool globalsHold(const std::vector<GlobalGuard>& globals) {
  for (const GlobalGuard& g : globals)
    if (!holds(g)) return false;
  return true;
}

std::string matchArgs(const ArgPlan& plan, std::span<const Value> args, FlatArgs& flat,
                      std::optional<backends::Device> pinned) {
  flat.inputs.clear();
  flat.sources.clear();
  flat.floats.clear();
  flat.inputs.reserve(plan.inputsSeen);
  flat.sources.reserve(plan.sourcesSeen);
  if (args.size() != plan.args.size())
    return "expected " + std::to_string(plan.args.size()) + " arguments, got " +
           std::to_string(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    std::string r = matchNode(plan.args[i], args[i], flat, pinned);
    if (!r.empty()) return r;
  }
  plan.inputsSeen = flat.inputs.size();
  plan.sourcesSeen = flat.sources.size();
  return "";
}

}  // namespace tessel::interp
