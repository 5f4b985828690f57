// Compiling a guard set into GuardProgram's register code, and running it.
#include "shapes/guard_program.h"

#include <unordered_map>

#include "shapes/expr.h"

namespace tessel::shapes {

namespace {
constexpr size_t kMaxRegs = 2048;  // frame lives on the stack: check() never allocates

struct Compiler {
  std::vector<GuardProgram::Instr>& code;
  const std::vector<int>& symbolSlot;
  std::unordered_map<Expr, uint16_t> memo;  // common subexpressions share a register
  uint16_t next = 0;

  uint16_t fresh() {
    TESSEL_ASSERT(next < kMaxRegs, "guard program needs too many registers");
    return next++;
  }
  uint16_t emit(GuardProgram::Instr::Op op, uint16_t a = 0, uint16_t b = 0, int64_t imm = 0) {
    uint16_t d = fresh();
    code.push_back({op, d, a, b, imm, 0});
    return d;
  }

  uint16_t reg(Expr e) {
    if (auto it = memo.find(e); it != memo.end()) return it->second;
    uint16_t r = build(e);
    memo[e] = r;
    return r;
  }

  uint16_t build(Expr e) {
    using I = GuardProgram::Instr;
    switch (e->kind) {
      case ExprKind::Const:
      case ExprKind::BoolConst:
        return emit(I::LoadConst, 0, 0, e->value);
      case ExprKind::Sym: {
        int slot = symbolSlot.at(e->value);
        TESSEL_ASSERT(slot >= 0, "guard on an unbacked symbol " + e->toString());
        return emit(I::LoadInput, static_cast<uint16_t>(slot));
      }
      case ExprKind::Add: {
        uint16_t acc = 0;
        bool have = false;
        for (size_t i = 0; i < e->args.size(); ++i) {
          uint16_t t = reg(e->args[i]);
          if (e->coeffs[i] != 1) t = emit(I::MulImm, t, 0, e->coeffs[i]);
          acc = have ? emit(I::Add, acc, t) : t;
          have = true;
        }
        return e->value ? emit(I::AddImm, acc, 0, e->value) : acc;
      }
      case ExprKind::Mul:
      case ExprKind::Min:
      case ExprKind::Max:
      case ExprKind::And:
      case ExprKind::Or: {
        I::Op op = e->kind == ExprKind::Mul   ? I::Mul
                   : e->kind == ExprKind::Min ? I::Min
                   : e->kind == ExprKind::Max ? I::Max
                   : e->kind == ExprKind::And ? I::And
                                              : I::Or;
        uint16_t acc = reg(e->args[0]);
        for (size_t i = 1; i < e->args.size(); ++i) acc = emit(op, acc, reg(e->args[i]));
        return acc;
      }
      case ExprKind::FloorDiv:
        return emit(I::FloorDiv, reg(e->args[0]), reg(e->args[1]));
      case ExprKind::Mod:
        return emit(I::Mod, reg(e->args[0]), reg(e->args[1]));
      case ExprKind::Le:
        return emit(I::Le0, reg(e->args[0]));
      case ExprKind::Eq:
        return emit(I::Eq0, reg(e->args[0]));
      case ExprKind::Ne:
        return emit(I::Ne0, reg(e->args[0]));
    }
    return 0;
  }
};
}  // namespace

GuardProgram::GuardProgram(std::vector<Guard> guards, const ShapeEnv& env)
    : guards_(std::move(guards)) {
  for (const Source& s : env.sources()) {
    sourceNames_.push_back(s.name);
    sourceHints_.push_back(s.hint);
  }
  for (size_t s = 0; s < env.numSymbols(); ++s) {
    symbolSlot_.push_back(env.symbol(static_cast<uint32_t>(s)).slot);
    symbolNames_.push_back(env.symbol(static_cast<uint32_t>(s)).name);
  }
  Compiler c{code_, symbolSlot_, {}, 0};
  for (size_t g = 0; g < guards_.size(); ++g) {
    const Guard& gd = guards_[g];
    int64_t gi = static_cast<int64_t>(g);
    if (gd.kind == GuardKind::Static) {
      code_.push_back(
          {Instr::CheckConst, 0, static_cast<uint16_t>(gd.slot), 0, gi, sourceHints_.at(gd.slot)});
    } else if (gd.kind == GuardKind::Duck) {
      code_.push_back({Instr::CheckEqInput, 0, static_cast<uint16_t>(gd.slot),
                       static_cast<uint16_t>(gd.slot2), gi, 0});
    } else {
      uint16_t r = c.reg(gd.expr);
      code_.push_back({Instr::Check, 0, r, 0, gi, 0});
    }
  }
  numRegs_ = c.next;
}

int GuardProgram::check(std::span<const int64_t> in) const noexcept {
  if (in.size() < sourceNames_.size()) return guards_.empty() ? -1 : 0;
  int64_t r[kMaxRegs];
  bool ov = false;
  for (const Instr& i : code_) {
    switch (i.op) {
      case Instr::LoadInput:
        r[i.dst] = in[i.a];
        break;
      case Instr::LoadConst:
        r[i.dst] = i.imm;
        break;
      case Instr::AddImm:
        ov |= __builtin_add_overflow(r[i.a], i.imm, &r[i.dst]);
        break;
      case Instr::MulImm:
        ov |= __builtin_mul_overflow(r[i.a], i.imm, &r[i.dst]);
        break;
      case Instr::Add:
        ov |= __builtin_add_overflow(r[i.a], r[i.b], &r[i.dst]);
        break;
      case Instr::Mul:
        ov |= __builtin_mul_overflow(r[i.a], r[i.b], &r[i.dst]);
        break;
      case Instr::FloorDiv:
        r[i.dst] = floorDivInt(r[i.a], r[i.b]);
        break;
      case Instr::Mod:
        r[i.dst] = modInt(r[i.a], r[i.b]);
        break;
      case Instr::Min:
        r[i.dst] = r[i.a] < r[i.b] ? r[i.a] : r[i.b];
        break;
      case Instr::Max:
        r[i.dst] = r[i.a] > r[i.b] ? r[i.a] : r[i.b];
        break;
      case Instr::Le0:
        r[i.dst] = r[i.a] <= 0;
        break;
      case Instr::Eq0:
        r[i.dst] = r[i.a] == 0;
        break;
      case Instr::Ne0:
        r[i.dst] = r[i.a] != 0;
        break;
      case Instr::And:
        r[i.dst] = r[i.a] & r[i.b];
        break;
      case Instr::Or:
        r[i.dst] = r[i.a] | r[i.b];
        break;
      case Instr::CheckEqInput:
        if (in[i.a] != in[i.b]) return static_cast<int>(i.imm);
        break;
      case Instr::CheckConst:
        if (in[i.a] != i.c) return static_cast<int>(i.imm);
        break;
      case Instr::Check:
        if (ov || !r[i.a]) return static_cast<int>(i.imm);
        break;
    }
  }
  return -1;
}

std::vector<int64_t> GuardProgram::bindSymbols(std::span<const int64_t> inputs) const {
  std::vector<int64_t> v(symbolSlot_.size(), 0);
  for (size_t s = 0; s < symbolSlot_.size(); ++s)
    if (symbolSlot_[s] >= 0 && static_cast<size_t>(symbolSlot_[s]) < inputs.size())
      v[s] = inputs[symbolSlot_[s]];
  return v;
}

std::string GuardProgram::failureReason(int g, std::span<const int64_t> in) const {
  if (g < 0 || static_cast<size_t>(g) >= guards_.size()) return "";
  const Guard& gd = guards_[g];
  auto val = [&](int slot) {
    return static_cast<size_t>(slot) < in.size() ? std::to_string(in[slot]) : "?";
  };
  if (gd.kind == GuardKind::Static)
    return sourceNames_[gd.slot] + ": expected " + std::to_string(sourceHints_[gd.slot]) +
           ", got " + val(gd.slot);
  if (gd.kind == GuardKind::Duck)
    return gd.text + " failed (" + sourceNames_[gd.slot] + " = " + val(gd.slot) + ", " +
           sourceNames_[gd.slot2] + " = " + val(gd.slot2) + ")";
  std::string s = gd.expr->toString() + " failed (";
  for (size_t k = 0; k < gd.expr->syms.size(); ++k) {
    uint32_t sym = gd.expr->syms[k];
    int slot = symbolSlot_[sym];
    s += (k ? ", " : "") + symbolNames_[sym] + " = " + val(slot) + " from " +
         (slot >= 0 ? sourceNames_[slot] : "?");
  }
  return s + ")";
}

std::string GuardProgram::dump() const {
  static const char* names[] = {
      "load_input",  "load_const", "add_imm", "mul_imm", "add", "mul", "floordiv", "mod",
      "min",         "max",        "le0",     "eq0",     "ne0", "and", "or",       "check_eq_input",
      "check_const", "check"};
  std::string s;
  for (const Instr& i : code_)
    s += std::string(names[i.op]) + " r" + std::to_string(i.dst) + " a=" + std::to_string(i.a) +
         " b=" + std::to_string(i.b) + " imm=" + std::to_string(i.imm) + "\n";
  return s;
}

}  // namespace tessel::shapes
