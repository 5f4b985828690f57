// SourceRegistry: source texts and line lookup for diagnostics.
#include "interp/syntax/source.h"

namespace tessel::interp {

uint32_t SourceRegistry::add(std::string name, std::string text) {
  auto file = std::make_unique<File>();
  file->name = std::move(name);
  file->text = std::move(text);
  file->lineStarts.push_back(0);
  for (size_t i = 0; i < file->text.size(); ++i)
    if (file->text[i] == '\n') file->lineStarts.push_back(i + 1);
  files_.push_back(std::move(file));
  return static_cast<uint32_t>(files_.size() - 1);
}

const std::string& SourceRegistry::name(uint32_t file) const {
  return files_.at(file)->name;
}
const std::string& SourceRegistry::text(uint32_t file) const {
  return files_.at(file)->text;
}

std::string_view SourceRegistry::line(uint32_t file, uint32_t line) const {
  if (file >= files_.size()) return {};
  const File& f = *files_[file];
  if (line == 0 || line > f.lineStarts.size()) return {};
  size_t begin = f.lineStarts[line - 1];
  size_t end = f.text.find('\n', begin);
  if (end == std::string::npos) end = f.text.size();
  if (end > begin && f.text[end - 1] == '\r') --end;
  return std::string_view(f.text).substr(begin, end - begin);
}

}  // namespace tessel::interp
