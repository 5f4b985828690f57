// load, save and the text functions as prelude built-ins (file_natives.h).
#include "interp/natives/file_natives.h"

#include "backends/io/file_policy.h"
#include "backends/io/text.h"
#include "interp/natives/builtins.h"
#include "interp/tensors/device_support.h"
#include "interp/natives/file_values.h"
#include "interp/values/graph_break.h"
#include "interp/eval/session.h"
#include "interp/values/native_args.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace io = backends::io;

io::FileRef allowedPath(Interpreter& interp, const char* fn, const std::string& path, bool write) {
  graphBreak(ErrorKind::ValueError, std::string(fn) + "() touches a file");
  const io::FilePolicy& policy = interp.options().files;
  // Under "any file" the path stays as the script wrote it (and as errors show it).
  if (policy.access == io::FilePolicy::Access::All) {
    if (path.empty()) throwUserError(ErrorKind::IOError, std::string(fn) + "(): an empty path");
    return path;
  }
  return io::checkAccess(policy, path, write);
}

namespace {

Value nativeLoad(Interpreter& interp, CallArgs& a) {
  ArgBinder b("load", a, {"path", "device"}, 1);
  std::optional<backends::Device> device;
  if (b.has(1) && !b.at(1).is(Type::None)) {
    const std::string& name = expectStr(b.at(1), "load(): device");
    device = backends::deviceFromName(name);
    if (!device)
      throwUserError(ErrorKind::ValueError,
                     "load(): device names no device: '" + name + "' (cpu, vulkan, tpu)");
  }
  return loadValue(allowedPath(interp, "load", b.toStr(0), false), device);
}

Value nativeSave(Interpreter& interp, CallArgs& a) {
  ArgBinder b("save", a, {"path", "value", "compress"}, 2);
  const std::string& path = b.toStr(0);
  bool compress = b.has(2) && b.toBool(2);
  saveValue(allowedPath(interp, "save", path, true), b.at(1), compress);
  return Value::none();
}

Value nativeReadText(Interpreter& interp, CallArgs& a) {
  ArgBinder b("read_text", a, {"path"}, 1);
  return makeStr(io::readText(allowedPath(interp, "read_text", b.toStr(0), false)));
}

Value nativeWriteText(Interpreter& interp, CallArgs& a) {
  ArgBinder b("write_text", a, {"path", "text"}, 2);
  const std::string& text = b.toStr(1);
  io::writeText(allowedPath(interp, "write_text", b.toStr(0), true), text);
  return Value::none();
}

Value nativeReadLines(Interpreter& interp, CallArgs& a) {
  ArgBinder b("read_lines", a, {"path"}, 1);
  std::vector<Value> out;
  for (std::string& line :
       io::splitLines(io::readText(allowedPath(interp, "read_lines", b.toStr(0), false))))
    out.push_back(makeStr(std::move(line)));
  return makeList(std::move(out));
}

Value nativeLoadCsv(Interpreter& interp, CallArgs& a) {
  ArgBinder b("load_csv", a, {"path", "delimiter", "skip_header", "columns", "dtype"}, 1);
  io::CsvOptions o;
  if (b.has(1)) {
    const std::string& d = b.toStr(1);
    if (d.size() != 1)
      throwUserError(ErrorKind::ValueError,
                     "load_csv(): delimiter must be one character, not '" + d + "'");
    o.delimiter = d[0];
  }
  o.skipHeader = b.intOr(2, 0);
  if (o.skipHeader < 0)
    throwUserError(ErrorKind::ValueError, "load_csv(): skip_header must not be negative");
  if (b.has(3) && !b.at(3).is(Type::None)) {
    std::vector<int64_t> columns;
    for (const Value& c : iterate(b.at(3), "load_csv(): columns"))
      columns.push_back(expectInt(c, "load_csv(): a column"));
    o.columns = std::move(columns);
  }
  if (b.has(4)) o.dtype = toDType(b.at(4), "load_csv(): dtype");
  backends::Tensor t = io::loadCsv(allowedPath(interp, "load_csv", b.toStr(0), false), o);
  const backends::Device device = defaultDevice();
  if (device == backends::Device::Cpu) return makeTensor(std::move(t));
  ensureDevice(device);
  return makeTensor(onDevice(t, device));
}

}  // namespace

void registerFileBuiltins(Interpreter&, ModuleObj& prelude) {
  defineNative(prelude, "load", nativeLoad);
  defineNative(prelude, "save", nativeSave);
  defineNative(prelude, "read_text", nativeReadText);
  defineNative(prelude, "write_text", nativeWriteText);
  defineNative(prelude, "read_lines", nativeReadLines);
  defineNative(prelude, "load_csv", nativeLoadCsv);
}

}  // namespace tessel::interp
