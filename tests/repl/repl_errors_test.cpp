// Errors at the REPL: whatever a line raises, the session reports it and goes on, an internal
// error (a failed TESSEL_ASSERT: a bug in Tessel) included.
#include <gtest/gtest.h>
#include <tessel/tessel.h>

#include "repl/repl_eval.h"
#include "shapes/user_error.h"

namespace tessel::repl {
namespace {

TEST(ReplErrors, AnInternalErrorIsReportedAndTheSessionGoesOn) {
  Interpreter vm;
  ::testing::internal::CaptureStderr();
  const bool ok = reportErrors([&] {
    vm.run("let kept = 41", kInputName);
    TESSEL_ASSERT(false, "a test of the internal-error channel");
  });
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(ok);
  EXPECT_NE(err.find("internal error (a bug in Tessel)"), std::string::npos) << err;
  EXPECT_NE(err.find("a test of the internal-error channel"), std::string::npos) << err;
  // The session is intact: what ran before the error is still there.
  ::testing::internal::CaptureStdout();
  EXPECT_TRUE(reportErrors([&] { vm.run("print(kept + 1)", kInputName); }));
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "42\n");
}

TEST(ReplErrors, AScriptCannotCatchAnInternalError) {
  // try/except catches user errors only: a bug must not be mistaken for a ValueError.
  try {
    TESSEL_ASSERT(1 + 1 == 3, "arithmetic");
    FAIL() << "no error";
  } catch (const UserError&) {
    FAIL() << "an internal error is not a UserError";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("arithmetic"), std::string::npos);
  }
}

}  // namespace
}  // namespace tessel::repl
