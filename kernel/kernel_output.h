// The kernel's stdout and stderr: what print() writes goes out as `stream` messages on IOPub,
// and display(v) as `display_data` (Note [Rich display] in interp/natives/display.h).
#pragma once

#include <chrono>
#include <functional>
#include <streambuf>
#include <string>

#include "interp/natives/display.h"

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

/// Holds KernelStdout's buffer in a base listed before its ostream, so the buffer is constructed
/// before the stream is given it (a member would be constructed after every base).
struct PublishingBufferHolder {
  explicit PublishingBufferHolder(PublishingBuffer::Sink sink) : buffer(std::move(sink)) {}
  PublishingBuffer buffer;
};

/// The kernel's stdout: text as `stream` messages, values given to display() through
/// `showValue` (which publishes display_data), and the updatable displays of progress bars
/// through `showText` (display_data with a display_id, then update_display_data).
class KernelStdout : private PublishingBufferHolder, public interp::RichOutput {
 public:
  using ShowText = std::function<void(const std::string& id, const std::string& text, bool first)>;
  KernelStdout(PublishingBuffer::Sink text, std::function<void(const interp::Value&)> showValue,
               ShowText showText)
      : PublishingBufferHolder(std::move(text)),
        interp::RichOutput(&buffer),
        showValue_(std::move(showValue)),
        showText_(std::move(showText)) {}
  void display(const interp::Value& value) override;
  bool updatesDisplays() const override { return true; }
  void showUpdatable(const std::string& id, const std::string& text, bool first) override;
  void publishPending() { buffer.publishPending(); }

 private:
  std::function<void(const interp::Value&)> showValue_;
  ShowText showText_;
};

}  // namespace tessel::kernel
