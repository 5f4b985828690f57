// The formula parser (op_formula.h): recursive descent, one function per precedence level.
#include "shapes/op_formula.h"

#include <cctype>
#include <optional>

namespace tessel::shapes {

namespace {

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  FormulaNode parse() {
    FormulaNode n = comparison();
    skip();
    if (i_ != s_.size()) error("unexpected '" + s_.substr(i_) + "'");
    return n;
  }

 private:
  [[noreturn]] void error(const std::string& what) {
    throw std::invalid_argument("formula '" + s_ + "': " + what);
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const char* tok) {
    skip();
    const std::string t(tok);
    if (s_.compare(i_, t.size(), t) != 0) return false;
    i_ += t.size();
    return true;
  }
  static FormulaNode op(OpKind k, std::vector<FormulaNode> kids) {
    FormulaNode n;
    n.kind = FormulaNode::Kind::Op;
    n.op = k;
    n.kids = std::move(kids);
    return n;
  }
  FormulaNode comparison() {
    FormulaNode l = additive();
    static const std::pair<const char*, OpKind> kCmp[] = {
        {"<=", OpKind::Le}, {">=", OpKind::Ge}, {"==", OpKind::Eq},
        {"!=", OpKind::Ne}, {"<", OpKind::Lt},  {">", OpKind::Gt}};
    for (const auto& [tok, k] : kCmp)
      if (eat(tok)) return op(k, {std::move(l), additive()});
    return l;
  }
  FormulaNode additive() {
    FormulaNode l = multiplicative();
    for (;;) {
      if (eat("+")) l = op(OpKind::Add, {std::move(l), multiplicative()});
      else if (eat("-")) l = op(OpKind::Sub, {std::move(l), multiplicative()});
      else return l;
    }
  }
  FormulaNode multiplicative() {
    FormulaNode l = unary();
    for (;;) {
      if (eat("*")) l = op(OpKind::Mul, {std::move(l), unary()});
      else if (eat("/")) l = op(OpKind::Div, {std::move(l), unary()});
      else return l;
    }
  }
  FormulaNode unary() {
    if (eat("-")) return op(OpKind::Neg, {unary()});
    return primary();
  }
  FormulaNode primary() {
    skip();
    if (eat("(")) {
      FormulaNode n = comparison();
      if (!eat(")")) error("expected ')'");
      return n;
    }
    if (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) {
      size_t used = 0;
      FormulaNode n;
      n.number = std::stod(s_.substr(i_), &used);
      const std::string lit = s_.substr(i_, used);
      n.integer = lit.find_first_of(".eE") == std::string::npos;
      i_ += used;
      return n;
    }
    size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    if (b == i_) error("expected a number, a name or '('");
    std::string id = s_.substr(b, i_ - b);
    if (!eat("(")) {
      FormulaNode n;
      n.kind = FormulaNode::Kind::Name;
      n.name = std::move(id);
      return n;
    }
    std::optional<OpKind> k = opFromName(id);
    if (!k) error("no op named '" + id + "'");
    std::vector<FormulaNode> args;
    if (!eat(")")) {
      do args.push_back(comparison());
      while (eat(","));
      if (!eat(")")) error("expected ')' after the arguments of " + id);
    }
    return op(*k, std::move(args));
  }

  std::string s_;
  size_t i_ = 0;
};

}  // namespace

FormulaNode parseFormula(const std::string& text) {
  return Parser(text).parse();
}

std::string unknownName(const FormulaNode& n, const std::vector<std::string>& names) {
  if (n.kind == FormulaNode::Kind::Name) {
    bool known = false;
    for (const std::string& s : names) known |= s == n.name;
    if (!known) return n.name;
  }
  for (const FormulaNode& k : n.kids)
    if (std::string bad = unknownName(k, names); !bad.empty()) return bad;
  return "";
}

}  // namespace tessel::shapes
