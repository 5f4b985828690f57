// The file examples stay runnable: a checkpoint saved by one process gives the same
// predictions in another, and the digits example trains on the CSV from python3-sklearn.
#include <gtest/gtest.h>

#include <filesystem>

#include "io_test_util.h"

using tessel::io_testing::runTessel;
using tessel::io_testing::ScratchDir;

namespace {

const std::string kExamples = std::string(TESSEL_SOURCE_DIR) + "/examples/";

TEST(FileExamples, CheckpointGivesTheSamePredictionsInASecondProcess) {
  ScratchDir dir;
  const std::string d = dir.path().string();
  auto [rc, out] = runTessel(dir, "--allow-files " + d + " " + kExamples + "checkpoint.dsl " + d);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("saved " + d + "/mlp.safetensors"), std::string::npos) << out;
  std::tie(rc, out) =
      runTessel(dir, "--allow-files " + d + " " + kExamples + "checkpoint.dsl " + d + " check");
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("loaded epoch 200 adam step 200"), std::string::npos) << out;
  EXPECT_NE(out.find("same predictions: true"), std::string::npos) << out;
  EXPECT_NE(out.find("resumed at adam step 201"), std::string::npos) << out;
}

TEST(FileExamples, DigitsTrainsOnTheSklearnCsv) {
  const std::string csv = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz";
  if (!std::filesystem::exists(csv)) GTEST_SKIP() << "python3-sklearn is not installed: no " << csv;
  ScratchDir dir;
  auto [rc, out] = runTessel(dir, kExamples + "digits.dsl");
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("read 1797 digits of 64 pixels"), std::string::npos) << out;
  EXPECT_NE(out.find("test accuracy 0."), std::string::npos) << out;
}

}  // namespace
