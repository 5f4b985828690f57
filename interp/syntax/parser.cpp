// The parser bridge: ANTLR lexes and parses, syntax errors and nesting limits become
// diagnostics, and ast_builder.cpp turns the parse tree into the AST.
#include "interp/syntax/parser.h"

#include <antlr4-runtime.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "TesselLexer.h"
#include "TesselParser.h"
#include "interp/syntax/ast_builder.h"
#include "interp/syntax/diagnostics.h"
#include "interp/syntax/stack_guard.h"

namespace tessel::interp {
namespace {

using P = grammar::TesselParser;
using antlr4::ParserRuleContext;
using antlr4::Token;

std::string describeToken(const Token* t) {
  if (!t || t->getType() == Token::EOF) return "end of input";
  if (t->getType() == P::NEWLINE) {
    // Virtual newlines (Note [Virtual newlines] in Tessel.g4) carry the text of what follows.
    if (t->getText().empty()) return "end of input";
    if (t->getText() == "}") return "'}'";
    return "end of line";
  }
  return "'" + t->getText() + "'";
}

// "expected ..." for a syntax error: tokens that can start an expression (or a statement) are
// summarized, so that the list stays short enough to read.
std::string describeExpected(const antlr4::Parser& parser, const antlr4::misc::IntervalSet& set) {
  static const size_t kExprStart[] = {P::INT,    P::FLOAT,  P::STRING, P::FSTRING,
                                      P::TRUE,   P::FALSE,  P::NONE,   P::NAME,
                                      P::LPAREN, P::LBRACK, P::LBRACE, P::FN,
                                      P::MINUS,  P::PLUS,   P::NOT,    P::WHERE};
  static const size_t kStmtStart[] = {P::LET,    P::IF,     P::WHILE,  P::FOR,
                                      P::BREAK,  P::CONTINUE, P::RETURN, P::ASSERT,
                                      P::IMPORT, P::AT,     P::TRY,    P::RAISE};
  auto has = [&set](size_t t) { return set.contains(static_cast<ssize_t>(t)); };
  bool expression = has(P::INT) && has(P::NAME) && has(P::LPAREN);
  bool statement = expression && has(P::LET) && has(P::IF);
  std::vector<std::string> names;
  for (ssize_t t : set.toList()) {
    auto in = [t](const auto& list) {
      return std::find(std::begin(list), std::end(list), static_cast<size_t>(t)) != std::end(list);
    };
    if (expression && in(kExprStart)) continue;
    if (statement && in(kStmtStart)) continue;
    if (t == P::NOT && has(P::IN)) continue;  // `not in` is listed as 'in'
    std::string name = t == static_cast<ssize_t>(Token::EOF) ? "end of input"
                       : t == P::NEWLINE                     ? "end of line"
                       : t == P::NAME                        ? "a name"
                       : t == P::STRING                      ? "a string"
                       : t == P::INT                         ? "an integer"
                                     : std::string(parser.getVocabulary().getDisplayName(t));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (statement)
    names.insert(names.begin(), "a statement");
  else if (expression)
    names.insert(names.begin(), "an expression");
  if (names.empty() || names.size() > 8) return "";
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

// Reports the first syntax error as a ScriptError; ANTLR's recovery is not wanted.
class ErrorListener : public antlr4::BaseErrorListener {
 public:
  ErrorListener(uint32_t file, const grammar::TesselLexer* lexer) : file_(file), lexer_(lexer) {}

  void syntaxError(antlr4::Recognizer* recognizer, Token* offending, size_t line, size_t col,
                   const std::string& msg, std::exception_ptr) override {
    Span span{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1),
              static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)};
    if (!offending) {  // a lexer error: msg is "token recognition error at: 'x'"
      auto quote = msg.find('\'');
      std::string ch = quote == std::string::npos ? "" : msg.substr(quote + 1, 1);
      if (ch == "\"" || ch == "'") raise(ErrorKind::SyntaxError, "unterminated string", span);
      raise(ErrorKind::SyntaxError, "unexpected character '" + ch + "'", span);
    }
    span.endCol =
        span.col + static_cast<uint32_t>(std::max<size_t>(1, offending->getText().size()) - 1);
    if (offending->getType() == Token::EOF || offending->getType() == P::NEWLINE)
      span.endCol = span.col;
    std::string text = "unexpected " + describeToken(offending);
    auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
    if (lexer_ && !lexer_->openBrackets.empty() && lexer_->openBracketsAt.back().first < line) {
      // The input ends inside a bracket opened before the line of the error (the lexer has
      // read it all): the bracket is what needs fixing, not what the parser met later.
      auto [line, col] = lexer_->openBracketsAt.back();
      Span at{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1),
              static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)};
      raise(ErrorKind::SyntaxError,
            std::string("'") + lexer_->openBrackets.back() + "' was never closed", at);
    }
    if (parser && describeToken(offending) == "end of input") {
      // Point just past the last real token, on the line where the input stopped, rather than
      // at the (possibly blank) line after it.
      auto* stream = parser->getTokenStream();
      for (size_t i = offending->getTokenIndex(); i-- > 0;) {
        Token* prev = stream->get(i);
        if (prev->getType() == P::NEWLINE || prev->getType() == P::SEMI) continue;
        std::string prevText = prev->getText();
        if (prevText.find('\n') != std::string::npos) break;
        span.line = span.endLine = static_cast<uint32_t>(prev->getLine());
        span.col = span.endCol =
            static_cast<uint32_t>(prev->getCharPositionInLine() + prevText.size() + 1);
        break;
      }
    }
    if (parser) {
      std::string expected = describeExpected(*parser, parser->getExpectedTokens());
      if (!expected.empty()) text += ", expected " + expected;
    }
    raise(ErrorKind::SyntaxError, text, span);
  }

 private:
  uint32_t file_;
  const grammar::TesselLexer* lexer_;  // its open brackets when the input ended
};

// Refuses input nested deeper than kMaxNesting before ANTLR's recursive descent sees it.
void checkNesting(antlr4::CommonTokenStream& tokens, uint32_t file) {
  int depth = 0;
  int prefixRun = 0;
  for (Token* t : tokens.getTokens()) {
    size_t type = t->getType();
    if (type == P::LPAREN || type == P::LBRACK || type == P::LBRACE)
      ++depth;
    else if (type == P::RPAREN || type == P::RBRACK || type == P::RBRACE)
      --depth;
    bool prefix = type == P::MINUS || type == P::PLUS || type == P::NOT;
    prefixRun = prefix ? prefixRun + 1 : 0;
    if (depth > kMaxNesting || prefixRun > kMaxNesting) {
      Span s{file, static_cast<uint32_t>(t->getLine()),
             static_cast<uint32_t>(t->getCharPositionInLine() + 1),
             static_cast<uint32_t>(t->getLine()),
             static_cast<uint32_t>(t->getCharPositionInLine() + 1)};
      raise(ErrorKind::LimitError,
            "expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)",
            s);
    }
  }
}

// Thrown by the parser's nesting hook; parseProgram turns it into a LimitError with a span.
struct NestingTooDeep {
  size_t line, col;
};

// Each level of brackets costs about three recursive rules (expr, notExpr, unary).
constexpr int kMaxRuleNesting = 3 * kMaxNesting;

void onParserNesting(grammar::TesselParser& parser, bool) {
  char marker;
  if (parser.nesting > kMaxRuleNesting || &marker < stackLimit()) {
    Token* t = parser.getCurrentToken();
    throw NestingTooDeep{t->getLine(), t->getCharPositionInLine()};
  }
}

}  // namespace

std::unique_ptr<Program> parseProgram(const SourceRegistry& sources, uint32_t file) {
  const std::string& text = sources.text(file);
  std::unique_ptr<antlr4::ANTLRInputStream> input;
  try {
    input = std::make_unique<antlr4::ANTLRInputStream>(text);
  } catch (const std::exception&) {
    raise(ErrorKind::SyntaxError, "source is not valid UTF-8", Span{file, 1, 1, 1, 1});
  }
  grammar::TesselLexer lexer(input.get());
  ErrorListener listener(file, &lexer);
  lexer.removeErrorListeners();
  lexer.addErrorListener(&listener);
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  if (const auto& m = lexer.mismatch; m.close) {
    Span at{file, static_cast<uint32_t>(m.line), static_cast<uint32_t>(m.col + 1),
            static_cast<uint32_t>(m.line), static_cast<uint32_t>(m.col + 1)};
    raise(ErrorKind::SyntaxError, std::string("closing '") + m.close + "' does not match '" +
                                      m.open + "' opened on line " + std::to_string(m.openLine),
          at);
  }
  checkNesting(tokens, file);

  grammar::TesselParser parser(&tokens);
  parser.removeErrorListeners();
  parser.addErrorListener(&listener);
  parser.onEnterNested = onParserNesting;
  // SLL prediction is much faster and, with errors reported on the first failure, exact
  // enough: a failure retries in full LL mode before reporting.
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  P::ProgramContext* tree = nullptr;
  try {
    try {
      tree = parser.program();
    } catch (const ScriptError& e) {
      if (e.kind() != ErrorKind::SyntaxError) throw;
      tokens.seek(0);
      parser.reset();
      parser.nesting = 0;
      parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
          antlr4::atn::PredictionMode::LL);
      tree = parser.program();
    }
  } catch (const NestingTooDeep& n) {
    Span s{file, static_cast<uint32_t>(n.line), static_cast<uint32_t>(n.col + 1),
           static_cast<uint32_t>(n.line), static_cast<uint32_t>(n.col + 1)};
    raise(ErrorKind::LimitError,
          "expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)", s);
  }
  auto program = std::make_unique<Program>();
  program->proto = buildAst(*program, file, tree);
  return program;
}

bool needsMoreInput(std::string_view text) {
  std::string copy(text);
  size_t end = copy.find_last_not_of(" \t\r\n");
  if (end != std::string::npos && copy[end] == '\\') return true;
  // Invalid UTF-8 makes the input stream throw std::range_error (found by fuzz_parser: the
  // REPL aborted on such a line inside an open bracket): no more input helps, so the parse
  // reports it.
  try {
    antlr4::ANTLRInputStream input(copy);
    grammar::TesselLexer lexer(&input);
    lexer.removeErrorListeners();
    while (lexer.nextToken()->getType() != Token::EOF) {
    }
    return !lexer.openBrackets.empty();
  } catch (...) {
    return false;
  }
}

}  // namespace tessel::interp
