// Tessel's grammar (language.md). C++ is generated from this file into the build tree at build
// time by the Debian antlr4 tool; interp/parser.cpp turns the parse tree into the AST.
grammar Tessel;

@lexer::header {
#include <vector>
#include "CommonToken.h"
}

@lexer::members {
  // Newlines end statements, except inside (...) and [...] (language.md). A stack of the open
  // brackets, rather than a depth counter, keeps the newlines of a block that sits inside
  // parentheses (an anonymous fn passed as an argument) significant.
  std::vector<char> openBrackets;
  // Where each open bracket is (line, column from 0): an unclosed one is reported there.
  std::vector<std::pair<size_t, size_t>> openBracketsAt;
  bool newlineIsSpace() const { return !openBrackets.empty() && openBrackets.back() != '{'; }
  void openBracket(char c) {
    openBrackets.push_back(c);
    openBracketsAt.emplace_back(getLine(), getCharPositionInLine() - 1);
  }
  // The first closing bracket that does not match the open one: (its char, line, column, the
  // open one's char and line); the parser bridge reports it.
  struct Mismatch { char close = 0; size_t line = 0, col = 0; char open = 0; size_t openLine = 0; };
  Mismatch mismatch;
  void closeBracket(char c) {
    if (openBrackets.empty()) return;
    char want = openBrackets.back() == '(' ? ')' : openBrackets.back() == '[' ? ']' : '}';
    if (c != want && !mismatch.close)
      mismatch = {c, getLine(), getCharPositionInLine() - 1, openBrackets.back(),
                  openBracketsAt.back().first};
    openBrackets.pop_back();
    openBracketsAt.pop_back();
  }

  // Note [Virtual newlines]
  // Every simple statement must be followed by a separator (`stmt` below). So that the last
  // statement of a block or file needs none, the lexer emits a virtual NEWLINE before a `}`
  // that closes a `{` and before the end of input (outside (...) and [...]). Its text is
  // "}" or "" so that error messages can name what was really there. This keeps the grammar
  // free of semantic predicates, whose full-lookahead evaluation made long expressions
  // quadratic to parse.
  std::unique_ptr<antlr4::Token> pendingToken;
  size_t lastType = 0;
  std::unique_ptr<antlr4::Token> nextToken() override {
    if (pendingToken) {
      lastType = pendingToken->getType();
      return std::move(pendingToken);
    }
    bool closesBrace = !openBrackets.empty() && openBrackets.back() == '{';
    bool atTop = openBrackets.empty() || closesBrace;
    std::unique_ptr<antlr4::Token> t = antlr4::Lexer::nextToken();
    size_t type = t->getType();
    bool wantsNewline = (type == RBRACE && closesBrace) || (type == antlr4::Token::EOF && atTop);
    if (wantsNewline && lastType != NEWLINE && lastType != SEMI && lastType != LBRACE &&
        lastType != 0) {
      auto nl = std::make_unique<antlr4::CommonToken>(NEWLINE, type == RBRACE ? "}" : "");
      nl->setLine(t->getLine());
      nl->setCharPositionInLine(t->getCharPositionInLine());
      nl->setStartIndex(t->getStartIndex());
      nl->setStopIndex(t->getStartIndex() - 1);
      pendingToken = std::move(t);
      lastType = NEWLINE;
      return nl;
    }
    lastType = type;
    return t;
  }
}

@parser::header {
#include <cstddef>
}

@parser::members {
  // Rules that recurse (expr, unary, notExpr, block) call this on entry, so that deeply
  // nested input becomes a LimitError instead of a native stack overflow. parser.cpp installs
  // the hook; it counts the depth and checks the native stack.
  void (*onEnterNested)(TesselParser& parser, bool enter) = nullptr;
  int nesting = 0;
  void enterNested() { ++nesting; if (onEnterNested) onEnterNested(*this, true); }
  void exitNested() { --nesting; }
}

// program: statements. A simple statement ends with newlines or ';' (Note [Virtual newlines]);
// one that ends with a block may be followed by another on the same line:
// `if n < 2 { return n } return f(n)`.
program : sep* stmt* EOF ;
sep : NEWLINE | SEMI ;
block @init { enterNested(); } @after { exitNested(); } : LBRACE sep* stmt* RBRACE ;
stmt : simpleStmt sep+ | compoundStmt sep* ;

simpleStmt
  : LET target ASSIGN expr                                          # letStmt
  | BREAK                                                           # breakStmt
  | CONTINUE                                                        # continueStmt
  | RETURN expr?                                                    # returnStmt
  | ASSERT expr (COMMA expr)?                                       # assertStmt
  | RAISE expr?                                                     # raiseStmt
  | IMPORT (NAME | STRING) (AS NAME)?                               # importStmt
  | expr (assignOp expr)?                                           # exprStmt
  ;

compoundStmt
  : decorator* FN NAME LPAREN params? RPAREN (ARROW typeExpr)?
      whereClause? NEWLINE* block                                   # fnStmt
  | IF expr block elifClause* elseClause?                           # ifStmt
  | WHILE expr block                                                # whileStmt
  | FOR target IN expr block                                        # forStmt
  | TRY block exceptClause* finallyClause?                          # tryStmt
  ;

assignOp : ASSIGN | PLUS_ASSIGN | MINUS_ASSIGN | STAR_ASSIGN | SLASH_ASSIGN ;
decorator : AT expr NEWLINE+ ;
elifClause : NEWLINE* ELIF expr block ;
elseClause : NEWLINE* ELSE block ;
// `except`, `except ShapeError`, `except ShapeError as e` (language.md, "Errors you can catch").
exceptClause : NEWLINE* EXCEPT (NAME (AS NAME)?)? block ;
finallyClause : NEWLINE* FINALLY block ;

// target: what let and for bind: a name or a (nested) tuple/list pattern.
target
  : NAME                                                            # nameTarget
  | LPAREN target (COMMA target)* COMMA? RPAREN                     # tupleTarget
  | LBRACK target (COMMA target)* COMMA? RBRACK                     # listTarget
  ;

params : param (COMMA param)* COMMA? ;
param : NAME (COLON typeExpr)? (ASSIGN expr)? ;
// typeExpr: `tensor`, `f32[B, 784]`, `i32[_, 3]`.
typeExpr : NAME (LBRACK (dimExpr (COMMA dimExpr)*)? RBRACK)? ;
dimExpr : INT | NAME ;
whereClause : NEWLINE* WHERE expr (COMMA expr)* ;

// Expressions, lowest precedence first (language.md).
expr @init { enterNested(); } @after { exitNested(); } : orExpr (IF orExpr ELSE expr)? ;
orExpr : andExpr (OR andExpr)* ;
andExpr : notExpr (AND notExpr)* ;
notExpr @init { enterNested(); } @after { exitNested(); } : NOT notExpr | comparison ;
comparison : arith (compOp arith)* ;
compOp : EQ | NE | LT | LE | GT | GE | IN | NOT IN ;
arith : term (addOp term)* ;
addOp : PLUS | MINUS ;
term : unary (mulOp unary)* ;
mulOp : STAR | SLASH | DSLASH | PERCENT | AT ;
unary @init { enterNested(); } @after { exitNested(); } : (MINUS | PLUS) unary | power ;
power : postfix (POW unary)? ;
postfix : primary trailer* ;
trailer
  : LPAREN args? RPAREN                                             # callTrailer
  | LBRACK subscript (COMMA subscript)* COMMA? RBRACK                # indexTrailer
  | DOT NAME                                                        # attrTrailer
  ;
args : arg (COMMA arg)* COMMA? ;
// `sum(x * x for x in xs)`: an argument may be a comprehension without brackets (a list).
arg : (NAME ASSIGN)? expr compFor* ;
// The clauses of a comprehension: `for t in xs if c`, one or more, left to right.
compFor : FOR target IN orExpr (IF orExpr)* ;
subscript
  : ELLIPSIS                                                        # ellipsisSub
  | lo=expr? COLON hi=expr? (COLON step=expr?)?                     # sliceSub
  | expr                                                            # exprSub
  ;

primary
  : INT                                                             # intLit
  | FLOAT                                                           # floatLit
  | STRING                                                          # strLit
  | FSTRING                                                         # fstringLit
  | TRUE                                                            # trueLit
  | FALSE                                                           # falseLit
  | NONE                                                            # noneLit
  | (NAME | WHERE)                                                  # nameRef
  | LPAREN (expr (COMMA expr)* COMMA?)? RPAREN                       # parenOrTuple
  | LBRACK expr compFor+ RBRACK                                     # listComp
  | LBRACK (expr (COMMA expr)* COMMA?)? RBRACK                      # listLit
  | LBRACE sep* expr COLON expr compFor+ sep* RBRACE                # dictComp
  | LBRACE sep* (dictEntry (COMMA sep* dictEntry)* COMMA?)? sep* RBRACE  # dictLit
  | FN LPAREN params? RPAREN NEWLINE* block                         # lambdaExpr
  ;
dictEntry : expr COLON expr sep* ;

// Lexer. Keywords come before NAME so that they win.
LET : 'let' ; FN : 'fn' ; RETURN : 'return' ; IF : 'if' ; ELIF : 'elif' ; ELSE : 'else' ;
WHILE : 'while' ; FOR : 'for' ; IN : 'in' ; BREAK : 'break' ; CONTINUE : 'continue' ;
AND : 'and' ; OR : 'or' ; NOT : 'not' ; TRUE : 'true' ; FALSE : 'false' ; NONE : 'none' ;
IMPORT : 'import' ; AS : 'as' ; ASSERT : 'assert' ; WHERE : 'where' ;
TRY : 'try' ; EXCEPT : 'except' ; FINALLY : 'finally' ; RAISE : 'raise' ;

LPAREN : '(' { openBracket('('); } ;
RPAREN : ')' { closeBracket(')'); } ;
LBRACK : '[' { openBracket('['); } ;
RBRACK : ']' { closeBracket(']'); } ;
LBRACE : '{' { openBracket('{'); } ;
RBRACE : '}' { closeBracket('}'); } ;

ELLIPSIS : '...' ;
ARROW : '->' ;
PLUS_ASSIGN : '+=' ; MINUS_ASSIGN : '-=' ; STAR_ASSIGN : '*=' ; SLASH_ASSIGN : '/=' ;
EQ : '==' ; NE : '!=' ; LE : '<=' ; GE : '>=' ; LT : '<' ; GT : '>' ;
ASSIGN : '=' ;
POW : '**' ; DSLASH : '//' ;
PLUS : '+' ; MINUS : '-' ; STAR : '*' ; SLASH : '/' ; PERCENT : '%' ; AT : '@' ;
COMMA : ',' ; COLON : ':' ; SEMI : ';' ; DOT : '.' ;

FLOAT
  : DIGITS '.' DIGITS? EXPONENT?
  | '.' DIGITS EXPONENT?
  | DIGITS EXPONENT
  ;
INT : '0' [xX] [0-9a-fA-F] ('_'? [0-9a-fA-F])* | DIGITS ;
fragment DIGITS : [0-9] ('_'? [0-9])* ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;

STRING
  : '"' ( '\\' . | ~["\\\r\n] )* '"'
  | '\'' ( '\\' . | ~['\\\r\n] )* '\''
  ;
// f"loss {loss:.4f}": one token; its fields are parsed by the AST builder (string_literals.h).
FSTRING
  : 'f"' ( '\\' . | ~["\\\r\n] )* '"'
  | 'f\'' ( '\\' . | ~['\\\r\n] )* '\''
  ;
NAME : [A-Za-z_] [A-Za-z0-9_]* ;

NEWLINE : '\r'? '\n' { if (newlineIsSpace()) skip(); } ;
COMMENT : '#' ~[\r\n]* -> skip ;
WS : [ \t\f]+ -> skip ;
LINE_CONTINUATION : '\\' '\r'? '\n' -> skip ;
