// Writing the kernelspec. The PNG logo is drawn here (a 3x3 tiling, the name's tessellation),
// so no binary file is committed and the installed and per-user specs are the same bytes.
#include "kernel/kernelspec.h"

#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

namespace tessel::kernel {

namespace {

namespace fs = std::filesystem;

constexpr int kLogoSize = 64;
constexpr int kTiles = 3;
// The two tile colours, alternating like a chequerboard.
constexpr uint8_t kColours[2][3] = {{0x4e, 0x79, 0xa7}, {0xf2, 0x8e, 0x2b}};

uint32_t crc32(const std::vector<uint8_t>& bytes, size_t from) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = from; i < bytes.size(); ++i) {
    crc ^= bytes[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void putBigEndian(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

void appendChunk(std::vector<uint8_t>& png, const char* type, const std::vector<uint8_t>& data) {
  putBigEndian(png, static_cast<uint32_t>(data.size()));
  size_t start = png.size();
  png.insert(png.end(), type, type + 4);
  png.insert(png.end(), data.begin(), data.end());
  putBigEndian(png, crc32(png, start));
}

// Whether pixel (x, y) is in tile (tx, ty) rather than in the 2-pixel gap between tiles, and
// which tile.
bool tileAt(int x, int y, int& tx, int& ty) {
  constexpr int step = kLogoSize / kTiles + 1;  // 22: three tiles of 20 and their gaps
  tx = x / step;
  ty = y / step;
  return x % step < step - 2 && y % step < step - 2 && tx < kTiles && ty < kTiles;
}

// An RGBA PNG; its zlib stream uses one stored (uncompressed) deflate block, which a 64x64
// image fits in (16,448 bytes < 65,535), so no compressor is needed.
std::vector<uint8_t> logoPng() {
  std::vector<uint8_t> raw;
  for (int y = 0; y < kLogoSize; ++y) {
    raw.push_back(0);  // filter: none
    for (int x = 0; x < kLogoSize; ++x) {
      int tx, ty;
      bool inTile = tileAt(x, y, tx, ty);
      const uint8_t* c = kColours[(tx + ty) % 2];
      raw.insert(raw.end(), {c[0], c[1], c[2], static_cast<uint8_t>(inTile ? 255 : 0)});
    }
  }
  std::vector<uint8_t> z = {0x78, 0x01, 0x01};  // zlib header; final stored block
  uint16_t len = static_cast<uint16_t>(raw.size());
  z.insert(z.end(), {static_cast<uint8_t>(len), static_cast<uint8_t>(len >> 8),
                     static_cast<uint8_t>(~len), static_cast<uint8_t>(~len >> 8)});
  z.insert(z.end(), raw.begin(), raw.end());
  uint32_t a = 1, b = 0;  // Adler-32
  for (uint8_t byte : raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  putBigEndian(z, (b << 16) | a);

  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<uint8_t> header;
  putBigEndian(header, kLogoSize);
  putBigEndian(header, kLogoSize);
  header.insert(header.end(), {8, 6, 0, 0, 0});  // 8 bits, RGBA, deflate, no filter, no interlace
  appendChunk(png, "IHDR", header);
  appendChunk(png, "IDAT", z);
  appendChunk(png, "IEND", {});
  return png;
}

std::string logoSvg() {
  std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\" "
      "viewBox=\"0 0 64 64\">";
  char rect[160];
  for (int ty = 0; ty < kTiles; ++ty)
    for (int tx = 0; tx < kTiles; ++tx) {
      const uint8_t* c = kColours[(tx + ty) % 2];
      std::snprintf(rect, sizeof rect,
                    "<rect x=\"%d\" y=\"%d\" width=\"20\" height=\"20\" fill=\"#%02x%02x%02x\"/>",
                    tx * 22, ty * 22, c[0], c[1], c[2]);
      svg += rect;
    }
  return svg + "</svg>\n";
}

bool writeFile(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return static_cast<bool>(out);
}

std::string selfPath() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "tessel-kernel" : p.string();
}

}  // namespace

std::string writeKernelspec(const std::string& dir, const std::string& kernelPath) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create " + dir + ": " + ec.message();
  nlohmann::json spec = {
      {"argv", {kernelPath, "-f", "{connection_file}"}},
      {"display_name", "Tessel"},
      {"language", "tessel"},
      // Jupyter interrupts by SIGINT; the kernel turns it into Interpreter::interrupt().
      {"interrupt_mode", "signal"},
      {"metadata", {{"debugger", false}}}};
  std::vector<uint8_t> png = logoPng();
  fs::path d(dir);
  if (!writeFile(d / "kernel.json", spec.dump(2) + "\n") ||
      !writeFile(d / "logo-64x64.png", std::string(png.begin(), png.end())) ||
      !writeFile(d / "logo-svg.svg", logoSvg()))
    return "cannot write the kernelspec in " + dir;
  return "";
}

std::string userKernelsDir() {
  if (const char* d = std::getenv("JUPYTER_DATA_DIR"); d && *d)
    return (fs::path(d) / "kernels").string();
  if (const char* d = std::getenv("XDG_DATA_HOME"); d && *d)
    return (fs::path(d) / "jupyter" / "kernels").string();
  const char* home = std::getenv("HOME");
  return (fs::path(home ? home : ".") / ".local" / "share" / "jupyter" / "kernels").string();
}

int installCommand(int argc, char** argv) {
  const char* usage =
      "usage: tessel-kernel install [--user | --prefix DIR] [--kernel PATH]\n"
      "  --kernel PATH  the kernel kernel.json runs (default: this program)\n";
  std::string kernels = "/usr/local/share/jupyter/kernels";  // jupyter kernelspec's default
  std::string kernel = selfPath();
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--kernel" && i + 1 < argc) {
      kernel = argv[++i];
    } else if (a == "--user") {
      kernels = userKernelsDir();
    } else if (a == "--prefix" && i + 1 < argc) {
      kernels = (fs::path(argv[++i]) / "share" / "jupyter" / "kernels").string();
    } else if (a == "-h" || a == "--help") {
      std::cout << usage;
      return 0;
    } else {
      std::cerr << "tessel-kernel install: unexpected '" << a << "'\n" << usage;
      return 2;
    }
  }
  std::string dir = (fs::path(kernels) / "tessel").string();
  std::string error = writeKernelspec(dir, kernel);
  if (!error.empty()) {
    std::cerr << "tessel-kernel install: " << error << "\n";
    return 1;
  }
  std::cout << "Installed the Tessel kernelspec in " << dir << "\n";
  return 0;
}

}  // namespace tessel::kernel
