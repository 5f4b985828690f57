// tessel::Value: construction, type tests, accessors, containers, errors.
#include <gtest/gtest.h>

#include "tessel/tessel.h"

namespace {

using tessel::Value;

TEST(ApiValue, ScalarsRoundTrip) {
  EXPECT_TRUE(Value().isNone());
  EXPECT_EQ(Value(int64_t{1} << 40).asInt(), int64_t{1} << 40);
  EXPECT_EQ(Value(7).asInt(), 7);
  EXPECT_EQ(Value(7u).asInt(), 7);
  EXPECT_DOUBLE_EQ(Value(2.5).asFloat(), 2.5);
  EXPECT_DOUBLE_EQ(Value(3).asFloat(), 3.0) << "an int reads as a float";
  EXPECT_TRUE(Value(true).asBool());
  EXPECT_TRUE(Value(true).isBool());
  EXPECT_FALSE(Value(true).isInt()) << "bools are not ints";
  EXPECT_EQ(Value("abc").asString(), "abc") << "a string literal is a str, not a bool";
  EXPECT_EQ(Value(std::string("x")).typeName(), "str");
}

TEST(ApiValue, TypeNamesAndRepr) {
  EXPECT_EQ(Value(1).typeName(), "int");
  EXPECT_EQ(Value(1.5).typeName(), "float");
  EXPECT_EQ(Value().typeName(), "none");
  EXPECT_EQ(Value("a").repr(), "\"a\"");
  EXPECT_EQ(Value::list({Value(1), Value("b"), Value(2.5)}).repr(), "[1, \"b\", 2.5]");
}

TEST(ApiValue, WrongAccessorIsATypeErrorNamingTheType) {
  try {
    Value("s").asInt();
    FAIL() << "no error";
  } catch (const tessel::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_EQ(e.message(), "expected an int, got str");
    EXPECT_EQ(e.line(), 0);
  }
  EXPECT_THROW(Value(1).asString(), tessel::Error);
  EXPECT_THROW(Value(1).asTensor(), tessel::Error);
  EXPECT_THROW(Value(1.5).asBool(), tessel::Error);
  EXPECT_THROW(Value(1)[0], tessel::Error);
  EXPECT_THROW(Value(1).size(), tessel::Error);
}

TEST(ApiValue, ListAccess) {
  Value l = Value::list({Value(1), Value(2), Value(3)});
  ASSERT_TRUE(l.isList());
  EXPECT_EQ(l.size(), 3u);
  EXPECT_EQ(l[2].asInt(), 3);
  std::vector<Value> items = l.items();
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].asInt(), 1);
  try {
    l[3];
    FAIL() << "no error";
  } catch (const tessel::Error& e) {
    EXPECT_EQ(e.kind(), "IndexError");
  }
}

TEST(ApiValue, DictAccessFromAScript) {
  tessel::Interpreter vm;
  Value d = vm.run("{\"b\": 1, \"a\": [2, 3]}");
  ASSERT_TRUE(d.isDict());
  EXPECT_EQ(d.size(), 2u);
  std::vector<Value> keys = d.keys();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].asString(), "b") << "insertion order";
  EXPECT_EQ(d["a"][1].asInt(), 3);
  try {
    d["zz"];
    FAIL() << "no error";
  } catch (const tessel::Error& e) {
    EXPECT_EQ(e.kind(), "KeyError");
  }
  Value t = vm.run("(1, \"x\")");
  EXPECT_TRUE(t.isList()) << "tuples read as lists";
  EXPECT_EQ(t.typeName(), "tuple");
  EXPECT_EQ(t[1].asString(), "x");
}

TEST(ApiValue, ValuesOutliveTheirInterpreter) {
  Value f, xs;
  {
    tessel::Interpreter vm;
    vm.run("fn twice(x) { return 2 * x }\nlet xs = [1, 2]");
    f = vm.get("twice");
    xs = vm.get("xs");
  }
  EXPECT_EQ(xs[1].asInt(), 2);
  EXPECT_TRUE(f.isCallable());
  EXPECT_EQ(f.typeName(), "function");
}

}  // namespace
