// The docs of the built-ins (Note [One source of docs] in interp/natives/help.cpp): every name
// the interpreter's tables have is documented, every entry names something, and
// docs/reference.md is what `tessel reference` generates from them.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "interp/interpreter.h"
#include "interp/natives/help.h"

using namespace tessel::interp;

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (auto& n : names) out += "  " + n + "\n";
  return out;
}

}  // namespace

TEST(Docs, EveryBuiltinHasADoc) {
  Interpreter interp;
  std::vector<std::string> missing;
  for (const std::string& key : documentableNames(interp))
    if (!isDocumented(interp, key)) missing.push_back(key);
  EXPECT_TRUE(missing.empty())
      << "built-ins without documentation; add an entry (a signature line and an indented "
         "paragraph) to interp/natives/docs/*.txt, or a comment above a stdlib fn:\n"
      << joined(missing);
}

TEST(Docs, EveryEntryNamesABuiltin) {
  Interpreter interp;
  auto names = documentableNames(interp);
  std::set<std::string> known(names.begin(), names.end());
  std::vector<std::string> stale, duplicate;
  std::set<std::string> seen;
  for (const DocEntry& e : builtinDocs()) {
    if (!known.count(e.key)) stale.push_back(e.key);
    if (!seen.insert(e.key).second) duplicate.push_back(e.key);
    EXPECT_FALSE(e.text.empty()) << e.key << " has a signature but no description";
  }
  EXPECT_TRUE(stale.empty()) << "doc entries that name nothing the interpreter has:\n"
                             << joined(stale);
  EXPECT_TRUE(duplicate.empty()) << "keys documented twice:\n" << joined(duplicate);
}

// Every "Example: `call`" of an entry runs (the op definitions of ops/*.ops give each op one).
TEST(Docs, EveryExampleRuns) {
  Interpreter interp;
  std::ostringstream sink;
  interp.setOutput(&sink);
  int ran = 0;
  for (const DocEntry& e : builtinDocs()) {
    const std::string marker = "Example: `";
    for (size_t at = e.text.find(marker); at != std::string::npos;
         at = e.text.find(marker, at + 1)) {
      const size_t begin = at + marker.size(), end = e.text.find('`', begin);
      ASSERT_NE(end, std::string::npos) << e.key << ": unterminated example";
      const std::string code = e.text.substr(begin, end - begin);
      EXPECT_NO_THROW(interp.evalExpression("<example of " + e.key + ">", code))
          << e.key << ": " << code;
      ++ran;
    }
  }
  EXPECT_GT(ran, 20);
}

// Every tensor function's entry carries a runnable example (run by EveryExampleRuns): the
// hand-written ones' in ops/tensor_functions.txt, the elementwise ones' from ops/*.ops.
TEST(Docs, EveryTensorFunctionHasAnExample) {
  std::ifstream in(std::string(TESSEL_SOURCE_DIR) + "/ops/tensor_functions.txt");
  ASSERT_TRUE(in);
  std::string line, key;
  bool hasExample = true;
  int entries = 0;
  auto finish = [&] {
    EXPECT_TRUE(key.empty() || hasExample)
        << key << " in ops/tensor_functions.txt has no \"Example: `...`\" line";
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == ' ') {
      if (line.find("Example: `") != std::string::npos) hasExample = true;
      continue;
    }
    finish();
    key.clear();
    if (line[0] == '#') continue;  // a comment or a section heading
    key = line;
    hasExample = false;
    ++entries;
  }
  finish();
  EXPECT_GT(entries, 100);
}

TEST(Docs, ReferenceIsGeneratedFromTheDocs) {
  Interpreter interp;
  std::ifstream in(std::string(TESSEL_SOURCE_DIR) + "/docs/reference.md", std::ios::binary);
  ASSERT_TRUE(in) << "docs/reference.md is missing: `build/repl/tessel reference -o "
                     "docs/reference.md` (the build runs it)";
  std::stringstream file;
  file << in.rdbuf();
  EXPECT_EQ(file.str(), referenceMarkdown(interp) + "\n")
      << "docs/reference.md is stale: `build/repl/tessel reference -o docs/reference.md`";
}

TEST(Docs, HelpAndDirAgreeWithTheTables) {
  Interpreter interp;
  std::ostringstream out;
  interp.setOutput(&out);
  interp.runSource("<test>",
                   "help(print)\n"
                   "help(\"str.strip\")\n"
                   "help(zeros([2]).sum)\n"
                   "import nn\n"
                   "help(nn.linear_init)\n"
                   "# Doubles x.\n"
                   "fn twice(x) { return 2 * x }\n"
                   "help(twice)\n"
                   "print(dir(\"\")[:3], \"shape\" in dir(zeros([1])), dir(math)[:2])\n");
  std::string text = out.str();
  EXPECT_NE(text.find("print(*values, sep = \" \""), std::string::npos) << text;
  EXPECT_NE(text.find("str.strip(chars = none)\n    The string without leading"), std::string::npos)
      << text;
  EXPECT_NE(text.find("tensor.sum: the method form of sum("), std::string::npos) << text;
  EXPECT_NE(text.find("nn.linear_init(fan_in, fan_out)\n    A linear layer's parameters"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("twice(x)\n    Doubles x."), std::string::npos) << text;
  EXPECT_NE(text.find("[\"count\", \"endswith\", \"find\"] true [\"ceil\", \"cos\"]"),
            std::string::npos)
      << text;
}
