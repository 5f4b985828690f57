// Drives the `tessel` binary through a pseudo-terminal, as a user at a terminal would: send
// keys, wait (with a deadline) for text to appear, wait for the exit status. A hung REPL fails
// the test instead of hanging it; the child is killed when the session ends.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::testing {

/// A fresh temporary directory, removed when this object dies.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tessel-repl-XXXXXX").string();
    path_ = mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class PtySession {
 public:
  using Clock = std::chrono::steady_clock;

  /// Starts `build/repl/tessel args...` on a new pty, with TESSEL_CACHE_DIR and HOME set to
  /// `home` (no user history or ~/.editrc leaks in) and a dumb terminal.
  PtySession(const std::string& home, std::vector<std::string> args = {}) {
    winsize ws{};
    ws.ws_row = 24;
    ws.ws_col = 80;
    pid_ = forkpty(&master_, nullptr, nullptr, &ws);
    if (pid_ == 0) {
      setenv("TESSEL_CACHE_DIR", home.c_str(), 1);
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", "dumb", 1);
      std::string binary = std::string(TESSEL_BINARY_DIR) + "/repl/tessel";
      std::vector<char*> argv{binary.data()};
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
  }
  ~PtySession() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }
  PtySession(const PtySession&) = delete;
  PtySession& operator=(const PtySession&) = delete;

  bool started() const { return pid_ > 0 && master_ >= 0; }

  void send(std::string_view keys) {
    while (!keys.empty()) {
      ssize_t n = write(master_, keys.data(), keys.size());
      if (n <= 0) return;
      keys.remove_prefix(static_cast<size_t>(n));
    }
  }
  /// Types a line and presses Enter.
  void sendLine(std::string_view line) {
    send(line);
    send("\r");
  }

  /// Waits until `needle` appears in the output after the last match; moves past it.
  bool expect(std::string_view needle, double seconds = 10) {
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(seconds));
    for (;;) {
      size_t at = out_.find(needle, cursor_);
      if (at != std::string::npos) {
        cursor_ = at + needle.size();
        return true;
      }
      if (!pump(deadline)) return false;
    }
  }

  /// Reads whatever arrives within `seconds` (to let the child settle).
  void drain(double seconds) {
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(seconds));
    while (pump(deadline)) {
    }
  }

  /// The exit status, or -1 if the child did not exit in time (it is then killed).
  int waitExit(double seconds = 10) {
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(seconds));
    for (;;) {
      int status = 0;
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      if (Clock::now() >= deadline) return -1;
      if (!pump(std::min(deadline, Clock::now() + std::chrono::milliseconds(50))))
        usleep(10000);  // output closed (EIO) or quiet: poll the child again shortly
    }
  }

  /// Everything read so far.
  const std::string& output() const { return out_; }
  /// The output after the last match.
  std::string rest() const { return out_.substr(cursor_); }

 private:
  // Reads available output until the deadline; false once the deadline passed or the pty closed.
  bool pump(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || master_ < 0) return false;
    pollfd p{master_, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left.count()));
    if (r <= 0) return false;
    char buf[4096];
    ssize_t n = read(master_, buf, sizeof buf);
    if (n <= 0) return false;  // EIO: the child closed the terminal
    out_.append(buf, static_cast<size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int master_ = -1;
  bool exited_ = false;
  std::string out_;
  size_t cursor_ = 0;
};

}  // namespace tessel::testing
