// The kernel's stdout and stderr: what print() writes goes out as `stream` messages on IOPub.
#pragma once

#include <chrono>
#include <functional>
#include <streambuf>
#include <string>

namespace tessel::kernel {

/// A stream buffer that hands its text to `sink`. print() flushes after each call; sending a
/// message for each would flood the notebook in a loop, so a flush sends only when kInterval
/// has passed since the last send, and publishPending() (at the end of a cell, before a
/// display) sends the rest.
class PublishingBuffer : public std::streambuf {
 public:
  using Sink = std::function<void(const std::string& text)>;
  static constexpr std::chrono::milliseconds kInterval{50};

  explicit PublishingBuffer(Sink sink) : sink_(std::move(sink)) {}
  void publishPending();

 protected:
  int overflow(int c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  Sink sink_;
  std::string pending_;
  std::chrono::steady_clock::time_point lastSent_{};
};

}  // namespace tessel::kernel
