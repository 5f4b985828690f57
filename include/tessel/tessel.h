// Tessel's public C++ API: the only header an application includes to embed the interpreter
// (spec: embedding.md; guide: docs/embedding.md). It names no internal, ANTLR, Z3 or Vulkan
// type, so apps built against it keep compiling while the internals change.
//
// Threads. An Interpreter is used by one thread at a time; different interpreters are
// independent (globals, compiled-frame caches, config, stats, memory and step limits) and may
// run on different threads at once. Interpreter::interrupt() is the exception: it may be
// called from any thread or from a signal handler while another thread runs a script.
// A Value belongs to the interpreter and thread that use it: copy and destroy it on that
// thread. A Tensor is an immutable, reference-counted handle whose count is atomic: it may be
// moved to, read on and freed on any thread.
//
// Lifetime. Values keep what they refer to alive, their interpreter's state included: a
// function taken from an interpreter stays callable after the Interpreter object is gone.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct DLManagedTensor;  // <dlpack/dlpack.h>; only apps that exchange tensors include it

namespace tessel {

class Value;

/// Which files scripts may read and write with load, save, read_text, write_text, read_lines
/// and load_csv (docs/embedding.md, "Files"). Paths are resolved (symbolic links and `..`
/// followed) before the check; a script's access outside the policy is an IOError naming the
/// path and the policy. The app's own tessel::load and tessel::save are not checked.
struct FilePolicy {
  enum class Access {
    None,       ///< no file at all (the default for embedded interpreters)
    ReadOnly,   ///< reading files under `folders`
    ReadWrite,  ///< reading and writing files under `folders`
    All,        ///< any file the process may open (the `tessel` command's default)
  };
  Access access = Access::None;
  std::vector<std::string> folders;
};

/// How an Interpreter is set up. Every field has a usable default.
struct Options {
  /// What scripts see as `args` (a list of strings).
  std::vector<std::string> args;
  /// Steps (statements, loop iterations and calls) one run() or call() may execute; 0: no
  /// limit. Past it: LimitError.
  int64_t maxSteps = 0;
  /// Bytes of tensor memory this interpreter may hold at once (tensors it created and still
  /// references, compiled graphs' buffers included); 0: no limit. Past it: LimitError.
  int64_t maxMemoryBytes = 0;
  /// Deepest chain of Tessel calls before a LimitError (the native stack is checked too).
  int maxCallDepth = 10000;
  /// Where print() writes; unset: standard output.
  std::function<void(std::string_view)> output;
  /// Where print(..., file = stderr) and stderr.write() write; unset: standard error.
  std::function<void(std::string_view)> errorOutput;
  /// The default device of new tensors: "cpu", "vulkan" or "tpu"; "" for the TESSEL_DEVICE
  /// environment variable, else cpu (what the `tessel` command does).
  std::string device = "cpu";
  /// What scripts may read and write; nothing by default.
  FilePolicy files;
  /// For hosts that show more than text (a notebook): where display(v) shows a value, which
  /// the host may render with Interpreter::mimeBundle. The text printed before the call has
  /// reached `output` by then. Unset: display prints the value's repr on the output.
  std::function<void(const Value&)> display;
  /// For hosts that can show a text and later replace it in place (Jupyter's display_id):
  /// progress bars draw there. The first call for an `id` shows `text` (`first` is true), later
  /// ones replace it. Unset: progress bars draw on the error output.
  std::function<void(std::string_view id, std::string_view text, bool first)> updatableDisplay;
};

/// An error raised by a script (or by the API on misuse). what() is the full diagnostic:
/// `file:line:col: Kind: message`, the source line, a caret and the calls that led there.
class Error : public std::runtime_error {
 public:
  Error(std::string kind, std::string message, std::string file, int line, int column,
        std::string diagnostic, std::string coloredDiagnostic = {}, int exitStatus = 0);
  /// "TypeError", "ShapeError", "LimitError", "Interrupted", "HostError", ...
  const std::string& kind() const { return kind_; }
  /// The message alone, without location or kind.
  const std::string& message() const { return message_; }
  /// Where it happened: the script's path or the name given to run(); "" when unknown.
  const std::string& file() const { return file_; }
  /// 1-based; 0 when the error has no location (a file that cannot be opened, say).
  int line() const { return line_; }
  int column() const { return column_; }
  /// what() with ANSI colors (a bold location, the kind and the caret in red), for a terminal;
  /// what() itself for an error without a location.
  const std::string& coloredDiagnostic() const { return coloredDiagnostic_; }
  /// For a "SystemExit" (the script called exit(n), which does not end the app): n; else 0.
  int exitStatus() const { return exitStatus_; }

 private:
  std::string kind_, message_, file_, coloredDiagnostic_;
  int line_, column_, exitStatus_;
};

/// A tensor: shape, dtype ("f32", "i32", "bool") and device. Cheap to copy (a shared handle).
class Tensor {
 public:
  /// Wraps a DLPack tensor without copying when it is on the cpu and its dtype is one of
  /// Tessel's (float32, int32, bool): strides and byte_offset are honoured, and `managed`'s
  /// deleter runs when the last Tessel reference to the data is gone. Other dtypes are
  /// converted (float64 to f32, integers to i32, as JAX does without x64) into a new tensor,
  /// and the deleter runs at once. Takes ownership of `managed` in every case, errors included.
  /// Throws Error("ValueError") for devices other than cpu and unsupported dtypes.
  static Value fromDLPack(DLManagedTensor* managed);
  /// A DLPack view of this tensor's data on the cpu (device tensors are copied to the host
  /// first). The caller owns the result and frees it with `result->deleter(result)`; the data
  /// stays valid until then, whatever happens to this Tensor.
  DLManagedTensor* toDLPack() const;

  /// A new contiguous cpu tensor holding a copy of `data` (row-major, numel(shape) elements).
  static Tensor fromData(std::span<const float> data, std::vector<int64_t> shape);
  static Tensor fromData(std::span<const int32_t> data, std::vector<int64_t> shape);
  static Tensor fromData(std::span<const bool> data, std::vector<int64_t> shape);
  /// Copies the elements in row-major order into `out`, whose size must be numel(). The
  /// element type must be the tensor's dtype (float for f32, int32_t for i32, bool for bool).
  void copyTo(std::span<float> out) const;
  void copyTo(std::span<int32_t> out) const;
  void copyTo(std::span<bool> out) const;

  std::vector<int64_t> shape() const;
  int64_t numel() const;
  /// "f32", "i32" or "bool".
  std::string dtype() const;
  /// "cpu", "vulkan" or "tpu".
  std::string device() const;

  struct Impl;
  explicit Tensor(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  const Impl& impl() const { return *impl_; }

 private:
  std::shared_ptr<const Impl> impl_;
};

/// A Tessel value: none, int, float, bool, str, tensor, list, tuple, dict, function, ...
class Value {
 public:
  /// none.
  Value();
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Value(T i) : Value(FromInt{}, static_cast<int64_t>(i)) {}
  Value(double f);
  Value(bool b);
  Value(std::string s);
  Value(const char* s) : Value(std::string(s)) {}
  Value(Tensor t);
  /// A new list of these values.
  static Value list(std::vector<Value> items);

  bool isNone() const;
  bool isInt() const;  ///< true for ints, not bools
  bool isFloat() const;
  bool isBool() const;
  bool isString() const;
  bool isTensor() const;
  bool isList() const;  ///< a list or a tuple
  bool isDict() const;
  bool isCallable() const;

  /// Each throws Error("TypeError") naming the actual type when the value is not one.
  int64_t asInt() const;
  double asFloat() const;  ///< an int converts
  bool asBool() const;
  std::string asString() const;
  Tensor asTensor() const;

  /// Elements of a list or tuple, entries of a dict, characters of a str.
  size_t size() const;
  /// The i-th element of a list or tuple (IndexError when out of range).
  Value operator[](size_t i) const;
  /// The entry of a dict under a string key (KeyError when absent).
  Value operator[](std::string_view key) const;
  /// A dict's keys, in insertion order.
  std::vector<Value> keys() const;
  /// A list's or tuple's elements.
  std::vector<Value> items() const;

  /// The name type(v) gives in Tessel: "int", "tensor", "list", ...
  std::string typeName() const;
  /// What the REPL would echo: `3`, `"a"`, `[1, 2]`, `tensor([...], dtype=f32)`.
  std::string repr() const;
  /// The names `value.name` may use, as dir(value) lists them: a module's public members, the
  /// methods and attributes of the value's type. What an editor completes after a dot.
  std::vector<std::string> attributeNames() const;

  struct Impl;
  explicit Value(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  const Impl& impl() const { return *impl_; }

 private:
  struct FromInt {};
  Value(FromInt, int64_t i);
  std::shared_ptr<Impl> impl_;
};

/// Reads a .npy file (a tensor), an .npz file (a dict of tensors) or a .safetensors file (the
/// tree of dicts, lists and tuples it was saved from, or a dict by name), by the extension,
/// onto `device` ("cpu", "vulkan", "tpu"). On the cpu, the tensors of a safetensors file view
/// its memory mapping, which lives as long as they do. Throws Error: IOError when the file
/// cannot be read, ValueError when its contents are damaged or do not fit Tessel's dtypes.
Value load(const std::string& path, std::string_view device = "cpu");
/// Writes `value` by the extension, as a script's save() does: a tensor to .npy, a dict of
/// tensors to .npz (deflated with `compress`), a tree to .safetensors. The file is replaced
/// only once the new one is complete (written beside it, synced, renamed over it).
void save(const std::string& path, const Value& value, bool compress = false);

/// A host function callable from scripts. A C++ exception it throws becomes a script error at
/// the call (its kind: the Error's for tessel::Error, else "HostError").
using HostFunction = std::function<Value(std::span<const Value> args)>;

/// One Tessel session: its own globals, modules, compiled functions, config and limits.
class Interpreter {
 public:
  explicit Interpreter(Options options = {});
  ~Interpreter();
  Interpreter(Interpreter&&) noexcept;
  Interpreter& operator=(Interpreter&&) noexcept;
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  /// Runs source text in the main module (`name` is what errors show as its file). Returns the
  /// value of a final expression statement, else none.
  Value run(std::string_view source, std::string_view name = "<embed>");
  /// Runs a script file in the main module; returns as run() does.
  Value runFile(const std::string& path);
  /// Runs source text as a whole program, as `tessel -c` does: like run(), but a final
  /// expression statement is a statement like the others (it counts as a step, its value is
  /// dropped). For apps that run scripts rather than evaluate expressions.
  void exec(std::string_view source, std::string_view name = "<embed>");
  /// Runs a script file as a whole program, as `tessel script.dsl` does (see exec()).
  void execFile(const std::string& path);
  /// Forgets every global the main module has (the REPL's :reset): `args` is set again, and
  /// imported modules and compiled code stay cached.
  void reset();

  /// A global of the main module (NameError when there is none).
  Value get(std::string_view global) const;
  /// Creates or replaces a global of the main module.
  void set(std::string_view global, Value value);

  /// Calls a global function (or any callable global) with positional arguments.
  Value call(std::string_view function, std::initializer_list<Value> args);
  Value call(const Value& function, std::span<const Value> args);

  /// Makes `fn` a global function of the main module named `name`.
  void define(std::string_view name, HostFunction fn);

  /// Asks the running script to stop at its next loop iteration or call (it fails with an
  /// Error of kind "Interrupted"); a no-op when nothing runs. Safe from any thread and from a
  /// signal handler.
  void interrupt();

  /// Collects now: frees the values that only reference each other (cycles no script and no
  /// Value the app holds can reach), as the script's gc() does; returns how many containers
  /// were freed. Collections also run by themselves as values are made (config.gc).
  int64_t collect();

  // For tools: completion, help and inspection in editors, REPLs and notebooks. These look
  // only at values already bound and never run a script's code.

  /// The names in scope at the top level: the built-ins and the main module's globals.
  std::vector<std::string> globalNames() const;
  /// The value a dotted name ("x", "nn.linear", "t.shape") is bound to: a global, then module
  /// members and tensor properties; nullopt when it names nothing bound. No call is made.
  std::optional<Value> lookup(std::string_view dottedName) const;
  /// What help(value) prints: the signature and documentation of a built-in, a module (and
  /// its members) or a function (its comment), else those of the value's type.
  std::string help(const Value& value) const;
  /// One line on the global `name`: its signature and the first sentence of its
  /// documentation; "" when it has none. What a REPL shows for a name typed in full.
  std::string docSummary(std::string_view name) const;
  /// The same for the attribute `name` of `object` (a method, a module member, a property).
  std::string docSummary(const Value& object, std::string_view name) const;
  /// Every built-in's documentation as Markdown (docs/reference.md is this text).
  std::string referenceMarkdown() const;

  /// What the compiler made of a @compile'd function, for tools that show it (the REPL's
  /// :guards and :graphs): each compiled entry's guards, or its optimized graph. nullopt when
  /// `function` is not a compiled function.
  enum class CompiledView { Guards, Graphs };
  std::optional<std::string> describeCompiled(const Value& function, CompiledView view) const;

  /// The forms a notebook shows `value` in, one text per MIME type: "text/plain" (its repr)
  /// first, then every rich form that renders it: a tensor's "text/html" table, a figure's
  /// "image/svg+xml", ... A figure's form may run its Tessel code to draw it.
  std::vector<std::pair<std::string, std::string>> mimeBundle(const Value& value);

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

/// `text` for HTML element content and quoted attribute values: & < > " ' escaped. The
/// notebook's rich forms use it, and so can a frontend that writes HTML (`tessel report`).
std::string escapeHtml(std::string_view text);

/// Whether `source` is unfinished, so that the next line continues it: an open bracket or a
/// trailing backslash. A REPL or notebook frontend asks before it runs what was typed.
bool isIncomplete(std::string_view source);

/// Profile-guided dynamic shapes (docs/compile.md, "PGO"): what a script's compiled functions
/// learned about their sizes in earlier runs, kept per script and read back by the next run.
namespace pgo {

/// What one compiled function (or one region of it) of a script learned.
struct ProfileEntry {
  std::string script;    ///< the script's absolute path
  int line = 0;          ///< of the function's `fn`
  std::string function;  ///< its name
  std::string region;    ///< "" for the whole function; "5:3-7" for a region of its statements
  /// Each source of a size or a scalar ("x.shape[0]", "n") and its one value seen, or "?" once
  /// several values were seen (the source is dynamic), by name.
  std::vector<std::pair<std::string, std::string>> sources;
};

/// The folder profiles are kept in: $TESSEL_CACHE_DIR/pgo, else $HOME/.cache/tessel/pgo.
std::string profileDir();
/// The profile file of the script at `script` (which may not exist yet); "" when `script` is
/// not a script file.
std::string profilePath(const std::string& script);
/// The entries of a profile file (of any script). Throws Error("ValueError") saying why when
/// the file cannot be read or is not a profile.
std::vector<ProfileEntry> readProfile(const std::string& path);

}  // namespace pgo

/// Distributed runs (docs/distributed.md): a process started by mpirun is one rank of a world.
/// Started alone, or built without MPI, it is a world of one, and these make no MPI call.
///
/// Joins the world now, rather than at the first use of `dist`: call it from the thread that
/// will call leaveWorld(), before the interpreters start, so their logs carry the rank.
void joinWorld();
/// This rank stops with `status` because of `message` (the error that ended its script): the
/// other ranks are told, then the whole job ends. Returns only in a world of one.
void abortWorld(int status, const std::string& message);
/// Leaves the world once the last collective is done (an app that does not is left at exit).
void leaveWorld();

}  // namespace tessel
