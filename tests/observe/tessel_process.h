// Running the `tessel` command from a test: in a fresh scratch directory, with chosen
// environment variables, capturing what it prints.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tessel::observe {

struct ProcessResult {
  std::string out;  // stdout and stderr, interleaved
  int status;
};

/// `tessel ARGS` under `env` ("A=1 B=2"), from `cwd`.
inline ProcessResult runTessel(const std::string& args, const std::string& env = "",
                     const std::string& cwd = ".") {
  std::string cmd = "cd '" + cwd + "' && env " + env + " " + TESSEL_BINARY_DIR +
                    "/repl/tessel " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int status = pclose(p);
  return {out, WEXITSTATUS(status)};
}

/// A fresh directory for one test, removed at its end.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = std::filesystem::temp_directory_path() / "tessel-test-XXXXXX";
    path_ = mkdtemp(tmpl.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  /// Writes `text` to `name` inside the directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    std::string p = path_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p) << text;
    return p;
  }

 private:
  std::string path_;
};

inline std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace tessel::observe
