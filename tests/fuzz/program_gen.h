// The program generator of fuzz_compile_diff: fuzzer bytes -> a small shape-heavy Tessel
// function f(x, y, n, s), its compiled twin cf, and the inputs of a few calls. Statements come
// from a menu; the generator tracks each tensor variable's rank and dtype so that most programs
// are well typed, while some still fail (a shape mismatch, an empty reduction, an integer
// division by zero): those must fail the same way compiled and eager. It also tracks which
// values have data-dependent sizes (nonzero, masked_select, ...) and never broadcasts one
// against another value: shape rules treat such a size as neither 0 nor 1 (compiler.md), so
// where it is 1 at run time compiled code raises a ShapeError that eager code, broadcasting,
// does not; the spec asks for that divergence, and it is no finding.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

class ProgramGen {
 public:
  explicit ProgramGen(FuzzedDataProvider& in) : in_(in) {}

  void generate() {
    header();
    body_ += "fn f(x, y, n, s) {\n";
    tensors_ = {{"x", xRank_, xInt_ ? Dt::I32 : Dt::F32},
                {"y", yRank(), yInt_ ? Dt::I32 : Dt::F32}};
    ints_ = {{"n", false}};
    int statements = in_.ConsumeIntegralInRange<int>(1, 8);
    for (int i = 0; i < statements && in_.remaining_bytes() > 0; ++i) statement(1);
    body_ += "  return " + result() + "\n}\n";
    body_ += "let cf = compile(f" + compileArgs_ + ")\n";
    body_ += "let __x = none\nlet __y = none\nlet __n = none\nlet __s = none\nlet __r = none\n";
    makeCalls();
  }

  const std::string& program() const { return body_; }
  const std::vector<std::string>& calls() const { return calls_; }
  std::string callsText() const {
    std::string s;
    for (const std::string& c : calls_) s += c + "\n";
    return s;
  }

 private:
  enum class Dt { F32, I32, Bool };
  struct TVar {
    std::string name;
    int rank;  ///< -1: unknown (after squeeze, a branch)
    Dt dt;
    bool dd = false;  ///< a size depends on data (unbacked when compiled)
  };
  struct IVar {
    std::string name;
    bool dd = false;  ///< computed from a data-dependent size
  };

  int pick(int n) { return in_.ConsumeIntegralInRange<int>(0, n - 1); }
  // Every variable an expression reads passes through these, which note in dd_ whether the
  // expression depends on a data-dependent size.
  const TVar& use(const TVar& t) {
    dd_ |= t.dd;
    return t;
  }
  const TVar& tensor() { return use(tensors_[pick(static_cast<int>(tensors_.size()))]); }
  // A recent tensor, more often than an old one: chains of ops build up shapes.
  const TVar& recent() {
    size_t n = tensors_.size();
    return use(in_.ConsumeBool() ? tensors_[n - 1] : tensors_[n - 1 - pick(std::min<int>(n, 3))]);
  }
  const std::string& anInt() {
    const IVar& v = ints_[pick(static_cast<int>(ints_.size()))];
    dd_ |= v.dd;
    return v.name;
  }
  std::string fresh(const char* prefix) { return prefix + std::to_string(counter_++); }
  std::string num(Dt dt, const char* i, const char* f) { return dt == Dt::F32 ? f : i; }
  // A valid dim of t, counted from the end half the time (-1 is the last); 0 or -1 for a 0-d
  // tensor, which PyTorch accepts for reductions and transposes.
  int dim(const TVar& t) {
    const int r = std::max(t.rank, 1);
    const int d = pick(r);
    return in_.ConsumeBool() ? d - r : d;
  }
  std::string intExpr() {
    const TVar& t = tensor();
    bool sized = t.rank != 0;  // unknown ranks are at least 1 more often than not
    switch (pick(6)) {
      case 0:
        return anInt();
      case 1:
        return sized ? t.name + ".shape[" + std::to_string(dim(t)) + "]" : "n";
      case 2:
        return "n + " + std::to_string(pick(3));
      case 3:
        return sized ? t.name + ".shape[0] // 2" : "n // 2";
      case 4:
        return std::to_string(pick(5));
      default:
        return anInt() + " % 3 + 1";
    }
  }

  // A float computed from sizes, ints and the float argument s (which calls set to nan, the
  // infinities, -0.0 too): symbolic under @compile (Note [Symbolic floats]).
  std::string floatExpr() {
    switch (pick(9)) {
      case 7:
        return "s";
      case 8:
        return "(s * 0.5 + float(" + intExpr() + "))";
      case 0:
        return "(float(" + intExpr() + ") * 0.5)";
      case 1:
        return "(1.0 / (abs(" + intExpr() + ") + 1))";
      case 2:
        return "(0.9 ** " + intExpr() + ")";
      case 3:
        return "math.sqrt(abs(" + intExpr() + ") + 1.0)";
      case 4:
        return "(min(" + intExpr() + ", 3) * 0.25)";
      case 5:
        return "max(float(" + intExpr() + "), 0.5)";
      default:
        return "(" + intExpr() + " / (abs(" + intExpr() + ") + 2))";
    }
  }

  void header() {
    uint8_t flags = in_.ConsumeIntegral<uint8_t>();
    const char* dyn[] = {"", ", dynamic = true", ", dynamic = false", ""};
    compileArgs_ = dyn[flags & 3];
    if (flags & 4) body_ += "config.duck_shape = false\n";
    if ((flags & 24) == 8) body_ += "config.automatic_dynamic = false\n";
    if ((flags & 24) == 16) body_ += "config.recompile_limit = 2\n";
    if ((flags & 96) == 32) body_ += "config.specialize_float = false\n";
    if ((flags & 96) == 64) body_ += "config.capture_scalar_outputs = true\n";
    if (flags & 128) {
      body_ +=
          "fn h(t, m) {\n"
          "  if t.shape[0] > m { return t[:m] }\n"
          "  return t * 2\n"
          "}\n";
      helper_ = true;
    }
    // The calls' sizes come from their own generator, seeded here: inputs usually run out of
    // bytes before the statements do, and the calls must still vary.
    callSeed_ = in_.ConsumeIntegral<uint64_t>();
    xRank_ = in_.ConsumeIntegralInRange<int>(1, 3);
    yMode_ = pick(4);
    xInt_ = pick(4) == 0;
    yInt_ = pick(4) == 0;
  }
  // y: 0 = x's shape, 1 = [x's last dim], 2 = [x's first dim, 1], 3 = its own sizes (rank 2).
  int yRank() const { return yMode_ == 0 ? xRank_ : yMode_ == 1 ? 1 : 2; }

  // One statement; may nest a block (depth limits the nesting).
  void statement(int depth) {
    std::string ind(2 * depth, ' ');
    int k = pick(depth < 3 ? 16 : 12);
    dd_ = false;
    if (k < 8) {  // a new tensor from an expression
      std::string v = fresh("v");
      TVar t = tensorExpr(k);
      body_ += ind + "let " + v + " = " + t.name + "\n";
      tensors_.push_back({v, t.rank, t.dt, dd_});
      return;
    }
    switch (k) {
      case 8: {  // an int from sizes
        std::string v = fresh("k");
        body_ += ind + "let " + v + " = " + intExpr() + " * " + std::to_string(pick(3) + 1) +
                 " + " + intExpr() + "\n";
        ints_.push_back({v, dd_});
        return;
      }
      case 9: {                   // a graph break: print() or .item()
        const TVar t = recent();  // a copy: nested statements grow tensors_
        if (pick(2)) {
          body_ += ind + "print(" + t.name + ".shape, " + intExpr() + ")\n";
        } else if (t.dt != Dt::Bool) {
          std::string v = fresh("k");
          body_ += ind + "let " + v + " = int(" + t.name + ".abs().sum().item()) % 5\n";
          ints_.push_back({v, true});  // a value read from data
        }
        return;
      }
      case 10: {                  // data-dependent sizes
        const TVar t = recent();  // a copy: nested statements grow tensors_
        if (t.dt == Dt::Bool) return;
        std::string v = fresh("v");
        if (t.dt == Dt::F32 && pick(5) == 0) {  // nms of boxes made from the data
          const std::string c = t.name + ".reshape([-1, 1])";
          body_ += ind + "let " + v + " = nms(cat([" + c + ", " + c + " * 0.5, " + c + " + 1.0, " +
                   c + " * 0.5 + 1.0], dim = 1), " + t.name + ".reshape([-1]), 0.3)\n";
          tensors_.push_back({v, 1, Dt::I32, true});
          return;
        }
        const char* forms[] = {"%s[%s > 0]", "nonzero(%s > 0)", "masked_select(%s, %s < 1)",
                               "unique(%s)",
                               // jagged ops: repeats, values and lengths from data;
                               // bincount of n values sums to n, so it is valid lengths
                               "repeat_interleave(%s, clamp(abs(%s.reshape([-1]).to(i32)), 0, 2))",
                               "bincount(clamp(abs(%s.reshape([-1]).to(i32)), 0, 7))",
                               // One entry split over two lines: the parentheses say so
                               // (clang's -Wstring-concatenation).
                               ("segment_reduce(%s.reshape([-1]).to(f32), \"max\", lengths = "
                                "bincount(clamp(abs(%s.reshape([-1]).to(i32)), 0, 3)), initial = 0.0)")};
        int f = pick(7);
        std::string e = forms[f];
        for (size_t p; (p = e.find("%s")) != std::string::npos;) e.replace(p, 2, t.name);
        body_ += ind + "let " + v + " = " + e + "\n";
        const Dt out = f == 1 || f == 5 ? Dt::I32 : f == 6 ? Dt::F32 : t.dt;
        tensors_.push_back({v, f == 1 ? 2 : 1, out, true});
        return;
      }
      case 11: {                  // a helper call (inlined by the trace)
        const TVar t = recent();  // a copy: nested statements grow tensors_
        if (!helper_ || t.rank < 1 || t.dt == Dt::Bool) return;
        std::string v = fresh("v");
        body_ += ind + "let " + v + " = h(" + t.name + ", " + intExpr() + ")\n";
        tensors_.push_back({v, t.rank, t.dt, dd_});
        return;
      }
      case 12:
      case 13: {                  // a branch on a size or an int
        const TVar t = recent();  // a copy: nested statements grow tensors_
        if (t.dt == Dt::Bool) return;
        std::string v = fresh("v");
        body_ += ind + "let " + v + " = " + t.name + "\n";
        // On a size, an int, or the float argument (a float guard; nan fails every compare).
        const char* floatConds[] = {"s > 1.0", "s == s", "s <= -0.0", "s * 2.0 < 1e30"};
        std::string cond =
            k == 12  ? t.name + ".shape[" + std::to_string(dim(t)) + "] > " + std::to_string(pick(4))
            : pick(3) ? intExpr() + " % 2 == 0"
                      : floatConds[pick(4)];
        body_ += ind + "if " + cond + " {\n";
        body_ += ind + "  " + v + " = " + keepType(t, v) + "\n";
        if (depth < 2 && pick(3) == 0) statement(depth + 1);
        body_ += ind + "} else {\n" + ind + "  " + v + " = " + keepType(t, v) + "\n" + ind + "}\n";
        tensors_.push_back({v, t.rank, t.dt, t.dd});
        return;
      }
      case 14: {                  // a loop over a size or an int
        const TVar t = recent();  // a copy: nested statements grow tensors_
        if (t.dt == Dt::Bool) return;
        std::string v = fresh("v");
        body_ += ind + "let " + v + " = " + t.name + "\n";
        std::string bound = pick(2) ? t.name + ".shape[" + std::to_string(dim(t)) + "]"
                                    : "min(" + intExpr() + ", 3)";
        std::string i = fresh("i");
        body_ += ind + "for " + i + " in range(" + bound + ") {\n";
        body_ += ind + "  " + v + " = " + keepType(t, v) + "\n";
        if (depth < 2 && pick(3) == 0) statement(depth + 1);
        body_ += ind + "}\n";
        tensors_.push_back({v, t.rank, t.dt, t.dd});
        return;
      }
      default: {                  // a while loop on sizes
        const TVar t = recent();  // a copy: nested statements grow tensors_
        if (t.dt == Dt::Bool || t.rank < 1) return;
        std::string v = fresh("v"), j = fresh("j");
        body_ += ind + "let " + v + " = " + t.name + "\n" + ind + "let " + j + " = 0\n";
        body_ += ind + "while " + j + " < " + t.name + ".shape[0] {\n";
        body_ += ind + "  " + v + " = " + v + " + " + t.name + "[" + j + "]\n";
        body_ += ind + "  " + j + " += 1\n" + ind + "}\n";
        tensors_.push_back({v, t.rank, t.dt, t.dd});
        return;
      }
    }
  }

  // An update of v (of t's rank and dtype) that keeps both.
  std::string keepType(const TVar& t, const std::string& v) {
    const char* one = t.dt == Dt::F32 ? "1.0" : "1";
    switch (pick(4)) {
      case 0:
        return v + " + " + one;
      case 1:
        return v + " * 2 - " + t.name;
      case 2:
        return "abs(" + v + ")";
      default:
        return "-" + v;
    }
  }

  // The dense-model elementwise ops on a non-bool x, kept free of NaN and overflow so
  // that eager and compiled results compare.
  TVar denseUnary(const std::string& x, int r, Dt dt) {
    switch (pick(12)) {
      case 0: return {"erf(" + x + ")", r, Dt::F32};
      case 1: return {"floor(" + x + " * 0.7)", r, Dt::F32};
      case 2: return {"round(" + x + " * 0.5) + ceil(" + x + ")", r, Dt::F32};
      case 3: return {"sign(" + x + ") * trunc(" + x + ")", r, dt};
      case 4: return {"log1p(abs(" + x + "))", r, Dt::F32};
      case 5: return {"expm1(clamp(" + x + ", -3, 3))", r, Dt::F32};
      case 6: return {"silu(" + x + ")", r, Dt::F32};
      case 7: return {"softplus(" + x + ", beta = 2.0, threshold = 3.0)", r, Dt::F32};
      case 8: return {"leaky_relu(" + x + ", 0.1)", r, Dt::F32};
      case 9: return {"elu(" + x + ")", r, Dt::F32};
      case 10: return {"isfinite(" + x + ")", r, Dt::Bool};
      default: return {"nan_to_num(" + x + ")", r, dt};
    }
  }

  // A tensor expression (its text in `name`) of one of eight families.
  TVar tensorExpr(int family) {
    const TVar& a = recent();
    const std::string& x = a.name;
    int r = a.rank;
    Dt dt = a.dt;
    bool isF = dt == Dt::F32;
    if ((family == 3 || family == 4) && pick(5) == 0) return denseExpr(a);  // losses, reductions
    if ((family == 3 || family == 4) && pick(6) == 0) return normExpr(a);   // normalization
    if (family == 3 && r >= 2 && !a.dd && pick(6) == 0) return poolExpr(a);  // pooling
    switch (family) {
      case 0: {  // elementwise, one operand
        if (dt == Dt::Bool)
          return pick(2) ? TVar{"logical_not(" + x + ")", r, Dt::Bool}
                         : TVar{x + ".to(i32)", r, Dt::I32};
        switch (pick(11)) {
          case 10:  // the dense-model elementwise ops
            return denseUnary(x, r, dt);
          case 9:  // times a float of sizes and ints (symbolic floats)
            return {x + " * " + floatExpr(), r, Dt::F32};
          case 0:
            return {"relu(" + x + ")", r, dt};
          case 1:
            return {"abs(" + x + ") + " + num(dt, "1", "0.5"), r, dt};
          case 2:
            return {"-" + x + " * " + num(dt, "3", "1.5"), r, dt};
          case 3:
            return {"tanh(" + x + ")", r, Dt::F32};
          case 4:
            return {x + " > 0", r, Dt::Bool};
          case 5:
            return {"clamp(" + x + ", -1, 2)", r, dt};
          case 6:
            return {x + " // " + num(dt, "2", "2.0"), r, dt};
          case 7:
            return {x + " % 3", r, dt};
          default:
            return {x + ".to(" + (isF ? "i32" : "f32") + ")", r, isF ? Dt::I32 : Dt::F32};
        }
      }
      case 1: {  // elementwise with itself, broadcasting against its own reductions
        if (dt == Dt::Bool) return {"logical_and(" + x + ", " + x + ")", r, Dt::Bool};
        switch (pick(6)) {
          case 0:
            return {x + " * " + x, r, dt};
          case 1:
            return {x + " - " + x + ".mean()", r, Dt::F32};
          case 2:
            if (r < 1) break;
            return {x + " * " + x + ".sum(dim = " + std::to_string(dim(a)) + ", keepdim = true)", r,
                    dt};
          case 3:
            return {"where(" + x + " > 0, " + x + ", " + x + " * 0)", r, dt};
          case 4:
            if (r < 1) break;
            return {x + " + " + x + "[0]", r, dt};
          default:
            return {"maximum(" + x + ", " + x + " * 0 + 1)", r, dt};
        }
        return {x + " + " + x, r, dt};
      }
      case 2: {  // two variables (may not broadcast: then both must fail alike)
        const TVar& b = tensor();
        if (a.dd || b.dd) return {x + " + " + x, r, dt};  // see the file comment
        if (dt == Dt::Bool || b.dt == Dt::Bool) return {x + " == " + x, r, Dt::Bool};
        int rr = r < 0 || b.rank < 0 ? -1 : std::max(r, b.rank);
        Dt d = dt == Dt::F32 || b.dt == Dt::F32 ? Dt::F32 : Dt::I32;
        switch (pick(4)) {
          case 0:
            return {x + " + " + b.name, rr, d};
          case 1:
            return {x + " * " + b.name, rr, d};
          case 2:
            return {"maximum(" + x + ", " + b.name + ")", rr, d};
          default:
            return {x + " // " + b.name, rr, d};  // i32 // 0 is a ZeroDivisionError
        }
      }
      case 3: {  // reductions and scans
        if (r == 0 && dt != Dt::Bool) {  // a 0-d tensor's dim is 0 or -1
          const std::string d = std::to_string(dim(a));
          switch (pick(6)) {
            case 0: return {x + ".sum(dim = " + d + ")", 0, dt};
            case 1: return {"amax(" + x + ", " + d + ")", 0, dt};
            case 2: return {x + ".max(dim = " + d + ")[0]", 0, dt};
            case 3: return {x + ".argmax(dim = " + d + ")", 0, Dt::I32};
            case 4: return {"transpose(" + x + ", " + d + ", -1)", 0, dt};
            default: return {"topk(" + x + ", " + std::to_string(pick(2)) + ", dim = " + d + ")[0]", 0, dt};
          }
        }
        if (r < 1 || dt == Dt::Bool) return {x + ".sum()", 0, dt == Dt::Bool ? Dt::I32 : dt};
        std::string d = std::to_string(dim(a));
        const std::string sz = x + ".shape[" + d + "]";
        // (Not `% size`: an integer `% 0` on an empty tensor raises eagerly but not compiled,
        // a divergence of its own; clamp keeps every index in range.)
        const std::string dataIdx = "clamp(abs(" + x + ".to(i32)), 0, " + sz + " - 1)";
        switch (pick(16)) {
          case 12:  // sorting along a dim: values, indices, a size expression for k
            return {"sort(" + x + ", " + d + ", descending = true)[0]", r, dt};
          case 13:
            return {"topk(" + x + ", min(2, " + sz + "), dim = " + d + ")[0]", r, dt};
          case 14:
            return {"argsort(" + x + ", dim = " + d + ")", r, Dt::I32};
          case 15:
            return {"searchsorted(sort(" + x + ".reshape([-1]))[0], " + x + ")", r, Dt::I32};
          case 9:  // writes along a dim, indices from the data and from sizes
            return {"scatter_add(" + x + ", " + d + ", " + dataIdx + ", " + x + ")", r, dt};
          case 10:
            return {"index_add(" + x + ", " + d + ", clamp(arange(" + sz + ") * 2 - 1, 0, " + sz +
                        " - 1), " + x + ")",
                    r, dt};
          case 11:
            return {"scatter_reduce(" + x + ", " + d + ", " + dataIdx + ", " + x +
                        ", \"amax\", include_self = false)",
                    r, dt};
          case 6:  // scans along a dim: same shape, symbolic sizes kept
            return {"cumsum(" + x + ", " + d + ")", r, dt};
          case 7:
            return {x + ".cumprod(dim = -1)", r, dt};
          case 8:
            return {"diff(" + x + ", dim = " + d + ")", r, dt};
          case 0:
            return {x + ".sum(dim = " + d + ")", r - 1, dt};
          case 1:
            return {x + ".mean(dim = " + d + ", keepdim = true)", r, Dt::F32};
          case 2:
            return {x + ".max(dim = " + d + ")[0]", r - 1, dt};
          case 3:
            return {x + ".argmax(dim = " + d + ")", r - 1, Dt::I32};
          case 4:
            return {"(" + x + " > 0).any(dim = " + d + ")", r - 1, Dt::Bool};
          default:
            return {x + ".sum(dim = " + d + ", keepdim = true)", r, dt};
        }
      }
      case 4: {  // reshape, views, layout
        if (r < 0) return {x + ".reshape([-1])", 1, dt};
        switch (pick(8)) {
          case 0:
            return {x + ".reshape([-1])", 1, dt};
          case 1:
            if (r < 1) break;
            return {x + ".reshape([" + x + ".shape[0], -1])", 2, dt};
          case 2:
            if (r < 2) break;
            return {"transpose(" + x + ", 0, " + std::to_string(r - 1) + ")", r, dt};
          case 3:
            if (r > 3) break;
            return {"unsqueeze(" + x + ", " + std::to_string(pick(r + 1)) + ")", r + 1, dt};
          case 4:
            return {"squeeze(" + x + ")", -1, dt};
          case 5:
            if (r < 1) break;
            return {"expand(" + x + ".sum(dim = 0, keepdim = true), " + x + ".shape)", r, dt};
          case 6:
            if (r < 2) break;
            return {"flatten(" + x + ", 1)", 2, dt};
          default:
            if (r != 2) break;
            return {x + ".T", 2, dt};
        }
        return {x + ".reshape([-1])", 1, dt};
      }
      case 5: {  // slicing and indexing
        if (r < 1) return {x + " * 1", r, dt};
        switch (pick(8)) {
          case 0:
            return {x + "[1:]", r, dt};
          case 1:
            return {x + "[:" + intExpr() + "]", r, dt};
          case 2:
            return {x + "[::2]", r, dt};
          case 3:
            return {x + "[..., :2]", r, dt};
          case 4:
            return {x + "[0]", r - 1, dt};
          case 5:
            return {x + "[-1]", r - 1, dt};
          case 6:
            if (r < 2) break;
            return {x + "[:, 1]", r - 1, dt};
          default:
            return {x + "[" + intExpr() + ":]", r, dt};
        }
        return {x + "[1:]", r, dt};
      }
      case 6: {  // matmul and cat
        if (dt == Dt::Bool) return {"cat([" + x + ", " + x + "], 0)", r, dt};
        switch (pick(5)) {
          case 0:
            if (r != 2) break;
            return {x + " @ " + x + ".T", 2, dt};
          case 1:
            if (r != 1) break;
            return {x + " @ " + x, 0, dt};
          case 2:
            if (r != 2) break;
            return {x + " @ " + x + "[0]", 1, dt};
          case 3: {
            const TVar& b = tensor();
            if (b.dt == Dt::Bool || a.dd || b.dd) break;
            int rr = r == 2 && b.rank == 2 ? 2 : -1;
            return {x + " @ " + b.name, rr, dt == Dt::F32 || b.dt == Dt::F32 ? Dt::F32 : Dt::I32};
          }
          default: {
            if (r < 1) break;
            return {"cat([" + x + ", " + x + "], " + std::to_string(dim(a)) + ")", r, dt};
          }
        }
        if (r < 0) return {"stack([" + x + ", " + x + "])", -1, dt};
        return {"stack([" + x + ", " + x + "])", r + 1, dt};
      }
      default: {  // creation from sizes, and sampling (same seed, same draws)
        const std::string flat = x + ".to(f32).reshape([-1])";
        switch (pick(8)) {
          case 4:
            return {"randperm(" + intExpr() + ")", 1, Dt::I32};
          case 5:
            return {"bernoulli(sigmoid(" + x + ".to(f32)))", r, Dt::F32};
          case 6:  // without replacement: at most as many draws as (all nonzero) categories
            return {"multinomial(abs(" + flat + ") + 0.5, min(" + intExpr() + ", " + flat +
                        ".shape[0]))",
                    1, Dt::I32};
          case 7:
            if (r == 2)
              return {"multinomial(sigmoid(" + x + ".to(f32)) + 0.1, " + intExpr() +
                          ", replacement = true)",
                      2, Dt::I32};
            return {"multinomial(abs(" + flat + ") + 0.5, " + intExpr() + ", replacement = true)",
                    1, Dt::I32};
          case 0:
            return {"zeros([" + intExpr() + ", 2])", 2, Dt::F32};
          case 1:
            return {"full([" + intExpr() + "], 1.5)", 1, Dt::F32};
          case 2:
            return {"arange(" + intExpr() + ")", 1, Dt::I32};
          default:
            return {"ones([" + intExpr() + ", " + intExpr() + "]) * " + x + ".sum()", 2,
                    dt == Dt::I32 ? Dt::I32 : Dt::F32};
        }
      }
    }
  }

  // --- normalization, one_hot, creation, einsum, amax (composites) ---
  TVar normExpr(const TVar& a) {
    const std::string& x = a.name;
    const int r = a.rank;
    const Dt dt = a.dt;
    // Class indices in [0, 4) of any tensor: one_hot's input.
    const std::string cls = dt == Dt::F32   ? "(" + x + " > 0.0).to(i32)"
                            : dt == Dt::I32 ? "(abs(" + x + ") % 4)"
                                            : x + ".to(i32)";
    if (r < 0) return {"one_hot(" + cls + ".reshape([-1]), 4)", 2, Dt::I32, a.dd};
    if (dt == Dt::F32 && r >= 2) {
      const std::string last = std::to_string(r - 1);
      switch (pick(5)) {
        case 0:
          return {"group_norm(" + x + ", 1, eps = 0.01)", r, dt, a.dd};
        case 1:
          return {"batch_norm(" + x + ", zeros([" + x + ".shape[1]]), ones([" + x + ".shape[1]]))",
                  r, dt, a.dd};
        case 2:
          return {"rms_norm(" + x + ", [" + x + ".shape[" + last + "]], eps = 0.01)", r, dt, a.dd};
        case 3:
          return {"einsum(\"...ij,...kj->...ik\", " + x + ", " + x + ")", r, dt, a.dd};
        default:
          break;
      }
    }
    switch (pick(6)) {
      case 0:  // the width is max + 1: an unbacked size under @compile
        return {"one_hot(cat([" + cls + ".reshape([-1]), tensor([1])]))", 2, Dt::I32, true};
      case 1:
        return {"one_hot(" + cls + ", 4)", r + 1, Dt::I32, a.dd};
      case 2:
        return {"full_like(" + x + ", 2)", r, dt, a.dd};
      case 3:
        if (r < 1) break;
        return {"linspace(-1.0, 2.0, " + x + ".shape[" + std::to_string(dim(a)) + "])", 1,
                Dt::F32, a.dd};
      case 4:
        if (dt == Dt::Bool || r < 1) break;
        return {"amax(" + x + ", [" + std::string(r > 1 ? "0, " : "") + std::to_string(r - 1) +
                    "], keepdim = true)",
                r, dt, a.dd};
      default:
        break;
    }
    if (dt == Dt::F32 && r >= 1) return {"einsum(\"i...->...\", " + x + ")", r - 1, dt, a.dd};
    if (dt == Dt::Bool) return {"logical_or(" + x + ", zeros_like(" + x + "))", r, dt, a.dd};
    return {x + " + zeros_like(" + x + ")", r, dt, a.dd};
  }

  // --- pooling and resizing of x seen as images [1, C, H, W] (H, W its last two
  // sizes, symbolic under @compile); an empty x fails alike on both sides ---
  TVar poolExpr(const TVar& a) {
    const std::string& x = a.name;
    const std::string h = x + ".shape[" + std::to_string(a.rank - 2) + "]";
    const std::string w = x + ".shape[" + std::to_string(a.rank - 1) + "]";
    const std::string img = x + ".to(f32).reshape([1, -1, " + h + ", " + w + "])";
    switch (pick(6)) {
      case 0:
        return {"max_pool2d(" + img + ", 2, 1, 1)", 4, Dt::F32};
      case 1:
        return {"max_pool2d(" + img + ", (3, 2), stride = 2, padding = (1, 0))", 4, Dt::F32};
      case 2:
        return {"avg_pool2d(" + img + ", (2, 1), padding = (1, 0), count_include_pad = false)",
                4, Dt::F32};
      case 3:
        return {"adaptive_avg_pool2d(" + img + ", (2, none))", 4, Dt::F32};
      case 4:
        return {"interpolate(" + img + ", scale_factor = 2.0, mode = \"bilinear\")", 4, Dt::F32};
      default:
        return {"interpolate(" + img + ", size = (3, " + w + " + 1))", 4, Dt::F32};
    }
  }

  // --- losses, reductions and shape utilities (composites of table ops) ---
  TVar denseExpr(const TVar& a) {
    const std::string& x = a.name;
    const int r = a.rank;
    const Dt dt = a.dt;
    const Dt prodDt = dt == Dt::F32 ? Dt::F32 : Dt::I32;
    if (r < 1) return {"prod(" + x + ")", 0, prodDt};
    const std::string d = std::to_string(dim(a));
    // conv2d / conv1d over x as one image of one channel: sizes stay symbolic; a
    // 2-wide kernel padded by 1 fits any size, so eager and compiled agree without an error.
    if (dt == Dt::F32 && r <= 2 && pick(4) == 0) {
      const std::string opts = pick(2) ? ", padding = 1, stride = 2)" : ", padding = [1], dilation = 2)";
      if (r == 2)
        return {"conv2d(" + x + ".reshape([1, 1, " + x + ".shape[0], " + x +
                    ".shape[1]]), ones([2, 1, 2, 2]) * 0.5, tensor([0.5, -1.0]), padding = 1" +
                    (pick(2) ? ", stride = [2, 1])" : ", dilation = [1, 2], groups = 1)"),
                4, dt};
      return {"conv1d(" + x + ".reshape([1, 1, " + x + ".shape[0]]), ones([3, 1, 2]) * 0.25" + opts,
              3, dt};
    }
    if (dt == Dt::F32) {
      switch (pick(12)) {
        case 0:
          return {"logsumexp(" + x + ", " + d + ")", r - 1, dt};
        case 1:
          return {x + ".var(" + d + ", correction = 0)", r - 1, dt};
        case 2:
          return {"norm(" + x + ", 2, " + d + ", keepdim = true)", r, dt};
        case 3:
          return {"std(" + x + ", [0, " + std::to_string(r - 1) + "], keepdim = true)", r, dt};
        case 4:
          return {"mse_loss(" + x + ", " + x + " * 0.5, reduction = \"none\")", r, dt};
        case 5:
          return {"smooth_l1_loss(" + x + ", " + x + " * " + x + ", reduction = \"sum\")", 0, dt};
        case 6:
          return {"binary_cross_entropy_with_logits(" + x + ", sigmoid(" + x + "))", 0, dt};
        case 7:
          return {"cross_entropy(" + x + ", softmax(" + x + ", " + (r == 1 ? "0" : "1") +
                      "), reduction = \"none\")",
                  r - 1, dt};
        case 8:  // fused attention over the last two dims: causal, T = S
          if (r < 2) break;
          return {"scaled_dot_product_attention(" + x + ", " + x + ", " + x +
                      " * 0.5, is_causal = true)",
                  r, dt};
        case 9:  // S = min(2, T) keys, an additive mask broadcast over them, a scale
          if (r < 2) break;
          return {"scaled_dot_product_attention(" + x + ", " + x + "[..., :2, :], " + x +
                      "[..., :2, :], attn_mask = " + x + "[..., :1] * 0.1, scale = 0.3)",
                  r, dt};
        default:
          break;  // the shape utilities below
      }
    }
    if (dt == Dt::Bool) return {"flip(" + x + ", [" + d + "])", r, dt};
    switch (pick(6)) {
      case 0:
        return {"prod(" + x + ", " + d + ")", r - 1, prodDt};
      case 1:
        return {"roll(" + x + ", " + std::to_string(pick(5) - 2) + ", " + d + ")", r, dt};
      case 2:
        return {"pad(" + x + ", [1, 0])", r, dt};
      case 3:
        return {x + ".repeat([" + std::string(r > 1 ? "1, " : "") + "2" +
                    (r > 2 ? std::string(", 1") : "") + "])",
                r, dt};
      case 4:
        if (a.dd) break;  // split/chunk count pieces from the size (a guard)
        return {"chunk(" + x + ", 2, " + d + ")[0]", r, dt};
      default:
        break;
    }
    return {"outer(" + x + ".reshape([-1]), " + x + ".reshape([-1])[:2])", 2, dt};
  }

  std::string result() {
    std::string r = "(";
    size_t n = tensors_.size();
    int count = in_.ConsumeIntegralInRange<int>(1, 3);
    for (int i = 0; i < count && i < static_cast<int>(n); ++i) r += tensors_[n - 1 - i].name + ", ";
    return r + ints_.back().name + ")";
  }

  // Inputs: x of rank 1-3 and y shaped after it (yMode_), n; sizes 0-6, mostly 2-5.
  int callPick(int n) {  // splitmix64
    uint64_t z = (callSeed_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<int>((z ^ (z >> 31)) % static_cast<uint64_t>(n));
  }
  void makeCalls() {
    int count = 2 + callPick(5);
    std::vector<int64_t> prev;
    for (int c = 0; c < count; ++c) {
      std::vector<int64_t> xd;
      bool repeat = !prev.empty() && callPick(4) == 0;  // the same sizes again: a cache hit
      for (int i = 0; i < xRank_; ++i) {
        int64_t s = callPick(8) == 0 ? callPick(2) : 2 + callPick(4);
        if (callPick(8) == 0) s = 6;
        xd.push_back(repeat ? prev[i] : s);
      }
      prev = xd;
      std::vector<int64_t> yd;
      if (yMode_ == 0) yd = xd;
      if (yMode_ == 1) yd = {xd.back()};
      if (yMode_ == 2) yd = {xd.front(), 1};
      if (yMode_ == 3) yd = {2 + callPick(3), 2 + callPick(3)};
      int offset = callPick(7);
      // n: a small int, rarely an extreme one (sizes from it fail alike on both sides); s: a
      // float, often a special value (every argument kind at its edges).
      const char* ns[] = {"2147483647", "-2147483648", "-1"};
      const char* ss[] = {"0.5", "2.5", "-0.0", "float(\"nan\")", "float(\"inf\")",
                          "-float(\"inf\")", "1e-30", "-3.0"};
      std::string s = "__x = " + input(xd, xInt_, offset, callPick(6)) +
                      "\n__y = " + input(yd, yInt_, offset + 2, callPick(6)) + "\n__n = " +
                      (callPick(16) == 0 ? ns[callPick(3)] : std::to_string(callPick(5))) +
                      "\n__s = " + ss[callPick(8)] + "\n";
      if (callPick(6) == 0) s += "maybe_mark_dynamic(__x, 0)\n";
      calls_.push_back(s);
    }
  }
  // An input of `dims` in one of six layouts (views reach every op): contiguous, a
  // transpose, an offset slice, every other row, a stride-0 expansion (values repeat along
  // dim 0), or contiguous with special values (nan, inf, -inf, -0.0 among the floats).
  static std::string input(const std::vector<int64_t>& dims, bool isInt, int offset,
                           int layout) {
    auto shapeText = [](const std::vector<int64_t>& d) {
      std::string t = "[";
      for (size_t i = 0; i < d.size(); ++i) t += (i ? ", " : "") + std::to_string(d[i]);
      return t + "]";
    };
    auto values = [&](const std::vector<int64_t>& d) {
      int64_t n = 1;
      for (int64_t e : d) n *= e;
      std::string v =
          "((arange(" + std::to_string(n) + ") + " + std::to_string(offset) + ") % 7 - 3)";
      if (!isInt) v = "(" + v + " * 0.5)";
      return v + ".reshape(" + shapeText(d) + ")";
    };
    std::vector<int64_t> d = dims;
    switch (dims.empty() ? 0 : layout) {
      case 1:
        if (dims.size() < 2) break;
        std::swap(d[0], d[1]);
        return "transpose(" + values(d) + ", 0, 1)";
      case 2:
        d[0] += 1;
        return values(d) + "[1:]";
      case 3:
        d[0] = std::max<int64_t>(2 * d[0] - 1, 0);
        return values(d) + "[::2]";
      case 4:
        d[0] = 1;
        return "expand(" + values(d) + ", " + shapeText(dims) + ")";
      case 5:
        if (isInt) break;
        return "where(" + values(dims) + " == 1.5, float(\"nan\"), where(" + values(dims) +
               " == -1.0, -float(\"inf\"), where(" + values(dims) + " == 0.0, -0.0, " + values(dims) +
               ")))";
      default:
        break;
    }
    return values(dims);
  }

  FuzzedDataProvider& in_;
  std::string body_;
  std::string compileArgs_;
  std::vector<std::string> calls_;
  std::vector<TVar> tensors_;
  std::vector<IVar> ints_;
  bool dd_ = false;  ///< the statement being written reads a data-dependent size
  int counter_ = 0;
  uint64_t callSeed_ = 0;
  int xRank_ = 1, yMode_ = 0;
  bool xInt_ = false, yInt_ = false, helper_ = false;
};

}  // namespace
