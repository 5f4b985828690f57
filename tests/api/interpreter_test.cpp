// tessel::Interpreter: running code, globals, calls, host functions, errors, output, limits,
// interrupt and independence across interpreters and threads.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "tests/support/process.h"
#include "tessel/tessel.h"

namespace {

using tessel::Error;
using tessel::Interpreter;
using tessel::Options;
using tessel::Tensor;
using tessel::Value;

/// Runs `body` expecting a tessel::Error and returns it.
template <class F>
Error errorOf(F&& body) {
  try {
    body();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no tessel::Error";
  return Error("", "", "", 0, 0, "");
}

/// Runs work(1) and work(k2) on two threads at once and returns their results; a failure on
/// either thread (an exception's what()) fails the test.
template <class F>
auto onTwoThreads(F work, int k2) {
  using R = decltype(work(1));
  R r1{}, r2{};
  std::string f1, f2;
  auto run = [&work](int k, R* r, std::string* failure) {
    try {
      *r = work(k);
    } catch (const std::exception& e) {
      *failure = e.what();
    }
  };
  std::thread t1(run, 1, &r1, &f1), t2(run, k2, &r2, &f2);
  t1.join();
  t2.join();
  EXPECT_EQ(f1, "");
  EXPECT_EQ(f2, "");
  return std::pair<R, R>(r1, r2);
}

Options quiet(std::string* out) {
  Options o;
  o.output = [out](std::string_view s) { out->append(s); };
  return o;
}

TEST(ApiInterpreter, RunReturnsTheFinalExpression) {
  Interpreter vm;
  EXPECT_EQ(vm.run("let a = 40\na + 2").asInt(), 42);
  EXPECT_TRUE(vm.run("let b = 1").isNone()) << "a final statement that is not an expression";
  EXPECT_EQ(vm.run("a * b").asInt(), 40) << "globals persist across runs";
}

TEST(ApiInterpreter, PrintGoesToTheOutputCallbackALineAtATime) {
  std::vector<std::string> chunks;
  Options o;
  o.output = [&](std::string_view s) { chunks.emplace_back(s); };
  Interpreter vm(o);
  vm.run("print(\"a\", 1)\nprint([2, 3])");
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0], "a 1\n");
  EXPECT_EQ(chunks[1], "[2, 3]\n");
}

TEST(ApiInterpreter, PrintToStderrGoesToTheErrorOutputCallback) {
  std::string out, err;
  Options o;
  o.output = [&](std::string_view s) { out.append(s); };
  o.errorOutput = [&](std::string_view s) { err.append(s); };
  Interpreter vm(o);
  vm.run("print(\"a\")\nprint(\"warn\", 2, file = stderr)\nstderr.write(\"raw\")");
  EXPECT_EQ(out, "a\n");
  EXPECT_EQ(err, "warn 2\nraw");
}

TEST(ApiInterpreter, ArgsAreVisibleToScripts) {
  Options o;
  o.args = {"x", "yz"};
  Interpreter vm(o);
  EXPECT_EQ(vm.run("args[1]").asString(), "yz");
}

TEST(ApiInterpreter, RunFileAndTheEmbeddedStdlib) {
  tessel::testing::ScratchDir dir;
  std::string path = dir.path() + "/model.dsl";
  std::ofstream(path) << "import nn\nlet p = nn.mlp_init([3, 4, 1])\nlen(p)\n";
  Interpreter vm;
  EXPECT_EQ(vm.runFile(path).asInt(), 2);
  Error e = errorOf([&] { vm.runFile(dir.path() + "/missing.dsl"); });
  EXPECT_EQ(e.kind(), "ImportError");
}

TEST(ApiInterpreter, GetSetAndCall) {
  Interpreter vm;
  vm.run("fn scale(x, k) { return x * k }\nlet base = 10");
  EXPECT_EQ(vm.get("base").asInt(), 10);
  vm.set("base", Value(5));
  vm.set("fresh", Value("new"));
  EXPECT_EQ(vm.run("base").asInt(), 5);
  EXPECT_EQ(vm.run("fresh").asString(), "new");
  EXPECT_EQ(vm.call("scale", {Value(3), Value(4)}).asInt(), 12);
  Value scale = vm.get("scale");
  Value args[] = {Value(2.5), Value(2)};
  EXPECT_DOUBLE_EQ(vm.call(scale, args).asFloat(), 5.0);
  EXPECT_EQ(errorOf([&] { vm.get("nope"); }).kind(), "NameError");
  EXPECT_EQ(errorOf([&] { vm.call("base", {}); }).kind(), "TypeError");
}

TEST(ApiInterpreter, ScriptErrorsCarryTheirLocationAndCaret) {
  Interpreter vm;
  Error e = errorOf([&] { vm.run("let a = 1\nlet b = a + \"x\"", "calc.dsl"); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.file(), "calc.dsl");
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 9);
  std::string what = e.what();
  EXPECT_NE(what.find("calc.dsl:2:9: TypeError: "), std::string::npos) << what;
  EXPECT_NE(what.find(" 2 | let b = a + \"x\"\n"), std::string::npos) << what;
  EXPECT_NE(what.find("^"), std::string::npos) << what;
  EXPECT_EQ(what.find(e.message()) != std::string::npos, true);
  // Still usable, state kept.
  EXPECT_EQ(vm.run("a + 1").asInt(), 2);
  Error syntax = errorOf([&] { vm.run("let = 3", "s.dsl"); });
  EXPECT_EQ(syntax.kind(), "SyntaxError");
  EXPECT_EQ(syntax.line(), 1);
}

TEST(ApiInterpreter, ErrorsInsideCalledFunctionsPointIntoTheScript) {
  Interpreter vm;
  vm.run("fn f(x) {\n  return x.missing\n}", "lib.dsl");
  Error e = errorOf([&] { vm.call("f", {Value(1)}); });
  EXPECT_EQ(e.file(), "lib.dsl");
  EXPECT_EQ(e.line(), 2);
  Error arity = errorOf([&] { vm.call("f", {}); });
  EXPECT_EQ(arity.kind(), "TypeError");
  EXPECT_NE(std::string(arity.what()).find("missing argument 'x'"), std::string::npos);
}

TEST(ApiInterpreter, HostFunctions) {
  Interpreter vm;
  vm.define("host_mul", [](std::span<const Value> a) { return Value(a[0].asInt() * a[1].asInt()); });
  int calls = 0;
  vm.define("count", [&](std::span<const Value>) {
    ++calls;
    return Value();
  });
  EXPECT_EQ(vm.run("host_mul(6, 7)").asInt(), 42);
  vm.run("for i in range(3) { count() }");
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(vm.run("type(host_mul)").asString(), "function");
  // A host function can call back into the interpreter.
  vm.run("fn inc(x) { return x + 1 }");
  vm.define("twice_inc", [&](std::span<const Value> a) {
    return vm.call("inc", {vm.call("inc", {a[0]})});
  });
  EXPECT_EQ(vm.run("twice_inc(1)").asInt(), 3);
}

TEST(ApiInterpreter, AHostFunctionThatThrowsIsAScriptErrorAtTheCall) {
  Interpreter vm;
  vm.define("boom", [](std::span<const Value>) -> Value { throw std::runtime_error("disk full"); });
  vm.define("picky", [](std::span<const Value> a) -> Value {
    throw Error("ValueError", "want a positive number", "", 0, 0, "");
  });
  vm.define("strange", [](std::span<const Value>) -> Value { throw 42; });
  Error e = errorOf([&] { vm.run("let a = 1\nlet b = a + boom()", "app.dsl"); });
  EXPECT_EQ(e.kind(), "HostError");
  EXPECT_EQ(e.message(), "boom() failed: disk full");
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 13);
  Error kinded = errorOf([&] { vm.run("picky(-1)"); });
  EXPECT_EQ(kinded.kind(), "ValueError");
  EXPECT_EQ(kinded.message(), "want a positive number");
  EXPECT_EQ(errorOf([&] { vm.run("strange()"); }).kind(), "HostError");
  EXPECT_EQ(errorOf([&] { vm.run("boom(x = 1)"); }).kind(), "TypeError");
  EXPECT_EQ(vm.run("a").asInt(), 1) << "usable after the host errors";
}

TEST(ApiInterpreter, ExitIsAnError) {
  Interpreter vm;
  Error e = errorOf([&] { vm.run("exit(3)"); });
  EXPECT_EQ(e.kind(), "SystemExit");
  EXPECT_EQ(vm.run("1").asInt(), 1);
}

TEST(ApiInterpreter, StepLimit) {
  Options o;
  o.maxSteps = 10000;
  Interpreter vm(o);
  Error e = errorOf([&] { vm.run("let n = 0\nwhile true { n = n + 1 }", "loop.dsl"); });
  EXPECT_EQ(e.kind(), "LimitError");
  EXPECT_EQ(e.line(), 2);
  EXPECT_NE(e.message().find("step limit"), std::string::npos) << e.message();
  int64_t n = vm.get("n").asInt();
  EXPECT_GT(n, 1000);
  EXPECT_LT(n, 10000);
  // Each entry gets the whole budget again; recursion counts calls.
  EXPECT_EQ(vm.run("let m = 0\nfor i in range(100) { m = m + i }\nm").asInt(), 4950);
  vm.run("fn r(k) { return r(k + 1) }");
  EXPECT_EQ(errorOf([&] { vm.call("r", {Value(0)}); }).kind(), "LimitError");
}

TEST(ApiInterpreter, CallDepthLimit) {
  Options o;
  o.maxCallDepth = 50;
  Interpreter vm(o);
  vm.run("fn down(k) { if k == 0 { return 0 }\n return down(k - 1) }");
  EXPECT_EQ(vm.call("down", {Value(40)}).asInt(), 0);
  Error e = errorOf([&] { vm.call("down", {Value(60)}); });
  EXPECT_EQ(e.kind(), "LimitError");
  EXPECT_NE(e.message().find("50 calls"), std::string::npos) << e.message();
}

TEST(ApiInterpreter, MemoryLimit) {
  Options o;
  o.maxMemoryBytes = 8 << 20;  // 8 MiB
  Interpreter vm(o);
  vm.run("let a = zeros([1024, 1024])");  // 4 MiB
  Error e = errorOf([&] { vm.run("let b = zeros([1024, 1024])\nlet c = zeros([1024, 1024])", "m.dsl"); });
  EXPECT_EQ(e.kind(), "LimitError");
  EXPECT_EQ(e.line(), 2) << "b fits (8 MiB), c does not";
  EXPECT_NE(e.message().find("memory limit"), std::string::npos) << e.message();
  // Freeing tensors gives their bytes back.
  vm.run("a = none\nb = none\nlet d = ones([1024, 1024])");
  EXPECT_DOUBLE_EQ(vm.run("d.sum().item()").asFloat(), 1024.0 * 1024.0);
  // A huge request is a LimitError, not an attempt to allocate.
  EXPECT_EQ(errorOf([&] { vm.run("zeros([1099511627776])"); }).kind(), "LimitError");
}

TEST(ApiInterpreter, InterruptFromAnotherThread) {
  Interpreter vm;
  std::atomic<bool> started{false};
  vm.define("started", [&](std::span<const Value>) {
    started = true;
    return Value();
  });
  std::thread stopper([&] {
    while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    vm.interrupt();
  });
  Error e = errorOf([&] { vm.run("started()\nlet i = 0\nwhile true { i = i + 1 }"); });
  stopper.join();
  EXPECT_EQ(e.kind(), "Interrupted");
  EXPECT_GT(vm.get("i").asInt(), 0);
  EXPECT_EQ(vm.run("i > 0").asBool(), true) << "the session goes on";
  // An interrupt while nothing runs does not stop the next run.
  vm.interrupt();
  EXPECT_EQ(vm.run("1 + 1").asInt(), 2);
}

TEST(ApiInterpreter, InterpretersAreIndependent) {
  std::string out1, out2;
  Interpreter a(quiet(&out1)), b(quiet(&out2));
  a.run("let x = 1\nconfig.recompile_limit = 2");
  b.run("let x = 2");
  EXPECT_EQ(a.get("x").asInt(), 1);
  EXPECT_EQ(b.get("x").asInt(), 2);
  EXPECT_EQ(b.run("config.recompile_limit").asInt(), 8) << "config is per interpreter";
  a.run("@compile\nfn f(t) { return (t * 2).sum() }\nf(ones([3]))\nf(ones([3]))");
  EXPECT_EQ(a.run("stats()[\"compiles\"]").asInt(), 1);
  EXPECT_EQ(b.run("stats()[\"compiles\"]").asInt(), 0) << "stats are per interpreter";
}

TEST(ApiInterpreter, TwoInterpretersOnTwoThreadsAtOnce) {
  auto [r1, r2] = onTwoThreads(
      [](int k) {
        Interpreter vm;
        vm.run(
            "@compile\nfn step(x, w) { return ((x @ w).relu() * 0.5).sum() }\n"
            "fn total(n) {\n  let s = 0.0\n"
            "  for i in range(n) { s = s + step(ones([i % 7 + 1, 4]), ones([4, 3])).item() }\n"
            "  return s\n}");
        vm.run("let k = " + std::to_string(k));
        return static_cast<int64_t>(vm.call("total", {Value(200)}).asFloat()) +
               vm.get("k").asInt();
      },
      2);
  // sum over i of rows(i) * 3 columns * 4 * 0.5, rows = i % 7 + 1.
  int64_t expected = 0;
  for (int i = 0; i < 200; ++i) expected += (i % 7 + 1) * 3 * 2;
  EXPECT_EQ(r1, expected + 1);
  EXPECT_EQ(r2, expected + 2);
}

TEST(ApiInterpreter, TwoInterpretersOnVulkanOnTwoThreads) {
  Options o;
  o.device = "vulkan";
  try {
    Interpreter probe(o);
  } catch (const Error& e) {
    GTEST_SKIP() << "no Vulkan device here (" << e.message() << ")";
  }
  auto [r1, r2] = onTwoThreads(
      [&](int k) {
        Interpreter vm(o);
        vm.run("@compile\nfn f(x) { return (x * 2.0 + 1.0).sum() }");
        double s = 0;
        for (int i = 1; i <= 20; ++i) {
          Value x = vm.run("ones([" + std::to_string(i * k) + "])");
          Tensor y = vm.call("f", {x}).asTensor();
          EXPECT_EQ(y.device(), "vulkan");
          std::vector<float> out(1);
          y.copyTo(std::span<float>(out));
          s += out[0];
        }
        return s;
      },
      3);
  EXPECT_DOUBLE_EQ(r1, 3.0 * 210);  // sum over i of 3 * i * k
  EXPECT_DOUBLE_EQ(r2, 3.0 * 210 * 3);
}

TEST(ApiInterpreter, DeviceOption) {
  Options o;
  o.device = "tpu";
  Interpreter vm(o);
  EXPECT_EQ(vm.run("str(ones([2]).device)").asString(), "tpu");
  Interpreter cpu;
  EXPECT_EQ(cpu.run("str(ones([2]).device)").asString(), "cpu");
  Options bad;
  bad.device = "gpu9";
  EXPECT_EQ(errorOf([&] { Interpreter x(bad); }).kind(), "ValueError");
}

TEST(ApiInterpreter, MovedInterpreterKeepsItsState) {
  Interpreter a;
  a.run("let v = 3");
  Interpreter b(std::move(a));
  EXPECT_EQ(b.get("v").asInt(), 3);
  a.interrupt();  // harmless on a moved-from interpreter
  EXPECT_EQ(errorOf([&] { a.run("1"); }).kind(), "ValueError");
}

}  // namespace
