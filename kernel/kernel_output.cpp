// Stream output of the kernel.
#include "kernel/kernel_output.h"

namespace tessel::kernel {

void PublishingBuffer::publishPending() {
  if (pending_.empty()) return;
  std::string text;
  text.swap(pending_);
  lastSent_ = std::chrono::steady_clock::now();
  sink_(text);
}

int PublishingBuffer::overflow(int c) {
  if (c != traits_type::eof()) pending_.push_back(static_cast<char>(c));
  return traits_type::not_eof(c);
}

std::streamsize PublishingBuffer::xsputn(const char* s, std::streamsize n) {
  pending_.append(s, static_cast<size_t>(n));
  return n;
}

int PublishingBuffer::sync() {
  if (std::chrono::steady_clock::now() - lastSent_ >= kInterval) publishPending();
  return 0;
}

}  // namespace tessel::kernel
