// GuardProgram: a guard set compiled into a flat, allocation-free program over a call's
// inputs (sizes, ints) that says pass/fail and which guard failed. Never calls the solver.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "shapes/shape_env.h"

namespace tessel::shapes {

class GuardProgram {
 public:
  /// One instruction of the register machine; registers are int64 slots of a fixed frame.
  struct Instr {
    enum Op : uint8_t {
      LoadInput,  ///< r[dst] = inputs[a]
      LoadConst,  ///< r[dst] = imm
      AddImm,     ///< r[dst] = r[a] + imm
      MulImm,     ///< r[dst] = r[a] * imm
      Add,        ///< r[dst] = r[a] + r[b]
      Mul,        ///< r[dst] = r[a] * r[b]
      FloorDiv,   ///< Python floor division (Note [Division semantics])
      Mod,        ///< Python modulo
      Min,
      Max,
      Le0,           ///< r[dst] = r[a] <= 0
      Eq0,           ///< r[dst] = r[a] == 0
      Ne0,           ///< r[dst] = r[a] != 0
      And,           ///< r[dst] = r[a] & r[b]
      Or,            ///< r[dst] = r[a] | r[b]
      CheckEqInput,  ///< fail guard `imm` unless inputs[a] == inputs[b] (fast duck guard)
      CheckConst,    ///< fail guard `imm` unless inputs[a] == r-less constant c (static guard)
      Check,         ///< fail guard `imm` unless r[a] != 0
    };
    Op op;
    uint16_t dst = 0, a = 0, b = 0;
    int64_t imm = 0;
    int64_t c = 0;
  };

  GuardProgram() = default;
  /// Compiles guards over the given sources; a symbol is read from its first source's slot.
  GuardProgram(std::vector<Guard> guards, const ShapeEnv& env);

  /// -1 when every guard holds, else the index (into guards()) of the first failing guard.
  /// inputs has one value per source slot (ShapeEnv::sources() order). Arithmetic overflow or
  /// a wrong input count fails the first guard that reads it. Allocation-free, noexcept.
  int check(std::span<const int64_t> inputs) const noexcept;
  bool passes(std::span<const int64_t> inputs) const noexcept { return check(inputs) < 0; }

  const std::vector<Guard>& guards() const { return guards_; }
  size_t numInputs() const { return sourceNames_.size(); }
  size_t numInstrs() const { return code_.size(); }
  /// The value of every backed symbol for these inputs (index = symbol; unbacked: 0).
  std::vector<int64_t> bindSymbols(std::span<const int64_t> inputs) const;
  /// Recompile reason for a failed guard, with source names (compiler.md, "A call"):
  /// "x.shape[0]: expected 10, got 20" or "s0 <= 30 failed (s0 = 40 from x.shape[0])".
  std::string failureReason(int guard, std::span<const int64_t> inputs) const;
  /// Human-readable listing of the program (debugging, docs).
  std::string dump() const;

 private:
  std::vector<Instr> code_;
  std::vector<Guard> guards_;
  std::vector<std::string> sourceNames_;
  std::vector<int64_t> sourceHints_;
  std::vector<int> symbolSlot_;  ///< per symbol: input slot, -1 unbacked
  std::vector<std::string> symbolNames_;
  uint16_t numRegs_ = 0;
};

}  // namespace tessel::shapes
