// Tessel's grammar (language.md). C++ is generated from this file into the build tree at build
// time by the Debian antlr4 tool; interp/parser.cpp turns the parse tree into the AST.
grammar Tessel;

@lexer::header {
#include <vector>
}

@lexer::members {
  // Newlines end statements, except inside (...) and [...] (language.md). A stack of the open
  // brackets, rather than a depth counter, keeps the newlines of a block that sits inside
  // parentheses (an anonymous fn passed as an argument) significant.
  std::vector<char> openBrackets;
  bool newlineIsSpace() const { return !openBrackets.empty() && openBrackets.back() != '{'; }
  void openBracket(char c) { openBrackets.push_back(c); }
  void closeBracket() { if (!openBrackets.empty()) openBrackets.pop_back(); }
}

@parser::members {
  // A statement that ends with a block may be followed by another on the same line:
  // `if n < 2 { return n } return f(n)`.
  bool afterBlock() { return _input->LT(-1)->getType() == RBRACE; }
}

// program: statements separated by newlines or ';'.
program : sep* (statement (sep+ statement | {afterBlock()}? statement)*)? sep* EOF ;
sep : NEWLINE | SEMI ;
block : LBRACE sep* (statement (sep+ statement | {afterBlock()}? statement)*)? sep* RBRACE ;

statement
  : LET target ASSIGN expr                                          # letStmt
  | decorator* FN NAME LPAREN params? RPAREN (ARROW typeExpr)?
      whereClause? NEWLINE* block                                   # fnStmt
  | IF expr block elifClause* elseClause?                           # ifStmt
  | WHILE expr block                                                # whileStmt
  | FOR target IN expr block                                        # forStmt
  | BREAK                                                           # breakStmt
  | CONTINUE                                                        # continueStmt
  | RETURN expr?                                                    # returnStmt
  | ASSERT expr (COMMA expr)?                                       # assertStmt
  | IMPORT (NAME | STRING) (AS NAME)?                               # importStmt
  | expr assignOp expr                                              # assignStmt
  | expr                                                            # exprStmt
  ;

assignOp : ASSIGN | PLUS_ASSIGN | MINUS_ASSIGN | STAR_ASSIGN | SLASH_ASSIGN ;
decorator : AT expr NEWLINE+ ;
elifClause : NEWLINE* ELIF expr block ;
elseClause : NEWLINE* ELSE block ;

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
expr : orExpr (IF orExpr ELSE expr)? ;
orExpr : andExpr (OR andExpr)* ;
andExpr : notExpr (AND notExpr)* ;
notExpr : NOT notExpr | comparison ;
comparison : arith (compOp arith)* ;
compOp : EQ | NE | LT | LE | GT | GE | IN | NOT IN ;
arith : term (addOp term)* ;
addOp : PLUS | MINUS ;
term : unary (mulOp unary)* ;
mulOp : STAR | SLASH | DSLASH | PERCENT | AT ;
unary : (MINUS | PLUS) unary | power ;
power : postfix (POW unary)? ;
postfix : primary trailer* ;
trailer
  : LPAREN args? RPAREN                                             # callTrailer
  | LBRACK subscript (COMMA subscript)* COMMA? RBRACK                # indexTrailer
  | DOT NAME                                                        # attrTrailer
  ;
args : arg (COMMA arg)* COMMA? ;
arg : (NAME ASSIGN)? expr ;
subscript
  : ELLIPSIS                                                        # ellipsisSub
  | lo=expr? COLON hi=expr? (COLON step=expr?)?                     # sliceSub
  | expr                                                            # exprSub
  ;

primary
  : INT                                                             # intLit
  | FLOAT                                                           # floatLit
  | STRING                                                          # strLit
  | TRUE                                                            # trueLit
  | FALSE                                                           # falseLit
  | NONE                                                            # noneLit
  | (NAME | WHERE)                                                  # nameRef
  | LPAREN expr RPAREN                                              # parenExpr
  | LPAREN (expr COMMA (expr (COMMA expr)* COMMA?)?)? RPAREN         # tupleLit
  | LBRACK (expr (COMMA expr)* COMMA?)? RBRACK                      # listLit
  | LBRACE sep* (dictEntry (COMMA sep* dictEntry)* COMMA?)? sep* RBRACE  # dictLit
  | FN LPAREN params? RPAREN NEWLINE* block                         # lambdaExpr
  ;
dictEntry : expr COLON expr sep* ;

// Lexer. Keywords come before NAME so that they win.
LET : 'let' ; FN : 'fn' ; RETURN : 'return' ; IF : 'if' ; ELIF : 'elif' ; ELSE : 'else' ;
WHILE : 'while' ; FOR : 'for' ; IN : 'in' ; BREAK : 'break' ; CONTINUE : 'continue' ;
AND : 'and' ; OR : 'or' ; NOT : 'not' ; TRUE : 'true' ; FALSE : 'false' ; NONE : 'none' ;
IMPORT : 'import' ; AS : 'as' ; ASSERT : 'assert' ; WHERE : 'where' ;

LPAREN : '(' { openBracket('('); } ;
RPAREN : ')' { closeBracket(); } ;
LBRACK : '[' { openBracket('['); } ;
RBRACK : ']' { closeBracket(); } ;
LBRACE : '{' { openBracket('{'); } ;
RBRACE : '}' { closeBracket(); } ;

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
NAME : [A-Za-z_] [A-Za-z0-9_]* ;

NEWLINE : '\r'? '\n' { if (newlineIsSpace()) skip(); } ;
COMMENT : '#' ~[\r\n]* -> skip ;
WS : [ \t\f]+ -> skip ;
LINE_CONTINUATION : '\\' '\r'? '\n' -> skip ;
