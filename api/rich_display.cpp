// Interpreter::mimeBundle: how a notebook shows a value. A tensor's HTML table shows the
// elements the text printer picks (backends::printedElements), so the notebook and the REPL
// summarize a tensor the same way; other forms are the registered ones (Note [Rich display]).
#include "api/interpreter_impl.h"
#include "backends/format.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/printer.h"

namespace tessel {

std::string escapeHtml(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&':
        s += "&amp;";
        break;
      case '<':
        s += "&lt;";
        break;
      case '>':
        s += "&gt;";
        break;
      case '"':
        s += "&quot;";
        break;
      case '\'':
        s += "&#39;";
        break;
      default:
        s += ch;
    }
  }
  return s;
}

namespace {

// "[4, <=8]" from the repr of x.shape ("shape([4, <=8])").
std::string shapeText(const interp::Value& tensor) {
  std::string s = interp::repr(interp::shapeValue(tensor));
  const std::string open = "shape(";
  if (s.rfind(open, 0) == 0 && s.size() > open.size() && s.back() == ')')
    return s.substr(open.size(), s.size() - open.size() - 1);
  return s;
}

// One 2-D block of the table (a 1-D tensor is one row), its cells taken in order from
// texts[next...]. A -1 index is the "..." of a summarized dim.
void appendTable(std::string& out, const std::vector<int64_t>& rows,
                 const std::vector<int64_t>& cols, const std::vector<std::string>& texts,
                 size_t& next, bool rowLabels) {
  out += "<table class=\"tessel-tensor\"><thead><tr>";
  if (rowLabels) out += "<th></th>";
  for (int64_t c : cols) out += c < 0 ? "<th>&hellip;</th>" : "<th>" + std::to_string(c) + "</th>";
  out += "</tr></thead><tbody>";
  for (int64_t r : rows) {
    out += "<tr>";
    if (rowLabels) out += r < 0 ? "<th>&vellip;</th>" : "<th>" + std::to_string(r) + "</th>";
    for (int64_t c : cols) {
      if (r < 0 || c < 0) {
        out += r < 0 ? "<td>&vellip;</td>" : "<td>&hellip;</td>";
      } else {
        out += "<td>" + (next < texts.size() ? escapeHtml(texts[next]) : "") + "</td>";
        ++next;
      }
    }
    out += "</tr>";
  }
  out += "</tbody></table>";
}

// The blocks of an n-D tensor (n >= 3): one table per index of the leading dims, labelled
// `[i, j, :, :]`, with a "..." line where a leading dim is summarized.
void appendBlocks(std::string& out, const backends::PrintedElements& shown, size_t dim,
                  std::string label, size_t& next) {
  size_t rank = shown.indices.size();
  if (dim + 2 == rank) {
    if (rank > 2) out += "<div class=\"tessel-block\">[" + label + ":, :]</div>";
    appendTable(out, shown.indices[dim], shown.indices[dim + 1], shown.texts, next, true);
    return;
  }
  for (int64_t i : shown.indices[dim]) {
    if (i < 0) {
      out += "<div class=\"tessel-block\">&vellip;</div>";
      continue;
    }
    appendBlocks(out, shown, dim + 1, label + std::to_string(i) + ", ", next);
  }
}

// A header with the shape (bounded sizes as `<=N`), dtype and device, then the elements.
std::string tensorHtml(const interp::Value& value) {
  const backends::Tensor& stored = interp::asTensor(value);
  backends::Tensor t = interp::hostTensor(stored);
  std::string out = "<div class=\"tessel-tensor\"><div><b>tensor</b> shape " +
                    escapeHtml(shapeText(value)) + " &middot; " +
                    std::string(shapes::name(t.dtype())) + " &middot; " +
                    std::string(backends::deviceName(stored.device())) + "</div>";
  backends::PrintedElements shown = backends::printedElements(t);
  size_t next = 0;
  if (t.ndim() == 0) {
    out += "<pre>" + escapeHtml(shown.texts.empty() ? "" : shown.texts[0]) + "</pre>";
  } else if (t.numel() == 0) {
    out += "<div>(no elements)</div>";
  } else if (t.ndim() == 1) {
    appendTable(out, {0}, shown.indices[0], shown.texts, next, false);
  } else {
    appendBlocks(out, shown, 0, "", next);
  }
  return out + "</div>";
}

// A later form of a MIME type replaces an earlier one, as in a Jupyter bundle.
void put(std::vector<std::pair<std::string, std::string>>& bundle, std::string mimeType,
         std::string text) {
  for (auto& [type, existing] : bundle)
    if (type == mimeType) {
      existing = std::move(text);
      return;
    }
  bundle.emplace_back(std::move(mimeType), std::move(text));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> Interpreter::mimeBundle(const Value& value) {
  if (!impl_) throw api::errorWithoutLocation("ValueError", "this Interpreter was moved from");
  Impl& impl = *impl_;
  return impl.inspect([&] {
    const interp::Value& v = api::unwrap(value);
    std::vector<std::pair<std::string, std::string>> bundle;
    put(bundle, "text/plain", interp::repr(v));
    if (v.is(interp::Type::Tensor)) put(bundle, "text/html", tensorHtml(v));
    for (auto& [mimeType, text] : interp::richForms(*impl.vm, v))
      put(bundle, std::move(mimeType), std::move(text));
    return bundle;
  });
}

}  // namespace tessel
