// The output streams of an embedded interpreter (output.h).
#include "api/output.h"

#include "interp/values/printer.h"

namespace tessel::api {

void OutputBuffer::flushPending() {
  if (!pending_.empty()) {
    std::string out = std::move(pending_);
    pending_.clear();
    sink_(out);
  }
}

std::streamsize OutputBuffer::xsputn(const char* s, std::streamsize n) {
  pending_.append(s, static_cast<size_t>(n));
  if (pending_.find('\n') != std::string::npos) {
    size_t last = pending_.rfind('\n') + 1;
    std::string lines = pending_.substr(0, last);
    pending_.erase(0, last);
    sink_(lines);
  }
  return n;
}

OutputBuffer::int_type OutputBuffer::overflow(int_type c) {
  if (c != traits_type::eof()) {
    char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
  }
  return traits_type::not_eof(c);
}

int OutputBuffer::sync() {
  flushPending();
  return 0;
}

void HostOutput::flushText() {
  flush();
  if (pending_) pending_->flushPending();
}

void HostOutput::display(const interp::Value& value) {
  if (!display_) {  // only progress bars are the app's: a value prints as anywhere else
    *this << interp::repr(value) << "\n";
    flush();
    return;
  }
  flushText();  // text printed before the value shows above it
  display_(value);
}

void HostOutput::showUpdatable(const std::string& id, const std::string& text, bool first) {
  if (first) flushText();  // text printed before the bar shows above it
  updatable_(id, text, first);
}

}  // namespace tessel::api
