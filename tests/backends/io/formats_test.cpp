// backends/io formats on their own: byte layouts, conversions, and every kind of bad input
// (truncated, lying headers, overflowing shapes) as a ValueError or IOError naming the file.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstring>

#include "backends/io/file_access.h"
#include "backends/io/npy.h"
#include "backends/io/npz.h"
#include "backends/io/safetensors.h"
#include "backends/io/text.h"
#include "io_test_util.h"
#include "shapes/user_error.h"

using namespace tessel;
using namespace tessel::backends;
using namespace tessel::backends::io;
using tessel::io_testing::readBytes;
using tessel::io_testing::ScratchDir;
using tessel::io_testing::writeBytes;

namespace {

/// The kind and message of the UserError `f` throws ("" when it throws none).
template <class F>
std::pair<std::string, std::string> errorOf(F&& f) {
  try {
    f();
  } catch (const UserError& e) {
    return {std::string(errorKindName(e.kind())), e.what()};
  }
  return {"", ""};
}

#define EXPECT_USER_ERROR(stmt, kind, text)                           \
  do {                                                                \
    auto [k_, m_] = errorOf([&] { stmt; });                           \
    EXPECT_EQ(k_, kind) << m_;                                        \
    EXPECT_NE(m_.find(text), std::string::npos) << "message: " << m_; \
  } while (0)

/// An .npy file by hand: the header dict as given, then raw bytes.
std::string npyFile(const std::string& dict, const std::string& data, int major = 1) {
  std::string header = dict;
  size_t prefix = major == 1 ? 10 : 12;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(major);
  out += char(0);
  uint32_t n = static_cast<uint32_t>(header.size());
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) out += char((n >> (8 * i)) & 0xff);
  return out + header + data;
}

template <class T>
std::string raw(std::initializer_list<T> values) {
  std::string s(values.size() * sizeof(T), '\0');
  std::memcpy(s.data(), values.begin(), s.size());
  return s;
}

Tensor readNpyBytes(const std::string& bytes) {
  MemorySource src(std::as_bytes(std::span(bytes.data(), bytes.size())), "mem.npy");
  return readNpy(src);
}

TEST(Npy, HeaderLayoutIsNumpys) {
  Tensor t = Tensor::fromData(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  std::string bytes = npyBytes(t);
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  ASSERT_EQ(bytes.size(), 128u + 24u);  // the header padded to a multiple of 64
  EXPECT_EQ(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  EXPECT_EQ(bytes.substr(10 + dict.size(), 128 - 11 - dict.size()),
            std::string(128 - 11 - dict.size(), ' '));
  EXPECT_EQ(bytes[127], '\n');
  float first;
  std::memcpy(&first, bytes.data() + 128, 4);
  EXPECT_EQ(first, 1.0f);
  EXPECT_EQ(npyHeaderFor(Tensor::fromData(std::vector<int32_t>{1, 2}, {2})).find("'<i4'") !=
                std::string::npos,
            true);
  EXPECT_NE(npyHeaderFor(Tensor::fromData(std::vector<int32_t>{1, 2}, {2})).find("(2,)"),
            std::string::npos);
  EXPECT_NE(npyHeaderFor(Tensor::scalar(1.0, DType::F32)).find("'shape': ()"), std::string::npos);
  EXPECT_NE(npyHeaderFor(Tensor::fromBools({true}, {1})).find("'|b1'"), std::string::npos);
}

TEST(Npy, EveryDtypeLoads) {
  EXPECT_EQ(readNpyBytes(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
                                 raw<double>({1.5, -INFINITY})))
                .toDoubles(),
            (std::vector<double>{1.5, -INFINITY}));
  EXPECT_EQ(readNpyBytes(npyFile("{'descr': '<f2', 'fortran_order': False, 'shape': (4,), }",
                                 raw<uint16_t>({0x3c00, 0xc000, 0x0001, 0x7c00})))
                .toDoubles(),
            (std::vector<double>{1.0, -2.0, 5.960464477539063e-08, INFINITY}));
  Tensor i64 = readNpyBytes(npyFile("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
                                    raw<int64_t>({-5, 2147483647})));
  EXPECT_EQ(i64.dtype(), DType::I32);
  EXPECT_EQ(i64.toInts(), (std::vector<int64_t>{-5, 2147483647}));
  for (const char* d : {"'|i1'", "'|u1'"})
    EXPECT_EQ(readNpyBytes(npyFile(std::string("{'descr': ") + d +
                                       ", 'fortran_order': False, 'shape': (1,), }",
                                   "\x7f"))
                  .toInts(),
              (std::vector<int64_t>{127}));
  EXPECT_EQ(readNpyBytes(npyFile("{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }",
                                 raw<uint16_t>({65535})))
                .toInts(),
            (std::vector<int64_t>{65535}));
  EXPECT_EQ(readNpyBytes(npyFile("{'descr': '<i2', 'fortran_order': False, 'shape': (1,), }",
                                 raw<int16_t>({-300})))
                .toInts(),
            (std::vector<int64_t>{-300}));
  EXPECT_EQ(readNpyBytes(npyFile("{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }",
                                 raw<uint32_t>({7})))
                .toInts(),
            (std::vector<int64_t>{7}));
  Tensor b = readNpyBytes(npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                                  std::string("\x01\x00\x02", 3)));
  EXPECT_EQ(b.dtype(), DType::Bool);
  EXPECT_EQ(b.toInts(), (std::vector<int64_t>{1, 0, 1}));
  // Big-endian, and Python 2's long sizes.
  EXPECT_EQ(readNpyBytes(npyFile("{'descr': '>i4', 'fortran_order': False, 'shape': (1L,), }",
                                 std::string("\x00\x00\x01\x02", 4)))
                .toInts(),
            (std::vector<int64_t>{258}));
  // Versions 2.0 and 3.0 have a 4-byte header length.
  EXPECT_EQ(readNpyBytes(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
                                 raw<float>({3.5f}), 3))
                .toDoubles(),
            (std::vector<double>{3.5}));
}

TEST(Npy, FortranOrderIsAView) {
  // [[1, 2, 3], [4, 5, 6]] stored column by column.
  Tensor t = readNpyBytes(npyFile("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }",
                                  raw<int32_t>({1, 4, 2, 5, 3, 6})));
  EXPECT_EQ(t.shape(), (Dims{2, 3}));
  EXPECT_EQ(t.toInts(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
}

TEST(Npy, OutOfRangeIntegersNameTheValue) {
  EXPECT_USER_ERROR(
      readNpyBytes(npyFile("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }",
                           raw<int64_t>({1, 2, 1LL << 40}))),
      "OverflowError", "the value 1099511627776 (element 2) does not fit in i32");
  EXPECT_USER_ERROR(
      readNpyBytes(npyFile("{'descr': '<u8', 'fortran_order': False, 'shape': (1,), }",
                           raw<uint64_t>({~0ULL}))),
      "OverflowError", "the value 18446744073709551615 (element 0)");
  // A finite f64 beyond f32's range would load as inf without a word.
  EXPECT_USER_ERROR(
      readNpyBytes(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
                           raw<double>({1.5, 1e300}))),
      "OverflowError", "the value 1.0000000000000001e+300 (element 1) does not fit in f32");
}

TEST(Npy, BadInputIsAValueErrorNamingTheFile) {
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  EXPECT_USER_ERROR(readNpyBytes("\x93NUMP"), "ValueError",
                    "'mem.npy' is not a valid .npy file: truncated");
  EXPECT_USER_ERROR(readNpyBytes("PK\x03\x04zzzzzzzz"), "ValueError", "does not start with");
  EXPECT_USER_ERROR(readNpyBytes(npyFile(f4, raw<float>({1, 2}))), "ValueError",
                    "truncated: the header promises 16 bytes of data, 8 are left");
  EXPECT_USER_ERROR(
      readNpyBytes(npyFile(
          "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", "")),
      "ValueError", "element count overflows");
  EXPECT_USER_ERROR(
      readNpyBytes(npyFile(
          "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", "")),
      "ValueError", "overflows");
  EXPECT_USER_ERROR(readNpyBytes(npyFile(
                        "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", "12345678")),
                    "ValueError", "the dtype '<c8' is not supported");
  EXPECT_USER_ERROR(
      readNpyBytes(
          npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "1234")),
      "ValueError", "structured dtypes");
  EXPECT_USER_ERROR(readNpyBytes(npyFile("{'descr': '<f4', 'shape': (1,), }", "1234")),
                    "ValueError", "lacks");
  EXPECT_USER_ERROR(
      readNpyBytes(npyFile("{'descr': '<f4', 'fortran_order': 1, 'shape': (1,), }", "1234")),
      "ValueError", "True or False");
  std::string lying = npyFile(f4, raw<float>({1, 2, 3, 4}));
  lying[8] = '\xff';
  lying[9] = '\xff';  // a header length past the end
  EXPECT_USER_ERROR(readNpyBytes(lying), "ValueError", "runs past the end");
  std::string v9 = npyFile(f4, raw<float>({1, 2, 3, 4}));
  v9[6] = 9;
  EXPECT_USER_ERROR(readNpyBytes(v9), "ValueError", "format version 9.0");
}

TEST(Npy, FilesRoundTripAndReplaceAtomically) {
  ScratchDir dir;
  std::string path = dir.file("a.npy");
  saveNpy(path, Tensor::fromData(std::vector<int32_t>{1, 2, 3}, {3}));
  EXPECT_EQ(loadNpy(path).toInts(), (std::vector<int64_t>{1, 2, 3}));
  saveNpy(path, Tensor::fromData(std::vector<float>{9}, {1}));
  EXPECT_EQ(loadNpy(path).toDoubles(), (std::vector<double>{9}));
  // Nothing but the file is left in the folder (no temporary file).
  int count = 0;
  for (auto& e : std::filesystem::directory_iterator(dir.path())) (void)e, ++count;
  EXPECT_EQ(count, 1);
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(
      st.st_mode & 0777, 0666 & ~[] {
        mode_t m = umask(0);
        umask(m);
        return m;
      }());
}

TEST(AtomicFile, ASaveThroughASymlinkReplacesItsTarget) {
  ScratchDir dir;
  writeBytes(dir.file("real.npy"), "old");
  std::filesystem::create_symlink(dir.file("real.npy"), dir.file("link.npy"));
  saveNpy(dir.file("link.npy"), Tensor::fromData(std::vector<float>{5}, {1}));
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.npy")));
  EXPECT_EQ(loadNpy(dir.file("real.npy")).toDoubles(), (std::vector<double>{5}));
}

TEST(AtomicFile, AnUnfinishedWriteLeavesTheOldFile) {
  ScratchDir dir;
  std::string path = dir.file("ckpt.npy");
  writeBytes(path, "old");
  {
    AtomicFile f(path);
    f.write("new and partial");
  }  // no commit: an error while serializing
  EXPECT_EQ(readBytes(path), "old");
  int count = 0;
  for (auto& e : std::filesystem::directory_iterator(dir.path())) (void)e, ++count;
  EXPECT_EQ(count, 1) << "the temporary file was not removed";
}

TEST(AtomicFile, AFullDiskLeavesTheOldFile) {
  // RLIMIT_FSIZE makes writes past the limit fail (EFBIG) as a full disk would.
  ScratchDir dir;
  std::string path = dir.file("big.npy");
  writeBytes(path, "old");
  struct rlimit old {};
  getrlimit(RLIMIT_FSIZE, &old);
  struct rlimit small = old;
  small.rlim_cur = 4096;
  auto previous = signal(SIGXFSZ, SIG_IGN);
  setrlimit(RLIMIT_FSIZE, &small);
  auto [kind, message] = errorOf([&] { saveNpy(path, Tensor::empty({100000}, DType::F32)); });
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, previous);
  EXPECT_EQ(kind, "IOError");
  EXPECT_NE(message.find("cannot write '" + path + "'"), std::string::npos) << message;
  EXPECT_EQ(readBytes(path), "old");
  int count = 0;
  for (auto& e : std::filesystem::directory_iterator(dir.path())) (void)e, ++count;
  EXPECT_EQ(count, 1);
}

TEST(Files, MissingFilesAndFoldersAreIOErrors) {
  ScratchDir dir;
  EXPECT_USER_ERROR(loadNpy(dir.file("none.npy")), "IOError", "No such file or directory");
  EXPECT_USER_ERROR(loadNpy(dir.path().string()), "IOError", "is a directory, not a file");
  EXPECT_USER_ERROR(saveNpy(dir.file("no/such/dir.npy"), Tensor::scalar(1, DType::F32)), "IOError",
                    "cannot write");
  EXPECT_USER_ERROR(saveNpy(dir.path().string(), Tensor::scalar(1, DType::F32)), "IOError",
                    "is a directory");
  EXPECT_USER_ERROR(loadNpy("/dev/null"), "IOError", "is not a regular file");
}

TEST(Files, NoPermissionIsAnIOError) {
  ScratchDir dir;
  std::string p = dir.file("secret.npy");
  saveNpy(p, Tensor::scalar(1, DType::F32));
  chmod(p.c_str(), 0);
  auto check = [&] {
    auto [kind, message] = errorOf([&] { loadNpy(p); });
    return kind == "IOError" && message.find("Permission denied") != std::string::npos;
  };
  if (geteuid() != 0) {
    EXPECT_TRUE(check());
    return;
  }
  // Root reads anything: try as nobody, in a child process.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(2);
    _exit(check() ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "(2: could not become nobody)";
}

// --- safetensors --------------------------------------------------------------------------

std::string stFile(const std::string& json, const std::string& data) {
  std::string out(8, '\0');
  uint64_t n = json.size();
  for (int i = 0; i < 8; ++i) out[i] = char((n >> (8 * i)) & 0xff);
  return out + json + data;
}

std::vector<NamedTensor> parseSt(const std::string& bytes) {
  auto span = std::as_bytes(std::span(bytes.data(), bytes.size()));
  SafetensorsHeader h = parseSafetensorsHeader(span, "mem.safetensors");
  return safetensorsTensors(h, span, nullptr, "mem.safetensors");
}

TEST(Safetensors, ByteLayoutIsThePublishedOne) {
  std::vector<NamedTensor> ts = {{"b", Tensor::fromBools({true, false, true}, {3})},
                                 {"w", Tensor::fromData(std::vector<float>{1, 2}, {2})}};
  std::vector<size_t> order;
  std::string head = safetensorsHeaderFor(ts, {{"k", "v"}}, order);
  uint64_t n = 0;
  for (int i = 8; i-- > 0;) n = (n << 8) | static_cast<unsigned char>(head[i]);
  EXPECT_EQ(n + 8, head.size());
  EXPECT_EQ(head.size() % 8, 0u);
  std::string json = head.substr(8);
  while (!json.empty() && json.back() == ' ') json.pop_back();
  // 4-byte data first so every tensor is aligned; bools after.
  EXPECT_EQ(json,
            R"({"__metadata__":{"k":"v"},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
            R"("b":{"dtype":"BOOL","shape":[3],"data_offsets":[8,11]}})");
  EXPECT_EQ(order, (std::vector<size_t>{1, 0}));
}

TEST(Safetensors, EveryDtypeLoads) {
  std::string json = R"({"a":{"dtype":"F64","shape":[1],"data_offsets":[0,8]},)"
                     R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[8,12]},)"
                     R"("c":{"dtype":"I64","shape":[1],"data_offsets":[12,20]},)"
                     R"("d":{"dtype":"U8","shape":[2],"data_offsets":[20,22]},)"
                     R"("e":{"dtype":"I16","shape":[1],"data_offsets":[22,24]},)"
                     R"("f":{"dtype":"F16","shape":[1],"data_offsets":[24,26]},)"
                     R"("g":{"dtype":"I8","shape":[1],"data_offsets":[26,27]},)"
                     R"("h":{"dtype":"BOOL","shape":[1],"data_offsets":[27,28]}})";
  std::string data = raw<double>({2.5}) + raw<uint16_t>({0x3f80, 0xc000}) + raw<int64_t>({-7}) +
                     "\x05\xff" + raw<int16_t>({-2}) + raw<uint16_t>({0x3800}) + "\xfe" + "\x01";
  auto ts = parseSt(stFile(json, data));
  ASSERT_EQ(ts.size(), 8u);
  EXPECT_EQ(ts[0].tensor.toDoubles(), (std::vector<double>{2.5}));
  EXPECT_EQ(ts[1].tensor.toDoubles(), (std::vector<double>{1.0, -2.0}));
  EXPECT_EQ(ts[2].tensor.toInts(), (std::vector<int64_t>{-7}));
  EXPECT_EQ(ts[3].tensor.toInts(), (std::vector<int64_t>{5, 255}));
  EXPECT_EQ(ts[4].tensor.toInts(), (std::vector<int64_t>{-2}));
  EXPECT_EQ(ts[5].tensor.toDoubles(), (std::vector<double>{0.5}));
  EXPECT_EQ(ts[6].tensor.toInts(), (std::vector<int64_t>{-2}));
  EXPECT_EQ(ts[7].tensor.dtype(), DType::Bool);
}

TEST(Safetensors, LyingHeadersAreValueErrors) {
  const std::string f = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  EXPECT_USER_ERROR(parseSt("\x01\x02"), "ValueError", "shorter than the 8-byte header length");
  std::string huge(8, '\0');
  huge[3] = '\x10';  // 268 MB
  EXPECT_USER_ERROR(parseSt(huge + "{}"), "ValueError", "the limit is 100 MB");
  std::string past = stFile(f, raw<float>({1, 2}));
  past[0] = '\x7f';
  EXPECT_USER_ERROR(parseSt(past), "ValueError", "runs past the end");
  EXPECT_USER_ERROR(parseSt(stFile("{nope", "")), "ValueError", "not valid JSON");
  EXPECT_USER_ERROR(parseSt(stFile(std::string(100, '[') + std::string(100, ']'), "")),
                    "ValueError", "nests too deeply");
  EXPECT_USER_ERROR(parseSt(stFile(f, raw<float>({1}))), "ValueError",
                    "outside the 4 bytes of data");
  EXPECT_USER_ERROR(parseSt(stFile(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})",
                                   raw<float>({1, 2, 3}))),
                    "ValueError", "is 12 bytes by its shape and F32, but its data offsets span 8");
  EXPECT_USER_ERROR(parseSt(stFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                   R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                                   raw<float>({1, 2}))),
                    "ValueError", "overlaps");
  EXPECT_USER_ERROR(parseSt(stFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                                   raw<float>({1, 2}))),
                    "ValueError", "leaves a hole");
  EXPECT_USER_ERROR(parseSt(stFile(f, raw<float>({1, 2, 3}))), "ValueError", "belong to no tensor");
  EXPECT_USER_ERROR(
      parseSt(
          stFile(R"({"a":{"dtype":"F32","shape":[4611686018427387904,8],"data_offsets":[0,8]}})",
                 raw<float>({1, 2}))),
      "ValueError", "overflows");
  EXPECT_USER_ERROR(parseSt(stFile(R"({"a":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}})",
                                   raw<float>({1, 2}))),
                    "ValueError", "the dtype 'C64', which Tessel does not load");
  EXPECT_USER_ERROR(parseSt(stFile(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,8]}})",
                                   raw<float>({1, 2}))),
                    "ValueError", "not a non-negative integer");
  EXPECT_USER_ERROR(parseSt(stFile(R"({"__metadata__":{"a":1}})", "")), "ValueError",
                    "is not a string");
}

TEST(Safetensors, LoadMapsTheFileAndViewsOutliveIt) {
  ScratchDir dir;
  std::string path = dir.file("m.safetensors");
  std::vector<float> w(1000);
  for (size_t i = 0; i < w.size(); ++i) w[i] = float(i);
  saveSafetensors(
      path, {{"w", Tensor::fromData(w, {10, 100})}, {"m", Tensor::fromBools({true, false}, {2})}},
      {});
  SafetensorsFile f = loadSafetensors(path);
  ASSERT_EQ(f.tensors.size(), 2u);
  // A view: the storage is borrowed, not one of the allocator's 64-byte aligned blocks.
  const Tensor& t = f.tensors[0].tensor;
  EXPECT_EQ(f.tensors[0].name, "w");
  EXPECT_EQ(t.storage()->bytes(), 4000u);
  std::filesystem::remove(path);  // the mapping keeps the data
  saveSafetensors(path, {{"w", Tensor::scalar(0, DType::F32)}}, {});
  EXPECT_EQ(t.toDoubles()[999], 999.0);
  EXPECT_EQ(f.tensors[1].tensor.toInts(), (std::vector<int64_t>{1, 0}));
}

TEST(Safetensors, LoadChargesTheMemoryBudget) {
  ScratchDir dir;
  std::string path = dir.file("m.safetensors");
  saveSafetensors(path, {{"w", Tensor::empty({1000}, DType::F32)}}, {});
  auto budget = std::make_shared<MemoryBudget>(3000);
  ScopedMemoryBudget scope(budget);
  EXPECT_USER_ERROR(loadSafetensors(path), "LimitError", "");
  EXPECT_EQ(budget->held(), 0);
  auto roomy = std::make_shared<MemoryBudget>(5000);
  ScopedMemoryBudget scope2(roomy);
  {
    SafetensorsFile f = loadSafetensors(path);
    EXPECT_EQ(roomy->held(), 4000);
  }
  EXPECT_EQ(roomy->held(), 0);
}

// --- npz -------------------------------------------------------------------------------------

TEST(Npz, StoredAndDeflatedRoundTrip) {
  for (bool compress : {false, true}) {
    std::vector<NamedTensor> ts = {
        {"x", Tensor::fromData(std::vector<float>{1, 2, 3}, {3})},
        {"y", Tensor::fromData(std::vector<int32_t>(1000, 7), {10, 100})}};
    std::string bytes = npzBytes(ts, compress);
    EXPECT_EQ(bytes.substr(0, 4), "PK\x03\x04");
    if (compress) {
      EXPECT_LT(bytes.size(), 1000u);
    }
    auto back = readNpz(std::as_bytes(std::span(bytes.data(), bytes.size())), "mem.npz");
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].name, "x");
    EXPECT_EQ(back[0].tensor.toDoubles(), (std::vector<double>{1, 2, 3}));
    EXPECT_EQ(back[1].tensor.shape(), (Dims{10, 100}));
    EXPECT_EQ(back[1].tensor.toInts()[999], 7);
  }
}

TEST(Npz, DamagedArchivesAreValueErrors) {
  std::string bytes =
      npzBytes({{"x", Tensor::fromData(std::vector<float>(64, 1.0f), {64})}}, false);
  auto read = [](const std::string& b) {
    return readNpz(std::as_bytes(std::span(b.data(), b.size())), "mem.npz");
  };
  EXPECT_USER_ERROR(read("not a zip"), "ValueError", "'mem.npz' is not a valid .npz file");
  EXPECT_USER_ERROR(read(bytes.substr(0, bytes.size() / 2)), "ValueError", "not a valid .npz");
  std::string flipped = bytes;
  flipped[100] ^= 0x5a;  // inside the member's data: the CRC no longer matches
  EXPECT_USER_ERROR(read(flipped), "ValueError", "mem.npz");
}

// --- text and CSV ---------------------------------------------------------------------------

TEST(Text, GzipRoundTripAndDamage) {
  std::string text = "hello\nworld\n";
  std::string gz = gzip(text);
  EXPECT_EQ(gunzip(std::as_bytes(std::span(gz.data(), gz.size())), "t.gz"), text);
  std::string twice = gz + gzip("more\n");  // concatenated members
  EXPECT_EQ(gunzip(std::as_bytes(std::span(twice.data(), twice.size())), "t.gz"), text + "more\n");
  std::string cut = gz.substr(0, gz.size() - 10);
  EXPECT_USER_ERROR(gunzip(std::as_bytes(std::span(cut.data(), cut.size())), "t.gz"), "ValueError",
                    "'t.gz' is not a valid gzip file: truncated");
  EXPECT_USER_ERROR(gunzip(std::as_bytes(std::span(text.data(), text.size())), "t.gz"),
                    "ValueError", "magic");
}

TEST(Csv, ParsesAndNamesBadFields) {
  CsvOptions o;
  Tensor t = parseCsv("1,2.5,-3e2\n4,+5,nan\n", o, "t.csv");
  EXPECT_EQ(t.shape(), (Dims{2, 3}));
  EXPECT_EQ(t.toDoubles()[2], -300.0);
  EXPECT_TRUE(std::isnan(t.toDoubles()[5]));
  EXPECT_EQ(parseCsv("", o, "t.csv").shape(), (Dims{0, 0}));
  o.dtype = DType::I32;
  EXPECT_EQ(parseCsv("1;2\n3;4", CsvOptions{';', 0, std::vector<int64_t>{1}, DType::I32}, "t.csv")
                .toInts(),
            (std::vector<int64_t>{2, 4}));
  EXPECT_USER_ERROR(parseCsv("1,2\n3\n", o, "t.csv"), "ValueError",
                    "line 2 has 1 fields, the first row 2");
  EXPECT_USER_ERROR(parseCsv("1,2.5\n", o, "t.csv"), "ValueError",
                    "line 1, column 2: '2.5' is not an integer");
  EXPECT_USER_ERROR(parseCsv("1,3000000000\n", o, "t.csv"), "OverflowError", "does not fit in i32");
  EXPECT_USER_ERROR(parseCsv("1,30000000000000000000\n", o, "t.csv"), "OverflowError",
                    "does not fit in i32");
  EXPECT_USER_ERROR(parseCsv("1,,2\n", o, "t.csv"), "ValueError",
                    "line 1, column 2: an empty field");
  EXPECT_USER_ERROR(
      parseCsv("1,2\n", CsvOptions{',', 0, std::vector<int64_t>{5}, DType::F32}, "t.csv"),
      "ValueError", "column 5 is out of range for rows of 2 fields");
  EXPECT_EQ(parseCsv("1e39,-1e39\n", CsvOptions{}, "t.csv").toDoubles(),
            (std::vector<double>{INFINITY, -INFINITY}));
}

}  // namespace
