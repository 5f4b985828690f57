// Where an embedded interpreter's output goes: the app's callbacks of tessel::Options (print()
// text, display() values, progress bars drawn in place).
#pragma once

#include <functional>
#include <streambuf>
#include <string>
#include <string_view>

#include "interp/natives/display.h"

namespace tessel::api {

/// print() output for Options::output: handed over a line at a time, and whatever is left
/// when control returns to the app (flushPending).
class OutputBuffer : public std::streambuf {
 public:
  explicit OutputBuffer(std::function<void(std::string_view)> sink) : sink_(std::move(sink)) {}
  void flushPending();

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  std::function<void(std::string_view)> sink_;
  std::string pending_;
};

/// The interpreter's output when the app set Options::display or Options::updatableDisplay
/// (Note [Rich display]): text goes to `text`, and a value or a progress bar reaches the app's
/// callback after the text printed before it (`pending`, when not null, is flushed first).
class HostOutput : public interp::RichOutput {
 public:
  using Display = std::function<void(const interp::Value&)>;
  using Updatable = std::function<void(std::string_view id, std::string_view text, bool first)>;
  HostOutput(std::streambuf* text, OutputBuffer* pending, Display display, Updatable updatable)
      : interp::RichOutput(text),
        pending_(pending),
        display_(std::move(display)),
        updatable_(std::move(updatable)) {}
  void display(const interp::Value& value) override;
  bool updatesDisplays() const override { return static_cast<bool>(updatable_); }
  void showUpdatable(const std::string& id, const std::string& text, bool first) override;

 private:
  void flushText();
  OutputBuffer* pending_;
  Display display_;
  Updatable updatable_;
};

}  // namespace tessel::api
