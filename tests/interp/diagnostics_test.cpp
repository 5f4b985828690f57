// The rendering of errors (language.md, "Errors"): kind, file:line:col, the source line, a caret
// under the span, and the calls that led to an error raised inside functions.
#include "interp/syntax/diagnostics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "interp/interpreter.h"

using namespace tessel;

namespace {

std::string diagnosticOf(const std::string& text) {
  interp::Interpreter interp;
  std::ostringstream out;
  interp.setOutput(&out);
  try {
    interp.runSource("script.dsl", text);
  } catch (const interp::ScriptError& e) {
    return interp::formatDiagnostic(e, interp.sources());
  }
  return "";
}

TEST(Diagnostics, KindLocationSourceLineAndCaret) {
  EXPECT_EQ(diagnosticOf("let a = 1\nlet b = a + \"x\"\n"),
            "script.dsl:2:9: TypeError: unsupported operand types for +: 'int' and 'str'\n"
            " 2 | let b = a + \"x\"\n"
            "   |         ^~~~~~~\n");
}

// A 10^5-character line is not printed whole: a window around the column, cut with "...", and
// the caret under the same character as in the full line.
TEST(Diagnostics, AVeryLongLineIsShownAsAWindowAroundTheError) {
  std::string many;
  for (int i = 0; i < 10000; ++i) many += "1, ";
  const std::string diag = diagnosticOf("let a = [" + many + "nope, " + many + "1]\n");
  std::istringstream lines(diag);
  std::string head, source, caret;
  std::getline(lines, head);
  std::getline(lines, source);
  std::getline(lines, caret);
  EXPECT_EQ(head, "script.dsl:1:30010: NameError: name 'nope' is not defined");
  EXPECT_LT(source.size(), 120u);
  EXPECT_EQ(source.substr(0, 8), " 1 | ...");
  EXPECT_EQ(source.substr(source.size() - 3), "...");
  const size_t at = caret.find('^');
  ASSERT_NE(at, std::string::npos) << caret;
  EXPECT_EQ(source.substr(at, 4), "nope") << source << "\n" << caret;
  EXPECT_EQ(caret.substr(at), "^~~~");
}

TEST(Diagnostics, TracebackNamesEveryCallInnermostFirst) {
  EXPECT_EQ(diagnosticOf("fn inner(x) {\n"
                         "  return x[5]\n"
                         "}\n"
                         "fn outer(xs) { return inner(xs) }\n"
                         "outer([1, 2])\n"),
            "script.dsl:2:10: IndexError: list index 5 out of range for length 2\n"
            " 2 |   return x[5]\n"
            "   |          ^~~~\n"
            "  in inner(), called from script.dsl:4:23\n"
            "  in outer(), called from script.dsl:5:1\n");
}

TEST(Diagnostics, RecursionTracebackIsCompressed) {
  std::string d = diagnosticOf("fn down(n) {\n  return down(n + 1)\n}\ndown(0)\n");
  EXPECT_NE(d.find("script.dsl:2:10: LimitError: maximum recursion depth exceeded"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("  in down(), called from script.dsl:2:10 ("), std::string::npos) << d;
  EXPECT_NE(d.find("  in down(), called from script.dsl:4:1\n"), std::string::npos) << d;
  EXPECT_LT(std::count(d.begin(), d.end(), '\n'), 10) << d;
}

TEST(Diagnostics, ErrorsInsideLambdasAndCallbacks) {
  std::string d =
      diagnosticOf("let key = fn (v) { return v + none }\nprint(sorted([1, 2], key = key))\n");
  EXPECT_NE(d.find("script.dsl:1:27: TypeError: unsupported operand types for +: 'int' and 'none'"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("  in <lambda>(), called from script.dsl:2:7"), std::string::npos) << d;
}

// Note [Spans] (interp/eval/engine.h): a handler records its node as the error site before it
// may raise, and the statement loop attaches it. A callee's statements record sites of their
// own: none of them may be blamed for what fails after the call returned.
std::string headOf(const std::string& text) {
  std::string d = diagnosticOf(text);
  return d.substr(0, d.find('\n'));
}

// A bracket left open to the end of the input is the error, not what the parser met after it
// (Python 3.10+ reports it the same way).
TEST(Diagnostics, AnUnclosedBracketIsReportedAtTheBracket) {
  EXPECT_EQ(diagnosticOf("let x = [1, 2\nprint(x)\n"),
            "script.dsl:1:9: SyntaxError: '[' was never closed\n"
            " 1 | let x = [1, 2\n"
            "   |         ^\n");
}

TEST(Diagnostics, AnErrorAfterACallIsTheCallersNotTheCallees) {
  // The operator's span (col 9), not the callee's last expression.
  EXPECT_EQ(headOf("fn f(n) { let m = n * 2\n return m }\nlet y = f(1) + \"s\"\n"),
            "script.dsl:3:9: TypeError: unsupported operand types for +: 'int' and 'str'");
  // A native that called back into Tessel code and then failed: the native's call.
  EXPECT_EQ(headOf("fn k(v) { let w = [v]\n return w[0] }\nprint(sorted([3, \"a\"], key = k))\n"),
            "script.dsl:3:7: TypeError: '<' not supported between 'str' and 'int'");
}

TEST(Diagnostics, AStatementsOwnErrorIsTheStatements) {
  // Unpacking fails after the value was computed by a call: the let, not the callee.
  EXPECT_EQ(headOf("fn g() { let t = ones([2]) * 2\n return t.sum() }\nlet (a, b) = g()\n"),
            "script.dsl:3:1: TypeError: iteration over a 0-d tensor");
  // A loop condition's error points at the condition, also after the body ran.
  EXPECT_EQ(headOf("let i = 0\nwhile i < 2 or \"x\" + 1 {\n  i += 1\n}\n"),
            "script.dsl:2:16: TypeError: unsupported operand types for +: 'str' and 'int'");
}

TEST(Diagnostics, SyntaxErrorSaysWhatWasExpected) {
  EXPECT_EQ(diagnosticOf("let x = [1, 2]\nprint(x y)\n"),
            "script.dsl:2:9: SyntaxError: unexpected 'y', expected ')'\n"
            " 2 | print(x y)\n"
            "   |         ^\n");
  std::string d = diagnosticOf("fn f(a {\n}\n");
  EXPECT_NE(d.find("script.dsl:1:8: SyntaxError: unexpected '{'"), std::string::npos) << d;
}

TEST(Diagnostics, CaretCountsCodePoints) {
  EXPECT_EQ(diagnosticOf("let s = \"héé\" + 1\n"),
            "script.dsl:1:9: TypeError: unsupported operand types for +: 'str' and 'int'\n"
            " 1 | let s = \"héé\" + 1\n"
            "   |         ^~~~~~~~~\n");
}

TEST(Diagnostics, ErrorsInImportedModulesNameTheImport) {
  // A module that fails while it is imported: the diagnostic points into the module and
  // names the import that ran it.
  std::string path = std::string(TESSEL_SOURCE_DIR) + "/tests/scripts/lang/modules/broken.dsl";
  std::string d = diagnosticOf("import \"" + path + "\" as broken\n");
  EXPECT_NE(d.find("broken.dsl:3:"), std::string::npos) << d;
  EXPECT_NE(d.find("ZeroDivisionError: integer division by zero"), std::string::npos) << d;
  EXPECT_NE(d.find("  in import "), std::string::npos) << d;
}

}  // namespace
