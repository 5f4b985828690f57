#!/usr/bin/env python3
"""Generates every layer's view of the elementwise op definitions (ops/elementwise.ops).

Usage: opgen.py OPS_FILE MATH_HEADER OUT_DIR [TENSOR_FUNCTIONS]

Run by CMake at configure time (the top-level CMakeLists.txt; a change to either input
re-runs it). Each output is rewritten only when its text changes, so an edit rebuilds only what
reads it. Outputs (docs/internals.md, "Adding an op"):

  elementwise_ops.def       TESSEL_OP rows, appended to shapes/op_list.def's OpKinds
  elementwise_table.inc     shapes::ElementwiseDef rows: dtype rule, arguments, gradients,
                            samples, help (shapes/elementwise_defs.cpp)
  elementwise_aliases.def   TESSEL_ALIAS(remainder, Mod): second spellings of ops
  elementwise_formulas.h    one function per op and compute dtype, ew_op_NAME, in the common
                            subset of C++ and GLSL
  elementwise_kernels.def   TESSEL_EW_F1(Enum, fn) ... TESSEL_EW_I3(Enum, fn) rows (f32 or
                            i32 formula, arity): the cpu kernels' switches; the includer
                            defines all six macros, the file undefines them
  elementwise.glsl          ops/elementwise_math.h, the formulas and ewDefinedF/I (op code ->
                            formula) as one GLSL file: elementwise.comp includes it
  elementwise_glsl.inc      the same text as a C++ raw string, embedded in the fused kernels
  elementwise_codes.cmake   the ops' shader codes: one SPIR-V module of elementwise.comp each
  decompositions_table.inc  shapes::DecompositionDef rows: the ops written as formulas over
                            others (selu, mish, hardtanh, ...), bound by
                            interp/tensors/tensor_decompositions_defined.cpp
  decompositions_count.inc  how many rows that is (a constant for the binding's templates)
  elementwise_docs.txt      help() entries (interp/natives/docs format)
  tensor_signatures.h       from TENSOR_FUNCTIONS (ops/tensor_functions.txt): one
                            NativeSignature per entry, the argument binding of the
                            hand-written tensor natives (tools/signatures.py)
"""
import os
import re
import sys

import signatures

ARITY_CATEGORY = {1: "Unary", 2: "Binary", 3: "Ternary"}
# Op codes of elementwise.comp (backends/vulkan/shaders/ew_ops.h): the hand-written ops use
# 1..62; defined ops take 64.. (unary), 128.. (binary), 192.. (ternary), so that the shader
# tells an op's arity from its code.
CODE_BASE = {1: 64, 2: 128, 3: 192}
CODE_LIMIT = {1: 128, 2: 192, 3: 256}


class OpDef:
    def __init__(self, name, args, result, line):
        self.name, self.args, self.result, self.line = name, args, result, line
        self.float = None
        self.int = None
        self.bool_to_i32 = False
        self.reject_bool = False
        self.int_divisor = False
        self.grads = {}
        self.nograd = False
        self.samples = {}
        self.torch = None
        self.help = None
        self.example = None
        self.code = None
        self.core_doc = False

    def enum_of_target(self):
        return "".join(p.capitalize() for p in self.target.split("_"))

    @property
    def enum(self):
        return "".join(p.capitalize() for p in self.name.split("_"))


def fail(path, line, msg):
    sys.exit(f"{path}:{line}: {msg}")


class Decomp:
    """`decomp NAME(ARGS) = FORMULA`: arguments without a default are tensors, the others
    numbers with that default."""

    def __init__(self, name, args, formula, line):
        self.name, self.formula, self.line = name, formula, line
        self.args, self.defaults = [], []
        for a in args:
            n, eq, d = a.partition("=")
            self.args.append(n.strip())
            self.defaults.append(float(d) if eq else None)
        self.help = self.example = self.torch = None
        self.samples = {}
        self.grads = {}  # the decomposition's ops give the gradients
        self.result = "decomp"
        self.int = None
        self.int_divisor = False

    @property
    def tensors(self):
        return [a for a, d in zip(self.args, self.defaults) if d is None]


def parse(path, with_decomps=False):
    ops, aliases, decomps = [], [], []
    cur = None
    with open(path) as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line.startswith(" "):
                cur = None
                m = re.fullmatch(r"op (\w+)\(([\w, ]+)\) -> (float|same|bool)", line)
                a = re.fullmatch(r"alias (\w+) = (\w+)", line)
                dm = re.fullmatch(r"decomp (\w+)\(([^)]*)\) = (.+)", line)
                if dm:
                    cur = Decomp(dm.group(1), dm.group(2).split(","), dm.group(3).strip(), no)
                    decomps.append(cur)
                elif m:
                    args = [x.strip() for x in m.group(2).split(",")]
                    if not 1 <= len(args) <= 3:
                        fail(path, no, "an elementwise op takes 1 to 3 arguments")
                    cur = OpDef(m.group(1), args, m.group(3), no)
                    ops.append(cur)
                elif a:
                    cur = OpDef(a.group(1), ["input", "other"], "alias", no)
                    cur.target = a.group(2)
                    aliases.append(cur)
                else:
                    fail(path, no, "expected `op NAME(ARGS) -> float|same|bool`, `alias A = B` or "
                              "`decomp NAME(ARGS) = FORMULA`")
                continue
            if cur is None:
                fail(path, no, "an indented line outside an op")
            body = line.strip()
            if body == "nograd":
                cur.nograd = True
                continue
            key, sep, value = body.partition(":")
            if not sep:
                fail(path, no, f"expected `key: value`, got {body!r}")
            key, value = key.strip(), value.strip()
            words = key.split()
            if key == "float":
                cur.float = value
            elif key == "int":
                cur.int = value
            elif key == "bool" and value == "i32":
                cur.bool_to_i32 = True
            elif key == "bool" and value == "error":
                cur.reject_bool = True
            elif key == "checks" and value == "int_divisor":
                cur.int_divisor = True
            elif words[0] == "grad" and len(words) == 2 and words[1] in cur.args and \
                    not isinstance(cur, Decomp):
                cur.grads[words[1]] = value
            elif words[0] == "sample" and len(words) == 2 and words[1] in cur.args:
                lo, hi = value.split()
                cur.samples[words[1]] = (float(lo), float(hi))
            elif key == "doc" and value == "core":
                cur.core_doc = True
            elif key == "torch":
                cur.torch = value
            elif key == "help":
                cur.help = value
            elif key == "example":
                cur.example = value
            else:
                fail(path, no, f"unknown field {key!r}")
    for al in aliases + decomps:
        if not al.help or not al.example:
            fail(path, al.line, f"{al.name} needs `help:` and `example:`")
    names = set()
    for op in ops:
        where = f"op {op.name}"
        if op.name in names:
            fail(path, op.line, f"{where} is defined twice")
        names.add(op.name)
        if not op.float:
            fail(path, op.line, f"{where} has no `float:` formula")
        if op.result in ("same", "bool") and not op.int:
            fail(path, op.line, f"{where} is `{op.result}` but has no `int:` formula")
        if op.result == "float" and op.int:
            fail(path, op.line, f"{where} computes in f32: an `int:` formula would never run")
        if not op.help or not op.example:
            fail(path, op.line, f"{where} needs `help:` and `example:`")
        if not op.nograd and not op.grads:
            fail(path, op.line, f"{where} has no `grad` line: give one per argument or `nograd`")
    counters = dict(CODE_BASE)
    for op in ops:
        n = len(op.args)
        op.code = counters[n]
        counters[n] += 1
        if op.code >= CODE_LIMIT[n]:
            fail(path, op.line, f"too many {ARITY_CATEGORY[n].lower()} ops for the shader's codes")
    if with_decomps:
        return ops, aliases, decomps
    return ops, aliases


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def formula_functions(ops):
    out = []
    for op in ops:
        params = ["a", "b", "c"][: len(op.args)]
        fparams = ", ".join(f"float {p}" for p in params)
        out.append(f"// {op.name}({', '.join(op.args)}), ops/elementwise.ops line {op.line}")
        out.append(f"EW_FN float ew_op_{op.name}({fparams}) {{ return {op.float}; }}")
        if op.int:
            iparams = ", ".join(f"int {p}" for p in params)
            out.append(f"EW_FN int ew_op_{op.name}({iparams}) {{ return {op.int}; }}")
    return "\n".join(out) + "\n"


def glsl_dispatch(ops):
    """ewDefinedF/I: the formula of the one defined op a build of elementwise.comp is for.

    Each defined op gets its own SPIR-V module, elementwise.comp compiled with
    -DEW_ONLY_OP=code (backends/vulkan/CMakeLists.txt): one shader holding every formula made
    every pipeline of every elementwise op 3x slower to create on lavapipe, which inlines all of
    them at each call site before the op's specialization constant can prune them."""
    out = []
    for t, fn in (("float", "ewDefinedF"), ("int", "ewDefinedI")):
        out.append(f"{t} {fn}({t} a, {t} b, {t} c) {{")
        out.append("#if defined(EW_ONLY_OP)")
        first = True
        for op in ops:
            if t == "int" and not op.int:
                continue
            out.append(f"#{'if' if first else 'elif'} EW_ONLY_OP == {op.code}")
            out.append(f"  return ew_op_{op.name}({', '.join('abc'[: len(op.args)])});")
            first = False
        if not first:
            out.append("#endif")
        out.append("#endif")
        out.append(f"  return {'0.0' if t == 'float' else '0'};")
        out.append("}")
    return "\n".join(out) + "\n"


def table_rows(ops):
    rows = []
    for op in ops:
        args = ", ".join(c_string(a) for a in op.args)
        grads = ", ".join(c_string(op.grads[a]) if a in op.grads else "nullptr" for a in op.args)
        lo = ", ".join(f"{op.samples.get(a, (-3.0, 3.0))[0]!r}f" for a in op.args)
        hi = ", ".join(f"{op.samples.get(a, (-3.0, 3.0))[1]!r}f" for a in op.args)
        torch_expr = op.torch or f"torch.{op.name}({', '.join(op.args)})"
        rows.append(
            f"{{OpKind::{op.enum}, {c_string(op.name)}, {len(op.args)}, "
            f"EwResult::{op.result.capitalize()}, "
            f"{'true' if op.int else 'false'}, {'true' if op.bool_to_i32 else 'false'}, "
            f"{'true' if op.reject_bool else 'false'}, "
            f"{'true' if op.int_divisor else 'false'}, {'false' if op.nograd else 'true'}, "
            f"{op.code}, {{{args}}}, {{{grads}}}, {{{lo}}}, {{{hi}}}, {c_string(torch_expr)}, "
            f"{c_string(op.help)}, {c_string(op.example)}}},")
    return "\n".join(rows) + "\n"


def kernel_rows(ops):
    rows = []
    for op in ops:
        n = len(op.args)
        rows.append(f"TESSEL_EW_F{n}({op.enum}, ew_op_{op.name})")
        if op.int:
            rows.append(f"TESSEL_EW_I{n}({op.enum}, ew_op_{op.name})")
    # Undefined at the end, as shapes/op_list.def's TESSEL_OP: each includer defines all six.
    rows += [f"#undef TESSEL_EW_{t}{n}" for n in (1, 2, 3) for t in "FI"]
    return "\n".join(rows) + "\n"


def decomp_rows(decomps, ops):
    by_name = {op.name: op for op in ops}
    rows = []
    for d in decomps:
        op = by_name.get(d.name)
        if op and op.args != d.tensors:
            sys.exit(f"decomp {d.name}: the op of its name must take its tensor arguments "
                     f"({', '.join(d.tensors)})")
        if len(d.args) > 4:
            sys.exit(f"decomp {d.name}: at most 4 arguments")
        args = ", ".join(c_string(a) for a in d.args)
        defaults = ", ".join("kTensorArg" if v is None else repr(v) for v in d.defaults)
        torch_expr = d.torch or f"torch.nn.functional.{d.name}({', '.join(d.tensors)})"
        rows.append(f"{{{c_string(d.name)}, {len(d.args)}, {{{args}}}, {{{defaults}}}, "
                    f"{c_string(d.formula)}, {c_string(torch_expr)}, {c_string(d.help)}, "
                    f"{c_string(d.example)}, {'OpKind::' + op.enum if op else 'std::nullopt'}}},")
    return "\n".join(rows) + "\n"


def signature(op):
    if isinstance(op, Decomp):
        return ", ".join(a if v is None else f"{a} = {v!r}" for a, v in zip(op.args, op.defaults))
    return ", ".join(op.args)


def docs(ops):
    out = ["# Generated by tools/opgen.py from ops/elementwise.ops; do not edit.",
           "## Elementwise math", "    Defined once in ops/elementwise.ops: every backend, every "
           "dtype its formula takes, gradients, compiled and eager.", ""]
    for op in ops:
        out.append(f"{op.name}({signature(op)})")
        out.append(f"    {op.help}")
        out.append(f"    Example: `{op.example}`")
        out.append("")
    return "\n".join(out)


def write(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main():
    ops_file, math_header, out_dir = sys.argv[1:4]
    ops, aliases, decomps = parse(ops_file, with_decomps=True)
    os.makedirs(out_dir, exist_ok=True)
    banner = "// Generated by tools/opgen.py from ops/elementwise.ops; do not edit.\n"
    write(os.path.join(out_dir, "elementwise_ops.def"), banner + "".join(
        f'TESSEL_OP({op.enum}, "{op.name}", {ARITY_CATEGORY[len(op.args)]})\n' for op in ops))
    write(os.path.join(out_dir, "elementwise_table.inc"), banner + table_rows(ops))
    write(os.path.join(out_dir, "elementwise_aliases.def"), banner + "".join(
        f"TESSEL_ALIAS({al.name}, {al.enum_of_target()})\n" for al in aliases) +
        "#undef TESSEL_ALIAS\n")
    formulas = formula_functions(ops)
    write(os.path.join(out_dir, "elementwise_formulas.h"), banner + formulas)
    write(os.path.join(out_dir, "elementwise_kernels.def"), banner + kernel_rows(ops))
    with open(math_header) as f:
        math_text = f.read()
    glsl = (banner + "#define TESSEL_GLSL 1\n#define EW_FN\n" + math_text + formulas + glsl_dispatch(ops))
    write(os.path.join(out_dir, "elementwise.glsl"), glsl)
    write(os.path.join(out_dir, "elementwise_glsl.inc"), 'R"glsl(' + glsl + ')glsl"\n')
    write(os.path.join(out_dir, "elementwise_codes.cmake"),
          "# Generated by tools/opgen.py: the vulkan op codes of ops/elementwise.ops.\n"
          f"set(TESSEL_EW_DEFINED_CODES {' '.join(str(op.code) for op in ops)})\n")
    write(os.path.join(out_dir, "decompositions_table.inc"), banner + decomp_rows(decomps, ops))
    write(os.path.join(out_dir, "decompositions_count.inc"), banner + f"{len(decomps)}\n")
    # An op whose decomposition shares its name is documented by the decomposition's entry.
    decomp_names = {d.name for d in decomps}
    documented = [op for op in ops if op.name not in decomp_names and not op.core_doc]
    write(os.path.join(out_dir, "elementwise_docs.txt"), docs(documented + aliases + decomps))
    if len(sys.argv) > 4:
        functions = sys.argv[4]
        sigs = signatures.parse_file(functions, fail)
        source = "ops/" + os.path.basename(functions)
        write(os.path.join(out_dir, "tensor_signatures.h"), signatures.header(sigs, source))


if __name__ == "__main__":
    main()
