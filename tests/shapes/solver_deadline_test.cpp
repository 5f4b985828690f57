// The wall-clock net under Z3's rlimit (Note [A wall-clock net under rlimit]).
#include "shapes/solver_deadline.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "shapes/shape_env.h"

namespace tessel::shapes {
namespace {

using namespace std::chrono_literals;

void count(void* n) { static_cast<std::atomic<int>*>(n)->fetch_add(1); }

TEST(SolverDeadline, FiresOnceWhenTheBudgetPasses) {
  std::atomic<int> calls{0};
  ScopedCheckDeadline d(&count, &calls, 20ms);
  auto t0 = std::chrono::steady_clock::now();
  while (calls.load() == 0 && std::chrono::steady_clock::now() - t0 < 10s)
    std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(250ms);  // past the watchdog's poll: it must not fire again
  EXPECT_EQ(calls.load(), 1);
  EXPECT_TRUE(d.fired());
}

// Budgets far above the test's own steps, so that a loaded machine cannot make them pass.
TEST(SolverDeadline, NeverFiresForACheckThatEndedInTime) {
  std::atomic<int> calls{0};
  {
    ScopedCheckDeadline d(&count, &calls, 3s);
  }
  {
    ScopedCheckDeadline d(&count, &calls, 3s);
    std::this_thread::sleep_for(10ms);
    EXPECT_FALSE(d.fired());
  }
  std::this_thread::sleep_for(300ms);  // past the watchdog's poll
  EXPECT_EQ(calls.load(), 0);
}

// After a second without checks the watchdog sleeps without a deadline; arming must wake it.
TEST(SolverDeadline, AWatchdogIdleForASecondIsWokenByTheNextCheck) {
  std::atomic<int> calls{0};
  { ScopedCheckDeadline warm(&count, &calls, 3s); }  // the thread exists and goes idle
  std::this_thread::sleep_for(1500ms);
  ScopedCheckDeadline d(&count, &calls, 20ms);
  auto t0 = std::chrono::steady_clock::now();
  while (calls.load() == 0 && std::chrono::steady_clock::now() - t0 < 10s)
    std::this_thread::sleep_for(1ms);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_TRUE(d.fired());
}

TEST(SolverDeadline, AnEarlierDeadlineArmedLaterStillFires) {
  std::atomic<int> late{0}, early{0};
  ScopedCheckDeadline slow(&count, &late, 60s);
  ScopedCheckDeadline fast(&count, &early, 10ms);
  auto t0 = std::chrono::steady_clock::now();
  while (early.load() == 0 && std::chrono::steady_clock::now() - t0 < 10s)
    std::this_thread::sleep_for(1ms);
  EXPECT_EQ(early.load(), 1);
  EXPECT_EQ(late.load(), 0);
  EXPECT_FALSE(slow.fired());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);  // the 100-ms poll, not the 60 s
}

// A forked child (gtest's "fast" death tests fork without exec) gets a watchdog of its own.
TEST(SolverDeadlineDeathTest, AForkedChildStartsItsOwnWatchdog) {
  std::atomic<int> parent{0};
  { ScopedCheckDeadline warm(&count, &parent, 3s); }  // the parent's thread exists
  GTEST_FLAG_SET(death_test_style, "fast");
  EXPECT_EXIT(
      {
        std::atomic<int> calls{0};
        ScopedCheckDeadline d(&count, &calls, 20ms);
        auto t0 = std::chrono::steady_clock::now();
        while (calls.load() == 0 && std::chrono::steady_clock::now() - t0 < 10s)
          std::this_thread::sleep_for(1ms);
        std::exit(calls.load() == 1 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(SolverDeadline, BudgetIsFarAboveWhatRlimitTakes) {
  EXPECT_EQ(wallBudgetFor(1), 500ms);
  EXPECT_EQ(wallBudgetFor(100'000), 500ms);
  EXPECT_EQ(wallBudgetFor(2'000'000), 10s);
}

// fuzz_shapes' find: Debian's Z3 4.8.12 spent 7.5 s on one QF_NIA check of this maximum at
// rlimit 100,000 (a cubic in s and s // -8 against 3 * 2^62). With the net the whole
// maxValue ends in about a second, whatever the answer (a Z3 that honours rlimit answers
// sooner, and then nothing is interrupted).
TEST(SolverDeadline, MaxValueOfACubicUnderFloorDivisionEndsInSeconds) {
  ShapeEnvConfig cfg;
  cfg.solver_rlimit = 100'000;
  ShapeEnv env(cfg);
  SymInt s = env.createSymbol("s", 9);
  SymInt q = floorDiv(s, SymInt(-8));
  SymInt t = floorDiv((q + SymInt(8)) * (q * (s - SymInt(8))), SymInt(3));
  auto t0 = std::chrono::steady_clock::now();
  std::optional<int64_t> m = env.maxValue(t);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  EXPECT_LT(ms, 6000);  // 7.5 s and more without the net; about 1 s with it
  if (m) {
    EXPECT_GE(*m, -4);  // the value at the hint (s = 9: q = -2, (6 * -2 * 1) // 3 = -4)
  }
  std::printf("maxValue: %s in %lld ms, %llu interrupted\n", m ? std::to_string(*m).c_str() : "none",
              static_cast<long long>(ms),
              static_cast<unsigned long long>(env.stats().solverInterrupts));
}

}  // namespace
}  // namespace tessel::shapes
