// Solver: the Z3 bridge behind ShapeEnv (architecture.md, "The solver sits behind ShapeEnv").
// This header stays free of z3++.h; only shapes/solver.cpp includes it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "shapes/expr.h"
#include "shapes/value_range.h"

namespace tessel::shapes {

struct ShapeEnvStats;

enum class SolverAnswer { Sat, Unsat, Unknown };

/// One satisfiability question: is (ranges ∧ hard ∧ tracked) satisfiable?
struct SolverQuery {
  std::vector<Expr> hard;     ///< asserted as is
  std::vector<Expr> tracked;  ///< asserted under assumption literals; an unsat core names them
  /// Range of each symbol to assume (index = symbol); an empty vector assumes none.
  std::vector<ValueRange> ranges;
  /// Symbols whose model values are returned on Sat.
  std::vector<uint32_t> modelSyms;
};

struct SolverResult {
  SolverAnswer answer = SolverAnswer::Unknown;
  std::vector<int64_t> model;  ///< one per modelSyms, on Sat
  std::vector<size_t> core;    ///< indices into tracked, on Unsat
};

/// Every query runs under Z3's deterministic rlimit (never a wall-clock timeout, see
/// docs/shapes.md "Solver policy"). Unknown is reported as such and never as proved.
class Solver {
 public:
  /// stats may be null. The expressions given must outlive the Solver (translation cache).
  Solver(uint32_t rlimit, ShapeEnvStats* stats);
  ~Solver();
  void setRlimit(uint32_t rlimit) { rlimit_ = rlimit; }

  SolverResult check(const SolverQuery& q);
  /// For each candidate i (in order), whether it is implied by `hard`, the ranges and the
  /// candidates still kept (greedy: an implied candidate is dropped before the next is tried).
  /// Unknown counts as not implied.
  std::vector<bool> implied(std::span<const Expr> candidates, std::span<const Expr> hard,
                            const std::vector<ValueRange>& ranges);
  /// The largest value of e under hard and ranges, or nullopt (unbounded / unknown).
  /// lo must be a value e can take (a hint) and hi a sound upper bound (may be kPosInf).
  std::optional<int64_t> maximize(Expr e, std::span<const Expr> hard,
                                  const std::vector<ValueRange>& ranges, int64_t lo, int64_t hi);

  struct Impl;  ///< the Z3 context and translation cache (solver.cpp only)

 private:
  Impl& impl();
  std::unique_ptr<Impl> impl_;
  uint32_t rlimit_;
  ShapeEnvStats* stats_;
};

}  // namespace tessel::shapes
