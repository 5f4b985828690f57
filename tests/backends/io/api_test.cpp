// The embedding API's side of files: tessel::load / tessel::save, Options::files and
// Options::maxMemoryBytes counting what a script's load brings in.
#include <gtest/gtest.h>
#include <tessel/tessel.h>

#include "io_test_util.h"

using tessel::io_testing::ScratchDir;

namespace {

TEST(ApiFiles, SaveAndLoadTreesAndTensors) {
  ScratchDir dir;
  tessel::Value w = tessel::Tensor::fromData(std::vector<float>{1, 2, 3, 4}, {2, 2});
  tessel::Value tree = tessel::Value::list({w, tessel::Value(int64_t{5})});
  tessel::save(dir.file("t.safetensors"), tree);
  tessel::Value back = tessel::load(dir.file("t.safetensors"));
  ASSERT_TRUE(back.isList());
  EXPECT_EQ(back[1].asInt(), 5);
  std::vector<float> out(4);
  back[0].asTensor().copyTo(std::span(out));
  EXPECT_EQ(out, (std::vector<float>{1, 2, 3, 4}));
  tessel::save(dir.file("w.npy"), w);
  EXPECT_EQ(tessel::load(dir.file("w.npy")).asTensor().shape(), (std::vector<int64_t>{2, 2}));
}

TEST(ApiFiles, ErrorsAreTesselErrors) {
  ScratchDir dir;
  try {
    tessel::load(dir.file("missing.npy"));
    FAIL() << "no error";
  } catch (const tessel::Error& e) {
    EXPECT_EQ(e.kind(), "IOError");
    EXPECT_NE(e.message().find("missing.npy"), std::string::npos) << e.message();
  }
  EXPECT_THROW(tessel::load(dir.file("x.npy"), "abacus"), tessel::Error);
  EXPECT_THROW(tessel::save(dir.file("x.bin"), tessel::Value(1.0)), tessel::Error);
}

TEST(ApiFiles, ScriptsSeeTheFilePolicy) {
  ScratchDir dir;
  tessel::Options closed;
  tessel::Interpreter none(closed);
  try {
    none.run("save(\"" + dir.file("a.npy") + "\", tensor([1.0]))");
    FAIL() << "no error";
  } catch (const tessel::Error& e) {
    EXPECT_EQ(e.kind(), "IOError");
    EXPECT_NE(e.message().find("no file access"), std::string::npos) << e.message();
  }
  tessel::Options open;
  open.files = {tessel::FilePolicy::Access::ReadWrite, {dir.path().string()}};
  tessel::Interpreter vm(open);
  vm.run("save(\"" + dir.file("a.npy") + "\", tensor([1.0, 2.0]))");
  EXPECT_EQ(vm.run("load(\"" + dir.file("a.npy") + "\").sum().item()").asFloat(), 3.0);
}

TEST(ApiFiles, MaxMemoryCountsWhatLoadBringsIn) {
  ScratchDir dir;
  tessel::save(dir.file("big.npy"),
               tessel::Tensor::fromData(std::vector<float>(1 << 20), {1 << 20}));
  tessel::save(dir.file("big.safetensors"),
               tessel::Tensor::fromData(std::vector<float>(1 << 20), {1 << 20}));
  tessel::Options o;
  o.maxMemoryBytes = 1 << 20;  // a quarter of either file
  o.files = {tessel::FilePolicy::Access::ReadOnly, {dir.path().string()}};
  tessel::Interpreter vm(o);
  for (const char* name : {"big.npy", "big.safetensors"}) {
    try {
      vm.run("let x = load(\"" + dir.file(name) + "\")");
      ADD_FAILURE() << name << " loaded past the memory limit";
    } catch (const tessel::Error& e) {
      EXPECT_EQ(e.kind(), "LimitError") << name << ": " << e.what();
    }
  }
}

}  // namespace

namespace {

TEST(ApiFiles, LoadPutsTensorsOnTheDeviceAsked) {
  ScratchDir dir;
  tessel::save(dir.file("w.safetensors"),
               tessel::Value::list({tessel::Tensor::fromData(std::vector<float>{1, 2}, {2})}));
  tessel::Value v;
  try {
    v = tessel::load(dir.file("w.safetensors"), "vulkan");
  } catch (const tessel::Error& e) {
    if (e.kind() == "DeviceError") GTEST_SKIP() << "no vulkan device on this machine: " << e.what();
    throw;
  }
  EXPECT_EQ(v[0].asTensor().device(), "vulkan");
  std::vector<float> out(2);
  v[0].asTensor().copyTo(std::span(out));
  EXPECT_EQ(out, (std::vector<float>{1, 2}));
}

}  // namespace
