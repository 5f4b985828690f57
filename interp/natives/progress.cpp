// progress() (progress.h): a native object (Note [Native objects]) that a for loop iterates,
// drawing a bar on the interpreter's error stream between items.
#include "interp/natives/progress.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>

#include "interp/values/graph_break.h"
#include "interp/eval/session.h"
#include "interp/natives/builtins.h"
#include "interp/natives/display.h"
#include "interp/values/native_args.h"
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
// terminals that isatty() misjudges). In a notebook (the interpreter's output is a RichOutput
// that updates displays, Note [Rich display]) the bar is a display of its own, replaced in
// place as on a terminal, at most ten times a second and once more at the end: Jupyter's
// display_data with a display_id, then update_display_data for it. An item only counts one
// counter down (untilCheck): on a terminal or in a display the clock is read when it reaches
// zero, every so many items (redrawDue), and in a log it reaches zero at the next tenth; and
// set_postfix keeps its values, formatting them only for a line drawn.

namespace {

using Clock = std::chrono::steady_clock;

// The line is built without printf: a plain log gets eleven lines per loop, and a loop of
// cheap steps should not notice them (docs/perf.md).
void twoDigits(std::string& out, int64_t v) {
  out += static_cast<char>('0' + v / 10 % 10);
  out += static_cast<char>('0' + v % 10);
}

void appendInt(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void appendClock(std::string& out, double seconds) {
  if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e12) {
    out += '?';
    return;
  }
  auto s = static_cast<int64_t>(seconds);
  if (s >= 3600) {
    appendInt(out, s / 3600);
    out += ':';
    twoDigits(out, s / 60 % 60);
  } else {
    twoDigits(out, s / 60);
  }
  out += ':';
  twoDigits(out, s % 60);
}

void appendFixed(std::string& out, double v, int decimals) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  out.append(buf, r.ptr);
}

void appendBar(std::string& out, double fraction, int width) {
  static const char* kEighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  int eighths = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * width * 8);
  for (int i = 0; i < eighths / 8; ++i) out += "█";
  out += kEighths[eighths % 8];
  for (int i = eighths / 8 + (eighths % 8 ? 1 : 0); i < width; ++i) out += ' ';
}

// progressLine, appended to `out`: a drawn line is built in one string, with no temporaries.
void appendProgressLine(std::string& out, const std::string& desc, int64_t done, int64_t total,
                        double seconds) {
  if (!desc.empty()) {
    out += desc;
    out += ": ";
  }
  double rate = seconds > 0 ? done / seconds : 0;
  if (total > 0) {
    double fraction = std::min(1.0, static_cast<double>(done) / total);
    int pct = static_cast<int>(fraction * 100);
    out.append(pct < 10 ? 2 : pct < 100 ? 1 : 0, ' ');
    appendInt(out, pct);
    out += "%|";
    appendBar(out, fraction, 20);
    out += "| ";
    appendInt(out, done);
    out += '/';
    appendInt(out, total);
    out += " [";
    appendClock(out, seconds);
    out += '<';
    appendClock(out, rate > 0 ? std::max<int64_t>(0, total - done) / rate : NAN);
  } else {
    appendInt(out, done);
    out += " [";
    appendClock(out, seconds);
  }
  out += ", ";
  if (rate > 0)
    appendFixed(out, rate, rate >= 100 ? 0 : 2);
  else
    out += '?';
  out += "it/s";
}

}  // namespace

std::string progressLine(const std::string& desc, int64_t done, int64_t total, double seconds,
                         const std::string& postfix) {
  std::string out;
  out.reserve(128 + desc.size() + postfix.size());
  appendProgressLine(out, desc, done, total, seconds);
  if (!postfix.empty()) {
    out += ", ";
    out += postfix;
  }
  return out + "]";
}

namespace {

struct ProgressObj : NativeObj {
  Value source;              // what progress() was given
  std::vector<Value> items;  // its items, taken when a loop starts (a range is not copied)
  int64_t count = 0;         // how many items the loop yields
  int64_t total = -1;        // the total shown; -1: count
  std::string desc;
  // set_postfix's names and values, formatted only when the line is drawn.
  std::vector<std::string> postfixNames;
  std::vector<Value> postfixValues;
  std::ostream* err = nullptr;
  // Where the bar is drawn (Note [Progress output]): redrawn in place on a terminal or in a
  // notebook's display, a line each tenth anywhere else.
  enum class Form { Terminal, Log, Display } form = Form::Log;
  RichOutput* display = nullptr;  // Form::Display's host
  std::string displayId;          // this pass's display
  // The state of one pass.
  int64_t done = 0, lastDecile = -1;
  bool started = false;
  // Items left before the next look: at the clock every `checkEvery` items on a terminal or
  // in a display, at the next tenth in a log (Note [Progress output]). An item only counts
  // this down, as tqdm's miniters: no clock, no division.
  int64_t untilCheck = 1, checkEvery = 1;
  Clock::time_point start, lastDraw, lastCheck;

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
    for (const Value& v : postfixValues) gcVisit(v, visit, ctx);
  }
  void clearRefs() override {
    source = Value();
    items.clear();
    postfixValues.clear();
    postfixNames.clear();
  }

  int64_t shownTotal() const { return total >= 0 ? total : count; }

  void begin() override {
    if (source.is(Type::Range)) {
      items.clear();
      count = source.as<RangeObj>()->size();
    } else {
      items = iterate(source, "progress()");
      count = static_cast<int64_t>(items.size());
    }
    done = 0;
    started = false;
    lastDecile = -1;
    checkEvery = 1;
    start = lastDraw = lastCheck = Clock::now();
    if (form == Form::Display) displayId = newDisplayId();
    draw();
    untilCheck = form == Form::Log ? itemsToNextDecile() : 1;
  }
  bool next(Value& item) override {
    if (started) {
      ++done;
      if (--untilCheck == 0) check();
    }
    started = true;
    if (done >= count) return false;
    if (source.is(Type::Range)) {
      auto* r = source.as<RangeObj>();
      item = Value::integer(r->start + done * r->step);
    } else {
      item = items[done];
    }
    return true;
  }
  void end(bool completed) override {
    // The last state (at 100%, or where a break or an error left the loop) stays on screen.
    if (form != Form::Log || lastDecile < decile()) draw(form == Form::Terminal ? "\n" : "");
    items.clear();
  }

  void check() {
    if (form != Form::Log) {
      if (redrawDue()) draw();  // sets untilCheck
    } else {
      draw();
      untilCheck = itemsToNextDecile();
    }
  }

  // How many more items reach the next tenth of the total (a log's next line); every item
  // when the total is 0, none after the last tenth.
  int64_t itemsToNextDecile() const {
    int64_t t = shownTotal();
    if (t <= 0) return 1;
    int64_t next = decile() + 1;
    if (next > 10) return std::numeric_limits<int64_t>::max();
    // The first count whose tenth is `next`: ceil(next * t / 10), without overflowing.
    return next * (t / 10) + (next * (t % 10) + 9) / 10 - done;
  }

  // Whether 100 ms passed since the last draw. The clock costs tens of nanoseconds, as much
  // as a loop's item: it is read about once a millisecond, every checkEvery items, that
  // number doubling while checks come faster than that and halving when they come slower.
  bool redrawDue() {
    Clock::time_point now = Clock::now();
    auto since = now - lastCheck;
    lastCheck = now;
    if (since < std::chrono::milliseconds(1) && checkEvery < (int64_t{1} << 20))
      checkEvery *= 2;
    else if (since > std::chrono::milliseconds(10) && checkEvery > 1)
      checkEvery /= 2;
    untilCheck = checkEvery;
    return now - lastDraw >= std::chrono::milliseconds(100);
  }

  int64_t decile() const {
    int64_t t = shownTotal();
    return t > 0 ? std::min<int64_t>(10, done * 10 / t) : done;
  }

  void appendPostfix(std::string& out) const;

  static std::string newDisplayId() {
    static std::atomic<int64_t> passes{0};
    return "tessel-progress-" + std::to_string(getpid()) + "-" + std::to_string(++passes);
  }

  // One write per line: stderr is unbuffered, and each write a system call.
  void draw(const char* after = "") {
    bool first = lastDecile < 0;
    lastDraw = Clock::now();
    lastDecile = decile();
    double seconds = std::chrono::duration<double>(lastDraw - start).count();
    std::string line;
    line.reserve(160 + desc.size());
    if (form == Form::Terminal) line += '\r';
    appendProgressLine(line, desc, done, shownTotal(), seconds);
    appendPostfix(line);
    line += ']';
    if (form == Form::Display) {
      display->showUpdatable(displayId, line, first);
      return;
    }
    if (form == Form::Terminal) {
      line += "\x1b[K";
      line += after;
    } else {
      line += '\n';
    }
    err->write(line.data(), static_cast<std::streamsize>(line.size()));
    err->flush();
  }
};

std::string postfixValue(const Value& v) {
  if (v.is(Type::Float)) return plot::shortNumber(v.toDouble(), 4);
  if (v.is(Type::Tensor)) {
    backends::Tensor t = hostTensor(asTensor(v));
    if (t.numel() == 1) return plot::shortNumber(t.item(), 4);
  }
  return str(v);
}

// `, name=value` for each set_postfix value, after the rate.
void ProgressObj::appendPostfix(std::string& out) const {
  for (size_t i = 0; i < postfixNames.size(); ++i) {
    out += ", ";
    out += postfixNames[i];
    out += '=';
    out += postfixValue(postfixValues[i]);
  }
}

// Called once per step of a training loop: it keeps the values (a loss tensor stays on its
// device) and formats them only when the line is drawn.
Value methodSetPostfix(Interpreter&, CallArgs& a) {
  auto* self = static_cast<ProgressObj*>(a.self.as<NativeObj>());
  if (a.positional.size() > 1 || (a.positional.size() == 1 && !a.positional[0].is(Type::Dict)))
    throwUserError(ErrorKind::TypeError,
                   "set_postfix() takes keywords (set_postfix(loss = l)) or one dict");
  size_t n = a.kwNames.size();
  if (a.positional.empty() && self->postfixNames.size() == n &&
      std::equal(a.kwNames.begin(), a.kwNames.end(), self->postfixNames.begin())) {
    for (size_t i = 0; i < n; ++i) self->postfixValues[i] = a.kwValues[i];  // the usual call
    return Value::none();
  }
  self->postfixNames.clear();
  self->postfixValues.clear();
  if (a.positional.size() == 1)
    for (const auto& [k, v] : a.positional[0].as<DictObj>()->entries) {
      self->postfixNames.push_back(k);
      self->postfixValues.push_back(v);
    }
  for (size_t i = 0; i < n; ++i) {
    self->postfixNames.push_back(a.kwNames[i]);
    self->postfixValues.push_back(a.kwValues[i]);
  }
  return Value::none();
}

NativeFn ProgressObj::method(const std::string& name) const {
  return name == "set_postfix" ? methodSetPostfix : nullptr;
}

// TESSEL_PROGRESS=tty or =plain wins; then a notebook's display, then stderr's kind.
void chooseForm(Interpreter& interp, ProgressObj& p) {
  using Form = ProgressObj::Form;
  if (const char* mode = std::getenv("TESSEL_PROGRESS")) {
    if (std::string(mode) == "tty") return void(p.form = Form::Terminal);
    if (std::string(mode) == "plain") return void(p.form = Form::Log);
  }
  auto* rich = dynamic_cast<RichOutput*>(&interp.out());
  if (rich && rich->updatesDisplays()) {
    p.form = Form::Display;
    p.display = rich;
    return;
  }
  p.form = &interp.err() == &std::cerr && isatty(STDERR_FILENO) ? Form::Terminal : Form::Log;
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
    throwUserError(
        ErrorKind::TypeError,
        "progress(): iterable must be something a for loop can iterate, not " + kindName(it));
  p->err = &interp.err();
  chooseForm(interp, *p);
  return out;
}

}  // namespace

void registerProgressBuiltins(ModuleObj& prelude) {
  defineNative(prelude, "progress", builtinProgress);
}

}  // namespace tessel::interp
