// Limits and robustness of the language core: interrupting a running script, deep recursion on
// small native stacks, deeply nested and very long expressions, and random input that must only
// ever produce ScriptErrors.
#include <gtest/gtest.h>
#include <pthread.h>

#include <chrono>
#include <functional>
#include <random>
#include <sstream>
#include <thread>

#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/syntax/parser.h"

using namespace tessel;
using interp::Interpreter;
using interp::ScriptError;

namespace {

// Runs `text` and returns the error it raised (kind None when it succeeded).
struct Outcome {
  bool failed = false;
  ErrorKind kind = ErrorKind::SyntaxError;
  std::string diagnostic;
  std::string output;
};

Outcome run(Interpreter& interp, const std::string& text) {
  Outcome o;
  std::ostringstream out;
  interp.setOutput(&out);
  try {
    interp.runSource("<test>", text);
  } catch (const ScriptError& e) {
    o.failed = true;
    o.kind = e.kind();
    o.diagnostic = interp::formatDiagnostic(e, interp.sources());
  }
  o.output = out.str();
  return o;
}

Outcome run(const std::string& text) {
  Interpreter interp;
  return run(interp, text);
}

// Runs `body` on a new thread with a native stack of `bytes`, the way an embedder might.
void onThreadWithStack(size_t bytes, const std::function<void()>& body) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, bytes), 0);
  pthread_t thread;
  auto trampoline = [](void* p) -> void* {
    (*static_cast<const std::function<void()>*>(p))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()>*>(&body)),
            0);
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
}

TEST(Interrupt, StopsAnInfiniteLoopAndTheInterpreterKeepsWorking) {
  Interpreter interp;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    interp.interrupt();
  });
  Outcome o = run(interp, "let n = 0\nwhile true { n += 1 }\n");
  stopper.join();
  EXPECT_TRUE(o.failed);
  EXPECT_EQ(o.kind, ErrorKind::Interrupted) << o.diagnostic;
  EXPECT_NE(o.diagnostic.find("<test>:2:1: Interrupted: interrupted"), std::string::npos)
      << o.diagnostic;
  // The same interpreter runs the next input normally, and the globals survived.
  Outcome next = run(interp, "print(n > 0, 1 + 1)\n");
  EXPECT_FALSE(next.failed) << next.diagnostic;
  EXPECT_EQ(next.output, "true 2\n");
}

TEST(Interrupt, StopsRecursionAndForLoops) {
  Interpreter interp;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    interp.interrupt();
  });
  Outcome o = run(interp,
                  "fn spin(k) { for i in range(1000000000) { if i < 0 { return i } } return k }\n"
                  "spin(1)\n");
  stopper.join();
  EXPECT_EQ(o.kind, ErrorKind::Interrupted) << o.diagnostic;
  EXPECT_NE(o.diagnostic.find("in spin(), called from <test>:2:1"), std::string::npos)
      << o.diagnostic;
}

TEST(Recursion, DeepRecursionIsALimitError) {
  Outcome o = run("fn down(n) { return down(n + 1) }\ndown(0)\n");
  EXPECT_EQ(o.kind, ErrorKind::LimitError) << o.diagnostic;
  EXPECT_NE(o.diagnostic.find("maximum recursion depth exceeded"), std::string::npos);
}

TEST(Recursion, DeepRecursionOnAOneMegabyteThreadIsALimitError) {
  // The call-depth limit (10000) is far more than 1 MiB of native stack holds: the native
  // stack guard must stop it first, without a crash.
  Outcome o;
  onThreadWithStack(1 << 20, [&] { o = run("fn down(n) { return 1 + down(n + 1) }\ndown(0)\n"); });
  EXPECT_EQ(o.kind, ErrorKind::LimitError) << o.diagnostic;
  EXPECT_NE(o.diagnostic.find("native stack exhausted"), std::string::npos) << o.diagnostic;
}

TEST(Recursion, RecursionLimitLeavesTheInterpreterUsable) {
  Interpreter interp;
  Outcome o = run(interp, "fn down(n) { return down(n + 1) }\ndown(0)\n");
  EXPECT_EQ(o.kind, ErrorKind::LimitError);
  Outcome next =
      run(interp,
          "fn fib(n) { if n < 2 { return n } return fib(n - 1) + fib(n - 2) }\nprint(fib(15))\n");
  EXPECT_FALSE(next.failed) << next.diagnostic;
  EXPECT_EQ(next.output, "610\n");
}

TEST(Nesting, HundredThousandParenthesesIsALimitError) {
  std::string text = "print(" + std::string(100000, '(') + "1" + std::string(100000, ')') + ")\n";
  Outcome o = run(text);
  EXPECT_EQ(o.kind, ErrorKind::LimitError) << o.diagnostic.substr(0, 300);
  EXPECT_NE(o.diagnostic.find("nested too deeply"), std::string::npos);
}

TEST(Nesting, DeepNestingOfEveryKindIsALimitError) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  const std::string cases[] = {
      "let x = " + repeat("[", 5000) + repeat("]", 5000),
      "let x = " + repeat("-", 100000) + "1",
      "let x = " + repeat("not ", 100000) + "true",
      "let x = 2" + repeat(" ** 2", 100000),
      "let x = 1" + repeat(" if true else 1", 100000),
      repeat("if true { ", 5000) + repeat("}", 5000),
      "let f = " + repeat("fn () { return ", 3000) + "1" + repeat(" }", 3000),
  };
  for (const std::string& text : cases) {
    Outcome o;
    // On a small stack too: nesting must be refused before the parser runs out of stack.
    onThreadWithStack(1 << 20, [&] { o = run(text + "\n"); });
    EXPECT_EQ(o.kind, ErrorKind::LimitError) << text.substr(0, 40) << "\n"
                                             << o.diagnostic.substr(0, 300);
  }
}

TEST(Nesting, LongFlatExpressionsWork) {
  // 100k terms in one expression: parsed in linear time, evaluated, or refused with a
  // LimitError; never a crash.
  std::string text = "print(1";
  for (int i = 0; i < 99999; ++i) text += " + 1";
  text += ")\n";
  Outcome o = run(text);
  if (o.failed)
    EXPECT_EQ(o.kind, ErrorKind::LimitError) << o.diagnostic.substr(0, 300);
  else
    EXPECT_EQ(o.output, "100000\n");
  Outcome small;
  onThreadWithStack(1 << 20, [&] { small = run(text); });
  if (small.failed)
    EXPECT_EQ(small.kind, ErrorKind::LimitError) << small.diagnostic.substr(0, 300);
  else
    EXPECT_EQ(small.output, "100000\n");
}

TEST(Nesting, DeeplyNestedListValuesAreFreedWithoutRecursionTrouble) {
  // Freeing a 100k-deep chain of lists must not recurse 100k times (a 1 MiB stack).
  Outcome o;
  onThreadWithStack(1 << 20, [&] {
    o = run("let x = []\nfor i in range(100000) { x = [x] }\nprint(len(x))\nx = none\n");
  });
  EXPECT_FALSE(o.failed) << o.diagnostic;
  EXPECT_EQ(o.output, "1\n");
}

TEST(Fuzz, RandomTokenSoupOnlyRaisesScriptErrors) {
  const char* tokens[] = {
      "let",   "fn",       "return",
      "if",    "elif",     "else",
      "while", "for",      "in",
      "break", "continue", "and",
      "or",    "not",      "true",
      "false", "none",     "import",
      "as",    "assert",   "where",
      "x",     "y",        "f",
      "print", "len",      "range",
      "0",     "1",        "-1",
      "2.5",   "1e9",      "9223372036854775807",
      "\"s\"", "'t'",      "\"",
      "(",     ")",        "[",
      "]",     "{",        "}",
      ",",     ":",        ";",
      ".",     "...",      "->",
      "@",     "=",        "+=",
      "-=",    "*=",       "/=",
      "==",    "!=",       "<",
      "<=",    ">",        ">=",
      "+",     "-",        "*",
      "/",     "//",       "%",
      "**",    "\n",       "\n",
      " ",     "#c\n",     "$",
      "\\\n",  "\xc3\xa9", "\xff",
  };
  std::mt19937 rng(12345);
  std::uniform_int_distribution<size_t> pick(0, std::size(tokens) - 1);
  std::uniform_int_distribution<int> length(1, 40);
  Interpreter interp;
  std::ostringstream sink;
  int failures = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (int i = length(rng); i > 0; --i) {
      text += tokens[pick(rng)];
      text += ' ';
    }
    // A fresh interpreter now and then, so globals from earlier rounds do not pile up.
    if (round % 200 == 0) interp.resetMain();
    interp.setOutput(&sink);
    try {
      interp.runSource("<fuzz>", text);
    } catch (const ScriptError& e) {
      ++failures;
      std::string d = interp::formatDiagnostic(e, interp.sources());
      ASSERT_FALSE(d.empty());
    } catch (const interp::ExitRequest&) {
    } catch (const std::exception& e) {
      FAIL() << "non-script exception " << e.what() << " for input:\n" << text;
    }
  }
  EXPECT_GT(failures, 2000);  // most soups are not programs
}

TEST(Fuzz, MutatedProgramsOnlyRaiseScriptErrors) {
  const std::string program =
      "fn fib(n) { if n < 2 { return n } return fib(n - 1) + fib(n - 2) }\n"
      "let xs = [1, 2, 3]\nlet d = {\"a\": [xs, (1,)]}\n"
      "for (i, v) in enumerate(xs) { d[str(i)] = v * 2.5 }\n"
      "let s = \"a,b\".split(\",\")\nprint(fib(10), d, s, xs[1:], -xs[0] // 2)\n";
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> pos(0, program.size() - 1);
  std::uniform_int_distribution<int> ch(0, 127);
  Interpreter interp;
  std::ostringstream sink;
  interp.setOutput(&sink);
  for (int round = 0; round < 2000; ++round) {
    std::string text = program;
    for (int k = 0; k < 3; ++k) {
      size_t at = pos(rng);
      switch (round % 3) {
        case 0:
          text[at] = static_cast<char>(ch(rng));
          break;
        case 1:
          if (at < text.size()) text.erase(at, 1);
          break;
        default:
          text.insert(at, 1, program[pos(rng)]);
          break;
      }
    }
    try {
      interp.runSource("<mutant>", text);
    } catch (const ScriptError&) {
    } catch (const interp::ExitRequest&) {
    } catch (const std::exception& e) {
      FAIL() << "non-script exception " << e.what() << " for input:\n" << text;
    }
  }
}

// Found by tests/fuzz/fuzz_parser: invalid UTF-8 after an open bracket made the REPL's
// "needs more input?" check throw std::range_error out of the ANTLR input stream (the process
// aborted). It must answer "no", and the parse then reports a SyntaxError.
TEST(Fuzz, InvalidUtf8IsASyntaxErrorEvenInsideAnOpenBracket) {
  const std::string text = "let x = (1 +\n\xff\xfe\n";
  EXPECT_FALSE(interp::needsMoreInput(text));
  Interpreter interp;
  Outcome o = run(interp, text);
  EXPECT_TRUE(o.failed);
  EXPECT_EQ(o.kind, ErrorKind::SyntaxError);
  EXPECT_NE(o.diagnostic.find("not valid UTF-8"), std::string::npos) << o.diagnostic;
}

// Found by fuzz_parser under UBSan: folding `-literal` negated the most negative int a second
// time (`- -9223372036854775808`), signed overflow in the parser. It is negated at run time
// now, an OverflowError like any other.
TEST(Fuzz, NegatingTheMostNegativeIntLiteralIsAnOverflowError) {
  Interpreter interp;
  Outcome o = run(interp, "let x = - -9223372036854775808");
  EXPECT_TRUE(o.failed);
  EXPECT_EQ(o.kind, ErrorKind::OverflowError);
  Outcome ok = run(interp, "print(-9223372036854775808, - -5)");
  EXPECT_FALSE(ok.failed) << ok.diagnostic;
  EXPECT_EQ(ok.output, "-9223372036854775808 5\n");
}

}  // namespace
