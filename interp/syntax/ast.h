// The AST: immutable-after-resolution nodes built from the parse tree, each with its span first
// (MLIR Toy style). Nodes live in an arena owned by the Program, so a 100k-deep tree is freed
// without recursion.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "interp/syntax/source.h"
#include "shapes/user_error.h"

namespace tessel::interp {

// Values live in values/, the layer above this one (interp/README.md, "Layers"): the AST names
// them only through declarations, for the inline method cache of Call.
struct CallArgs;
class Interpreter;
class Value;
enum class Type : uint8_t;  // interp/values/value.h
struct ClosureCode;  // interp/eval/code.h
/// Frees a FnProto's closure code. eval/, which makes the code, hands in the function that
/// frees it: syntax/ sits below eval/ and cannot name ClosureCode's destructor.
struct ClosureCodeDeleter {
  void (*destroy)(ClosureCode* code) = nullptr;
  void operator()(ClosureCode* code) const { destroy(code); }
};

// Every expression kind, written once (style.md rule 4).
#define TESSEL_EXPR_KINDS(X) \
  X(IntLit)                  \
  X(FloatLit)                \
  X(StrLit)                  \
  X(BoolLit)                 \
  X(NoneLit)                 \
  X(Name)                    \
  X(TupleLit)                \
  X(ListLit)                 \
  X(DictLit)                 \
  X(Unary)                   \
  X(Binary)                  \
  X(Compare)                 \
  X(Logical)                 \
  X(Not)                     \
  X(Ternary)                 \
  X(Call)                    \
  X(Index)                   \
  X(Attr)                    \
  X(Lambda)                  \
  X(Comprehension)           \
  X(FString)

#define TESSEL_STMT_KINDS(X) \
  X(Let)                     \
  X(Assign)                  \
  X(ExprStmt)                \
  X(FnDecl)                  \
  X(If)                      \
  X(While)                   \
  X(For)                     \
  X(Break)                   \
  X(Continue)                \
  X(Return)                  \
  X(Assert)                  \
  X(Import)                  \
  X(Try)                     \
  X(Raise)

enum class ExprKind : uint8_t {
#define TESSEL_X(k) k,
  TESSEL_EXPR_KINDS(TESSEL_X)
#undef TESSEL_X
};
enum class StmtKind : uint8_t {
#define TESSEL_X(k) k,
  TESSEL_STMT_KINDS(TESSEL_X)
#undef TESSEL_X
};

struct Expr {
  Expr(Span s, ExprKind k) : span(s), kind(k) {}
  virtual ~Expr() = default;
  Span span;
  ExprKind kind;
};
struct Stmt {
  Stmt(Span s, StmtKind k) : span(s), kind(k) {}
  virtual ~Stmt() = default;
  Span span;
  StmtKind kind;
};
using Block = std::vector<Stmt*>;

/// Where a name lives, decided once by the resolver so the evaluator never looks names up.
struct VarRef {
  enum class Kind : uint8_t {
    Unresolved,  // before the resolver ran
    Local,       // a slot of the current frame
    LocalCell,   // a slot of the current frame holding a Cell (captured by an inner fn)
    Upvalue,     // a Cell captured by the running closure
    Global       // a slot of the module's globals
  };
  Kind kind = Kind::Unresolved;
  uint32_t index = 0;
};

struct IntLit : Expr {
  IntLit(Span s, int64_t v) : Expr(s, ExprKind::IntLit), value(v) {}
  int64_t value;
};
struct FloatLit : Expr {
  FloatLit(Span s, double v) : Expr(s, ExprKind::FloatLit), value(v) {}
  double value;
};
struct StrLit : Expr {
  StrLit(Span s, std::string v) : Expr(s, ExprKind::StrLit), value(std::move(v)) {}
  std::string value;
};
struct BoolLit : Expr {
  BoolLit(Span s, bool v) : Expr(s, ExprKind::BoolLit), value(v) {}
  bool value;
};
struct NoneLit : Expr {
  explicit NoneLit(Span s) : Expr(s, ExprKind::NoneLit) {}
};
struct Name : Expr {
  Name(Span s, std::string n) : Expr(s, ExprKind::Name), name(std::move(n)) {}
  std::string name;
  VarRef ref;
};
struct TupleLit : Expr {
  TupleLit(Span s, std::vector<Expr*> e) : Expr(s, ExprKind::TupleLit), elems(std::move(e)) {}
  std::vector<Expr*> elems;
};
struct ListLit : Expr {
  ListLit(Span s, std::vector<Expr*> e) : Expr(s, ExprKind::ListLit), elems(std::move(e)) {}
  std::vector<Expr*> elems;
};
struct DictLit : Expr {
  explicit DictLit(Span s) : Expr(s, ExprKind::DictLit) {}
  std::vector<Expr*> keys, values;
};

enum class UnaryOp : uint8_t { Neg, Pos };
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul };
enum class CompareOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, In, NotIn };
const char* binaryOpSymbol(BinaryOp op);
const char* compareOpSymbol(CompareOp op);

struct Unary : Expr {
  Unary(Span s, UnaryOp o, Expr* e) : Expr(s, ExprKind::Unary), op(o), operand(e) {}
  UnaryOp op;
  Expr* operand;
};
struct Binary : Expr {
  Binary(Span s, BinaryOp o, Expr* l, Expr* r) : Expr(s, ExprKind::Binary), op(o), lhs(l), rhs(r) {}
  BinaryOp op;
  Expr* lhs;
  Expr* rhs;
};
/// `a < b <= c` chains like Python: operands.size() == ops.size() + 1.
struct Compare : Expr {
  explicit Compare(Span s) : Expr(s, ExprKind::Compare) {}
  std::vector<Expr*> operands;
  std::vector<CompareOp> ops;
};
struct Logical : Expr {
  Logical(Span s, bool isAnd, Expr* l, Expr* r)
      : Expr(s, ExprKind::Logical), isAnd(isAnd), lhs(l), rhs(r) {}
  bool isAnd;
  Expr* lhs;
  Expr* rhs;
};
struct Not : Expr {
  Not(Span s, Expr* e) : Expr(s, ExprKind::Not), operand(e) {}
  Expr* operand;
};
struct Ternary : Expr {
  Ternary(Span s, Expr* c, Expr* t, Expr* e)
      : Expr(s, ExprKind::Ternary), cond(c), then(t), otherwise(e) {}
  Expr* cond;
  Expr* then;
  Expr* otherwise;
};
struct Call : Expr {
  Call(Span s, Expr* c) : Expr(s, ExprKind::Call), callee(c) {}
  Expr* callee;
  std::vector<Expr*> args;           // positional first, then keyword values
  std::vector<std::string> kwNames;  // names of the trailing keyword arguments
  size_t numPositional() const { return args.size() - kwNames.size(); }
  /// Inline cache of `obj.method(...)`: the native found for the receiver type last seen.
  /// A cache in the tree, not a change of meaning: the lookup is a pure function of the type.
  Type cachedType{};  // Type::Undefined, the first kind (value.h asserts it): nothing cached
  Value (*cachedMethod)(Interpreter&, CallArgs&) = nullptr;
};

struct Subscript {
  enum class Kind : uint8_t { Single, Slice, Ellipsis } kind = Kind::Single;
  Expr* index = nullptr;  // Single
  Expr* lo = nullptr;     // Slice bounds, each optional
  Expr* hi = nullptr;
  Expr* step = nullptr;
};
struct Index : Expr {
  Index(Span s, Expr* o) : Expr(s, ExprKind::Index), object(o) {}
  Expr* object;
  std::vector<Subscript> subs;
  bool hasTuple = false;  // written with a comma: x[1, 2] or x[1,]
};
struct Attr : Expr {
  Attr(Span s, Expr* o, std::string n) : Expr(s, ExprKind::Attr), object(o), name(std::move(n)) {}
  Expr* object;
  std::string name;
};

/// A type annotation in a signature: `tensor`, `f32[B, 784]`.
struct TypeAnn {
  Span span;
  std::string base;  // "tensor", "f32", "i32", "bool", "int", "float", "str", ...
  bool hasDims = false;
  struct Dim {
    bool isName = false;
    int64_t size = 0;
    std::string name;  // a symbolic dimension; "_" matches anything
  };
  std::vector<Dim> dims;
};

/// What the resolver decides about a fn: frame size and how to build its closure.
struct UpvalueDesc {
  bool fromParentLocal;  // the parent frame's LocalCell slot, else the parent's upvalue
  uint32_t index;
};
struct FnProto {
  Span span;
  std::string name;  // "<lambda>" for anonymous fns
  struct Param {
    Span span;
    std::string name;
    TypeAnn* type = nullptr;
    Expr* defaultValue = nullptr;
    bool isCell = false;  // captured by an inner fn: the prologue boxes it
  };
  std::vector<Param> params;
  TypeAnn* result = nullptr;
  std::vector<Expr*> where;
  /// The named dimensions of the signature (`B` in `x: f32[B, 8]`): locals of the function,
  /// bound to the argument's sizes before the body (and the where-clause) runs.
  struct DimVar {
    std::string name;
    VarRef ref;
  };
  std::vector<DimVar> dimVars;
  bool hasSignature = false;   // any annotation or where-clause: checked at each call
  bool hasCellParams = false;  // some parameter is captured: the prologue boxes it

  Block body;
  uint32_t numSlots = 0;
  /// The variable each slot holds (a compiled region names its inputs after them).
  std::vector<std::string> slotNames;
  std::vector<UpvalueDesc> upvalues;
  std::vector<std::string> upvalueNames;
  /// The body compiled to closure code at its first run (Note [Closure code] in
  /// interp/eval/code.h): its eager form, and the traced form that runs while a tracer is
  /// installed.
  std::unique_ptr<ClosureCode, ClosureCodeDeleter> code;
  std::unique_ptr<ClosureCode, ClosureCodeDeleter> tracedCode;
  /// Set with `code`: the number of positional arguments (all the parameters) with which a
  /// call may go straight to the compiled body (Engine::callPlain), or -1 when none may.
  /// One field, so that a call site tests it with one compare.
  int64_t plainArity = -1;
};
/// `f"step {i:>5d} loss {loss:.4f}"`: literal text and formatted fields, in order.
struct FString : Expr {
  explicit FString(Span s) : Expr(s, ExprKind::FString) {}
  struct Part {
    std::string literal;     // when value is null
    Expr* value = nullptr;   // a field's expression
    char conversion = 0;     // 'r' (repr), 's' (str) or 0
    std::string spec;        // the format spec (values/format.h)
  };
  std::vector<Part> parts;
};
struct Pattern;
/// One `for t in xs if c ...` clause of a comprehension.
struct CompClause {
  Span span;
  Pattern* target;
  Expr* iterable;
  std::vector<Expr*> conds;  // all must hold for the item to count
};
/// `[elem for ...]` (a list; also a bare comprehension as a call's argument) and `{key: value
/// for ...}` (a dict). Its targets are local to it, as in Python 3.
struct Comprehension : Expr {
  explicit Comprehension(Span s) : Expr(s, ExprKind::Comprehension) {}
  Expr* elem = nullptr;   // a list's element, a dict's key
  Expr* value = nullptr;  // a dict's value; null for a list
  std::vector<CompClause> clauses;
};
struct Lambda : Expr {
  Lambda(Span s, FnProto* p) : Expr(s, ExprKind::Lambda), proto(p) {}
  FnProto* proto;
};

/// A binding pattern for let and for: a name or nested tuple/list.
struct Pattern {
  Span span;
  std::string name;  // when elems is empty and !isSeq
  bool isSeq = false;
  std::vector<Pattern*> elems;
  VarRef ref;  // for names
};

struct Let : Stmt {
  Let(Span s, Pattern* p, Expr* v) : Stmt(s, StmtKind::Let), target(p), value(v) {}
  Pattern* target;
  Expr* value;
};
enum class AssignOp : uint8_t { Set, Add, Sub, Mul, Div };
struct Assign : Stmt {
  Assign(Span s, AssignOp o, Expr* t, Expr* v)
      : Stmt(s, StmtKind::Assign), op(o), target(t), value(v) {}
  AssignOp op;
  Expr* target;  // Name, Index or Attr
  Expr* value;
};
struct ExprStmt : Stmt {
  ExprStmt(Span s, Expr* e) : Stmt(s, StmtKind::ExprStmt), expr(e) {}
  Expr* expr;
};
struct FnDecl : Stmt {
  FnDecl(Span s, FnProto* p) : Stmt(s, StmtKind::FnDecl), proto(p) {}
  FnProto* proto;
  std::vector<Expr*> decorators;  // applied bottom-up, like Python
  VarRef ref;                     // where the fn's name is bound
  bool hoisted = false;           // declared when its block was entered (resolver.cpp)
};
struct If : Stmt {
  explicit If(Span s) : Stmt(s, StmtKind::If) {}
  std::vector<Expr*> conds;   // if, then each elif
  std::vector<Block> blocks;  // one per cond, plus the else block if present
};
struct While : Stmt {
  While(Span s, Expr* c) : Stmt(s, StmtKind::While), cond(c) {}
  Expr* cond;
  Block body;
};
struct For : Stmt {
  For(Span s, Pattern* p, Expr* it) : Stmt(s, StmtKind::For), target(p), iterable(it) {}
  Pattern* target;
  Expr* iterable;
  Block body;
};
/// `try { } except Kind as e { } except { } finally { }` (language.md, "Errors you can catch").
struct Try : Stmt {
  explicit Try(Span s) : Stmt(s, StmtKind::Try) {}
  struct Handler {
    Span span;
    bool any = true;             // a bare `except`
    ErrorKind kind{};            // else the kind it catches
    Pattern* name = nullptr;     // `as e`, or null
    Block body;
  };
  Block body;
  std::vector<Handler> handlers;
  bool hasFinally = false;
  Block finally;
};
/// `raise error` (an error value: `raise ValueError("...")`), or `raise` alone inside an
/// `except`, which raises the error being handled again.
struct Raise : Stmt {
  Raise(Span s, Expr* v) : Stmt(s, StmtKind::Raise), value(v) {}
  Expr* value;  // null: re-raise
};
struct Break : Stmt {
  explicit Break(Span s) : Stmt(s, StmtKind::Break) {}
};
struct Continue : Stmt {
  explicit Continue(Span s) : Stmt(s, StmtKind::Continue) {}
};
struct Return : Stmt {
  Return(Span s, Expr* v) : Stmt(s, StmtKind::Return), value(v) {}
  Expr* value;  // may be null
};
struct Assert : Stmt {
  Assert(Span s, Expr* c, Expr* m) : Stmt(s, StmtKind::Assert), cond(c), message(m) {}
  Expr* cond;
  Expr* message;  // may be null
};
struct Import : Stmt {
  Import(Span s, std::string m, bool isPath, std::string a)
      : Stmt(s, StmtKind::Import), module(std::move(m)), isPath(isPath), alias(std::move(a)) {}
  std::string module;  // `nn` or "lib/util.dsl"
  bool isPath;
  std::string alias;  // the bound name
  VarRef ref;
};

/// Owns every node of one parsed unit (a file or a REPL input).
class AstArena {
 public:
  template <class T, class... A>
  T* make(A&&... args) {
    auto node = std::make_unique<T>(std::forward<A>(args)...);
    T* raw = node.get();
    if constexpr (std::is_base_of_v<Expr, T>)
      exprs_.push_back(std::move(node));
    else if constexpr (std::is_base_of_v<Stmt, T>)
      stmts_.push_back(std::move(node));
    else if constexpr (std::is_same_v<T, FnProto>)
      protos_.push_back(std::move(node));
    else if constexpr (std::is_same_v<T, Pattern>)
      patterns_.push_back(std::move(node));
    else
      types_.push_back(std::move(node));
    return raw;
  }

 private:
  std::deque<std::unique_ptr<Expr>> exprs_;
  std::deque<std::unique_ptr<Stmt>> stmts_;
  std::deque<std::unique_ptr<FnProto>> protos_;
  std::deque<std::unique_ptr<Pattern>> patterns_;
  std::deque<std::unique_ptr<TypeAnn>> types_;
};

/// A parsed unit: its statements, and the arena that owns them. The top-level code runs as
/// the body of `proto` (its block-local variables are frame slots; its lets are globals).
struct Program {
  AstArena arena;
  FnProto* proto = nullptr;
};

}  // namespace tessel::interp
