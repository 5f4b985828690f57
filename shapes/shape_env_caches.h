// Internal to shapes/: the ShapeEnv's answer caches and the set of conditions known to hold.
#pragma once

#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "shapes/expr.h"
#include "shapes/poly_bound.h"
#include "shapes/shape_env.h"

namespace tessel::shapes {

struct PairHash {
  size_t operator()(const std::pair<Expr, bool>& p) const {
    return std::hash<const void*>()(p.first) * 2 + p.second;
  }
};

struct ShapeEnv::Caches {
  /// Guards and facts (and their conjuncts): a condition found here holds.
  std::unordered_set<Expr> known;
  /// (condition, size-oblivious) -> proved outcome. Stays valid: knowledge only grows.
  std::unordered_map<std::pair<Expr, bool>, bool, PairHash> decided;
  /// (condition, size-oblivious) -> ShapeEnv version at which it was undecidable.
  std::unordered_map<std::pair<Expr, bool>, uint64_t, PairHash> undecided;
  /// expression -> (ShapeEnv version, its maximum then): planners ask for the bound of the
  /// same sizes many times (every value of shape [u0, 10]), each a solver query.
  std::unordered_map<Expr, std::pair<uint64_t, std::optional<int64_t>>> maxima;
  /// (ShapeEnv version + 1, ranges narrowed by relations then): the same for every maxValue
  /// of one version, and each costs a pass over the facts and guards.
  std::pair<uint64_t, std::vector<ValueRange>> relationRanges{0, {}};
  /// The bound each guard states (Note [Bounds on one polynomial]), one per guard so far:
  /// guards are only appended, so each is read once, not at every decision.
  std::vector<std::optional<PolyBound>> guardBounds;

  void addKnown(Expr e) {
    known.insert(e);
    if (e->kind == ExprKind::And)
      for (Expr a : e->args) addKnown(a);
  }
};

}  // namespace tessel::shapes
