// Fuzz target: the file readers of backends/io on arbitrary bytes. The first byte
// picks the format: .npy, .npz, .safetensors, CSV, gzip then CSV. Any
// input must end in tensors or a UserError (ValueError, IOError); a crash, a sanitizer report,
// a hang, an uncaught exception or an allocation of a size the input merely claims is a bug.
// Run with tools/fuzz.sh fuzz_load SECONDS (seeds: tests/fuzz/load_seeds).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "backends/io/file_access.h"
#include "backends/io/npy.h"
#include "backends/io/npz.h"
#include "backends/io/safetensors.h"
#include "backends/io/text.h"
#include "shapes/user_error.h"

namespace {

using namespace tessel::backends;

void csv(std::string_view text, uint8_t flags) {
  io::CsvOptions o;
  o.delimiter = (flags & 1) ? '\t' : ',';
  o.skipHeader = (flags >> 1) & 1;
  o.dtype = (flags & 4) ? tessel::shapes::DType::I32 : tessel::shapes::DType::F32;
  if (flags & 8) o.columns = std::vector<int64_t>{0, -1};
  io::parseCsv(text, o, "fuzz.csv");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t selector = data[0];
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data) + 1, size - 1);
  try {
    switch (selector % 5) {
      case 0: {
        io::MemorySource src(bytes, "fuzz.npy");
        io::readNpy(src);
        break;
      }
      case 1:
        io::readNpz(bytes, "fuzz.npz");
        break;
      case 2: {
        io::SafetensorsHeader h = io::parseSafetensorsHeader(bytes, "fuzz.safetensors");
        io::safetensorsTensors(h, bytes, nullptr, "fuzz.safetensors");
        break;
      }
      case 3:
        csv(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
            selector / 5);
        break;
      case 4:
        csv(io::gunzip(bytes, "fuzz.csv.gz"), selector / 5);
        break;
    }
  } catch (const tessel::UserError&) {
    // Bad input: the expected outcome for most inputs.
  }
  return 0;
}
