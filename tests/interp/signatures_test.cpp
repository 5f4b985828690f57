// The argument binding of the hand-written tensor functions is their signature line in
// ops/tensor_functions.txt (tools/signatures.py generates ops_gen/tensor_signatures.h, and each
// native binds with ArgBinder(sig::NAME, args)). These tests call every function of the file
// and check that what it accepts is what help() prints: its keywords, its required arguments
// and the line itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "interp/interpreter.h"
#include "interp/natives/help.h"
#include "interp/values/native_args.h"
#include "ops_gen/tensor_signatures.h"

using namespace tessel::interp;

namespace {

// The error message of evaluating `code`, or "" when it succeeds.
std::string errorOf(Interpreter& interp, const std::string& code) {
  try {
    interp.evalExpression("<signatures test>", code);
  } catch (const tessel::UserError& e) {
    return e.what();
  }
  return "";
}

// The names a keyword may take in a signature line as printed, read from its text (not from
// the generated constant): `f(a, b = 1, *rest, c = 2)` gives a, b, c.
std::vector<std::string> keywordsOfLine(const std::string& line) {
  const size_t open = line.find('('), close = line.rfind(')');
  std::vector<std::string> names;
  std::string part;
  int depth = 0;
  char quote = 0;
  auto take = [&] {
    size_t b = part.find_first_not_of(' ');
    if (b != std::string::npos && part[b] != '*') {
      std::string name = part.substr(b, part.find_first_of(" =", b) - b);
      names.push_back(name);
    }
    part.clear();
  };
  for (size_t i = open + 1; i < close; ++i) {
    const char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      take();
      continue;
    }
    part += c;
  }
  take();
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

}  // namespace

// One entry per function of the file, all of them bindings: a change to the file's functions
// shows here first.
TEST(Signatures, EveryFunctionOfTheFileIsGenerated) {
  // Every hand-written tensor function (the elementwise ops moving to ops/elementwise.ops leave).
  EXPECT_GT(std::size(sig::kAll), 120u);
  EXPECT_STREQ(sig::zeros.text, "zeros(shape, dtype = f32)");
  EXPECT_EQ(sig::zeros.count, 2u);
  EXPECT_EQ(sig::zeros.required, 1u);
  EXPECT_TRUE(sig::einsum.variadic);
  EXPECT_EQ(sig::einsum.positional, 1u);
}

// help(name) prints the line the binding was generated from.
TEST(Signatures, HelpPrintsTheGeneratedSignature) {
  Interpreter interp;
  for (const NativeSignature* s : sig::kAll) {
    const DocEntry* e = findDoc(s->name);
    ASSERT_NE(e, nullptr) << s->name;
    EXPECT_EQ(e->signature, s->text);
    const Value f = interp.evalExpression("<signatures test>", s->name);
    const std::string help = helpText(interp, f);
    EXPECT_EQ(help.substr(0, help.find('\n')), s->text) << s->name;
  }
}

// An unknown keyword is rejected naming the function and the keywords of its printed line:
// the native binds exactly the names help() shows. A near miss names the parameter meant.
TEST(Signatures, AnUnknownKeywordNamesTheFunctionAndItsKeywords) {
  Interpreter interp;
  std::ostringstream sink;
  interp.setOutput(&sink);
  for (const NativeSignature* s : sig::kAll) {
    const std::vector<std::string> keywords = keywordsOfLine(s->text);
    const std::string expected =
        std::string(s->name) + "() got an unexpected keyword argument 'zzqx'" +
        (keywords.empty() ? " (it takes no keyword arguments)"
                          : " (its keywords: " + joined(keywords) + ")");
    EXPECT_NE(errorOf(interp, std::string(s->name) + "(zzqx = 1)").find(expected),
              std::string::npos)
        << s->name << ": " << errorOf(interp, std::string(s->name) + "(zzqx = 1)");
  }
  EXPECT_NE(errorOf(interp, "zeros([2], dtyp = f32)")
                .find("zeros() got an unexpected keyword argument 'dtyp' (did you mean 'dtype'?)"),
            std::string::npos);
  EXPECT_NE(errorOf(interp, "conv2d(ones([1, 1, 3, 3]), ones([1, 1, 2, 2]), bais = none)")
                .find("(did you mean 'bias'?)"),
            std::string::npos);
}

// The parameters without a default are required, in the order of the line.
TEST(Signatures, ARequiredArgumentIsNamedWhenMissing) {
  Interpreter interp;
  for (const NativeSignature* s : sig::kAll) {
    if (s->required == 0) continue;
    EXPECT_NE(errorOf(interp, std::string(s->name) + "()")
                  .find(std::string(s->name) + "() missing argument '" + s->params[0] + "'"),
              std::string::npos)
        << s->name << ": " << errorOf(interp, std::string(s->name) + "()");
  }
}

// No more positional arguments than the line has parameters, except where the line says
// `*rest`, and the sizes of reshape and its kin, which PyTorch's methods also take one by one
// (`x.reshape(2, 3)`, tensor_natives.h's bindSizes).
TEST(Signatures, ExtraPositionalArgumentsAreRejected) {
  Interpreter interp;
  const std::vector<std::string> sizesAsPositionals = {"reshape", "expand", "permute", "repeat",
                                                       "tile"};
  for (const NativeSignature* s : sig::kAll) {
    if (s->variadic ||
        std::find(sizesAsPositionals.begin(), sizesAsPositionals.end(), s->name) !=
            sizesAsPositionals.end())
      continue;
    std::string call = std::string(s->name) + "(";
    for (size_t i = 0; i <= s->count; ++i) call += i ? ", 0" : "0";
    call += ")";
    EXPECT_NE(errorOf(interp, call).find(std::string(s->name) + "() takes at most " +
                                         std::to_string(s->count) + " arguments"),
              std::string::npos)
        << call << ": " << errorOf(interp, call);
  }
}

// The variadic forms: meshgrid(*tensors, indexing = "ij") and einsum(equation, *operands).
TEST(Signatures, VariadicParametersTakeTheFurtherPositionals) {
  Interpreter interp;
  EXPECT_EQ(errorOf(interp, "meshgrid(tensor([1, 2]), tensor([3, 4, 5]), indexing = \"xy\")"), "");
  EXPECT_EQ(errorOf(interp, "einsum(\"ij,jk->ik\", ones([2, 3]), ones([3, 4]))"), "");
  EXPECT_NE(errorOf(interp, "meshgrid(tensor([1]), tensors = tensor([1]))")
                .find("meshgrid() got an unexpected keyword argument 'tensors' (its keywords: "
                      "indexing)"),
            std::string::npos);
  EXPECT_NE(errorOf(interp, "einsum()").find("einsum() missing argument 'equation'"),
            std::string::npos);
}

// `*` in a line makes the parameters after it keyword-only (tools/signatures.py counts them out
// of `positional`); no line of the file uses it yet, so the binder is tested on its own.
TEST(Signatures, KeywordOnlyParametersAreNotTakenByPosition) {
  static const char* const params[] = {"x", "dim", "keepdim"};
  const NativeSignature s{"f", params, 3, 1, 2, false, "f(x, dim = none, *, keepdim = false)"};
  std::vector<Value> positional = {Value::integer(1), Value::integer(2)};
  const std::vector<std::string> names = {"keepdim"};
  std::vector<Value> values = {Value::boolean(true)};
  CallArgs ok{positional, names, values, Value(), {}};
  ArgBinder b(s, ok);
  EXPECT_EQ(b.toInt(1), 2);
  EXPECT_TRUE(b.toBool(2));
  std::vector<Value> three = {Value::integer(1), Value::integer(2), Value::boolean(true)};
  CallArgs tooMany{three, {}, {}, Value(), {}};
  try {
    ArgBinder bad(s, tooMany);
    ADD_FAILURE() << "a keyword-only parameter was bound by position";
  } catch (const tessel::UserError& e) {
    EXPECT_STREQ(e.what(), "f() takes at most 2 positional arguments (3 given)");
  }
}
