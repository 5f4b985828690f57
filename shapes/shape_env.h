// ShapeEnv: the per-compile state of symbolic shapes (symbols, hints, ranges, replacements,
// facts, guards with provenance) and the questions callers ask about it (seed 004).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shapes/source_loc.h"
#include "shapes/sym_float.h"
#include "shapes/sym_int.h"
#include "shapes/value_range.h"

namespace tessel::shapes {

struct PolyBound;  // shapes/poly_bound.h

class ExprContext;
class GuardProgram;
class Solver;

/// Knobs, mirroring the `config` module fields of compiler.md.
struct ShapeEnvConfig {
  /// Dynamic sizes with equal hints share one symbol (guarded equal). config.duck_shape.
  bool duck_shape = true;
  /// Sizes 0 and 1 become constants (guard `== hint`) and dynamic size symbols get range
  /// [2, inf]. Off when backed_size_oblivious is set.
  bool specialize_zero_one = true;
  /// Backed size symbols are treated like unbacked ones in size-oblivious decisions (never
  /// 0/1), and 0/1 hints are not specialized. config.backed_size_oblivious.
  bool backed_size_oblivious = false;
  /// Z3's deterministic resource limit per query (config.solver_rlimit). 0 disables Z3.
  uint32_t solver_rlimit = 2'000'000;
  /// Remove guards implied by the others when producing finalGuards().
  bool prune_guards = true;
};

/// How a source's size becomes a symbol (compiler.md, "Which sizes become symbols").
enum class DimDynamic : uint8_t {
  Duck,     ///< dynamic; shares a symbol with an earlier source of equal hint (duck_shape)
  Dynamic,  ///< dynamic; always its own symbol
  Static,   ///< a constant, with the guard `source == hint`
};

struct SymbolOptions {
  DimDynamic dynamic = DimDynamic::Duck;
  /// User range (mark_dynamic min/max, `where` facts). Checked at call time as guards.
  std::optional<int64_t> min, max;
  /// A size (>= 0, subject to 0/1 specialization) rather than a plain int argument.
  bool isSize = true;
  /// mark_dynamic: specialization by tracing is a ConstraintViolation (checkConstraints()).
  bool markedDynamic = false;
  /// A named dimension of a signature: one symbol over its whole range, 0 and 1 included (no
  /// 0/1 specialization), as a torch.export Dim.
  bool named = false;
};

/// Why a guard exists.
enum class GuardKind : uint8_t {
  Guard,           ///< a branch on a symbolic condition (evaluate)
  Specialization,  ///< evaluateInt / an equality that forced a value
  Static,          ///< a static source: `x.shape[0] == 10`
  Duck,            ///< duck sizing: two sources share a symbol
  Range,           ///< creation range of a symbol: `s0 >= 2`, user min/max
  Require,         ///< a shape rule's require() on backed sizes
  RuntimeAssert,   ///< check() / require() involving unbacked symbols: checked in the graph
};
const char* guardKindName(GuardKind k);

/// One guard: a boolean expression over symbols, with where it came from.
struct Guard {
  Expr expr = nullptr;  ///< canonical boolean expression (ExprNode::isBool)
  GuardKind kind = GuardKind::Guard;
  SourceLoc loc;     ///< the statement that caused it
  std::string text;  ///< user-facing text with source names: "x.shape[0] <= 30"
  /// Static/Duck guards have no expression (expr == nullptr): a Static guard checks
  /// inputs[slot] == sources()[slot].hint, a Duck guard inputs[slot] == inputs[slot2].
  int slot = -1;
  int slot2 = -1;
  /// A runtime assert's failure: the kind and message of the require() it stands for
  /// (AssertionError and "" for check()).
  ErrorKind failKind = ErrorKind::AssertionError;
  std::string failMessage = {};
  SymBool cond() const { return SymBool(expr); }
};

/// One input the guards read at call time: a tensor size or int argument.
struct Source {
  std::string name;       ///< "x.shape[0]", "n"
  int64_t hint = 0;       ///< value at this compile
  Expr symbol = nullptr;  ///< its symbol; nullptr for a static source
  uint32_t slot = 0;      ///< index into the inputs given to GuardProgram::check
};

/// Everything known about one symbol.
struct SymbolInfo {
  std::string name;             ///< "s0" / "u0"
  std::string source;           ///< first source ("x.shape[0]"); "" for unbacked
  std::optional<int64_t> hint;  ///< nullopt for unbacked
  bool unbacked = false;
  bool isSize = true;
  ValueRange range;         ///< current range; narrows as guards/facts are added
  ValueRange initialRange;  ///< range at creation (emitted as Range guards for backed)
  SymbolOptions opts;
  SourceLoc loc;  ///< where it was created
  int slot = -1;  ///< input slot of its first source; -1 for unbacked
};

/// A symbol that a guard forced to a value or another expression.
struct Replacement {
  uint32_t symbol = 0;
  Expr value = nullptr;  ///< what the symbol is replaced by (a constant: specialization)
  SourceLoc loc;         ///< the location that caused it
  std::string reason;    ///< the guard text that forced it
  int guardIndex = -1;   ///< index into guards() of that guard; -1 for updateRange
};

/// Result of asking whether the guards force a symbol to one value (mark_dynamic).
struct SpecializationCheck {
  bool forced = false;                    ///< every model of the guards has symbol == hint
  bool unknown = false;                   ///< the solver gave up (treated as not forced)
  std::optional<int64_t> counterexample;  ///< another allowed value when not forced
  std::vector<size_t> forcingGuards;      ///< indices into guards() that force it
  SourceLoc loc;                          ///< location of the first forcing guard
};

/// Counters for logs, stats() and the benchmark.
struct ShapeEnvStats {
  uint64_t evaluations = 0;      ///< evaluate/staticallyKnown calls reaching the env
  uint64_t decidedByRanges = 0;  ///< answered by canonical form or interval arithmetic
  /// asked of the guards on the same non-constant part instead of Z3 (Note [Bounds on one
  /// polynomial]), decided or left undecided
  uint64_t decidedByPolynomialBounds = 0;
  uint64_t cacheHits = 0;        ///< answered from the solver-answer cache
  uint64_t solverQueries = 0;    ///< Z3 check() calls
  uint64_t solverUnknowns = 0;   ///< Z3 answered unknown (rlimit): safe fallback taken
  /// checks stopped by the wall-clock net (Note [A wall-clock net under rlimit]); each is
  /// also an unknown
  uint64_t solverInterrupts = 0;
  uint64_t solverNanos = 0;      ///< wall time inside Z3 (encoding included)
  uint64_t guardsAdded = 0;
  uint64_t guardsPruned = 0;     ///< removed by finalGuards() as implied
  uint64_t specializations = 0;  ///< replacements with a constant
};

class ShapeEnv {
 public:
  explicit ShapeEnv(ShapeEnvConfig config = {});
  ~ShapeEnv();
  ShapeEnv(const ShapeEnv&) = delete;
  ShapeEnv& operator=(const ShapeEnv&) = delete;

  ShapeEnvConfig& config() { return config_; }
  const ShapeEnvConfig& config() const { return config_; }
  ExprContext& ctx() { return *ctx_; }

  // --- Symbols -------------------------------------------------------------------------------
  /// The size or int read from `source` with value `hint` at this compile. Returns a constant
  /// for static sources and (with specialize_zero_one) for size hints 0/1, recording the guard
  /// `source == hint`; with duck sizing, an earlier symbol with the same hint (and a Duck guard).
  /// Each call registers an input slot (sources()).
  SymInt createSymbol(std::string source, int64_t hint, SymbolOptions opts = {});
  /// A fresh unbacked symbol u0, u1, ... with no hint (data-dependent sizes, .item()). Sizes
  /// get range [0, maxValue] (maxValue defaults to unbounded).
  SymInt createUnbacked(bool isSize = true, std::optional<int64_t> maxValue = std::nullopt);
  const std::vector<Source>& sources() const { return sources_; }
  size_t numSymbols() const { return symbols_.size(); }
  const SymbolInfo& symbol(uint32_t index) const { return symbols_.at(index); }
  /// The symbol index when v is exactly one symbol.
  std::optional<uint32_t> symbolIndex(const SymInt& v) const;

  // --- Float inputs (Note [Symbolic floats] in sym_float.h) -----------------------------------
  /// A float argument that changes between calls: an input of the compiled call, read at each
  /// call; `specialized` once a program needed its value (it must then equal `hint`).
  struct FloatInput {
    std::string source;
    double hint = 0;
    bool specialized = false;
  };
  SymFloat createFloatInput(std::string source, double hint);
  const std::vector<FloatInput>& floatInputs() const { return floatInputs_; }
  std::vector<std::string> floatInputNames() const;
  /// Guards float input `index` equal to its hint (logged once).
  void specializeFloat(uint32_t index);
  /// Logs that a program needed the value of the float expression `text`.
  void noteFloatSpecialized(const std::string& text, double value);
  /// A branch's comparison of a float input with a constant (`lr == 5.0`): the entry keeps the
  /// input symbolic and serves the calls whose value gives the same outcome (PyTorch's guard
  /// on an unspecialized float). NaN never reaches one: a NaN argument is specialized.
  struct FloatGuard {
    uint32_t input = 0;
    FloatCmp cmp = FloatCmp::Eq;
    double constant = 0;
    bool outcome = false;
    std::string text;  ///< "lr != 5.0" (the outcome that held), for stats and reasons
  };
  /// The outcome of `input cmp constant` under the input's hint, recorded as a FloatGuard.
  bool guardFloatCompare(uint32_t input, FloatCmp cmp, double constant);
  const std::vector<FloatGuard>& floatGuards() const { return floatGuards_; }

  // --- Deciding conditions (cheap first: constants, replacements, intervals, cache, Z3) ------
  /// Decides c from what is known, or takes the hint and records a guard at currentSourceLoc().
  /// Unbacked and undecidable: UserError(DataDependentError).
  bool evaluate(const SymBool& c);
  /// The hint of v, guarding `v == hint` (specialization) unless v is already known.
  int64_t evaluateInt(const SymInt& v);
  /// evaluate with unbacked (and, with backed_size_oblivious, backed) size symbols assumed >= 2.
  bool evaluateSizeOblivious(const SymBool& c);
  /// Decides c with no guard; nullopt when only the hints could decide.
  std::optional<bool> staticallyKnown(const SymBool& c);
  /// See require() in sym_int.h.
  void require(const SymBool& c, ErrorKind kind, std::string_view message);
  /// Adds c as a fact and a runtime assert (check()/torch._check). A provably false c throws
  /// UserError(AssertionError, message).
  void check(const SymBool& c, std::string_view message = {});
  /// check(v >= 0).
  void checkIsSize(const SymInt& v);
  /// Narrows the range of a symbol (constrain_range); an empty result is a ConstraintViolation.
  void updateRange(uint32_t symbol, ValueRange r);

  // --- Expressions ---------------------------------------------------------------------------
  /// Applies replacements and range-based rules (e.g. mod(s, k) = s when 0 <= s < k).
  SymInt simplify(const SymInt& v);
  SymBool simplify(const SymBool& c);
  /// Interval of v under the current ranges (sound, may be wide).
  ValueRange bounds(const SymInt& v);
  /// Largest value of v under the ranges, facts and guards (for static memory): exact when
  /// the solver can tell, else a sound interval bound; nullopt when unbounded or unknown.
  std::optional<int64_t> maxValue(const SymInt& v);
  /// Text of an expression with symbols written as their sources ("x.shape[0] + 1").
  std::string sourceText(Expr e) const;

  // --- Guards --------------------------------------------------------------------------------
  /// Every guard recorded so far, in order (Range guards of creation included).
  const std::vector<Guard>& guards() const { return guards_; }
  /// Runtime asserts from check()/require() on unbacked symbols, checked in the graph.
  const std::vector<Guard>& runtimeAsserts() const { return asserts_; }
  const std::vector<Replacement>& replacements() const { return replacements_; }
  /// The guards to install: implied guards removed (intervals, then Z3 with config
  /// solver_rlimit; unknown keeps the guard), bounds on one symbol merged.
  std::vector<Guard> finalGuards();
  /// Whether the guards force `symbol` to its hint (mark_dynamic specialization detection).
  SpecializationCheck checkSpecialization(uint32_t symbol);
  /// Throws UserError(ConstraintViolation) naming the line that specialized a markedDynamic
  /// symbol, with a suggested fix.
  void checkConstraints();
  /// finalGuards() compiled into the allocation-free checker over sources().
  GuardProgram compileGuards();

  const ShapeEnvStats& stats() const { return stats_; }
  /// Receives log lines ("create_symbol s0 = 20 for x.shape[0] [2, inf] at f.dsl:3",
  /// "eval s0 <= 30 [guard added] at ...", "update_range s0 = [2, 30]"); may be empty.
  std::function<void(std::string_view)> logger;

  // Internal (used by the solver bridge and tests).
  Solver& solver();
  /// Facts the solver may assume: ranges of symbols are added separately.
  const std::vector<Expr>& facts() const { return facts_; }

 private:
  struct Caches;
  Expr applyReplacements(Expr e);
  Expr rangeSimplify(Expr e);
  ValueRange rangeOf(Expr e, bool sizeOblivious);
  std::optional<bool> decide(Expr e, bool sizeOblivious);
  std::optional<bool> decideWithSolver(Expr e, bool sizeOblivious);
  /// `settled`: the guards on e's non-constant part answered (outcome, or undecided without Z3).
  struct Decision {
    bool settled = false;
    std::optional<bool> outcome;
  };
  Decision fromSamePolynomial(Expr e);
  /// polyBound of every guard, in guards() order (cached in Caches::guardBounds).
  const std::vector<std::optional<PolyBound>>& guardBounds();
  bool refutedByPoints(Expr e);
  void recordGuard(Expr cond, GuardKind kind);
  void addFact(Expr cond);
  void narrowFrom(Expr cond, int guardIndex);
  ValueRange rangeUnder(Expr e, const std::vector<ValueRange>& ranges);
  const std::vector<ValueRange>& rangesUnderRelations();
  void narrowSymbol(uint32_t s, ValueRange r, const std::string& reason, int guardIndex);
  void addReplacement(uint32_t s, Expr value, const std::string& reason, int guardIndex);
  std::vector<ValueRange> solverRanges(bool sizeOblivious) const;
  void log(const std::string& line);

  ShapeEnvConfig config_;
  std::unique_ptr<ExprContext> ctx_;
  std::unique_ptr<Solver> solver_;
  std::vector<SymbolInfo> symbols_;
  std::vector<Source> sources_;
  std::vector<FloatInput> floatInputs_;
  std::vector<FloatGuard> floatGuards_;
  std::vector<Guard> guards_;
  std::vector<Guard> asserts_;
  std::vector<Expr> facts_;
  std::vector<Replacement> replacements_;
  std::vector<Expr> replacementMap_;  ///< per symbol: replacement expr or nullptr
  uint64_t version_ = 0;              ///< bumps when ranges/facts/guards change (cache key)
  ShapeEnvStats stats_;
  int numUnbacked_ = 0;
  int numBacked_ = 0;
  std::unique_ptr<Caches> caches_;
};

}  // namespace tessel::shapes
