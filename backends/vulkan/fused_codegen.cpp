// GLSL generation for fused elementwise programs (Note [Fused kernel interface]). Every
// instruction computes exactly as the eager kernel of its op does (ops_elementwise.cpp and
// shaders/elementwise.comp): the same compute dtype, the same conversions on load and store,
// the same formulas, so a fused program equals the eager chain it replaced.
#include "backends/vulkan/fused_codegen.h"

#include <cstdio>
#include <cstring>

#include "shapes/elementwise_defs.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

using graph::FusedInstr;
using shapes::DType;
using shapes::OpKind;

// Helpers copied from shaders/common.glsl (the fused kernels bind their buffers their own way);
// the float formulas are shaders/float_math.glsl itself, embedded at build time.
constexpr const char* kPrelude = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Buf { uint d[]; } buf[4];
layout(std430, set = 0, binding = 0) buffer Buf8 { u64vec2 d[]; } buf8[4];
layout(std430, set = 0, binding = 0) buffer Buf16 { u64vec4 d[]; } buf16[4];
layout(std430, set = 0, binding = 0) buffer BufB8 { uint64_t d[]; } bufB8[4];
#define STRIDED_LOOP(i, start, end, step) \
  for (uint i##0 = (start); i##0 < (end); i##0 += (step) * 16384u) \
    for (uint i = i##0; i < min((end), i##0 + (step) * 16384u); i += (step))
uint linearGroup() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
// The linear path (Note [Fused linear path]): four words of operand binding b from element
// offset off (a multiple of 4) as one u64vec2, or its one word for a broadcast (stride 0).
uvec4 loadW4(uint b, uint off, uint stride, uint i4) {
  if (stride == 0u) return uvec4(buf[b].d[off]);
  u64vec2 v = buf8[b].d[(off >> 2) + i4];
  return uvec4(unpackUint2x32(v.x), unpackUint2x32(v.y));
}
void loadW8(uint b, uint off, uint stride, uint i8, out uvec4 lo, out uvec4 hi) {
  if (stride == 0u) {
    lo = hi = uvec4(buf[b].d[off]);
    return;
  }
  u64vec4 v = buf16[b].d[(off >> 3) + i8];
  lo = uvec4(unpackUint2x32(v.x), unpackUint2x32(v.y));
  hi = uvec4(unpackUint2x32(v.z), unpackUint2x32(v.w));
}
// Bool operands and results on the linear path (Note [Linear bool operands] in
// elementwise.comp): 4 (8) bytes are one uint (uint64_t) at a byte offset that is a multiple of
// 4 (8); in registers each byte is a word holding its value.
uvec4 bytesToWords(uint w) { return uvec4(w & 0xffu, (w >> 8) & 0xffu, (w >> 16) & 0xffu, w >> 24); }
uint wordsToBytes(uvec4 b) { return b.x | (b.y << 8) | (b.z << 16) | (b.w << 24); }
uint byteAt(uint b, uint off) { return (buf[b].d[off >> 2] >> ((off & 3u) << 3)) & 0xffu; }
uvec4 loadB4(uint b, uint off, uint stride, uint i4) {
  if (stride == 0u) return uvec4(byteAt(b, off));
  return bytesToWords(buf[b].d[(off >> 2) + i4]);
}
void loadB8(uint b, uint off, uint stride, uint i8, out uvec4 lo, out uvec4 hi) {
  if (stride == 0u) {
    lo = hi = uvec4(byteAt(b, off));
    return;
  }
  uvec2 v = unpackUint2x32(bufB8[b].d[(off >> 3) + i8]);
  lo = bytesToWords(v.x);
  hi = bytesToWords(v.y);
}
// As elementwise.comp's subgroupChunk: this subgroup's contiguous share [begin, end) of n.
void subgroupChunk(uint n, out uint begin, out uint end) {
  const uint subgroups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumSubgroups;
  const uint sg = linearGroup() * gl_NumSubgroups + gl_SubgroupID;
  const uint chunk = ((n + subgroups - 1u) / subgroups + gl_SubgroupSize - 1u) /
                     gl_SubgroupSize * gl_SubgroupSize;
  begin = min(n, sg * chunk);
  end = min(n, begin + chunk);
}
void raiseFlag(uint bit) { atomicOr(buf[3].d[0], bit); }
#define kNaN uintBitsToFloat(0x7fc00000u)
#define kInf uintBitsToFloat(0x7f800000u)
int f2i(float v) {
  if (isnan(v)) return 0;
  if (v >= 2147483647.0) return 2147483647;
  if (v <= -2147483648.0) return int(0x80000000u);
  return int(v);
}
bool loadB(uint k, uint e) { return ((buf[k].d[e >> 2] >> ((e & 3u) << 3)) & 0xffu) != 0u; }
void storeB(uint k, uint e, bool v) {
  uint w = e >> 2, sh = (e & 3u) << 3;
  atomicAnd(buf[k].d[w], ~(0xffu << sh));
  if (v) atomicOr(buf[k].d[w], 1u << sh);
}
)"
#include "ops_gen/elementwise_glsl.inc"
#include "float_math_glsl.inc"
    R"(int clampI(int a, int b, int c) { int r = a < b ? b : a; return r > c ? c : r; }
)";


DType arithmeticType(DType t) { return t == DType::Bool ? DType::I32 : t; }

std::string var(int i) { return "t" + std::to_string(i); }

/// Temporary `v` of dtype `from` as `to` (the eager loads: loadF/loadI/loadB).
std::string convert(const std::string& v, DType from, DType to) {
  if (from == to) return v;
  switch (to) {
    case DType::F32:
      return from == DType::I32 ? "float(" + v + ")" : "(" + v + " ? 1.0 : 0.0)";
    case DType::I32:
      return from == DType::F32 ? "f2i(" + v + ")" : "(" + v + " ? 1 : 0)";
    case DType::Bool:
      return "(" + v + (from == DType::F32 ? " != 0.0)" : " != 0)");
  }
  return v;
}

const char* glslType(DType t) {
  return t == DType::F32 ? "float" : t == DType::I32 ? "int" : "bool";
}

std::string floatLiteral(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  char buf[40];
  std::snprintf(buf, sizeof buf, "uintBitsToFloat(0x%08xu)", bits);
  return buf;
}

/// The compute-dtype expression of op over already converted operands.
std::string opExpr(OpKind op, DType compute, const std::string& a, const std::string& b,
                   const std::string& c, bool& checked) {
  const bool f = compute == DType::F32;
  auto cmp = [&](const char* o) {
    return "((" + a + " " + o + " " + b + ") ? " + (f ? "1.0" : "1") + " : " + (f ? "0.0" : "0") +
           ")";
  };
  const std::string zero = f ? "0.0" : "0";
  if (const shapes::ElementwiseDef* d = shapes::elementwiseDef(op)) {
    // An op of ops/elementwise.ops: its generated formula function (elementwise_glsl.inc).
    if (!f && d->intDivisor) checked = true;
    const std::string args[3] = {a, b, c};
    std::string call = "ew_op_" + std::string(d->name) + "(";
    for (int i = 0; i < d->arity; ++i) call += (i ? ", " : "") + args[i];
    return call + ")";
  }
  switch (op) {
    case OpKind::Add: return "(" + a + " + " + b + ")";
    case OpKind::Sub: return "(" + a + " - " + b + ")";
    case OpKind::Mul: return "(" + a + " * " + b + ")";
    case OpKind::Maximum:
      return f ? "maxF(" + a + ", " + b + ")" : "(" + a + " > " + b + " ? " + a + " : " + b + ")";
    case OpKind::Minimum:
      return f ? "minF(" + a + ", " + b + ")" : "(" + a + " < " + b + " ? " + a + " : " + b + ")";
    case OpKind::Eq: return cmp("==");
    case OpKind::Ne: return cmp("!=");
    case OpKind::Lt: return cmp("<");
    case OpKind::Le: return cmp("<=");
    case OpKind::Gt: return cmp(">");
    case OpKind::Ge: return cmp(">=");
    case OpKind::LogicalAnd:
      return "((" + a + " != " + zero + " && " + b + " != " + zero + ") ? " + (f ? "1.0" : "1") +
             " : " + zero + ")";
    case OpKind::LogicalOr:
      return "((" + a + " != " + zero + " || " + b + " != " + zero + ") ? " + (f ? "1.0" : "1") +
             " : " + zero + ")";
    case OpKind::Clamp: return (f ? "clampF(" : "clampI(") + a + ", " + b + ", " + c + ")";
    default: break;
  }
  if (f) {
    switch (op) {
      case OpKind::Div: return "(" + a + " / " + b + ")";
      case OpKind::GeluBackward: return "geluBackwardF(" + a + ", " + b + ")";
      case OpKind::FloorDiv: return "floorDivF(" + a + ", " + b + ")";
      case OpKind::Mod: return "modF(" + a + ", " + b + ")";
      case OpKind::Pow: return "powF(" + a + ", " + b + ")";
      default: break;
    }
  } else {
    switch (op) {
      case OpKind::FloorDiv: checked = true; return "ew_floordiv_i(" + a + ", " + b + ")";
      case OpKind::Mod: checked = true; return "ew_mod_i(" + a + ", " + b + ")";
      case OpKind::Pow: checked = true; return "ew_pow_i(" + a + ", " + b + ")";
      default: break;
    }
  }
  return zero;  // as elementwise.comp: an op without a formula in this dtype gives 0
}

}  // namespace

FusedKernelSource generateFusedKernel(const graph::FusedProgram& p,
                                      const std::vector<DType>& inputTypes, DType outType) {
  FusedKernelSource src;
  const int k = int(p.numInputs);
  if (k > kFusedMaxInputs || p.code.empty()) return src;
  bool checked = false;
  std::string body, vbody;
  std::vector<DType> types(p.code.size());
  for (size_t i = 0; i < p.code.size(); ++i) {
    std::string vexpr;  // the linear path's expression, where it differs (loads)
    const FusedInstr& ins = p.code[i];
    types[i] = ins.dtype;
    std::string expr;
    switch (ins.kind) {
      case FusedInstr::Kind::Load: {
        const std::string u = std::to_string(ins.input);
        const std::string bind = "((pc.meta >> " + std::to_string(4 + 3 * (ins.input + 1)) + ") & 7u)";
        const std::string e = "(pc.inp[" + std::to_string(5 * ins.input) + "] + x0 * pc.inp[" +
                              std::to_string(5 * ins.input + 1) + "] + x1 * pc.inp[" +
                              std::to_string(5 * ins.input + 2) + "] + x2 * pc.inp[" +
                              std::to_string(5 * ins.input + 3) + "] + x3 * pc.inp[" +
                              std::to_string(5 * ins.input + 4) + "])";
        const DType t = ins.input < inputTypes.size() ? inputTypes[ins.input] : ins.dtype;
        types[i] = t;
        body += "  const uint b" + std::to_string(i) + " = " + bind + ";\n";
        body += "  const uint e" + std::to_string(i) + " = " + e + ";\n";
        const std::string bi = "b" + std::to_string(i), ei = "e" + std::to_string(i);
        if (t == DType::F32) expr = "uintBitsToFloat(buf[" + bi + "].d[" + ei + "])";
        else if (t == DType::I32) expr = "int(buf[" + bi + "].d[" + ei + "])";
        else expr = "loadB(" + bi + ", " + ei + ")";
        const std::string w = "w" + u + "[j]";
        vexpr = t == DType::F32   ? "uintBitsToFloat(" + w + ")"
                : t == DType::I32 ? "int(" + w + ")"
                                  : "(" + w + " != 0u)";
        break;
      }
      case FusedInstr::Kind::Scalar:
        if (ins.dtype == DType::F32) expr = floatLiteral(float(ins.scalar));
        else if (ins.dtype == DType::I32) expr = "int(" + std::to_string(uint32_t(int32_t(ins.scalar))) + "u)";
        else expr = ins.scalar != 0 ? "true" : "false";
        break;
      case FusedInstr::Kind::Op: {
        const int na = ins.numArgs();
        DType argT[3] = {};
        for (int a = 0; a < na; ++a) argT[a] = types[ins.args[a]];
        const DType out = ins.dtype;
        if (ins.op == OpKind::Cast) {
          // castDevice: to bool tests nonzero in the source dtype; else f32 when either side
          // is f32, i32 otherwise.
          const DType compute = out == DType::Bool ? DType::Bool
                                : (out == DType::F32 || argT[0] == DType::F32) ? DType::F32
                                                                               : DType::I32;
          expr = convert(convert(var(ins.args[0]), argT[0], compute), compute, out);
          break;
        }
        if (ins.op == OpKind::Where) {
          const DType compute = arithmeticType(out);
          const std::string cond = convert(var(ins.args[0]), argT[0], DType::Bool);
          expr = convert("(" + cond + " ? " + convert(var(ins.args[1]), argT[1], compute) + " : " +
                             convert(var(ins.args[2]), argT[2], compute) + ")",
                         compute, out);
          break;
        }
        DType compute;
        DType promoted = argT[0];
        for (int j = 1; j < na; ++j) promoted = shapes::promote(promoted, argT[j]);
        if (const shapes::ElementwiseDef* d = shapes::elementwiseDef(ins.op))
          compute = shapes::computeDType(*d, promoted);
        else if (ins.op == OpKind::LogicalNot)
          compute = argT[0] == DType::F32 ? DType::F32 : DType::I32;
        else if (na == 2 && shapes::isComparison(ins.op))
          compute = arithmeticType(shapes::promote(argT[0], argT[1]));
        else
          compute = arithmeticType(out);
        std::string a[3];
        for (int j = 0; j < na; ++j) a[j] = convert(var(ins.args[j]), argT[j], compute);
        expr = convert(opExpr(ins.op, compute, a[0], a[1], a[2], checked), compute, out);
        break;
      }
    }
    const std::string decl = "  const " + std::string(glslType(types[i])) + " " + var(int(i)) + " = ";
    body += decl + expr + ";\n";
    vbody += "    " + decl + (vexpr.empty() ? expr : vexpr) + ";\n";
  }
  const int last = int(p.code.size()) - 1;
  const std::string result = convert(var(last), types[last], outType);
  std::string store;
  if (outType == DType::F32) store = "  buf[bo].d[eo] = floatBitsToUint(" + result + ");\n";
  else if (outType == DType::I32) store = "  buf[bo].d[eo] = uint(" + result + ");\n";
  else store = "  storeB(bo, eo, " + result + ");\n";

  src.checked = checked;
  src.linear = true;
  src.glsl = kPrelude;
  src.glsl += "layout(push_constant) uniform PC {\n  uint n; uint meta; uint shape[4]; uint outOff;\n";
  src.glsl += "  uint inp[" + std::to_string(std::max(1, 5 * k)) + "];\n} pc;\n";
  src.glsl += R"(void element(const uint i, const uint x0, const uint x1, const uint x2, const uint x3) {
  const uint bo = (pc.meta >> 4) & 7u;
  const uint eo = pc.outOff + i;
)";
  src.glsl += body + store + "}\n";
  src.glsl += R"(void elementAt(const uint i) {
  uint rem = i;
  const uint x3 = rem % pc.shape[3]; rem /= pc.shape[3];
  const uint x2 = rem % pc.shape[2]; rem /= pc.shape[2];
  element(i, rem / pc.shape[1], rem % pc.shape[1], x2, x3);
}
)";
  src.glsl += R"(void main() {
  const uint gid = linearGroup() * 256u + gl_LocalInvocationID.x;
)";
  {
    // Note [Fused linear path] (fused_codegen.h): one merged dim, operands at stride 1 or 0, walking ones
    // at offsets that are multiples of 4 (8): each subgroup walks its chunk 4 (8) elements per
    // invocation and step, no index math. Bool operands load 4 (8) bytes, a bool result stores
    // them (one byte 0/1 per element, as storeB).
    const std::string rword = outType == DType::F32   ? "floatBitsToUint(" + result + ")"
                              : outType == DType::I32 ? "uint(" + result + ")"
                                                      : "(" + result + " ? 1u : 0u)";
    const std::string store8 =
        outType == DType::Bool
            ? "bufB8[bo].d[(pc.outOff >> 3) + i8] = packUint2x32(uvec2(wordsToBytes(rh[0]), "
              "wordsToBytes(rh[1])));\n"
            : "buf16[bo].d[(pc.outOff >> 3) + i8] = u64vec4(packUint2x32(rh[0].xy), "
              "packUint2x32(rh[0].zw),\n                                                  "
              "packUint2x32(rh[1].xy), packUint2x32(rh[1].zw));\n";
    const std::string store4 =
        outType == DType::Bool
            ? "buf[bo].d[(pc.outOff >> 2) + i4] = wordsToBytes(r);\n"
            : "buf8[bo].d[(pc.outOff >> 2) + i4] = u64vec2(packUint2x32(r.xy), packUint2x32(r.zw));\n";
    std::string loads4, loads8;
    for (int u = 0; u < k; ++u) {
      const std::string us = std::to_string(u);
      const bool isBool = u < int(inputTypes.size()) && inputTypes[u] == DType::Bool;
      const std::string args = "(pc.meta >> " + std::to_string(4 + 3 * (u + 1)) + ") & 7u, pc.inp[" +
                               std::to_string(5 * u) + "], pc.inp[" + std::to_string(5 * u + 4) + "], ";
      loads4 += "      const uvec4 w" + us + (isBool ? " = loadB4(" : " = loadW4(") + args + "i4);\n";
      loads8 += "      uvec4 w" + us + "h[2];\n      " + (isBool ? "loadB8(" : "loadW8(") + args + "i8, w" +
                us + "h[0], w" + us + "h[1]);\n";
    }
    std::string body8;
    {
      // The 4-wide body over half h of the eight words: w<u> names that half.
      std::string pick;
      for (int u = 0; u < k; ++u)
        pick += "        const uvec4 w" + std::to_string(u) + " = w" + std::to_string(u) + "h[h];\n";
      body8 = pick;
    }
    src.glsl += R"(  const uint bo = (pc.meta >> 4) & 7u;
  if ((pc.meta & 0x40000000u) != 0u) {
    uint begin, end;
    subgroupChunk(pc.n >> 3, begin, end);
    STRIDED_LOOP(i8, begin + gl_SubgroupInvocationID, end, gl_SubgroupSize) {
)" + loads8 + R"(      uvec4 rh[2];
      for (uint h = 0u; h < 2u; ++h) {
)" + body8 + R"(        uvec4 r;
        for (uint j = 0u; j < 4u; ++j) {
)" + vbody + "          r[j] = " + rword + R"(;
        }
        rh[h] = r;
      }
      )" + store8 + R"(    }
    const uint tail = (pc.n & ~7u) + gid;
    if (tail < pc.n) elementAt(tail);
    return;
  }
  if ((pc.meta & 0x80000000u) != 0u) {
    uint begin, end;
    subgroupChunk(pc.n >> 2, begin, end);
    STRIDED_LOOP(i4, begin + gl_SubgroupInvocationID, end, gl_SubgroupSize) {
)" + loads4 + R"(      uvec4 r;
      for (uint j = 0u; j < 4u; ++j) {
)" + vbody + "        r[j] = " + rword + R"(;
      }
      )" + store4 + R"(    }
    const uint tail = (pc.n & ~3u) + gid;
    if (tail < pc.n) elementAt(tail);
    return;
  }
)";
  }
  // Note [Fused strided runs]: as elementwise.comp's Note [Strided runs], invocation gid owns
  // run gid of the innermost dim (meta bits 22-29: its length, 1 on a GPU): the div/mod index
  // math once per run, pc.n counting runs.
  src.glsl += R"(  if (gid >= pc.n) return;
  const uint run = max(1u, (pc.meta >> 22) & 255u), len = pc.shape[3];
  const uint runsPerRow = (len + run - 1u) / run;
  uint row = gid / runsPerRow;
  const uint c0 = (gid % runsPerRow) * run, end = min(len, c0 + run), first = row * len;
  const uint x2 = row % pc.shape[2];
  row /= pc.shape[2];
  const uint x1 = row % pc.shape[1], x0 = row / pc.shape[1];
  for (uint c = c0; c < end; ++c) element(first + c, x0, x1, x2, c);
}
)";
  return src;
}

}  // namespace tessel::backends::vulkan
