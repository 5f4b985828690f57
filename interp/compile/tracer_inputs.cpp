// Tracing a @compile function, its inputs: each argument's sizes become symbols (or constants)
// under the dynamic-shape policy (marks, automatic dynamic, named dims, tpu bounds), and each
// argument becomes the fake value the traced body sees.
#include "interp/compile/tracer.h"

#include <chrono>
#include <cmath>
#include <functional>

#include "backends/graph/sym_eval.h"
#include "interp/compile/compiler_state.h"
#include "interp/tensors/device_support.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "interp/tensors/trace_tape.h"
#include "shapes/expr.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

bool namedDim(const TypeAnn* ann, size_t d) {
  return ann && ann->hasDims && d < ann->dims.size() && ann->dims[d].isName &&
         ann->dims[d].name != "_";
}

// "x.shape[0]" belongs to the tensor "x": TESSEL_DYNAMIC_SOURCES may name either.
std::string tensorOfSource(const std::string& source) {
  size_t dot = source.rfind(".shape[");
  return dot == std::string::npos ? source : source.substr(0, dot);
}

}  // namespace

shapes::SymInt Tracer::sizeSymbol(const std::string& source, int64_t hint, const DimMark& mark,
                                  bool named, bool isSize) {
  const CompilerConfig& config = frame_.state.config;
  shapes::SymbolOptions opts;
  opts.isSize = isSize;
  bool dynamic;
  // Precedence: compiler.md, "Which sizes become symbols".
  if (frame_.state.dynamicSources.count(source) ||
      frame_.state.dynamicSources.count(tensorOfSource(source))) {
    dynamic = true;
  } else if (mark.kind == DimMark::Kind::Static) {
    dynamic = false;
  } else if (mark.kind == DimMark::Kind::Dynamic || mark.kind == DimMark::Kind::MaybeDynamic) {
    dynamic = true;
    opts.markedDynamic = mark.kind == DimMark::Kind::Dynamic;
    opts.min = mark.min;
    opts.max = mark.max;
    // A size outside its declared range fails the compiled call, not mark_dynamic() (PyTorch,
    // test_misc.py::test_mark_dynamic_with_ranges). On the tpu a max is the memory bound, and
    // a size above it is a ShapeError (backends.md, below).
    const bool aboveTpuMax = isSize && targetDevice() == backends::Device::Tpu && mark.max &&
                             hint > *mark.max;
    if (!aboveTpuMax && ((mark.min && hint < *mark.min) || (mark.max && hint > *mark.max)))
      throwUserError(ErrorKind::ConstraintViolation,
                     "Constraints violated (" + source + ")! " + source + " = " +
                         std::to_string(hint) + " is outside the range [" +
                         (mark.min ? std::to_string(*mark.min) : "-inf") + ", " +
                         (mark.max ? std::to_string(*mark.max) : "inf") +
                         "] it was marked dynamic with");
  } else if (named) {
    dynamic = true;
    opts.named = true;
  } else if (frame_.options.dynamic == DynamicMode::All) {
    dynamic = true;
  } else if (frame_.options.dynamic == DynamicMode::None) {
    dynamic = false;
  } else {
    dynamic = config.automatic_dynamic && codeState_.isDynamic(source);
  }
  opts.dynamic = !dynamic            ? shapes::DimDynamic::Static
                 : config.duck_shape ? shapes::DimDynamic::Duck
                                     : shapes::DimDynamic::Dynamic;
  // The tpu plans memory at the bounds (backends.md, "tpu"): a declared max is a hard limit;
  // a size without one is bounded at the end of the trace (boundTpuSizes).
  const bool tpuSize = dynamic && isSize && targetDevice() == backends::Device::Tpu;
  if (tpuSize && opts.max && hint > *opts.max)
    throwUserError(ErrorKind::ShapeError, source + " = " + std::to_string(hint) +
                                              " is above its declared max " +
                                              std::to_string(*opts.max) + " on the tpu");
  shapes::SymInt s = entry_.env->createSymbol(source, hint, opts);
  if (tpuSize && !opts.max) unboundedTpuSizes_.push_back(s);
  return s;
}

void Tracer::boundTpuSizes(shapes::ShapeEnv& env) {
  // A where fact (`where B <= 64`) is a bound already; any other size gets its hint's
  // power-of-two bucket as a guard: a larger size recompiles with the next bucket.
  for (const shapes::SymInt& s : unboundedTpuSizes_) {
    if (!s.isSymbolic() || env.maxValue(s)) continue;
    const int64_t hint = s.hint().value_or(1);
    int64_t bucket = 2;
    while (bucket < hint) bucket *= 2;
    shapes::evaluate(s <= shapes::SymInt(bucket));
  }
}

Value Tracer::planArg(const Value& v, const std::string& path, ArgNode& node, const TypeAnn* ann) {
  node.path = path;
  switch (v.type()) {
    case Type::Tensor: {
      if (isFake(v))
        throwUserError(ErrorKind::ValueError,
                       path + ": a traced tensor was passed to a compiled function");
      auto* obj = v.as<TensorObj>();
      const Tensor& t = asTensor(v);  // a pending tpu tensor runs first
      // backend = "auto" runs where the inputs are, so they must agree; a named backend takes
      // the inputs there (matchArgs moves them at each call).
      backends::Device device = frame_.options.device().value_or(t.device());
      if (device_ && *device_ != device)
        throwUserError(ErrorKind::DeviceError,
                       path + " is on " + std::string(backends::deviceName(device)) + " but an earlier argument is on " +
                           std::string(backends::deviceName(*device_)) + ": move them to one device first");
      device_ = device;
      node.kind = ArgNode::Kind::Tensor;
      node.rank = t.ndim();
      node.dtype = t.dtype();
      node.device = device;
      node.unbackedDims.assign(node.rank, false);
      node.staticDims.assign(node.rank, false);
      shapes::SymShape shape;
      for (int64_t d = 0; d < t.ndim(); ++d) {
        DimMark mark = d < static_cast<int64_t>(obj->marks.size()) ? obj->marks[d] : DimMark{};
        if (mark.kind == DimMark::Kind::Unbacked) {
          node.unbackedDims[d] = true;
          shape.push_back(entry_.env->createUnbacked(true));
          continue;
        }
        shape.push_back(sizeSymbol(path + ".shape[" + std::to_string(d) + "]", t.size(d), mark,
                                   namedDim(ann, d), true));
        node.staticDims[d] = shape.back().isConstant();
      }
      graph::ValueId id = builder_->input(path, shape, t.dtype());
      Value f = Value::object(new TensorObj(FakeTensor{id, shape, t.dtype(), device, this}));
      inputFakes_.push_back(f);
      return f;
    }
    case Type::Int: {
      node.kind = ArgNode::Kind::Int;
      return makeSymInt(sizeSymbol(path, v.asInt(), DimMark{}, false, false));
    }
    case Type::Float: {
      const CompilerConfig& config = frame_.state.config;
      bool dynamic = frame_.state.dynamicSources.count(path) ||
                     frame_.options.dynamic == DynamicMode::All ||
                     (frame_.options.dynamic == DynamicMode::Automatic &&
                      config.automatic_dynamic && codeState_.isDynamic(path));
      // NaN is specialized (PyTorch too): no guard on a comparison could tell it apart.
      if (dynamic && !config.specialize_float && !std::isnan(v.asFloat())) {
        // A varying float is an input of the call, read at each call (Note [Symbolic floats]).
        node.kind = ArgNode::Kind::FloatSym;
        return makeSymFloat(entry_.env->createFloatInput(path, v.asFloat()));
      }
      node.kind = ArgNode::Kind::Float;
      node.expected = v;
      return v;
    }
    case Type::List:
    case Type::Tuple: {
      bool isList = v.is(Type::List);
      node.kind = isList ? ArgNode::Kind::List : ArgNode::Kind::Tuple;
      const auto& items = isList ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
      std::vector<Value> out;
      node.children.resize(items.size());
      for (size_t i = 0; i < items.size(); ++i)
        out.push_back(
            planArg(items[i], path + "[" + std::to_string(i) + "]", node.children[i], nullptr));
      return isList ? makeList(std::move(out)) : makeTuple(std::move(out));
    }
    case Type::Dict: {
      node.kind = ArgNode::Kind::Dict;
      Ref<DictObj> out = make<DictObj>();
      for (auto& [k, item] : v.as<DictObj>()->entries) {
        node.keys.push_back(k);
        node.children.emplace_back();
        out->set(k,
                 planArg(item, path + "[" + quoteString(k) + "]", node.children.back(), nullptr));
      }
      return out.value();
    }
    case Type::Function: {
      // Guarded by its code and what it captures, not by identity (PyTorch guards a closure
      // argument by its code object and cell contents): the traced body calls a copy whose
      // cells hold the planned captures, so a captured int may be a symbol.
      auto* fn = v.as<FunctionObj>();
      node.kind = ArgNode::Kind::Function;
      node.expected = v;
      Ref<FunctionObj> copy = make<FunctionObj>(fn->proto, fn->module);
      const auto& names = fn->proto->upvalueNames;
      for (size_t i = 0; i < fn->upvalues.size(); ++i) {
        node.children.emplace_back();
        std::string name = i < names.size() ? names[i] : std::to_string(i);
        Value planned = planArg(fn->upvalues[i]->value, path + "." + name, node.children.back(), nullptr);
        auto cell = make<CellObj>(planned);
        cell->traceEpoch = fn->upvalues[i]->traceEpoch;  // writes to it break as the original's
        copy->upvalues.push_back(cell);
      }
      for (size_t i = 0; i < fn->defaults.size(); ++i) {
        node.children.emplace_back();
        const std::string& param = fn->proto->params[i].name;
        if (fn->defaults[i].is(Type::Undefined)) {  // no default: stays none
          node.children.back().kind = ArgNode::Kind::Unbound;
          node.children.back().path = path + ".defaults." + param;
          copy->defaults.push_back(Value::undefined());
          continue;
        }
        copy->defaults.push_back(
            planArg(fn->defaults[i], path + ".defaults." + param, node.children.back(), nullptr));
      }
      return copy.value();
    }
    case Type::None:
    case Type::Bool:
    case Type::Str:
    case Type::DType:
    case Type::Range:
      node.kind = ArgNode::Kind::Exact;
      node.expected = v;
      return v;
    default:
      node.kind = ArgNode::Kind::Identity;
      node.expected = v;
      return v;
  }
}

}  // namespace tessel::interp
