// display() and the rich forms (Note [Rich display] in interp/natives/display.h): a host's
// RichOutput receives the values, other outputs get their repr, and registered forms render
// the values they know.
#include "interp/natives/display.h"

#include <gtest/gtest.h>

#include <sstream>

#include "interp/interpreter.h"
#include "interp/values/printer.h"

using namespace tessel;
using interp::Value;

namespace {

// A host's output that keeps the repr of each value display() gives it.
class RecordingOutput : public interp::RichOutput {
 public:
  RecordingOutput() : interp::RichOutput(&text_) {}
  void display(const Value& value) override { shown.push_back(interp::repr(value)); }
  std::vector<std::string> shown;
  std::string text() const { return text_.str(); }

 private:
  std::stringbuf text_;
};

TEST(Display, PrintsTheReprOnAPlainOutput) {
  interp::Interpreter interp;
  std::ostringstream out;
  interp.setOutput(&out);
  interp.runSource("<test>", "display(\"a\")\ndisplay([1, 2.5])");
  EXPECT_EQ(out.str(), "\"a\"\n[1, 2.5]\n");
}

TEST(Display, HandsValuesToARichOutput) {
  interp::Interpreter interp;
  RecordingOutput out;
  interp.setOutput(&out);
  interp.runSource("<test>", "print(\"before\")\ndisplay(ones([2]))\ndisplay(none)");
  EXPECT_EQ(out.shown, (std::vector<std::string>{"tensor([1., 1.])", "none"}));
  EXPECT_EQ(out.text(), "before\n");  // print still writes text
}

TEST(Display, RegisteredFormsRenderTheValuesTheyKnow) {
  interp::Interpreter interp;
  interp::registerRichForm("test shout", "text/x-shout",
                           [](interp::Interpreter&, const Value& v) -> std::optional<std::string> {
                             if (!v.is(interp::Type::Str)) return std::nullopt;
                             return interp::str(v) + "!";
                           });
  Value hello = interp.runSource("<test>", "\"hello\"", true);
  auto forms = interp::richForms(interp, hello);
  ASSERT_EQ(forms.size(), 1u);
  EXPECT_EQ(forms[0], (std::pair<std::string, std::string>{"text/x-shout", "hello!"}));
  EXPECT_TRUE(interp::richForms(interp, Value::integer(3)).empty());
  // The same name replaces the form instead of adding a second one.
  interp::registerRichForm("test shout", "text/x-shout",
                           [](interp::Interpreter&, const Value&) -> std::optional<std::string> {
                             return "quiet";
                           });
  forms = interp::richForms(interp, hello);
  ASSERT_EQ(forms.size(), 1u);
  EXPECT_EQ(forms[0].second, "quiet");
  interp::registerRichForm("test shout", "text/x-shout",
                           [](interp::Interpreter&, const Value&) -> std::optional<std::string> {
                             return std::nullopt;
                           });
}

}  // namespace
