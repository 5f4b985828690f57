// The built-in `dist` module (backends.md, "Distributed (MPI)"; docs/distributed.md): rank,
// world_size, info and the collectives, over backends/dist. Tensors on other devices are staged
// through the host; inside @compile a collective is a graph break (Note [Collectives break
// graphs]).
#include "interp/natives/dist_module.h"

#include "backends/dist/collectives.h"
#include "backends/dist/world.h"
#include "interp/natives/builtins.h"
#include "interp/tensors/device_support.h"
#include "interp/values/graph_break.h"
#include "interp/values/native_args.h"
#include "interp/values/printer.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace dist = backends::dist;

// Note [Collectives break graphs]
// A collective inside @compile is a graph break rather than a graph op: the statement runs
// eagerly on real tensors at every call, between the graphs before and after it. A graph op
// would need every backend's executor to call MPI mid-graph and to stage device buffers
// there, and the payloads would still be the same MPI calls, so there would be little to
// win: a collective costs microseconds to milliseconds, a graph break a few microseconds.
// rank() and world_size() are constants of the process, and trace as such.

namespace {

// A tensor argument on the host, and the device to put the result back on.
Tensor hostArg(const ArgBinder& b, size_t i, const char* what, backends::Device& device) {
  Tensor t = toTensor(b.at(i), std::string(what) + ": t");
  device = t.device();
  return hostTensor(t);
}

Value onDeviceOf(const Tensor& t, backends::Device device) {
  return makeTensor(onDevice(t, device));
}

void breakGraph(const char* what) {
  graphBreak(ErrorKind::ValueError, std::string(what) + " is a collective across ranks");
}

Value nativeRank(Interpreter&, CallArgs& a) {
  ArgBinder b("dist.rank", a, {}, 0);
  return Value::integer(dist::rank());
}

Value nativeWorldSize(Interpreter&, CallArgs& a) {
  ArgBinder b("dist.world_size", a, {}, 0);
  return Value::integer(dist::worldSize());
}

Value nativeInfo(Interpreter&, CallArgs& a) {
  ArgBinder b("dist.info", a, {}, 0);
  return makeStr(dist::world().info);
}

Value nativeAllReduce(Interpreter&, CallArgs& a) {
  breakGraph("dist.all_reduce()");
  ArgBinder b("dist.all_reduce", a, {"t", "op"}, 1);
  std::string opName = b.has(1) ? b.toStr(1) : "sum";
  std::optional<dist::ReduceOp> op = dist::reduceOpFromName(opName);
  if (!op)
    throwUserError(ErrorKind::ValueError,
                   "dist.all_reduce(): unknown op \"" + opName + "\" (sum, max, min, mean)");
  backends::Device device;
  Tensor t = hostArg(b, 0, "dist.all_reduce()", device);
  return onDeviceOf(dist::allReduce(t, *op), device);
}

Value nativeBroadcast(Interpreter&, CallArgs& a) {
  breakGraph("dist.broadcast()");
  ArgBinder b("dist.broadcast", a, {"t", "src"}, 1);
  int64_t src = b.intOr(1, 0);
  backends::Device device;
  Tensor t = hostArg(b, 0, "dist.broadcast()", device);
  // An int64 src outside int range is no rank either; broadcast() says so on every rank.
  int s = src < INT32_MIN || src > INT32_MAX ? -1 : static_cast<int>(src);
  return onDeviceOf(dist::broadcast(t, s), device);
}

Value nativeAllGather(Interpreter&, CallArgs& a) {
  breakGraph("dist.all_gather()");
  ArgBinder b("dist.all_gather", a, {"t"}, 1);
  backends::Device device;
  Tensor t = hostArg(b, 0, "dist.all_gather()", device);
  std::vector<Value> out;
  for (const Tensor& part : dist::allGather(t)) out.push_back(onDeviceOf(part, device));
  return makeList(std::move(out));
}

Value nativeBarrier(Interpreter&, CallArgs& a) {
  breakGraph("dist.barrier()");
  ArgBinder b("dist.barrier", a, {}, 0);
  dist::barrier();
  return Value::none();
}

}  // namespace

Value makeDistModule() {
  auto* m = new ModuleObj("dist");
  static const std::pair<const char*, NativeFn> kFunctions[] = {
      {"rank", nativeRank},           {"world_size", nativeWorldSize},
      {"info", nativeInfo},           {"all_reduce", nativeAllReduce},
      {"broadcast", nativeBroadcast}, {"all_gather", nativeAllGather},
      {"barrier", nativeBarrier},
  };
  // Named "dist.rank" and so on, as errors and printing show them.
  for (auto& [name, fn] : kFunctions)
    m->define(name, Value::object(new BuiltinObj(std::string("dist.") + name, fn)));
  return Value::object(m);
}

}  // namespace tessel::interp
