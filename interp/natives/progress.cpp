// progress() (progress.h): a native object (Note [Native objects]) that a for loop iterates,
// drawing a bar on the interpreter's error stream between items.
#include "interp/natives/progress.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "interp/eval/graph_break.h"
#include "interp/interpreter.h"
#include "interp/natives/builtins.h"
#include "interp/natives/native_args.h"
#include "interp/plot/figure.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/native_object.h"
#include "interp/values/printer.h"

namespace tessel::interp {

// Note [Progress output]
// On a terminal the bar is one line of stderr redrawn in place ('\r' and erase-to-end) at most
// ten times a second, so a loop of short steps spends its time on the steps, not on drawing;
// the last draw ends the line. Anywhere else (a CI log, a file, a notebook's stream) redrawing
// in place would leave every frame in the log, so a plain line is written each time another
// tenth of the total is done. TESSEL_PROGRESS=tty or =plain overrides the choice (tests, and
// terminals that isatty() misjudges). Each item costs a clock read and a compare.

namespace {

using Clock = std::chrono::steady_clock;

std::string clockText(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  auto s = static_cast<int64_t>(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  else
    std::snprintf(buf, sizeof buf, "%02lld:%02lld", static_cast<long long>(s / 60),
                  static_cast<long long>(s % 60));
  return buf;
}

std::string bar(double fraction, int width) {
  static const char* kEighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  int eighths = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * width * 8);
  std::string out;
  for (int i = 0; i < eighths / 8; ++i) out += "█";
  out += kEighths[eighths % 8];
  for (int i = eighths / 8 + (eighths % 8 ? 1 : 0); i < width; ++i) out += ' ';
  return out;
}

}  // namespace

std::string progressLine(const std::string& desc, int64_t done, int64_t total, double seconds,
                         const std::string& postfix) {
  std::string out = desc.empty() ? "" : desc + ": ";
  double rate = seconds > 0 ? done / seconds : 0;
  char rateBuf[32] = "?";
  if (rate > 0) std::snprintf(rateBuf, sizeof rateBuf, rate >= 100 ? "%.0f" : "%.2f", rate);
  std::string rateText = std::string(rateBuf) + "it/s";
  if (total > 0) {
    double fraction = std::min(1.0, static_cast<double>(done) / total);
    char pct[8];
    std::snprintf(pct, sizeof pct, "%3d%%", static_cast<int>(fraction * 100));
    double eta = rate > 0 ? std::max<int64_t>(0, total - done) / rate : NAN;
    out += std::string(pct) + "|" + bar(fraction, 20) + "| " + std::to_string(done) + "/" +
           std::to_string(total) + " [" + clockText(seconds) + "<" + clockText(eta) + ", " +
           rateText;
  } else {
    out += std::to_string(done) + " [" + clockText(seconds) + ", " + rateText;
  }
  return out + (postfix.empty() ? "" : ", " + postfix) + "]";
}

namespace {

struct ProgressObj : NativeObj {
  Value source;  // what progress() was given
  std::vector<Value> items;  // what the loop yields, taken when it starts
  int64_t total = -1;        // the total shown; -1: the number of items
  std::string desc, postfix;
  std::ostream* err = nullptr;
  bool tty = false;
  // The state of one pass.
  int64_t calls = 0, done = 0, lastDecile = -1;
  Clock::time_point start, lastDraw;

  const char* kind() const override { return "progress"; }
  std::string repr() const override {
    return "<progress" + (desc.empty() ? "" : " " + quoteString(desc)) + " " +
           std::to_string(done) + "/" + std::to_string(shownTotal()) + ">";
  }
  NativeFn method(const std::string& name) const override;
  std::vector<std::string> methodNames() const override { return {"set_postfix"}; }
  bool iterable() const override { return true; }
  void traverse(GcVisit visit, void* ctx) override {
    gcVisit(source, visit, ctx);
    for (const Value& v : items) gcVisit(v, visit, ctx);
  }
  void clearRefs() override {
    source = Value();
    items.clear();
  }

  int64_t shownTotal() const { return total >= 0 ? total : static_cast<int64_t>(items.size()); }

  void begin() override {
    items = iterate(source, "progress()");
    calls = done = 0;
    lastDecile = -1;
    start = lastDraw = Clock::now();
    draw(true);
  }
  bool next(Value& item) override {
    if (calls++ > 0) {
      ++done;
      Clock::time_point now = Clock::now();
      if (tty ? now - lastDraw >= std::chrono::milliseconds(100) : crossedDecile()) draw(false);
    }
    if (calls > static_cast<int64_t>(items.size())) return false;
    item = items[calls - 1];
    return true;
  }
  void end(bool completed) override {
    // The last state (at 100%, or where a break or an error left the loop) stays on screen.
    if (tty || lastDecile < decile()) draw(false);
    if (tty) *err << "\n";
    err->flush();
  }

  int64_t decile() const {
    int64_t t = shownTotal();
    return t > 0 ? std::min<int64_t>(10, done * 10 / t) : done;
  }
  bool crossedDecile() const { return decile() > lastDecile; }

  void draw(bool first) {
    lastDraw = Clock::now();
    lastDecile = decile();
    double seconds = std::chrono::duration<double>(lastDraw - start).count();
    std::string line = progressLine(desc, done, shownTotal(), seconds, postfix);
    if (tty)
      *err << "\r" << line << "\x1b[K";
    else
      *err << line << "\n";
    err->flush();
  }
};

std::string postfixValue(const Value& v) {
  if (v.isNumber() && v.is(Type::Float)) return plot::shortNumber(v.toDouble(), 4);
  if (v.is(Type::Tensor)) {
    backends::Tensor t = hostTensor(asTensor(v));
    if (t.numel() == 1) return plot::shortNumber(t.item(), 4);
  }
  return str(v);
}

Value methodSetPostfix(Interpreter&, CallArgs& a) {
  auto* self = static_cast<ProgressObj*>(a.self.as<NativeObj>());
  std::string text;
  auto add = [&](const std::string& k, const Value& v) {
    text += (text.empty() ? "" : ", ") + k + "=" + postfixValue(v);
  };
  if (a.positional.size() > 1 ||
      (a.positional.size() == 1 && !a.positional[0].is(Type::Dict)))
    throwUserError(ErrorKind::TypeError,
                   "set_postfix() takes keywords (set_postfix(loss = l)) or one dict");
  if (a.positional.size() == 1)
    for (const auto& [k, v] : a.positional[0].as<DictObj>()->entries) add(k, v);
  for (size_t i = 0; i < a.kwNames.size(); ++i) add(a.kwNames[i], a.kwValues[i]);
  self->postfix = std::move(text);
  return Value::none();
}

NativeFn ProgressObj::method(const std::string& name) const {
  return name == "set_postfix" ? methodSetPostfix : nullptr;
}

bool onTerminal(Interpreter& interp) {
  if (const char* mode = std::getenv("TESSEL_PROGRESS")) {
    if (std::string(mode) == "tty") return true;
    if (std::string(mode) == "plain") return false;
  }
  return &interp.err() == &std::cerr && isatty(STDERR_FILENO);
}

Value builtinProgress(Interpreter& interp, CallArgs& a) {
  graphBreak(ErrorKind::ValueError, "progress() draws on the terminal");
  ArgBinder b("progress", a, {"iterable", "total", "desc"}, 1);
  auto* p = new ProgressObj;
  Value out = Value::object(p);
  p->source = b.at(0);
  if (b.has(1) && !b.at(1).is(Type::None)) {
    p->total = b.toInt(1);
    if (p->total < 0)
      throwUserError(ErrorKind::ValueError,
                     "progress(): total must not be negative, not " + std::to_string(p->total));
  }
  if (b.has(2)) p->desc = b.toStr(2);
  // Checked now, so that progress(5) fails at the call rather than at the loop.
  const Value& it = b.at(0);
  if (!(it.is(Type::List) || it.is(Type::Tuple) || it.is(Type::Range) || it.is(Type::Dict) ||
        it.is(Type::Str) || it.is(Type::Tensor) || it.is(Type::Shape) ||
        (it.is(Type::Native) && it.as<NativeObj>()->iterable())))
    throwUserError(ErrorKind::TypeError,
                   "progress(): iterable must be something a for loop can iterate, not " +
                       kindName(it));
  p->err = &interp.err();
  p->tty = onTerminal(interp);
  return out;
}

}  // namespace

void registerProgressBuiltins(ModuleObj& prelude) {
  defineNative(prelude, "progress", builtinProgress);
}

}  // namespace tessel::interp
