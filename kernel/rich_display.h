// How a value looks in a notebook: the MIME bundle of an execute_result or display_data.
#pragma once

#include <nlohmann/json.hpp>

#include "interp/values/value.h"

namespace tessel::interp {
class Interpreter;
}

namespace tessel::kernel {

/// `text/plain` as the REPL echoes the value (its repr), and every rich form registered for it
/// (Note [Rich display] in interp/natives/display.h), the tensor table among them.
nlohmann::json mimeBundle(interp::Interpreter& interp, const interp::Value& value);

/// The HTML view of a tensor value: a header with its shape (bounded sizes as `<=N`), dtype
/// and device, then its elements as a table, summarized as the REPL's printing summarizes them.
std::string tensorHtml(const interp::Value& tensor);

/// Registers tensorHtml as the text/html form of tensors.
void registerTensorHtml();

}  // namespace tessel::kernel
