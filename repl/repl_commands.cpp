// The `:` command table and each command's action.
#include "repl/repl_commands.h"

#include <chrono>
#include <cstdio>
#include <iostream>

#include "repl/repl_eval.h"

namespace tessel::repl {

namespace {

struct Command {
  const char* name;
  const char* args;  // for usage lines; "" when it takes none
  const char* help;
  bool takesExpression;
  CommandOutcome (*run)(Interpreter& vm, const std::string& arg);
};

void usageError(const Command& c) {
  std::cout.flush();
  std::cerr << "error: usage: :" << c.name << " " << c.args << "\n";
}

// "1.234 ms": three significant-ish digits in a readable unit.
std::string formatDuration(double seconds) {
  char buf[64];
  if (seconds < 1e-3)
    std::snprintf(buf, sizeof buf, "%.1f us", seconds * 1e6);
  else if (seconds < 1.0)
    std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  return buf;
}

CommandOutcome cmdHelp(Interpreter&, const std::string&) {
  std::cout << helpText();
  return CommandOutcome::Continue;
}

CommandOutcome cmdQuit(Interpreter&, const std::string&) {
  return CommandOutcome::Quit;
}

CommandOutcome cmdLoad(Interpreter& vm, const std::string& arg) {
  std::string path = arg;
  if (path.size() >= 2 && (path.front() == '"' || path.front() == '\'') &&
      path.back() == path.front())
    path = path.substr(1, path.size() - 2);
  reportErrors([&] { vm.execFile(path); });
  return CommandOutcome::Continue;
}

CommandOutcome cmdReset(Interpreter& vm, const std::string&) {
  vm.reset();
  std::cout << "session reset: all definitions forgotten\n";
  return CommandOutcome::Continue;
}

CommandOutcome cmdType(Interpreter& vm, const std::string& arg) {
  reportErrors([&] { std::cout << vm.run(arg, kInputName).typeName() << "\n"; });
  return CommandOutcome::Continue;
}

CommandOutcome cmdTime(Interpreter& vm, const std::string& arg) {
  auto start = std::chrono::steady_clock::now();
  Value v;
  bool ok = reportErrors([&] { v = vm.run(arg, kInputName); });
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  if (ok) echoValue(v);
  std::cout << "time: " << formatDuration(elapsed.count()) << "\n";
  return CommandOutcome::Continue;
}

// :guards f / :graphs f: the entries of a compiled function.
CommandOutcome showFrame(Interpreter& vm, const std::string& arg, Interpreter::CompiledView view) {
  reportErrors([&] {
    std::optional<std::string> text = vm.describeCompiled(vm.run(arg, kInputName), view);
    if (text) {
      std::cout << *text;
    } else {
      std::cout.flush();
      std::cerr << "TypeError: " << arg << " is not a compiled function\n";
    }
  });
  return CommandOutcome::Continue;
}

CommandOutcome cmdGuards(Interpreter& vm, const std::string& arg) {
  return showFrame(vm, arg, Interpreter::CompiledView::Guards);
}

CommandOutcome cmdGraphs(Interpreter& vm, const std::string& arg) {
  return showFrame(vm, arg, Interpreter::CompiledView::Graphs);
}

// :stats [f]: stats(f), or the totals of every compiled function.
CommandOutcome cmdStats(Interpreter& vm, const std::string& arg) {
  reportErrors([&] {
    std::string expr = arg.empty() ? "stats()" : "stats(" + arg + ")";
    Value v = vm.run(expr, kInputName);
    for (const Value& k : v.keys())
      std::cout << k.asString() << ": " << v[k.asString()].repr() << "\n";
  });
  return CommandOutcome::Continue;
}

const Command kCommands[] = {
    {"help", "", "show this help", false, cmdHelp},
    {"quit", "", "leave the REPL (Ctrl-D on an empty line does too)", false, cmdQuit},
    {"load", "FILE", "run FILE in this session; its definitions stay", false, cmdLoad},
    {"reset", "", "forget every definition made in this session", false, cmdReset},
    {"type", "EXPR", "evaluate EXPR and show the type of its value", true, cmdType},
    {"time", "EXPR", "evaluate EXPR, show its value and how long it took", true, cmdTime},
    {"guards", "F", "show the guards of each compiled entry of F", true, cmdGuards},
    {"graphs", "F", "show the optimized graph of each compiled entry of F", true, cmdGraphs},
    {"stats", "[F]", "show stats(F), or the totals of every compiled function", false, cmdStats},
};

std::string_view trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

// The name after ':' (up to white space).
std::string_view commandWord(std::string_view input) {
  std::string_view s = trim(input);
  if (!s.empty() && s[0] == ':') s.remove_prefix(1);
  return s.substr(0, s.find_first_of(" \t\r\n"));
}

// The command named exactly, or by a unique prefix (`:q`, `:l`); null otherwise.
const Command* findCommand(std::string_view word, std::vector<const Command*>* matches = nullptr) {
  std::vector<const Command*> found;
  for (const Command& c : kCommands) {
    if (word == c.name) return &c;
    if (!word.empty() && std::string_view(c.name).starts_with(word)) found.push_back(&c);
  }
  if (matches) *matches = found;
  return found.size() == 1 ? found.front() : nullptr;
}

}  // namespace

bool isCommand(std::string_view input) {
  std::string_view s = trim(input);
  return !s.empty() && s[0] == ':';
}

std::vector<std::string> commandNames() {
  std::vector<std::string> names;
  for (const Command& c : kCommands) names.push_back(c.name);
  return names;
}

bool commandTakesExpression(std::string_view input) {
  const Command* c = findCommand(commandWord(input));
  return c && c->takesExpression;
}

std::string commandArgument(std::string_view input) {
  std::string_view s = trim(input);
  s.remove_prefix(1 + commandWord(input).size());
  return std::string(trim(s));
}

std::string helpText() {
  std::string text =
      "Type Tessel statements; the value of an expression statement is printed.\n"
      "Input continues on '... ' lines while brackets are open or a line ends in '\\'.\n"
      "\n"
      "Commands (a unique prefix is enough, e.g. :q):\n";
  for (const Command& c : kCommands) {
    std::string head = std::string("  :") + c.name + (*c.args ? " " : "") + c.args;
    head.resize(std::max<size_t>(head.size() + 2, 16), ' ');
    text += head + c.help + "\n";
  }
  text +=
      "\n"
      "Keys: Tab completes names and attributes; Up/Down recall history; Ctrl-C stops a\n"
      "running computation or discards the line being typed; Ctrl-D on an empty line quits.\n";
  return text;
}

CommandOutcome runCommand(Interpreter& vm, std::string_view input) {
  std::string_view word = commandWord(input);
  std::vector<const Command*> matches;
  const Command* c = findCommand(word, &matches);
  if (!c) {
    std::cout.flush();
    if (matches.size() > 1) {
      std::cerr << "error: ambiguous command ':" << word << "' (";
      for (size_t i = 0; i < matches.size(); ++i)
        std::cerr << (i ? ", :" : ":") << matches[i]->name;
      std::cerr << ")\n";
    } else {
      std::cerr << "error: unknown command ':" << word
                << "'; type :help for the list of commands\n";
    }
    return CommandOutcome::Continue;
  }
  std::string arg = commandArgument(input);
  bool optional = c->args[0] == '[';  // "[F]": the argument may be left out
  if (!optional && arg.empty() != (*c->args == '\0')) {
    usageError(*c);
    return CommandOutcome::Continue;
  }
  return c->run(vm, arg);
}

}  // namespace tessel::repl
