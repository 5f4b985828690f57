// The direct path of cache-hit calls (Note [Direct cache-hit calls]): taken for a static
// one-kernel graph with plain arguments, never when a guard, a dtype, a device, the strides or a
// global would make the generic path decide otherwise; its results equal eager ones.
#include <gtest/gtest.h>

#include <sstream>

#include "interp/compile/compiled_frame.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"

using namespace tessel;
using interp::FrameStats;

namespace {

struct Script {
  interp::Interpreter interp;
  std::ostringstream out;
  Script() { interp.setOutput(&out); }
  std::string operator()(const std::string& code) {
    out.str("");
    try {
      interp.runSource("<direct test>", code);
    } catch (const interp::ScriptError& e) {
      return "error: " + interp::formatDiagnostic(e, interp.sources());
    }
    return out.str();
  }
  const FrameStats& stats(const char* name) {
    interp::FrameObj* frame = interp::frameOf(*interp.mainModule().lookup(name));
    EXPECT_NE(frame, nullptr);
    return frame->stats;
  }
};

const char* kBody =
    "fn body(a, b, c) { return a * b + c }\n"
    "let f = compile(body)\n"
    "let a = tensor([1.0, 2.0, 3.0, 4.0])\n"
    "let b = tensor([0.5, -1.0, 2.0, 3.0])\n"
    "let c = tensor([1.0, 1.0, -2.0, 0.25])\n";

TEST(DirectCall, AStaticOneKernelGraphTakesItAfterItsFirstCall) {
  Script run;
  run(kBody);
  EXPECT_EQ(run("for i in range(5) { let r = f(a, b, c) }\n"
                "print(f(a, b, c).tolist() == body(a, b, c).tolist(), f(a, b, c).tolist())\n"),
            "true [1.5, -1.0, 4.0, 12.25]\n");
  EXPECT_EQ(run.stats("f").compiles, 1);
  EXPECT_EQ(run.stats("f").cacheHits, 6);
  EXPECT_EQ(run.stats("f").directHits, 6);  // prepared when the compiling call ran
}

TEST(DirectCall, NotTakenWhenAGuardFailsAndOlderEntriesStillServe) {
  Script run;
  run(kBody);
  // Static entries (automatic dynamic would make the second one serve both sizes).
  run("let g = compile(body, dynamic = false)\nlet r = g(a, b, c)\n");
  EXPECT_EQ(run.stats("g").directHits, 0);
  EXPECT_EQ(run("let x = ones([3])\nprint(g(x, x, x).tolist())\n"), "[2.0, 2.0, 2.0]\n");
  EXPECT_EQ(run.stats("g").compiles, 2);
  EXPECT_EQ(run.stats("g").directHits, 0);
  // Both entries now serve on the direct path, the newer one rejected by its guard first.
  EXPECT_EQ(run("print(g(a, b, c).tolist(), g(x, x, x).tolist())\n"),
            "[1.5, -1.0, 4.0, 12.25] [2.0, 2.0, 2.0]\n");
  EXPECT_EQ(run.stats("g").compiles, 2);
  EXPECT_EQ(run.stats("g").directHits, 2);
}

TEST(DirectCall, ADynamicGraphServesRepeatedSizesDirectly) {
  Script run;
  run("fn body(a, b, c) { return a * b + c }\nlet f = compile(body, dynamic = true)\n"
      "let x4 = tensor([1.0, 2.0, 3.0, 4.0])\nlet x5 = tensor([1.0, 2.0, 3.0, 4.0, 5.0])\n");
  EXPECT_EQ(run("print(f(x4, x4, x4).tolist(), f(x4, x4, x4).tolist())\n"),
            "[2.0, 6.0, 12.0, 20.0] [2.0, 6.0, 12.0, 20.0]\n");
  EXPECT_EQ(run.stats("f").directHits, 1);
  // Other sizes: the generic path serves the call and prepares for them.
  EXPECT_EQ(run("print(f(x5, x5, x5).tolist(), f(x5, x5, x5).tolist())\n"),
            "[2.0, 6.0, 12.0, 20.0, 30.0] [2.0, 6.0, 12.0, 20.0, 30.0]\n");
  EXPECT_EQ(run.stats("f").compiles, 1);
  EXPECT_EQ(run.stats("f").directHits, 2);
}

TEST(DirectCall, SizesThatChangeAtEveryCallStopPreparing) {
  Script run;
  run("fn body(a) { return a * 2.0 }\nlet f = compile(body, dynamic = true)\n");
  EXPECT_EQ(
      run("let total = 0.0\nfor i in range(2, 12) { total = total + f(ones([i])).sum().item() }\n"
          "print(total)\n"),
      "130.0\n");
  EXPECT_EQ(run.stats("f").compiles, 1);
  EXPECT_EQ(run.stats("f").directHits, 0);
  interp::FrameObj* frame = interp::frameOf(*run.interp.mainModule().lookup("f"));
  ASSERT_EQ(frame->entries.size(), 1u);
  EXPECT_TRUE(frame->entries[0]->direct.never);
}

TEST(DirectCall, ASymbolFromAnIntArgumentKeepsTheGenericPath) {
  Script run;
  run("fn body(x, n) { return x.reshape([n, -1]) }\nlet f = compile(body, dynamic = true)\n"
      "let x = ones([12])\n");
  EXPECT_EQ(run("print(f(x, 3).shape, f(x, 4).shape, f(x, 3).shape, f(x, 6).shape)\n"),
            "shape([3, 4]) shape([4, 3]) shape([3, 4]) shape([6, 2])\n");
  EXPECT_EQ(run.stats("f").compiles, 1);
  EXPECT_EQ(run.stats("f").directHits, 0);
}

TEST(DirectCall, NotTakenWhenTheDtypeChanges) {
  Script run;
  run(kBody);
  run("let r = f(a, b, c)\nlet r2 = f(a, b, c)\n");
  const int64_t before = run.stats("f").directHits;
  EXPECT_EQ(
      run("let i = tensor([1, 2, 3, 4])\nprint(f(i, i, i).tolist() == body(i, i, i).tolist(), "
          "f(i, i, i).dtype)\n"),
      "true i32\n");
  EXPECT_EQ(run.stats("f").compiles, 2);
  EXPECT_EQ(run.stats("f").directHits, before + 1);  // the i32 entry's second call
}

TEST(DirectCall, NotTakenForAnotherDevice) {
  Script run;
  run(kBody);
  run("let r = f(a, b, c)\nlet r2 = f(a, b, c)\n");
  const int64_t before = run.stats("f").directHits;
  EXPECT_EQ(run("let t = a.to(\"tpu\")\nprint(f(t, t, t).tolist())\n"), "[2.0, 6.0, 12.0, 20.0]\n");
  EXPECT_EQ(run.stats("f").directHits, before);
}

TEST(DirectCall, OtherStridesGoTheGenericWayAndArePreparedAgain) {
  Script run;
  run("fn body(a, b) { return a * b + 1.0 }\nlet f = compile(body)\n"
      "let m = tensor([[1.0, 2.0], [3.0, 4.0]])\nlet r = f(m, m)\n");
  const int64_t before = run.stats("f").directHits;
  EXPECT_EQ(run("let t = m.transpose(0, 1)\nprint(f(t, m).tolist() == body(t, m).tolist(), "
                "f(t, m).tolist())\n"),
            "true [[2.0, 7.0], [7.0, 17.0]]\n");
  EXPECT_EQ(run.stats("f").compiles, 1);
  EXPECT_EQ(run.stats("f").directHits, before + 1);  // prepared for t's strides at the first
}

TEST(DirectCall, IntGuardsAndGlobalsStillDecide) {
  Script run;
  run("let k = 2.0\nfn body(x, n) { return x * n + k }\nlet f = compile(body)\n"
      "let x = ones([4])\nlet r = f(x, 3)\nlet r2 = f(x, 3)\n");
  EXPECT_EQ(run.stats("f").directHits, 1);
  EXPECT_EQ(run("print(f(x, 5).tolist())\n"), "[7.0, 7.0, 7.0, 7.0]\n");
  EXPECT_EQ(run("k = 10.0\nprint(f(x, 3).tolist())\n"), "[13.0, 13.0, 13.0, 13.0]\n");
  EXPECT_EQ(run.stats("f").directHits, 1);
}

TEST(DirectCall, KeywordCallsAndSignaturesStillWork) {
  Script run;
  run(kBody);
  run("let r = f(a, b, c)\n");
  EXPECT_EQ(run("print(f(a, b, c = c).tolist())\n"), "[1.5, -1.0, 4.0, 12.25]\n");
  run("fn typed(x: f32[4]) { return x + x }\nlet g = compile(typed)\n"
      "let r3 = g(a)\nlet r4 = g(a)\n");
  EXPECT_EQ(run.stats("g").directHits, 1);
  EXPECT_NE(run("let bad = g(ones([5]))\n").find("error"), std::string::npos);
}

}  // namespace
