// Graph printing: one line per value, attributes per op (the op table's comment in
// shapes/op_attrs.h says which fields each op reads).
#include "backends/graph/graph_print.h"

#include <cmath>
#include <cstdio>

#include "backends/backend.h"
#include "backends/graph/fused_program.h"
#include "shapes/pool_geometry.h"

namespace tessel::graph {

namespace {

std::string ints(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string ref(ValueId v) {
  return "%" + std::to_string(v);
}

std::string constantText(const Tensor& t0) {
  if (t0.numel() > 8) return "<" + std::to_string(t0.numel()) + " elements>";
  const Tensor t = backends::toDevice(t0, backends::Device::Cpu);  // a device constant's data
  if (t.numel() == 1 && t.ndim() == 0) return formatScalar(t.item(), t.dtype());
  std::vector<double> v = t.toDoubles();
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + formatScalar(v[i], t.dtype());
  return s + "]";
}

}  // namespace

std::string formatScalar(double v, DType dtype) {
  if (dtype == DType::Bool) return v != 0 ? "true" : "false";
  if (dtype == DType::I32) return std::to_string(static_cast<int64_t>(v));
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string formatType(const SymShape& shape, DType dtype) {
  return std::string(shapes::name(dtype)) + shapes::toString(shape);
}

std::string formatAttrs(OpKind op, const OpAttrs& a) {
  using shapes::OpCategory;
  std::string s;
  auto field = [&](const std::string& name, const std::string& value) {
    s += ", " + name + "=" + value;
  };
  auto optInt = [](const std::optional<SymInt>& v) { return v ? v->toString() : "none"; };
  auto dtypeField = [&] { field("dtype", std::string(shapes::name(a.dtype))); };
  // The jagged ops (every attribute: the tpu's program cache is keyed by this text).
  if (op == OpKind::RepeatInterleave || op == OpKind::Bincount || op == OpKind::SegmentReduce) {
    if (op != OpKind::Bincount) field("dim", std::to_string(a.dim));
    if (op == OpKind::SegmentReduce) field("reduce", shapes::scatterModeName(a.scatterMode));
    if (!a.scalars.empty())
      field(op == OpKind::Bincount ? "minlength" : "initial",
            formatScalar(a.scalars[0], DType::F32));
    if (!a.shape.empty()) field("output_size", a.shape[0].toString());
    if (a.outputSize) field("output_size", std::to_string(*a.outputSize));
    return s;
  }
  if (shapes::isPoolOp(op)) return shapes::poolAttrsText(op, a);
  switch (shapes::opCategory(op)) {
    case OpCategory::Reduce:
      if (!a.dims.empty()) field("dims", ints(a.dims));
      if (a.keepdim) field("keepdim", "true");
      return s;
    case OpCategory::Index:
    case OpCategory::Scan:
      field("dim", std::to_string(a.dim));
      if (op == OpKind::ScatterReduce) {
        field("reduce", shapes::scatterModeName(a.scatterMode));
        field("include_self", a.includeSelf ? "true" : "false");
      }
      if (op == OpKind::IndexAdd && !a.scalars.empty()) field("alpha", std::to_string(a.scalars[0]));
      return s;
    case OpCategory::DataDependent:
      if (op == OpKind::Nms && !a.scalars.empty())
        field("iou_threshold", std::to_string(a.scalars[0]));
      if (a.outputSize) field("output_size", std::to_string(*a.outputSize));
      return s;
    case OpCategory::Sort:
      if (op == OpKind::Searchsorted) {
        if (a.right) field("right", "true");
        return s;
      }
      field("dim", std::to_string(a.dim));
      if (op == OpKind::Topk) field("k", optInt(a.stop));
      if (a.descending) field(op == OpKind::Topk ? "largest" : "descending", "true");
      return s;
    default:
      break;
  }
  switch (op) {
    case OpKind::Reshape:
    case OpKind::Expand:
      field("shape", shapes::toString(a.shape));
      break;
    case OpKind::Transpose:
    case OpKind::Permute:
    case OpKind::Squeeze:
      field("dims", ints(a.dims));
      break;
    case OpKind::Unsqueeze:
    case OpKind::Cat:
    case OpKind::Stack:
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
      field("dim", std::to_string(a.dim));
      break;
    case OpKind::Flatten:
      field("dim", std::to_string(a.dim));
      field("end_dim", std::to_string(a.endDim));
      break;
    case OpKind::Slice:
      field("dim", std::to_string(a.dim));
      field("start", optInt(a.start));
      field("stop", optInt(a.stop));
      field("step", a.step.toString());
      break;
    case OpKind::Select:
      field("dim", std::to_string(a.dim));
      field("index", a.index.toString());
      break;
    case OpKind::CrossEntropy:
      if (!a.scalars.empty()) field("ignore_index", formatScalar(a.scalars[0], DType::I32));
      break;
    case OpKind::Conv2d:
    case OpKind::Conv2dBackwardInput:
    case OpKind::Conv2dBackwardWeight: {
      // Every option (the tpu's program cache is keyed by this text).
      auto pair = [&](const std::array<int64_t, 2>& p) { return ints({p[0], p[1]}); };
      field("stride", pair(a.conv.stride));
      field("padding", pair(a.conv.padBegin));
      if (a.conv.padEnd != a.conv.padBegin) field("padding_end", pair(a.conv.padEnd));
      field("dilation", pair(a.conv.dilation));
      field("groups", std::to_string(a.conv.groups));
      if (op != OpKind::Conv2d) field("shape", shapes::toString(a.shape));
      break;
    }
    case OpKind::Attention:
    case OpKind::AttentionLse:
    case OpKind::AttentionBackward:
      if (!a.scalars.empty()) field("scale", formatScalar(a.scalars[0], DType::F32));
      if (a.causal) field("is_causal", "true");
      break;
    case OpKind::LayerNorm:
      field("shape", shapes::toString(a.shape));
      field("eps", formatScalar(a.eps, DType::F32));
      break;
    case OpKind::Dropout:
      field("p", formatScalar(a.p, DType::F32));
      if (a.randomSlot >= 0) field("random_slot", std::to_string(a.randomSlot));
      break;
    case OpKind::Randperm:
    case OpKind::Multinomial:
    case OpKind::Bernoulli:
      if (a.randomSlot >= 0) field("random_slot", std::to_string(a.randomSlot));
      if (op == OpKind::Randperm) field("n", a.shape.at(0).toString());
      if (op == OpKind::Multinomial) {
        field("num_samples", a.shape.at(0).toString());
        field("replacement", !a.scalars.empty() && a.scalars[0] != 0 ? "true" : "false");
      }
      break;
    case OpKind::Full:
      field("shape", shapes::toString(a.shape));
      field("value", formatScalar(a.scalars.empty() ? 0.0 : a.scalars[0], a.dtype));
      dtypeField();
      break;
    case OpKind::Randint:
      if (a.randomSlot >= 0) field("random_slot", std::to_string(a.randomSlot));
      field("shape", shapes::toString(a.shape));
      field("low", formatScalar(a.scalars.size() > 0 ? a.scalars[0] : 0, DType::I32));
      field("high", formatScalar(a.scalars.size() > 1 ? a.scalars[1] : 0, DType::I32));
      dtypeField();
      break;
    case OpKind::Eye:
    case OpKind::Rand:
    case OpKind::Randn:
      if (a.randomSlot >= 0) field("random_slot", std::to_string(a.randomSlot));
      field("shape", shapes::toString(a.shape));
      dtypeField();
      break;
    case OpKind::Arange:
      field("start", optInt(a.start));
      field("stop", optInt(a.stop));
      field("step", a.step.toString());
      dtypeField();
      break;
    case OpKind::Cast:
      dtypeField();
      break;
    default:
      break;
  }
  return s;
}

std::string toString(const Graph& g) {
  std::string s;
  for (ValueId id = 0; id < g.size(); ++id) {
    const Value& v = g.value(id);
    s += ref(id) + ": " + formatType(v.shape, v.dtype) + " = ";
    switch (v.kind) {
      case ValueKind::Input:
        s += "input " + v.name + "\n";
        break;
      case ValueKind::Constant:
        s += "constant " + constantText(v.constant) + "\n";
        break;
      case ValueKind::Op: {
        std::string args;
        for (size_t i = 0; i < v.args.size(); ++i) args += (i ? ", " : "") + ref(v.args[i]);
        std::string attrs = formatAttrs(v.op, v.attrs);
        // ", dims=[1]" after operands; "dims=[1]" alone for creation ops.
        if (args.empty() && !attrs.empty()) attrs = attrs.substr(2);
        s += std::string(shapes::opName(v.op)) + "(" + args + attrs + ")\n";
        break;
      }
      case ValueKind::Fused: {
        std::vector<std::string> names;
        std::string args;
        for (size_t i = 0; i < v.args.size(); ++i) {
          names.push_back(ref(v.args[i]));
          args += (i ? ", " : "") + ref(v.args[i]);
        }
        s += "fused(" + args + ") {\n" + v.fused->toString(names, "    ") + "  }\n";
        break;
      }
    }
  }
  for (const RuntimeAssert& a : g.runtimeAsserts())
    s += "runtime_assert " + a.cond.toString() + "\n";
  s += "return ";
  for (size_t i = 0; i < g.outputs().size(); ++i) s += (i ? ", " : "") + ref(g.outputs()[i]);
  return s + "\n";
}

std::string Graph::toString() const {
  return graph::toString(*this);
}

}  // namespace tessel::graph
