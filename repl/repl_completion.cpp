// Completion: finding the word before the cursor, resolving a dotted chain of names to a value,
// and listing what is in scope or on that value (or, inside `d["`, the dict's keys).
#include "repl/repl_completion.h"

#include <algorithm>
#include <cctype>

#include "repl/repl_commands.h"

namespace tessel::repl {

namespace {

// language.md, "Lexical structure".
const char* const kKeywords[] = {"let",  "fn",    "return", "if",       "elif", "else",   "while",
                                 "for",  "in",    "break",  "continue", "and",  "or",     "not",
                                 "true", "false", "none",   "import",   "as",   "assert", "where",
                                 "try",  "except", "finally", "raise"};

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The start of the identifier-like word that ends at `end`.
size_t wordStart(std::string_view text, size_t end) {
  size_t i = end;
  while (i > 0 && isIdentChar(text[i - 1])) --i;
  return i;
}

bool isIdentifier(std::string_view w) {
  return !w.empty() && !std::isdigit(static_cast<unsigned char>(w[0]));
}

// Whether `text` ends inside a string literal (completion there would be noise).
bool insideString(std::string_view text) {
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return true;  // a comment: nothing to complete either
    }
  }
  return quote != 0;
}

// Resolves `a.b.c` (no calls, no indexing) to a value, looking only at bound names.
std::optional<Value> resolveChain(const Interpreter& vm, const std::vector<std::string>& chain) {
  std::string dotted;
  for (const std::string& name : chain) dotted += (dotted.empty() ? "" : ".") + name;
  return vm.lookup(dotted);
}

// The dotted names before the '.' at `dot`, outermost first; empty when the object is not a
// plain chain of names (a call, an index, a literal).
std::vector<std::string> chainBefore(std::string_view text, size_t dot) {
  std::vector<std::string> chain;
  size_t end = dot;
  for (;;) {
    size_t start = wordStart(text, end);
    std::string_view name = text.substr(start, end - start);
    if (!isIdentifier(name)) return {};
    chain.insert(chain.begin(), std::string(name));
    if (start == 0 || text[start - 1] != '.') break;
    end = start - 1;
  }
  return chain;
}

Completion finish(size_t start, std::string_view prefix, std::vector<std::string> names) {
  Completion c;
  c.start = start;
  for (std::string& n : names)
    if (n.starts_with(prefix)) c.candidates.push_back(std::move(n));
  std::sort(c.candidates.begin(), c.candidates.end());
  c.candidates.erase(std::unique(c.candidates.begin(), c.candidates.end()), c.candidates.end());
  return c;
}

// `d["pre` (or `d['pre`): the keys of the dict `d`, a bound chain of names, that start with
// what is typed inside the string. False when the text does not end so.
bool completeDictKey(const Interpreter& vm, std::string_view text, Completion& out) {
  size_t quote = text.find_last_of("\"'");
  if (quote == std::string_view::npos || quote == 0 || text[quote - 1] != '[') return false;
  if (text.substr(quote + 1).find('\\') != std::string_view::npos) return false;
  if (!insideString(text)) return false;  // the quote closes a string instead of opening one
  std::vector<std::string> chain = chainBefore(text, quote - 1);
  std::optional<Value> object;
  if (chain.empty() || !(object = resolveChain(vm, chain)) || !object->isDict()) return false;
  std::vector<std::string> keys;
  for (const Value& key : object->keys()) keys.push_back(key.asString());
  out = finish(quote + 1, text.substr(quote + 1), std::move(keys));
  return true;
}

Completion completeCode(const Interpreter& vm, std::string_view text) {
  Completion keys;
  if (completeDictKey(vm, text, keys)) return keys;
  if (insideString(text)) return {};
  size_t start = wordStart(text, text.size());
  std::string_view word = text.substr(start);
  if (!word.empty() && !isIdentifier(word)) return {};  // a number
  if (start > 0 && text[start - 1] == '.') {
    std::vector<std::string> chain = chainBefore(text, start - 1);
    std::optional<Value> object;
    if (chain.empty() || !(object = resolveChain(vm, chain))) return {};
    Completion c = finish(start, word, object->attributeNames());
    if (c.candidates.size() == 1 && c.candidates[0] == word) c.doc = vm.docSummary(*object, word);
    return c;
  }
  if (word.empty()) return {};
  std::vector<std::string> names(std::begin(kKeywords), std::end(kKeywords));
  for (std::string& name : vm.globalNames()) names.push_back(std::move(name));
  Completion c = finish(start, word, std::move(names));
  if (c.candidates.size() == 1 && c.candidates[0] == word) c.doc = vm.docSummary(word);
  return c;
}

}  // namespace

std::string helpAtCursor(const Interpreter& vm, std::string_view text, size_t cursor) {
  cursor = std::min(cursor, text.size());
  size_t end = cursor;
  while (end < text.size() && isIdentChar(text[end])) ++end;
  if (wordStart(text, end) == end) {  // not on a name: maybe just inside a call's '('
    if (cursor == 0) return "";
    size_t open = text.find_last_not_of(" \t", cursor - 1);
    if (open == std::string_view::npos || text[open] != '(') return "";
    end = open;
  }
  std::vector<std::string> chain = chainBefore(text, end);
  if (chain.empty()) return "";
  if (std::optional<Value> value = resolveChain(vm, chain)) return vm.help(*value);
  if (chain.size() == 1) return "";
  // A method (`x.sum`) is no bound value of its own: its doc comes from the receiver's type.
  std::string name = chain.back();
  chain.pop_back();
  std::optional<Value> owner = resolveChain(vm, chain);
  return owner ? vm.docSummary(*owner, name) : "";
}

Completion completeInput(const Interpreter& vm, std::string_view before) {
  size_t lead = before.find_first_not_of(" \t");
  if (lead != std::string_view::npos && before[lead] == ':') {
    std::string_view rest = before.substr(lead);
    size_t space = rest.find_first_of(" \t");
    if (space == std::string_view::npos) {
      std::vector<std::string> names;
      for (const std::string& n : commandNames()) names.push_back(":" + n);
      return finish(lead, rest, std::move(names));
    }
    if (!commandTakesExpression(rest)) return {};
    size_t exprStart = lead + space;
    Completion c = completeCode(vm, before.substr(exprStart));
    c.start += exprStart;
    return c;
  }
  return completeCode(vm, before);
}

}  // namespace tessel::repl
