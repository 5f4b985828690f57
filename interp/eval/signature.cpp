// Signature checks: types, dimensions, where-clauses.
#include "interp/eval/signature.h"

#include <unordered_map>

#include "interp/syntax/diagnostics.h"
#include "interp/eval/session.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "interp/values/tensor_hooks.h"
#include "shapes/shape_env.h"
#include "shapes/source_loc.h"

namespace tessel::interp {
namespace {

bool isTensorType(const std::string& base) {
  return base == "tensor" || base == "f32" || base == "i32" || base == "bool";
}

using DimMap = std::unordered_map<std::string, shapes::SymInt>;

std::string describeAnn(const TypeAnn& t) {
  std::string out = t.base;
  if (!t.hasDims) return out;
  out += "[";
  for (size_t i = 0; i < t.dims.size(); ++i)
    out += (i ? ", " : "") + (t.dims[i].isName ? t.dims[i].name : std::to_string(t.dims[i].size));
  return out + "]";
}

// Matches one value against an annotation, binding named dims into `dims`. Returns an error
// message, empty when the value matches.
// Whether two sizes are equal. Arguments are checked with their hints (a guard, like any
// branch); a declared result must be *proven* from the traced graph (`prove`): a size the
// solver cannot show equal is a mismatch, never a guard.
bool sizesEqual(const shapes::SymInt& a, const shapes::SymInt& b, bool prove) {
  if (!prove) return shapes::evaluate(a == b);
  return shapes::staticallyKnown(a == b) == std::optional<bool>(true);
}

std::string matchAnn(const TypeAnn& t, const Value& v, const std::string& what, DimMap& dims,
                     bool prove = false) {
  if (!isTensorType(t.base)) {
    std::string actual(typeName(v.type()));
    bool ok = actual == t.base || (t.base == "float" && v.is(Type::Int)) || t.base == "any";
    if (t.base == "fn") ok = v.is(Type::Function) || v.is(Type::Builtin);
    return ok ? "" : what + " must be " + t.base + ", got " + actual;
  }
  std::string dtype;
  shapes::SymShape shape;
  if (!tensorHooks().signature(v, dtype, shape))
    return what + " must be a tensor (" + describeAnn(t) + "), got " +
           std::string(typeName(v.type()));
  if (t.base != "tensor" && dtype != t.base)
    return what + " must have dtype " + t.base + ", got " + dtype;
  if (!t.hasDims) return "";
  if (shape.size() != t.dims.size())
    return what + " must have " + std::to_string(t.dims.size()) + " dimensions (" + describeAnn(t) +
           "), got shape " + shapes::errorText(shape);
  for (size_t i = 0; i < shape.size(); ++i) {
    const TypeAnn::Dim& d = t.dims[i];
    if (!d.isName) {
      if (!sizesEqual(shape[i], shapes::SymInt(d.size), prove))
        return what + " dimension " + std::to_string(i) + " must be " + std::to_string(d.size) +
               " (" + describeAnn(t) + "), got shape " + shapes::errorText(shape);
      continue;
    }
    if (d.name == "_") continue;
    auto [it, inserted] = dims.emplace(d.name, shape[i]);
    if (!inserted && !sizesEqual(it->second, shape[i], prove))
      return what + " dimension " + std::to_string(i) + " is " + d.name + " = " +
             shapes::errorText(shape[i]) + ", but " + d.name + " = " +
             shapes::errorText(it->second) +
             " from an earlier argument (" + describeAnn(t) + ", got shape " + shapes::errorText(shape) +
             ")";
  }
  return "";
}

std::string sourceText(Interpreter& interp, Span s) {
  std::string_view line = interp.sources().line(s.file, s.line);
  if (s.endLine != s.line || s.col == 0 || s.endCol > line.size()) return std::string(line);
  return std::string(line.substr(s.col - 1, s.endCol - s.col + 1));
}

Value slotValue(const Value& slot) {
  return slot.is(Type::Cell) ? slot.as<CellObj>()->value : slot;
}

}  // namespace

void checkSignature(Interpreter& interp, FunctionObj& fn, Frame& frame, Span site) {
  FnProto& proto = *fn.proto;
  DimMap dims;
  for (size_t i = 0; i < proto.params.size(); ++i) {
    const auto& p = proto.params[i];
    if (!p.type) continue;
    std::string err = matchAnn(*p.type, slotValue(frame.slots[i]),
                               "argument '" + p.name + "' of " + proto.name + "()", dims);
    if (!err.empty())
      raise(isTensorType(p.type->base) && err.find("dtype") == std::string::npos &&
                    err.find("must be a tensor") == std::string::npos
                ? ErrorKind::ShapeError
                : ErrorKind::TypeError,
            err, site);
  }
  for (auto& dv : proto.dimVars) {
    auto it = dims.find(dv.name);
    // Dims that appear only in the result stay unbound until the result is checked.
    if (it != dims.end()) interp.evaluator().bindRef(dv.ref, makeSymInt(it->second), frame);
  }
  shapes::ShapeEnv* env = shapes::currentShapeEnv();
  for (size_t i = 0; i < proto.where.size(); ++i) {
    Expr* w = proto.where[i];
    Value holds = interp.evaluator().whereClause(fn, i, frame);
    // While tracing, a where-clause is a fact about the symbols (the call was checked with
    // concrete sizes before tracing), not a branch to guard.
    if (env && holds.is(Type::SymBool)) {
      env->check(holds.as<SymBoolObj>()->value, sourceText(interp, w->span));
      continue;
    }
    if (truthy(holds)) continue;
    std::string values;
    for (auto& [name, size] : dims)
      values += (values.empty() ? "" : ", ") + name + " = " + shapes::errorText(size);
    raise(ErrorKind::ShapeError,
          proto.name + "(): constraint '" + sourceText(interp, w->span) + "' does not hold" +
              (values.empty() ? "" : " (" + values + ")"),
          site);
  }
}

void checkCallSignature(Interpreter& interp, FunctionObj& fn, std::span<const Value> args,
                        Span site) {
  FnProto& proto = *fn.proto;
  std::vector<Value> slots(proto.numSlots, Value::undefined());
  for (size_t i = 0; i < args.size() && i < proto.params.size(); ++i)
    slots[i] = proto.params[i].isCell ? make<CellObj>(args[i]).value() : args[i];
  Frame frame{slots.data(), &fn, fn.module.get(), Value()};
  checkSignature(interp, fn, frame, site);
}

void checkResult(Interpreter& interp, FunctionObj& fn, Frame& frame, const Value& result,
                 Span site) {
  FnProto& proto = *fn.proto;
  DimMap dims;
  for (auto& dv : proto.dimVars) {
    // Dims are frame locals (cells when an inner fn captured them).
    Value v = slotValue(frame.slots[dv.ref.index]);
    if (isIntLike(v)) dims.emplace(dv.name, toSymInt(v));
  }
  bool tracing = shapes::currentShapeEnv() != nullptr && tensorHooks().isFake(result);
  std::string err =
      matchAnn(*proto.result, result, "result of " + proto.name + "()", dims, tracing);
  if (!err.empty() && tracing) {
    std::string dtype;
    shapes::SymShape shape;
    tensorHooks().signature(result, dtype, shape);
    err = "the declared result " + describeAnn(*proto.result) + " of " + proto.name +
          "() could not be proven for the traced result " + dtype + shapes::errorText(shape) +
          ": " + err;
  }
  if (!err.empty())
    raise(
        err.find("dtype") != std::string::npos || err.find("must be a tensor") != std::string::npos
            ? ErrorKind::TypeError
            : ErrorKind::ShapeError,
        err + " (declared -> " + describeAnn(*proto.result) + ")", site);
}

}  // namespace tessel::interp
