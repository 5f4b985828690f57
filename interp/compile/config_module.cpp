// The built-in `config` module (compiler.md, "config"): fields read and set like module
// globals, validated on assignment and mirrored into the interpreter's CompilerConfig.
#include "backends/dist/world.h"
#include "backends/tpu/tpu.h"
#include "interp/natives/builtins.h"
#include "interp/compile/compiler_state.h"
#include "interp/values/printer.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

struct Field {
  const char* name;
  bool isBool;
  int64_t min;  // ints only
  void (*store)(CompilerConfig&, const Value&);
  Value (*load)(const CompilerConfig&);
};

#define TESSEL_BOOL_FIELD(f)                                                                \
  Field {                                                                                   \
#f, true, 0,                                                                            \
        [](CompilerConfig & c,                                                              \
           const Value& v) { c.f = v.asBool(); }, [](const CompilerConfig&                  \
                                                         c) { return Value::boolean(c.f); } \
  }
#define TESSEL_INT_FIELD(f, lo)                                                            \
  Field {                                                                                  \
#f, false, lo,                                                                         \
        [](CompilerConfig & c,                                                             \
           const Value& v) { c.f = v.asInt(); }, [](const CompilerConfig&                  \
                                                        c) { return Value::integer(c.f); } \
  }

const Field kFields[] = {
    TESSEL_INT_FIELD(recompile_limit, 1),
    TESSEL_BOOL_FIELD(automatic_dynamic),
    TESSEL_BOOL_FIELD(duck_shape),
    TESSEL_BOOL_FIELD(specialize_float),
    TESSEL_BOOL_FIELD(backed_size_oblivious),
    TESSEL_BOOL_FIELD(pgo),
    TESSEL_BOOL_FIELD(compiler_collectives),
    TESSEL_BOOL_FIELD(capture_scalar_outputs),
    TESSEL_INT_FIELD(solver_rlimit, 0),
    TESSEL_INT_FIELD(tpu_memory_bytes, 1),
    TESSEL_BOOL_FIELD(tpu_bounded_dynamic),
    TESSEL_INT_FIELD(dist_timeout_s, 1),
    TESSEL_BOOL_FIELD(gc),
    TESSEL_INT_FIELD(gc_threshold0, 1),
    TESSEL_INT_FIELD(gc_threshold1, 1),
    TESSEL_INT_FIELD(gc_threshold2, 1),
    TESSEL_INT_FIELD(gc_increment, 0),
};

// The tpu's settings are the device's and the collectives' timeout the world's (both
// process-wide), so the module writes them through.
void mirrorTpuConfig(const CompilerConfig& c) {
  backends::tpu::tpuConfig().memoryBytes = static_cast<uint64_t>(c.tpu_memory_bytes);
  backends::tpu::tpuConfig().boundedDynamic = c.tpu_bounded_dynamic;
  backends::dist::distConfig().timeoutSeconds = static_cast<double>(c.dist_timeout_s);
}

// The collector's settings are the running interpreter's heap's (config is made and assigned
// inside the interpreter, whose heap is current then).
void mirrorGcConfig(const CompilerConfig& c) {
  GcHeap* heap = currentGcHeap();
  if (!heap) return;
  heap->enabled = c.gc;
  heap->thresholds[0] = c.gc_threshold0;
  heap->thresholds[1] = c.gc_threshold1;
  heap->thresholds[2] = c.gc_threshold2;
  heap->increment = c.gc_increment;
}

void setConfigField(ModuleObj& self, const std::string& name, Value v) {
  auto& config = *static_cast<CompilerConfig*>(self.native);
  for (const Field& f : kFields) {
    if (name != f.name) continue;
    if (f.isBool && !v.is(Type::Bool))
      throwUserError(ErrorKind::TypeError, "config." + name + " must be a bool, not '" +
                                               std::string(typeName(v.type())) + "'");
    if (!f.isBool && !v.is(Type::Int))
      throwUserError(ErrorKind::TypeError, "config." + name + " must be an int, not '" +
                                               std::string(typeName(v.type())) + "'");
    if (!f.isBool && v.asInt() < f.min)
      throwUserError(ErrorKind::ValueError, "config." + name + " must be at least " +
                                                std::to_string(f.min) + ", got " +
                                                std::to_string(v.asInt()));
    f.store(config, v);
    mirrorTpuConfig(config);
    mirrorGcConfig(config);
    self.define(name, std::move(v));
    return;
  }
  std::string names;
  for (const Field& f : kFields) names += (names.empty() ? "" : ", ") + std::string(f.name);
  throwUserError(ErrorKind::NameError,
                 "config has no field '" + name + "' (fields: " + names + ")");
}

}  // namespace

Value makeConfigModule(CompilerConfig& config) {
  auto* m = new ModuleObj("config");
  m->setField = setConfigField;
  m->native = &config;
  for (const Field& f : kFields) m->define(f.name, f.load(config));
  mirrorTpuConfig(config);
  mirrorGcConfig(config);
  return Value::object(m);
}

}  // namespace tessel::interp
