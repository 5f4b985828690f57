// .npz through libzip (npz.h).
#include "backends/io/npz.h"

#include <zip.h>

#include <memory>

#include "backends/io/io_error.h"
#include "backends/io/npy.h"
#include "shapes/user_error.h"

namespace tessel::backends::io {

namespace {

const std::string kFormat = ".npz";
// Deflate expands by at most 1032:1; a member claiming more than that is lying.
constexpr uint64_t kMaxDeflateRatio = 1032;

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
using ZipPtr = std::unique_ptr<zip_t, ZipCloser>;

std::string zipErrorText(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string s = zip_error_strerror(&e);
  zip_error_fini(&e);
  return s;
}

/// One member being read, as a ByteSource whose size is the member's declared size.
class MemberSource : public ByteSource {
 public:
  MemberSource(zip_file_t* f, uint64_t size, std::string name)
      : f_(f), size_(size), name_(std::move(name)) {}
  ~MemberSource() override { zip_fclose(f_); }
  size_t read(void* dst, size_t n) override {
    zip_int64_t k = zip_fread(f_, dst, n);
    if (k < 0)
      badFile(name_, kFormat, std::string("the member cannot be read: ") + zip_file_strerror(f_));
    return static_cast<size_t>(k);
  }
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }

 private:
  zip_file_t* f_;
  uint64_t size_;
  std::string name_;
};

std::vector<NamedTensor> readArchive(zip_t* za, const std::string& path) {
  std::vector<NamedTensor> out;
  zip_int64_t n = zip_get_num_entries(za, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    if (zip_stat_index(za, static_cast<zip_uint64_t>(i), 0, &st) != 0)
      badFile(path, kFormat, std::string("a member cannot be read: ") + zip_strerror(za));
    std::string member = (st.valid & ZIP_STAT_NAME) && st.name ? st.name : "";
    if (!member.empty() && member.back() == '/') continue;  // a folder
    const std::string where = path + ":" + member;
    if (member.size() < 5 || member.compare(member.size() - 4, 4, ".npy") != 0)
      badFile(path, kFormat, "the member '" + member + "' is not an .npy file");
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
      badFile(path, kFormat, "the member '" + member + "' is encrypted");
    if (!(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_SIZE))
      badFile(path, kFormat, "the member '" + member + "' has no size");
    bool stored = (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_STORE;
    if (stored ? st.size != st.comp_size : st.size / kMaxDeflateRatio > st.comp_size + 1)
      badFile(path, kFormat,
              "the member '" + member + "' claims " + std::to_string(st.size) + " bytes from " +
                  std::to_string(st.comp_size) + " compressed ones");
    zip_file_t* f = zip_fopen_index(za, static_cast<zip_uint64_t>(i), 0);
    if (!f)
      badFile(path, kFormat, "the member '" + member + "' cannot be opened: " + zip_strerror(za));
    MemberSource src(f, st.size, where);
    Tensor t = readNpy(src);
    char probe;
    src.read(&probe, 1);  // reaching the end makes libzip check the member's CRC
    out.push_back({member.substr(0, member.size() - 4), std::move(t)});
  }
  return out;
}

}  // namespace

std::vector<NamedTensor> loadNpz(const FileRef& file) {
  InputFile in(file);  // libzip reads the descriptor the policy's open gave, not the path
  const std::string& path = in.name();
  int err = 0;
  zip_t* za = zip_fdopen(in.fd(), ZIP_CHECKCONS, &err);
  if (!za) badFile(path, kFormat, zipErrorText(err));
  in.release();  // the archive owns the descriptor now
  ZipPtr owner(za);
  return readArchive(za, path);
}

std::vector<NamedTensor> readNpz(std::span<const std::byte> bytes, const std::string& name) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (!src) {
    zip_error_fini(&error);
    throw std::bad_alloc();
  }
  zip_t* za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (!za) {
    zip_source_free(src);
    std::string text = zip_error_strerror(&error);
    zip_error_fini(&error);
    badFile(name, kFormat, text);
  }
  zip_error_fini(&error);
  ZipPtr owner(za);
  return readArchive(za, name);
}

std::string npzBytes(const std::vector<NamedTensor>& tensors, bool compress) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
  zip_error_fini(&error);
  if (!buffer) throw std::bad_alloc();
  zip_source_keep(buffer);  // read back after zip_close
  struct Free {
    void operator()(zip_source_t* s) const { zip_source_free(s); }
  };
  std::unique_ptr<zip_source_t, Free> keep(buffer);
  zip_t* za = zip_open_from_source(buffer, ZIP_TRUNCATE, nullptr);
  if (!za) throwUserError(ErrorKind::ValueError, "cannot start a zip archive");
  ZipPtr archive(za);
  std::vector<std::string> members;  // alive until zip_close, which reads them
  members.reserve(tensors.size());
  for (const NamedTensor& t : tensors) {
    members.push_back(npyBytes(t.tensor));
    zip_source_t* s = zip_source_buffer(za, members.back().data(), members.back().size(), 0);
    zip_int64_t index = s ? zip_file_add(za, (t.name + ".npy").c_str(), s, ZIP_FL_ENC_UTF_8) : -1;
    if (index < 0) {
      if (s) zip_source_free(s);
      throwUserError(ErrorKind::ValueError,
                     "cannot add '" + t.name + "' to the archive: " + zip_strerror(za));
    }
    zip_set_file_compression(za, static_cast<zip_uint64_t>(index),
                             compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
  }
  if (zip_close(za) != 0)
    throwUserError(ErrorKind::ValueError,
                   std::string("cannot write the archive: ") + zip_strerror(za));
  archive.release();
  zip_stat_t st;
  if (zip_source_stat(buffer, &st) != 0 || zip_source_open(buffer) != 0)
    throwUserError(ErrorKind::ValueError, "cannot read the archive back");
  std::string out(static_cast<size_t>(st.size), '\0');
  zip_int64_t got = zip_source_read(buffer, out.data(), out.size());
  zip_source_close(buffer);
  if (got < 0 || static_cast<size_t>(got) != out.size())
    throwUserError(ErrorKind::ValueError, "cannot read the archive back");
  return out;
}

void saveNpz(const FileRef& file, const std::vector<NamedTensor>& tensors, bool compress) {
  writeFileAtomically(file, npzBytes(tensors, compress));
}

}  // namespace tessel::backends::io
