// help(), dir() and the documentation behind them (Note [One source of docs]).
#include "interp/natives/help.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "interp/values/graph_break.h"
#include "interp/eval/session.h"
#include "interp/natives/attributes.h"
#include "interp/natives/builtins.h"
#include "interp/natives/errors.h"
#include "interp/values/native_args.h"
#include "interp/natives/native_modules.h"
#include "interp/syntax/ast.h"
#include "interp/syntax/suggest.h"
#include "interp/tensors/tensor_bridge.h"
#include "interp/values/native_object.h"
#include "interp/values/printer.h"
#include "shapes/user_error.h"

namespace tessel::interp {

// Generated at build time from interp/natives/docs/*.txt (embed_docs.cmake).
std::string_view builtinDocText();

// Note [One source of docs]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// Every built-in name is documented once, in interp/natives/docs/*.txt or, for a tensor function,
// beside its definition in ops/ (ops/tensor_functions.txt, and the entries opgen generates from
// ops/*.ops); the build embeds them in the library. help() prints an entry, dir() and the REPL's completion list the names the
// interpreter's own tables have (prelude, modules, method tables), and `tessel --reference`
// writes docs/reference.md from the entries and the tables together; the build rewrites that
// file when it changes. Functions written in Tessel (the stdlib's and the user's) are
// documented by the comment block above their `fn`, as Python's are by their docstring.
// tests/interp/docs_test.cpp fails when a name of the tables has no doc (a new op needs its
// signature line and a paragraph in ops/tensor_functions.txt), when an entry names nothing, and when
// docs/reference.md is stale.
//
// The entry format: `## Section` starts a section (its indented lines are its paragraph); a
// line at column 0 is an entry's signature (its key is the text before `(` or `:`); the
// indented lines after it are its description; `#` at column 0 is a comment. In
// ops/tensor_functions.txt a signature line is also the function's argument binding: the build
// generates `sig::NAME` from it (tools/signatures.py) and the native binds with
// ArgBinder(sig::NAME, args), so help() prints exactly what the native accepts.

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

std::string keyOf(const std::string& signature) {
  size_t end = signature.find_first_of("(:");
  return trim(signature.substr(0, end));
}

std::vector<DocEntry> parseDocs(std::string_view text) {
  std::vector<DocEntry> out;
  std::string section, intro;
  bool inIntro = false;
  std::string* body = nullptr;  // the text indented lines append to
  std::istringstream in{std::string(text)};
  std::string line;
  auto append = [&](const std::string& t) {
    if (!body) return;
    if (t.empty()) {
      if (!body->empty() && !body->ends_with("\n\n")) *body += "\n";
      return;
    }
    if (!body->empty() && !body->ends_with("\n")) *body += "\n";
    *body += t;
  };
  auto finishIntro = [&] {
    if (!inIntro) return;
    inIntro = false;
    while (intro.ends_with("\n")) intro.pop_back();
  };
  while (std::getline(in, line)) {
    if (line.starts_with("## ")) {
      finishIntro();
      section = trim(line.substr(3));
      intro.clear();
      inIntro = true;
      body = &intro;
    } else if (line.starts_with("#")) {
      continue;
    } else if (!line.empty() && line[0] != ' ') {
      finishIntro();
      DocEntry e;
      e.signature = trim(line);
      e.key = keyOf(e.signature);
      e.section = section;
      e.sectionIntro = intro;
      out.push_back(std::move(e));
      body = &out.back().text;
    } else {
      append(trim(line));
    }
  }
  for (DocEntry& e : out)
    while (e.text.ends_with("\n")) e.text.pop_back();
  return out;
}

// The first sentence of a description, for lists of names.
std::string summary(const std::string& text) {
  std::string flat;
  for (char c : text) flat += c == '\n' ? ' ' : c;
  size_t dot = flat.find(". ");
  return dot == std::string::npos ? flat : flat.substr(0, dot + 1);
}

std::string indent(const std::string& text, const char* pad) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out += line.empty() ? "\n" : pad + line + "\n";
  return out;
}

bool isStdlibModule(const std::string& name) {
  auto names = embeddedModuleNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool isMethodReceiver(Type t) {
  return t == Type::Str || t == Type::List || t == Type::Dict || t == Type::Tensor ||
         t == Type::Shape;
}

// Whether a module's global is a built-in its code uses (the module keeps the prelude's
// value in its own slot): `len` in nn. A built-in a module defines itself is named after
// the module (`math.sqrt`).
bool isBorrowedBuiltin(const std::string& name, const Value& v) {
  if (v.is(Type::Builtin)) return v.as<BuiltinObj>()->name == name;
  return v.is(Type::DType) && str(v) == name;  // f32, i32
}

// The members of a module a user sees (no `_` helpers, nothing undefined, not the built-ins
// its code uses unless it is the prelude), sorted.
std::vector<std::string> moduleNames(const ModuleObj& m, bool isPrelude = false) {
  std::vector<std::string> names;
  for (size_t i = 0; i < m.globalNames.size(); ++i)
    if (!m.globalNames[i].starts_with("_") && !m.globals[i].is(Type::Undefined) &&
        (isPrelude || !isBorrowedBuiltin(m.globalNames[i], m.globals[i])))
      names.push_back(m.globalNames[i]);
  std::sort(names.begin(), names.end());
  return names;
}

// "name(a, b = 1)" from the `fn` line of a function written in Tessel.
std::string functionHeader(Interpreter& interp, const FunctionObj& f) {
  const FnProto& p = *f.proto;
  for (uint32_t l = p.span.line; l <= std::max(p.span.line, p.span.endLine); ++l) {
    std::string_view text = interp.sources().line(p.span.file, l);
    size_t at = text.find("fn " + p.name);
    if (at == std::string_view::npos) continue;
    text = text.substr(at + 3);
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '(' || text[i] == '[') ++depth;
      if (text[i] == ')' || text[i] == ']') --depth;
      if (text[i] == '{' && depth == 0) return trim(text.substr(0, i));
    }
    return trim(text);
  }
  std::string header = p.name + "(";
  for (size_t i = 0; i < p.params.size(); ++i) header += (i ? ", " : "") + p.params[i].name;
  return header + ")";
}

Value stdlibMember(Interpreter& interp, const std::string& key) {
  size_t dot = key.find('.');
  if (dot == std::string::npos || !isStdlibModule(key.substr(0, dot))) return Value::none();
  Value module = interp.importModule(key.substr(0, dot), false, "", Span{});
  Value* v = module.as<ModuleObj>()->lookup(key.substr(dot + 1));
  return v ? *v : Value::none();
}

// A doc as help() prints it: the signature, then the description indented.
std::string formatEntry(const std::string& signature, const std::string& text) {
  return signature + "\n" + (text.empty() ? "    (no documentation)\n" : indent(text, "    "));
}

std::string describeKey(Interpreter& interp, const std::string& key) {
  if (const DocEntry* e = findDoc(key)) {
    std::string sig = e->signature;
    if (e->key != key) sig = key + ": the method form of " + e->signature;
    return formatEntry(sig, e->text);
  }
  Value member = stdlibMember(interp, key);
  if (member.is(Type::Function))
    return formatEntry(
        key.substr(0, key.find('.') + 1) + functionHeader(interp, *member.as<FunctionObj>()),
        functionComment(interp, member));
  return "";
}

std::string memberList(Interpreter& interp, const std::string& prefix,
                       const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    std::string key = prefix + n, line;
    if (const DocEntry* e = findDoc(key))
      line = summary(e->text);
    else if (Value m = stdlibMember(interp, key); m.is(Type::Function))
      line = summary(functionComment(interp, m));
    out += "    " + n + (line.empty() ? "" : ": " + line) + "\n";
  }
  return out;
}

const char* typePrefix(Type t) {
  switch (t) {
    case Type::Str:
      return "str.";
    case Type::List:
      return "list.";
    case Type::Dict:
      return "dict.";
    case Type::Tensor:
      return "tensor.";
    case Type::Shape:
      return "shape.";
    case Type::Error:
      return "error.";
    default:
      return "";
  }
}

std::string typeHelp(Interpreter& interp, Type t) {
  std::string out = "a value of type '" + std::string(typeName(t)) + "'";
  std::vector<std::string> names;
  switch (t) {
    case Type::Str:
    case Type::List:
    case Type::Dict:
      names = methodNames(t);
      break;
    case Type::Error:
      names = errorAttributeNames();
      break;
    case Type::Shape:
      names = tensorPropertyNames(true);
      break;
    case Type::Tensor: {
      names = tensorPropertyNames(false);
      for (auto& m : tensorMethodNames()) names.push_back(m);
      std::sort(names.begin(), names.end());
      break;
    }
    default:
      break;
  }
  if (names.empty()) return out + "\n";
  return out + "; its methods and attributes:\n" + memberList(interp, typePrefix(t), names);
}

std::vector<std::string> allKeys(Interpreter& interp) {
  std::vector<std::string> keys;
  for (const DocEntry& e : builtinDocs()) keys.push_back(e.key);
  for (auto& k : documentableNames(interp)) keys.push_back(k);
  return keys;
}

std::string topicHelp(Interpreter& interp, const std::string& topic) {
  if (std::string d = describeKey(interp, topic); !d.empty()) return d;
  for (Type t : {Type::Str, Type::List, Type::Dict, Type::Tensor, Type::Shape, Type::Error})
    if (topic == typeName(t)) return typeHelp(interp, t);
  if (Value* v = interp.prelude().lookup(topic)) return helpText(interp, *v);
  throwUserError(ErrorKind::NameError,
                 "help: no documentation for '" + topic + "'" + didYouMean(topic, allKeys(interp)));
}

Value builtinHelp(Interpreter& interp, CallArgs& a) {
  graphBreak(ErrorKind::ValueError, "help() is a side effect");
  ArgBinder b("help", a, {"value"}, 0);
  if (!b.has(0)) {
    interp.out() << "help(f) prints what a built-in, a method (help(s.strip) or "
                    "help(\"str.strip\")), a module (help(math)) or a function written in "
                    "Tessel (the comment above its fn) does; dir(v) lists a module's names or "
                    "the methods and attributes of a value; docs/reference.md lists every "
                    "built-in.\n";
  } else {
    const Value& v = b.at(0);
    interp.out() << (v.is(Type::Str) ? topicHelp(interp, v.as<StrObj>()->str)
                                     : helpText(interp, v));
  }
  interp.out().flush();
  return Value::none();
}

Value builtinDir(Interpreter& interp, CallArgs& a) {
  ArgBinder b("dir", a, {"value"}, 0);
  std::vector<std::string> names =
      b.has(0) ? attributeNames(b.at(0)) : moduleNames(interp.prelude(), true);
  std::vector<Value> out;
  for (auto& n : names) out.push_back(makeStr(n));
  return makeList(std::move(out));
}

}  // namespace

const std::vector<DocEntry>& builtinDocs() {
  static const std::vector<DocEntry> docs = parseDocs(builtinDocText());
  return docs;
}

const DocEntry* findDoc(std::string_view key) {
  for (const DocEntry& e : builtinDocs())
    if (e.key == key) return &e;
  if (key.starts_with("tensor.")) return findDoc(key.substr(7));
  return nullptr;
}

std::vector<std::string> attributeNames(const Value& v) {
  std::vector<std::string> names;
  switch (v.type()) {
    case Type::Module:
      return moduleNames(*v.as<ModuleObj>());
    case Type::Error:
      names = errorAttributeNames();
      break;
    case Type::Shape:
      names = tensorPropertyNames(true);
      break;
    case Type::Tensor:
      names = tensorPropertyNames(false);
      for (auto& m : tensorMethodNames()) names.push_back(m);
      break;
    case Type::Native:
      names = v.as<NativeObj>()->methodNames();
      break;
    default:
      names = methodNames(v.type());
      break;
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::string docKey(const Value& v) {
  if (v.is(Type::Builtin)) {
    const auto* b = v.as<BuiltinObj>();
    if (b->name.find('.') != std::string::npos) return b->name;
    if (isMethodReceiver(b->self.type())) return typePrefix(b->self.type()) + b->name;
    return b->name;
  }
  if (v.is(Type::Module)) return v.as<ModuleObj>()->name;
  if (v.is(Type::Function)) {
    const auto* f = v.as<FunctionObj>();
    if (f->module && isStdlibModule(f->module->name)) return f->module->name + "." + f->proto->name;
  }
  if (v.is(Type::DType)) return str(v);
  return "";
}

std::string functionComment(Interpreter& interp, const Value& function) {
  if (!function.is(Type::Function)) return "";
  const FnProto& p = *function.as<FunctionObj>()->proto;
  std::vector<std::string> lines;
  for (uint32_t l = p.span.line; l > 1; --l) {
    std::string text = trim(interp.sources().line(p.span.file, l - 1));
    if (text.starts_with("@")) continue;  // decorators between the comment and the fn
    if (!text.starts_with("#") || text.starts_with("# ---")) break;
    lines.push_back(trim(std::string_view(text).substr(1)));
  }
  std::reverse(lines.begin(), lines.end());
  std::string out;
  for (auto& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

std::string helpText(Interpreter& interp, const Value& v) {
  if (const CompilerPlugin* plugin = compilerPlugin())
    if (Value f = plugin->wrappedFunction(v); !f.is(Type::None)) return helpText(interp, f);
  std::string key = docKey(v);
  if (v.is(Type::Module)) {
    const auto* m = v.as<ModuleObj>();
    std::string out;
    if (const DocEntry* e = findDoc(key))
      out = formatEntry(e->signature, e->text);
    else
      out = "module " + m->name + "\n";
    return out + "  members:\n" + memberList(interp, m->name + ".", moduleNames(*m));
  }
  if (!key.empty())
    if (std::string d = describeKey(interp, key); !d.empty()) return d;
  if (v.is(Type::Function)) {
    const auto* f = v.as<FunctionObj>();
    return formatEntry(functionHeader(interp, *f), functionComment(interp, v));
  }
  if (v.is(Type::Builtin) || v.is(Type::Compiled)) return formatEntry(str(v), "");
  return typeHelp(interp, v.type());
}

std::string docLine(Interpreter& interp, const Value* owner, const std::string& name) {
  Value v;
  std::string key;
  if (!owner) {
    Value* g = interp.mainModule().lookup(name);
    if (!g || g->is(Type::Undefined)) g = interp.prelude().lookup(name);
    if (!g || g->is(Type::Undefined)) return "";
    v = *g;
  } else if (owner->is(Type::Module)) {
    Value* g = owner->as<ModuleObj>()->lookup(name);
    if (!g || g->is(Type::Undefined)) return "";
    v = *g;
  } else {
    key = typePrefix(owner->type()) + name;  // a method or attribute: no value to look at
  }
  if (key.empty()) {
    if (const CompilerPlugin* plugin = compilerPlugin())
      if (Value f = plugin->wrappedFunction(v); !f.is(Type::None)) v = f;
    const FunctionObj* f = v.is(Type::Function) ? v.as<FunctionObj>() : nullptr;
    if (f && !(f->module && isStdlibModule(f->module->name))) {
      std::string comment = summary(functionComment(interp, v));
      return functionHeader(interp, *f) + (comment.empty() ? "" : ": " + comment);
    }
    key = docKey(v);
    if (key.empty() && owner) key = owner->as<ModuleObj>()->name + "." + name;  // math.pi
  }
  if (const DocEntry* e = findDoc(key)) return e->signature + ": " + summary(e->text);
  Value member = stdlibMember(interp, key);
  if (member.is(Type::Function))
    return key.substr(0, key.find('.') + 1) + functionHeader(interp, *member.as<FunctionObj>()) +
           ": " + summary(functionComment(interp, member));
  return "";
}

std::vector<std::string> documentableNames(Interpreter& interp) {
  std::vector<std::string> keys;
  auto addModule = [&](const std::string& prefix, const ModuleObj& m) {
    for (const std::string& n : moduleNames(m)) keys.push_back(prefix + n);
  };
  const ModuleObj& prelude = interp.prelude();
  for (size_t i = 0; i < prelude.globalNames.size(); ++i) {
    const Value& v = prelude.globals[i];
    if (v.is(Type::Undefined)) continue;
    keys.push_back(prelude.globalNames[i]);
    if (v.is(Type::Module)) addModule(prelude.globalNames[i] + ".", *v.as<ModuleObj>());
  }
  for (const std::string& name : nativeModuleNames()) {
    keys.push_back(name);
    addModule(name + ".", *findNativeModule(interp, name).as<ModuleObj>());
  }
  for (const std::string& name : embeddedModuleNames()) {
    keys.push_back(name);
    Value m = interp.importModule(name, false, "", Span{});
    addModule(name + ".", *m.as<ModuleObj>());
  }
  for (Type t : {Type::Str, Type::List, Type::Dict})
    for (auto& n : methodNames(t)) keys.push_back(typePrefix(t) + n);
  for (auto& n : tensorPropertyNames(false)) keys.push_back("tensor." + n);
  for (auto& n : tensorPropertyNames(true)) keys.push_back("shape." + n);
  for (auto& n : errorAttributeNames()) keys.push_back("error." + n);
  std::set<std::string> seen;
  std::vector<std::string> unique;
  for (auto& k : keys)
    if (seen.insert(k).second) unique.push_back(k);
  return unique;
}

bool isDocumented(Interpreter& interp, const std::string& key) {
  if (findDoc(key)) return true;
  Value m = stdlibMember(interp, key);
  return m.is(Type::Function) && !functionComment(interp, m).empty();
}

std::string referenceMarkdown(Interpreter& interp) {
  std::string out =
      "# Reference\n\n"
      "Every built-in function, module, method and stdlib function, with its signature and what "
      "it does. This file is generated (`tessel reference -o docs/reference.md`, which the "
      "build runs) from the same text `help()` prints: the entries of "
      "`interp/natives/docs/*.txt` and the comments above the stdlib's functions. Edit those, "
      "not this file. The language itself is in `docs/language.md`, tensors in "
      "`docs/tensors.md`.\n";
  // A contents line: each section by its heading's anchor (GitHub's: lower case, spaces to
  // dashes, punctuation dropped).
  auto anchor = [](const std::string& heading) {
    std::string a;
    for (char c : heading)
      if (std::isalnum(static_cast<unsigned char>(c)))
        a += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      else if (c == ' ' || c == '-' || c == '_')
        a += c == ' ' ? '-' : c;
    return a;
  };
  std::vector<std::string> headings;
  for (const DocEntry& e : builtinDocs())
    if (headings.empty() || headings.back() != e.section) headings.push_back(e.section);
  headings.push_back("Methods of tensors");
  for (const std::string& name : embeddedModuleNames())
    headings.push_back("The `" + name + "` module (stdlib/" + name + ".dsl)");
  out += "\nContents:";
  for (size_t i = 0; i < headings.size(); ++i) {
    std::string text = headings[i];
    text.erase(std::remove(text.begin(), text.end(), '`'), text.end());
    out += std::string(i ? "," : "") + " [" + text + "](#" + anchor(headings[i]) + ")";
  }
  out += ".\n";
  std::string section;
  for (const DocEntry& e : builtinDocs()) {
    if (e.section != section) {
      section = e.section;
      out += "\n## " + section + "\n\n";
      if (!e.sectionIntro.empty()) out += e.sectionIntro + "\n\n";
    }
    out += "### `" + e.key + "`\n\n`" + e.signature + "`\n\n" + e.text + "\n\n";
  }
  out +=
      "## Methods of tensors\n\n`x.name(args)` is `name(x, args)` for each of these "
      "(documented above under its function):\n\n";
  std::string line;
  for (const std::string& n : tensorMethodNames()) line += (line.empty() ? "" : ", ") + n;
  out += line + "\n";
  for (const std::string& name : embeddedModuleNames()) {
    out += "\n## The `" + name + "` module (stdlib/" + name + ".dsl)\n\n";
    if (const DocEntry* e = findDoc(name)) out += e->text + "\n\n";
    Value m = interp.importModule(name, false, "", Span{});
    for (const std::string& n : moduleNames(*m.as<ModuleObj>())) {
      Value f = *m.as<ModuleObj>()->lookup(n);
      if (!f.is(Type::Function)) continue;
      out += "### `" + name + "." + n + "`\n\n`" + name + "." +
             functionHeader(interp, *f.as<FunctionObj>()) + "`\n\n" + functionComment(interp, f) +
             "\n\n";
    }
  }
  std::vector<std::string> missing;
  for (const std::string& k : documentableNames(interp))
    if (!isDocumented(interp, k)) missing.push_back(k);
  if (!missing.empty()) {
    out += "## Undocumented\n\nThese have no entry yet (the docs test fails):\n\n";
    for (auto& k : missing) out += "- `" + k + "`\n";
  }
  while (out.ends_with("\n\n")) out.pop_back();
  return out;
}

void registerHelpBuiltins(ModuleObj& prelude) {
  defineNative(prelude, "help", builtinHelp);
  defineNative(prelude, "dir", builtinDir);
}

}  // namespace tessel::interp
