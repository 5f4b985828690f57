// Round trips against the real peers: NumPy writes .npy and .npz files that Tessel reads, and
// NumPy reads what Tessel writes; safetensors files are checked byte for byte against the
// format's published layout (8-byte little-endian header length, JSON header, data offsets)
// by a Python reader of that layout. Skipped, saying so, where python3-numpy is absent.
#include <gtest/gtest.h>

#include <cstdlib>

#include "backends/io/npy.h"
#include "backends/io/npz.h"
#include "backends/io/safetensors.h"
#include "interp/natives/file_values.h"
#include "interp/values/objects.h"
#include "interp/tensors/tensor_value.h"
#include "io_test_util.h"

using namespace tessel;
using namespace tessel::backends;
using tessel::io_testing::ScratchDir;

namespace {

/// Debian's interpreter, where python3-numpy installs (a python3 earlier on PATH, a pyenv one
/// say, may lack it).
std::string pythonCommand() {
  return std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

bool haveNumpy() {
  static const bool have =
      std::system((pythonCommand() + " -c 'import numpy' >/dev/null 2>&1").c_str()) == 0;
  return have;
}

/// Runs Python `code` with the scratch folder as sys.argv[1]; its output and exit status.
std::pair<int, std::string> python(const ScratchDir& dir, const std::string& code) {
  tessel::io_testing::writeBytes(dir.file("script.py"), code);
  std::string cmd = pythonCommand() + " " + dir.file("script.py") + " " + dir.path().string() +
                    " >" + dir.file("py.out") + " 2>&1";
  int rc = std::system(cmd.c_str());
  return {WEXITSTATUS(rc), tessel::io_testing::readBytes(dir.file("py.out"))};
}

#define SKIP_WITHOUT_NUMPY() \
  if (!haveNumpy()) GTEST_SKIP() << "python3-numpy is not installed: no NumPy round trips"

TEST(NumpyRoundTrip, TesselReadsWhatNumpyWrites) {
  SKIP_WITHOUT_NUMPY();
  ScratchDir dir;
  auto [rc, out] = python(dir, R"(
import sys, numpy as np
d = sys.argv[1]
for t in ['f8', 'f4', 'f2', 'i8', 'i4', 'i2', 'i1', 'u1', 'u2', 'u4', 'u8']:
    np.save(f'{d}/{t}.npy', np.arange(12).reshape(3, 4).astype(t))
np.save(f'{d}/bool.npy', np.arange(12).reshape(3, 4) % 3 == 0)
np.save(f'{d}/fortran.npy', np.asfortranarray(np.arange(24, dtype='f4').reshape(2, 3, 4)))
np.save(f'{d}/big.npy', np.arange(12, dtype='>i4').reshape(3, 4))
np.save(f'{d}/scalar.npy', np.float32(2.5))
np.save(f'{d}/empty.npy', np.zeros((0, 3), dtype='f4'))
np.save(f'{d}/range.npy', np.array([1, 2**40], dtype='i8'))
np.savez(f'{d}/plain.npz', a=np.arange(5, dtype='f4'), b=np.eye(3, dtype='i4'))
np.savez_compressed(f'{d}/packed.npz', a=np.arange(5, dtype='f8'), b=np.zeros(1000, dtype='u1'))
)");
  ASSERT_EQ(rc, 0) << out;
  std::vector<double> want(12);
  for (int i = 0; i < 12; ++i) want[i] = i;
  for (const char* t : {"f8", "f4", "f2", "i8", "i4", "i2", "i1", "u1", "u2", "u4", "u8"}) {
    Tensor x = io::loadNpy(dir.file(std::string(t) + ".npy"));
    EXPECT_EQ(x.shape(), (Dims{3, 4})) << t;
    EXPECT_EQ(x.dtype(), t[0] == 'f' ? DType::F32 : DType::I32) << t;
    EXPECT_EQ(x.toDoubles(), want) << t;
  }
  Tensor b = io::loadNpy(dir.file("bool.npy"));
  EXPECT_EQ(b.dtype(), DType::Bool);
  EXPECT_EQ(b.toInts()[3], 1);
  EXPECT_EQ(b.toInts()[4], 0);
  Tensor f = io::loadNpy(dir.file("fortran.npy"));
  EXPECT_EQ(f.shape(), (Dims{2, 3, 4}));
  std::vector<double> iota(24);
  for (int i = 0; i < 24; ++i) iota[i] = i;
  EXPECT_EQ(f.toDoubles(), iota);
  EXPECT_EQ(io::loadNpy(dir.file("big.npy")).toDoubles(), want);
  EXPECT_EQ(io::loadNpy(dir.file("scalar.npy")).item(), 2.5);
  EXPECT_EQ(io::loadNpy(dir.file("empty.npy")).shape(), (Dims{0, 3}));
  try {
    io::loadNpy(dir.file("range.npy"));
    ADD_FAILURE() << "2**40 loaded as i32";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("the value 1099511627776 (element 1) does not fit in i32"),
              std::string::npos)
        << e.what();
  }
  for (const char* name : {"plain.npz", "packed.npz"}) {
    auto ts = io::loadNpz(dir.file(name));
    ASSERT_EQ(ts.size(), 2u) << name;
    EXPECT_EQ(ts[0].name, "a");
    EXPECT_EQ(ts[0].tensor.toDoubles(), (std::vector<double>{0, 1, 2, 3, 4}));
    EXPECT_EQ(ts[1].name, "b");
  }
  EXPECT_EQ(io::loadNpz(dir.file("plain.npz"))[1].tensor.toInts()[4], 1);  // eye(3)[1][1]
}

TEST(NumpyRoundTrip, NumpyReadsWhatTesselWrites) {
  SKIP_WITHOUT_NUMPY();
  ScratchDir dir;
  Tensor f = Tensor::fromData(std::vector<float>{0.5f, -1.0f, 3.25f, 1e-20f, 7.0f, 8.0f}, {2, 3});
  Tensor i = Tensor::fromData(std::vector<int32_t>{-2147483647 - 1, 0, 2147483647}, {3});
  Tensor b = Tensor::fromBools({true, false, true, true}, {2, 2});
  io::saveNpy(dir.file("f.npy"), f);
  io::saveNpy(dir.file("ft.npy"), f.transpose(0, 1));
  io::saveNpy(dir.file("i.npy"), i);
  io::saveNpy(dir.file("b.npy"), b);
  io::saveNpy(dir.file("s.npy"), Tensor::scalar(4.0, DType::F32));
  io::saveNpz(dir.file("plain.npz"), {{"f", f}, {"i", i}}, false);
  io::saveNpz(dir.file("packed.npz"), {{"f", f}, {"b", b}}, true);
  io::saveSafetensors(dir.file("m.safetensors"), {{"enc.w", f}, {"mask", b}, {"ids", i}},
                      {{"note", "hi"}});
  auto [rc, out] = python(dir, R"(
import sys, json, struct, numpy as np
d = sys.argv[1]
f = np.array([0.5, -1.0, 3.25, 1e-20, 7.0, 8.0], dtype='f4').reshape(2, 3)
i = np.array([-2**31, 0, 2**31 - 1], dtype='i4')
b = np.array([[True, False], [True, True]])
def same(x, y):
    assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all(), (x, y)
same(np.load(f'{d}/f.npy'), f)
same(np.load(f'{d}/ft.npy'), f.T.copy())
same(np.load(f'{d}/i.npy'), i)
same(np.load(f'{d}/b.npy'), b)
same(np.load(f'{d}/s.npy'), np.array(4.0, dtype='f4'))
z = np.load(f'{d}/plain.npz'); assert list(z.keys()) == ['f', 'i']; same(z['f'], f); same(z['i'], i)
z = np.load(f'{d}/packed.npz'); same(z['f'], f); same(z['b'], b)
# safetensors by its published layout.
raw = open(f'{d}/m.safetensors', 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]
assert (8 + n) % 8 == 0, n
header = json.loads(raw[8:8 + n])
assert header['__metadata__'] == {'note': 'hi'}, header
data = raw[8 + n:]
kinds = {'F32': 'f4', 'I32': 'i4', 'BOOL': '?'}
end = 0
for name, want in [('enc.w', f), ('mask', b), ('ids', i)]:
    e = header[name]
    lo, hi = e['data_offsets']
    end = max(end, hi)
    same(np.frombuffer(data[lo:hi], dtype=kinds[e['dtype']]).reshape(e['shape']), want)
assert end == len(data)
print('ok')
)");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out, "ok\n");
}

TEST(NumpyRoundTrip, SafetensorsWrittenElsewhereLoadAsAFlatDict) {
  SKIP_WITHOUT_NUMPY();
  ScratchDir dir;
  // The layout the safetensors package writes (its metadata, padding and dtype order).
  auto [rc, out] = python(dir, R"(
import sys, json, struct, numpy as np
d = sys.argv[1]
tensors = {'model.w': np.arange(6, dtype='f8').reshape(2, 3), 'model.b': np.ones(3, dtype='f2'),
           'step': np.array([7], dtype='i8'), 'bf': np.array([0x3f80, 0x4000], dtype='<u2')}
dtypes = {'f8': 'F64', 'f2': 'F16', 'i8': 'I64', 'u2': 'BF16'}
header, blobs, offset = {'__metadata__': {'format': 'pt'}}, [], 0
for name, a in tensors.items():
    b = a.tobytes()
    header[name] = {'dtype': dtypes[a.dtype.str[1:]], 'shape': list(a.shape),
                    'data_offsets': [offset, offset + len(b)]}
    blobs.append(b); offset += len(b)
h = json.dumps(header).encode()
h += b' ' * ((8 - len(h) % 8) % 8)
open(f'{d}/hf.safetensors', 'wb').write(struct.pack('<Q', len(h)) + h + b''.join(blobs))
)");
  ASSERT_EQ(rc, 0) << out;
  interp::Value v = interp::loadValue(dir.file("hf.safetensors"), Device::Cpu);
  ASSERT_TRUE(v.is(interp::Type::Dict));
  auto* d = v.as<interp::DictObj>();
  ASSERT_EQ(d->entries.size(), 4u);
  EXPECT_EQ(d->entries[0].first, "model.w");  // in the order of the data
  EXPECT_EQ(interp::asTensor(d->entries[0].second).toDoubles(),
            (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(interp::asTensor(d->entries[1].second).toDoubles(), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(interp::asTensor(d->entries[2].second).toInts(), (std::vector<int64_t>{7}));
  EXPECT_EQ(interp::asTensor(d->entries[3].second).toDoubles(), (std::vector<double>{1, 2}));
}

}  // namespace
