// How a value looks in a notebook: the MIME bundle of an execute_result or display_data.
#pragma once

#include <nlohmann/json.hpp>

#include "interp/values/value.h"

namespace tessel::kernel {

/// `text/plain` as the REPL echoes the value (its repr), and for a tensor `text/html` too: a
/// header with its shape (bounded sizes as `<=N`), dtype and device, then its elements as a
/// table, summarized as the REPL's printing summarizes them.
nlohmann::json mimeBundle(const interp::Value& value);

/// The HTML view of a tensor value (what mimeBundle puts under text/html).
std::string tensorHtml(const interp::Value& tensor);

}  // namespace tessel::kernel
