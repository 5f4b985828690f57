// Parse tree to AST conversion. Each build function quotes the grammar production it handles.
#include "interp/syntax/ast_builder.h"

#include <antlr4-runtime.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "TesselLexer.h"
#include "TesselParser.h"
#include "interp/syntax/diagnostics.h"
#include "interp/syntax/stack_guard.h"
#include "interp/syntax/string_literals.h"

namespace tessel::interp {
namespace {

using P = grammar::TesselParser;
using antlr4::ParserRuleContext;
using antlr4::Token;

class AstBuilder {
 public:
  AstBuilder(Program& program, uint32_t file) : arena_(program.arena), file_(file) {}

  Span span(ParserRuleContext* ctx) const {
    Token* a = ctx->getStart();
    Token* b = ctx->getStop() ? ctx->getStop() : a;
    return spanOf(a, b);
  }
  Span spanOf(Token* a, Token* b) const {
    uint32_t endCol = static_cast<uint32_t>(b->getCharPositionInLine() + 1);
    std::string text = b->getType() == Token::EOF ? "" : b->getText();
    size_t nl = text.rfind('\n');
    if (nl == std::string::npos)
      endCol += static_cast<uint32_t>(std::max<size_t>(text.size(), 1) - 1);
    return Span{file_, static_cast<uint32_t>(a->getLine()),
                static_cast<uint32_t>(a->getCharPositionInLine() + 1),
                static_cast<uint32_t>(b->getLine()), endCol};
  }

  // program : sep* stmt* EOF
  FnProto* program(P::ProgramContext* ctx) {
    FnProto* proto = arena_.make<FnProto>();
    proto->name = "<module>";
    proto->span = span(ctx);
    for (auto* s : ctx->stmt()) proto->body.push_back(statement(s));
    return proto;
  }

  // block : '{' sep* stmt* '}'
  Block block(P::BlockContext* ctx) {
    checkStack(span(ctx));
    Block out;
    for (auto* s : ctx->stmt()) out.push_back(statement(s));
    return out;
  }

  // stmt : simpleStmt sep+ | compoundStmt sep*
  Stmt* statement(P::StmtContext* stmt) {
    ParserRuleContext* ctx = stmt->simpleStmt();
    if (!ctx) ctx = stmt->compoundStmt();
    Span s = span(ctx);
    if (auto* c = dynamic_cast<P::LetStmtContext*>(ctx))
      return arena_.make<Let>(s, target(c->target()), expr(c->expr()));
    if (auto* c = dynamic_cast<P::FnStmtContext*>(ctx)) return fnStmt(c);
    if (auto* c = dynamic_cast<P::IfStmtContext*>(ctx)) {
      If* node = arena_.make<If>(s);
      node->conds.push_back(expr(c->expr()));
      node->blocks.push_back(block(c->block()));
      for (auto* e : c->elifClause()) {
        node->conds.push_back(expr(e->expr()));
        node->blocks.push_back(block(e->block()));
      }
      if (c->elseClause()) node->blocks.push_back(block(c->elseClause()->block()));
      return node;
    }
    if (auto* c = dynamic_cast<P::WhileStmtContext*>(ctx)) {
      While* node = arena_.make<While>(s, expr(c->expr()));
      node->body = block(c->block());
      return node;
    }
    if (auto* c = dynamic_cast<P::ForStmtContext*>(ctx)) {
      For* node = arena_.make<For>(s, target(c->target()), expr(c->expr()));
      node->body = block(c->block());
      return node;
    }
    if (dynamic_cast<P::BreakStmtContext*>(ctx)) return arena_.make<Break>(s);
    if (dynamic_cast<P::ContinueStmtContext*>(ctx)) return arena_.make<Continue>(s);
    if (auto* c = dynamic_cast<P::ReturnStmtContext*>(ctx))
      return arena_.make<Return>(s, c->expr() ? expr(c->expr()) : nullptr);
    if (auto* c = dynamic_cast<P::AssertStmtContext*>(ctx)) {
      auto es = c->expr();
      return arena_.make<Assert>(s, expr(es[0]), es.size() > 1 ? expr(es[1]) : nullptr);
    }
    if (auto* c = dynamic_cast<P::ImportStmtContext*>(ctx)) return importStmt(c, s);
    if (auto* c = dynamic_cast<P::TryStmtContext*>(ctx)) return tryStmt(c, s);
    if (auto* c = dynamic_cast<P::RaiseStmtContext*>(ctx))
      return arena_.make<Raise>(s, c->expr() ? expr(c->expr()) : nullptr);
    auto* c = dynamic_cast<P::ExprStmtContext*>(ctx);
    if (c->assignOp()) return assignStmt(c, s);
    return arena_.make<ExprStmt>(s, expr(c->expr(0)));
  }

  // TRY block exceptClause* finallyClause?
  // exceptClause : NEWLINE* EXCEPT (NAME (AS NAME)?)? block
  Stmt* tryStmt(P::TryStmtContext* c, Span s) {
    Try* node = arena_.make<Try>(s);
    node->body = block(c->block());
    for (auto* e : c->exceptClause()) {
      Try::Handler h;
      h.span = span(e);
      auto names = e->NAME();
      if (!names.empty()) {
        h.any = false;
        h.kind = errorKindNamed(names[0]->getText(), spanOf(names[0]->getSymbol(), names[0]->getSymbol()));
      }
      if (names.size() > 1) {
        h.name = arena_.make<Pattern>();
        h.name->span = spanOf(names[1]->getSymbol(), names[1]->getSymbol());
        h.name->name = names[1]->getText();
      }
      h.body = block(e->block());
      node->handlers.push_back(std::move(h));
    }
    if (auto* f = c->finallyClause()) {
      node->hasFinally = true;
      node->finally = block(f->block());
    }
    if (node->handlers.empty() && !node->hasFinally)
      raise(ErrorKind::SyntaxError, "'try' needs an 'except' or a 'finally'", s);
    return node;
  }

  // The kind an `except` names; an unknown name is a SyntaxError that lists the kinds.
  static ErrorKind errorKindNamed(const std::string& name, Span at) {
    if (auto kind = errorKindFromName(name)) return *kind;
    raise(ErrorKind::SyntaxError,
          "unknown error kind '" + name + "' (the kinds: " + errorKindNames() + ")", at);
  }

  // IMPORT (NAME | STRING) (AS NAME)?
  Stmt* importStmt(P::ImportStmtContext* c, Span s) {
    auto names = c->NAME();
    bool isPath = c->STRING() != nullptr;
    std::string module = isPath ? unquote(c->STRING()->getSymbol()) : names[0]->getText();
    std::string alias;
    if (c->AS())
      alias = names.back()->getText();
    else if (!isPath)
      alias = module;
    else {
      // `import "lib/util.dsl"` binds the file's stem, like Python's module name.
      size_t slash = module.find_last_of('/');
      alias = module.substr(slash == std::string::npos ? 0 : slash + 1);
      if (alias.size() > 4 && alias.ends_with(".dsl")) alias.resize(alias.size() - 4);
    }
    return arena_.make<Import>(s, module, isPath, alias);
  }

  // expr assignOp expr
  Stmt* assignStmt(P::ExprStmtContext* c, Span s) {
    Expr* lhs = expr(c->expr(0));
    if (lhs->kind != ExprKind::Name && lhs->kind != ExprKind::Index && lhs->kind != ExprKind::Attr)
      raise(ErrorKind::SyntaxError, "cannot assign to this expression", lhs->span);
    AssignOp op = AssignOp::Set;
    auto* a = c->assignOp();
    if (a->PLUS_ASSIGN())
      op = AssignOp::Add;
    else if (a->MINUS_ASSIGN())
      op = AssignOp::Sub;
    else if (a->STAR_ASSIGN())
      op = AssignOp::Mul;
    else if (a->SLASH_ASSIGN())
      op = AssignOp::Div;
    return arena_.make<Assign>(s, op, lhs, expr(c->expr(1)));
  }

  // decorator* FN NAME '(' params? ')' ('->' typeExpr)? whereClause? NEWLINE* block
  Stmt* fnStmt(P::FnStmtContext* c) {
    FnProto* proto = arena_.make<FnProto>();
    proto->name = c->NAME()->getText();
    // The span of a fn statement starts at `fn`, not at its decorators.
    proto->span = spanOf(c->FN()->getSymbol(), c->RPAREN()->getSymbol());
    if (c->params()) params(c->params(), proto);
    if (c->typeExpr()) proto->result = typeExpr(c->typeExpr());
    if (c->whereClause())
      for (auto* e : c->whereClause()->expr()) proto->where.push_back(expr(e));
    proto->body = block(c->block());
    FnDecl* decl = arena_.make<FnDecl>(proto->span, proto);
    for (auto* d : c->decorator()) decl->decorators.push_back(expr(d->expr()));
    return decl;
  }

  void params(P::ParamsContext* ctx, FnProto* proto) {
    bool sawDefault = false;
    for (auto* p : ctx->param()) {
      FnProto::Param param;
      param.span = span(p);
      param.name = p->NAME()->getText();
      if (p->typeExpr()) param.type = typeExpr(p->typeExpr());
      if (p->expr()) {
        param.defaultValue = expr(p->expr());
        sawDefault = true;
      } else if (sawDefault) {
        raise(ErrorKind::SyntaxError,
              "parameter '" + param.name + "' without a default follows one with a default",
              param.span);
      }
      for (const auto& other : proto->params)
        if (other.name == param.name)
          raise(ErrorKind::SyntaxError, "duplicate parameter '" + param.name + "'", param.span);
      proto->params.push_back(std::move(param));
    }
  }

  // typeExpr : NAME ('[' (dimExpr (',' dimExpr)*)? ']')?
  TypeAnn* typeExpr(P::TypeExprContext* ctx) {
    TypeAnn* t = arena_.make<TypeAnn>();
    t->span = span(ctx);
    t->base = ctx->NAME()->getText();
    t->hasDims = ctx->LBRACK() != nullptr;
    for (auto* d : ctx->dimExpr()) {
      TypeAnn::Dim dim;
      if (d->NAME()) {
        dim.isName = true;
        dim.name = d->NAME()->getText();
      } else {
        dim.size = parseInt(d->INT()->getSymbol());
      }
      t->dims.push_back(dim);
    }
    return t;
  }

  // target : NAME | '(' target (',' target)* ','? ')' | '[' target (',' target)* ','? ']'
  Pattern* target(P::TargetContext* ctx) {
    Pattern* p = arena_.make<Pattern>();
    p->span = span(ctx);
    if (auto* n = dynamic_cast<P::NameTargetContext*>(ctx)) {
      p->name = n->NAME()->getText();
      return p;
    }
    p->isSeq = true;
    std::vector<P::TargetContext*> elems;
    if (auto* t = dynamic_cast<P::TupleTargetContext*>(ctx))
      elems = t->target();
    else
      elems = dynamic_cast<P::ListTargetContext*>(ctx)->target();
    for (auto* e : elems) p->elems.push_back(target(e));
    return p;
  }

  // expr : orExpr (IF orExpr ELSE expr)?
  Expr* expr(P::ExprContext* ctx) {
    checkStack(span(ctx));
    Expr* value = orExpr(ctx->orExpr(0));
    if (!ctx->IF()) return value;
    return arena_.make<Ternary>(span(ctx), orExpr(ctx->orExpr(1)), value, expr(ctx->expr()));
  }

  // orExpr : andExpr (OR andExpr)*
  Expr* orExpr(P::OrExprContext* ctx) {
    auto parts = ctx->andExpr();
    Expr* out = andExpr(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i)
      out = arena_.make<Logical>(spanOf(ctx->getStart(), parts[i]->getStop()), false, out,
                                 andExpr(parts[i]));
    return out;
  }

  // andExpr : notExpr (AND notExpr)*
  Expr* andExpr(P::AndExprContext* ctx) {
    auto parts = ctx->notExpr();
    Expr* out = notExpr(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i)
      out = arena_.make<Logical>(spanOf(ctx->getStart(), parts[i]->getStop()), true, out,
                                 notExpr(parts[i]));
    return out;
  }

  // notExpr : NOT notExpr | comparison
  Expr* notExpr(P::NotExprContext* ctx) {
    checkStack(span(ctx));
    if (ctx->NOT()) return arena_.make<Not>(span(ctx), notExpr(ctx->notExpr()));
    return comparison(ctx->comparison());
  }

  // comparison : arith (compOp arith)*
  Expr* comparison(P::ComparisonContext* ctx) {
    auto parts = ctx->arith();
    if (parts.size() == 1) return arith(parts[0]);
    Compare* c = arena_.make<Compare>(span(ctx));
    for (auto* a : parts) c->operands.push_back(arith(a));
    for (auto* op : ctx->compOp()) {
      CompareOp k = op->EQ()    ? CompareOp::Eq
                    : op->NE()  ? CompareOp::Ne
                    : op->LT()  ? CompareOp::Lt
                    : op->LE()  ? CompareOp::Le
                    : op->GT()  ? CompareOp::Gt
                    : op->GE()  ? CompareOp::Ge
                    : op->NOT() ? CompareOp::NotIn
                                : CompareOp::In;
      c->ops.push_back(k);
    }
    return c;
  }

  // arith : term (addOp term)*
  Expr* arith(P::ArithContext* ctx) {
    auto parts = ctx->term();
    auto ops = ctx->addOp();
    Expr* out = term(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i)
      out = arena_.make<Binary>(spanOf(ctx->getStart(), parts[i]->getStop()),
                                ops[i - 1]->PLUS() ? BinaryOp::Add : BinaryOp::Sub, out,
                                term(parts[i]));
    return out;
  }

  // term : unary (mulOp unary)*
  Expr* term(P::TermContext* ctx) {
    auto parts = ctx->unary();
    auto ops = ctx->mulOp();
    Expr* out = unary(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) {
      auto* o = ops[i - 1];
      BinaryOp k = o->STAR()      ? BinaryOp::Mul
                   : o->SLASH()   ? BinaryOp::Div
                   : o->DSLASH()  ? BinaryOp::FloorDiv
                   : o->PERCENT() ? BinaryOp::Mod
                                  : BinaryOp::MatMul;
      out = arena_.make<Binary>(spanOf(ctx->getStart(), parts[i]->getStop()), k, out,
                                unary(parts[i]));
    }
    return out;
  }

  // unary : ('-' | '+') unary | power
  Expr* unary(P::UnaryContext* ctx) {
    checkStack(span(ctx));
    if (ctx->power()) return power(ctx->power());
    // `-9223372036854775808` is the most negative int: its digits alone do not fit in 64 bits.
    if (ctx->MINUS() && ctx->unary()->power()) {
      P::PowerContext* pw = ctx->unary()->power();
      if (!pw->POW() && pw->postfix()->trailer().empty())
        if (auto* lit = dynamic_cast<P::IntLitContext*>(pw->postfix()->primary()))
          return arena_.make<IntLit>(span(ctx), parseInt(lit->INT()->getSymbol(), /*negate=*/true));
    }
    Expr* operand = unary(ctx->unary());
    // Fold `-literal` so that the most negative int literal and negative constants stay exact.
    if (ctx->MINUS() && operand->kind == ExprKind::FloatLit)
      return arena_.make<FloatLit>(span(ctx), -static_cast<FloatLit*>(operand)->value);
    // (Not the most negative int itself: `- -9223372036854775808` negates at run time, which
    // is an OverflowError, instead of overflowing here; found by fuzz_parser under UBSan.)
    if (ctx->MINUS() && operand->kind == ExprKind::IntLit &&
        static_cast<IntLit*>(operand)->value != std::numeric_limits<int64_t>::min())
      return arena_.make<IntLit>(span(ctx), -static_cast<IntLit*>(operand)->value);
    return arena_.make<Unary>(span(ctx), ctx->MINUS() ? UnaryOp::Neg : UnaryOp::Pos, operand);
  }

  // power : postfix ('**' unary)?
  Expr* power(P::PowerContext* ctx) {
    Expr* base = postfix(ctx->postfix());
    if (!ctx->POW()) return base;
    return arena_.make<Binary>(span(ctx), BinaryOp::Pow, base, unary(ctx->unary()));
  }

  // postfix : primary trailer*
  Expr* postfix(P::PostfixContext* ctx) {
    Expr* out = primary(ctx->primary());
    for (auto* t : ctx->trailer()) {
      Span s = spanOf(ctx->getStart(), t->getStop());
      if (auto* c = dynamic_cast<P::CallTrailerContext*>(t))
        out = call(c, out, s);
      else if (auto* c = dynamic_cast<P::IndexTrailerContext*>(t))
        out = index(c, out, s);
      else {
        auto* a = dynamic_cast<P::AttrTrailerContext*>(t);
        out = arena_.make<Attr>(s, out, a->NAME()->getText());
      }
    }
    return out;
  }

  // '(' args? ')'   with   arg : (NAME '=')? expr
  Expr* call(P::CallTrailerContext* c, Expr* callee, Span s) {
    Call* node = arena_.make<Call>(s, callee);
    if (!c->args()) return node;
    for (auto* a : c->args()->arg()) {
      if (a->NAME()) {
        std::string name = a->NAME()->getText();
        for (const auto& k : node->kwNames)
          if (k == name)
            raise(ErrorKind::SyntaxError, "keyword argument '" + name + "' repeated", span(a));
        node->kwNames.push_back(name);
      } else if (!node->kwNames.empty()) {
        raise(ErrorKind::SyntaxError, "positional argument follows keyword argument", span(a));
      }
      if (!a->compFor().empty()) {  // `sum(x * x for x in xs)`
        if (a->NAME() || c->args()->arg().size() != 1)
          raise(ErrorKind::SyntaxError,
                "a comprehension argument must be the only argument (put it in brackets)",
                span(a));
        node->args.push_back(comprehension(span(a), a->expr(), nullptr, a->compFor()));
        continue;
      }
      node->args.push_back(expr(a->expr()));
    }
    return node;
  }

  // '[' subscript (',' subscript)* ','? ']'
  Expr* index(P::IndexTrailerContext* c, Expr* object, Span s) {
    Index* node = arena_.make<Index>(s, object);
    node->hasTuple = !c->COMMA().empty();
    for (auto* sub : c->subscript()) {
      Subscript out;
      if (dynamic_cast<P::EllipsisSubContext*>(sub)) {
        out.kind = Subscript::Kind::Ellipsis;
      } else if (auto* sl = dynamic_cast<P::SliceSubContext*>(sub)) {
        out.kind = Subscript::Kind::Slice;
        if (sl->lo) out.lo = expr(sl->lo);
        if (sl->hi) out.hi = expr(sl->hi);
        if (sl->step) out.step = expr(sl->step);
      } else {
        out.index = expr(dynamic_cast<P::ExprSubContext*>(sub)->expr());
      }
      node->subs.push_back(out);
    }
    return node;
  }

  Expr* primary(P::PrimaryContext* ctx) {
    Span s = span(ctx);
    if (auto* c = dynamic_cast<P::IntLitContext*>(ctx))
      return arena_.make<IntLit>(s, parseInt(c->INT()->getSymbol()));
    if (auto* c = dynamic_cast<P::FloatLitContext*>(ctx))
      return arena_.make<FloatLit>(s, parseFloat(c->FLOAT()->getSymbol()));
    if (auto* c = dynamic_cast<P::StrLitContext*>(ctx))
      return arena_.make<StrLit>(s, unquote(c->STRING()->getSymbol()));
    if (auto* c = dynamic_cast<P::FstringLitContext*>(ctx)) return fstring(c->FSTRING()->getSymbol());
    if (dynamic_cast<P::TrueLitContext*>(ctx)) return arena_.make<BoolLit>(s, true);
    if (dynamic_cast<P::FalseLitContext*>(ctx)) return arena_.make<BoolLit>(s, false);
    if (dynamic_cast<P::NoneLitContext*>(ctx)) return arena_.make<NoneLit>(s);
    if (auto* c = dynamic_cast<P::NameRefContext*>(ctx))  // `where` is also the function where()
      return arena_.make<Name>(s, c->getStart()->getText());
    if (auto* c = dynamic_cast<P::ParenOrTupleContext*>(ctx)) {
      // '(' (expr (',' expr)* ','?)? ')': one expression without a comma is parenthesized.
      if (c->expr().size() == 1 && c->COMMA().empty()) return expr(c->expr(0));
      std::vector<Expr*> elems;
      for (auto* e : c->expr()) elems.push_back(expr(e));
      return arena_.make<TupleLit>(s, std::move(elems));
    }
    if (auto* c = dynamic_cast<P::ListCompContext*>(ctx))
      return comprehension(s, c->expr(), nullptr, c->compFor());
    if (auto* c = dynamic_cast<P::DictCompContext*>(ctx))
      return comprehension(s, c->expr(0), c->expr(1), c->compFor());
    if (auto* c = dynamic_cast<P::ListLitContext*>(ctx)) {
      std::vector<Expr*> elems;
      for (auto* e : c->expr()) elems.push_back(expr(e));
      return arena_.make<ListLit>(s, std::move(elems));
    }
    if (auto* c = dynamic_cast<P::DictLitContext*>(ctx)) {
      DictLit* d = arena_.make<DictLit>(s);
      for (auto* e : c->dictEntry()) {
        d->keys.push_back(expr(e->expr(0)));
        d->values.push_back(expr(e->expr(1)));
      }
      return d;
    }
    auto* c = dynamic_cast<P::LambdaExprContext*>(ctx);
    FnProto* proto = arena_.make<FnProto>();
    proto->name = "<lambda>";
    proto->span = s;
    if (c->params()) params(c->params(), proto);
    proto->body = block(c->block());
    return arena_.make<Lambda>(s, proto);
  }

  // '[' expr compFor+ ']', '{' expr ':' expr compFor+ '}', and a bare comprehension argument;
  // compFor : FOR target IN orExpr (IF orExpr)*
  Expr* comprehension(Span s, P::ExprContext* elem, P::ExprContext* value,
                      const std::vector<P::CompForContext*>& clauses) {
    auto* c = arena_.make<Comprehension>(s);
    c->elem = expr(elem);
    if (value) c->value = expr(value);
    for (auto* k : clauses) {
      CompClause clause{span(k), target(k->target()), orExpr(k->orExpr(0)), {}};
      for (size_t i = 1; i < k->orExpr().size(); ++i) clause.conds.push_back(orExpr(k->orExpr(i)));
      c->clauses.push_back(std::move(clause));
    }
    return c;
  }

  int64_t parseInt(Token* t, bool negate = false) {
    std::string text;
    for (char ch : t->getText())
      if (ch != '_') text += ch;
    int base = 10;
    const char* begin = text.data();
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
      base = 16;
      begin += 2;
    }
    uint64_t magnitude = 0;
    auto [ptr, ec] = std::from_chars(begin, text.data() + text.size(), magnitude, base);
    uint64_t limit = negate ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    if (ec != std::errc() || ptr != text.data() + text.size() || magnitude > limit)
      raise(ErrorKind::SyntaxError,
            "integer literal " + std::string(negate ? "-" : "") + t->getText() +
                " does not fit in 64 bits",
            spanOf(t, t));
    return negate ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  }

  double parseFloat(Token* t) {
    std::string text;
    for (char ch : t->getText())
      if (ch != '_') text += ch;
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) value = std::strtod(text.c_str(), nullptr);
    return value;
  }

  // Decodes a string literal's escapes: \n \t \r \0 \\ \" \' \xHH \uXXXX.
  // FSTRING: the literal pieces and the fields (Note [f-string fields]), each field's
  // expression parsed as Tessel at the column where it was written.
  Expr* fstring(Token* t) {
    std::string raw = t->getText();
    Span at = spanOf(t, t), body = at;
    body.col += 2;  // after `f"`
    auto* node = arena_.make<FString>(at);
    for (FStringPart& p : splitFString(std::string_view(raw).substr(2, raw.size() - 3), body)) {
      FString::Part part;
      part.literal = std::move(p.literal);
      if (p.isField) {
        part.value = fieldExpr(p.expr, Span{file_, p.line, p.col, p.line,
                                            p.col + static_cast<uint32_t>(p.expr.size()) - 1});
        part.conversion = p.conversion;
        part.spec = std::move(p.spec);
      }
      node->parts.push_back(std::move(part));
    }
    return node;
  }

  // One f-string field's expression, lexed from its own text with the positions it has in the
  // source, so that its errors point into the string.
  Expr* fieldExpr(const std::string& text, Span at) {
    struct Refuse : antlr4::BaseErrorListener {
      explicit Refuse(Span s) : at(s) {}
      Span at;
      void syntaxError(antlr4::Recognizer*, Token*, size_t, size_t, const std::string&,
                       std::exception_ptr) override {
        raise(ErrorKind::SyntaxError, "f-string: this field is not an expression", at);
      }
    } refuse(at);
    int depth = 0;  // ANTLR's descent recurses per bracket: bound it as the parser does
    for (char ch : text)
      if ((depth += ch == '(' || ch == '[' || ch == '{' ? 1 : 0) > 64)
        raise(ErrorKind::LimitError, "f-string: the field is nested too deeply", at);
    antlr4::ANTLRInputStream input(text);
    grammar::TesselLexer lexer(&input);
    lexer.setLine(at.line);
    lexer.setCharPositionInLine(at.col - 1);
    lexer.removeErrorListeners();
    lexer.addErrorListener(&refuse);
    antlr4::CommonTokenStream tokens(&lexer);
    grammar::TesselParser parser(&tokens);
    parser.removeErrorListeners();
    parser.addErrorListener(&refuse);
    P::ExprContext* tree = parser.expr();
    if (tokens.LA(1) == P::NEWLINE) tokens.consume();  // the lexer's virtual one at the end
    if (tokens.LA(1) != Token::EOF) refuse.syntaxError(nullptr, nullptr, 0, 0, "", nullptr);
    return expr(tree);
  }

  // A string token's text without its quotes, escapes decoded.
  std::string unquote(Token* t) {
    std::string raw = t->getText();
    return unescape(std::string_view(raw).substr(1, raw.size() - 2), spanOf(t, t));
  }

 private:
  AstArena& arena_;
  uint32_t file_;
};

}  // namespace

FnProto* buildAst(Program& program, uint32_t file, antlr4::ParserRuleContext* tree) {
  AstBuilder builder(program, file);
  return builder.program(static_cast<P::ProgramContext*>(tree));
}

}  // namespace tessel::interp
